// Drag and drop in the outline. A page is dragged by its handle.
// Nothing in the tree moves until it is let go: a line shows where it
// will land (before or after a row, first under an open branch, last in
// an area), or the row is outlined when it will go inside it (drop.js
// says which). Esc cancels.
import { listOf, nodeOf, peek, rowOf, titleOf } from "./dom.js";
import { edgeScroll, rowZone } from "./drop.js";
import { dropPage } from "./edit.js";

// dragMarks starts a drag of li's page, in the outline or on the
// canvas: the title that follows the pointer and the line that shows
// where it lands.
export function dragMarks(li, lineClass) {
  document.body.classList.add("dragging");
  const ghost = document.createElement("div");
  ghost.className = "drag-ghost";
  ghost.textContent = titleOf(li).textContent;
  const line = document.createElement("div");
  line.className = lineClass;
  line.hidden = true;
  document.body.append(ghost, line);
  return { ghost, line };
}

let dnd = null; // the drag: the page, where it started, where it would land
document.addEventListener("pointerdown", (e) => {
  const handle = e.target.closest?.("#outline:not(.read-only) li.node:not(.draft) > .row > .handle");
  if (!handle || e.button !== 0) return;
  e.preventDefault();
  dnd = { li: nodeOf(handle), x: e.clientX, y: e.clientY, started: false, drop: null };
});
document.addEventListener("pointermove", (e) => {
  if (!dnd) return;
  if (!dnd.started) {
    if (Math.abs(e.clientX - dnd.x) + Math.abs(e.clientY - dnd.y) < 5) return;
    dnd.started = true;
    dnd.li.classList.add("drag-source");
    Object.assign(dnd, dragMarks(dnd.li, "drop-line"));
  }
  dnd.ghost.style.transform = `translate(${e.clientX + 18}px, ${e.clientY + 12}px)`;
  scrollAtEdge(e.clientY, e.clientY - (dnd.lastY ?? e.clientY));
  dnd.lastY = e.clientY;
  dnd.drop = dropAt(e.clientX, e.clientY);
  showDrop(dnd.drop);
});
document.addEventListener("pointerup", () => { if (dnd) endDrag(dnd.started ? dnd.drop : null); });
document.addEventListener("pointercancel", () => { if (dnd) endDrag(null); });
document.addEventListener("keydown", (e) => {
  if (!dnd || e.key !== "Escape") return;
  e.preventDefault();
  e.stopImmediatePropagation();
  endDrag(null);
}, true);

// scrollAtEdge scrolls what holds the outline when a drag nears its top or
// bottom edge: the outline pane where it scrolls on its own (a wide
// screen), else the window.
function scrollAtEdge(y, dy) {
  const pane = document.getElementById("outline");
  if (pane && pane.scrollHeight > pane.clientHeight && getComputedStyle(pane).overflowY === "auto") {
    const r = pane.getBoundingClientRect();
    const by = edgeScroll(y - r.top, dy, r.height);
    if (by) pane.scrollBy(0, by);
    return;
  }
  const by = edgeScroll(y, dy, window.innerHeight);
  if (by) window.scrollBy(0, by);
}

function endDrag(drop) {
  const { li, ghost, line } = dnd;
  dnd = null;
  ghost?.remove();
  line?.remove();
  document.querySelector("#outline .drop-inside")?.classList.remove("drop-inside");
  li.classList.remove("drag-source");
  document.body.classList.remove("dragging");
  if (drop) dropPage(li, drop);
}

const isOpen = (li) => !li.classList.contains("collapsed") && peek(li)?.children.length > 0;

// dropAt says where the dragged page would land if let go at (x, y).
function dropAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const row = el?.closest?.("#outline li.node:not(.draft) > .row");
  if (row) {
    const li = nodeOf(row);
    if (dnd.li.contains(li)) return null; // not into itself
    const r = row.getBoundingClientRect();
    return { where: rowZone((y - r.top) / r.height, isOpen(li)), li };
  }
  const area = el?.closest?.("#outline .area");
  const ul = area?.querySelector("ul.roots");
  if (ul && y > ul.getBoundingClientRect().bottom - 4) return { where: "end", ul };
  return null;
}

// showDrop draws where a drop would land.
function showDrop(d) {
  document.querySelector("#outline .drop-inside")?.classList.remove("drop-inside");
  const line = dnd.line;
  line.hidden = !d || d.where === "inside";
  if (!d) return;
  if (d.where === "inside") { rowOf(d.li).classList.add("drop-inside"); return; }
  let left, top;
  if (d.where === "end") {
    const last = d.ul.lastElementChild, r = d.ul.getBoundingClientRect();
    left = r.left;
    top = last ? last.getBoundingClientRect().bottom : r.top;
  } else {
    const r = rowOf(d.li).getBoundingClientRect();
    const first = d.where === "first" && listOf(d.li).firstElementChild;
    left = first ? first.getBoundingClientRect().left : r.left;
    top = d.where === "before" ? r.top : r.bottom;
  }
  const right = document.getElementById("outline").getBoundingClientRect().right - 8;
  line.style.transform = `translate(${left}px, ${top - 1}px)`;
  line.style.width = `${Math.max(40, right - left)}px`;
}
