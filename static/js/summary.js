// The Summary panel, when shown, follows every change: its page counts
// and the plan's estimate. It is asked for at once, from the panel's own
// loader (net.js ajax): while an answer is on its way, the changes that
// follow wait as one request, sent when it comes. A burst of changes
// costs the panel a request per answer (one on its way, one waiting),
// never one per change, and a single edit shows its new estimate
// without a wait (< 200 ms after an edit at 10,000 pages,
// docs/benchmarks.md).
import { ajax } from "./net.js";
import { CHANGED } from "./events.js";
import { projectID } from "./dom.js";

export function refreshSummary() {
  if (document.getElementById("summary")) ajax("GET", `/projects/${projectID()}/summary`, { target: "#summary", swap: "outerHTML" });
}
document.addEventListener(CHANGED, refreshSummary);
