// Requests to siteplan's server. Views are loaded and forms sent by
// htmx; ajax ties each scripted htmx request to an element of its own
// kind, and send is for the writes of the outline, whose answers the
// script reads (the new row, or the problem) instead of swapping them.
import { CHANGED, emit } from "./events.js";

// clientID names this tab: the live stream skips the changes it made.
export const clientID = Math.random().toString(36).slice(2) + Date.now().toString(36);
document.addEventListener("htmx:configRequest", (e) => {
  e.detail.headers["X-Client-ID"] = clientID;
  const locale = shownLocale();
  if (locale) e.detail.headers["X-Locale"] = locale;
});

// shownLocale is the locale the outline shows (its switcher's choice):
// "" for the plan's default. Every request from the editor names it, so
// that the rows, titles and panels it loads come in the same locale.
export function shownLocale() {
  return document.getElementById("outline")?.dataset.locale || "";
}

// Any change that succeeded is announced.
document.addEventListener("htmx:afterRequest", (e) => {
  const verb = (e.detail.requestConfig?.verb || "get").toLowerCase();
  if (verb !== "get" && e.detail.successful) emit(CHANGED);
});

// ajax is htmx.ajax with each request tied to an element of its own
// kind. htmx holds back a request while another from the same element
// is in flight, resolves its promise at once, and drops it when a newer
// one comes; htmx.ajax's element is the body unless told, so a page
// deleted during a slow diagram redraw waited behind the redraw and was
// lost to the next summary refresh. A load of a box comes from a hidden
// element kept for that box (a newer load replaces one waiting, and the
// element is never swapped out, as a box replaced whole would be, which
// would drop the load waiting on it); a write from an element of its
// own, so it goes at once, is never dropped, and its promise ends when
// the server has answered.
const loaders = new Map(); // the target's selector -> the element its loads come from
function hiddenSource() {
  const el = document.createElement("span");
  el.hidden = true;
  document.body.append(el);
  return el;
}
export function ajax(verb, url, ctx) {
  const t = ctx.target;
  const box = verb === "GET" && (typeof t === "string" ? t : t?.id && "#" + t.id);
  if (box) {
    let src = loaders.get(box);
    if (!src?.isConnected) loaders.set(box, (src = hiddenSource()));
    return htmx.ajax(verb, url, { ...ctx, source: src });
  }
  const own = hiddenSource();
  return htmx.ajax(verb, url, { target: own, ...ctx, source: own }).finally(() => own.remove());
}

function csrf() {
  try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"] || ""; } catch { return ""; }
}

// send makes a request as htmx would (CSRF token, this tab's id) and
// gives back the answer: { ok, status, html }.
export async function send(method, url, values) {
  const res = await fetch(url, {
    method, body: values ? new URLSearchParams(values) : undefined,
    headers: { "X-CSRF-Token": csrf(), "X-Client-ID": clientID, "HX-Request": "true", Accept: "text/html", "X-Locale": shownLocale() },
  });
  const html = await res.text();
  if (res.ok) emit(CHANGED);
  return { ok: res.ok, status: res.status, html };
}
