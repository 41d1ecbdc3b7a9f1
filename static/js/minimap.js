// A drawing larger than the canvas gets a minimap in its corner: the
// cards as small boxes, the selected one in blue, and a frame round the
// part in view. canvas.js moves the view when it is pressed or dragged.

// drawMinimap draws the minimap of drawing d in view v of canvas, or
// hides it when the drawing fits.
export function drawMinimap(canvas, d, v, picked) {
  const W = d.w, H = d.h;
  let m = canvas.querySelector("canvas.minimap");
  if (W * v.k <= canvas.clientWidth + 1 && H * v.k <= canvas.clientHeight + 1) {
    if (m) m.hidden = true;
    return;
  }
  if (!m) {
    m = document.createElement("canvas");
    m.className = "minimap";
    m.setAttribute("aria-hidden", "true");
    canvas.append(m);
  }
  m.hidden = false;
  const s = Math.min(180 / W, 120 / H), dpr = window.devicePixelRatio || 1;
  if (m.drawing !== d || m.picked !== picked) { // the cards: drawn once per drawing and selection
    m.drawing = d;
    m.picked = picked;
    m.scale = s;
    m.width = Math.ceil(W * s * dpr);
    m.height = Math.ceil(H * s * dpr);
    m.style.width = W * s + "px";
    m.style.height = H * s + "px";
    m.base = document.createElement("canvas");
    m.base.width = m.width;
    m.base.height = m.height;
    const c = m.base.getContext("2d");
    c.scale(dpr, dpr);
    c.fillStyle = "#94a3b8";
    const { list, byID } = d.boxes();
    for (const b of list) c.fillRect(b.x * s, b.y * s, Math.max(1, b.w * s), Math.max(1, b.h * s));
    const sel = picked && byID.get(picked);
    if (sel) { c.fillStyle = "#2563eb"; c.fillRect(sel.x * s - 1, sel.y * s - 1, Math.max(3, sel.w * s + 2), Math.max(3, sel.h * s + 2)); }
  }
  const c = m.getContext("2d");
  c.setTransform(1, 0, 0, 1, 0, 0);
  c.clearRect(0, 0, m.width, m.height);
  c.drawImage(m.base, 0, 0);
  c.scale(dpr, dpr);
  c.strokeStyle = "#2563eb";
  c.lineWidth = 1.5;
  c.strokeRect(-v.x / v.k * s, -v.y / v.k * s, canvas.clientWidth / v.k * s, canvas.clientHeight / v.k * s);
}

// minimapPoint is the drawing's point under the pointer of event e on minimap m.
export function minimapPoint(m, e) {
  const r = m.getBoundingClientRect();
  return [(e.clientX - r.left) / m.scale, (e.clientY - r.top) / m.scale];
}
