// The outline: branches open and close (their children loaded when
// first opened), the rows above and below a row, the focused title as
// the selected page, and reloads that never replace what is being typed.
import { ajax } from "./net.js";
import { SETTLED } from "./events.js";
import { listOf, nodeOf, peek, projectID, rowOf, visibleTitles } from "./dom.js";
import { writes } from "./writes.js";
import { selection } from "./selection.js";
import { detailsOf, leaveDetails, markSelected } from "./details.js";
import { redrawSoon } from "./diagram.js";
import { isMore, loadMore } from "./more.js";

// expand shows li's children, loading them first if needed.
export function expand(li) {
  const ul = listOf(li);
  if (ul.dataset.loaded === "1") {
    setExpanded(li, true);
    return Promise.resolve();
  }
  return ajax("GET", `/projects/${projectID()}/pages/${li.dataset.id}/children`, { target: ul, swap: "innerHTML" });
}

// setExpanded opens or closes li's branch; the diagram, which draws
// what the outline has open, follows.
export function setExpanded(li, open) {
  li.classList.toggle("collapsed", !open);
  const t = li.querySelector(":scope > .row .toggle");
  if (t) t.setAttribute("aria-expanded", open ? "true" : "false");
  redrawSoon();
}

// toggleBranch closes li's open branch, or opens it (loading it first).
export function toggleBranch(li) {
  if (li.classList.contains("collapsed") || listOf(li).dataset.loaded !== "1") expand(li);
  else setExpanded(li, false);
}

// ensureToggle gives li a fold toggle (it has children now), as the
// server draws one: for the pointer alone, since the row's treeitem says
// whether it is expanded and → and ← open and close it.
export function ensureToggle(li) {
  const space = li.querySelector(":scope > .row .toggle-space");
  if (!space) return;
  const b = document.createElement("button");
  b.type = "button";
  b.className = "toggle";
  b.dataset.toggle = "";
  b.tabIndex = -1;
  b.setAttribute("aria-label", "Expand");
  b.setAttribute("aria-hidden", "true");
  space.replaceWith(b);
}

// A list was (re)filled by the server: it is now complete and open.
document.addEventListener("htmx:afterSwap", (e) => {
  const ul = e.detail.target;
  if (ul?.matches?.("ul.children") && ul.dataset.parent !== "0") {
    ul.dataset.loaded = "1";
    const li = ul.closest("li.node");
    if (li && ul.children.length > 0) {
      ensureToggle(li);
      setExpanded(li, true);
      li.querySelector(":scope > .row .count")?.remove();
    }
  }
});
document.addEventListener("click", (e) => {
  const toggle = e.target.closest?.("[data-toggle]");
  if (toggle) toggleBranch(toggle.closest("li.node"));
});

// The rows above and below a row on screen, found by walking the tree
// around it, so a key press on a 10,000-row outline does not look at
// every row. Across the navigation areas it falls back to the list of
// rows on screen.
// Going down, a list shown in part ends the way at its "more" row
// (more.js), which rowBelow gives instead of a row.
const isRow = (el) => el?.matches?.("li.node:not(.draft)");
function sibling(li, dir) {
  let n = li[dir];
  while (n && !isRow(n) && !(dir === "nextElementSibling" && isMore(n))) n = n[dir];
  return n;
}
function edgeChild(li, last) {
  const ul = !li.classList.contains("collapsed") && peek(li);
  let n = ul && (last ? ul.lastElementChild : ul.firstElementChild);
  while (n && !isRow(n) && !(!last && isMore(n))) n = last ? n.previousElementSibling : n.nextElementSibling;
  return n;
}
export function rowBelow(li) {
  const c = edgeChild(li, false);
  if (c) return c;
  for (let n = li; n; n = nodeOf(n.parentElement)) {
    const s = sibling(n, "nextElementSibling");
    if (s) return s;
  }
  return acrossAreas(li, 1);
}
// below calls go with the row below li: at once when it is on the page,
// else once the rows that follow are loaded (not if that failed: the
// key stays where it is, and the next press tries again).
export function below(li, go) {
  const n = rowBelow(li);
  if (!isMore(n)) return go(n);
  loadMore(n).then(() => { if (li.isConnected && !n.isConnected) below(li, go); });
}
export function rowAbove(li) {
  let n = sibling(li, "previousElementSibling");
  if (!n) return nodeOf(li.parentElement) || acrossAreas(li, -1);
  for (let c = edgeChild(n, true); c; c = edgeChild(n, true)) n = c;
  return n;
}
function acrossAreas(li, step) {
  const titles = visibleTitles();
  const k = titles.filter((a) => li.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_PRECEDING).length;
  return nodeOf(titles[step > 0 ? k : k - 1]);
}

// The row menu (one for the whole outline) goes into the row in use.
function placeMenu(li) {
  const menu = document.getElementById("row-menu");
  if (!menu || !li || li.classList.contains("draft")) return;
  rowOf(li).append(menu);
  menu.hidden = false;
}
document.addEventListener("mouseover", (e) => {
  const row = e.target.closest?.("#outline li.node > .row");
  if (row && !document.body.classList.contains("dragging")) placeMenu(nodeOf(row));
});

// The focused row is selected: marked, with the row menu, and its
// details shown after a pause, so arrowing through rows stays fast.
document.addEventListener("focusin", (e) => {
  const a = e.target.closest?.("#outline a.title");
  if (!a) return;
  document.querySelectorAll("#outline .row.selected").forEach((r) => r.classList.remove("selected"));
  rowOf(nodeOf(a)).classList.add("selected");
  selection.picked = nodeOf(a).dataset.id; // the canvas goes on from here
  placeMenu(nodeOf(a));
  detailsOf(selection.picked, false);
});
// A click on a title selects it and shows its details at once (asking
// first when the details hold unsaved edits).
document.addEventListener("click", (e) => {
  const a = e.target.closest?.("#outline a.title");
  if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
  e.preventDefault();
  if (!leaveDetails()) return;
  a.focus();
  detailsOf(nodeOf(a).dataset.id, true);
});

// A comment changed a page's open threads: its row, if on the page,
// shows the count the server words (a row that had none gets a place).
document.body.addEventListener("comment-count", (e) => {
  const { id, label } = e.detail, row = document.querySelector(`#node-${id} > .row`);
  if (!row) return;
  let cc = document.getElementById("cc-" + id);
  if (!cc) {
    cc = document.createElement("span");
    cc.className = "comment-count";
    cc.id = "cc-" + id;
    cc.title = "Open comment threads";
    row.append(cc);
  }
  cc.textContent = label;
});

function openIDs() {
  return [...document.querySelectorAll("#outline li.node")]
    .filter((li) => !li.classList.contains("collapsed") && peek(li)?.dataset.loaded === "1" && peek(li).children.length)
    .map((li) => li.dataset.id);
}

// A reload would replace what is being typed, a row not saved yet, or
// a write on its way: it waits for them (reloadIfPending).
let outlinePending = false;
const editingOutline = () => writes.busy() || !!document.querySelector("#outline input.title-field, #outline li.draft");

// refreshOutline reloads the outline, keeping open what was open, and
// opening alsoOpen's branches too.
export function refreshOutline(alsoOpen) {
  const outline = document.getElementById("outline");
  if (editingOutline()) { outlinePending = true; outline?.setAttribute("data-reload-pending", ""); return; }
  outlinePending = false;
  outline?.removeAttribute("data-reload-pending");
  const closed = new Set([...document.querySelectorAll("#outline li.node.collapsed")].map((li) => li.dataset.id));
  for (const id of alsoOpen || []) closed.delete(String(id));
  const sel = document.querySelector(".toolbar select[name=level]");
  // As many rows as are loaded come back, so the place read stays.
  const rows = document.querySelectorAll("#outline li.node").length;
  const q = new URLSearchParams({ level: sel ? sel.value : "2", rows, open: [...openIDs(), ...(alsoOpen || [])].join(",") });
  return ajax("GET", `/projects/${projectID()}/outline?${q}`, { target: "#outline", swap: "outerHTML" }).then(() => {
    for (const id of closed) {
      const li = document.getElementById("node-" + id);
      if (li && peek(li)?.children.length) setExpanded(li, false);
    }
    markSelected();
  });
}
export function reloadIfPending() {
  if (outlinePending && !editingOutline()) refreshOutline();
}
document.addEventListener("htmx:afterSettle", reloadIfPending);
document.addEventListener(SETTLED, reloadIfPending);

// A save in the details panel can change the page's status, kind or
// placement, and a paste adds branches: the outline reloads, opening
// what the server names (the pasted branches) besides what was open.
document.body.addEventListener("page-saved", (e) => refreshOutline(e.detail.open));
// A failed move is undone by reloading what the server has.
document.addEventListener("htmx:afterRequest", (e) => {
  const path = e.detail.requestConfig?.path;
  if (path && path.endsWith("/move") && !e.detail.successful) refreshOutline();
});
