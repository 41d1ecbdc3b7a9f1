// The editor's own events, sent on document, so that a module can say
// what happened without knowing who follows it.

// CHANGED: a write to the plan succeeded (the diagram and the summary follow).
export const CHANGED = "siteplan:changed";
// SETTLED: the last write on its way has been answered.
export const SETTLED = "siteplan:settled";

export function emit(name, detail) {
  document.dispatchEvent(new CustomEvent(name, { detail }));
}
