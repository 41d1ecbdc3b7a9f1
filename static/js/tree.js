// The outline as a tree, for the keyboard and for assistive technology
// (the ARIA tree pattern): the titles are its items, and one of them
// holds the outline's one Tab stop (a roving tabindex): the one last
// focused, else the selected row's, else the first. Each item with a
// branch says whether it is open and owns its list. Rows come and go by
// many paths (loads, drafts, moves, live updates); an observer keeps
// what they say true after each.

// itemState is what a row's title says of its branch: { expanded,
// owns } for a row with a fold toggle, or null for a leaf.
export function itemState({ id, toggle, collapsed }) {
  return toggle ? { expanded: collapsed ? "false" : "true", owns: "children-" + id } : null;
}

// stopHolder picks the title that holds the Tab stop among candidates
// in order of preference; null if none is there.
export const stopHolder = (...candidates) => candidates.find((a) => a) || null;

if (typeof document !== "undefined") {
  const title = (li) => li.querySelector(":scope > .row > a.title");

  // sync makes li's title, and its list, say what its row is.
  const sync = (li) => {
    const a = title(li);
    if (!a) return;
    li.setAttribute("role", "none");
    a.setAttribute("role", "treeitem");
    if (a.getAttribute("tabindex") === null) a.tabIndex = -1;
    const s = itemState({ id: li.dataset.id, toggle: !!li.querySelector(":scope > .row > .toggle"), collapsed: li.classList.contains("collapsed") });
    if (s) {
      a.setAttribute("aria-expanded", s.expanded);
      a.setAttribute("aria-owns", s.owns);
    } else {
      a.removeAttribute("aria-expanded");
      a.removeAttribute("aria-owns");
    }
    const ul = li.querySelector(":scope > ul.children");
    if (ul) ul.setAttribute("role", "group");
  };

  // holder is the title holding the Tab stop: kept, not looked for, as
  // a look goes through every row (a ↓ key's time at 10,000 rows).
  let holder = null;
  const give = (a) => {
    if (holder && holder !== a) holder.tabIndex = -1;
    a.tabIndex = 0;
    holder = a;
  };
  // ensureStop gives the Tab stop to a title if none holds it (the one
  // that did left with its row, or was swapped out).
  const ensureStop = () => {
    const outline = document.getElementById("outline");
    if (!outline || (holder?.isConnected && holder.tabIndex === 0)) return;
    const a = stopHolder(outline.querySelector("a.title[tabindex='0']"), outline.querySelector(".row.selected > a.title"), outline.querySelector("a.title"));
    if (a) give(a);
  };

  const pending = new Set();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    for (const li of pending) if (li.isConnected) sync(li);
    pending.clear();
    ensureStop();
  };
  const note = (node) => {
    const li = node?.closest?.("li.node");
    if (li) pending.add(li);
    if (node?.querySelectorAll) for (const n of node.querySelectorAll("li.node")) pending.add(n);
    if (!scheduled) { scheduled = true; queueMicrotask(flush); }
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      note(r.target);
      for (const n of r.addedNodes) if (n.nodeType === 1) note(n);
    }
  });
  const watch = () => {
    const outline = document.getElementById("outline");
    if (!outline || outline.dataset.tree) return;
    outline.dataset.tree = "watched";
    observer.observe(outline, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
    ensureStop();
  };
  document.addEventListener("DOMContentLoaded", watch);
  document.addEventListener("htmx:load", watch); // an outline swapped in whole

  // The title focused takes the Tab stop.
  document.addEventListener("focusin", (e) => {
    const a = e.target.closest?.("#outline a.title");
    if (a && a !== holder) give(a);
  });
}
