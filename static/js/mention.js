// "@" in a comment offers the names it may mention (the team's members,
// then the share link's guests): the comments section's data-mentions,
// a line each. Arrow keys move through them, Enter or Tab takes one,
// Escape closes the list; a click takes one too.

// mentionAt finds the mention being typed before caret: the "@" that
// starts it (after the text's start or a space) and what follows it;
// null when there is none.
export function mentionAt(text, caret) {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf("@");
  if (at < 0 || (at > 0 && !/\s/.test(before[at - 1]))) return null;
  const query = before.slice(at + 1);
  if (query.length > 40 || /[\n@]/.test(query)) return null;
  return { start: at, query };
}

// suggest lists up to max names whose words start with query, in their
// order, in any case.
export function suggest(names, query, max = 6) {
  const q = query.toLowerCase();
  return names.filter((n) => n.toLowerCase().split(/\s+/).some((w, i, ws) => ws.slice(i).join(" ").startsWith(q))).slice(0, max);
}

// complete puts name in place of the mention from start to caret, with
// a space after it unless the text goes on with one (the caret then goes
// past it) or with punctuation; it returns the text and where the caret
// goes.
export function complete(text, start, caret, name) {
  const rest = text.slice(caret);
  const put = "@" + name + (/^[\s,.;:!?)\]]/.test(rest) ? "" : " ");
  const skip = /^[ \t]/.test(rest) ? 1 : 0;
  return { text: text.slice(0, start) + put + rest, caret: start + put.length + skip };
}

let open = null; // { field, list, names, start, at }
// took is the field a name was just taken into by a key: the text that
// key would still put there (a line break, a tab) is kept out, whether
// or not the browser gave up on it with its keydown.
let took = null;
// spaced is where a completion left the caret after the space it put
// ({ field, caret }): a space typed there at once, as a hand does after
// a name, is that one, not a second.
let spaced = null;

function close() {
  open?.list.remove();
  open = null;
}

function show(field) {
  const names = (field.closest("[data-mentions]")?.dataset.mentions ?? "").split("\n").filter(Boolean);
  const m = mentionAt(field.value, field.selectionStart);
  const found = m ? suggest(names, m.query) : [];
  if (!found.length) return close();
  if (!open || open.field !== field) {
    close();
    const list = document.createElement("ul");
    list.className = "mention-list";
    list.setAttribute("role", "listbox");
    field.after(list);
    open = { field, list };
  }
  Object.assign(open, { names: found, start: m.start, at: 0 });
  open.list.replaceChildren(...found.map((n, i) => {
    const li = document.createElement("li");
    li.textContent = n;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", String(i === 0));
    li.addEventListener("mousedown", (e) => { e.preventDefault(); take(n); });
    return li;
  }));
}

function take(name) {
  const { field, start } = open;
  const r = complete(field.value, start, field.selectionStart, name);
  field.value = r.text;
  field.setSelectionRange(r.caret, r.caret);
  spaced = r.text[r.caret - 1] === " " ? { field, caret: r.caret } : null;
  close();
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

if (typeof document !== "undefined") {
  document.addEventListener("input", (e) => { if (e.target.matches?.("[data-mentions] textarea")) show(e.target); });
  document.addEventListener("keydown", (e) => {
    if (!open || e.target !== open.field) return;
    const n = open.names.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") open.at = (open.at + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
    else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      took = open.field;
      return take(open.names[open.at]);
    }
    else if (e.key === "Escape") return e.preventDefault(), close();
    else return;
    e.preventDefault();
    [...open.list.children].forEach((li, i) => li.setAttribute("aria-selected", String(i === open.at)));
  });
  document.addEventListener("focusout", (e) => { if (open && e.target === open.field) close(); });
  document.addEventListener("beforeinput", (e) => {
    if (took && e.target === took && (e.inputType === "insertLineBreak" || e.data === "\t")) return e.preventDefault();
    const s = spaced;
    spaced = null; // once: the next thing typed
    if (s && e.target === s.field && e.data === " " && e.target.selectionStart === s.caret && e.target.selectionEnd === s.caret) e.preventDefault();
  });
  document.addEventListener("keyup", () => { took = null; });
}
