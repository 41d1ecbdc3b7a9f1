package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
)

// wrappedTitles lists the outline titles that wrap to one word a line
// (or to more than two lines), with their widths.
const wrappedTitles = `[...document.querySelectorAll('#outline a.title')].filter(a => a.offsetParent !== null).flatMap(a => {
	const r = document.createRange();
	r.selectNodeContents(a);
	const lines = new Set([...r.getClientRects()].map(b => Math.round(b.top))).size;
	const words = a.textContent.trim().split(/\s+/).length;
	return lines > 2 || (lines > 1 && lines >= words) ? [a.textContent + ' (' + lines + ' lines, ' + Math.round(a.getBoundingClientRect().width) + ' px)'] : [];
})`

// paneWidths is the width of each pane on screen (0: hidden).
const paneWidths = `(() => {
	const w = (id) => Math.round(document.getElementById(id).getBoundingClientRect().width);
	return {Outline: w('outline'), Diagram: w('diagram'), Details: w('details')};
})()`

type widths struct{ Outline, Diagram, Details float64 }

// TestBrowserLaptopLayout opens a plan with long titles, deep branches
// and every chip on a 1280x720 screen with the diagram and the details
// open: no title wraps a word a line, the diagram is wide enough to read,
// the splitter resizes the outline (and is remembered), and hiding the
// details gives their room to the diagram.
func TestBrowserLaptopLayout(t *testing.T) {
	ctx, base, db := browser(t)
	chips := func(title string, kids ...*site.DocPage) *site.DocPage {
		return &site.DocPage{Title: title, Type: "landing page", Assignee: "Maria Schmidt", Status: "in_progress", Children: kids}
	}
	doc := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "Laptop", BaseURL: "https://laptop.example/"},
		Pages: []*site.DocPage{{Title: "Home", Slug: ptr(""), Children: []*site.DocPage{
			chips("Products and services for small businesses",
				chips("Accounting software for freelancers and agencies",
					chips("Frequently asked questions about invoicing and taxes",
						chips("How to export your invoices to your accountant"),
						chips("Value added tax across the European Union")))),
			chips("About our company and the people behind it"),
			chips("Contact"),
		}}}}
	pid, err := db.Projects.ImportDocument(context.Background(), 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	run(t, ctx, "a laptop screen", chromedp.EmulateViewport(1280, 720))
	run(t, ctx, "open the plan with the diagram and a page's details",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=99", base, pid)),
		chromedp.WaitVisible(`#outline`),
		chromedp.Evaluate(`localStorage.clear()`, nil),
		chromedp.Reload(), chromedp.WaitVisible(`#outline`),
		titleShown("Value added tax across the European Union"),
		chromedp.Click(titleSel("Value added tax across the European Union"), chromedp.BySearch),
		chromedp.WaitVisible(`#f-title`),
		chromedp.Click(`[data-diagram-toggle]`),
		chromedp.WaitVisible(`#diagram svg`),
		settled(),
	)
	run(t, ctx, "the page type field offers the plan's types once focused",
		chromedp.Focus(`#f-type`),
		waitJS(`[...document.querySelectorAll("#page-types option")].some(o => o.value === "landing page")`),
	)
	screenshot(t, ctx, "laptop.png")
	var w widths
	var wrapped []string
	run(t, ctx, "measure", chromedp.Evaluate(paneWidths, &w), chromedp.Evaluate(wrappedTitles, &wrapped))
	if len(wrapped) > 0 {
		t.Errorf("titles wrapped a word a line at 1280x720 (panes %+v):\n%v", w, wrapped)
	}
	if w.Outline < 300 || w.Diagram < 480 || w.Details < 280 {
		t.Errorf("pane widths at 1280x720 = %+v, want the outline at least 300, the diagram 480, the details 280", w)
	}

	// Drag the splitter 120 px to the right.
	var sp point
	run(t, ctx, "find the splitter", chromedp.Evaluate(`(() => { const b = document.querySelector('.panes > .splitter').getBoundingClientRect(); return {X: b.left + b.width / 2, Y: b.top + 40}; })()`, &sp))
	run(t, ctx, "drag the splitter",
		chromedp.MouseEvent(input.MousePressed, sp.X, sp.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, sp.X+60, sp.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, sp.X+120, sp.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseReleased, sp.X+120, sp.Y, chromedp.ButtonLeft),
	)
	var wider widths
	run(t, ctx, "measure", chromedp.Evaluate(paneWidths, &wider))
	if d := wider.Outline - w.Outline; d < 115 || d > 125 {
		t.Errorf("dragging the splitter 120 px widened the outline by %g px (%+v -> %+v)", d, w, wider)
	}
	if wider.Diagram >= w.Diagram {
		t.Errorf("the diagram did not give up the room: %+v -> %+v", w, wider)
	}
	run(t, ctx, "the arrow keys on the splitter", chromedp.Focus(`.panes > .splitter`), chromedp.KeyEvent(kb.ArrowLeft))
	var keyed widths
	run(t, ctx, "measure", chromedp.Evaluate(paneWidths, &keyed))
	if d := wider.Outline - keyed.Outline; d < 30 || d > 34 {
		t.Errorf("← on the splitter narrowed the outline by %g px, want 32", d)
	}

	run(t, ctx, "hide the details", chromedp.Click(`[data-details-toggle]`))
	var hidden widths
	run(t, ctx, "measure", chromedp.Evaluate(paneWidths, &hidden), chromedp.Evaluate(wrappedTitles, &wrapped))
	if hidden.Details != 0 || hidden.Diagram < keyed.Diagram+keyed.Details {
		t.Errorf("hiding the details: panes %+v -> %+v, want the details' room given to the diagram", keyed, hidden)
	}
	screenshot(t, ctx, "laptop-no-details.png")

	run(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(`#outline`), titleShown("Contact"),
		chromedp.Click(`[data-diagram-toggle]`), chromedp.WaitVisible(`#diagram svg`))
	var again widths
	var pressed string
	run(t, ctx, "measure", chromedp.Evaluate(paneWidths, &again), chromedp.AttributeValue(`[data-details-toggle]`, "aria-pressed", &pressed, nil))
	if again.Outline != keyed.Outline || again.Details != 0 || pressed != "false" {
		t.Errorf("after a reload: panes %+v, Details pressed %s; want the outline %g wide and the details hidden", again, pressed, keyed.Outline)
	}
	run(t, ctx, "show the details again", chromedp.Click(`[data-details-toggle]`), chromedp.Evaluate(paneWidths, &again))
	if again.Details < 280 {
		t.Errorf("the details did not come back: %+v", again)
	}

	// A page's details scrolled to their end, then History: it opens at
	// its heading, not where the details were scrolled to; so does the
	// Summary after it.
	for i := range 12 { // a History longer than the panel
		pg := site.NewPage(fmt.Sprintf("Landing page %d", i))
		pg.ProjectID, pg.Position = pid, -1
		if err := db.Pages.CreatePage(context.Background(), &pg); err != nil {
			t.Fatal(err)
		}
	}
	run(t, ctx, "a short window, so the History and the Summary scroll too", chromedp.EmulateViewport(1280, 420))
	for _, open := range []struct{ button, heading string }{{"#history-button", "#history h2"}, {`button[hx-get$="/summary"][hx-target="#details"]`, "#summary h2"}} {
		run(t, ctx, "open "+open.heading+" from details scrolled down",
			chromedp.Click(titleSel("Contact"), chromedp.BySearch),
			chromedp.WaitVisible(`#f-title`),
			settled(),
			chromedp.Evaluate(`(d => { d.scrollTop = d.scrollHeight; return d.scrollTop > 0; })(document.getElementById("details"))`, nil),
			waitJS(`document.getElementById("details").scrollTop > 0`),
			chromedp.Click(open.button),
			chromedp.WaitVisible(open.heading),
			settled(),
			waitJS(`document.getElementById("details").scrollTop === 0`),
			waitJS(`(d => d.scrollHeight > d.clientHeight)(document.getElementById("details"))`), // it could have stayed down
		)
	}
	noProblems(t, ctx, "laptop layout")
}

// TestBrowserPanesScroll: at 1280x720, working down a long outline with
// the keyboard scrolls the outline pane, not the window: the toolbar stays
// in view, and so do the diagram and the details beside it.
func TestBrowserPanesScroll(t *testing.T) {
	ctx, base, db := browser(t)
	pid := longPlan(t, db, "Panes", 80)
	run(t, ctx, "open a long plan on a laptop with the diagram",
		chromedp.EmulateViewport(1280, 720),
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=2", base, pid)),
		chromedp.WaitVisible(`#outline`), titleShown("Page 79"), settled(),
		chromedp.Click(`[data-diagram-toggle]`), chromedp.WaitVisible(`#diagram svg`),
		chromedp.Click(titleSel("Page 0"), chromedp.BySearch), chromedp.WaitVisible(`#f-title`), settled(),
		chromedp.Focus(titleSel("Page 0"), chromedp.BySearch),
		chromedp.KeyEvent(kb.End), // the last row
		waitJS(`document.activeElement?.textContent === "Page 79"`),
		waitJS(`document.getElementById("outline").scrollTop > 0`),
	)
	screenshot(t, ctx, "panes-scrolled.png")
	var got struct {
		WindowY, Toolbar, Diagram, Details, Last, Bottom float64
	}
	run(t, ctx, "measure", chromedp.Evaluate(`(() => {
		const top = (s) => document.querySelector(s).getBoundingClientRect().top;
		return {WindowY: scrollY, Toolbar: top(".toolbar"), Diagram: top("#diagram"), Details: top("#details"),
			Last: document.activeElement.getBoundingClientRect().bottom, Bottom: innerHeight};
	})()`, &got))
	if got.WindowY != 0 || got.Toolbar < 0 || got.Diagram < 0 || got.Details < 0 {
		t.Errorf("at the end of a long outline: window scrolled %g px, toolbar at %g, diagram at %g, details at %g; want the window still and all three in view",
			got.WindowY, got.Toolbar, got.Diagram, got.Details)
	}
	if got.Last > got.Bottom {
		t.Errorf("the selected last row ends at %g, below the window (%g)", got.Last, got.Bottom)
	}
	noProblems(t, ctx, "panes scroll")
}

// TestBrowserDiagramOpensReadable opens a 61-page relaunch plan's diagram
// beside Details on a 1280x720 screen: whole it would print its titles 3
// px high; it opens with them 6 px or more, the home page in view; "Fit"
// then shows every card of the main tree inside the window.
func TestBrowserDiagramOpensReadable(t *testing.T) {
	ctx, base, db := browser(t)
	doc, err := site.ReadDocumentFile("../diagram/testdata/relaunch61.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.Projects.ImportDocument(context.Background(), 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := db.Pages.Tree(context.Background(), pid)
	if err != nil {
		t.Fatal(err)
	}
	var main []string
	tr.Walk(func(p *site.Page, _ int) bool {
		if p.Placement == site.PlacementMain {
			main = append(main, strconv.FormatInt(p.ID, 10))
		}
		return true
	})
	run(t, ctx, "open the diagram on a laptop",
		chromedp.EmulateViewport(1280, 720),
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		chromedp.WaitVisible(`#outline`),
		chromedp.Evaluate(`localStorage.clear()`, nil),
		chromedp.Reload(), chromedp.WaitVisible(`#outline`),
		chromedp.Click(`[data-diagram-toggle]`),
		chromedp.WaitVisible(`#diagram svg`),
		settled(),
	)
	measure := fmt.Sprintf(`(() => {
		const c = document.querySelector('#diagram .diagram-canvas').getBoundingClientRect();
		const inView = (g) => { const r = g.getBoundingClientRect(); return r.left >= c.left - 1 && r.right <= c.right + 1 && r.top >= c.top - 1 && r.bottom <= Math.min(c.bottom, innerHeight) + 1; };
		const cards = [%s].map(id => document.querySelector('#diagram svg g.node#p' + id));
		const title = [...cards[0].querySelectorAll('text')].find(t => t.textContent === 'Home');
		return {Title: title.getBoundingClientRect().height, Home: inView(cards[0]), All: cards.every(inView)};
	})()`, strings.Join(main, ","))
	var opened struct {
		Title     float64
		Home, All bool
	}
	run(t, ctx, "measure", chromedp.Evaluate(measure, &opened))
	if opened.Title < 6 || !opened.Home {
		t.Errorf("the diagram opens with %+v, want the home page in view, its title 6 px high or more", opened)
	}
	run(t, ctx, "Fit", chromedp.Click(`#diagram [data-zoom=fit]`), waitJS(measure+`.All`))
}
