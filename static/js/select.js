// Selecting a page, from the outline or the canvas: a focused title in
// the outline is the selected page; while the canvas has the keyboard,
// its card and its row are marked and the focus stays on the canvas.
// The details follow either way.
import { nodeOf, projectID, rowFor, rowOf, titleOf } from "./dom.js";
import { canvasOf, onCanvas, reveal } from "./drawing.js";
import { detailsOf, markSelected } from "./details.js";
import { selection } from "./selection.js";

export function selectTitle(a) {
  if (!a) return false;
  if (onCanvas()) { pick(nodeOf(a).dataset.id); return true; } // the canvas keeps the keyboard
  a.focus();
  a.scrollIntoView({ block: "nearest" });
  return true;
}
export const selectNode = (li) => li && selectTitle(titleOf(li));

// pick selects page id from the canvas: its card and its outline row
// are marked and brought into view, and its details follow as they do
// for the outline. It returns the details' request, if made at once.
// Without a details panel (the diagram's own page) a click opens the
// page.
export function pick(id, now) {
  selection.picked = id;
  markSelected();
  const canvas = canvasOf();
  selection.reveal = !!canvas && !reveal(canvas, id);
  const li = rowFor(id);
  if (li) rowOf(li).scrollIntoView({ block: "nearest" });
  if (document.getElementById("details")) return detailsOf(id, now);
  if (now) window.location.assign(`/projects/${projectID()}/pages/${id}`);
  return null;
}

// openThread brings the first open comment thread into view once the
// details request shown has swapped in.
export function openThread(shown) {
  Promise.resolve(shown).then(() => {
    const t = document.querySelector("#comments .thread:not(.resolved)") || document.getElementById("comments");
    if (!t) return;
    t.tabIndex = -1;
    t.scrollIntoView({ block: "start" });
    t.focus({ preventScroll: true });
  });
}
