package web

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/internal/sitegen"
	"siteplan/site"
)

// TestBrowserKeyboardTo500th is a keyboard-only run through a
// 10,111-page plan: log in, open the plan, expand it whole, go down 499
// rows (past the first chunk the outline was sent, so the rows that
// follow are loaded as the keyboard gets there) and rename the 500th
// page. Nothing is clicked; the test reads the page only to know where
// the focus is.
func TestBrowserKeyboardTo500th(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	pid, err := db.Projects.ImportDocument(bg, 1, sitegen.Document("Keyboard", 10, 10, 99))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := db.Pages.Tree(bg, pid)
	if err != nil {
		t.Fatal(err)
	}
	var order []int64 // the rows of the whole outline, in order
	tr.Walk(func(pg *site.Page, _ int) bool { order = append(order, pg.ID); return true })
	target := order[499]

	tab := chromedp.KeyEvent(kb.Tab)
	back := chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(input.ModifierShift))
	// press presses key until the focused element matches sel, at most
	// max times.
	press := func(step string, key chromedp.Action, sel string, max int) {
		t.Helper()
		for i := 0; ; i++ {
			var there bool
			run(t, ctx, step, chromedp.Evaluate(`!!document.activeElement?.matches(`+strconv.Quote(sel)+`)`, &there))
			if there {
				return
			}
			if i == max {
				t.Fatalf("%s: not there after %d presses", step, max)
			}
			run(t, ctx, step, key)
		}
	}

	kctx := otherBrowser(t, ctx) // no session: the login page
	ctx = kctx
	run(t, ctx, "open the login page",
		chromedp.Navigate(base+"/login"),
		chromedp.WaitVisible(`#login-form`),
		waitJS(`document.activeElement.id === "f-email"`),
		chromedp.KeyEvent("olive@test.example"),
		tab,
		waitJS(`document.activeElement.id === "f-password"`),
		chromedp.KeyEvent(testPassword+kb.Enter),
		chromedp.WaitVisible(`.account`),
	)
	press("Tab to the plan", tab, fmt.Sprintf(`a[href="/projects/%d"]`, pid), 40)
	run(t, ctx, "open it: the editor, collapsed below level 2",
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(`#summary`),
		settled(),
	)
	press("Tab to the skip link", tab, "a.skip-link", 3)
	run(t, ctx, "skip to the outline", chromedp.KeyEvent(kb.Enter), waitJS(`document.activeElement.id === "title-`+itoa(order[0])+`"`))
	press("Shift+Tab back to the level", back, `select[name=level]`, 15)
	run(t, ctx, "expand to all levels: the first rows come, the rest will follow",
		chromedp.KeyEvent(kb.End),
		waitJS(`document.querySelector("select[name=level]").value === "99" && document.querySelector("#outline li.node-more") && !document.querySelector("#outline li.node.collapsed")`),
		settled(),
	)
	press("Tab back into the outline", tab, `#outline a.title`, 15)
	var at string
	run(t, ctx, "the row the outline was left on", chromedp.Evaluate(`document.activeElement.id`, &at))
	if at != "title-"+itoa(order[0]) {
		t.Fatalf("Tab came back to %s, want the first row", at)
	}
	for i := 1; i < 500; i++ {
		want := "title-" + itoa(order[i])
		run(t, ctx, "↓", chromedp.KeyEvent(kb.ArrowDown), chromedp.Evaluate(`document.activeElement.id`, &at))
		if at != want { // the rows below were still on their way
			run(t, ctx, fmt.Sprintf("↓ to row %d", i+1), waitJS(`document.activeElement.id === `+strconv.Quote(want)))
		}
	}
	run(t, ctx, "rename the 500th page",
		chromedp.KeyEvent(kb.F2),
		waitJS(`document.activeElement.matches("#outline input.title-field")`),
		chromedp.KeyEvent("Renamed by keyboard"+kb.Enter),
		waitJS(`document.getElementById("title-`+itoa(target)+`")?.textContent === "Renamed by keyboard"`),
		settled(),
	)
	// The outline shows a rename at once; the write queue saves it after
	// (a fetch of its own, which settled() does not see): wait for it.
	waitFor(t, func() bool {
		pg, err := db.Pages.Page(bg, target)
		return err == nil && pg.Title == "Renamed by keyboard"
	}, "the 500th page's rename to reach the database")
	var rows int
	run(t, ctx, "count the rows", chromedp.Evaluate(`document.querySelectorAll("#outline li.node").length`, &rows))
	if rows < 500 || rows >= len(order) {
		t.Errorf("the outline holds %d rows, want the chunks loaded so far (≥ 500, < %d)", rows, len(order))
	}
	noProblems(t, ctx, "keyboard run")
}

// TestBrowserOutlineMore: a long outline comes a chunk at a time. ↓ on
// the last row loaded, far from the view's edge, loads the rows that
// follow and goes to the next; scrolling to the end loads every row,
// each once, in the plan's order.
func TestBrowserOutlineMore(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	pid, err := db.Projects.ImportDocument(bg, 1, sitegen.Document("Long", 3, 4, 99)) // 1,204 pages
	if err != nil {
		t.Fatal(err)
	}
	tr, err := db.Pages.Tree(bg, pid)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	tr.Walk(func(pg *site.Page, _ int) bool { order = append(order, "node-"+itoa(pg.ID)); return true })
	last := order[outlineChunk-1]
	var rows int
	run(t, ctx, "open the plan expanded whole: the first chunk",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=99", base, pid)),
		chromedp.WaitVisible(`#summary`),
		settled(),
		chromedp.Evaluate(`document.querySelectorAll("#outline li.node").length`, &rows),
	)
	if rows != outlineChunk {
		t.Fatalf("the outline opened with %d rows, want the first %d", rows, outlineChunk)
	}
	// The rows that follow fail to come (the server refuses the address):
	// the key stays on its row, the page answers, the "more" row stays.
	var stayed bool
	run(t, ctx, "↓ on the last row loaded when its rows cannot come",
		waitJS(`!!document.querySelector("#`+last+` + li.node-more")?.dataset.watched`),
		chromedp.Evaluate(`{ const m = document.querySelector("#`+last+` + li.node-more"); m.dataset.good = m.dataset.more; m.dataset.more = m.dataset.more.replace("placement=main", "placement=sideways");
			document.querySelector("#`+last+` > .row a.title").focus({preventScroll: true}); document.querySelector("#outline").scrollTop = 0; 1 }`, nil),
		chromedp.KeyEvent(kb.ArrowDown),
		waitJS(`!!window.__trail.find(s => s.includes("htmx:afterRequest") && s.includes("placement=sideways") && s.includes(" 422 "))`),
		settled(),
		chromedp.Evaluate(`document.activeElement.closest("li.node")?.id === `+strconv.Quote(last)+` && !!document.querySelector("#`+last+` + li.node-more")`, &stayed),
	)
	if !stayed {
		t.Errorf("after the rows failed to come, the key left its row or the more row went")
	}
	run(t, ctx, "↓ again, the rows come: the key goes on to the next",
		chromedp.Evaluate(`{ const m = document.querySelector("#`+last+` + li.node-more"); m.dataset.more = m.dataset.good; 1 }`, nil),
		chromedp.KeyEvent(kb.ArrowDown),
		waitJS(`document.activeElement.closest("li.node")?.id === `+strconv.Quote(order[outlineChunk])),
	)
	// The rows came in the place of the row that loaded them, so the
	// swap's events went to a row no longer on the page: their own "more"
	// rows are watched all the same, nothing else having happened since.
	var watched bool
	var sized bool
	run(t, ctx, "the next chunk's more rows are watched",
		chromedp.Evaluate(`[...document.querySelectorAll("#outline li.node-more")].every(li => li.dataset.watched)`, &watched),
		// A list not laid out yet is as tall as its rows: 99 rows of 1.65rem.
		chromedp.Evaluate(`(() => { const h = parseFloat(getComputedStyle(document.querySelector("#outline ul.children[data-rows='99']")).containIntrinsicHeight.replace("auto ", ""));
			return Math.abs(h - 99 * 1.65 * parseFloat(getComputedStyle(document.documentElement).fontSize)) < 1; })()`, &sized))
	if !sized {
		t.Errorf("a list's height before it is laid out is not its rows' (data-rows)")
	}
	if !watched {
		t.Errorf("the more rows of the rows ↓ loaded are not watched: scrolling to them would load nothing")
	}
	for i := 0; i < 10; i++ {
		var more bool
		run(t, ctx, "scroll to the end", chromedp.Evaluate(`(() => { const m = window.__more = document.querySelector("#outline li.node-more"); m?.scrollIntoView(); return !!m; })()`, &more))
		if !more {
			break
		}
		run(t, ctx, "the rows that follow come in its place", waitJS(`!window.__more.isConnected`), settled())
	}
	var got []string
	run(t, ctx, "read the rows", chromedp.Evaluate(`[...document.querySelectorAll("#outline li.node")].map(li => li.id)`, &got))
	if fmt.Sprint(got) != fmt.Sprint(order) {
		t.Errorf("after scrolling to the end the outline holds %d rows, want the plan's %d in order", len(got), len(order))
	}
	noProblems(t, ctx, "outline in chunks")
}
