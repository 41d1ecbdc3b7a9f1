// A tree-test task's time limit: the <time data-left=MS> the server
// renders counts down each second, and at zero the task's form is sent
// with its hidden "timeout" button, so the server ends the task (it
// keeps the time itself: a press after the limit ends it too, with or
// without this script).

// clock is milliseconds left as a participant reads them, rounded up:
// "1:05".
export function clock(ms) {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function run(el) {
  if (el.dataset.running) return;
  el.dataset.running = "1";
  const end = performance.now() + Number(el.dataset.left);
  const tick = () => {
    if (!el.isConnected) return; // the task's page was swapped
    const left = end - performance.now();
    el.textContent = clock(left);
    if (left > 0) {
      setTimeout(tick, Math.min(1000, left % 1000 || 1000));
      return;
    }
    const button = document.querySelector("[data-timeout]");
    button?.form?.requestSubmit(button);
  };
  tick();
}

if (typeof document !== "undefined") {
  const start = (root) => root.querySelectorAll?.("time[data-left]").forEach(run);
  document.addEventListener("htmx:load", (e) => start(e.target));
  start(document);
}
