import { test } from "node:test";
import assert from "node:assert/strict";
import { guard } from "./steady.js";

test("guard: a pointer's click on a list replaced under it waits for the pointer to move", () => {
  const g = guard(), list = {};
  assert.ok(g.allows(list, 1), "a list as it opened takes clicks");
  g.replaced(list);
  assert.ok(!g.allows(list, 1), "replaced under a resting pointer");
  g.moved(list, 0, 0);
  assert.ok(!g.allows(list, 1), "a move of nothing (the browser's own after a layout change) is not the user's");
  g.moved(list, 3, 0);
  assert.ok(g.allows(list, 1), "the pointer came to the row");
});

test("guard: the keyboard's click always counts", () => {
  const g = guard(), list = {};
  g.replaced(list);
  assert.ok(g.allows(list, 0));
});
