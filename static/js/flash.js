// The notice under the toolbar: a success goes by itself after a few
// seconds; an error stays until dismissed.

export function flash(text, error) {
  const box = document.getElementById("flash");
  const div = document.createElement("div");
  div.className = error ? "alert alert-error" : "alert alert-ok";
  div.setAttribute("role", error ? "alert" : "status");
  const span = document.createElement("span");
  span.textContent = text;
  div.append(span);
  if (error) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "link";
    b.dataset.dismiss = "";
    b.textContent = "Dismiss";
    div.append(b);
  }
  box.replaceChildren(div);
  fadeNotices();
}

function fadeNotices() {
  for (const n of document.querySelectorAll("#flash .alert-ok:not([data-fading])")) {
    n.dataset.fading = "1";
    setTimeout(() => n.remove(), 5000);
  }
}
document.addEventListener("htmx:afterSettle", fadeNotices);
document.addEventListener("htmx:oobAfterSwap", fadeNotices);
