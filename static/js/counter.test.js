import { test } from "node:test";
import assert from "node:assert/strict";
import { characters, counted } from "./counter.js";

test("counted: short, ok and long against the range", () => {
  assert.deepEqual(counted(0, "15-60"), { text: "0 / 60", state: "" });
  assert.deepEqual(counted(14, "15-60"), { text: "14 / 60", state: "short" });
  assert.deepEqual(counted(15, "15-60"), { text: "15 / 60", state: "ok" });
  assert.deepEqual(counted(60, "15-60"), { text: "60 / 60", state: "ok" });
  assert.deepEqual(counted(61, "15-60"), { text: "61 / 60", state: "long" });
  assert.deepEqual(counted(120, "50-160"), { text: "120 / 160", state: "ok" });
});

test("characters: code points, as search engines count", () => {
  assert.equal(characters("Café"), 4);
  assert.equal(characters("🏕️ Tents"), 8);
});
