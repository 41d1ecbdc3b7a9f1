import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { PT, decodeScene, sceneWords } from "./scene.js";

// The scene the Go painter draws of the acme plan (diagram's
// TestSceneGolden keeps it).
const acme = JSON.parse(readFileSync(new URL("../../diagram/testdata/scene-acme.json", import.meta.url)));

test("decodeScene reads every card of the scene, in CSS pixels", () => {
  const d = decodeScene(acme);
  assert.equal(d.list.length, acme.cards.length / 5);
  for (let i = 0; i < acme.cards.length; i += 5) {
    const b = d.byID.get(String(acme.cards[i]));
    assert.ok(b, `card ${acme.cards[i]} decoded`);
    assert.deepEqual([b.x, b.y, b.w, b.h], acme.cards.slice(i + 1, i + 5).map((v) => v * PT));
  }
});

test("decodeScene finds the operations of each card, and its badge", () => {
  const d = decodeScene(acme);
  const cards = acme.groups.filter((g) => g[1] === "node").length;
  assert.equal(d.nodes.length, cards);
  for (const g of d.nodes) {
    assert.ok(g.from < g.to, `${g.id} has operations`);
    assert.ok(g.after && g.color.startsWith("#"), `${g.id} has its state after and a band colour`);
  }
  // Page 2 has comments: its badge sits on its card.
  const b = d.byID.get("2");
  assert.ok(b.badge, "page 2's badge decoded");
  assert.ok(b.badge.x >= b.x - 8 * PT && b.badge.x + b.badge.w <= b.x + b.w + 8 * PT, "the badge is at its card");
  assert.equal(d.byID.get("3").badge, undefined);
});

test("an operation's bounds hold every point it draws", () => {
  const d = decodeScene(acme), o = acme.ops;
  let checked = 0;
  for (let k = 0; k < d.n; k++) {
    const i = d.starts[k];
    const [x0, y0, x1, y1] = d.bounds.slice(4 * k, 4 * k + 4);
    const pts = [];
    switch (o[i]) {
      case 4: pts.push([o[i + 2], o[i + 3]], [o[i + 4], o[i + 5]]); break;
      case 5: case 7: for (let m = 0; m < o[i + 2]; m++) pts.push([o[i + 3 + 2 * m], o[i + 4 + 2 * m]]); break;
      case 6: for (let m = 0; m < o[i + 1]; m++) pts.push([o[i + 2 + 2 * m], o[i + 3 + 2 * m]]); break;
      default: continue;
    }
    for (const [x, y] of pts) {
      assert.ok(x >= x0 && x <= x1 && y >= y0 && y <= y1, `operation ${k} (code ${o[i]}): point ${x},${y} outside ${[x0, y0, x1, y1]}`);
      checked++;
    }
  }
  assert.ok(checked > 100, `checked ${checked} points`);
});

test("sceneWords gives a card's words", () => {
  const d = decodeScene(acme);
  assert.match(sceneWords(acme, d, "1"), /Home/);
  assert.equal(sceneWords(acme, d, "999"), "");
});

test("a hand-made scene: state changes, a text's bounds, an unknown code", () => {
  const sc = {
    w: 100, h: 50, font: "sans-serif", strs: ["#000000", "#ff0000", "Hi"],
    cards: [7, 10, 10, 40, 20],
    groups: [["p7", "node", 2, 17]],
    ops: [0, 0, 1, 1, 4, 1, 10, 10, 50, 30, 9, 30, 25, 10, 4, 20, 2],
  };
  const d = decodeScene(sc);
  assert.equal(d.n, 4);
  assert.deepEqual([...d.starts.slice(0, 4)], [0, 2, 4, 10]);
  assert.ok(Number.isNaN(d.bounds[0]), "a change of state covers nothing");
  assert.deepEqual([...d.bounds.slice(8, 12)], [8, 8, 52, 32]);
  // Centred text 20 wide at x 30: from 20 to 40, 10 high above the baseline.
  assert.deepEqual([...d.bounds.slice(12, 16)].map((v) => Math.round(v)), [18, 13, 42, 30]);
  assert.equal(d.nodes[0].color, "#ff0000");
  assert.deepEqual(d.nodes[0].after, { pen: 0, fill: 1, width: 1, dash: [] });
  assert.throws(() => decodeScene({ ...sc, ops: [42] }), /unknown operation 42/);
});
