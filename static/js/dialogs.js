// Dialogs and small page-wide behaviours: the dialogs the server sends
// and the keys help (native <dialog>s), dismissing a dialog or notice,
// forms that ask first, Copy buttons and fields selected whole.
import { typing } from "./dom.js";

export function showHelp() {
  const d = document.getElementById("keys-help");
  if (d && !d.open) d.showModal();
}
// A dialog the server sends into #dialog (delete, paste) opens modal:
// it takes the keyboard and keeps it (the page behind it hears no key),
// Esc or Cancel closes it, and the focus goes back where it was. A
// dialog answered with another (a paste with a mistake in it) keeps the
// place to go back to; one answered with nothing is over.
let opener = null;
document.addEventListener("htmx:afterSwap", (e) => {
  if (e.detail.target?.id !== "dialog") return;
  const d = e.detail.target.querySelector("dialog");
  if (!d) { giveBack(); return; }
  if (!d.open) {
    opener ||= document.activeElement;
    d.showModal();
  }
});
function giveBack() {
  const o = opener;
  opener = null;
  if (o?.isConnected && o !== document.body) o.focus();
}
document.addEventListener("close", (e) => { // close does not bubble
  if (!e.target.matches?.("#dialog dialog")) return;
  e.target.remove();
  giveBack();
}, true);

document.addEventListener("keydown", (e) => {
  if (e.key === "?" && !typing(e) && !e.target.closest?.("#outline a.title")) { e.preventDefault(); showHelp(); }
});

document.addEventListener("click", async (e) => {
  if (e.target.closest?.("[data-help]")) { showHelp(); return; }
  if (e.target.closest?.("[data-dismiss]")) {
    const box = e.target.closest("dialog, .alert");
    if (box?.matches("dialog")) box.close();
    else box?.remove();
    return;
  }
  // A Copy button copies the field it names, and says so.
  const b = e.target.closest?.("[data-copy]");
  const field = b && document.getElementById(b.dataset.copy);
  if (!field) return;
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    document.execCommand("copy"); // no clipboard API outside https and localhost
  }
  b.textContent = "Copied";
  setTimeout(() => { b.textContent = "Copy"; }, 2000);
});

// A form that changes much asks first.
document.addEventListener("submit", (e) => {
  const msg = e.target.dataset?.confirm;
  if (msg && !window.confirm(msg)) e.preventDefault();
});

// Invite and share links are selected whole on focus, for copying.
document.addEventListener("focusin", (e) => {
  if (e.target.matches?.("[data-select-all]")) e.target.select();
});
