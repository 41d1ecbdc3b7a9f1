package web

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
	"siteplan/store"
)

// The canvas's state, as the tests read it: from the SVG's elements
// where the drawing is an SVG, else from the scene's drawing.
const (
	canvasJS     = `document.querySelector('#diagram .diagram-canvas')`
	drawingJS    = canvasJS + `?.drawing`
	canvasFocus  = `document.activeElement === ` + canvasJS
	pickedCardJS = `(` + drawingJS + `?.marked('selected') || '')`
	canvasField  = `input.canvas-field`
	// rectJS is a function of a page id: where its card is on screen, or
	// null when it is not drawn.
	rectJS = `((id) => {
		const c = ` + canvasJS + `, g = c?.querySelector('svg g.node[id="p' + id + '"]');
		if (g) return g.getBoundingClientRect();
		const b = c?.drawing?.boxes().byID.get(String(id));
		if (!b) return null;
		const r = c.getBoundingClientRect(), v = c.view, left = r.left + c.clientLeft + v.x + b.x * v.k, top = r.top + c.clientTop + v.y + b.y * v.k;
		return {left, top, width: b.w * v.k, height: b.h * v.k, right: left + b.w * v.k, bottom: top + b.h * v.k};
	})`
)

// cardJS is a script expression: where the card of page id is on
// screen, or null.
func cardJS(id int64) string { return fmt.Sprintf(`%s(%d)`, rectJS, id) }

// goneJS is a script expression: the drawing is in (a scene is fetched
// after its pane) and has no card of page id.
func goneJS(id int64) string { return fmt.Sprintf(`(!!%s && !%s)`, drawingJS, cardJS(id)) }

// wordsJS is a script expression: the words on the card of page id.
func wordsJS(id string) string { return fmt.Sprintf(`(%s?.words(%s) || "")`, drawingJS, id) }

// centredJS is a script expression: is the card of page id in the
// middle of the canvas?
func centredJS(id int64) string {
	return fmt.Sprintf(`(() => { const c = %s.getBoundingClientRect(), r = %s;
		return Math.abs((r.left + r.right) / 2 - (c.left + c.right) / 2) < 2 && Math.abs((r.top + r.bottom) / 2 - (c.top + c.bottom) / 2) < 2; })()`, canvasJS, cardJS(id))
}

// cardPoint is a point on the card of page id, fx and fy of the way
// across and down it, once the card is drawn.
func cardPoint(t *testing.T, ctx context.Context, id int64, fx, fy float64) point {
	t.Helper()
	var p point
	run(t, ctx, fmt.Sprintf("find the card of page %d", id),
		settled(), // no drawing on its way in
		waitJS(`!!`+cardJS(id)),
		chromedp.Evaluate(fmt.Sprintf(`(() => { const r = %s; return {X: r.left + r.width * %g, Y: r.top + r.height * %g}; })()`, cardJS(id), fx, fy), &p))
	return p
}

// pickedIs waits until the canvas has the keyboard and page id is the
// selected card.
func pickedIs(id int64) chromedp.Action {
	return waitJS(fmt.Sprintf(`%s && %s === "%d"`, canvasFocus, pickedCardJS, id))
}

// dragCard presses the mouse on a card at from, starts a drag and moves
// to to, as a hand does; the button stays down.
func dragCard(t *testing.T, ctx context.Context, step string, from, to point) {
	t.Helper()
	run(t, ctx, step,
		chromedp.MouseEvent(input.MousePressed, from.X, from.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, from.X+6, from.Y+6, chromedp.ButtonLeft),
		waitJS(`document.body.classList.contains('dragging')`),
	)
	moveTo(t, ctx, from, to)
}

// titled is the page of project pid titled title, or nil.
func titled(t *testing.T, db *store.Store, pid int64, title string) *site.Page {
	t.Helper()
	tr, err := db.Pages.Tree(context.Background(), pid)
	if err != nil {
		t.Fatal(err)
	}
	var found *site.Page
	tr.Walk(func(p *site.Page, _ int) bool {
		if p.Title == title {
			found = p
		}
		return found == nil
	})
	return found
}

// pageOf reads a page from the store.
func pageOf(t *testing.T, db *store.Store, id int64) site.Page {
	t.Helper()
	pg, err := db.Pages.Page(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return pg
}

// TestBrowserCanvas edits a plan on the diagram alone: a click selects a
// card and keeps the keyboard on the canvas, arrows walk the cards, F2
// renames in place, Shift+Enter and a hover handle add pages, a drag
// reparents (and Esc cancels one) or reorders, Alt+↓ moves, Ctrl+Z
// undoes, Del deletes, Space folds a branch, a comment badge opens the
// thread, and zooming asks the server for nothing. All of it holds for
// the SVG a small plan is drawn as and for the scene of a big one.
func TestBrowserCanvas(t *testing.T) {
	for _, paint := range []string{"svg", "scene"} {
		t.Run(paint, func(t *testing.T) { testCanvas(t, paint) })
	}
}

func testCanvas(t *testing.T, paint string) {
	ctx, base, db := browser(t)
	pid, ids := (&client{t: t, db: db}).fixture()
	c := site.Comment{ProjectID: pid, PageID: ids["Contact"], Author: "Client", Body: "Add a map?"}
	if err := db.Comments.AddComment(context.Background(), &c, 0); err != nil {
		t.Fatal(err)
	}
	pricing, products, about, home := ids["Pricing"], ids["Products"], ids["About us"], ids["Home"]
	run(t, ctx, "open the editor with the diagram",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=3&paint=%s", base, pid, paint)),
		chromedp.WaitVisible(`#outline`),
		chromedp.Click(`[data-diagram-toggle]`),
		waitJS(`!!`+cardJS(pricing)),
		settled(),
		waitJS(fmt.Sprintf(`!!%s.querySelector(%q)`, canvasJS, map[string]string{"svg": "svg", "scene": "canvas.diagram-scene"}[paint])),
	)

	// A click selects the card: the details and the outline follow, and
	// the keyboard stays on the canvas.
	at := cardPoint(t, ctx, pricing, 0.5, 0.6)
	run(t, ctx, "click Pricing on the canvas",
		chromedp.MouseClickXY(at.X, at.Y),
		pickedIs(pricing),
		waitJS(fmt.Sprintf(`document.getElementById('details-inner')?.dataset.page === "%d"`, pricing)),
		waitJS(fmt.Sprintf(`!!document.querySelector('#node-%d > .row.selected')`, pricing)),
	)

	// Arrows walk the drawing: up from Pricing is the card above it.
	var above bool
	run(t, ctx, "press ↑",
		chromedp.KeyEvent(kb.ArrowUp),
		waitJS(fmt.Sprintf(`%s !== "%d"`, pickedCardJS, pricing)),
		chromedp.Evaluate(fmt.Sprintf(`%s(%s).bottom <= %s.top`, rectJS, pickedCardJS, cardJS(pricing)), &above),
	)
	if !above {
		t.Error("↑ from Pricing selected a card that is not above it")
	}
	run(t, ctx, "press ↓ back to Pricing", chromedp.KeyEvent(kb.ArrowDown), pickedIs(pricing))

	// F2 renames in place: a field over the card; Enter saves it and
	// gives the keyboard back to the canvas.
	run(t, ctx, "rename Pricing with F2",
		chromedp.KeyEvent(kb.F2),
		waitJS(`document.activeElement?.matches('`+canvasField+`') && document.activeElement.value === "Pricing"`),
		chromedp.KeyEvent("Plans"+kb.Enter),
		waitJS(canvasFocus),
		waitJS(wordsJS(fmt.Sprint(pricing))+`.includes("Plans")`),
		titleShown("Plans"),
	)
	if got := pageOf(t, db, pricing).Title; got != "Plans" {
		t.Fatalf("after F2 on the canvas the page's title is %q, want Plans", got)
	}
	run(t, ctx, "Esc leaves a rename unsaved",
		pickedIs(pricing),
		chromedp.KeyEvent(kb.F2),
		waitJS(`!!document.querySelector('`+canvasField+`')`),
		chromedp.KeyEvent("Nope"),
		chromedp.KeyEvent(kb.Escape),
		waitJS(canvasFocus+` && !document.querySelector('`+canvasField+`')`),
	)

	// Shift+Enter adds a child: typed on the canvas, drawn and selected.
	run(t, ctx, "add a child with Shift+Enter",
		pickedIs(pricing),
		chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(input.ModifierShift)),
		waitJS(`document.activeElement?.matches('`+canvasField+`') && document.activeElement.value === ""`),
		chromedp.KeyEvent("Plan FAQ"+kb.Enter),
		titleShown("Plan FAQ"),
		waitJS(wordsJS(pickedCardJS)+`.includes("Plan FAQ")`),
		waitJS(canvasFocus),
	)
	faqPage := titled(t, db, pid, "Plan FAQ")
	if faqPage == nil || faqPage.ParentID != pricing {
		t.Fatalf("Shift+Enter on Plans made %+v, want a page Plan FAQ under it", faqPage)
	}
	faq := faqPage.ID

	// A hover handle adds a page after the card.
	hover := cardPoint(t, ctx, about, 0.5, 0.5)
	run(t, ctx, "hover About us and press its add-after handle",
		chromedp.MouseEvent(input.MouseMoved, hover.X, hover.Y),
		waitJS(fmt.Sprintf(`(() => { const h = document.querySelector('#diagram .canvas-handles'); return h && !h.hidden && h.dataset.id === "%d"; })()`, about)),
		clickAt(`#diagram .canvas-handles [data-act=after]`),
		waitJS(`document.activeElement?.matches('`+canvasField+`')`),
		chromedp.KeyEvent("Careers"+kb.Enter),
		titleShown("Careers"),
		waitJS(drawingJS+`?.boxes().list.some((b) => `+wordsJS("b.id")+`.includes("Careers"))`),
	)
	if careers := titled(t, db, pid, "Careers"); careers == nil || careers.ParentID != home || careers.Position != pageOf(t, db, about).Position+1 {
		t.Fatalf("the add-after handle of About us made %+v, want a page under Home right after About us", careers)
	}
	screenshot(t, ctx, "canvas-edit-"+paint+".png")

	// Dragging a card and pressing Esc moves nothing.
	from := cardPoint(t, ctx, faq, 0.5, 0.5)
	to := cardPoint(t, ctx, about, 0.5, 0.5)
	dragCard(t, ctx, "drag Plan FAQ onto About us, then Esc", from, to)
	run(t, ctx, "see where it lands",
		waitJS(fmt.Sprintf(`%s?.marked('drop-inside') === "%d"`, drawingJS, about)))
	screenshot(t, ctx, "canvas-drag-"+paint+".png")
	run(t, ctx, "press Esc and let go",
		chromedp.KeyEvent(kb.Escape),
		waitJS(`!document.body.classList.contains('dragging') && !`+drawingJS+`.marked('drop-inside') && !`+drawingJS+`.marked('drag-source')`),
		chromedp.MouseEvent(input.MouseReleased, to.X, to.Y, chromedp.ButtonLeft),
	)
	if got := pageOf(t, db, faq).ParentID; got != pricing {
		t.Fatalf("after Esc the dragged page's parent is %d, want %d (unchanged)", got, pricing)
	}

	// Dropped on the middle of a card, the page goes under it.
	from = cardPoint(t, ctx, faq, 0.5, 0.5)
	to = cardPoint(t, ctx, about, 0.5, 0.5)
	dragCard(t, ctx, "drag Plan FAQ onto About us", from, to)
	run(t, ctx, "let go on About us",
		waitJS(fmt.Sprintf(`%s?.marked('drop-inside') === "%d"`, drawingJS, about)),
		chromedp.MouseEvent(input.MouseReleased, to.X, to.Y, chromedp.ButtonLeft),
		waitJS(fmt.Sprintf(`document.getElementById('node-%d')?.parentElement.dataset.parent === "%d"`, faq, about)),
		// redrawn in About us's column, under it (it was under Pricing)
		waitJS(fmt.Sprintf(`(() => { const a = %s, f = %s; return !!a && !!f && f.top > a.bottom && f.left >= a.left - 1 && f.left < a.right; })()`, cardJS(about), cardJS(faq))),
	)
	waitFor(t, func() bool { return pageOf(t, db, faq).ParentID == about }, "Plan FAQ saved under About us")

	// Dropped near the edge of a card, along its siblings, it goes
	// beside it: before Products, under Home.
	from = cardPoint(t, ctx, faq, 0.5, 0.5)
	to = cardPoint(t, ctx, products, 0.08, 0.5)
	dragCard(t, ctx, "drag Plan FAQ to the left edge of Products", from, to)
	run(t, ctx, "let go before Products",
		waitJS(`!document.querySelector('.drop-line.canvas-drop').hidden`),
		chromedp.MouseEvent(input.MouseReleased, to.X, to.Y, chromedp.ButtonLeft),
	)
	waitFor(t, func() bool {
		p := pageOf(t, db, faq)
		return p.ParentID == home && p.Position == pageOf(t, db, products).Position-1
	}, "Plan FAQ saved under Home just before Products")

	// Alt+↓ moves the selected page, Ctrl+Z undoes that, Del deletes it.
	at = cardPoint(t, ctx, faq, 0.5, 0.6)
	run(t, ctx, "select Plan FAQ and move it with Alt+↓",
		chromedp.MouseClickXY(at.X, at.Y),
		pickedIs(faq),
		chromedp.KeyEvent(kb.ArrowDown, chromedp.KeyModifiers(input.ModifierAlt)),
	)
	waitFor(t, func() bool { return pageOf(t, db, faq).Position == pageOf(t, db, products).Position+1 }, "Plan FAQ saved after Products")
	run(t, ctx, "undo with Ctrl+Z", waitJS(canvasFocus), chromedp.KeyEvent("z", chromedp.KeyModifiers(input.ModifierCtrl)))
	waitFor(t, func() bool { return pageOf(t, db, faq).Position == pageOf(t, db, products).Position-1 }, "Plan FAQ back before Products")
	run(t, ctx, "delete it with Del",
		settled(),
		waitJS(canvasFocus),
		pickedIs(faq), // Ctrl+Z selected the page it undid
		chromedp.KeyEvent(kb.Delete),
		waitJS(goneJS(faq)),
	)
	if _, err := db.Pages.Page(context.Background(), faq); site.ErrorCode(err) != site.ENotFound {
		t.Fatalf("after Del on the canvas Plan FAQ is still there (%v)", err)
	}

	// Space folds a branch on the canvas and unfolds it again.
	run(t, ctx, "select Home and fold it with Space",
		waitJS(`!!`+cardJS(home)),
		chromedp.ActionFunc(func(ctx context.Context) error {
			p := cardPoint(t, ctx, home, 0.5, 0.6)
			return chromedp.MouseClickXY(p.X, p.Y).Do(ctx)
		}),
		pickedIs(home),
		chromedp.KeyEvent(" "),
		waitJS(fmt.Sprintf(`%s && document.getElementById('node-%d').classList.contains('collapsed')`, goneJS(about), home)),
		waitJS(canvasFocus),
		chromedp.KeyEvent(" "),
		waitJS(`!!`+cardJS(about)),
	)

	// Zooming is a transform: no request goes to the server.
	var requests, after int
	var k0, k1 float64
	run(t, ctx, "zoom with keys and the wheel",
		settled(),
		chromedp.Evaluate(`performance.getEntriesByType('resource').length`, &requests),
		chromedp.Evaluate(canvasJS+`.view.k`, &k0),
		chromedp.KeyEvent("+"),
		chromedp.KeyEvent("+"),
		chromedp.ActionFunc(func(ctx context.Context) error {
			var p point
			if err := chromedp.Evaluate(`(() => { const r = `+canvasJS+`.getBoundingClientRect(); return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`, &p).Do(ctx); err != nil {
				return err
			}
			if err := input.DispatchMouseEvent(input.MouseWheel, p.X, p.Y).WithDeltaY(-100).Do(ctx); err != nil {
				return err
			}
			return waitJS(fmt.Sprintf(`%s.view.k > %g`, canvasJS, k0*1.25*1.25*1.1)).Do(ctx)
		}),
		chromedp.Evaluate(canvasJS+`.view.k`, &k1),
		waitJS(`!!document.querySelector('#diagram canvas.minimap:not([hidden])')`),
		chromedp.Evaluate(`performance.getEntriesByType('resource').length`, &after),
	)
	if k1 < k0*1.25*1.25*1.14 {
		t.Errorf("zoom: scale %v, then %v after +, + and a wheel step", k0, k1)
	}
	if after != requests {
		t.Errorf("zooming made %d requests, want none", after-requests)
	}
	screenshot(t, ctx, "canvas-minimap-"+paint+".png")
	var moved bool
	run(t, ctx, "jump with the minimap",
		chromedp.ActionFunc(func(ctx context.Context) error {
			var p point
			if err := chromedp.Evaluate(`(() => { const r = document.querySelector('#diagram canvas.minimap').getBoundingClientRect(); return {X: r.right - 4, Y: r.bottom - 4}; })()`, &p).Do(ctx); err != nil {
				return err
			}
			var x0 float64
			if err := chromedp.Evaluate(canvasJS+`.view.x`, &x0).Do(ctx); err != nil {
				return err
			}
			if err := chromedp.MouseClickXY(p.X, p.Y).Do(ctx); err != nil {
				return err
			}
			return chromedp.Evaluate(fmt.Sprintf(`%s.view.x < %g`, canvasJS, x0), &moved).Do(ctx)
		}),
	)
	if !moved {
		t.Error("a click in the minimap's bottom right corner did not move the view right")
	}
	run(t, ctx, "zoom to the selected page",
		chromedp.Focus(`#diagram .diagram-canvas`, chromedp.ByQuery),
		chromedp.KeyEvent("!", chromedp.KeyModifiers(input.ModifierShift)),
		chromedp.KeyEvent("@", chromedp.KeyModifiers(input.ModifierShift)),
		waitJS(centredJS(home)),
	)

	// A comment badge opens the page's thread.
	run(t, ctx, "fit, then click Contact's comment badge",
		chromedp.KeyEvent("!", chromedp.KeyModifiers(input.ModifierShift)),
		chromedp.ActionFunc(func(ctx context.Context) error { // not clickAt: scrolling the canvas into view would move the drawing
			var p point
			if err := chromedp.Evaluate(fmt.Sprintf(`(() => {
				const c = %s, g = c.querySelector('svg g.node[id="p%d"] g.badge'), v = c.view, o = c.getBoundingClientRect();
				const b = c.drawing.boxes().byID.get("%d").badge;
				const r = g ? g.getBoundingClientRect() : {left: o.left + c.clientLeft + v.x + b.x * v.k, top: o.top + c.clientTop + v.y + b.y * v.k, width: b.w * v.k, height: b.h * v.k};
				return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`, canvasJS, ids["Contact"], ids["Contact"]), &p).Do(ctx); err != nil {
				return err
			}
			return chromedp.MouseClickXY(p.X, p.Y).Do(ctx)
		}),
		waitJS(fmt.Sprintf(`document.getElementById('details-inner')?.dataset.page === "%d"`, ids["Contact"])),
		waitJS(`document.activeElement?.matches('#comments .thread') && document.activeElement.textContent.includes('Add a map?')`),
	)

	// Graphviz draws the radial layout and moves its whole graph inside
	// the SVG: zooming to a page still centres it.
	run(t, ctx, "draw radially",
		chromedp.Evaluate(canvasJS+`.dataset.old = "1"`, nil),
		chromedp.SetValue(`#diagram select[name=layout]`, "radial"),
		chromedp.Evaluate(`document.querySelector('#diagram select[name=layout]').dispatchEvent(new Event('change', {bubbles: true}))`, nil),
		waitJS(`!`+canvasJS+`.dataset.old && !!`+drawingJS),
	)
	at = cardPoint(t, ctx, home, 0.5, 0.5)
	run(t, ctx, "select Home and zoom to it",
		chromedp.MouseClickXY(at.X, at.Y),
		pickedIs(home),
		chromedp.KeyEvent("@", chromedp.KeyModifiers(input.ModifierShift)),
		waitJS(centredJS(home)),
	)
	noProblems(t, ctx, "the canvas")
}
