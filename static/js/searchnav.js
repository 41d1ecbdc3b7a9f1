// The search box's results by keyboard: ↓ from the box goes to the first
// result, ↓ and ↑ go through them (↑ from the first back to the box),
// Enter on one opens its page (it is a link), Escape goes back to the box.

// step is where focus goes on key from position at (-1: the box) among
// n results: a position, -1 for the box, or null when the key is not
// the results' (it does what it does anywhere).
export function step(key, at, n) {
  switch (key) {
    case "ArrowDown": return n === 0 ? null : Math.min(at + 1, n - 1);
    case "ArrowUp": return at < 0 ? null : at - 1;
    case "Escape": return at < 0 ? null : -1;
  }
  return null;
}

if (typeof document !== "undefined") {
  document.addEventListener("keydown", (e) => {
    const box = document.querySelector("input[data-search]");
    const links = [...document.querySelectorAll("#search-results a")];
    if (!box || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const at = e.target === box ? -1 : links.indexOf(e.target);
    if (at < -1 || (at === -1 && e.target !== box)) return; // elsewhere
    const to = step(e.key, at, links.length);
    if (to === null) return;
    e.preventDefault();
    (to < 0 ? box : links[to]).focus();
  });
}
