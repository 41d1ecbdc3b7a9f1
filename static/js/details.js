// The details panel: the selected page's details, kept in step with the
// outline and the canvas. Unsaved edits in it are never dropped
// silently: a form typed into is dirty until it is saved.
import { ajax } from "./net.js";
import { projectID } from "./dom.js";
import { selection } from "./selection.js";
import { canvasOf, drawingOf, onCanvas } from "./drawing.js";

export const shownPage = () => document.getElementById("details-inner")?.dataset.page;

export const detailsDirty = () => [...document.querySelectorAll("#details form")].some((f) => f.dataset.dirty === "1");
// leaveDetails asks before unsaved edits are left; it says whether to go on.
export const leaveDetails = () => !detailsDirty() || window.confirm("The page details have unsaved changes. Leave them unsaved?");

document.addEventListener("input", (e) => {
  const form = e.target.closest?.("#page-form, .comment-form, .reply form");
  if (form) form.dataset.dirty = "1";
});
// A form that was saved is clean again.
document.addEventListener("htmx:afterRequest", (e) => {
  const f = e.detail.elt?.closest?.("form");
  if (f && e.detail.successful) delete f.dataset.dirty;
});
window.addEventListener("beforeunload", (e) => {
  if (detailsDirty() || document.querySelector("#outline input.title-field")) { e.preventDefault(); e.returnValue = ""; }
});

// detailsOf shows page id's details: at once, with a history entry (a
// click), or after a pause if it is still the one selected then (a key,
// so that arrowing through pages stays quick; unsaved edits stay). It
// returns the request made at once.
let detailsTimer;
export function detailsOf(id, now) {
  clearTimeout(detailsTimer);
  const url = `/projects/${projectID()}/pages/${id}`;
  const show = () => ajax("GET", url, { target: "#details", swap: "innerHTML" });
  if (now) {
    history.pushState({}, "", url);
    return show();
  }
  // Still selected and still where the keys are: typing a new page's
  // title under this one leaves the details as they are.
  const still = () => selection.picked === id && (onCanvas() || document.activeElement === document.getElementById("title-" + id));
  if (shownPage() !== id && !detailsDirty()) detailsTimer = setTimeout(() => { if (still()) show(); }, 250);
  return null;
}

// The panel scrolls on its own: what it shows next (another page, the
// History, the Summary) opens at its top, while the same page reloaded
// (a colleague's edit) keeps where the reader was.
const showing = () => document.getElementById("details-inner")?.dataset.page || document.querySelector("#details > [id]")?.id || "";
let shownBefore = null;
document.addEventListener("htmx:beforeSwap", (e) => {
  if (e.detail.target?.id === "details") shownBefore = showing();
});
document.addEventListener("htmx:afterSwap", (e) => {
  const d = e.detail.target;
  if (d?.id !== "details") return;
  if (showing() !== shownBefore) d.scrollTop = 0;
  shownBefore = null;
});

// refreshDetails reloads the details shown, if they are page id's (or
// any page's, without id).
export function refreshDetails(id) {
  const d = document.getElementById("details-inner");
  if (d && (id === undefined || d.dataset.page === String(id))) {
    ajax("GET", `/projects/${projectID()}/pages/${d.dataset.page}`, { target: "#details", swap: "innerHTML" });
  }
}

// refreshShownDetails follows a colleague's change: the details reload
// unless they hold unsaved edits, which stay, with a note.
export function refreshShownDetails() {
  if (!detailsDirty()) { refreshDetails(); return; }
  const form = document.getElementById("page-form"); // a client's card has none: the comment being typed stays
  if (form && !form.querySelector(".live-note")) {
    const note = document.createElement("p");
    note.className = "alert live-note";
    note.textContent = "Someone else changed this plan. Your unsaved edits are kept; saving tells you if they clash.";
    form.querySelector("h2").after(note);
  }
}

// markSelected marks the page shown in the details panel in the outline
// and on the canvas. On the canvas the selection runs ahead of the details.
export function markSelected() {
  const id = (onCanvas() && selection.picked) || shownPage();
  document.querySelectorAll("#outline .row.selected").forEach((r) => r.classList.remove("selected"));
  if (id) document.getElementById("node-" + id)?.querySelector(":scope > .row")?.classList.add("selected");
  drawingOf(canvasOf())?.mark("selected", id || null);
}
document.addEventListener("htmx:afterSettle", markSelected);
document.addEventListener("DOMContentLoaded", markSelected);

// Back and Forward between selected pages show their details.
window.addEventListener("popstate", () => {
  const m = /^\/projects\/\d+\/pages\/(\d+)$/.exec(location.pathname);
  if (!m || !document.getElementById("details")) return;
  ajax("GET", location.pathname, { target: "#details", swap: "innerHTML" }).then(() => {
    const a = document.getElementById("title-" + m[1]);
    if (a && a.offsetParent !== null) a.focus();
  });
});

document.body.addEventListener("page-changed", (e) => refreshDetails(e.detail.id));
document.body.addEventListener("page-moved", () => refreshDetails());
document.body.addEventListener("page-deleted", (e) => {
  const d = document.getElementById("details-inner");
  if (d && d.dataset.page === String(e.detail.id)) document.getElementById("details").innerHTML = "";
});
