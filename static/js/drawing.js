// The diagram's canvas and what it shows: a drawing, either the SVG
// inline or, past the server's ViewSVGMax pages, a scene (scene.js).
// Both have their size w, h and their cards' boxes in the unzoomed
// drawing's pixels, show a view (view.js), mark cards ("selected",
// "drag-source", "drop-inside") and give a card's words; the rest of
// the canvas code asks them and never the SVG. A scene is fetched
// (diagram.js); until it is in, there is no drawing.
import * as V from "./view.js";
import { drawMinimap } from "./minimap.js";
import { selection } from "./selection.js";
import { flash } from "./flash.js";

export const diagram = () => document.getElementById("diagram");
export const canvasOf = () => diagram()?.querySelector(".diagram-canvas");
export const onCanvas = () => !!document.activeElement?.matches?.(".diagram-canvas");
export const layoutOf = () => diagram()?.querySelector("select[name=layout]")?.value || "tree";

export function drawingOf(canvas) {
  if (canvas && !canvas.drawing && !canvas.dataset.scene) canvas.drawing = svgDrawing(canvas);
  return canvas?.drawing || null;
}

function svgDrawing(canvas) {
  const svg = canvas.querySelector("svg");
  if (!svg) return null;
  const cardOf = (id) => id && svg.querySelector(`g.node[id="p${id}"], g[id="a_p${id}"]`);
  const cardID = (g) => /^(?:a_)?p(\d+)$/.exec(g.id)?.[1];
  const marks = {};
  let measured = null;
  return {
    w: svg.width.baseVal.value,
    h: svg.height.baseVal.value,
    // The boxes are measured on screen once, so that what the SVG
    // transforms inside (Graphviz's radial SVG moves its whole graph)
    // counts too.
    boxes() {
      if (!measured) {
        const o = svg.getBoundingClientRect(), k = view(canvas).k;
        const at = (r) => ({ x: (r.left - o.left) / k, y: (r.top - o.top) / k, w: r.width / k, h: r.height / k });
        const list = [...svg.querySelectorAll("g.node[id^='p'], g[id^='a_p']")].map((g) => {
          const badge = g.querySelector("g.badge");
          return { id: cardID(g), ...at(g.getBoundingClientRect()), badge: badge && at(badge.getBoundingClientRect()) };
        });
        measured = { list, byID: new Map(list.map((b) => [b.id, b])) };
      }
      return measured;
    },
    // useful is the box of the cards outside the frames beside the main
    // tree (utility and footer navigation) and the legend: what a fit
    // shows first.
    useful() {
      const { list } = this.boxes();
      const o = svg.getBoundingClientRect(), k = view(canvas).k;
      const frames = [...svg.querySelectorAll("g[id^='frame-'], g[id^='nav-'], g#legend")].map((g) => {
        const r = g.getBoundingClientRect();
        return { x: (r.left - o.left) / k, y: (r.top - o.top) / k, w: r.width / k, h: r.height / k };
      });
      const main = list.filter((b) => !frames.some((f) => V.inside(f, b.x + b.w / 2, b.y + b.h / 2)));
      if (!main.length || !frames.length) return null;
      const x = Math.min(...main.map((b) => b.x)), y = Math.min(...main.map((b) => b.y));
      const m = 12; // a margin around the cards
      return { x: x - m, y: y - m, w: Math.max(...main.map((b) => b.x + b.w)) - x + 2 * m, h: Math.max(...main.map((b) => b.y + b.h)) - y + 2 * m };
    },
    show(v) { svg.style.transform = `translate(${v.x}px, ${v.y}px) scale(${v.k})`; },
    mark(kind, id) {
      cardOf(marks[kind])?.classList.remove(kind);
      marks[kind] = id;
      cardOf(id)?.classList.add(kind);
    },
    marked: (kind) => marks[kind] || null,
    words: (id) => cardOf(id)?.textContent || "",
  };
}

// view is the canvas's view; saveView keeps it across redraws of the
// diagram; apply shows it.
export function view(canvas) {
  if (!canvas.view) canvas.view = { k: 1, x: 0, y: 0 };
  return canvas.view;
}
// A canvas outside the editor's #diagram (the compare and version
// pages), or one a redraw has taken off the page, has no view to keep.
export function saveView(canvas) {
  const sec = canvas.closest("#diagram");
  if (sec) sec.dataset.view = JSON.stringify(view(canvas));
}
export function forgetView() { delete diagram()?.dataset.view; }
export function apply(canvas) {
  const d = drawingOf(canvas);
  d?.show(view(canvas));
  hideHandles(canvas);
  if (d) drawMinimap(canvas, d, view(canvas), selection.picked);
}
export function hideHandles(canvas) {
  const h = canvas?.querySelector(".canvas-handles");
  if (h) h.hidden = true;
}

export function zoomAt(canvas, factor, cx, cy) { V.zoomAt(view(canvas), factor, cx, cy); }
export function zoomCentre(canvas, factor) { zoomAt(canvas, factor, canvas.clientWidth / 2, canvas.clientHeight / 2); }
// fit shows the drawing, or its useful part, in the part of the canvas
// the window shows (a canvas taller than the window is fitted to what is
// in view); opening (readable) it shows no smaller than people read,
// "Fit" shows it whole. The view it makes is kept: while it is
// unchanged, a canvas that grows or shrinks (Details hidden, the window
// resized) is fitted again the same way.
export function fit(canvas, readable = false) {
  const d = drawingOf(canvas);
  if (!d) return;
  const H = Math.max(200, Math.min(canvas.clientHeight, innerHeight - canvas.getBoundingClientRect().top));
  V.fit(view(canvas), d.w, d.h, canvas.clientWidth, H, d.useful?.(), readable ? V.READABLE : 0, layoutOf() === "radial");
  canvas.fitted = { ...view(canvas), readable };
  watchSize(canvas);
}
const fittedStill = (canvas) => {
  const f = canvas.fitted, v = canvas.view;
  return !!f && !!v && f.k === v.k && f.x === v.x && f.y === v.y;
};
const resized = typeof ResizeObserver === "undefined" ? null : new ResizeObserver((entries) => {
  for (const { target } of entries) {
    if (target.isConnected && fittedStill(target)) { fit(target, target.fitted.readable); apply(target); saveView(target); }
  }
});
function watchSize(canvas) {
  if (resized && !canvas.watched) { canvas.watched = true; resized.observe(canvas); }
}
// zoomToPage centres the card of page id, large enough to read.
export function zoomToPage(canvas, id) {
  const b = boxOf(canvas, id);
  if (!b) { flash(id ? "The selected page is not in this drawing." : "Select a page first.", true); return; }
  V.centre(view(canvas), b, canvas.clientWidth, canvas.clientHeight);
}
// reveal pans just enough to bring the card of page id into view.
export function reveal(canvas, id) {
  const b = boxOf(canvas, id);
  if (!b) return false;
  V.reveal(view(canvas), b, canvas.clientWidth, canvas.clientHeight);
  apply(canvas);
  saveView(canvas);
  return true;
}

// boxes lists the cards of the canvas's drawing.
const noBoxes = { list: [], byID: new Map() };
export const boxes = (canvas) => drawingOf(canvas)?.boxes() || noBoxes;
export const boxOf = (canvas, id) => boxes(canvas).byID.get(id);

// toDrawing is the drawing's point under the screen point (x, y).
function toDrawing(canvas, x, y) {
  const r = canvas.getBoundingClientRect();
  return V.toDrawing(view(canvas), x - r.left - canvas.clientLeft, y - r.top - canvas.clientTop);
}
// cardAt is the box of the card under the screen point (x, y).
export const cardAt = (canvas, x, y) => V.boxAt(boxes(canvas).list, ...toDrawing(canvas, x, y));
// onBadge says whether (x, y) is on card b's comment badge.
export const onBadge = (canvas, b, x, y) => V.inside(b.badge, ...toDrawing(canvas, x, y));
// rectOf is where the card of page id is on screen.
export function rectOf(canvas, id) {
  const b = canvas && boxOf(canvas, id);
  if (!b) return null;
  const r = canvas.getBoundingClientRect(), s = V.onScreen(view(canvas), b);
  const left = r.left + canvas.clientLeft + s.x, top = r.top + canvas.clientTop + s.y;
  return { left, top, width: s.w, height: s.h, right: left + s.w, bottom: top + s.h };
}
// nextCard is the card an arrow key leads to from page id.
export const nextCard = (canvas, id, key) => V.nextBox(boxes(canvas).list, boxOf(canvas, id), key)?.id;

// siblingAxis is the way li's siblings line up in the drawing: "x"
// side by side, "y" one under another.
export function siblingAxis(canvas, li) {
  const me = boxOf(canvas, li.dataset.id);
  for (const s of [li.previousElementSibling, li.nextElementSibling]) {
    const b = me && s?.dataset?.id && boxOf(canvas, s.dataset.id);
    if (b) return V.lineOf(me, b);
  }
  return layoutOf() === "lr" ? "y" : "x";
}

// canvasBusy: a redraw waits while a card is dragged or a title typed
// on the canvas.
export const canvasBusy = () => !!drawingOf(canvasOf())?.marked("drag-source") || !!document.querySelector(".canvas-field");
