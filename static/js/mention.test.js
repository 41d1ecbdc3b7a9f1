import { test } from "node:test";
import assert from "node:assert/strict";
import { complete, mentionAt, suggest } from "./mention.js";

test("mentionAt: an @ at the start or after a space, up to the caret", () => {
  assert.deepEqual(mentionAt("Hi @An", 6), { start: 3, query: "An" });
  assert.deepEqual(mentionAt("@", 1), { start: 0, query: "" });
  assert.deepEqual(mentionAt("@Olive Ow", 9), { start: 0, query: "Olive Ow" });
  assert.equal(mentionAt("mail anna@x", 11), null);
  assert.equal(mentionAt("no mention", 10), null);
  assert.equal(mentionAt("@Ana\nnext", 9), null);
});

test("suggest: names whose words start with what is typed", () => {
  const names = ["Anna Berg", "Olive Owner", "Carla Client", "Bob"];
  assert.deepEqual(suggest(names, "an"), ["Anna Berg"]);
  assert.deepEqual(suggest(names, "o"), ["Olive Owner"]);
  assert.deepEqual(suggest(names, "client"), ["Carla Client"]);
  assert.deepEqual(suggest(names, "olive ow"), ["Olive Owner"]);
  assert.deepEqual(suggest(names, ""), names);
  assert.deepEqual(suggest(names, "", 2), ["Anna Berg", "Olive Owner"]);
});

test("complete: the name in place, a space after, the caret after it", () => {
  assert.deepEqual(complete("Hi @An", 3, 6, "Anna Berg"), { text: "Hi @Anna Berg ", caret: 14 });
  assert.deepEqual(complete("Hi @An and Bo", 3, 6, "Anna Berg"), { text: "Hi @Anna Berg and Bo", caret: 14 }); // one space, never two
  assert.deepEqual(complete("Hi @Anand Bo", 3, 8, "Anna Berg"), { text: "Hi @Anna Berg d Bo", caret: 14 });
  assert.deepEqual(complete("Hi @An, see", 3, 6, "Anna Berg"), { text: "Hi @Anna Berg, see", caret: 13 }); // no space before a comma
});
