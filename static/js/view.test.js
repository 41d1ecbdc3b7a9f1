import { test } from "node:test";
import assert from "node:assert/strict";
import { boxAt, centre, fit, lineOf, nextBox, onScreen, READABLE, reveal, toDrawing, zoomAt } from "./view.js";

test("zoomAt keeps the point under the pointer still", () => {
  const v = { k: 1, x: 10, y: 20 };
  const before = toDrawing(v, 200, 150);
  zoomAt(v, 2, 200, 150);
  assert.equal(v.k, 2);
  assert.deepEqual(toDrawing(v, 200, 150), before);
});

test("zoomAt stops at its limits", () => {
  const v = { k: 1, x: 0, y: 0 };
  for (let i = 0; i < 40; i++) zoomAt(v, 1.25, 0, 0);
  assert.equal(v.k, 8);
  for (let i = 0; i < 80; i++) zoomAt(v, 0.8, 0, 0);
  assert.equal(v.k, 0.05);
});

test("fit shows the whole drawing, centred across, enlarged at most twice", () => {
  const v = { k: 3, x: 5, y: 5 };
  fit(v, 2000, 500, 1000, 800);
  assert.deepEqual(v, { k: 0.5, x: 0, y: 0 });
  fit(v, 400, 300, 1000, 800);
  assert.deepEqual(v, { k: 2, x: 100, y: 0 }, "a small plan fills the canvas, its words readable");
  fit(v, 100, 50, 1000, 800);
  assert.equal(v.k, 2, "never more than twice");
});

test("fit shows the useful part when it comes out larger", () => {
  const v = { k: 1, x: 0, y: 0 };
  // The main tree 560 wide at the left, the legend and navigation
  // beside it: whole, 1.02; the tree alone, 1.5 (the review at 1280×720).
  fit(v, 840, 250, 860, 460, { x: 10, y: 10, w: 560, h: 160 });
  assert.equal(v.k, 860 / 560);
  assert.deepEqual([Math.round(v.x + 10 * v.k), Math.round(v.y + 10 * v.k)], [0, 0], "the tree at the canvas's left and top");
  fit(v, 840, 250, 860, 460, { x: 0, y: 0, w: 800, h: 240 }); // nearly the whole: the whole
  assert.equal(v.k, 860 / 840);
  assert.equal(v.y, 0);
});

test("fit never makes a long drawing a hairline: it fills the other way, from the start", () => {
  const v = { k: 1, x: 0, y: 0 };
  fit(v, 2000, 200000, 1000, 800); // left to right, 5,000 pages: tall
  assert.deepEqual(v, { k: 0.5, x: 0, y: 0 }, "fits the width");
  fit(v, 400000, 900, 1000, 800); // top down, one wide level: wide
  assert.equal(v.k, 800 / 900);
  assert.deepEqual([v.x, v.y], [0, 0], "from its left end");
  fit(v, 3000, 600, 1000, 800); // wide, but whole it still reads
  assert.equal(v.k, 1 / 3);
});

test("fit opens a drawing no smaller than people read: from the top of its main tree", () => {
  const v = { k: 1, x: 0, y: 0 };
  // A 61-page plan, 2,100 wide, in the editor's pane beside Details: whole
  // it would be 0.25 (titles 3 px high); it opens at READABLE, its home
  // page (top middle of the main tree) at the top middle of the pane.
  fit(v, 2100, 900, 530, 520, { x: 0, y: 0, w: 2000, h: 620 }, READABLE);
  assert.equal(v.k, READABLE);
  assert.deepEqual([v.x + 1000 * v.k, v.y + 0], [265, 0]);
  fit(v, 2100, 900, 530, 520, { x: 0, y: 0, w: 2000, h: 620 }); // "Fit": whole
  assert.ok(v.k < 0.26);
  fit(v, 1500, 20000, 530, 520, { x: 0, y: 0, w: 1500, h: 20000 }, READABLE); // left to right: from its start
  assert.deepEqual([v.k, v.x + 0, v.y + 0], [READABLE, 0, 0]);
  fit(v, 3000, 3000, 500, 500, undefined, READABLE, true); // radial: its middle, where its home page is
  assert.deepEqual([v.k, v.x + 1500 * v.k, v.y + 1500 * v.k], [READABLE, 250, 250]);
  fit(v, 400, 300, 1000, 800, undefined, READABLE); // large enough whole: as before
  assert.deepEqual(v, { k: 2, x: 100, y: 0 });
});

test("centre puts a box in the middle, large enough to read", () => {
  const v = { k: 1, x: 0, y: 0 }, b = { x: 100, y: 100, w: 100, h: 50 };
  centre(v, b, 1200, 800);
  assert.equal(v.k, 2);
  const s = onScreen(v, b);
  assert.deepEqual([s.x + s.w / 2, s.y + s.h / 2], [600, 400]);
});

test("reveal pans only as far as needed", () => {
  const v = { k: 1, x: 0, y: 0 };
  reveal(v, { x: 10, y: 100, w: 50, h: 20 }, 500, 400);
  assert.deepEqual(v, { k: 1, x: 14, y: 0 }, "a box near the left edge comes 24 px in");
  reveal(v, { x: 900, y: 100, w: 50, h: 20 }, 500, 400);
  assert.equal(v.x + 950, 500 - 24, "a box past the right edge ends 24 px inside it");
  const keep = { ...v };
  reveal(v, { x: -v.x + 100, y: 100, w: 50, h: 20 }, 500, 400);
  assert.deepEqual(v, keep, "a box in view leaves the view as it is");
});

test("boxAt takes the box drawn last where boxes overlap", () => {
  const list = [{ id: "a", x: 0, y: 0, w: 100, h: 100 }, { id: "b", x: 50, y: 50, w: 100, h: 100 }];
  assert.equal(boxAt(list, 75, 75).id, "b");
  assert.equal(boxAt(list, 10, 10).id, "a");
  assert.equal(boxAt(list, 200, 10), null);
});

test("nextBox goes the arrow's way, boxes in line first", () => {
  // a tree: home above three children; a grandchild under the first
  const home = { id: "home", x: 200, y: 0, w: 100, h: 40 };
  const c1 = { id: "c1", x: 0, y: 100, w: 100, h: 40 };
  const c2 = { id: "c2", x: 200, y: 100, w: 100, h: 40 };
  const c3 = { id: "c3", x: 400, y: 100, w: 100, h: 40 };
  const g = { id: "g", x: 0, y: 200, w: 100, h: 40 };
  const list = [home, c1, c2, c3, g];
  assert.equal(nextBox(list, home, "ArrowDown").id, "c2", "straight below first");
  assert.equal(nextBox(list, c2, "ArrowLeft").id, "c1");
  assert.equal(nextBox(list, c2, "ArrowRight").id, "c3");
  assert.equal(nextBox(list, c1, "ArrowDown").id, "g");
  assert.equal(nextBox(list, c3, "ArrowRight"), null, "nothing that way");
  assert.equal(nextBox(list, undefined, "ArrowDown").id, "home", "with nothing selected, the first");
});

test("lineOf tells siblings side by side from one under another", () => {
  assert.equal(lineOf({ x: 0, y: 0 }, { x: 200, y: 10 }), "x");
  assert.equal(lineOf({ x: 0, y: 0 }, { x: 10, y: 80 }), "y");
});
