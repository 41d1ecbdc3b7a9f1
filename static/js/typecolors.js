// A page type's chip takes its team's colour from data-color. The server
// cannot write it in a style attribute (the content security policy,
// style-src 'self', refuses those); setting the element's style from
// here is allowed.

// colorOf is the colour an element asks for, if it is one ("#rrggbb").
export const colorOf = (el) => (/^#[0-9a-f]{6}$/.test(el.dataset?.color ?? "") ? el.dataset.color : "");

// paint colours root's chips, root included.
export function paint(root) {
  const els = [...(root.querySelectorAll?.("[data-color]") ?? [])];
  if (root.matches?.("[data-color]")) els.push(root);
  for (const el of els) {
    const c = colorOf(el);
    if (c) el.style.borderLeftColor = c;
  }
}

// htmx:load comes for the page and for every fragment swapped in.
if (typeof document !== "undefined") document.addEventListener("htmx:load", (e) => paint(e.target));
