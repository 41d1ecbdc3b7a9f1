// The outliner's commands on a selected page (the "?" help lists the
// keys): arrows select and fold, Alt+arrows move, Enter / Shift+Enter
// start a new sibling / child, F2 or a typed character renames, Del
// deletes; the row menu and the toolbar do the same with the pointer.
import { ajax } from "./net.js";
import { hasToggle, isEditor, listOf, nodeOf, peek, projectID, titleOf, visibleTitles } from "./dom.js";
import { titleKey } from "./keys.js";
import { queue } from "./writes.js";
import { selectNode, selectTitle } from "./select.js";
import { below, expand, rowAbove, setExpanded } from "./outline.js";
import { deleteNode, moveByKey } from "./edit.js";
import { newDraft, openField } from "./titles.js";
import { showHelp } from "./dialogs.js";

document.addEventListener("keydown", async (e) => {
  const title = e.target.closest?.("#outline a.title");
  if (!title) return;
  const li = nodeOf(title);
  const ul = li.parentElement;
  switch (titleKey(e, isEditor())) {
    case "move": {
      const moved = moveByKey(li, e.key);
      if (!moved) return;
      e.preventDefault(); // before any wait: Alt+← is also the browser's Back
      await moved;
      setTimeout(() => document.getElementById("title-" + li.dataset.id)?.focus(), 0);
      return;
    }
    case "down": below(li, selectNode); break;
    case "up": selectNode(rowAbove(li)); break;
    case "first": selectTitle(visibleTitles()[0]); break;
    case "last": selectTitle(visibleTitles().at(-1)); break;
    case "open": if (li.classList.contains("collapsed") || listOf(li).dataset.loaded !== "1") expand(li); break;
    case "close":
      if (hasToggle(li) && !li.classList.contains("collapsed") && peek(li)?.children.length) setExpanded(li, false);
      else if (ul.dataset.parent !== "0") titleOf(nodeOf(ul)).focus();
      break;
    case "help": showHelp(); break;
    case "add-after": newDraft(li, "after"); break;
    case "add-child": newDraft(li, "child"); break;
    case "rename": openField(li, title.textContent, true); break;
    case "delete": deleteNode(li); break;
    case "type": openField(li, e.key, false); break;
    default: return;
  }
  e.preventDefault();
});

document.addEventListener("dblclick", (e) => {
  const a = e.target.closest?.("#outline a.title");
  if (a && isEditor()) { e.preventDefault(); openField(nodeOf(a), a.textContent, true); }
});

document.addEventListener("click", (e) => {
  // The row menu acts on its row.
  const b = e.target.closest?.("#row-menu [data-act]");
  if (b) {
    const li = nodeOf(b), id = li.dataset.id;
    switch (b.dataset.act) {
      case "child": newDraft(li, "child"); break;
      case "sibling": newDraft(li, "after"); break;
      case "rename": openField(li, titleOf(li).textContent, true); break;
      case "duplicate": queue(() => ajax("POST", `/projects/${projectID()}/pages/${id}/duplicate`, { target: li, swap: "afterend" })); break;
      case "paste": ajax("GET", `/projects/${projectID()}/pages/${id}/paste`, { target: "#dialog" }); break;
      case "delete": deleteNode(li); break;
    }
    return;
  }
  const add = e.target.closest?.("[data-add-root]");
  if (add) { newDraft(document.getElementById(add.dataset.addRoot), "end"); return; }
  // Paste outline from the toolbar goes under the selected page.
  if (e.target.closest?.("[data-paste]")) {
    const sel = nodeOf(document.querySelector("#outline .row.selected"));
    const url = sel?.dataset.id ? `/projects/${projectID()}/pages/${sel.dataset.id}/paste` : `/projects/${projectID()}/paste`;
    ajax("GET", url, { target: "#dialog" });
  }
});
