// Dialogs and small page-wide behaviours: the keys help (a <dialog>),
// dismissing a dialog or notice, forms that ask first, Copy buttons and
// fields selected whole for copying.
import { typing } from "./dom.js";

export function showHelp() {
  const d = document.getElementById("keys-help");
  if (d && !d.open) d.showModal();
}
document.addEventListener("keydown", (e) => {
  if (e.key === "?" && !typing(e) && !e.target.closest?.("#outline a.title")) { e.preventDefault(); showHelp(); }
});

document.addEventListener("click", async (e) => {
  if (e.target.closest?.("[data-help]")) { showHelp(); return; }
  if (e.target.closest?.("[data-dismiss]")) {
    const box = e.target.closest(".modal, .alert");
    if (box && box.closest("#dialog")) document.getElementById("dialog").innerHTML = "";
    else if (box) box.remove();
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
