// The rest of a long list: the server sends the outline a few hundred
// rows at a time, and a list shown in part ends in a "more" row that
// loads what follows in its place (views.Rows). It loads when it comes
// near the view, a screen ahead so that scrolling rarely meets it, or
// when the keyboard gets there first (outline.js waits for it).

// once starts load for key unless it is under way or done, and gives
// back its promise either way; a load after which done(key) is false (it
// failed) is forgotten, so the next call tries again.
export function once(pending, key, load, done = () => true) {
  let p = pending.get(key);
  if (!p) {
    p = load().finally(() => { if (!done(key)) pending.delete(key); });
    pending.set(key, p);
  }
  return p;
}

// scrollRoot is the box a list scrolls in: the outline when it scrolls
// on its own (a wide screen), else the window (null).
export const scrollRoot = (outline, overflowY) => (overflowY === "auto" || overflowY === "scroll" ? outline : null);

// isMore says whether el is a "more" row.
export const isMore = (el) => !!el?.matches?.("li.node-more[data-more]");

const pending = new WeakMap();
// loadMore loads the rows a "more" row stands for, in its place; the
// promise ends when they are on the page and their own "more" rows are
// watched (the swap's events go to the row it replaced, which has left
// the page, so they are watched from here). A load that failed leaves
// the row, which loads again when asked again.
export const loadMore = (li) =>
  once(pending, li, () => htmx.ajax("GET", li.dataset.more, { source: li, target: li, swap: "outerHTML" }).then(watch), (li) => !li.isConnected);

let observer = null, root = null;
// watch has the "more" rows not yet watched loaded as they come near the
// view.
function watch() {
  const outline = document.getElementById("outline");
  if (!outline) return;
  const r = scrollRoot(outline, getComputedStyle(outline).overflowY);
  if (!observer || root !== r) {
    observer?.disconnect();
    document.querySelectorAll("li.node-more[data-watched]").forEach((li) => delete li.dataset.watched);
    root = r;
    observer = new IntersectionObserver((entries) => {
      for (const e of entries) if (e.isIntersecting) { observer.unobserve(e.target); loadMore(e.target); }
    }, { root, rootMargin: "0px 0px 100% 0px" });
  }
  for (const li of outline.querySelectorAll("li.node-more[data-more]:not([data-watched])")) {
    li.dataset.watched = "1";
    observer.observe(li);
  }
}

if (typeof document !== "undefined") {
  watch();
  document.addEventListener("htmx:afterSettle", watch);
  window.addEventListener("resize", watch);
}
