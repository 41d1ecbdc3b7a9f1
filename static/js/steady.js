// A click counts only on a result the pointer came to. A list of results
// (a ul.picker) that a search replaces under a resting pointer would
// otherwise take the click meant for the row that was there a moment
// before, and record a page the user never saw (the redirect picker and
// the link picker answer as the user types and reaches for a row). A
// click from the keyboard (detail 0) always counts; a pointer's click
// counts once the pointer has moved since the list last changed.

// guard keeps, for each list, whether its results were replaced since
// the pointer last moved.
export function guard() {
  const fresh = new WeakSet();
  return {
    replaced(list) { fresh.add(list); },
    moved(list, dx, dy) { if (dx || dy) fresh.delete(list); },
    allows(list, detail) { return detail === 0 || !fresh.has(list); },
  };
}

if (typeof document !== "undefined") {
  const g = guard();
  const listOf = (el) => el?.closest?.("ul.picker");
  document.addEventListener("htmx:afterSwap", (e) => {
    const list = listOf(e.detail.target);
    if (list) g.replaced(list);
  });
  document.addEventListener("pointermove", (e) => {
    const list = listOf(e.target);
    if (list) g.moved(list, e.movementX, e.movementY);
  }, true);
  document.addEventListener("click", (e) => {
    const list = listOf(e.target);
    if (list && !g.allows(list, e.detail)) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  }, true);
}
