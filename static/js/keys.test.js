import { test } from "node:test";
import assert from "node:assert/strict";
import { canvasKey, fieldKey, titleKey, undoKey } from "./keys.js";

const key = (k, mods = {}) => ({ key: k, code: "", shiftKey: false, altKey: false, ctrlKey: false, metaKey: false, ...mods });

test("titleKey: navigation for everyone, edits for editors", () => {
  for (const [e, edit, want] of [
    [key("ArrowDown"), false, "down"], [key("ArrowUp"), false, "up"], [key("Home"), false, "first"], [key("End"), false, "last"],
    [key("ArrowRight"), false, "open"], [key("ArrowLeft"), false, "close"], [key("?"), false, "help"],
    [key("Enter"), false, null], [key("F2"), false, null], [key("Delete"), false, null], [key("a"), false, null],
    [key("Enter"), true, "add-after"], [key("Enter", { shiftKey: true }), true, "add-child"], [key("F2"), true, "rename"],
    [key("Delete"), true, "delete"], [key("a"), true, "type"], [key("É"), true, "type"], [key(" "), true, null],
    [key("ArrowUp", { altKey: true }), true, "move"], [key("ArrowUp", { altKey: true }), false, null], [key("a", { altKey: true }), true, null],
    [key("a", { ctrlKey: true }), true, null], [key("ArrowDown", { metaKey: true }), true, null], [key("Tab"), true, null],
  ]) assert.equal(titleKey(e, edit), want, `${JSON.stringify(e)} edit ${edit}`);
});

test("fieldKey", () => {
  assert.equal(fieldKey(key("Enter")), "save-next");
  assert.equal(fieldKey(key("Tab")), "indent");
  assert.equal(fieldKey(key("Tab", { shiftKey: true })), "outdent");
  assert.equal(fieldKey(key("Escape")), "cancel");
  assert.equal(fieldKey(key("ArrowUp")), "save-up");
  assert.equal(fieldKey(key("ArrowDown")), "save-down");
  assert.equal(fieldKey(key("x")), null);
});

test("canvasKey: the view for everyone, edits for editors", () => {
  const viewer = { edit: false, page: true }, editor = { edit: true, page: true }, none = { edit: false, page: false };
  for (const [e, who, want] of [
    [key("!", { shiftKey: true, code: "Digit1" }), viewer, "fit"], [key("@", { shiftKey: true, code: "Digit2" }), viewer, "zoom-page"],
    [key("+"), viewer, "zoom-in"], [key("="), viewer, "zoom-in"], [key("-"), viewer, "zoom-out"],
    [key("ArrowLeft"), none, "next"], [key("ArrowLeft", { altKey: true }), viewer, null], [key("ArrowLeft", { altKey: true }), editor, "move"],
    [key(" "), viewer, "fold"], [key(" "), none, null], [key(" "), editor, "fold"],
    [key("Enter"), viewer, null], [key("Enter"), editor, "add-after"], [key("Enter", { shiftKey: true }), editor, "add-child"],
    [key("F2"), editor, "rename"], [key("Delete"), editor, "delete"], [key("x"), editor, "type"], [key("x"), viewer, null],
    [key("x", { altKey: true }), editor, null], [key("z", { ctrlKey: true }), editor, null], [key("Escape"), editor, null],
  ]) assert.equal(canvasKey(e, who), want, `${JSON.stringify(e)} ${JSON.stringify(who)}`);
});

test("undoKey", () => {
  assert.equal(undoKey(key("z", { ctrlKey: true })), "undo");
  assert.equal(undoKey(key("z", { metaKey: true })), "undo");
  assert.equal(undoKey(key("Z", { ctrlKey: true, shiftKey: true })), "redo");
  assert.equal(undoKey(key("y", { ctrlKey: true })), "redo");
  assert.equal(undoKey(key("z")), null);
  assert.equal(undoKey(key("z", { ctrlKey: true, altKey: true })), null);
  assert.equal(undoKey(key("x", { ctrlKey: true })), null);
});
