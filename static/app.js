// siteplan editor: expand/collapse, drag and drop, keyboard moves, in-place
// rename. htmx does the requests; this file only wires the DOM to them.
(function () {
  "use strict";

  const projectID = () => document.querySelector("[data-project]")?.dataset.project;
  const rowOf = (li) => li.querySelector(":scope > .row");
  const listOf = (li) => li.querySelector(":scope > ul.children");
  const titleOf = (li) => li.querySelector(":scope > .row .title");

  // Expand a node: show its children, loading them first if needed.
  function expand(li) {
    const ul = listOf(li);
    if (!ul) return Promise.resolve();
    if (ul.dataset.loaded === "1") {
      setExpanded(li, true);
      return Promise.resolve();
    }
    return htmx.ajax("GET", `/projects/${projectID()}/pages/${li.dataset.id}/children`, { target: ul, swap: "innerHTML" });
  }

  function setExpanded(li, open) {
    li.classList.toggle("collapsed", !open);
    const t = li.querySelector(":scope > .row .toggle");
    if (t) t.setAttribute("aria-expanded", open ? "true" : "false");
  }

  function ensureToggle(li) {
    const space = li.querySelector(":scope > .row .toggle-space");
    if (!space) return;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "toggle";
    b.dataset.toggle = "";
    b.setAttribute("aria-label", "Expand or collapse");
    space.replaceWith(b);
  }

  // A list was (re)filled by the server: it is now complete and open.
  document.addEventListener("htmx:afterSwap", (e) => {
    const ul = e.detail.target;
    if (ul.matches && ul.matches("ul.children") && ul.dataset.parent !== "0") {
      ul.dataset.loaded = "1";
      const li = ul.closest("li.node");
      if (li && ul.children.length > 0) {
        ensureToggle(li);
        setExpanded(li, true);
        li.querySelector(":scope > .row .count")?.remove();
      }
    }
  });

  // Tell the server whether a branch we add into is loaded.
  document.addEventListener("htmx:configRequest", (e) => {
    const elt = e.detail.elt;
    if (elt.dataset && elt.dataset.action === "add-child") {
      const ul = listOf(elt.closest("li.node"));
      e.detail.parameters.loaded = ul ? ul.dataset.loaded : "1";
    }
  });

  document.addEventListener("click", (e) => {
    const toggle = e.target.closest("[data-toggle]");
    if (toggle) {
      const li = toggle.closest("li.node");
      if (li.classList.contains("collapsed") || listOf(li).dataset.loaded !== "1") expand(li);
      else setExpanded(li, false);
      return;
    }
    if (e.target.closest("[data-dismiss]")) {
      const box = e.target.closest(".modal, .alert");
      if (box && box.closest("#dialog")) document.getElementById("dialog").innerHTML = "";
      else if (box) box.remove();
    }
  });

  document.addEventListener("dblclick", (e) => {
    const title = e.target.closest("#outline a.title");
    if (title) {
      e.preventDefault();
      title.closest(".row").querySelector("[data-action=rename]").click();
    }
  });

  // Move li to position index of list ul on the server; undo on failure.
  function move(li, ul, index) {
    return htmx.ajax("POST", `/projects/${projectID()}/pages/${li.dataset.id}/move`, {
      source: ul, swap: "none",
      values: { parent: ul.dataset.parent, placement: ul.dataset.placement || "", position: index },
    });
  }

  document.addEventListener("htmx:afterRequest", (e) => {
    const path = e.detail.requestConfig && e.detail.requestConfig.path;
    if (path && path.endsWith("/move") && !e.detail.successful) reloadOutline();
  });

  function reloadOutline() {
    const sel = document.querySelector(".toolbar select[name=level]");
    return htmx.ajax("GET", `/projects/${projectID()}/outline?level=${sel ? sel.value : 2}`, { target: "#outline", swap: "outerHTML" });
  }

  function initSortables(root) {
    if (typeof Sortable === "undefined") return;
    const lists = root.matches && root.matches("ul.children") ? [root] : [];
    root.querySelectorAll && lists.push(...root.querySelectorAll("ul.children"));
    for (const ul of lists) {
      if (ul.sortable) continue;
      ul.sortable = Sortable.create(ul, {
        group: "tree", handle: ".handle", animation: 120, forceFallback: true, fallbackOnBody: true,
        swapThreshold: 0.65, emptyInsertThreshold: 10,
        onStart: () => document.body.classList.add("dragging"),
        onEnd: (evt) => {
          document.body.classList.remove("dragging");
          if (evt.from === evt.to && evt.oldIndex === evt.newIndex) return;
          const li = evt.to.closest("li.node");
          if (li) { ensureToggle(li); setExpanded(li, true); }
          move(evt.item, evt.to, evt.newIndex);
        },
      });
    }
  }
  htmx.onLoad(initSortables);

  // Keyboard: arrows select and fold; Alt+arrows move; F2 renames; Del deletes.
  function visibleTitles() {
    return [...document.querySelectorAll("#outline a.title")].filter((a) => a.offsetParent !== null);
  }

  document.addEventListener("keydown", async (e) => {
    const title = e.target.closest && e.target.closest("#outline a.title");
    if (!title) return;
    const li = title.closest("li.node");
    const ul = li.parentElement;
    const focusLater = () => setTimeout(() => document.getElementById("title-" + li.dataset.id)?.focus(), 0);
    if (e.altKey) {
      let handled = true;
      if (e.key === "ArrowUp" && li.previousElementSibling) {
        ul.insertBefore(li, li.previousElementSibling);
        move(li, ul, [...ul.children].indexOf(li));
      } else if (e.key === "ArrowDown" && li.nextElementSibling) {
        ul.insertBefore(li.nextElementSibling, li);
        move(li, ul, [...ul.children].indexOf(li));
      } else if (e.key === "ArrowRight" && li.previousElementSibling) {
        const parent = li.previousElementSibling;
        li.remove();
        await move(li, listOf(parent), -1);
        listOf(parent).dataset.loaded = "0";
        await expand(parent);
      } else if (e.key === "ArrowLeft" && ul.dataset.parent !== "0") {
        const parentLi = ul.closest("li.node");
        parentLi.after(li);
        move(li, parentLi.parentElement, [...parentLi.parentElement.children].indexOf(li));
      } else handled = false;
      if (handled) { e.preventDefault(); focusLater(); }
      return;
    }
    const titles = visibleTitles();
    const i = titles.indexOf(title);
    switch (e.key) {
      case "ArrowDown": titles[i + 1]?.focus(); break;
      case "ArrowUp": titles[i - 1]?.focus(); break;
      case "ArrowRight": if (li.classList.contains("collapsed")) expand(li); break;
      case "ArrowLeft":
        if (li.querySelector(":scope > .row .toggle") && !li.classList.contains("collapsed") && listOf(li).children.length) setExpanded(li, false);
        else if (ul.dataset.parent !== "0") titleOf(ul.closest("li.node")).focus();
        break;
      case "F2": rowOf(li).querySelector("[data-action=rename]").click(); break;
      case "Delete": rowOf(li).querySelector("[data-action=delete]").click(); break;
      default: return;
    }
    e.preventDefault();
  });

  // In-place rename: Enter saves, Escape cancels, leaving the field saves.
  document.addEventListener("keydown", (e) => {
    const input = e.target.closest && e.target.closest("form.rename input[name=title]");
    if (input && e.key === "Escape") {
      e.preventDefault();
      input.form.dataset.done = "1";
      htmx.ajax("GET", input.dataset.cancel, { target: input.form, swap: "outerHTML" });
    }
  });
  document.addEventListener("submit", (e) => {
    if (e.target.matches("form.rename")) e.target.dataset.done = "1";
  }, true);
  document.addEventListener("focusout", (e) => {
    const input = e.target.closest && e.target.closest("form.rename input[name=title]");
    if (input && !input.form.dataset.done && input.isConnected) {
      input.form.dataset.done = "1";
      htmx.trigger(input.form, "submit");
    }
  });

  // Mark the page shown in the details panel in the outline.
  function markSelected() {
    const d = document.getElementById("details-inner");
    document.querySelectorAll("#outline .row.selected").forEach((r) => r.classList.remove("selected"));
    if (d) document.getElementById("node-" + d.dataset.page)?.querySelector(":scope > .row")?.classList.add("selected");
  }
  document.addEventListener("htmx:afterSettle", markSelected);
  document.addEventListener("DOMContentLoaded", markSelected);

  // Keep the details panel in step with edits made in the outline.
  function refreshDetails(id) {
    const d = document.getElementById("details-inner");
    if (d && (id === undefined || d.dataset.page === String(id))) {
      htmx.ajax("GET", `/projects/${projectID()}/pages/${d.dataset.page}`, { target: "#details", swap: "innerHTML" });
    }
  }
  document.body.addEventListener("page-changed", (e) => refreshDetails(e.detail.id));
  document.body.addEventListener("page-moved", () => refreshDetails());
  document.body.addEventListener("page-deleted", (e) => {
    const d = document.getElementById("details-inner");
    if (d && d.dataset.page === String(e.detail.id)) document.getElementById("details").innerHTML = "";
  });
})();
