// The diagram beside the outline: it draws the branches the outline has
// collapsed as collapsed, follows every change, and keeps its view (the
// zoom, the keyboard, the PDF options open) across redraws.
import { ajax } from "./net.js";
import { CHANGED } from "./events.js";
import { hasToggle, peek, projectID } from "./dom.js";
import { flash } from "./flash.js";
import { selection } from "./selection.js";
import { leaveDetails, markSelected } from "./details.js";
import { pick } from "./select.js";
import {
  apply, boxOf, canvasBusy, cardAt, diagram, fit, forgetView, onCanvas, reveal, saveView, zoomCentre, zoomToPage,
} from "./drawing.js";
import { sceneDrawing } from "./scene.js";

function collapsedIDs() {
  return [...document.querySelectorAll("#outline li.node")]
    .filter((li) => li.classList.contains("collapsed") || (hasToggle(li) && peek(li)?.dataset.loaded !== "1"))
    .map((li) => li.dataset.id);
}
document.addEventListener("htmx:configRequest", (e) => {
  if (e.detail.path.split("?")[0].endsWith("/diagram") && document.getElementById("outline")) {
    e.detail.parameters.collapsed = collapsedIDs().join(",");
  }
});

let redrawPending = false;
export function loadDiagram() {
  const sec = diagram();
  if (!sec || sec.hidden) return Promise.resolve();
  if (canvasBusy()) { redrawPending = true; return Promise.resolve(); }
  const form = sec.querySelector("form.diagram-controls");
  const params = new URLSearchParams(form ? new FormData(form) : undefined);
  const paint = new URLSearchParams(location.search).get("paint"); // svg or scene, else the server's choice
  if (paint && !params.has("paint")) params.set("paint", paint);
  return ajax("GET", `/projects/${projectID()}/diagram?${params}`, { target: sec, swap: "innerHTML" });
}
// redrawIfPending draws the redraw held back while the canvas was busy.
export function redrawIfPending() {
  if (redrawPending && !canvasBusy()) { redrawPending = false; loadDiagram(); }
}

// Any change that succeeded redraws the diagram, as does expanding or
// collapsing a branch.
let redraw;
export function redrawSoon() {
  clearTimeout(redraw);
  redraw = setTimeout(loadDiagram, 150);
}
document.addEventListener(CHANGED, redrawSoon);

// Changing what the diagram shows draws a new picture: fit it anew.
document.addEventListener("change", (e) => { if (e.target.closest?.("form.diagram-controls")) forgetView(); });

document.addEventListener("click", (e) => {
  if (e.target.closest?.("form.diagram-controls [hx-vals]")) forgetView();
  const toggle = e.target.closest?.("[data-diagram-toggle]");
  if (toggle) {
    const sec = diagram();
    sec.hidden = !sec.hidden;
    toggle.setAttribute("aria-pressed", String(!sec.hidden));
    document.querySelector(".panes")?.classList.toggle("with-diagram", !sec.hidden);
    if (!sec.hidden) loadDiagram();
    return;
  }
  const zoom = e.target.closest?.("[data-zoom]");
  if (zoom) { // the canvas of the editor's diagram, or of the version or compare page's section
    const canvas = zoom.closest("#diagram, section")?.querySelector(".diagram-canvas");
    if (!canvas) return;
    const id = selection.picked;
    if (zoom.dataset.zoom === "fit") fit(canvas);
    else if (zoom.dataset.zoom === "page") zoomToPage(canvas, id && boxOf(canvas, id) ? id : null);
    else zoomCentre(canvas, zoom.dataset.zoom === "in" ? 1.25 : 0.8);
    apply(canvas);
    saveView(canvas);
  }
});

// The review view's tabs show the diagram or the outline.
document.addEventListener("click", (e) => {
  const tab = e.target.closest?.("[role=tab][data-tab]");
  if (!tab) return;
  for (const t of tab.parentElement.querySelectorAll("[data-tab]")) {
    t.setAttribute("aria-selected", String(t === tab));
    document.getElementById(t.dataset.tab).hidden = t !== tab;
  }
  if (tab.dataset.tab === "diagram") loadDiagram();
});

function loadScene(canvas) {
  canvas.loading = true;
  fetch(canvas.dataset.scene, { headers: { Accept: "application/json" } })
    .then((res) => (res.ok ? res.json() : Promise.reject(new Error(res.statusText))))
    .then((sc) => {
      canvas.drawing = sceneDrawing(canvas, sc);
      initCanvas(canvas);
      markSelected();
      const at = canvas.pendingPick;
      canvas.pendingPick = null;
      const b = at && cardAt(canvas, at.x, at.y);
      if (b && leaveDetails()) pick(b.id, true);
      for (const k of canvas.pendingKeys?.splice(0) || []) canvas.dispatchEvent(new KeyboardEvent("keydown", { ...k, bubbles: true }));
    })
    .catch(() => { if (canvas.isConnected) flash("The diagram could not be loaded: reload the page to try again.", true); });
}

// A new drawing takes the view at once, in the task that swapped it
// in, so that no frame shows it unzoomed.
function initCanvas(root) {
  const canvas = root?.querySelector && (root.matches?.(".diagram-canvas") ? root : root.querySelector(".diagram-canvas"));
  if (!canvas || canvas.view) return;
  const sec = canvas.closest("#diagram");
  if (canvas.dataset.scene && !canvas.drawing) {
    // Until the new scene is in, the old picture stays (not a blank
    // canvas), and so does the keyboard: were it left on the page, a
    // second redraw meanwhile would take the canvas for unfocused.
    if (oldScene && !canvas.querySelector("canvas.diagram-scene")) canvas.prepend(oldScene);
    oldScene = null;
    if (sec?.dataset.focused) canvas.focus({ preventScroll: true });
    if (!canvas.loading) loadScene(canvas);
    return;
  }
  const old = sec?.dataset.view;
  if (old) canvas.view = JSON.parse(old); // keep the zoom across redraws
  else fit(canvas, true);
  if (sec?.dataset.focused) canvas.focus({ preventScroll: true }); // a redraw keeps the keyboard where it was
  apply(canvas);
  if (selection.reveal && selection.picked && reveal(canvas, selection.picked)) selection.reveal = false;
}
htmx.onLoad(initCanvas);
document.addEventListener("htmx:afterSwap", (e) => {
  const sec = e.detail.target;
  if (sec?.id === "diagram" && sec.dataset.pdfOpen) sec.querySelector(".pdf-options")?.setAttribute("open", "");
  initCanvas(sec);
});
// What a redraw of the diagram keeps: the keyboard on the canvas, the
// old picture until the new scene is in, and the PDF options open
// (choosing paper, then orientation, does not mean opening the panel
// twice, nor does a colleague's edit close it under the pointer).
let oldScene = null;
document.addEventListener("htmx:beforeSwap", (e) => {
  const sec = e.detail.target;
  if (sec?.id !== "diagram") return;
  sec.dataset.focused = onCanvas() ? "1" : "";
  sec.dataset.pdfOpen = sec.querySelector(".pdf-options")?.open ? "1" : "";
  oldScene = sec.querySelector("canvas.diagram-scene");
});
