import { test } from "node:test";
import assert from "node:assert/strict";
import { EDGE, STEP, cardZone, edgeScroll, place, rowZone } from "./drop.js";

test("rowZone: before, inside, after, or first under an open branch", () => {
  for (const [f, open, want] of [
    [0, false, "before"], [0.29, false, "before"], [0.3, false, "inside"], [0.7, false, "inside"],
    [0.71, false, "after"], [1, false, "after"], [0.9, true, "first"], [0.1, true, "before"],
  ]) assert.equal(rowZone(f, open), want, `f ${f}, open ${open}`);
});

test("cardZone: the outer quarters are before and after", () => {
  for (const [f, want] of [[0, "before"], [0.24, "before"], [0.25, "inside"], [0.75, "inside"], [0.76, "after"], [1, "after"]]) {
    assert.equal(cardZone(f), want, `f ${f}`);
  }
});

test("place moves an entry within its list", () => {
  const l = ["a", "b", "c", "d"];
  assert.deepEqual(place(l, "a", "d"), { order: ["b", "c", "a", "d"], index: 2 });
  assert.deepEqual(place(l, "d", "a"), { order: ["d", "a", "b", "c"], index: 0 });
  assert.deepEqual(place(l, "b", null), { order: ["a", "c", "d", "b"], index: 3 });
});

test("place into another list", () => {
  assert.deepEqual(place(["x", "y"], "a", "y"), { order: ["x", "a", "y"], index: 1 });
  assert.deepEqual(place(["x", "y"], "a", null), { order: ["x", "y", "a"], index: 2 });
  assert.deepEqual(place([], "a", null), { order: ["a"], index: 0 });
});

test("place refuses a drop that changes nothing", () => {
  const l = ["a", "b", "c"];
  assert.equal(place(l, "b", "b"), null, "before itself");
  assert.equal(place(l, "b", "c"), null, "before the one after it");
  assert.equal(place(l, "c", null), null, "last, already last");
  assert.throws(() => place(l, "a", "z"), /not in the list/);
});

test("edgeScroll scrolls toward the edge the pointer is at, never while it moves back", () => {
  const h = 720;
  for (const [y, dy, want] of [
    [h - 10, 5, STEP], [h - 10, 0, STEP], [h - 10, -3, 0], [h - EDGE - 1, 5, 0],
    [10, -5, -STEP], [10, 0, -STEP], [10, 4, 0], [EDGE + 1, -5, 0], [300, 0, 0],
  ]) assert.equal(edgeScroll(y, dy, h), want, `y ${y}, dy ${dy}`);
});
