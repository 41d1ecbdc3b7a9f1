import { test } from "node:test";
import assert from "node:assert/strict";
import { blockKey, moveTo } from "./rows.js";

const key = (k, mods = {}) => ({ key: k, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });

test("blockKey: Alt+Up and Alt+Down move, nothing else does", () => {
  assert.equal(blockKey(key("ArrowUp", { altKey: true })), "up");
  assert.equal(blockKey(key("ArrowDown", { altKey: true })), "down");
  for (const e of [key("ArrowUp"), key("ArrowDown"), key("ArrowLeft", { altKey: true }), key("ArrowUp", { altKey: true, shiftKey: true }),
    key("ArrowUp", { altKey: true, ctrlKey: true }), key("x", { altKey: true })]) assert.equal(blockKey(e), null, JSON.stringify(e));
});

test("moveTo: one place up or down, never past the ends", () => {
  assert.equal(moveTo(2, 5, "up"), 1);
  assert.equal(moveTo(2, 5, "down"), 3);
  assert.equal(moveTo(0, 5, "up"), -1);
  assert.equal(moveTo(4, 5, "down"), -1);
  assert.equal(moveTo(0, 1, "down"), -1);
  assert.equal(moveTo(1, 3, "sideways"), -1);
});
