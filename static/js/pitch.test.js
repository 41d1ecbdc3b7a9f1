import { test } from "node:test";
import assert from "node:assert/strict";
import { step, slideOf } from "./pitch.js";

test("step: the keys of a keyboard and of a presenter's clicker", () => {
  assert.equal(step("ArrowRight", 0, 5), 1);
  assert.equal(step("PageDown", 1, 5), 2);
  assert.equal(step(" ", 2, 5), 3);
  assert.equal(step("ArrowDown", 4, 5), 4, "the last slide stays");
  assert.equal(step("PageUp", 3, 5), 2);
  assert.equal(step("ArrowLeft", 0, 5), 0, "the first slide stays");
  assert.equal(step("Home", 3, 5), 0);
  assert.equal(step("End", 1, 5), 4);
  assert.equal(step("x", 2, 5), 2);
});

test("slideOf: the slide the address names, else the first", () => {
  assert.equal(slideOf("#3", 5), 2);
  assert.equal(slideOf("#9", 5), 0);
  assert.equal(slideOf("", 5), 0);
  assert.equal(slideOf("#x", 5), 0);
});
