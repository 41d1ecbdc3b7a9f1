import { test } from "node:test";
import assert from "node:assert/strict";
import { clock } from "./tasktimer.js";

test("clock: minutes and seconds left, rounded up", () => {
  assert.equal(clock(0), "0:00");
  assert.equal(clock(-5), "0:00");
  assert.equal(clock(1), "0:01");
  assert.equal(clock(59_000), "0:59");
  assert.equal(clock(60_000), "1:00");
  assert.equal(clock(64_001), "1:05");
  assert.equal(clock(600_000), "10:00");
});
