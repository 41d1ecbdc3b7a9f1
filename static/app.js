// siteplan editor: expand/collapse, drag and drop, keyboard moves, in-place
// rename. htmx does the requests; this file only wires the DOM to them.
(function () {
  "use strict";

  const projectID = () => document.querySelector("[data-project]")?.dataset.project;
  const rowOf = (li) => li.querySelector(":scope > .row");
  // A row has a list of children only once some are loaded (the server
  // leaves the others out): peek finds it, listOf makes it when needed.
  const peek = (li) => li.querySelector(":scope > ul.children");
  const hasToggle = (li) => !!li.querySelector(":scope > .row > .toggle");
  function listOf(li) {
    let ul = peek(li);
    if (!ul) {
      ul = document.createElement("ul");
      ul.className = "children";
      if (li.dataset.id) { ul.id = "children-" + li.dataset.id; ul.dataset.parent = li.dataset.id; }
      ul.dataset.loaded = hasToggle(li) ? "0" : "1";
      li.append(ul);
    }
    return ul;
  }
  const titleOf = (li) => li.querySelector(":scope > .row .title");

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
  function ajax(verb, url, ctx) {
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

  // Expand a node: show its children, loading them first if needed.
  function expand(li) {
    const ul = listOf(li);
    if (!ul) return Promise.resolve();
    if (ul.dataset.loaded === "1") {
      setExpanded(li, true);
      return Promise.resolve();
    }
    return ajax("GET", `/projects/${projectID()}/pages/${li.dataset.id}/children`, { target: ul, swap: "innerHTML" });
  }

  // setExpanded opens or closes li's branch; the diagram, which draws
  // what the outline has open, follows.
  function setExpanded(li, open) {
    li.classList.toggle("collapsed", !open);
    const t = li.querySelector(":scope > .row .toggle");
    if (t) t.setAttribute("aria-expanded", open ? "true" : "false");
    redrawSoon();
  }

  // toggleBranch closes li's open branch, or opens it (loading it first).
  function toggleBranch(li) {
    if (li.classList.contains("collapsed") || listOf(li).dataset.loaded !== "1") expand(li);
    else setExpanded(li, false);
  }

  function ensureToggle(li) {
    const space = li.querySelector(":scope > .row .toggle-space");
    if (!space) return;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "toggle";
    b.dataset.toggle = "";
    b.setAttribute("aria-label", "Expand");
    space.replaceWith(b);
  }

  // A list was (re)filled by the server: it is now complete and open.
  document.addEventListener("htmx:afterSwap", (e) => {
    const ul = e.detail.target;
    if (ul?.matches?.("ul.children") && ul.dataset.parent !== "0") {
      ul.dataset.loaded = "1";
      const li = ul.closest("li.node");
      if (li && ul.children.length > 0) {
        ensureToggle(li);
        setExpanded(li, true);
        li.querySelector(":scope > .row .count")?.remove();
      }
    }
  });

  document.addEventListener("click", (e) => {
    const toggle = e.target.closest("[data-toggle]");
    if (toggle) {
      toggleBranch(toggle.closest("li.node"));
      return;
    }
    if (e.target.closest("[data-dismiss]")) {
      const box = e.target.closest(".modal, .alert");
      if (box && box.closest("#dialog")) document.getElementById("dialog").innerHTML = "";
      else if (box) box.remove();
    }
  });

  // Move li to position index of list ul on the server; undo on failure.
  function move(li, ul, index) {
    return ajax("POST", `/projects/${projectID()}/pages/${li.dataset.id}/move`, {
      source: ul, swap: "none",
      values: { parent: ul.dataset.parent, placement: ul.dataset.placement || "", position: index },
    });
  }

  document.addEventListener("htmx:afterRequest", (e) => {
    const path = e.detail.requestConfig && e.detail.requestConfig.path;
    if (path && path.endsWith("/move") && !e.detail.successful) refreshOutline();
  });

  // ---- Drag and drop ------------------------------------------------
  // A page is dragged by its handle. Nothing in the tree moves until it
  // is let go: a line shows where it will land (before or after a row,
  // first under an open branch, last in an area), or the row is outlined
  // when it will go inside it. Esc cancels.
  let dnd = null;
  document.addEventListener("pointerdown", (e) => {
    const handle = e.target.closest?.("#outline:not(.read-only) li.node:not(.draft) > .row > .handle");
    if (!handle || e.button !== 0) return;
    e.preventDefault();
    dnd = { li: nodeOf(handle), x: e.clientX, y: e.clientY, started: false, drop: null };
  });
  document.addEventListener("pointermove", (e) => {
    if (!dnd) return;
    if (!dnd.started) {
      if (Math.abs(e.clientX - dnd.x) + Math.abs(e.clientY - dnd.y) < 5) return;
      startDrag();
    }
    dnd.ghost.style.transform = `translate(${e.clientX + 18}px, ${e.clientY + 12}px)`;
    if (e.clientY < 48) window.scrollBy(0, -24);
    else if (e.clientY > window.innerHeight - 48) window.scrollBy(0, 24);
    dnd.drop = dropAt(e.clientX, e.clientY);
    showDrop(dnd.drop);
  });
  document.addEventListener("pointerup", () => { if (dnd) endDrag(dnd.started ? dnd.drop : null); });
  document.addEventListener("pointercancel", () => { if (dnd) endDrag(null); });
  document.addEventListener("keydown", (e) => {
    if (!dnd || e.key !== "Escape") return;
    e.preventDefault();
    e.stopImmediatePropagation();
    endDrag(null);
  }, true);

  function startDrag() {
    dnd.started = true;
    dnd.li.classList.add("drag-source");
    Object.assign(dnd, dragMarks(dnd.li, "drop-line"));
  }

  // dragMarks starts a drag of li's page, in the outline or on the
  // canvas: the title that follows the pointer and the line that shows
  // where it lands.
  function dragMarks(li, lineClass) {
    document.body.classList.add("dragging");
    const ghost = document.createElement("div");
    ghost.className = "drag-ghost";
    ghost.textContent = titleOf(li).textContent;
    const line = document.createElement("div");
    line.className = lineClass;
    line.hidden = true;
    document.body.append(ghost, line);
    return { ghost, line };
  }

  function endDrag(drop) {
    const { li, ghost, line } = dnd;
    dnd = null;
    ghost?.remove();
    line?.remove();
    document.querySelector("#outline .drop-inside")?.classList.remove("drop-inside");
    li.classList.remove("drag-source");
    document.body.classList.remove("dragging");
    if (drop) dropPage(li, drop);
  }

  // dropAt says where the dragged page would land if let go at (x, y).
  function dropAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const row = el?.closest?.("#outline li.node:not(.draft) > .row");
    if (row) {
      const li = nodeOf(row);
      if (dnd.li.contains(li)) return null; // not into itself
      const r = row.getBoundingClientRect();
      const f = (y - r.top) / r.height;
      if (f < 0.3) return { where: "before", li };
      if (f <= 0.7) return { where: "inside", li };
      return isOpen(li) ? { where: "first", li } : { where: "after", li };
    }
    const area = el?.closest?.("#outline .area");
    const ul = area?.querySelector("ul.roots");
    if (ul && y > ul.getBoundingClientRect().bottom - 4) return { where: "end", ul };
    return null;
  }
  const isOpen = (li) => !li.classList.contains("collapsed") && peek(li)?.children.length > 0;

  // showDrop draws where a drop would land.
  function showDrop(d) {
    document.querySelector("#outline .drop-inside")?.classList.remove("drop-inside");
    const line = dnd.line;
    line.hidden = !d || d.where === "inside";
    if (!d) return;
    if (d.where === "inside") { rowOf(d.li).classList.add("drop-inside"); return; }
    let left, top;
    if (d.where === "end") {
      const last = d.ul.lastElementChild, r = d.ul.getBoundingClientRect();
      left = r.left;
      top = last ? last.getBoundingClientRect().bottom : r.top;
    } else {
      const r = rowOf(d.li).getBoundingClientRect();
      const first = d.where === "first" && listOf(d.li).firstElementChild;
      left = first ? first.getBoundingClientRect().left : r.left;
      top = d.where === "before" ? r.top : r.bottom;
    }
    const right = document.getElementById("outline").getBoundingClientRect().right - 8;
    line.style.transform = `translate(${left}px, ${top - 1}px)`;
    line.style.width = `${Math.max(40, right - left)}px`;
  }

  // dropPage puts li where it was let go and saves the move. The branch
  // keeps what the user had open under it.
  async function dropPage(li, d) {
    let ul, before = null;
    switch (d.where) {
      case "before": ul = d.li.parentElement; before = d.li; break;
      case "after": ul = d.li.parentElement; before = d.li.nextElementSibling; break;
      case "first": ul = listOf(d.li); before = ul.firstElementChild; break;
      case "inside": await putInside(d.li, li); return;
      case "end": ul = d.ul; break;
    }
    if (before === li || (li.parentElement === ul && li.nextElementSibling === before)) { selectNode(li); return; }
    const from = li.parentElement;
    ul.insertBefore(li, before || ul.querySelector(":scope > .node-more"));
    leftBehind(from);
    selectNode(li);
    queue(() => move(li, ul, [...ul.children].indexOf(li)));
  }

  // putInside moves li into parent as its last child, opening parent.
  async function putInside(parent, li) {
    moving = true;
    const from = li.parentElement;
    try {
      await putLast(parent, li);
      leftBehind(from);
    } finally { moving = false; }
    if (!field(li)) selectNode(li);
    if (li.dataset.id) queue(() => move(li, listOf(parent), [...listOf(parent).children].indexOf(li)));
  }

  // putLast puts li last among parent's children on the page, opening
  // parent (its children loaded first).
  async function putLast(parent, li) {
    if (parent.dataset.id) await expand(parent);
    const ul = listOf(parent);
    ul.insertBefore(li, ul.querySelector(":scope > .node-more"));
    ensureToggle(parent);
    setExpanded(parent, true);
    parent.querySelector(":scope > .row .count")?.remove();
  }

  // leftBehind drops the fold toggle of a page whose last child moved out.
  function leftBehind(ul) {
    const li = nodeOf(ul);
    if (!li || ul.children.length) return;
    const t = li.querySelector(":scope > .row > .toggle");
    if (!t) return;
    const space = document.createElement("span");
    space.className = "toggle-space";
    t.replaceWith(space);
    li.classList.remove("collapsed");
  }

  // ---- The outliner -------------------------------------------------
  // A focused title is the selected page. Keys (also in the "?" help):
  // Enter / Shift+Enter start a new sibling / child as an empty row with
  // a field (a "draft"), F2 or a typed character renames, Del deletes,
  // arrows select and fold, Alt+arrows move. In a title field: Enter
  // saves and starts the next row, Tab / Shift+Tab indent / outdent, Esc
  // cancels, arrows save and move. Writes go to the server one after
  // another (a draft learns its place when its turn comes), so typing
  // never waits for the network.
  const isEditor = () => !!document.querySelector("#outline:not(.read-only)");
  let chain = Promise.resolve(), writing = 0;
  function queue(work) {
    writing++;
    chain = chain.then(work).catch((err) => flash(String(err.message || err), true))
      .finally(() => { writing--; reloadIfPending(); });
    return chain;
  }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"] || ""; } catch { return ""; }
  }
  // send makes a request as htmx would (CSRF token, this tab's id).
  async function send(method, url, values) {
    const res = await fetch(url, {
      method, body: values ? new URLSearchParams(values) : undefined,
      headers: { "X-CSRF-Token": csrf(), "X-Client-ID": clientID, "HX-Request": "true", Accept: "text/html" },
    });
    const html = await res.text();
    if (res.ok) { redrawSoon(); refreshSummarySoon(); }
    return { ok: res.ok, status: res.status, html };
  }
  function fragment(html) {
    const t = document.createElement("template");
    t.innerHTML = html.trim();
    return t.content;
  }
  function problem(html, fallback) {
    const f = fragment(html);
    return (f.querySelector(".field-error, .alert-error span, [role=alert]")?.textContent || fallback).trim();
  }

  const nodeOf = (el) => el?.closest?.("li.node");
  const visibleTitles = () => [...document.querySelectorAll("#outline a.title")].filter((a) => a.offsetParent !== null);
  function selectTitle(a) {
    if (!a) return false;
    if (onCanvas()) { pick(nodeOf(a).dataset.id); return true; } // the canvas keeps the keyboard
    a.focus();
    a.scrollIntoView({ block: "nearest" });
    return true;
  }
  function selectNode(li) { return li && selectTitle(titleOf(li)); }

  // The rows above and below a row on screen, found by walking the tree
  // around it, so a key press on a 10,000-row outline does not look at
  // every row. Across the navigation areas it falls back to the list of
  // rows on screen.
  const isRow = (el) => el?.matches?.("li.node:not(.draft)");
  function sibling(li, dir) {
    let n = li[dir];
    while (n && !isRow(n)) n = n[dir];
    return n;
  }
  function edgeChild(li, last) {
    const ul = !li.classList.contains("collapsed") && peek(li);
    let n = ul && (last ? ul.lastElementChild : ul.firstElementChild);
    while (n && !isRow(n)) n = last ? n.previousElementSibling : n.nextElementSibling;
    return n;
  }
  function rowBelow(li) {
    const c = edgeChild(li, false);
    if (c) return c;
    for (let n = li; n; n = nodeOf(n.parentElement)) {
      const s = sibling(n, "nextElementSibling");
      if (s) return s;
    }
    return acrossAreas(li, 1);
  }
  function rowAbove(li) {
    let n = sibling(li, "previousElementSibling");
    if (!n) return nodeOf(li.parentElement) || acrossAreas(li, -1);
    for (let c = edgeChild(n, true); c; c = edgeChild(n, true)) n = c;
    return n;
  }
  function acrossAreas(li, step) {
    const titles = visibleTitles();
    const k = titles.filter((a) => li.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_PRECEDING).length;
    return nodeOf(titles[step > 0 ? k : k - 1]);
  }

  // Mark the focused row selected, put the row menu into it, and show
  // its details (after a pause, so arrowing through rows stays fast).
  let detailsTimer;
  document.addEventListener("focusin", (e) => {
    const a = e.target.closest?.("#outline a.title");
    if (!a) return;
    document.querySelectorAll("#outline .row.selected").forEach((r) => r.classList.remove("selected"));
    rowOf(nodeOf(a)).classList.add("selected");
    picked = nodeOf(a).dataset.id; // the canvas goes on from here
    placeMenu(nodeOf(a));
    detailsOf(picked, false);
  });
  // detailsOf shows page id's details: at once, with a history entry
  // (a click), or after a pause if it is still the one selected then (a
  // key, so that arrowing through pages stays quick; unsaved edits stay).
  // It returns the request made at once.
  function detailsOf(id, now) {
    clearTimeout(detailsTimer);
    const url = `/projects/${projectID()}/pages/${id}`;
    const show = () => ajax("GET", url, { target: "#details", swap: "innerHTML" });
    if (now) {
      history.pushState({}, "", url);
      return show();
    }
    // Still selected and still where the keys are: typing a new page's
    // title under this one leaves the details as they are.
    const still = () => picked === id && (onCanvas() || document.activeElement === document.getElementById("title-" + id));
    if (shownPage() !== id && !detailsDirty()) detailsTimer = setTimeout(() => { if (still()) show(); }, 250);
    return null;
  }
  function placeMenu(li) {
    const menu = document.getElementById("row-menu");
    if (!menu || !li || li.classList.contains("draft")) return;
    rowOf(li).append(menu);
    menu.hidden = false;
  }
  document.addEventListener("mouseover", (e) => {
    const row = e.target.closest?.("#outline li.node > .row");
    if (row && !dnd) placeMenu(nodeOf(row));
  });

  // A click on a title selects it and shows its details (asking first
  // when the details hold unsaved edits).
  document.addEventListener("click", (e) => {
    const a = e.target.closest?.("#outline a.title");
    if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    if (!leaveDetails()) return;
    a.focus();
    detailsOf(nodeOf(a).dataset.id, true);
  });
  // Back and Forward between selected pages show their details.
  window.addEventListener("popstate", () => {
    const m = /^\/projects\/\d+\/pages\/(\d+)$/.exec(location.pathname);
    if (!m || !document.getElementById("details")) return;
    ajax("GET", location.pathname, { target: "#details", swap: "innerHTML" }).then(() => {
      const a = document.getElementById("title-" + m[1]);
      if (a && a.offsetParent !== null) a.focus();
    });
  });
  document.addEventListener("dblclick", (e) => {
    const a = e.target.closest?.("#outline a.title");
    if (a && isEditor()) { e.preventDefault(); openField(nodeOf(a), a.textContent, true); }
  });

  // The row menu acts on its row.
  document.addEventListener("click", (e) => {
    const b = e.target.closest?.("#row-menu [data-act]");
    if (!b) return;
    const li = nodeOf(b);
    const id = li.dataset.id;
    switch (b.dataset.act) {
      case "child": newDraft(li, "child"); break;
      case "sibling": newDraft(li, "after"); break;
      case "rename": openField(li, titleOf(li).textContent, true); break;
      case "duplicate": queue(() => ajax("POST", `/projects/${projectID()}/pages/${id}/duplicate`, { target: li, swap: "afterend" })); break;
      case "paste": ajax("GET", `/projects/${projectID()}/pages/${id}/paste`, { target: "#dialog" }); break;
      case "delete": deleteNode(li); break;
    }
  });

  document.addEventListener("click", (e) => {
    const b = e.target.closest?.("[data-add-root]");
    if (b) newDraft(document.getElementById(b.dataset.addRoot), "end");
  });

  // Paste outline from the toolbar goes under the selected page.
  document.addEventListener("click", (e) => {
    const b = e.target.closest?.("[data-paste]");
    if (!b) return;
    const sel = nodeOf(document.querySelector("#outline .row.selected"));
    const url = sel?.dataset.id ? `/projects/${projectID()}/pages/${sel.dataset.id}/paste` : `/projects/${projectID()}/paste`;
    ajax("GET", url, { target: "#dialog" });
  });

  function deleteNode(li) {
    const id = li.dataset.id;
    if (peek(li)?.children.length || hasToggle(li)) { // a branch: ask
      ajax("GET", `/projects/${projectID()}/pages/${id}/delete`, { target: "#dialog" });
      return;
    }
    const next = li.nextElementSibling || li.previousElementSibling || nodeOf(li.parentElement);
    queue(async () => {
      await ajax("DELETE", `/projects/${projectID()}/pages/${id}`, { target: "#flash", swap: "none" });
      if (!document.getElementById("node-" + id)) selectNode(next);
    });
  }
  document.body.addEventListener("page-deleted", () => {
    if (!document.activeElement || document.activeElement === document.body) selectTitle(visibleTitles()[0]);
  });

  // A draft is a row for a page not saved yet: just a title field. It
  // goes after li, as li's first child, or (mode "end") last into list li.
  function draftRow() {
    const draft = document.createElement("li");
    draft.className = "node draft";
    draft.innerHTML = '<div class="row"><span class="toggle-space"></span></div><ul class="children" data-loaded="1"></ul>';
    return draft;
  }
  function newDraft(li, mode) {
    const draft = draftRow();
    if (mode === "end") {
      li.append(draft);
    } else if (mode === "child") {
      const open = li.dataset.id ? expand(li) : Promise.resolve();
      listOf(li).prepend(draft);
      ensureToggle(li);
      setExpanded(li, true);
      open.then(() => { if (draft.isConnected && draft.parentElement.firstElementChild !== draft) listOf(li).prepend(draft); field(draft)?.focus(); });
    } else {
      li.after(draft);
    }
    openField(draft, "", false);
    return draft;
  }

  const field = (li) => li.querySelector(":scope > .row input.title-field");
  let moving = false; // a field moved in the tree loses focus: not a commit

  // openField puts a title field into li's row.
  function openField(li, value, selectAll) {
    if (!li || !isEditor() || field(li)) return;
    const input = document.createElement("input");
    input.className = "title-field";
    input.name = "title";
    input.maxLength = 300;
    input.setAttribute("aria-label", "Title");
    input.value = value;
    const shown = li.querySelector(":scope > .row > .title");
    if (shown) { shown.hidden = true; shown.after(input); }
    else li.querySelector(":scope > .row > .toggle-space, :scope > .row > .toggle").after(input);
    input.focus();
    if (selectAll) input.select();
    else input.setSelectionRange(value.length, value.length);
  }

  // closeField ends editing li: cancel, or save what was typed. It
  // returns false when nothing stays of a draft.
  function closeField(li, save) {
    const input = field(li);
    if (!input) return true;
    const title = input.value.trim();
    const shown = li.querySelector(":scope > .row > .title");
    input.remove();
    if (li.classList.contains("draft")) {
      if (!save || !title) { li.remove(); return false; }
      pendingTitle(li, title);
      saveDraft(li, title);
      return true;
    }
    shown.hidden = false;
    if (save && title && title !== shown.textContent) rename(li, title);
    reloadIfPending();
    return true;
  }

  // pendingTitle shows a draft's title, greyed until it is saved.
  function pendingTitle(draft, title) {
    const span = document.createElement("span");
    span.className = "title pending";
    span.textContent = title;
    draft.querySelector(":scope > .row > .toggle-space, :scope > .row > .toggle").after(span);
  }

  function saveDraft(draft, title) {
    queue(async () => {
      if (!draft.isConnected) return;
      const ul = draft.parentElement;
      let prev = draft.previousElementSibling;
      while (prev && !prev.dataset.id) prev = prev.previousElementSibling; // drafts before it that were dropped
      const values = { title };
      if (prev) values.after = prev.dataset.id;
      else Object.assign(values, { parent: ul.dataset.parent, placement: ul.dataset.placement || "", position: 0 });
      const res = await send("POST", `/projects/${projectID()}/pages`, values);
      if (!res.ok) {
        flash(problem(res.html, "The page could not be added."), true);
        draft.querySelector(":scope > .row > .pending")?.remove();
        openField(draft, title, true);
        return;
      }
      upgrade(draft, fragment(res.html).querySelector("li.node"));
    });
  }

  // upgrade turns a saved draft into the row the server sent, keeping
  // what was typed under it meanwhile.
  function upgrade(draft, fresh) {
    const focus = draft.dataset.focus;
    draft.id = fresh.id;
    draft.dataset.id = fresh.dataset.id;
    delete draft.dataset.focus;
    draft.classList.remove("draft");
    const row = fresh.querySelector(":scope > .row");
    const toggle = draft.querySelector(":scope > .row > .toggle");
    if (toggle) row.querySelector(".toggle-space")?.replaceWith(toggle);
    rowOf(draft).replaceWith(row);
    const ul = listOf(draft);
    ul.id = "children-" + draft.dataset.id;
    ul.dataset.parent = draft.dataset.id;
    ul.dataset.loaded = "1";
    htmx.process(draft);
    if (focus) selectNode(draft);
  }

  function rename(li, title) {
    const a = titleOf(li);
    const old = a.textContent;
    a.textContent = title;
    queue(async () => {
      const res = await send("PATCH", `/projects/${projectID()}/pages/${li.dataset.id}/title`, { title, version: titleOf(li).dataset.v });
      if (!res.ok) {
        titleOf(li).textContent = old;
        flash(problem(res.html, "The title could not be saved."), true);
        return;
      }
      const fresh = fragment(res.html).querySelector("a.title");
      const cur = titleOf(li);
      cur.dataset.v = fresh.dataset.v;
      cur.textContent = fresh.textContent;
      if (shownPage() === li.dataset.id) refreshDetails(li.dataset.id);
    });
  }

  // indent moves li under its previous sibling, as its last child.
  function indent(li) {
    const parent = li.previousElementSibling;
    return parent ? putInside(parent, li) : Promise.resolve();
  }
  // outdent moves li after its parent.
  function outdent(li) {
    const parent = nodeOf(li.parentElement);
    if (!parent) return;
    moving = true;
    const from = li.parentElement;
    try { parent.after(li); leftBehind(from); } finally { moving = false; }
    if (li.dataset.id) queue(() => move(li, li.parentElement, [...li.parentElement.children].indexOf(li)));
  }

  // Keys in a title field.
  document.addEventListener("keydown", async (e) => {
    const input = e.target.closest?.("#outline input.title-field");
    if (!input) return;
    const li = nodeOf(input);
    const keep = () => { input.focus(); };
    switch (e.key) {
      case "Enter": {
        e.preventDefault();
        if (li.classList.contains("draft") && !input.value.trim()) return;
        closeField(li, true);
        newDraft(li, "after");
        return;
      }
      case "Tab": {
        e.preventDefault();
        const pos = input.selectionStart;
        if (e.shiftKey) outdent(li); else await indent(li);
        keep();
        input.setSelectionRange(pos, pos);
        return;
      }
      case "Escape": {
        e.preventDefault();
        const above = li.previousElementSibling || nodeOf(li.parentElement);
        if (closeField(li, false)) { selectNode(li); return; }
        if (above?.dataset.id) selectNode(above);
        else if (above) above.dataset.focus = "1";
        return;
      }
      case "ArrowUp": case "ArrowDown": {
        e.preventDefault();
        const target = e.key === "ArrowUp" ? rowAbove(li) : rowBelow(li);
        closeField(li, true);
        if (!selectNode(target)) {
          if (li.dataset.id) selectNode(li);
          else if (li.isConnected) li.dataset.focus = "1"; // saving: select it once saved
        }
        return;
      }
    }
  });
  document.addEventListener("focusout", (e) => {
    const input = e.target.closest?.("#outline input.title-field");
    if (!input || moving || !input.isConnected) return;
    setTimeout(() => { if (input.isConnected && document.activeElement !== input) closeField(nodeOf(input), true); }, 0);
  });

  // moveByKey moves li as Alt+arrow key says: up or down among its
  // siblings, indented under the one above, or outdented. It returns
  // false when the key means no move, else true or the indent's promise.
  function moveByKey(li, key) {
    const ul = li.parentElement;
    if (key === "ArrowUp" && li.previousElementSibling) {
      ul.insertBefore(li, li.previousElementSibling);
      queue(() => move(li, ul, [...ul.children].indexOf(li)));
    } else if (key === "ArrowDown" && li.nextElementSibling) {
      ul.insertBefore(li.nextElementSibling, li);
      queue(() => move(li, ul, [...ul.children].indexOf(li)));
    } else if (key === "ArrowRight" && li.previousElementSibling) {
      return indent(li);
    } else if (key === "ArrowLeft" && ul.dataset.parent !== "0") {
      outdent(li);
    } else return false;
    return true;
  }

  // Keys on a selected page.
  document.addEventListener("keydown", async (e) => {
    const title = e.target.closest && e.target.closest("#outline a.title");
    if (!title) return;
    const li = nodeOf(title);
    const ul = li.parentElement;
    const edit = isEditor();
    const focusLater = () => setTimeout(() => document.getElementById("title-" + li.dataset.id)?.focus(), 0);
    if (e.altKey) {
      const moved = edit && moveByKey(li, e.key);
      if (!moved) return;
      e.preventDefault(); // before any wait: Alt+← is also the browser's Back
      await moved;
      focusLater();
      return;
    }
    if (e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case "ArrowDown": selectNode(rowBelow(li)); break;
      case "ArrowUp": selectNode(rowAbove(li)); break;
      case "Home": selectTitle(visibleTitles()[0]); break;
      case "End": selectTitle(visibleTitles().at(-1)); break;
      case "ArrowRight": if (li.classList.contains("collapsed") || listOf(li).dataset.loaded !== "1") expand(li); break;
      case "ArrowLeft":
        if (hasToggle(li) && !li.classList.contains("collapsed") && peek(li)?.children.length) setExpanded(li, false);
        else if (ul.dataset.parent !== "0") titleOf(nodeOf(ul)).focus();
        break;
      case "?": showHelp(); break;
      case "Enter": if (!edit) return; newDraft(li, e.shiftKey ? "child" : "after"); break;
      case "F2": if (!edit) return; openField(li, title.textContent, true); break;
      case "Delete": if (!edit) return; deleteNode(li); break;
      default:
        // Typing a character starts a rename with it.
        if (!edit || e.key.length !== 1 || e.key === " ") return;
        openField(li, e.key, false);
    }
    e.preventDefault();
  });

  // ---- Undo and redo ------------------------------------------------
  // Ctrl+Z and Ctrl+Shift+Z or Ctrl+Y (Cmd on a Mac), or the toolbar's
  // buttons, undo and redo the user's own last change on the server,
  // after the writes still on their way. In a text field the browser's
  // own undo of the text works as always.
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
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k !== "z" && k !== "y") return;
    if (e.target.closest?.("input, textarea, select, [contenteditable]") || !isEditor()) return;
    e.preventDefault();
    undoRedo(k === "y" || e.shiftKey ? "redo" : "undo");
  });
  document.addEventListener("click", (e) => {
    if (e.target.closest?.("[data-undo]")) undoRedo("undo");
    else if (e.target.closest?.("[data-redo]")) undoRedo("redo");
  });
  // A form that changes much asks first.
  document.addEventListener("submit", (e) => {
    const msg = e.target.dataset?.confirm;
    if (msg && !window.confirm(msg)) e.preventDefault();
  });

  function showHelp() {
    const d = document.getElementById("keys-help");
    if (d && !d.open) d.showModal();
  }
  document.addEventListener("click", (e) => { if (e.target.closest?.("[data-help]")) showHelp(); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "?" && !e.target.closest?.("input, textarea, select, [contenteditable], #outline a.title")) { e.preventDefault(); showHelp(); }
  });

  // Unsaved edits in the details panel are not dropped silently.
  function detailsDirty() {
    return [...document.querySelectorAll("#details form")].some((f) => f.dataset.dirty === "1");
  }
  function leaveDetails() {
    return !detailsDirty() || window.confirm("The page details have unsaved changes. Leave them unsaved?");
  }
  window.addEventListener("beforeunload", (e) => {
    if (detailsDirty() || document.querySelector("#outline input.title-field")) { e.preventDefault(); e.returnValue = ""; }
  });
  // A field in a form that was saved is clean again.
  document.addEventListener("htmx:afterRequest", (e) => {
    const f = e.detail.elt?.closest?.("form");
    if (f && e.detail.successful) delete f.dataset.dirty;
  });

  // In-place rename: Enter saves, Escape cancels, leaving the field saves.
  document.addEventListener("keydown", (e) => {
    const input = e.target.closest && e.target.closest("form.rename input[name=title]");
    if (input && e.key === "Escape") {
      e.preventDefault();
      input.form.dataset.done = "1";
      ajax("GET", input.dataset.cancel, { target: input.form, swap: "outerHTML" });
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
  // On the canvas the selection runs ahead of the details.
  function markSelected() {
    const id = (onCanvas() && picked) || document.getElementById("details-inner")?.dataset.page;
    document.querySelectorAll("#outline .row.selected").forEach((r) => r.classList.remove("selected"));
    if (id) document.getElementById("node-" + id)?.querySelector(":scope > .row")?.classList.add("selected");
    drawingOf(canvasOf())?.mark("selected", id || null);
  }
  document.addEventListener("htmx:afterSettle", markSelected);
  document.addEventListener("DOMContentLoaded", markSelected);

  // A page's first open thread: the row had no count to update.
  document.addEventListener("htmx:oobErrorNoTarget", (e) => {
    const el = e.detail.content, m = /^cc-(\d+)$/.exec(el?.id || "");
    const row = m && document.querySelector(`#node-${m[1]} > .row`);
    if (!row) return;
    el.removeAttribute("hx-swap-oob");
    row.append(el);
  });

  // Keep the details panel in step with edits made in the outline.
  function refreshDetails(id) {
    const d = document.getElementById("details-inner");
    if (d && (id === undefined || d.dataset.page === String(id))) {
      ajax("GET", `/projects/${projectID()}/pages/${d.dataset.page}`, { target: "#details", swap: "innerHTML" });
    }
  }
  document.body.addEventListener("page-changed", (e) => refreshDetails(e.detail.id));
  // A save in the details panel can change the page's status, kind or
  // placement, and a paste adds branches: the outline reloads, opening
  // what the server names (the pasted branches) besides what was open.
  document.body.addEventListener("page-saved", (e) => refreshOutline(e.detail.open));
  document.body.addEventListener("page-moved", () => refreshDetails());
  document.body.addEventListener("page-deleted", (e) => {
    const d = document.getElementById("details-inner");
    if (d && d.dataset.page === String(e.detail.id)) document.getElementById("details").innerHTML = "";
  });

  // Diagram beside the outline: it draws the branches the outline has
  // collapsed as collapsed, follows every change, zooms and pans, and a
  // click on a page selects it in the details panel.
  const diagram = () => document.getElementById("diagram");

  function collapsedIDs() {
    return [...document.querySelectorAll("#outline li.node")]
      .filter((li) => li.classList.contains("collapsed") || (hasToggle(li) && peek(li)?.dataset.loaded !== "1"))
      .map((li) => li.dataset.id);
  }

  function loadDiagram() {
    const sec = diagram();
    if (!sec || sec.hidden) return Promise.resolve();
    if (canvasBusy()) { redrawPending = true; return Promise.resolve(); }
    const form = sec.querySelector("form.diagram-controls");
    const params = new URLSearchParams(form ? new FormData(form) : undefined);
    const paint = new URLSearchParams(location.search).get("paint"); // svg or scene, else the server's choice
    if (paint && !params.has("paint")) params.set("paint", paint);
    return ajax("GET", `/projects/${projectID()}/diagram?${params}`, { target: sec, swap: "innerHTML" });
  }

  document.addEventListener("htmx:configRequest", (e) => {
    if (e.detail.path.split("?")[0].endsWith("/diagram") && document.getElementById("outline")) {
      e.detail.parameters.collapsed = collapsedIDs().join(",");
    }
  });

  document.addEventListener("click", (e) => {
    const toggle = e.target.closest("[data-diagram-toggle]");
    if (toggle) {
      const sec = diagram();
      sec.hidden = !sec.hidden;
      toggle.setAttribute("aria-pressed", String(!sec.hidden));
      document.querySelector(".panes")?.classList.toggle("with-diagram", !sec.hidden);
      if (!sec.hidden) loadDiagram();
      return;
    }
    const zoom = e.target.closest("[data-zoom]");
    if (zoom) {
      const canvas = diagram()?.querySelector(".diagram-canvas");
      if (!canvas) return;
      if (zoom.dataset.zoom === "fit") fit(canvas);
      else if (zoom.dataset.zoom === "page") zoomToPage(canvas, picked && boxOf(canvas, picked) ? picked : null);
      else zoomAt(canvas, zoom.dataset.zoom === "in" ? 1.25 : 0.8, canvas.clientWidth / 2, canvas.clientHeight / 2);
      apply(canvas);
      saveView(canvas);
    }
  });

  // The panes fit a laptop: the splitter between the outline and the
  // diagram sets the outline's width (drag it, or arrow keys on it), and
  // the details can be hidden. Both are remembered by this browser.
  const panes = () => document.querySelector(".panes");
  function setOutlineWidth(px, keep) {
    const p = panes(), outline = document.getElementById("outline");
    if (!p || !outline) return;
    const room = p.clientWidth - (document.getElementById("details").offsetWidth || 0) - 288;
    px = Math.round(Math.max(225, Math.min(px, room)));
    p.style.setProperty("--outline-w", px + "px");
    p.querySelector(".splitter")?.setAttribute("aria-valuenow", String(px));
    if (keep) localStorage.setItem("siteplan.outlineWidth", String(px));
  }
  function showDetails(show) {
    panes()?.classList.toggle("details-hidden", !show);
    document.querySelector("[data-details-toggle]")?.setAttribute("aria-pressed", String(show));
    localStorage.setItem("siteplan.detailsHidden", show ? "" : "1");
  }
  document.addEventListener("DOMContentLoaded", () => {
    const w = Number(localStorage.getItem("siteplan.outlineWidth"));
    if (w) panes()?.style.setProperty("--outline-w", w + "px");
    if (localStorage.getItem("siteplan.detailsHidden") && document.querySelector("[data-details-toggle]")) showDetails(false);
  });
  document.addEventListener("click", (e) => {
    const b = e.target.closest?.("[data-details-toggle]");
    if (b) showDetails(b.getAttribute("aria-pressed") !== "true");
  });
  let resize = null;
  document.addEventListener("pointerdown", (e) => {
    const sp = e.target.closest?.(".panes > .splitter");
    if (!sp || e.button !== 0) return;
    e.preventDefault();
    resize = { x: e.clientX, w: document.getElementById("outline").getBoundingClientRect().width };
    document.body.classList.add("resizing");
  });
  document.addEventListener("pointermove", (e) => { if (resize) setOutlineWidth(resize.w + e.clientX - resize.x, false); });
  document.addEventListener("pointerup", () => {
    if (!resize) return;
    resize = null;
    document.body.classList.remove("resizing");
    setOutlineWidth(document.getElementById("outline").getBoundingClientRect().width, true);
  });
  document.addEventListener("keydown", (e) => {
    const sp = e.target.closest?.(".panes > .splitter");
    if (!sp || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
    e.preventDefault();
    setOutlineWidth(document.getElementById("outline").getBoundingClientRect().width + (e.key === "ArrowRight" ? 32 : -32), true);
  });

  // The review view's tabs show the diagram or the outline.
  document.addEventListener("click", (e) => {
    const tab = e.target.closest?.("[role=tab][data-tab]");
    if (!tab) return;
    for (const t of tab.parentElement.querySelectorAll("[data-tab]")) {
      t.setAttribute("aria-selected", String(t === tab));
      document.getElementById(t.dataset.tab).hidden = t !== tab;
    }
    if (tab.dataset.tab === "diagram") loadDiagram();
  });

  // Any change that succeeded redraws the diagram, as does expanding or
  // collapsing a branch.
  let redraw;
  function redrawSoon() {
    clearTimeout(redraw);
    redraw = setTimeout(loadDiagram, 150);
  }
  document.addEventListener("htmx:afterRequest", (e) => {
    const verb = (e.detail.requestConfig?.verb || "get").toLowerCase();
    if (verb !== "get" && e.detail.successful) { redrawSoon(); refreshSummarySoon(); }
  });
  // Changing what the diagram shows draws a new picture: fit it anew.
  function forgetView() { delete diagram()?.dataset.view; }
  document.addEventListener("change", (e) => { if (e.target.closest?.("form.diagram-controls")) forgetView(); });
  document.addEventListener("click", (e) => { if (e.target.closest?.("form.diagram-controls [hx-vals]")) forgetView(); });

  // ---- The canvas -----------------------------------------------------
  // The diagram is a second view of the outline: each card stands for the
  // outline's row of the same page (the diagram draws just what the
  // outline has open), and each edit made on the canvas is the outline's
  // own (the same drafts, renames, moves and deletes), so the two cannot
  // disagree. While the canvas has the keyboard, selecting a page marks
  // its card and its row and leaves the focus on the canvas. Zoom and pan
  // are a view (a scale and an offset) the drawing follows: no request,
  // no redraw.
  const canvasOf = () => diagram()?.querySelector(".diagram-canvas");
  const onCanvas = () => !!document.activeElement?.matches?.(".diagram-canvas");
  const rowFor = (id) => id && document.getElementById("node-" + id); // the card's outline row
  const layoutOf = () => diagram()?.querySelector("select[name=layout]")?.value || "tree";
  let picked = null; // the selected page, as the canvas knows it
  let revealPicked = false; // bring it into view once it is drawn

  function view(canvas) {
    if (!canvas.view) canvas.view = { k: 1, x: 0, y: 0 };
    return canvas.view;
  }
  function saveView(canvas) { canvas.closest("#diagram").dataset.view = JSON.stringify(view(canvas)); }
  function apply(canvas) {
    drawingOf(canvas)?.show(view(canvas));
    hideHandles(canvas);
    drawMinimap(canvas);
  }
  function zoomAt(canvas, factor, cx, cy) {
    const v = view(canvas);
    const k = Math.min(8, Math.max(0.05, v.k * factor));
    v.x = cx - ((cx - v.x) * k) / v.k;
    v.y = cy - ((cy - v.y) * k) / v.k;
    v.k = k;
  }
  function fit(canvas) {
    const d = drawingOf(canvas);
    if (!d) return;
    const w = d.w, h = d.h;
    const v = view(canvas);
    v.k = Math.min(1, canvas.clientWidth / w, canvas.clientHeight / h) || 1;
    v.x = (canvas.clientWidth - w * v.k) / 2;
    v.y = 0;
  }
  // zoomToPage centres the card of page id, large enough to read.
  function zoomToPage(canvas, id) {
    const b = boxOf(canvas, id);
    if (!b) { flash(id ? "The selected page is not in this drawing." : "Select a page first.", true); return; }
    const v = view(canvas);
    v.k = Math.min(2, canvas.clientWidth / (b.w * 3), canvas.clientHeight / (b.h * 4));
    v.x = canvas.clientWidth / 2 - (b.x + b.w / 2) * v.k;
    v.y = canvas.clientHeight / 2 - (b.y + b.h / 2) * v.k;
  }
  // reveal pans just enough to bring the card of page id into view.
  function reveal(canvas, id) {
    const b = boxOf(canvas, id);
    if (!b) return false;
    const v = view(canvas), m = 24, W = canvas.clientWidth, H = canvas.clientHeight;
    const x = v.x + b.x * v.k, y = v.y + b.y * v.k, w = b.w * v.k, h = b.h * v.k;
    if (x < m) v.x += m - x; else if (x + w > W - m) v.x -= Math.min(x - m, x + w - (W - m));
    if (y < m) v.y += m - y; else if (y + h > H - m) v.y -= Math.min(y - m, y + h - (H - m));
    apply(canvas);
    saveView(canvas);
    return true;
  }

  // boxes lists the cards of the canvas's drawing: where each is in the
  // unzoomed drawing, in its pixels.
  const noBoxes = { list: [], byID: new Map() };
  const boxes = (canvas) => drawingOf(canvas)?.boxes() || noBoxes;
  const boxOf = (canvas, id) => boxes(canvas).byID.get(id);

  // cardAt is the box of the card under the point (x, y) on screen, the
  // one drawn last where cards overlap; rectOf is where the card of page
  // id is on screen; onBadge says whether (x, y) is on card b's comment
  // badge.
  function toDrawing(canvas, x, y) {
    const r = canvas.getBoundingClientRect(), v = view(canvas);
    return [(x - r.left - canvas.clientLeft - v.x) / v.k, (y - r.top - canvas.clientTop - v.y) / v.k];
  }
  const inside = (b, x, y) => b && x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;
  function cardAt(canvas, x, y) {
    const [dx, dy] = toDrawing(canvas, x, y), { list } = boxes(canvas);
    for (let i = list.length - 1; i >= 0; i--) if (inside(list[i], dx, dy)) return list[i];
    return null;
  }
  function onBadge(canvas, b, x, y) { return inside(b.badge, ...toDrawing(canvas, x, y)); }
  function rectOf(canvas, id) {
    const b = canvas && boxOf(canvas, id);
    if (!b) return null;
    const r = canvas.getBoundingClientRect(), v = view(canvas);
    const left = r.left + canvas.clientLeft + v.x + b.x * v.k, top = r.top + canvas.clientTop + v.y + b.y * v.k;
    const width = b.w * v.k, height = b.h * v.k;
    return { left, top, width, height, right: left + width, bottom: top + height };
  }

  // ---- Drawings: the SVG, or a scene on a <canvas> --------------------
  // What a canvas shows is a drawing: the SVG inline, or, past the
  // server's ViewSVGMax pages, a scene (diagram/scene.go) painted on a
  // <canvas>: the browser paints one far faster than it lays out the
  // tens of thousands of elements of a big SVG. Both have their size w,
  // h and their cards' boxes in the unzoomed drawing's pixels, show the
  // view, mark cards ("selected", "drag-source", "drop-inside") and give
  // a card's words; the rest of the canvas code asks them and never the
  // SVG.
  // A scene is fetched (initCanvas); until it is in, there is no drawing.
  function drawingOf(canvas) {
    if (canvas && !canvas.drawing && !canvas.dataset.scene) canvas.drawing = svgDrawing(canvas);
    return canvas?.drawing || null;
  }
  function loadScene(canvas) {
    canvas.loading = true;
    fetch(canvas.dataset.scene, { headers: { Accept: "application/json" } })
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(res.statusText))))
      .then((sc) => {
        canvas.drawing = sceneDrawing(canvas, sc);
        initCanvas(canvas);
        markSelected();
        const at = canvas.pendingPick;
        canvas.pendingPick = null;
        const b = at && cardAt(canvas, at.x, at.y);
        if (b && leaveDetails()) pick(b.id, true);
        for (const k of canvas.pendingKeys?.splice(0) || []) canvas.dispatchEvent(new KeyboardEvent("keydown", { ...k, bubbles: true }));
      })
      .catch(() => { if (canvas.isConnected) flash("The diagram could not be loaded: reload the page to try again.", true); });
  }

  function svgDrawing(canvas) {
    const svg = canvas.querySelector("svg");
    if (!svg) return null;
    const cardOf = (id) => id && svg.querySelector(`g.node[id="p${id}"], g[id="a_p${id}"]`);
    const cardID = (g) => /^(?:a_)?p(\d+)$/.exec(g.id)?.[1];
    const marks = {};
    let measured = null;
    return {
      w: svg.width.baseVal.value,
      h: svg.height.baseVal.value,
      // The boxes are measured on screen once, so that what the SVG
      // transforms inside (Graphviz's radial SVG moves its whole graph)
      // counts too.
      boxes() {
        if (!measured) {
          const o = svg.getBoundingClientRect(), k = view(canvas).k;
          const at = (r) => ({ x: (r.left - o.left) / k, y: (r.top - o.top) / k, w: r.width / k, h: r.height / k });
          const list = [...svg.querySelectorAll("g.node[id^='p'], g[id^='a_p']")].map((g) => {
            const badge = g.querySelector("g.badge");
            return { id: cardID(g), ...at(g.getBoundingClientRect()), badge: badge && at(badge.getBoundingClientRect()) };
          });
          measured = { list, byID: new Map(list.map((b) => [b.id, b])) };
        }
        return measured;
      },
      show(v) { svg.style.transform = `translate(${v.x}px, ${v.y}px) scale(${v.k})`; },
      mark(kind, id) {
        cardOf(marks[kind])?.classList.remove(kind);
        marks[kind] = id;
        cardOf(id)?.classList.add(kind);
      },
      marked: (kind) => marks[kind] || null,
      words: (id) => cardOf(id)?.textContent || "",
    };
  }

  const PT = 4 / 3; // CSS pixels in a point, the scene's unit

  // sceneDrawing paints a scene (its format is in diagram/scene.go) on a
  // <canvas> under the handles, every frame the view changes: what is out
  // of view is skipped, a card too small to read is a block of its band's
  // colour and words too small to read are grey lines.
  function sceneDrawing(canvas, sc) {
    const el = document.createElement("canvas");
    el.className = "diagram-scene";
    el.setAttribute("aria-hidden", "true");
    canvas.querySelector("canvas.diagram-scene")?.remove(); // the old picture, kept while this one loaded
    canvas.prepend(el);
    const o = sc.ops, strs = sc.strs;
    // One pass over the operations: where each starts and what it covers
    // (points: x0, y0, x1, y1; NaN for a change of state).
    const starts = new Int32Array(o.length / 2 + 1), bounds = new Float32Array(o.length * 2 + 4);
    const opAt = new Int32Array(o.length + 1); // an operation's number by where it starts
    let n = 0;
    for (let i = 0; i < o.length; n++) {
      starts[n] = i;
      opAt[i] = n;
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, j = -1, next;
      switch (o[i]) {
        case 0: case 1: case 2: next = i + 2; x0 = NaN; break;
        case 3: next = i + 3; x0 = NaN; break;
        case 4:
          x0 = Math.min(o[i + 2], o[i + 4]); x1 = Math.max(o[i + 2], o[i + 4]);
          y0 = Math.min(o[i + 3], o[i + 5]); y1 = Math.max(o[i + 3], o[i + 5]);
          next = i + 6;
          break;
        case 5: case 7: j = i + 2; break;
        case 6: j = i + 1; break;
        case 8: x0 = o[i + 2] - o[i + 4]; x1 = o[i + 2] + o[i + 4]; y0 = o[i + 3] - o[i + 5]; y1 = o[i + 3] + o[i + 5]; next = i + 6; break;
        case 9: {
          const w = o[i + 5], f = o[i + 4];
          x0 = o[i + 1] - (f & 8 ? w : f & 4 ? w / 2 : 0); x1 = x0 + w;
          y0 = o[i + 2] - o[i + 3]; y1 = o[i + 2] + o[i + 3] * 0.3;
          next = i + 7;
          break;
        }
        default: throw new Error("scene: unknown operation " + o[i]);
      }
      if (j >= 0) { // n points from j
        next = j + 1 + 2 * o[j];
        for (let k = j + 1; k < next; k += 2) {
          if (o[k] < x0) x0 = o[k];
          if (o[k] > x1) x1 = o[k];
          if (o[k + 1] < y0) y0 = o[k + 1];
          if (o[k + 1] > y1) y1 = o[k + 1];
        }
      }
      bounds[4 * n] = x0 - 2; bounds[4 * n + 1] = y0 - 2; bounds[4 * n + 2] = x1 + 2; bounds[4 * n + 3] = y1 + 2;
      i = next;
    }
    opAt[o.length] = n;
    const list = [];
    for (let i = 0; i < sc.cards.length; i += 5) {
      const c = sc.cards;
      list.push({ id: String(c[i]), x: c[i + 1] * PT, y: c[i + 2] * PT, w: c[i + 3] * PT, h: c[i + 4] * PT });
    }
    const byID = new Map(list.map((b) => [b.id, b]));
    // A card's operations are a group a frame may skip whole: it then
    // leaves the state (pen, fill, width, dash) as drawing it would have.
    const nodes = [];
    for (const [id, cls, from, to] of sc.groups) {
      const a = opAt[from], b = opAt[to], card = byID.get(id.slice(1));
      if (cls === "node" && card) nodes.push({ id, from: a, to: b, box: [card.x / PT, card.y / PT, (card.x + card.w) / PT, (card.y + card.h) / PT] });
      if (cls === "badge" && card) {
        let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
        for (let k = a; k < b; k++) {
          if (!isFinite(bounds[4 * k])) continue; // a change of state
          x0 = Math.min(x0, bounds[4 * k]); y0 = Math.min(y0, bounds[4 * k + 1]); x1 = Math.max(x1, bounds[4 * k + 2]); y1 = Math.max(y1, bounds[4 * k + 3]);
        }
        if (x1 > x0) card.badge = { x: x0 * PT, y: y0 * PT, w: (x1 - x0) * PT, h: (y1 - y0) * PT };
      }
    }
    const first = () => ({ pen: -1, fill: -1, width: 1, dash: [] }); // the scene's state at its start
    const change = (st, i) => {
      switch (o[i]) {
        case 0: st.pen = o[i + 1]; return true;
        case 1: st.fill = o[i + 1]; return true;
        case 2: st.width = o[i + 1]; return true;
        case 3: st.dash = o[i + 1] > 0 ? [o[i + 1], o[i + 2]] : []; return true;
      }
      return false;
    };
    const state = first();
    for (let k = 0, g = 0; k < n; k++) {
      change(state, starts[k]);
      while (g < nodes.length && nodes[g].to === k + 1) nodes[g++].after = { ...state };
    }
    for (const g of nodes) { // its band's colour: its first fill that is not white
      const fill = (k) => (o[starts[k]] === 1 && o[starts[k] + 1] >= 0 ? strs[o[starts[k] + 1]] : "#ffffff");
      let k = g.from;
      while (k < g.to && fill(k) === "#ffffff") k++;
      g.color = k < g.to ? fill(k) : "#cbd5e1";
    }
    const marks = {}, accent = getComputedStyle(canvas).getPropertyValue("--accent").trim() || "#2563eb";
    let frame = 0, painted = false, v = { k: 1, x: 0, y: 0 };

    function paint() {
      frame = 0;
      const dpr = window.devicePixelRatio || 1, W = canvas.clientWidth, H = canvas.clientHeight;
      if (el.width !== Math.round(W * dpr) || el.height !== Math.round(H * dpr)) {
        el.width = Math.round(W * dpr);
        el.height = Math.round(H * dpr);
        el.style.width = W + "px";
        el.style.height = H + "px";
      }
      const ctx = el.getContext("2d");
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.fillStyle = "#ffffff";
      ctx.fillRect(0, 0, el.width, el.height);
      const s = v.k * PT; // screen pixels in a point
      ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * v.x, dpr * v.y);
      ctx.lineJoin = "round";
      const vx0 = -v.x / s, vy0 = -v.y / s, vx1 = (W - v.x) / s, vy1 = (H - v.y) / s;
      const seen = (x0, y0, x1, y1) => x1 >= vx0 && x0 <= vx1 && y1 >= vy0 && y0 <= vy1;
      let st = first(), g = 0, lines = false;
      // Lines one after another in the same pen are stroked as one path.
      const flush = () => {
        if (!lines) return;
        lines = false;
        ctx.strokeStyle = strs[st.pen];
        ctx.lineWidth = st.width;
        ctx.setLineDash(st.dash);
        ctx.stroke();
      };
      for (let k = 0; k < n; k++) {
        if (g < nodes.length && nodes[g].from === k) {
          const c = nodes[g++], [x0, y0, x1, y1] = c.box;
          const small = (x1 - x0) * s < 14;
          if (small || !seen(x0, y0, x1, y1)) {
            flush();
            if (small && seen(x0, y0, x1, y1)) {
              if (ctx.fillStyle !== c.color) ctx.fillStyle = c.color;
              ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
            }
            st = { ...c.after };
            k = c.to - 1;
            continue;
          }
        }
        const i = starts[k];
        if (o[i] < 4) { flush(); change(st, i); continue; }
        if (!seen(bounds[4 * k], bounds[4 * k + 1], bounds[4 * k + 2], bounds[4 * k + 3])) continue;
        if (o[i] === 6 && st.pen >= 0) { // a line: into the path being gathered
          if (!lines) { ctx.beginPath(); lines = true; }
          ctx.moveTo(o[i + 2], o[i + 3]);
          for (let m = i + 4; m < i + 2 + 2 * o[i + 1]; m += 2) ctx.lineTo(o[m], o[m + 1]);
          continue;
        }
        flush();
        if (o[i] === 9) { // text
          const size = o[i + 3], px = size * s, f = o[i + 4];
          if (st.pen < 0 || px < 1.5) continue;
          if (px < 4) { // too small to read: a grey line where the words are
            ctx.fillStyle = "#cbd5e1";
            ctx.fillRect(bounds[4 * k] + 2, o[i + 2] - size * 0.55, bounds[4 * k + 2] - bounds[4 * k] - 4, size * 0.5);
            continue;
          }
          ctx.font = `${f & 1 ? "bold " : ""}${size}px ${sc.font}`;
          ctx.direction = f & 2 ? "rtl" : "ltr";
          ctx.textAlign = f & 8 ? "right" : f & 4 ? "center" : "left";
          ctx.fillStyle = strs[st.pen];
          ctx.fillText(strs[o[i + 6]], o[i + 1], o[i + 2]);
          continue;
        }
        ctx.beginPath();
        let fill = o[i + 1] === 1;
        const line = (j) => { // n points from j
          ctx.moveTo(o[j + 1], o[j + 2]);
          for (let m = j + 3; m < j + 1 + 2 * o[j]; m += 2) ctx.lineTo(o[m], o[m + 1]);
        };
        switch (o[i]) {
          case 4: ctx.rect(o[i + 2], o[i + 3], o[i + 4] - o[i + 2], o[i + 5] - o[i + 3]); break;
          case 5: line(i + 2); ctx.closePath(); break;
          case 6: line(i + 1); fill = false; break;
          case 7:
            ctx.moveTo(o[i + 3], o[i + 4]);
            for (let m = i + 5; m + 5 < i + 3 + 2 * o[i + 2]; m += 6) ctx.bezierCurveTo(o[m], o[m + 1], o[m + 2], o[m + 3], o[m + 4], o[m + 5]);
            if (fill) ctx.closePath();
            break;
          case 8: ctx.ellipse(o[i + 2], o[i + 3], o[i + 4], o[i + 5], 0, 0, 2 * Math.PI); break;
        }
        if (fill && st.fill >= 0) { ctx.fillStyle = strs[st.fill]; ctx.fill(); }
        if (st.pen >= 0) {
          ctx.strokeStyle = strs[st.pen];
          ctx.lineWidth = st.width;
          ctx.setLineDash(st.dash);
          ctx.stroke();
        }
      }
      flush();
      ctx.setLineDash([]);
      const box = (id) => { const b = id && byID.get(id); return b && [b.x / PT, b.y / PT, b.w / PT, b.h / PT]; };
      const src = box(marks["drag-source"]);
      if (src) { ctx.fillStyle = "rgba(255,255,255,.65)"; ctx.fillRect(...src); }
      for (const [kind, color] of [["selected", "#2563eb"], ["drop-inside", accent]]) {
        const b = box(marks[kind]);
        if (!b) continue;
        if (kind === "drop-inside") { ctx.fillStyle = "rgba(238,243,253,.6)"; ctx.fillRect(...b); }
        ctx.strokeStyle = color;
        ctx.lineWidth = 3 / s;
        ctx.strokeRect(...b);
      }
    }
    const soon = () => { if (!frame) frame = requestAnimationFrame(paint); };
    new ResizeObserver(soon).observe(canvas);
    return {
      w: sc.w * PT,
      h: sc.h * PT,
      boxes: () => ({ list, byID }),
      // The first view is painted at once, in the task that swapped the
      // drawing in; the next ones once a frame.
      show(to) {
        v = { ...to };
        if (painted) soon();
        else { painted = true; paint(); }
      },
      mark(kind, id) { if (marks[kind] !== id) { marks[kind] = id; soon(); } },
      marked: (kind) => marks[kind] || null,
      words(id) {
        const g = nodes.find((c) => c.id === "p" + id), out = [];
        for (let k = g ? g.from : 0; g && k < g.to; k++) if (o[starts[k]] === 9) out.push(strs[o[starts[k] + 6]]);
        return out.join(" ");
      },
    };
  }

  // nextCard is the card an arrow key leads to from page id: the nearest
  // one that way, cards in line with it first; with nothing selected,
  // the first card.
  function nextCard(canvas, id, key) {
    const { list } = boxes(canvas), from = boxOf(canvas, id);
    if (!from) return list[0]?.id;
    const [dx, dy] = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[key];
    const cx = from.x + from.w / 2, cy = from.y + from.h / 2;
    let best = null, score = Infinity;
    for (const b of list) {
      const ox = b.x + b.w / 2 - cx, oy = b.y + b.h / 2 - cy;
      const along = ox * dx + oy * dy;
      if (b === from || along <= 1) continue;
      const across = Math.max(0, dx ? Math.abs(oy) - (from.h + b.h) / 2 : Math.abs(ox) - (from.w + b.w) / 2);
      const s = along + 4 * across;
      if (s < score) { best = b; score = s; }
    }
    return best?.id;
  }

  // pick selects page id from the canvas: its card and its outline row
  // are marked and brought into view, and its details follow as they do
  // for the outline. It returns the details' request, if made at once.
  // Without a details panel (the diagram's own page) a click opens the
  // page.
  function pick(id, now) {
    picked = id;
    markSelected();
    const canvas = canvasOf();
    revealPicked = !!canvas && !reveal(canvas, id);
    const li = rowFor(id);
    if (li) rowOf(li).scrollIntoView({ block: "nearest" });
    if (document.getElementById("details")) return detailsOf(id, now);
    if (now) window.location.assign(`/projects/${projectID()}/pages/${id}`);
    return null;
  }

  // openThread brings the first open comment thread into view once the
  // details request shown has swapped in.
  function openThread(shown) {
    Promise.resolve(shown).then(() => {
      const t = document.querySelector("#comments .thread:not(.resolved)") || document.getElementById("comments");
      if (!t) return;
      t.tabIndex = -1;
      t.scrollIntoView({ block: "start" });
      t.focus({ preventScroll: true });
    });
  }

  // A new drawing takes the view at once, in the task that swapped it
  // in, so that no frame shows it unzoomed.
  function initCanvas(root) {
    const canvas = root?.querySelector && (root.matches?.(".diagram-canvas") ? root : root.querySelector(".diagram-canvas"));
    if (!canvas || canvas.view) return;
    const sec = canvas.closest("#diagram");
    if (canvas.dataset.scene && !canvas.drawing) {
      // Until the new scene is in, the old picture stays (not a blank
      // canvas), and so does the keyboard: were it left on the page, a
      // second redraw meanwhile would take the canvas for unfocused.
      if (oldScene && !canvas.querySelector("canvas.diagram-scene")) canvas.prepend(oldScene);
      oldScene = null;
      if (sec?.dataset.focused) canvas.focus({ preventScroll: true });
      if (!canvas.loading) loadScene(canvas);
      return;
    }
    const old = sec?.dataset.view;
    if (old) canvas.view = JSON.parse(old); // keep the zoom across redraws
    else fit(canvas);
    if (sec?.dataset.focused) canvas.focus({ preventScroll: true }); // a redraw keeps the keyboard where it was
    apply(canvas);
    if (revealPicked && picked && reveal(canvas, picked)) revealPicked = false;
  }
  htmx.onLoad(initCanvas);
  document.addEventListener("htmx:afterSwap", (e) => {
    const sec = e.detail.target;
    if (sec?.id === "diagram" && sec.dataset.pdfOpen) sec.querySelector(".pdf-options")?.setAttribute("open", "");
    initCanvas(sec);
  });
  // What a redraw of the diagram keeps: the keyboard on the canvas, the
  // old picture until the new scene is in, and the PDF options open
  // (choosing paper, then orientation, does not mean opening the panel
  // twice, nor does a colleague's edit close it under the pointer).
  let oldScene = null;
  document.addEventListener("htmx:beforeSwap", (e) => {
    const sec = e.detail.target;
    if (sec?.id !== "diagram") return;
    sec.dataset.focused = onCanvas() ? "1" : "";
    sec.dataset.pdfOpen = sec.querySelector(".pdf-options")?.open ? "1" : "";
    oldScene = sec.querySelector("canvas.diagram-scene");
  });

  // Keys on the canvas: arrows select the card that way, + and - zoom,
  // Shift+1 fits, Shift+2 zooms to the selection, Space folds or unfolds
  // a branch; in the editor the outline's keys edit the selected page.
  document.addEventListener("keydown", (e) => {
    const canvas = e.target.matches?.(".diagram-canvas") && e.target;
    if (!canvas || pan?.drag || e.ctrlKey || e.metaKey) return; // Ctrl+Z is the page's
    if (!drawingOf(canvas) && canvas.loading) {
      // A redrawn scene is on its way: the key waits for it, as a press
      // on a card does (pendingPick), instead of being lost.
      (canvas.pendingKeys ||= []).push({ key: e.key, code: e.code, shiftKey: e.shiftKey, altKey: e.altKey });
      e.preventDefault();
      return;
    }
    const id = picked && boxOf(canvas, picked) ? picked : null;
    const li = rowFor(id), edit = isEditor() && !!li, k = e.key;
    const zoom = (f) => zoomAt(canvas, f, canvas.clientWidth / 2, canvas.clientHeight / 2);
    let zoomed = true;
    if (e.shiftKey && e.code === "Digit1") fit(canvas);
    else if (e.shiftKey && e.code === "Digit2") zoomToPage(canvas, id);
    else if (k === "+" || k === "=") zoom(1.25);
    else if (k === "-") zoom(0.8);
    else {
      zoomed = false;
      if (k.startsWith("Arrow") && e.altKey) {
        if (!edit || !moveByKey(li, k)) return;
      } else if (k.startsWith("Arrow")) {
        const next = nextCard(canvas, id, k);
        if (next) pick(next);
      } else if (k === "Enter" && edit) addOnCanvas(li, e.shiftKey ? "child" : "after");
      else if (k === "F2" && edit) renameOnCanvas(li, titleOf(li).textContent, true);
      else if (k === "Delete" && edit) deleteNode(li);
      else if (k === " " && li) fold(li);
      else if (edit && k.length === 1 && !e.altKey) renameOnCanvas(li, k, false); // typing renames, as in the outline
      else return;
    }
    e.preventDefault();
    if (zoomed) { apply(canvas); saveView(canvas); }
  });

  // fold collapses or expands li's branch, in the outline and so in the drawing.
  function fold(li) { if (hasToggle(li)) toggleBranch(li); }

  // canvasField puts a title field on the page at r (left, top, width,
  // on screen) and calls done with what was typed, or with null on Esc.
  // Enter and Esc give the keyboard back to the canvas; the drawing is
  // not redrawn under the field.
  function canvasField(r, value, selectAll, done) {
    const canvas = canvasOf();
    const input = document.createElement("input");
    input.className = "canvas-field";
    input.maxLength = 300;
    input.setAttribute("aria-label", "Title");
    input.value = value;
    const c = canvas.getBoundingClientRect();
    const width = Math.min(Math.max(r.width, 180), c.width - 16);
    input.style.left = Math.max(c.left + 8, Math.min(r.left, c.right - width - 8)) + "px";
    input.style.top = Math.max(c.top + 8, Math.min(r.top, c.bottom - 40)) + "px";
    input.style.width = width + "px";
    input.style.fontSize = Math.max(13, Math.min(22, 16 * view(canvas).k)) + "px";
    document.body.append(input);
    input.focus();
    if (selectAll) input.select();
    else input.setSelectionRange(value.length, value.length);
    let over = false;
    const finish = (title, back) => {
      if (over) return;
      over = true;
      if (back) canvasOf()?.focus({ preventScroll: true });
      input.remove();
      done(title);
      redrawIfPending();
    };
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); finish(input.value.trim(), true); }
      else if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); finish(null, true); }
    });
    input.addEventListener("blur", () => finish(input.value.trim(), false));
  }

  // renameOnCanvas opens a field over li's card; what is typed is saved
  // as the outline saves a rename.
  function renameOnCanvas(li, value, selectAll) {
    const r = rectOf(canvasOf(), li.dataset.id);
    if (!r) return;
    canvasField({ left: r.left + 4, top: r.top + r.height * 0.3, width: r.width - 8 }, value, selectAll, (title) => {
      if (title && title !== titleOf(li).textContent) rename(li, title);
    });
  }

  // addOnCanvas opens a field where a new page after li (mode "after")
  // or under it (mode "child") will be drawn: below or beside the card,
  // as the layout places children and siblings.
  function addOnCanvas(li, mode) {
    const r = rectOf(canvasOf(), li.dataset.id);
    if (!r) return;
    const beside = (mode === "child") === (layoutOf() === "lr");
    const at = beside ? { left: r.right + 12, top: r.top + r.height * 0.3 } : { left: r.left, top: r.bottom + 14 };
    canvasField({ ...at, width: r.width }, "", false, (title) => { if (title) addDraft(li, mode, title); });
  }

  // addDraft puts a page typed on the canvas into the outline as a draft
  // row and saves it at once: after li, or last under it. It is selected
  // once saved.
  async function addDraft(li, mode, title) {
    const draft = draftRow();
    if (mode === "child") await putLast(li, draft);
    else li.after(draft);
    pendingTitle(draft, title);
    draft.dataset.focus = "1";
    revealPicked = true;
    saveDraft(draft, title);
  }

  // ---- Pointer on the canvas: pan, select, or drag a page ------------
  // A press on the ground pans; on a card it selects it when let go, or,
  // in the editor, moves the page when dragged: onto the middle of
  // another card puts it last under that page, near the card's edge
  // along its siblings puts it before or after it. A line or an outlined
  // card shows where it lands; Esc cancels; nothing moves until the drop.
  let pan = null, redrawPending = false;
  document.addEventListener("pointerdown", (e) => {
    const canvas = e.target.closest?.(".diagram-canvas");
    if (!canvas || e.button !== 0 || e.target.closest(".canvas-handles, .minimap")) return;
    if (!drawingOf(canvas) && canvas.loading) {
      // The old picture shows while a redrawn scene is on its way: a
      // press on one of its cards selects that card once the scene is in.
      canvas.focus({ preventScroll: true });
      canvas.pendingPick = { x: e.clientX, y: e.clientY };
      return;
    }
    const b = cardAt(canvas, e.clientX, e.clientY), id = b?.id;
    const v = view(canvas);
    pan = { canvas, x: e.clientX, y: e.clientY, vx: v.x, vy: v.y, moved: false, id,
      badge: !!b && onBadge(canvas, b, e.clientX, e.clientY), li: isEditor() ? rowFor(id) : null };
  });
  document.addEventListener("pointermove", (e) => {
    if (!pan) {
      const canvas = e.target.closest?.(".diagram-canvas");
      if (!canvas || dnd || resize) return;
      const b = !e.target.closest(".canvas-handles, .minimap") && cardAt(canvas, e.clientX, e.clientY);
      if (b) showHandles(canvas, b.id);
      else if (!e.target.closest(".canvas-handles")) hideHandles(canvas);
      return;
    }
    const dx = e.clientX - pan.x, dy = e.clientY - pan.y;
    if (!pan.moved) {
      if (Math.abs(dx) + Math.abs(dy) <= 4) return;
      pan.moved = true;
      if (pan.li) startCardDrag(pan);
    }
    const v = view(pan.canvas);
    if (pan.drag) {
      pan.ghost.style.transform = `translate(${e.clientX + 14}px, ${e.clientY + 10}px)`;
      const r = pan.canvas.getBoundingClientRect(), edge = 28, step = 14; // near an edge the view follows
      const sx = e.clientX < r.left + edge ? step : e.clientX > r.right - edge ? -step : 0;
      const sy = e.clientY < r.top + edge ? step : e.clientY > r.bottom - edge ? -step : 0;
      if (sx || sy) { v.x += sx; v.y += sy; apply(pan.canvas); }
      pan.drop = canvasDropAt(pan, e.clientX, e.clientY);
      showCanvasDrop(pan, pan.drop);
      return;
    }
    v.x = pan.vx + dx;
    v.y = pan.vy + dy;
    apply(pan.canvas);
  });
  document.addEventListener("pointerup", () => {
    if (!pan) return;
    const p = pan;
    pan = null;
    if (p.drag) { endCardDrag(p, true); return; }
    saveView(p.canvas);
    if (p.moved) return;
    p.canvas.focus({ preventScroll: true });
    if (!p.id || !leaveDetails()) return;
    const shown = pick(p.id, true);
    if (p.badge) openThread(shown);
  });
  document.addEventListener("pointercancel", () => {
    if (pan?.drag) endCardDrag(pan, false);
    pan = null;
  });
  document.addEventListener("keydown", (e) => {
    if (!pan?.drag || e.key !== "Escape") return;
    e.preventDefault();
    e.stopImmediatePropagation();
    const p = pan;
    pan = null;
    endCardDrag(p, false);
  }, true);
  // A stacked page's link only names it: selecting is the pointer's job.
  document.addEventListener("click", (e) => {
    if (e.target.closest?.(".diagram-canvas a")) e.preventDefault();
  });

  function startCardDrag(p) {
    p.drag = true;
    hideHandles(p.canvas);
    drawingOf(p.canvas)?.mark("drag-source", p.id);
    Object.assign(p, dragMarks(p.li, "drop-line canvas-drop"));
  }

  // canvasDropAt says where the dragged page would land if let go at (x, y).
  function canvasDropAt(p, x, y) {
    const id = cardAt(p.canvas, x, y)?.id, li = rowFor(id);
    if (!li || p.li.contains(li)) return null; // not onto itself or into its own branch
    const r = rectOf(p.canvas, id), across = siblingAxis(p.canvas, li) === "x";
    const f = across ? (x - r.left) / r.width : (y - r.top) / r.height;
    if (f < 0.25) return { where: "before", li, id, across };
    if (f > 0.75) return { where: "after", li, id, across };
    return { where: "inside", li, id };
  }

  // siblingAxis is the way li's siblings line up in the drawing: "x"
  // side by side, "y" one under another.
  function siblingAxis(canvas, li) {
    const me = boxOf(canvas, li.dataset.id);
    for (const s of [li.previousElementSibling, li.nextElementSibling]) {
      const b = me && s?.dataset?.id && boxOf(canvas, s.dataset.id);
      if (b) return Math.abs(b.x - me.x) >= Math.abs(b.y - me.y) ? "x" : "y";
    }
    return layoutOf() === "lr" ? "y" : "x";
  }

  function showCanvasDrop(p, d) {
    drawingOf(p.canvas)?.mark("drop-inside", d?.where === "inside" ? d.id : null);
    p.line.hidden = !d || d.where === "inside";
    if (!d || d.where === "inside") return;
    const r = rectOf(p.canvas, d.id), gap = 5, before = d.where === "before";
    const s = p.line.style;
    if (d.across) {
      s.transform = `translate(${(before ? r.left - gap : r.right + gap) - 1.5}px, ${r.top}px)`;
      s.width = "3px";
      s.height = r.height + "px";
    } else {
      s.transform = `translate(${r.left}px, ${(before ? r.top - gap : r.bottom + gap) - 1.5}px)`;
      s.width = r.width + "px";
      s.height = "3px";
    }
  }

  function endCardDrag(p, drop) {
    p.ghost.remove();
    p.line.remove();
    drawingOf(p.canvas)?.mark("drop-inside", null);
    drawingOf(p.canvas)?.mark("drag-source", null);
    document.body.classList.remove("dragging");
    saveView(p.canvas);
    p.canvas.focus({ preventScroll: true });
    if (drop && p.drop) {
      if (p.drop.where === "inside") putInside(p.drop.li, p.li);
      else dropPage(p.li, p.drop);
    }
    redrawIfPending();
  }

  // A redraw waits while a card is dragged or a title typed on the canvas.
  const canvasBusy = () => !!pan?.drag || !!document.querySelector(".canvas-field");
  function redrawIfPending() {
    if (redrawPending && !canvasBusy()) { redrawPending = false; loadDiagram(); }
  }

  // ---- Handles: buttons on the edges of the hovered card -------------
  // Add a page under it, add one after it, fold or unfold its branch.
  function showHandles(canvas, id) {
    const li = rowFor(id);
    if (!li || !isEditor()) { hideHandles(canvas); return; }
    let h = canvas.querySelector(".canvas-handles");
    if (!h) {
      h = document.createElement("div");
      h.className = "canvas-handles";
      for (const act of ["child", "after", "fold"]) {
        const b = document.createElement("button");
        b.type = "button";
        b.tabIndex = -1; // the keyboard has Enter, Shift+Enter and Space
        b.dataset.act = act;
        h.append(b);
      }
      canvas.append(h);
    }
    if (h.dataset.id === id && !h.hidden) return;
    h.dataset.id = id;
    h.hidden = false;
    const r = rectOf(canvas, id), c = canvas.getBoundingClientRect();
    const x0 = r.left - c.left, y0 = r.top - c.top, x1 = x0 + r.width, y1 = y0 + r.height;
    const lr = layoutOf() === "lr";
    const put = (act, x, y, text, label) => {
      const b = h.querySelector(`[data-act=${act}]`);
      b.style.transform = `translate(${x - 11}px, ${y - 11}px)`;
      b.textContent = text;
      b.title = label;
      b.setAttribute("aria-label", label);
      return b;
    };
    put("child", lr ? x1 : (x0 + x1) / 2, lr ? (y0 + y1) / 2 : y1, "+", "Add a page under this one");
    put("after", lr ? (x0 + x1) / 2 : x1, lr ? y1 : (y0 + y1) / 2, "+", "Add a page after this one");
    const open = !li.classList.contains("collapsed") && peek(li)?.dataset.loaded === "1";
    put("fold", x0, y1, open ? "▾" : "▸", open ? "Collapse this branch" : "Expand this branch").hidden = !hasToggle(li);
  }
  function hideHandles(canvas) {
    const h = canvas?.querySelector(".canvas-handles");
    if (h) h.hidden = true;
  }
  document.addEventListener("click", (e) => {
    const b = e.target.closest?.(".canvas-handles [data-act]");
    if (!b) return;
    const canvas = b.closest(".diagram-canvas"), li = rowFor(b.parentElement.dataset.id);
    if (!li) return;
    hideHandles(canvas);
    canvas.focus({ preventScroll: true });
    pick(li.dataset.id);
    if (b.dataset.act === "fold") fold(li);
    else addOnCanvas(li, b.dataset.act);
  });

  // ---- Minimap ----------------------------------------------------------
  // A drawing larger than the canvas gets a minimap in its corner: the
  // cards as small boxes, the selected one in blue, and a frame round the
  // part in view. A press or drag on it brings that part into view.
  function drawMinimap(canvas) {
    const d = drawingOf(canvas);
    if (!d) return;
    const W = d.w, H = d.h, v = view(canvas);
    let m = canvas.querySelector("canvas.minimap");
    if (W * v.k <= canvas.clientWidth + 1 && H * v.k <= canvas.clientHeight + 1) {
      if (m) m.hidden = true;
      return;
    }
    if (!m) {
      m = document.createElement("canvas");
      m.className = "minimap";
      m.setAttribute("aria-hidden", "true");
      canvas.append(m);
    }
    m.hidden = false;
    const s = Math.min(180 / W, 120 / H), dpr = window.devicePixelRatio || 1;
    if (m.drawing !== d || m.picked !== picked) { // the cards: drawn once per drawing and selection
      m.drawing = d;
      m.picked = picked;
      m.scale = s;
      m.width = Math.ceil(W * s * dpr);
      m.height = Math.ceil(H * s * dpr);
      m.style.width = W * s + "px";
      m.style.height = H * s + "px";
      m.base = document.createElement("canvas");
      m.base.width = m.width;
      m.base.height = m.height;
      const c = m.base.getContext("2d");
      c.scale(dpr, dpr);
      c.fillStyle = "#94a3b8";
      for (const b of boxes(canvas).list) c.fillRect(b.x * s, b.y * s, Math.max(1, b.w * s), Math.max(1, b.h * s));
      const sel = picked && boxOf(canvas, picked);
      if (sel) { c.fillStyle = "#2563eb"; c.fillRect(sel.x * s - 1, sel.y * s - 1, Math.max(3, sel.w * s + 2), Math.max(3, sel.h * s + 2)); }
    }
    const c = m.getContext("2d");
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.clearRect(0, 0, m.width, m.height);
    c.drawImage(m.base, 0, 0);
    c.scale(dpr, dpr);
    c.strokeStyle = "#2563eb";
    c.lineWidth = 1.5;
    c.strokeRect(-v.x / v.k * s, -v.y / v.k * s, canvas.clientWidth / v.k * s, canvas.clientHeight / v.k * s);
  }
  let mini = null;
  function minimapGo(e) {
    const { canvas, m } = mini, r = m.getBoundingClientRect(), v = view(canvas);
    const x = (e.clientX - r.left) / m.scale, y = (e.clientY - r.top) / m.scale;
    v.x = canvas.clientWidth / 2 - x * v.k;
    v.y = canvas.clientHeight / 2 - y * v.k;
    apply(canvas);
  }
  document.addEventListener("pointerdown", (e) => {
    const m = e.target.closest?.(".diagram-canvas canvas.minimap");
    if (!m || e.button !== 0) return;
    e.preventDefault();
    mini = { canvas: m.closest(".diagram-canvas"), m };
    minimapGo(e);
  });
  document.addEventListener("pointermove", (e) => { if (mini) minimapGo(e); });
  document.addEventListener("pointerup", () => {
    if (!mini) return;
    saveView(mini.canvas);
    mini = null;
  });

  document.addEventListener("wheel", (e) => {
    const canvas = e.target.closest?.(".diagram-canvas");
    if (!canvas) return;
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    zoomAt(canvas, e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
    apply(canvas);
    saveView(canvas);
  }, { passive: false });

  // Live updates: the server streams the project's changes and who is
  // viewing it. Changes made in this tab come back marked with its id and
  // are skipped. Nothing the viewer is typing is replaced: a rename in
  // progress defers the outline reload, and an edited details form stays.
  const clientID = Math.random().toString(36).slice(2) + Date.now().toString(36);
  document.addEventListener("htmx:configRequest", (e) => { e.detail.headers["X-Client-ID"] = clientID; });

  document.addEventListener("input", (e) => {
    const form = e.target.closest && e.target.closest("#page-form, .comment-form, .reply form");
    if (form) form.dataset.dirty = "1";
  });

  function showPresence(box, people) {
    box.replaceChildren();
    if (people.length < 2) return;
    const label = document.createElement("span");
    label.className = "muted";
    label.textContent = "Viewing now:";
    box.append(label);
    for (const p of people) {
      const s = document.createElement("span");
      s.className = "viewer" + (p.share ? " viewer-share" : "");
      s.textContent = p.name + (p.share ? " (shared link)" : "");
      box.append(s);
    }
  }

  function openIDs() {
    return [...document.querySelectorAll("#outline li.node")]
      .filter((li) => !li.classList.contains("collapsed") && peek(li)?.dataset.loaded === "1" && peek(li).children.length)
      .map((li) => li.dataset.id);
  }

  let outlinePending = false;
  // A reload would replace what is being typed, or a row not saved yet.
  function editingOutline() {
    return writing > 0 || !!document.querySelector("#outline form.rename, #outline input.title-field, #outline li.draft");
  }
  function refreshOutline(alsoOpen) {
    const outline = document.getElementById("outline");
    if (editingOutline()) { outlinePending = true; outline?.setAttribute("data-reload-pending", ""); return; }
    outlinePending = false;
    outline?.removeAttribute("data-reload-pending");
    const closed = new Set([...document.querySelectorAll("#outline li.node.collapsed")].map((li) => li.dataset.id));
    for (const id of alsoOpen || []) closed.delete(String(id));
    const sel = document.querySelector(".toolbar select[name=level]");
    const q = new URLSearchParams({ level: sel ? sel.value : "2", open: [...openIDs(), ...(alsoOpen || [])].join(",") });
    return ajax("GET", `/projects/${projectID()}/outline?${q}`, { target: "#outline", swap: "outerHTML" }).then(() => {
      for (const id of closed) {
        const li = document.getElementById("node-" + id);
        if (li && peek(li)?.children.length) setExpanded(li, false);
      }
      markSelected();
    });
  }
  function reloadIfPending() {
    if (outlinePending && !editingOutline()) refreshOutline();
  }
  document.addEventListener("htmx:afterSettle", reloadIfPending);

  function shownPage() {
    return document.getElementById("details-inner")?.dataset.page;
  }
  function refreshShownDetails() {
    if (!detailsDirty()) { refreshDetails(); return; }
    const form = document.getElementById("page-form"); // a client's card has none: the comment being typed stays
    if (form && !form.querySelector(".live-note")) {
      const note = document.createElement("p");
      note.className = "alert live-note";
      note.textContent = "Someone else changed this plan. Your unsaved edits are kept; saving tells you if they clash.";
      form.querySelector("h2").after(note);
    }
  }
  function refreshComments(page) {
    const box = document.getElementById("comments");
    const busy = box && [...box.querySelectorAll("form")].some((f) => f.dataset.dirty === "1");
    const mine = box && box.dataset.page === String(page) && !busy;
    ajax("GET", `/projects/${projectID()}/pages/${page}/comments`, mine ? { target: "#comments", swap: "outerHTML" } : { target: "body", swap: "none" });
    if (document.getElementById("open-comments")) ajax("GET", `/projects/${projectID()}/comments`, { target: "#details", swap: "innerHTML" });
  }

  function applyChange(ch) {
    switch (ch.kind) {
      case "deleted":
        flash(`${ch.by} deleted this project.`);
        return;
      case "rename": {
        const t = document.getElementById("title-" + ch.page);
        if (t && t.tagName === "A") t.textContent = ch.title;
        if (shownPage() === String(ch.page)) refreshShownDetails();
        // A page this tab has not shown yet (its outline reload may still
        // be on the way, with the old title): reload once more.
        if (!t) throttled(reloadPlan);
        break;
      }
      case "comment":
        refreshComments(ch.page);
        break;
      default:
        throttled(reloadPlan);
    }
    redrawSoon();
  }

  // reloadPlan brings what this tab shows of the plan up to date.
  function reloadPlan() {
    refreshOutline();
    if (shownPage()) refreshShownDetails();
    refreshSummarySoon();
  }

  // A busy team makes many changes a second: reloads are gathered so a
  // tab reloads at most about once every 700 ms, and never later than that.
  let reloadTimer = null, lastReload = 0, reloadWork = null;
  function throttled(work) {
    reloadWork = work;
    if (reloadTimer) return;
    const wait = Math.max(100, lastReload + 700 - Date.now());
    reloadTimer = setTimeout(() => {
      reloadTimer = null;
      lastReload = Date.now();
      reloadWork();
    }, wait);
  }

  // The Summary panel, when shown, follows every change.
  let summaryTimer;
  function refreshSummarySoon() {
    clearTimeout(summaryTimer);
    summaryTimer = setTimeout(() => {
      if (document.getElementById("summary")) ajax("GET", `/projects/${projectID()}/summary`, { target: "#summary", swap: "outerHTML" });
    }, 150);
  }

  function flash(text, error) {
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

  // A notice of success goes by itself after a few seconds; an error
  // stays until dismissed.
  function fadeNotices() {
    for (const n of document.querySelectorAll("#flash .alert-ok:not([data-fading])")) {
      n.dataset.fading = "1";
      setTimeout(() => n.remove(), 5000);
    }
  }
  document.addEventListener("htmx:afterSettle", fadeNotices);
  document.addEventListener("htmx:oobAfterSwap", fadeNotices);

  // Downloads are fetched first, so a failure shows its message here
  // instead of a broken file in the browser's downloads.
  document.addEventListener("click", async (e) => {
    const a = e.target.closest?.("a[download]");
    if (!a || a.protocol === "blob:" || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    a.setAttribute("aria-busy", "true");
    try {
      const res = await fetch(a.href, { headers: { Accept: "application/json, */*;q=0.1" } });
      if (res.status === 413 && /\/diagram\/png(\?|$)/.test(a.pathname + a.search)) {
        window.location.assign(a.href); // a page that offers the SVG, the PDF or a branch
        return;
      }
      if (!res.ok) {
        let msg = `The download failed (${res.status}).`;
        try { msg = (await res.json()).error.message || msg; } catch { /* not JSON */ }
        flash(msg, true);
        return;
      }
      const name = /filename="?([^";]+)"?/.exec(res.headers.get("Content-Disposition") || "")?.[1] || a.getAttribute("download") || "download";
      const url = URL.createObjectURL(await res.blob());
      const tmp = document.createElement("a");
      tmp.href = url;
      tmp.download = decodeURIComponent(name);
      document.body.append(tmp);
      tmp.click();
      tmp.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    } catch {
      flash("The download failed: the server could not be reached.", true);
    } finally {
      a.removeAttribute("aria-busy");
    }
  });

  function connectLive() {
    const box = document.getElementById("presence");
    if (!box || !window.EventSource) return;
    const es = new EventSource(box.dataset.events);
    let opened = false;
    es.addEventListener("open", () => {
      if (opened) applyChange({ kind: "tree" }); // reconnected: catch up on what was missed
      opened = true;
    });
    es.addEventListener("presence", (e) => showPresence(box, JSON.parse(e.data)));
    es.addEventListener("change", (e) => {
      const ch = JSON.parse(e.data);
      if (ch.client !== clientID) applyChange(ch);
    });
  }
  document.addEventListener("DOMContentLoaded", connectLive);

  // A Copy button copies the field it names, and says so.
  document.addEventListener("click", async (e) => {
    const b = e.target.closest?.("[data-copy]");
    const field = b && document.getElementById(b.dataset.copy);
    if (!field) return;
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      document.execCommand("copy"); // no clipboard API outside https and localhost
    }
    b.textContent = "Copied";
    setTimeout(() => { b.textContent = "Copy"; }, 2000);
  });

  // Invite and share links are selected whole on focus, for copying.
  document.addEventListener("focusin", (e) => {
    if (e.target.matches && e.target.matches("[data-select-all]")) e.target.select();
  });
})();
