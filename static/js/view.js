// The view of a drawing on the canvas: a scale k and an offset (x, y),
// so that a point p of the unzoomed drawing is at p * k + (x, y) in the
// canvas. Zoom and pan change the view only: no request, no redraw.
// Boxes are { x, y, w, h } in the unzoomed drawing's pixels. Pure.

export const MIN_ZOOM = 0.05, MAX_ZOOM = 8;

// zoomAt scales v by factor, keeping the canvas point (cx, cy) still.
export function zoomAt(v, factor, cx, cy) {
  const k = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, v.k * factor));
  v.x = cx - ((cx - v.x) * k) / v.k;
  v.y = cy - ((cy - v.y) * k) / v.k;
  v.k = k;
}

// MAX_FIT is the most fit enlarges a drawing: a small plan fills the
// canvas rather than sit in its corner with words a few pixels high.
export const MAX_FIT = 2;

// READABLE is the least scale a drawing opens at: its titles (12 units)
// 6 pixels high at least, not 3 (a plan of 60 pages fitted whole into a
// laptop's diagram pane beside Details).
export const READABLE = 0.5;

// fit shows a w × h drawing whole in a W × H canvas: centred across,
// from the top, at most MAX_FIT times its size. A drawing so much
// longer one way than the canvas that it would be a hairline whole (a
// 5,000-page plan left to right) fills the canvas the other way instead,
// from its start; the minimap shows the rest. Given useful, the box of
// the part that matters (the main tree, without the legend and the
// utility and footer navigation beside it), fit shows that part instead
// when it comes out a fifth larger or more, centred across, from its top.
// Given least (READABLE when a drawing opens), a drawing that would come
// out smaller shows at least that large instead, from the top of its
// useful part (centred across, where an org chart's home page is; from
// the left when the part is taller than wide, where a left-to-right
// plan starts; its middle, given middle, where a radial plan's is); the
// minimap shows the rest.
export function fit(v, w, h, W, H, useful, least = 0, middle = false) {
  let k = Math.min(MAX_FIT, W / w, H / h) || 1;
  if (w * k < W / 4) k = Math.min(MAX_FIT, W / w); // tall: fit its width
  else if (h * k < H / 4) k = Math.min(MAX_FIT, H / h); // wide: fit its height
  const ku = useful && useful.w > 0 && useful.h > 0 ? Math.min(MAX_FIT, W / useful.w, H / useful.h) : 0;
  const u = useful && useful.w > 0 && useful.h > 0 ? useful : { x: 0, y: 0, w, h };
  if (Math.max(k, ku) < least) {
    v.k = least;
    v.x = u.w >= u.h || middle ? W / 2 - (u.x + u.w / 2) * least : -u.x * least;
    v.y = middle ? H / 2 - (u.y + u.h / 2) * least : -u.y * least;
    return;
  }
  if (ku > k * 1.2 && useful.w * ku >= W / 4) {
    v.k = Math.max(MIN_ZOOM, ku);
    v.x = (W - useful.w * v.k) / 2 - useful.x * v.k;
    v.y = -useful.y * v.k;
    return;
  }
  v.k = Math.max(MIN_ZOOM, k);
  v.x = w * v.k <= W ? (W - w * v.k) / 2 : 0;
  v.y = 0;
}

// centre puts box b in the middle of a W × H canvas, large enough to
// read (at most twice its size).
export function centre(v, b, W, H) {
  v.k = Math.min(2, W / (b.w * 3), H / (b.h * 4));
  v.x = W / 2 - (b.x + b.w / 2) * v.k;
  v.y = H / 2 - (b.y + b.h / 2) * v.k;
}

// reveal pans v just enough to bring box b at least m pixels inside a
// W × H canvas (its top-left corner first when it does not fit).
export function reveal(v, b, W, H, m = 24) {
  const x = v.x + b.x * v.k, y = v.y + b.y * v.k, w = b.w * v.k, h = b.h * v.k;
  if (x < m) v.x += m - x; else if (x + w > W - m) v.x -= Math.min(x - m, x + w - (W - m));
  if (y < m) v.y += m - y; else if (y + h > H - m) v.y -= Math.min(y - m, y + h - (H - m));
}

// toDrawing is the drawing's point under the canvas point (px, py).
export const toDrawing = (v, px, py) => [(px - v.x) / v.k, (py - v.y) / v.k];

// onScreen is box b in canvas pixels.
export const onScreen = (v, b) => ({ x: v.x + b.x * v.k, y: v.y + b.y * v.k, w: b.w * v.k, h: b.h * v.k });

export const inside = (b, x, y) => !!b && x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;

// boxAt is the box of list under the drawing's point (x, y): the one
// drawn last where boxes overlap.
export function boxAt(list, x, y) {
  for (let i = list.length - 1; i >= 0; i--) if (inside(list[i], x, y)) return list[i];
  return null;
}

const ways = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

// nextBox is the box an arrow key leads to from box from: the nearest
// one that way, boxes in line with it first; with no from, the first.
export function nextBox(list, from, key) {
  if (!from) return list[0] || null;
  const [dx, dy] = ways[key];
  const cx = from.x + from.w / 2, cy = from.y + from.h / 2;
  let best = null, score = Infinity;
  for (const b of list) {
    const ox = b.x + b.w / 2 - cx, oy = b.y + b.h / 2 - cy;
    const along = ox * dx + oy * dy;
    if (b === from || along <= 1) continue;
    const across = Math.max(0, dx ? Math.abs(oy) - (from.h + b.h) / 2 : Math.abs(ox) - (from.w + b.w) / 2);
    const s = along + 4 * across;
    if (s < score) { best = b; score = s; }
  }
  return best;
}

// lineOf is the way two boxes of siblings line up: "x" side by side,
// "y" one under the other.
export const lineOf = (a, b) => (Math.abs(b.x - a.x) >= Math.abs(b.y - a.y) ? "x" : "y");
