package web

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
)

// TestBrowserWriteWhileLoading: an edit goes to the server at once even
// while the diagram is being redrawn. htmx holds back a request made
// while another from the same element is in flight, and drops it when a
// newer one comes; the editor's own requests once all came from the body,
// so a Del pressed during a slow redraw waited behind it and was lost
// when the summary refreshed.
func TestBrowserWriteWhileLoading(t *testing.T) {
	ctx, base, db := browser(t)
	pid, ids := (&client{t: t, db: db}).fixture()
	products, contact := ids["Products"], ids["Contact"]
	run(t, ctx, "open the editor with the diagram",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=3", base, pid)),
		chromedp.WaitVisible(`#outline`),
		chromedp.Click(`[data-diagram-toggle]`),
		waitJS(`!!`+cardJS(products)),
		settled(),
	)

	// The next redraw is held in the browser until the test lets it go.
	held := make(chan fetch.RequestID, 8)
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			held <- e.RequestID
		}
	})
	run(t, ctx, "hold the diagram's requests", fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*/diagram?*"}}))
	run(t, ctx, "fold Products, which redraws the diagram",
		clickAt(fmt.Sprintf(`#node-%d > .row .toggle`, products)),
		waitJS(fmt.Sprintf(`document.getElementById('node-%d').classList.contains('collapsed')`, products)),
	)
	var redraw fetch.RequestID
	select {
	case redraw = <-held:
	case <-time.After(10 * time.Second):
		t.Fatal("folding Products asked for no diagram in 10 s")
	}

	run(t, ctx, "delete Contact with Del while the diagram is held",
		clickAt(fmt.Sprintf(`#title-%d`, contact)),
		waitJS(fmt.Sprintf(`document.activeElement.id === "title-%d"`, contact)),
		chromedp.KeyEvent(kb.Delete),
	)
	waitFor(t, func() bool {
		_, err := db.Pages.Page(context.Background(), contact)
		return site.ErrorCode(err) == site.ENotFound
	}, "Contact deleted while the redraw is held")

	run(t, ctx, "let the redraw go", fetch.ContinueRequest(redraw), fetch.Disable())
	for len(held) > 0 {
		run(t, ctx, "let a later redraw go", fetch.ContinueRequest(<-held))
	}
	run(t, ctx, "the outline and the diagram agree", settled(),
		waitJS(fmt.Sprintf(`!document.getElementById('node-%d') && %s`, contact, goneJS(contact))))
}

// TestBrowserSceneKeepsKeyboard: a big plan's canvas keeps the keyboard
// through redraws, even when a second redraw comes while the first one's
// scene is still on its way (under load, after Ctrl+Z, the keyboard was
// left on the page and the next redraw took the canvas for unfocused);
// and a click on a card of the old picture shown meanwhile selects that
// card once the scene is in (it did nothing).
func TestBrowserSceneKeepsKeyboard(t *testing.T) {
	ctx, base, db := browser(t)
	pid, ids := (&client{t: t, db: db}).fixture()
	pricing, products, about := ids["Pricing"], ids["Products"], ids["About us"]
	run(t, ctx, "open the editor with the diagram as a scene",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=3&paint=scene", base, pid)),
		chromedp.WaitVisible(`#outline`),
		chromedp.Click(`[data-diagram-toggle]`),
		waitJS(`!!`+cardJS(pricing)),
		settled(),
	)
	at := cardPoint(t, ctx, pricing, 0.5, 0.6)
	run(t, ctx, "select Pricing on the canvas", chromedp.MouseClickXY(at.X, at.Y), pickedIs(pricing))
	aboutAt := cardPoint(t, ctx, about, 0.5, 0.6)

	held := make(chan fetch.RequestID, 8)
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			held <- e.RequestID
		}
	})
	wait := func(what string) fetch.RequestID {
		select {
		case id := <-held:
			return id
		case <-time.After(10 * time.Second):
			t.Fatalf("no scene was asked for after %s", what)
		}
		return ""
	}
	toggle := fmt.Sprintf(`document.querySelector('#node-%d > .row .toggle').click()`, products) // a click by script leaves the focus where it is
	run(t, ctx, "hold the scenes; fold Products", fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*/diagram/scene*"}}), chromedp.Evaluate(toggle, nil))
	first := wait("folding Products")
	run(t, ctx, "unfold Products while the first scene is held", chromedp.Evaluate(toggle, nil))
	second := wait("unfolding Products")
	run(t, ctx, "click About us on the old picture", chromedp.MouseClickXY(aboutAt.X, aboutAt.Y))
	run(t, ctx, "let the scenes go", fetch.ContinueRequest(first), fetch.ContinueRequest(second), fetch.Disable())
	run(t, ctx, "the canvas has the keyboard and About us is selected", waitJS(`!!`+cardJS(pricing)), waitJS(canvasFocus), pickedIs(about))
}
