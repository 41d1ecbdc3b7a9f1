import { test } from "node:test";
import assert from "node:assert/strict";
import { WriteQueue } from "./writequeue.js";

const later = (ms, v) => new Promise((resolve) => setTimeout(() => resolve(v), ms));

test("writes go one after another, in the order they were made", async () => {
  const q = new WriteQueue(), log = [];
  q.add(async () => { log.push("a start"); await later(20); log.push("a end"); });
  q.add(async () => { log.push("b start"); await later(1); log.push("b end"); });
  const last = q.add(() => { log.push("c"); });
  assert.ok(q.busy());
  await last;
  assert.deepEqual(log, ["a start", "a end", "b start", "b end", "c"]);
  assert.ok(!q.busy());
});

test("a failed write is reported and the next still goes", async () => {
  const errors = [], log = [];
  const q = new WriteQueue({ onError: (e) => errors.push(e.message) });
  q.add(async () => { throw new Error("refused"); });
  await q.add(() => { log.push("after"); });
  assert.deepEqual(errors, ["refused"]);
  assert.deepEqual(log, ["after"]);
});

test("onSettled is called when the queue runs dry, not between writes", async () => {
  let settled = 0, seen = [];
  const q = new WriteQueue({ onSettled: () => settled++ });
  q.add(async () => { await later(5); seen.push(settled); });
  const last = q.add(async () => { seen.push(settled); });
  await last;
  assert.deepEqual(seen, [0, 0]);
  assert.equal(settled, 1);
  await q.add(() => {});
  assert.equal(settled, 2);
});

test("a write added while one runs waits for it", async () => {
  const q = new WriteQueue(), log = [];
  const first = q.add(async () => {
    q.add(() => { log.push("inner"); });
    await later(5);
    log.push("outer");
  });
  await first;
  await q.add(() => {});
  assert.deepEqual(log, ["outer", "inner"]);
});
