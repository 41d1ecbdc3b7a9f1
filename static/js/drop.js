// Where a dragged page lands, from where the pointer is over a row or a
// card. f is the pointer's place along the row or card, 0 at its start
// (top, or left for cards side by side) and 1 at its end. Pure.

// rowZone: the top 30% of a row puts the page before it, the middle
// inside it (last child), the bottom after it, or first among its
// children when its branch is open (the line shows there).
export function rowZone(f, open) {
  if (f < 0.3) return "before";
  if (f <= 0.7) return "inside";
  return open ? "first" : "after";
}

// cardZone: a card's outer quarters put the page before or after it
// among its siblings, its middle inside it.
export function cardZone(f) {
  if (f < 0.25) return "before";
  if (f > 0.75) return "after";
  return "inside";
}

// place is the arithmetic of a drop into a list: items are the list's
// entries (the moved one among them when it moves within its list), and
// the moved entry goes right before the entry before, or last for null.
// It gives the list's new order and the moved entry's index in it, or
// null when the drop would leave everything where it is.
export function place(items, moved, before) {
  if (before === moved) return null;
  const from = items.indexOf(moved);
  const at = before === null ? items.length : items.indexOf(before);
  if (at < 0) throw new Error("drop: the entry to go before is not in the list");
  if (from >= 0 && from === at - 1) return null; // already right before it
  const order = items.filter((x) => x !== moved);
  const index = before === null ? order.length : order.indexOf(before);
  order.splice(index, 0, moved);
  return { order, index };
}

// EDGE is how near the window's top or bottom edge a drag scrolls it,
// STEP how far one move there scrolls.
export const EDGE = 48, STEP = 24;

// edgeScroll is how far a drag's move scrolls the window: y is where the
// pointer is (from the top of a window height high), dy how it just
// moved. Near an edge and not moving away from it, the window scrolls
// that way; a pointer moving back from the edge (to a row it now sees)
// scrolls nothing, so the row under it stays the one it points at.
export function edgeScroll(y, dy, height) {
  if (y < EDGE && dy <= 0) return -STEP;
  if (y > height - EDGE && dy >= 0) return STEP;
  return 0;
}
