// Pitch mode: a version shown slide by slide for the meeting (the
// overview, each section, the estimate). Arrow keys, PageUp/PageDown (a
// presenter's clicker), Space, Home and End move between slides; the
// address keeps the slide (#3), so a reload stays. The speaker-notes
// window, which the team opens beside it, follows the slide through a
// BroadcastChannel of the version; a client's page has no notes.

// step is the slide a key leads to from slide i of n; i itself for a
// key that moves nothing.
export function step(key, i, n) {
  switch (key) {
    case "ArrowRight":
    case "ArrowDown":
    case "PageDown":
    case " ":
      return Math.min(i + 1, n - 1);
    case "ArrowLeft":
    case "ArrowUp":
    case "PageUp":
      return Math.max(i - 1, 0);
    case "Home":
      return 0;
    case "End":
      return n - 1;
  }
  return i;
}

// slideOf reads the slide an address's hash names ("#3" is the third,
// index 2), within n.
export function slideOf(hash, n) {
  const k = Number.parseInt(String(hash).replace(/^#/, ""), 10);
  return Number.isFinite(k) && k >= 1 && k <= n ? k - 1 : 0;
}

function deck(root) {
  const slides = [...root.querySelectorAll(".slide")];
  const status = document.getElementById("pitch-status");
  const channel = "BroadcastChannel" in window ? new BroadcastChannel(root.dataset.channel) : null;
  let at = -1;
  const show = (i) => {
    if (i === at) return;
    at = i;
    slides.forEach((s, k) => { s.hidden = k !== i; });
    history.replaceState(null, "", `#${i + 1}`);
    root.dataset.slide = String(i + 1);
    if (status) status.textContent = `Slide ${i + 1} of ${slides.length}: ${slides[i].dataset.title}`;
    channel?.postMessage({ slide: i });
  };
  show(slideOf(location.hash, slides.length));
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.("input, textarea, select")) return;
    const next = step(e.key, at, slides.length);
    if (next !== at || ["PageDown", "PageUp", " "].includes(e.key)) e.preventDefault();
    show(next);
  });
  root.querySelector("[data-pitch-next]")?.addEventListener("click", () => show(step("ArrowRight", at, slides.length)));
  root.querySelector("[data-pitch-prev]")?.addEventListener("click", () => show(step("ArrowLeft", at, slides.length)));
  root.querySelector("[data-pitch-full]")?.addEventListener("click", () => document.documentElement.requestFullscreen?.());
  root.querySelector("[data-pitch-notes]")?.addEventListener("click", (e) => {
    window.open(e.currentTarget.dataset.pitchNotes, root.dataset.channel, "popup,width=720,height=640");
  });
  // A notes window opened after the slide was shown asks where we are.
  channel?.addEventListener("message", (e) => { if (e.data?.ask) channel.postMessage({ slide: at }); });
}

function notes(root) {
  const parts = [...root.querySelectorAll(".slide-notes")];
  const show = (i) => {
    parts.forEach((p, k) => { p.hidden = k !== i; });
    root.dataset.slide = String(i + 1);
  };
  show(0);
  if (!("BroadcastChannel" in window)) return;
  const channel = new BroadcastChannel(root.dataset.channel);
  channel.addEventListener("message", (e) => { if (Number.isInteger(e.data?.slide)) show(e.data.slide); });
  channel.postMessage({ ask: true });
}

if (typeof document !== "undefined") {
  const d = document.querySelector(".pitch-deck");
  if (d) deck(d);
  const n = document.querySelector(".pitch-notes");
  if (n) notes(n);
}
