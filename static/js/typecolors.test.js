import { test } from "node:test";
import assert from "node:assert/strict";
import { colorOf, paint } from "./typecolors.js";

const chip = (color) => ({ dataset: color === undefined ? {} : { color }, style: {} });

test("colorOf takes only #rrggbb", () => {
  for (const [c, want] of [["#6d9eeb", "#6d9eeb"], ["red", ""], ["#6D9EEB", ""], ["#123", ""], ["#123456;x", ""], [undefined, ""]]) {
    assert.equal(colorOf(chip(c)), want, String(c));
  }
});

test("paint colours the chips under root and root itself", () => {
  const a = chip("#6d9eeb"), b = chip("url(x)"), self = { ...chip("#93c47d"), matches: () => true };
  self.querySelectorAll = () => [a, b];
  paint(self);
  assert.equal(a.style.borderLeftColor, "#6d9eeb");
  assert.equal(b.style.borderLeftColor, undefined);
  assert.equal(self.style.borderLeftColor, "#93c47d");
});
