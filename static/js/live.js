// Live updates: the server streams the project's changes and who is
// viewing it, as JSON events this module applies (the live-site job
// page, whose stream carries HTML to swap, uses htmx's SSE extension
// instead). Changes made in this tab come back marked with its id and
// are skipped. Nothing the viewer is typing is replaced: a title being
// typed defers the outline reload, and an edited details form stays.
import { ajax, clientID } from "./net.js";
import { projectID } from "./dom.js";
import { flash } from "./flash.js";
import { refreshOutline } from "./outline.js";
import { refreshShownDetails, shownPage } from "./details.js";
import { redrawSoon } from "./diagram.js";
import { refreshSummary } from "./summary.js";

function showPresence(box, people) {
  box.replaceChildren();
  if (people.length < 2) return;
  const label = document.createElement("span");
  label.className = "muted";
  label.textContent = "Viewing now:";
  box.append(label);
  for (const p of people) {
    const s = document.createElement("span");
    s.className = "viewer" + (p.share ? " viewer-share" : "");
    s.textContent = p.name + (p.share ? " (shared link)" : "");
    box.append(s);
  }
}

function refreshComments(page) {
  const box = document.getElementById("comments");
  const busy = box && [...box.querySelectorAll("form")].some((f) => f.dataset.dirty === "1");
  const mine = box && box.dataset.page === String(page) && !busy;
  ajax("GET", `/projects/${projectID()}/pages/${page}/comments`, mine ? { target: "#comments", swap: "outerHTML" } : { target: "body", swap: "none" });
  if (document.getElementById("open-comments")) ajax("GET", `/projects/${projectID()}/comments`, { target: "#details", swap: "innerHTML" });
}

function applyChange(ch) {
  switch (ch.kind) {
    case "deleted":
      flash(`${ch.by} deleted this project.`);
      return;
    case "rename": {
      const t = document.getElementById("title-" + ch.page);
      if (t && t.tagName === "A") t.textContent = ch.title;
      if (shownPage() === String(ch.page)) refreshShownDetails();
      // A page this tab has not shown yet (its outline reload may still
      // be on the way, with the old title): reload once more.
      if (!t) throttled(reloadPlan);
      break;
    }
    case "comment":
      refreshComments(ch.page);
      break;
    case "redirects": // the old site's map: nothing of the outline changed
      break;
    default:
      throttled(reloadPlan);
  }
  redrawSoon();
}

// reloadPlan brings what this tab shows of the plan up to date.
function reloadPlan() {
  refreshOutline();
  if (shownPage()) refreshShownDetails();
  refreshSummary();
}

// A busy team makes many changes a second: reloads are gathered so a
// tab reloads at most about once every 700 ms, and never later than that.
let reloadTimer = null, lastReload = 0, reloadWork = null;
function throttled(work) {
  reloadWork = work;
  if (reloadTimer) return;
  const wait = Math.max(100, lastReload + 700 - Date.now());
  reloadTimer = setTimeout(() => {
    reloadTimer = null;
    lastReload = Date.now();
    reloadWork();
  }, wait);
}

function connectLive() {
  const box = document.getElementById("presence");
  if (!box || !window.EventSource) return;
  const es = new EventSource(box.dataset.events);
  let opened = false;
  es.addEventListener("open", () => {
    if (opened) applyChange({ kind: "tree" }); // reconnected: catch up on what was missed
    opened = true;
  });
  es.addEventListener("presence", (e) => showPresence(box, JSON.parse(e.data)));
  es.addEventListener("change", (e) => {
    const ch = JSON.parse(e.data);
    if (ch.client !== clientID) applyChange(ch);
  });
}
document.addEventListener("DOMContentLoaded", connectLive);
