package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
)

// dialogs answers the tab's JavaScript dialogs (confirm, beforeunload)
// with what the test puts in answer, and reports each one's type.
func dialogs(t *testing.T, ctx context.Context) (answer chan bool, opened chan string) {
	answer, opened = make(chan bool, 1), make(chan string, 4)
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			opened <- string(e.Type)
			go func() {
				accept := <-answer
				if err := chromedp.Run(ctx, page.HandleJavaScriptDialog(accept)); err != nil {
					t.Errorf("answering the %s dialog: %v", e.Type, err)
				}
			}()
		}
	})
	return answer, opened
}

func waitDialog(t *testing.T, opened chan string, want string) {
	t.Helper()
	select {
	case got := <-opened:
		if got != want {
			t.Fatalf("a %s dialog opened, want %s", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s dialog opened in 10 s", want)
	}
}

// TestBrowserUnsavedGuard: notes typed in the details are not dropped by
// selecting another page or reloading without asking, and a title being
// typed is saved, not lost, when the user clicks elsewhere.
func TestBrowserUnsavedGuard(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	pid, ids := (&client{t: t, db: db}).fixture() // the sample plan, its page IDs by title
	answer, opened := dialogs(t, ctx)
	shown := func(id int64) chromedp.Action {
		return waitJS(fmt.Sprintf(`document.getElementById('details-inner')?.dataset.page === "%d"`, id))
	}
	run(t, ctx, "type notes on Contact",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=3", base, pid)),
		chromedp.WaitVisible(`#outline`), settled(),
		chromedp.Click(titleSel("Contact"), chromedp.BySearch),
		shown(ids["Contact"]), chromedp.WaitVisible(`#f-notes`), settled(),
		chromedp.SendKeys(`#f-notes`, "Map and opening hours"),
	)

	answer <- false // stay: the answer is given ahead, as a click waits for its dialog
	run(t, ctx, "select Pricing", chromedp.Click(titleSel("Pricing"), chromedp.BySearch))
	waitDialog(t, opened, "confirm")
	var notes string
	run(t, ctx, "the notes stay", settled(), shown(ids["Contact"]), chromedp.Value(`#f-notes`, &notes))
	if !strings.Contains(notes, "Map and opening hours") {
		t.Fatalf("after staying, the notes read %q", notes)
	}

	answer <- false // stay
	run(t, ctx, "reload", chromedp.Evaluate(`setTimeout(() => location.reload(), 0)`, nil))
	waitDialog(t, opened, "beforeunload")
	run(t, ctx, "the notes stay", shown(ids["Contact"]), chromedp.Value(`#f-notes`, &notes))
	if !strings.Contains(notes, "Map and opening hours") {
		t.Fatalf("after staying on reload, the notes read %q", notes)
	}

	answer <- true // leave them
	run(t, ctx, "select Pricing and leave the notes", chromedp.Click(titleSel("Pricing"), chromedp.BySearch))
	waitDialog(t, opened, "confirm")
	run(t, ctx, "Pricing shows", shown(ids["Pricing"]), settled())
	if pg, _ := db.Pages.Page(bg, ids["Contact"]); strings.Contains(pg.Notes, "Map and opening hours") {
		t.Errorf("notes left unsaved were saved: %q", pg.Notes)
	}

	// A title being typed is saved when the user clicks away.
	run(t, ctx, "type a new page, then click another",
		chromedp.Focus(fmt.Sprintf(`#title-%d`, ids["Contact"])),
		chromedp.KeyEvent(kb.Enter),
		waitJS(fieldFocused),
		chromedp.SendKeys(titleField, "Careers"),
		chromedp.Click(titleSel("About us"), chromedp.BySearch),
		shown(ids["About us"]),
		titleShown("Careers"),
		waitJS(`!document.querySelector('#outline li.draft, #outline .pending, #outline input.title-field')`),
	)
	if got := shapeOf(db, pid); !strings.Contains(got, "Contact Careers") {
		t.Errorf("the title typed before clicking away was not saved after Contact: %s", got)
	}
	noProblems(t, ctx, "unsaved changes")
}

// TestBrowserLiveReloadWhileTyping: another person adds a page while
// this tab types a new one. The outline's reload waits for the field, so
// nothing typed is lost, and follows once the title is saved.
func TestBrowserLiveReloadWhileTyping(t *testing.T) {
	ctx, base, db := browser(t)
	pid, ids := (&client{t: t, db: db}).fixture() // the sample plan, its page IDs by title
	addUser(t, db, "ed@test.example", "Ed Editor", "1", site.RoleEditor)
	editor := otherBrowser(t, ctx)
	loginBrowser(t, editor, base, "ed@test.example")
	plan := fmt.Sprintf("%s/projects/%d?level=3", base, pid)
	run(t, editor, "the editor opens the plan", chromedp.Navigate(plan), chromedp.WaitVisible(`#outline`), settled())
	run(t, ctx, "start typing a page after Contact",
		chromedp.Navigate(plan), chromedp.WaitVisible(`#outline`), settled(),
		waitJS(`document.getElementById("presence").textContent.includes("Ed Editor")`), // the live stream is up
		chromedp.Focus(fmt.Sprintf(`#title-%d`, ids["Contact"])),
		chromedp.KeyEvent(kb.Enter),
		waitJS(fieldFocused),
		chromedp.SendKeys(titleField, "Care"),
	)
	addRoot(t, editor, "Newsroom")
	run(t, ctx, "the reload waits for the field",
		waitJS(`document.getElementById('outline').hasAttribute('data-reload-pending')`),
		waitJS(fieldFocused+` && document.activeElement.value === "Care"`),
		chromedp.SendKeys(titleField, "ers"+kb.Enter),
		waitJS(fieldFocused+` && document.activeElement.value === ""`),
		chromedp.KeyEvent(kb.Escape),
		titleShown("Careers"), titleShown("Newsroom"),
		waitJS(`!document.getElementById('outline').hasAttribute('data-reload-pending')`),
		settled(),
	)
	if got := shapeOf(db, pid); !strings.Contains(got, "Contact Careers") || !strings.Contains(got, "Newsroom") {
		t.Errorf("the stored tree is %s, want Careers after Contact and Newsroom", got)
	}
	noProblems(t, ctx, "a live reload while typing")
}
