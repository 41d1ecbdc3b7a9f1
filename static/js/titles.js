// Titles typed in the outline: a rename in place, and drafts, the rows
// of pages not saved yet (just a title field). In a title field Enter
// saves and starts the next row, Tab / Shift+Tab indent / outdent, Esc
// cancels, arrows save and move. The saves go in the write queue, so
// typing never waits for the network; a draft learns its place when its
// turn comes. Enter in a new row starts the next one; in a rename it
// only saves.
import { send, shownLocale } from "./net.js";
import { field, fragment, isEditor, listOf, nodeOf, problem, projectID, rowOf, titleOf } from "./dom.js";
import { flash } from "./flash.js";
import { queue } from "./writes.js";
import { fieldKey } from "./keys.js";
import { selectNode } from "./select.js";
import { below, expand, ensureToggle, reloadIfPending, rowAbove, rowBelow, setExpanded } from "./outline.js";
import { isMore } from "./more.js";
import { indent, moving, outdent } from "./edit.js";
import { refreshDetails, shownPage } from "./details.js";

// draftRow makes an empty row for a new page.
export function draftRow() {
  const draft = document.createElement("li");
  draft.className = "node draft";
  draft.innerHTML = '<div class="row"><span class="toggle-space"></span></div><ul class="children" data-loaded="1"></ul>';
  return draft;
}

// newDraft starts a new page after li (mode "after"), as li's first
// child ("child"), or last into list li ("end").
export function newDraft(li, mode) {
  const draft = draftRow();
  if (mode === "end") {
    li.append(draft);
  } else if (mode === "child") {
    const open = li.dataset.id ? expand(li) : Promise.resolve();
    listOf(li).prepend(draft);
    ensureToggle(li);
    setExpanded(li, true);
    open.then(() => { if (draft.isConnected && draft.parentElement.firstElementChild !== draft) listOf(li).prepend(draft); field(draft)?.focus(); });
  } else {
    li.after(draft);
  }
  openField(draft, "", false);
  return draft;
}

// openField puts a title field into li's row.
export function openField(li, value, selectAll) {
  if (!li || !isEditor() || field(li)) return;
  const input = document.createElement("input");
  input.className = "title-field";
  input.name = "title";
  input.maxLength = 300;
  input.setAttribute("aria-label", "Title");
  input.value = value;
  const shown = li.querySelector(":scope > .row > .title");
  if (shown) { shown.hidden = true; shown.after(input); }
  else li.querySelector(":scope > .row > .toggle-space, :scope > .row > .toggle").after(input);
  input.focus();
  if (selectAll) input.select();
  else input.setSelectionRange(value.length, value.length);
}

// closeField ends editing li: cancel, or save what was typed. It
// returns false when nothing stays of a draft.
function closeField(li, save) {
  const input = field(li);
  if (!input) return true;
  const title = input.value.trim();
  const shown = li.querySelector(":scope > .row > .title");
  input.remove();
  if (li.classList.contains("draft")) {
    if (!save || !title) { li.remove(); return false; }
    pendingTitle(li, title);
    saveDraft(li, title);
    return true;
  }
  shown.hidden = false;
  if (save && title && title !== shown.textContent) rename(li, title);
  reloadIfPending();
  return true;
}

// pendingTitle shows a draft's title, greyed until it is saved.
export function pendingTitle(draft, title) {
  const span = document.createElement("span");
  span.className = "title pending";
  span.textContent = title;
  draft.querySelector(":scope > .row > .toggle-space, :scope > .row > .toggle").after(span);
}

// saveDraft saves a draft when its turn comes: after the saved row
// before it, or first in its list.
export function saveDraft(draft, title) {
  queue(async () => {
    if (!draft.isConnected) return;
    const ul = draft.parentElement;
    let prev = draft.previousElementSibling;
    while (prev && !prev.dataset.id) prev = prev.previousElementSibling; // drafts before it that were dropped
    const values = { title };
    if (prev) values.after = prev.dataset.id;
    else Object.assign(values, { parent: ul.dataset.parent, placement: ul.dataset.placement || "", position: 0 });
    const res = await send("POST", `/projects/${projectID()}/pages`, values);
    if (!res.ok) {
      flash(problem(res.html, "The page could not be added."), true);
      draft.querySelector(":scope > .row > .pending")?.remove();
      openField(draft, title, true);
      return;
    }
    upgrade(draft, fragment(res.html).querySelector("li.node"));
  });
}

// upgrade turns a saved draft into the row the server sent, keeping
// what was typed under it meanwhile.
function upgrade(draft, fresh) {
  const focus = draft.dataset.focus;
  draft.id = fresh.id;
  draft.dataset.id = fresh.dataset.id;
  delete draft.dataset.focus;
  draft.classList.remove("draft");
  const row = fresh.querySelector(":scope > .row");
  const toggle = draft.querySelector(":scope > .row > .toggle");
  if (toggle) row.querySelector(".toggle-space")?.replaceWith(toggle);
  rowOf(draft).replaceWith(row);
  const ul = listOf(draft);
  ul.id = "children-" + draft.dataset.id;
  ul.dataset.parent = draft.dataset.id;
  ul.dataset.loaded = "1";
  htmx.process(draft);
  if (focus) selectNode(draft);
}

// rename shows li's new title at once and saves it in its turn; a
// refused title comes back with the reason. With the outline in another
// locale than the default it is the title there (the page's variant).
export function rename(li, title) {
  const a = titleOf(li);
  const old = a.textContent;
  a.textContent = title;
  const locale = shownLocale();
  const url = `/projects/${projectID()}/pages/${li.dataset.id}` + (locale ? `/variants/${encodeURIComponent(locale)}/title` : "/title");
  queue(async () => {
    const res = await send("PATCH", url, { title, version: titleOf(li).dataset.v });
    if (!res.ok) {
      titleOf(li).textContent = old;
      flash(problem(res.html, "The title could not be saved."), true);
      return;
    }
    const answer = fragment(res.html);
    const fresh = answer.querySelector("a.title");
    const cur = titleOf(li);
    cur.dataset.v = fresh.dataset.v;
    cur.textContent = fresh.textContent;
    cur.classList.toggle("untranslated", fresh.classList.contains("untranslated"));
    cur.title = fresh.title;
    const moved = answer.querySelector(".url-notice"); // the rename gave URLs a new slug: say so, under the toolbar
    if (moved) {
      document.getElementById("url-notices")?.replaceChildren(moved);
      htmx.process(moved);
    }
    if (shownPage() === li.dataset.id) refreshDetails(li.dataset.id);
  });
}

document.addEventListener("keydown", async (e) => {
  const input = e.target.closest?.("#outline input.title-field");
  if (!input) return;
  const li = nodeOf(input);
  switch (fieldKey(e)) {
    case "save-next":
      e.preventDefault();
      if (!li.classList.contains("draft")) { // a rename: Enter commits it, and that is all
        closeField(li, true);
        selectNode(li);
        return;
      }
      if (!input.value.trim()) return;
      closeField(li, true);
      newDraft(li, "after"); // typing down a list: the next row
      return;
    case "indent": case "outdent": {
      e.preventDefault();
      const pos = input.selectionStart;
      if (e.shiftKey) outdent(li); else await indent(li);
      input.focus();
      input.setSelectionRange(pos, pos);
      return;
    }
    case "cancel": {
      e.preventDefault();
      const above = li.previousElementSibling || nodeOf(li.parentElement);
      if (closeField(li, false)) { selectNode(li); return; }
      if (above?.dataset.id) selectNode(above);
      else if (above) above.dataset.focus = "1";
      return;
    }
    case "save-up": case "save-down": {
      e.preventDefault();
      const go = (target) => {
        if (!selectNode(target)) {
          if (li.dataset.id) selectNode(li);
          else if (li.isConnected) li.dataset.focus = "1"; // saving: select it once saved
        }
      };
      const target = e.key === "ArrowUp" ? rowAbove(li) : rowBelow(li);
      closeField(li, true);
      if (isMore(target)) below(li, go);
      else go(target);
      return;
    }
  }
});
// Leaving a field saves it (a field moved in the tree keeps it open).
document.addEventListener("focusout", (e) => {
  const input = e.target.closest?.("#outline input.title-field");
  if (!input || moving.now || !input.isConnected) return;
  setTimeout(() => { if (input.isConnected && document.activeElement !== input) closeField(nodeOf(input), true); }, 0);
});
