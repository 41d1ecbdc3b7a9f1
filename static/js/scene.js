// Scenes: a big diagram sent as a list of drawing operations (its
// format is in diagram/scene.go) and painted on a <canvas>, which the
// browser paints far faster than it lays out the tens of thousands of
// elements of a big SVG. decodeScene reads a scene (pure);
// sceneDrawing paints it, every frame the view changes: what is out of
// view is skipped, a card too small to read is a block of its band's
// colour and words too small to read are grey lines.

export const PT = 4 / 3; // CSS pixels in a point, the scene's unit

// The operation codes (diagram/scene.go).
const PEN = 0, FILL = 1, WIDTH = 2, DASH = 3, RECT = 4, POLYGON = 5, POLYLINE = 6, BEZIER = 7, ELLIPSE = 8, TEXT = 9;

// startState is the scene's state at its start: no pen, no fill, width 1, solid.
const startState = () => ({ pen: -1, fill: -1, width: 1, dash: [] });

// applyState applies the operation at i to state st if it changes the
// state, and says whether it did.
function applyState(o, st, i) {
  switch (o[i]) {
    case PEN: st.pen = o[i + 1]; return true;
    case FILL: st.fill = o[i + 1]; return true;
    case WIDTH: st.width = o[i + 1]; return true;
    case DASH: st.dash = o[i + 1] > 0 ? [o[i + 1], o[i + 2]] : []; return true;
  }
  return false;
}

// decodeScene reads scene sc in one pass over its operations:
//   n       the number of operations
//   starts  where operation k starts in sc.ops
//   bounds  what operation k covers, in points: x0, y0, x1, y1 at 4k
//           (2 points of margin; NaN for a change of state)
//   list    the cards' boxes { id, x, y, w, h, badge } in CSS pixels,
//           in drawing order; byID the same by page id
//   nodes   each card's operations { id, from, to, box (points), after
//           (the state drawing it leaves), color (its band's) }, which a
//           frame may skip whole
// It throws on an unknown operation.
export function decodeScene(sc) {
  const o = sc.ops, strs = sc.strs;
  const starts = new Int32Array(o.length / 2 + 1), bounds = new Float32Array(o.length * 2 + 4);
  const opAt = new Int32Array(o.length + 1); // an operation's number by where it starts
  let n = 0;
  for (let i = 0; i < o.length; n++) {
    starts[n] = i;
    opAt[i] = n;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, j = -1, next;
    switch (o[i]) {
      case PEN: case FILL: case WIDTH: next = i + 2; x0 = NaN; break;
      case DASH: next = i + 3; x0 = NaN; break;
      case RECT:
        x0 = Math.min(o[i + 2], o[i + 4]); x1 = Math.max(o[i + 2], o[i + 4]);
        y0 = Math.min(o[i + 3], o[i + 5]); y1 = Math.max(o[i + 3], o[i + 5]);
        next = i + 6;
        break;
      case POLYGON: case BEZIER: j = i + 2; break;
      case POLYLINE: j = i + 1; break;
      case ELLIPSE: x0 = o[i + 2] - o[i + 4]; x1 = o[i + 2] + o[i + 4]; y0 = o[i + 3] - o[i + 5]; y1 = o[i + 3] + o[i + 5]; next = i + 6; break;
      case TEXT: {
        const w = o[i + 5], f = o[i + 4];
        x0 = o[i + 1] - (f & 8 ? w : f & 4 ? w / 2 : 0); x1 = x0 + w;
        y0 = o[i + 2] - o[i + 3]; y1 = o[i + 2] + o[i + 3] * 0.3;
        next = i + 7;
        break;
      }
      default: throw new Error("scene: unknown operation " + o[i]);
    }
    if (j >= 0) { // n points from j
      next = j + 1 + 2 * o[j];
      for (let k = j + 1; k < next; k += 2) {
        if (o[k] < x0) x0 = o[k];
        if (o[k] > x1) x1 = o[k];
        if (o[k + 1] < y0) y0 = o[k + 1];
        if (o[k + 1] > y1) y1 = o[k + 1];
      }
    }
    bounds[4 * n] = x0 - 2; bounds[4 * n + 1] = y0 - 2; bounds[4 * n + 2] = x1 + 2; bounds[4 * n + 3] = y1 + 2;
    i = next;
  }
  opAt[o.length] = n;
  const list = [];
  for (let i = 0; i < sc.cards.length; i += 5) {
    const c = sc.cards;
    list.push({ id: String(c[i]), x: c[i + 1] * PT, y: c[i + 2] * PT, w: c[i + 3] * PT, h: c[i + 4] * PT });
  }
  const byID = new Map(list.map((b) => [b.id, b]));
  const nodes = [];
  for (const [id, cls, from, to] of sc.groups) {
    const a = opAt[from], b = opAt[to], card = byID.get(id.slice(1));
    if (cls === "node" && card) nodes.push({ id, from: a, to: b, box: [card.x / PT, card.y / PT, (card.x + card.w) / PT, (card.y + card.h) / PT] });
    if (cls === "badge" && card) {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let k = a; k < b; k++) {
        if (!isFinite(bounds[4 * k])) continue; // a change of state
        x0 = Math.min(x0, bounds[4 * k]); y0 = Math.min(y0, bounds[4 * k + 1]); x1 = Math.max(x1, bounds[4 * k + 2]); y1 = Math.max(y1, bounds[4 * k + 3]);
      }
      if (x1 > x0) card.badge = { x: x0 * PT, y: y0 * PT, w: (x1 - x0) * PT, h: (y1 - y0) * PT };
    }
  }
  const state = startState();
  for (let k = 0, g = 0; k < n; k++) {
    applyState(o, state, starts[k]);
    while (g < nodes.length && nodes[g].to === k + 1) nodes[g++].after = { ...state };
  }
  for (const g of nodes) { // its band's colour: its first fill that is not white
    const fill = (k) => (o[starts[k]] === FILL && o[starts[k] + 1] >= 0 ? strs[o[starts[k] + 1]] : "#ffffff");
    let k = g.from;
    while (k < g.to && fill(k) === "#ffffff") k++;
    g.color = k < g.to ? fill(k) : "#cbd5e1";
  }
  return { n, starts, bounds, list, byID, nodes };
}

// sceneWords is what card id says, its texts in drawing order.
export function sceneWords(sc, d, id) {
  const g = d.nodes.find((c) => c.id === "p" + id), out = [];
  for (let k = g ? g.from : 0; g && k < g.to; k++) if (sc.ops[d.starts[k]] === TEXT) out.push(sc.strs[sc.ops[d.starts[k] + 6]]);
  return out.join(" ");
}

// sceneDrawing paints scene sc on a <canvas> put under the handles of
// the diagram's canvas element; see drawing.js for what a drawing does.
export function sceneDrawing(canvas, sc) {
  const el = document.createElement("canvas");
  el.className = "diagram-scene";
  el.setAttribute("aria-hidden", "true");
  canvas.querySelector("canvas.diagram-scene")?.remove(); // the old picture, kept while this one loaded
  canvas.prepend(el);
  const o = sc.ops, strs = sc.strs;
  const d = decodeScene(sc), { n, starts, bounds, list, byID, nodes } = d;
  const marks = {}, accent = getComputedStyle(canvas).getPropertyValue("--accent").trim() || "#2563eb";
  let frame = 0, painted = false, v = { k: 1, x: 0, y: 0 };

  function paint() {
    frame = 0;
    const dpr = window.devicePixelRatio || 1, W = canvas.clientWidth, H = canvas.clientHeight;
    if (el.width !== Math.round(W * dpr) || el.height !== Math.round(H * dpr)) {
      el.width = Math.round(W * dpr);
      el.height = Math.round(H * dpr);
      el.style.width = W + "px";
      el.style.height = H + "px";
    }
    const ctx = el.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, el.width, el.height);
    const s = v.k * PT; // screen pixels in a point
    ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * v.x, dpr * v.y);
    ctx.lineJoin = "round";
    const vx0 = -v.x / s, vy0 = -v.y / s, vx1 = (W - v.x) / s, vy1 = (H - v.y) / s;
    const seen = (x0, y0, x1, y1) => x1 >= vx0 && x0 <= vx1 && y1 >= vy0 && y0 <= vy1;
    let st = startState(), g = 0, lines = false;
    // Lines one after another in the same pen are stroked as one path.
    const flush = () => {
      if (!lines) return;
      lines = false;
      ctx.strokeStyle = strs[st.pen];
      ctx.lineWidth = st.width;
      ctx.setLineDash(st.dash);
      ctx.stroke();
    };
    for (let k = 0; k < n; k++) {
      if (g < nodes.length && nodes[g].from === k) {
        const c = nodes[g++], [x0, y0, x1, y1] = c.box;
        const small = (x1 - x0) * s < 14;
        if (small || !seen(x0, y0, x1, y1)) {
          flush();
          if (small && seen(x0, y0, x1, y1)) {
            if (ctx.fillStyle !== c.color) ctx.fillStyle = c.color;
            ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
          }
          st = { ...c.after };
          k = c.to - 1;
          continue;
        }
      }
      const i = starts[k];
      if (o[i] < RECT) { flush(); applyState(o, st, i); continue; }
      if (!seen(bounds[4 * k], bounds[4 * k + 1], bounds[4 * k + 2], bounds[4 * k + 3])) continue;
      if (o[i] === POLYLINE && st.pen >= 0) { // a line: into the path being gathered
        if (!lines) { ctx.beginPath(); lines = true; }
        ctx.moveTo(o[i + 2], o[i + 3]);
        for (let m = i + 4; m < i + 2 + 2 * o[i + 1]; m += 2) ctx.lineTo(o[m], o[m + 1]);
        continue;
      }
      flush();
      if (o[i] === TEXT) {
        const size = o[i + 3], px = size * s, f = o[i + 4];
        if (st.pen < 0 || px < 1.5) continue;
        if (px < 4) { // too small to read: a grey line where the words are
          ctx.fillStyle = "#cbd5e1";
          ctx.fillRect(bounds[4 * k] + 2, o[i + 2] - size * 0.55, bounds[4 * k + 2] - bounds[4 * k] - 4, size * 0.5);
          continue;
        }
        ctx.font = `${f & 1 ? "bold " : ""}${size}px ${sc.font}`;
        ctx.direction = f & 2 ? "rtl" : "ltr";
        ctx.textAlign = f & 8 ? "right" : f & 4 ? "center" : "left";
        ctx.fillStyle = strs[st.pen];
        ctx.fillText(strs[o[i + 6]], o[i + 1], o[i + 2]);
        continue;
      }
      ctx.beginPath();
      let fill = o[i + 1] === 1;
      const line = (j) => { // n points from j
        ctx.moveTo(o[j + 1], o[j + 2]);
        for (let m = j + 3; m < j + 1 + 2 * o[j]; m += 2) ctx.lineTo(o[m], o[m + 1]);
      };
      switch (o[i]) {
        case RECT: ctx.rect(o[i + 2], o[i + 3], o[i + 4] - o[i + 2], o[i + 5] - o[i + 3]); break;
        case POLYGON: line(i + 2); ctx.closePath(); break;
        case POLYLINE: line(i + 1); fill = false; break;
        case BEZIER:
          ctx.moveTo(o[i + 3], o[i + 4]);
          for (let m = i + 5; m + 5 < i + 3 + 2 * o[i + 2]; m += 6) ctx.bezierCurveTo(o[m], o[m + 1], o[m + 2], o[m + 3], o[m + 4], o[m + 5]);
          if (fill) ctx.closePath();
          break;
        case ELLIPSE: ctx.ellipse(o[i + 2], o[i + 3], o[i + 4], o[i + 5], 0, 0, 2 * Math.PI); break;
      }
      if (fill && st.fill >= 0) { ctx.fillStyle = strs[st.fill]; ctx.fill(); }
      if (st.pen >= 0) {
        ctx.strokeStyle = strs[st.pen];
        ctx.lineWidth = st.width;
        ctx.setLineDash(st.dash);
        ctx.stroke();
      }
    }
    flush();
    ctx.setLineDash([]);
    const box = (id) => { const b = id && byID.get(id); return b && [b.x / PT, b.y / PT, b.w / PT, b.h / PT]; };
    const src = box(marks["drag-source"]);
    if (src) { ctx.fillStyle = "rgba(255,255,255,.65)"; ctx.fillRect(...src); }
    for (const [kind, color] of [["selected", "#2563eb"], ["drop-inside", accent]]) {
      const b = box(marks[kind]);
      if (!b) continue;
      if (kind === "drop-inside") { ctx.fillStyle = "rgba(238,243,253,.6)"; ctx.fillRect(...b); }
      ctx.strokeStyle = color;
      ctx.lineWidth = 3 / s;
      ctx.strokeRect(...b);
    }
  }
  const soon = () => { if (!frame) frame = requestAnimationFrame(paint); };
  new ResizeObserver(soon).observe(canvas);
  return {
    w: sc.w * PT,
    h: sc.h * PT,
    boxes: () => ({ list, byID }),
    // The first view is painted at once, in the task that swapped the
    // drawing in; the next ones once a frame.
    show(to) {
      v = { ...to };
      if (painted) soon();
      else { painted = true; paint(); }
    },
    mark(kind, id) { if (marks[kind] !== id) { marks[kind] = id; soon(); } },
    marked: (kind) => marks[kind] || null,
    words: (id) => sceneWords(sc, d, id),
  };
}
