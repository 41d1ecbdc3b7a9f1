// The canvas: the diagram as a second view of the outline. Each card
// stands for the outline's row of the same page (the diagram draws just
// what the outline has open), and each edit made on the canvas is the
// outline's own (the same drafts, renames, moves and deletes), so the
// two cannot disagree. Keys: arrows select the card that way, + and -
// zoom, Shift+1 fits, Shift+2 zooms to the selection, Space folds; in
// the editor the outline's keys edit the selected page. The pointer
// pans, selects, or drags a page; hovered cards get handles.
import { hasToggle, isEditor, peek, rowFor, titleOf } from "./dom.js";
import { canvasKey } from "./keys.js";
import { cardZone } from "./drop.js";
import { selection } from "./selection.js";
import {
  apply, boxOf, canvasOf, cardAt, drawingOf, fit, hideHandles, layoutOf, nextCard, onBadge, rectOf, saveView, siblingAxis, view,
  zoomAt, zoomCentre, zoomToPage,
} from "./drawing.js";
import { minimapPoint } from "./minimap.js";
import { leaveDetails } from "./details.js";
import { openThread, pick } from "./select.js";
import { redrawIfPending } from "./diagram.js";
import { toggleBranch } from "./outline.js";
import { deleteNode, dropPage, moveByKey, putInside, putLast } from "./edit.js";
import { draftRow, pendingTitle, rename, saveDraft } from "./titles.js";
import { dragMarks } from "./drag.js";

let pan = null; // a press on the canvas: a pan, a click or a card's drag

document.addEventListener("keydown", (e) => {
  const canvas = e.target.matches?.(".diagram-canvas") && e.target;
  if (!canvas || pan?.drag || e.ctrlKey || e.metaKey) return; // Ctrl+Z is the page's
  if (!drawingOf(canvas) && canvas.loading) {
    // A redrawn scene is on its way: the key waits for it, as a press
    // on a card does (pendingPick), instead of being lost.
    (canvas.pendingKeys ||= []).push({ key: e.key, code: e.code, shiftKey: e.shiftKey, altKey: e.altKey });
    e.preventDefault();
    return;
  }
  const id = selection.picked && boxOf(canvas, selection.picked) ? selection.picked : null;
  const li = rowFor(id), edit = isEditor() && !!li;
  const act = canvasKey(e, { edit, page: !!li });
  switch (act) {
    case "fit": fit(canvas); break;
    case "zoom-page": zoomToPage(canvas, id); break;
    case "zoom-in": zoomCentre(canvas, 1.25); break;
    case "zoom-out": zoomCentre(canvas, 0.8); break;
    case "move": if (!moveByKey(li, e.key)) return; break;
    case "next": { const next = nextCard(canvas, id, e.key); if (next) pick(next); break; }
    case "add-after": addOnCanvas(li, "after"); break;
    case "add-child": addOnCanvas(li, "child"); break;
    case "rename": renameOnCanvas(li, titleOf(li).textContent, true); break;
    case "delete": deleteNode(li); break;
    case "fold": fold(li); break;
    case "type": renameOnCanvas(li, e.key, false); break; // typing renames, as in the outline
    default: return;
  }
  e.preventDefault();
  if (act.startsWith("zoom") || act === "fit") { apply(canvas); saveView(canvas); }
});

// fold collapses or expands li's branch, in the outline and so in the drawing.
function fold(li) { if (hasToggle(li)) toggleBranch(li); }

// canvasField puts a title field on the page at r (left, top, width,
// on screen) and calls done with what was typed, or with null on Esc.
// Enter and Esc give the keyboard back to the canvas; the drawing is
// not redrawn under the field.
function canvasField(r, value, selectAll, done) {
  const canvas = canvasOf();
  const input = document.createElement("input");
  input.className = "canvas-field";
  input.maxLength = 300;
  input.setAttribute("aria-label", "Title");
  input.value = value;
  const c = canvas.getBoundingClientRect();
  const width = Math.min(Math.max(r.width, 180), c.width - 16);
  input.style.left = Math.max(c.left + 8, Math.min(r.left, c.right - width - 8)) + "px";
  input.style.top = Math.max(c.top + 8, Math.min(r.top, c.bottom - 40)) + "px";
  input.style.width = width + "px";
  input.style.fontSize = Math.max(13, Math.min(22, 16 * view(canvas).k)) + "px";
  document.body.append(input);
  input.focus();
  if (selectAll) input.select();
  else input.setSelectionRange(value.length, value.length);
  let over = false;
  const finish = (title, back) => {
    if (over) return;
    over = true;
    if (back) canvasOf()?.focus({ preventScroll: true });
    input.remove();
    done(title);
    redrawIfPending();
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); finish(input.value.trim(), true); }
    else if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); finish(null, true); }
  });
  input.addEventListener("blur", () => finish(input.value.trim(), false));
}

// renameOnCanvas opens a field over li's card; what is typed is saved
// as the outline saves a rename.
function renameOnCanvas(li, value, selectAll) {
  const r = rectOf(canvasOf(), li.dataset.id);
  if (!r) return;
  canvasField({ left: r.left + 4, top: r.top + r.height * 0.3, width: r.width - 8 }, value, selectAll, (title) => {
    if (title && title !== titleOf(li).textContent) rename(li, title);
  });
}

// addOnCanvas opens a field where a new page after li (mode "after")
// or under it (mode "child") will be drawn: below or beside the card,
// as the layout places children and siblings.
function addOnCanvas(li, mode) {
  const r = rectOf(canvasOf(), li.dataset.id);
  if (!r) return;
  const beside = (mode === "child") === (layoutOf() === "lr");
  const at = beside ? { left: r.right + 12, top: r.top + r.height * 0.3 } : { left: r.left, top: r.bottom + 14 };
  canvasField({ ...at, width: r.width }, "", false, (title) => { if (title) addDraft(li, mode, title); });
}

// addDraft puts a page typed on the canvas into the outline as a draft
// row and saves it at once: after li, or last under it. It is selected
// once saved.
async function addDraft(li, mode, title) {
  const draft = draftRow();
  if (mode === "child") await putLast(li, draft);
  else li.after(draft);
  pendingTitle(draft, title);
  draft.dataset.focus = "1";
  selection.reveal = true;
  saveDraft(draft, title);
}

// ---- The pointer: pan, select, or drag a page ----------------------
// A press on the ground pans; on a card it selects it when let go, or,
// in the editor, moves the page when dragged: onto the middle of
// another card puts it last under that page, near the card's edge
// along its siblings puts it before or after it. A line or an outlined
// card shows where it lands; Esc cancels; nothing moves until the drop.
document.addEventListener("pointerdown", (e) => {
  const canvas = e.target.closest?.(".diagram-canvas");
  if (!canvas || e.button !== 0 || e.target.closest(".canvas-handles, .minimap")) return;
  if (!drawingOf(canvas) && canvas.loading) {
    // The old picture shows while a redrawn scene is on its way: a
    // press on one of its cards selects that card once the scene is in.
    canvas.focus({ preventScroll: true });
    canvas.pendingPick = { x: e.clientX, y: e.clientY };
    return;
  }
  const b = cardAt(canvas, e.clientX, e.clientY), id = b?.id;
  const v = view(canvas);
  pan = { canvas, x: e.clientX, y: e.clientY, vx: v.x, vy: v.y, moved: false, id,
    badge: !!b && onBadge(canvas, b, e.clientX, e.clientY), li: isEditor() ? rowFor(id) : null };
});
document.addEventListener("pointermove", (e) => {
  if (!pan) {
    const canvas = e.target.closest?.(".diagram-canvas");
    if (!canvas || document.body.matches(".dragging, .resizing")) return;
    const b = !e.target.closest(".canvas-handles, .minimap") && cardAt(canvas, e.clientX, e.clientY);
    if (b) showHandles(canvas, b.id);
    else if (!e.target.closest(".canvas-handles")) hideHandles(canvas);
    return;
  }
  const dx = e.clientX - pan.x, dy = e.clientY - pan.y;
  if (!pan.moved) {
    if (Math.abs(dx) + Math.abs(dy) <= 4) return;
    pan.moved = true;
    if (pan.li) startCardDrag(pan);
  }
  const v = view(pan.canvas);
  if (pan.drag) {
    pan.ghost.style.transform = `translate(${e.clientX + 14}px, ${e.clientY + 10}px)`;
    const r = pan.canvas.getBoundingClientRect(), edge = 28, step = 14; // near an edge the view follows
    const sx = e.clientX < r.left + edge ? step : e.clientX > r.right - edge ? -step : 0;
    const sy = e.clientY < r.top + edge ? step : e.clientY > r.bottom - edge ? -step : 0;
    if (sx || sy) { v.x += sx; v.y += sy; apply(pan.canvas); }
    pan.drop = canvasDropAt(pan, e.clientX, e.clientY);
    showCanvasDrop(pan, pan.drop);
    return;
  }
  v.x = pan.vx + dx;
  v.y = pan.vy + dy;
  apply(pan.canvas);
});
document.addEventListener("pointerup", () => {
  if (!pan) return;
  const p = pan;
  pan = null;
  if (p.drag) { endCardDrag(p, true); return; }
  saveView(p.canvas);
  if (p.moved) return;
  p.canvas.focus({ preventScroll: true });
  if (!p.id || !leaveDetails()) return;
  const shown = pick(p.id, true);
  if (p.badge) openThread(shown);
});
document.addEventListener("pointercancel", () => {
  if (pan?.drag) endCardDrag(pan, false);
  pan = null;
});
document.addEventListener("keydown", (e) => {
  if (!pan?.drag || e.key !== "Escape") return;
  e.preventDefault();
  e.stopImmediatePropagation();
  const p = pan;
  pan = null;
  endCardDrag(p, false);
}, true);
// A stacked page's link only names it: selecting is the pointer's job.
document.addEventListener("click", (e) => {
  if (e.target.closest?.(".diagram-canvas a")) e.preventDefault();
});

function startCardDrag(p) {
  p.drag = true;
  hideHandles(p.canvas);
  drawingOf(p.canvas)?.mark("drag-source", p.id);
  Object.assign(p, dragMarks(p.li, "drop-line canvas-drop"));
}

// canvasDropAt says where the dragged page would land if let go at (x, y).
function canvasDropAt(p, x, y) {
  const id = cardAt(p.canvas, x, y)?.id, li = rowFor(id);
  if (!li || p.li.contains(li)) return null; // not onto itself or into its own branch
  const r = rectOf(p.canvas, id), across = siblingAxis(p.canvas, li) === "x";
  return { where: cardZone(across ? (x - r.left) / r.width : (y - r.top) / r.height), li, id, across };
}

function showCanvasDrop(p, d) {
  drawingOf(p.canvas)?.mark("drop-inside", d?.where === "inside" ? d.id : null);
  p.line.hidden = !d || d.where === "inside";
  if (!d || d.where === "inside") return;
  const r = rectOf(p.canvas, d.id), gap = 5, before = d.where === "before";
  const s = p.line.style;
  if (d.across) {
    s.transform = `translate(${(before ? r.left - gap : r.right + gap) - 1.5}px, ${r.top}px)`;
    s.width = "3px";
    s.height = r.height + "px";
  } else {
    s.transform = `translate(${r.left}px, ${(before ? r.top - gap : r.bottom + gap) - 1.5}px)`;
    s.width = r.width + "px";
    s.height = "3px";
  }
}

function endCardDrag(p, drop) {
  p.ghost.remove();
  p.line.remove();
  drawingOf(p.canvas)?.mark("drop-inside", null);
  drawingOf(p.canvas)?.mark("drag-source", null);
  document.body.classList.remove("dragging");
  saveView(p.canvas);
  p.canvas.focus({ preventScroll: true });
  if (drop && p.drop) {
    if (p.drop.where === "inside") putInside(p.drop.li, p.li);
    else dropPage(p.li, p.drop);
  }
  redrawIfPending();
}

// ---- Handles: buttons on the edges of the hovered card -------------
// Add a page under it, add one after it, fold or unfold its branch.
function showHandles(canvas, id) {
  const li = rowFor(id);
  if (!li || !isEditor()) { hideHandles(canvas); return; }
  let h = canvas.querySelector(".canvas-handles");
  if (!h) {
    h = document.createElement("div");
    h.className = "canvas-handles";
    for (const act of ["child", "after", "fold"]) {
      const b = document.createElement("button");
      b.type = "button";
      b.tabIndex = -1; // the keyboard has Enter, Shift+Enter and Space
      b.dataset.act = act;
      h.append(b);
    }
    canvas.append(h);
  }
  if (h.dataset.id === id && !h.hidden) return;
  h.dataset.id = id;
  h.hidden = false;
  const r = rectOf(canvas, id), c = canvas.getBoundingClientRect();
  const x0 = r.left - c.left, y0 = r.top - c.top, x1 = x0 + r.width, y1 = y0 + r.height;
  const lr = layoutOf() === "lr";
  const put = (act, x, y, text, label) => {
    const b = h.querySelector(`[data-act=${act}]`);
    b.style.transform = `translate(${x - 11}px, ${y - 11}px)`;
    b.textContent = text;
    b.title = label;
    b.setAttribute("aria-label", label);
    return b;
  };
  put("child", lr ? x1 : (x0 + x1) / 2, lr ? (y0 + y1) / 2 : y1, "+", "Add a page under this one");
  put("after", lr ? (x0 + x1) / 2 : x1, lr ? y1 : (y0 + y1) / 2, "+", "Add a page after this one");
  const open = !li.classList.contains("collapsed") && peek(li)?.dataset.loaded === "1";
  put("fold", x0, y1, open ? "▾" : "▸", open ? "Collapse this branch" : "Expand this branch").hidden = !hasToggle(li);
}
document.addEventListener("click", (e) => {
  const b = e.target.closest?.(".canvas-handles [data-act]");
  if (!b) return;
  const canvas = b.closest(".diagram-canvas"), li = rowFor(b.parentElement.dataset.id);
  if (!li) return;
  hideHandles(canvas);
  canvas.focus({ preventScroll: true });
  pick(li.dataset.id);
  if (b.dataset.act === "fold") fold(li);
  else addOnCanvas(li, b.dataset.act);
});

// ---- The minimap and the wheel -------------------------------------
let mini = null; // a press on the minimap
function minimapGo(e) {
  const { canvas, m } = mini, v = view(canvas), [x, y] = minimapPoint(m, e);
  v.x = canvas.clientWidth / 2 - x * v.k;
  v.y = canvas.clientHeight / 2 - y * v.k;
  apply(canvas);
}
document.addEventListener("pointerdown", (e) => {
  const m = e.target.closest?.(".diagram-canvas canvas.minimap");
  if (!m || e.button !== 0) return;
  e.preventDefault();
  mini = { canvas: m.closest(".diagram-canvas"), m };
  minimapGo(e);
});
document.addEventListener("pointermove", (e) => { if (mini) minimapGo(e); });
document.addEventListener("pointerup", () => {
  if (!mini) return;
  saveView(mini.canvas);
  mini = null;
});

document.addEventListener("wheel", (e) => {
  const canvas = e.target.closest?.(".diagram-canvas");
  if (!canvas) return;
  e.preventDefault();
  const r = canvas.getBoundingClientRect();
  zoomAt(canvas, e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
  apply(canvas);
  saveView(canvas);
}, { passive: false });
