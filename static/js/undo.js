// Undo and redo: Ctrl+Z and Ctrl+Shift+Z or Ctrl+Y (Cmd on a Mac), or
// the toolbar's buttons, undo and redo the user's own last change on
// the server, after the writes still on their way. In a text field the
// browser's own undo of the text works as always.
import { ajax, send } from "./net.js";
import { fragment, isEditor, problem, projectID, typing } from "./dom.js";
import { flash } from "./flash.js";
import { queue } from "./writes.js";
import { undoKey } from "./keys.js";
import { selectTitle } from "./select.js";
import { refreshOutline } from "./outline.js";
import { refreshDetails, shownPage } from "./details.js";

function undoRedo(which) {
  if (!isEditor()) return;
  queue(async () => {
    const res = await send("POST", `/projects/${projectID()}/${which}`);
    if (!res.ok) { flash(problem(res.html, `There is nothing to ${which}.`), true); return; }
    const note = fragment(res.html).querySelector("#undo-result");
    flash(note ? note.textContent.trim() : which === "undo" ? "Undone." : "Redone.");
    const page = note?.dataset.page;
    const shown = shownPage();
    await refreshOutline();
    if (shown && note?.hasAttribute("data-gone") && shown === page) {
      ajax("GET", `/projects/${projectID()}/summary`, { target: "#details", swap: "innerHTML" });
    } else if (shown) refreshDetails();
    else if (document.getElementById("history")) ajax("GET", `/projects/${projectID()}/history`, { target: "#details", swap: "innerHTML" });
    const t = page && document.getElementById("title-" + page);
    if (t && t.tagName === "A") selectTitle(t);
  });
}

document.addEventListener("keydown", (e) => {
  const which = undoKey(e);
  if (!which || typing(e) || !isEditor()) return;
  e.preventDefault();
  undoRedo(which);
});
document.addEventListener("click", (e) => {
  if (e.target.closest?.("[data-undo]")) undoRedo("undo");
  else if (e.target.closest?.("[data-redo]")) undoRedo("redo");
});
