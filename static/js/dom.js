// The outline's DOM as the other modules read it: a page is an
// li.node with a .row (toggle, handle, title link) and, once some of its
// children are loaded, a ul.children. The server leaves the others out.

export const projectID = () => document.querySelector("[data-project]")?.dataset.project;
export const isEditor = () => !!document.querySelector("#outline:not(.read-only)");

export const nodeOf = (el) => el?.closest?.("li.node");
export const rowOf = (li) => li.querySelector(":scope > .row");
export const titleOf = (li) => li.querySelector(":scope > .row .title");
// rowFor is the outline row of page id (a card's row on the canvas).
export const rowFor = (id) => id && document.getElementById("node-" + id);
// peek finds a row's list of children; listOf makes it when needed.
export const peek = (li) => li.querySelector(":scope > ul.children");
// field is the title field open in li's row, if any.
export const field = (li) => li.querySelector(":scope > .row input.title-field");
export const hasToggle = (li) => !!li.querySelector(":scope > .row > .toggle");

export function listOf(li) {
  let ul = peek(li);
  if (!ul) {
    ul = document.createElement("ul");
    ul.className = "children";
    if (li.dataset.id) { ul.id = "children-" + li.dataset.id; ul.dataset.parent = li.dataset.id; }
    ul.dataset.loaded = hasToggle(li) ? "0" : "1";
    li.append(ul);
  }
  return ul;
}

export const visibleTitles = () => [...document.querySelectorAll("#outline a.title")].filter((a) => a.offsetParent !== null);

// fragment parses a server answer; problem finds the error it carries.
export function fragment(html) {
  const t = document.createElement("template");
  t.innerHTML = html.trim();
  return t.content;
}
export function problem(html, fallback) {
  const f = fragment(html);
  return (f.querySelector(".field-error, .alert-error span, [role=alert]")?.textContent || fallback).trim();
}

// typing says whether a key event belongs to a text field.
export const typing = (e) => !!e.target.closest?.("input, textarea, select, [contenteditable]");
