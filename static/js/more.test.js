import { test } from "node:test";
import assert from "node:assert/strict";
import { once, scrollRoot } from "./more.js";

test("once: a load under way is not started again", async () => {
  const pending = new Map();
  let started = 0;
  const load = () => { started++; return Promise.resolve("rows"); };
  const a = once(pending, "li", load), b = once(pending, "li", load);
  assert.equal(a, b);
  assert.equal(started, 1);
  assert.equal(await b, "rows");
  once(pending, "other", load);
  assert.equal(started, 2);
});

test("once: a load that failed is started again when asked again", async () => {
  const pending = new Map();
  let started = 0, there = true;
  const load = () => { started++; return Promise.resolve(); };
  await once(pending, "li", load, () => !there);
  await once(pending, "li", load, () => !there);
  assert.equal(started, 2, "the row was still there: the load failed");
  there = false;
  await once(pending, "li", load, () => !there);
  await once(pending, "li", load, () => !there);
  assert.equal(started, 3, "the row is gone: its rows came");
});

test("scrollRoot: the outline when it scrolls on its own, else the window", () => {
  const outline = {};
  assert.equal(scrollRoot(outline, "auto"), outline);
  assert.equal(scrollRoot(outline, "scroll"), outline);
  assert.equal(scrollRoot(outline, "visible"), null);
});
