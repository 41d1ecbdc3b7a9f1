import { test } from "node:test";
import assert from "node:assert/strict";
import { itemState, stopHolder } from "./tree.js";

test("itemState: a branch says whether it is open and owns its list; a leaf says nothing", () => {
  assert.deepEqual(itemState({ id: "7", toggle: true, collapsed: false }), { expanded: "true", owns: "children-7" });
  assert.deepEqual(itemState({ id: "7", toggle: true, collapsed: true }), { expanded: "false", owns: "children-7" });
  assert.equal(itemState({ id: "7", toggle: false, collapsed: false }), null);
});

test("stopHolder: the first candidate that is there", () => {
  assert.equal(stopHolder(null, "selected", "first"), "selected");
  assert.equal(stopHolder(undefined, null, "first"), "first");
  assert.equal(stopHolder(null, null), null);
});
