// The Summary panel, when shown, follows every change: its page counts
// and the plan's estimate. A burst of changes (a paste, a colleague's
// moves) is asked for once, 40 ms after the last: the estimate must be
// new within 200 ms of an edit at 10,000 pages, where the panel's own
// answer takes about 50 (docs/benchmarks.md).
import { ajax } from "./net.js";
import { CHANGED } from "./events.js";
import { projectID } from "./dom.js";

let summaryTimer;
export function refreshSummarySoon() {
  clearTimeout(summaryTimer);
  summaryTimer = setTimeout(() => {
    if (document.getElementById("summary")) ajax("GET", `/projects/${projectID()}/summary`, { target: "#summary", swap: "outerHTML" });
  }, 40);
}
document.addEventListener(CHANGED, refreshSummarySoon);
