// Moves in the outline, by drag and drop, keys or the canvas: the row
// moves on the page at once and the move goes to the server in the
// write queue (a failed one reloads the outline). Deleting a page.
import { ajax } from "./net.js";
import { field, hasToggle, listOf, nodeOf, peek, projectID, visibleTitles } from "./dom.js";
import { queue } from "./writes.js";
import { place } from "./drop.js";
import { selectNode, selectTitle } from "./select.js";
import { ensureToggle, expand, setExpanded } from "./outline.js";

// moving is set while a row with a title field moves in the tree: the
// field loses focus then, which is not a commit.
export const moving = { now: false };

// move saves li's place: position index of list ul.
function move(li, ul, index) {
  return ajax("POST", `/projects/${projectID()}/pages/${li.dataset.id}/move`, {
    source: ul, swap: "none",
    values: { parent: ul.dataset.parent, placement: ul.dataset.placement || "", position: index },
  });
}
const saveMove = (li) => { if (li.dataset.id) queue(() => move(li, li.parentElement, [...li.parentElement.children].indexOf(li))); };

// dropPage puts li where a drop d says (drop.js: before, after or first
// at d.li, or at the end of list d.ul; inside goes to putInside) and
// saves the move. The branch keeps what the user had open under it.
export async function dropPage(li, d) {
  let ul, before = null;
  switch (d.where) {
    case "before": ul = d.li.parentElement; before = d.li; break;
    case "after": ul = d.li.parentElement; before = d.li.nextElementSibling; break;
    case "first": ul = listOf(d.li); before = ul.firstElementChild; break;
    case "inside": await putInside(d.li, li); return;
    case "end": ul = d.ul; break;
  }
  before ||= ul.querySelector(":scope > .node-more"); // "more pages" stays last
  if (!place([...ul.children], li, before)) { selectNode(li); return; }
  const from = li.parentElement;
  ul.insertBefore(li, before);
  leftBehind(from);
  selectNode(li);
  saveMove(li);
}

// putInside moves li into parent as its last child, opening parent.
export async function putInside(parent, li) {
  moving.now = true;
  const from = li.parentElement;
  try {
    await putLast(parent, li);
    leftBehind(from);
  } finally { moving.now = false; }
  if (!field(li)) selectNode(li);
  saveMove(li);
}

// putLast puts li last among parent's children on the page, opening
// parent (its children loaded first).
export async function putLast(parent, li) {
  if (parent.dataset.id) await expand(parent);
  const ul = listOf(parent);
  ul.insertBefore(li, ul.querySelector(":scope > .node-more"));
  ensureToggle(parent);
  setExpanded(parent, true);
  parent.querySelector(":scope > .row .count")?.remove();
}

// leftBehind drops the fold toggle of a page whose last child moved out.
function leftBehind(ul) {
  const li = nodeOf(ul);
  if (!li || ul.children.length) return;
  const t = li.querySelector(":scope > .row > .toggle");
  if (!t) return;
  const space = document.createElement("span");
  space.className = "toggle-space";
  t.replaceWith(space);
  li.classList.remove("collapsed");
}

// indent moves li under its previous sibling, as its last child.
export function indent(li) {
  const parent = li.previousElementSibling;
  return parent ? putInside(parent, li) : Promise.resolve();
}
// outdent moves li after its parent.
export function outdent(li) {
  const parent = nodeOf(li.parentElement);
  if (!parent) return;
  moving.now = true;
  const from = li.parentElement;
  try { parent.after(li); leftBehind(from); } finally { moving.now = false; }
  saveMove(li);
}

// moveByKey moves li as Alt+arrow key says: up or down among its
// siblings, indented under the one above, or outdented. It returns
// false when the key means no move, else true or the indent's promise.
export function moveByKey(li, key) {
  const ul = li.parentElement;
  if (key === "ArrowUp" && li.previousElementSibling) {
    ul.insertBefore(li, li.previousElementSibling);
    saveMove(li);
  } else if (key === "ArrowDown" && li.nextElementSibling) {
    ul.insertBefore(li.nextElementSibling, li);
    saveMove(li);
  } else if (key === "ArrowRight" && li.previousElementSibling) {
    return indent(li);
  } else if (key === "ArrowLeft" && ul.dataset.parent !== "0") {
    outdent(li);
  } else return false;
  return true;
}

// deleteNode deletes li's page: a leaf at once, a branch after asking.
export function deleteNode(li) {
  const id = li.dataset.id;
  if (peek(li)?.children.length || hasToggle(li)) {
    ajax("GET", `/projects/${projectID()}/pages/${id}/delete`, { target: "#dialog" });
    return;
  }
  const next = li.nextElementSibling || li.previousElementSibling || nodeOf(li.parentElement);
  queue(async () => {
    await ajax("DELETE", `/projects/${projectID()}/pages/${id}`, { target: "#flash", swap: "none" });
    if (!document.getElementById("node-" + id)) selectNode(next);
  });
}
// A deleted page that had the keyboard leaves it with the first row.
document.body.addEventListener("page-deleted", () => {
  if (!document.activeElement || document.activeElement === document.body) selectTitle(visibleTitles()[0]);
});
