// The editor's keys (the "?" help lists them), as actions. Each
// function takes a key event, or anything with its key, code and
// modifier fields, and returns the action's name, or null when the key
// is not the editor's. Pure: the modules that act live elsewhere.

const arrow = (k) => k === "ArrowUp" || k === "ArrowDown" || k === "ArrowLeft" || k === "ArrowRight";
const printable = (k) => k.length === 1;

// titleKey maps a key on a selected page in the outline. edit says
// whether the viewer may edit. Alt+arrows move the page ("move"); a
// typed character starts a rename with it ("type").
export function titleKey(e, edit) {
  if (e.altKey) return edit && arrow(e.key) ? "move" : null;
  if (e.ctrlKey || e.metaKey) return null;
  switch (e.key) {
    case "ArrowDown": return "down";
    case "ArrowUp": return "up";
    case "Home": return "first";
    case "End": return "last";
    case "ArrowRight": return "open";
    case "ArrowLeft": return "close";
    case "?": return "help";
  }
  if (!edit) return null;
  switch (e.key) {
    case "Enter": return e.shiftKey ? "add-child" : "add-after";
    case "F2": return "rename";
    case "Delete": return "delete";
  }
  return printable(e.key) && e.key !== " " ? "type" : null;
}

// fieldKey maps a key in an outline row's title field.
export function fieldKey(e) {
  switch (e.key) {
    case "Enter": return "save-next";
    case "Tab": return e.shiftKey ? "outdent" : "indent";
    case "Escape": return "cancel";
    case "ArrowUp": return "save-up";
    case "ArrowDown": return "save-down";
  }
  return null;
}

// canvasKey maps a key on the diagram's canvas. edit says whether the
// selected page may be edited, page whether a page is selected.
export function canvasKey(e, { edit, page }) {
  const k = e.key;
  if (e.ctrlKey || e.metaKey) return null; // Ctrl+Z is the page's
  if (e.shiftKey && e.code === "Digit1") return "fit";
  if (e.shiftKey && e.code === "Digit2") return "zoom-page";
  if (k === "+" || k === "=") return "zoom-in";
  if (k === "-") return "zoom-out";
  if (arrow(k)) return e.altKey ? (edit ? "move" : null) : "next";
  if (!edit) return k === " " && page ? "fold" : null;
  switch (k) {
    case "Enter": return e.shiftKey ? "add-child" : "add-after";
    case "F2": return "rename";
    case "Delete": return "delete";
    case " ": return "fold";
  }
  return printable(k) && !e.altKey ? "type" : null;
}

// undoKey maps Ctrl+Z to "undo" and Ctrl+Shift+Z or Ctrl+Y to "redo"
// (Cmd on a Mac).
export function undoKey(e) {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const k = e.key.toLowerCase();
  if (k !== "z" && k !== "y") return null;
  return k === "y" || e.shiftKey ? "redo" : "undo";
}
