// The panes fit a laptop: the splitter between the outline and the
// diagram sets the outline's width (drag it, or arrow keys on it), and
// the details can be hidden. Both are remembered by this browser.

const panes = () => document.querySelector(".panes");
const outlineWidth = () => document.getElementById("outline").getBoundingClientRect().width;

function setOutlineWidth(px, keep) {
  const p = panes(), outline = document.getElementById("outline");
  if (!p || !outline) return;
  const room = p.clientWidth - (document.getElementById("details").offsetWidth || 0) - 288;
  px = Math.round(Math.max(225, Math.min(px, room)));
  p.style.setProperty("--outline-w", px + "px");
  p.querySelector(".splitter")?.setAttribute("aria-valuenow", String(px));
  if (keep) localStorage.setItem("siteplan.outlineWidth", String(px));
}
function showDetails(show) {
  panes()?.classList.toggle("details-hidden", !show);
  document.querySelector("[data-details-toggle]")?.setAttribute("aria-pressed", String(show));
  localStorage.setItem("siteplan.detailsHidden", show ? "" : "1");
}
document.addEventListener("DOMContentLoaded", () => {
  const w = Number(localStorage.getItem("siteplan.outlineWidth"));
  if (w) panes()?.style.setProperty("--outline-w", w + "px");
  if (localStorage.getItem("siteplan.detailsHidden") && document.querySelector("[data-details-toggle]")) showDetails(false);
});
document.addEventListener("click", (e) => {
  const b = e.target.closest?.("[data-details-toggle]");
  if (b) showDetails(b.getAttribute("aria-pressed") !== "true");
});

let resize = null; // the drag of the splitter: where it started
document.addEventListener("pointerdown", (e) => {
  const sp = e.target.closest?.(".panes > .splitter");
  if (!sp || e.button !== 0) return;
  e.preventDefault();
  resize = { x: e.clientX, w: outlineWidth() };
  document.body.classList.add("resizing");
});
document.addEventListener("pointermove", (e) => { if (resize) setOutlineWidth(resize.w + e.clientX - resize.x, false); });
document.addEventListener("pointerup", () => {
  if (!resize) return;
  resize = null;
  document.body.classList.remove("resizing");
  setOutlineWidth(outlineWidth(), true);
});
document.addEventListener("keydown", (e) => {
  const sp = e.target.closest?.(".panes > .splitter");
  if (!sp || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
  e.preventDefault();
  setOutlineWidth(outlineWidth() + (e.key === "ArrowRight" ? 32 : -32), true);
});
