// The Summary panel, when shown, follows every change.
import { ajax } from "./net.js";
import { CHANGED } from "./events.js";
import { projectID } from "./dom.js";

let summaryTimer;
export function refreshSummarySoon() {
  clearTimeout(summaryTimer);
  summaryTimer = setTimeout(() => {
    if (document.getElementById("summary")) ajax("GET", `/projects/${projectID()}/summary`, { target: "#summary", swap: "outerHTML" });
  }, 150);
}
document.addEventListener(CHANGED, refreshSummarySoon);
