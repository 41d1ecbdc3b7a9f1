// A live count of what is typed in a field with data-count="MIN-MAX"
// (an SEO title: 15-60; a description: 50-160), in the <output> for it:
// "23 / 60", marked short or long outside the range search engines show.

// counted is a count in words and its state: "short", "long" or "ok"
// ("" for an empty field, which another check asks for).
export function counted(length, range) {
  const [min, max] = range.split("-").map(Number);
  const state = length === 0 ? "" : length < min ? "short" : length > max ? "long" : "ok";
  return { text: `${length} / ${max}`, state };
}

// characters counts as a person does: by code point, not UTF-16 unit.
export const characters = (s) => [...s].length;

function show(field) {
  const out = field.form?.querySelector(`output[for="${CSS.escape(field.id)}"]`);
  if (!out) return;
  const { text, state } = counted(characters(field.value.trim()), field.dataset.count);
  out.textContent = text;
  out.dataset.state = state;
}

if (typeof document !== "undefined") {
  document.addEventListener("input", (e) => { if (e.target.matches?.("[data-count]")) show(e.target); });
  document.addEventListener("htmx:load", (e) => e.target.querySelectorAll?.("[data-count]").forEach(show));
}
