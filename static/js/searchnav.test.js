import { test } from "node:test";
import assert from "node:assert/strict";
import { step } from "./searchnav.js";

test("step: ↓ from the box to the first result, through them, and stops at the last", () => {
  assert.equal(step("ArrowDown", -1, 3), 0);
  assert.equal(step("ArrowDown", 0, 3), 1);
  assert.equal(step("ArrowDown", 2, 3), 2);
  assert.equal(step("ArrowDown", -1, 0), null); // no results: the key is the box's
});

test("step: ↑ back through the results to the box; Escape to the box", () => {
  assert.equal(step("ArrowUp", 2, 3), 1);
  assert.equal(step("ArrowUp", 0, 3), -1);
  assert.equal(step("ArrowUp", -1, 3), null); // in the box: the box's own
  assert.equal(step("Escape", 1, 3), -1);
  assert.equal(step("Escape", -1, 3), null); // the box's own: it clears
});

test("step: other keys are not the results'", () => {
  assert.equal(step("Enter", 0, 3), null); // a link follows itself
  assert.equal(step("a", -1, 3), null);
});
