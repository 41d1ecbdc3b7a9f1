// A form's list of rows (a fieldset marked data-row-list: a brief's content
// blocks in the page form, a rate card's page types, block kinds and
// fixed lines): add one (a copy of the list's <template>), remove one,
// move one up or down with its buttons or with Alt+Up and Alt+Down from
// any of its fields, keeping the focus where it was. The rows are the
// form's fields, in order: saving the form saves them.

// blockKey maps a key in a row to what it does: "up", "down", or
// null when the key is not the list's.
export function blockKey(e) {
  if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return null;
  return { ArrowUp: "up", ArrowDown: "down" }[e.key] ?? null;
}

// moveTo is where the row at i of n goes when moved by op ("up" or
// "down"), or -1 when it cannot go further.
export function moveTo(i, n, op) {
  const j = op === "up" ? i - 1 : op === "down" ? i + 1 : -1;
  return j >= 0 && j < n ? j : -1;
}

// act does op to row li of list (the [data-row-list] fieldset); focus is
// the control to keep the focus on.
function act(list, li, op, focus) {
  const ol = list.querySelector("ol");
  const rows = [...ol.children];
  if (op === "add") {
    const row = document.importNode(list.querySelector("template").content, true).firstElementChild;
    ol.append(row);
    row.querySelector("select, input")?.focus();
  } else if (op === "remove" && li) {
    const next = li.nextElementSibling ?? li.previousElementSibling;
    li.remove();
    (next?.querySelector("input") ?? list.querySelector("[data-block=add]"))?.focus();
  } else if (li) {
    const j = moveTo(rows.indexOf(li), rows.length, op);
    if (j < 0) return;
    ol.insertBefore(li, op === "up" ? rows[j] : rows[j].nextSibling);
    focus?.focus();
  }
  // The form has changed as if typed into: it is unsaved until saved.
  list.closest("form")?.dispatchEvent(new Event("input", { bubbles: true }));
}

if (typeof document !== "undefined") {
  document.addEventListener("click", (e) => {
    const b = e.target.closest?.("[data-row-list] [data-block]");
    if (b && !b.closest("fieldset:disabled")) act(b.closest("[data-row-list]"), b.closest("li"), b.dataset.block, b);
  });
  document.addEventListener("keydown", (e) => {
    const li = e.target.closest?.("[data-row-list] li");
    const op = li && blockKey(e);
    if (!op) return;
    e.preventDefault();
    act(li.closest("[data-row-list]"), li, op, e.target);
  });
}
