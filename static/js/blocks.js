// A brief's content blocks in the page form: add one, remove one, move
// one up or down with its buttons or with Alt+Up and Alt+Down from any
// of its fields, keeping the focus where it was. The rows are the form's
// fields (block_kind, block_note, in order): saving the page saves them.

// blockKey maps a key in a block's row to what it does: "up", "down", or
// null when the key is not the list's.
export function blockKey(e) {
  if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return null;
  return { ArrowUp: "up", ArrowDown: "down" }[e.key] ?? null;
}

// moveTo is where the block at i of n goes when moved by op ("up" or
// "down"), or -1 when it cannot go further.
export function moveTo(i, n, op) {
  const j = op === "up" ? i - 1 : op === "down" ? i + 1 : -1;
  return j >= 0 && j < n ? j : -1;
}

// act does op to row li of list (the #brief-blocks fieldset); focus is
// the control to keep the focus on.
function act(list, li, op, focus) {
  const ol = list.querySelector("ol");
  const rows = [...ol.children];
  if (op === "add") {
    const row = document.importNode(list.querySelector("template").content, true).firstElementChild;
    ol.append(row);
    row.querySelector("select")?.focus();
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
    const b = e.target.closest?.("#brief-blocks [data-block]");
    if (b && !b.closest("fieldset:disabled")) act(b.closest("#brief-blocks"), b.closest("li"), b.dataset.block, b);
  });
  document.addEventListener("keydown", (e) => {
    const li = e.target.closest?.("#brief-blocks li");
    const op = li && blockKey(e);
    if (!op) return;
    e.preventDefault();
    act(li.closest("#brief-blocks"), li, op, e.target);
  });
}
