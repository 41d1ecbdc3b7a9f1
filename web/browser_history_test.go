package web

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
)

// TestBrowserUndoHistory: Ctrl+Z after deleting a branch brings it back
// with its links, in this tab and live in a colleague's; Ctrl+Shift+Z and
// the toolbar redo and undo; the History panel tells it in words; a
// version is named, compared with the plan now, and signed off by the
// client through a share link.
func TestBrowserUndoHistory(t *testing.T) {
	owner, base, db := browser(t)
	bg := context.Background()
	addUser(t, db, "ed@test.example", "Ed Editor", "1", site.RoleEditor)
	pid, ids := (&client{t: t, db: db}).fixture() // the sample plan, its page IDs by title
	products, pricing := ids["Products"], ids["Pricing"]
	plan := fmt.Sprintf("%s/projects/%d?level=3", base, pid)
	shown := func(id int64) string { return fmt.Sprintf(`!!document.getElementById("title-%d")`, id) }
	gone := func(id int64) string { return "!" + shown(id) }

	editor := otherBrowser(t, owner)
	loginBrowser(t, editor, base, "ed@test.example")
	run(t, editor, "a colleague has the plan open", chromedp.Navigate(plan), chromedp.WaitVisible(`#outline`), waitJS(shown(products)))

	run(t, owner, "owner opens the plan and selects Products",
		chromedp.Navigate(plan),
		chromedp.WaitVisible(`#outline`),
		clickAt(fmt.Sprintf(`#title-%d`, products)),
		waitJS(fmt.Sprintf(`document.activeElement.id === "title-%d"`, products)),
		settled(),
	)
	// The dialog that asks is modal: it has the keyboard (Enter presses
	// its Cancel, not the outline's "new page"), Esc closes it, and the
	// keyboard goes back to the page's row either way.
	dialogOpen := `!!document.querySelector("#dialog dialog[open]") && !!document.activeElement.closest("#dialog dialog")`
	backOnRow := fmt.Sprintf(`!document.querySelector("#dialog dialog") && document.activeElement.id === "title-%d" && !document.querySelector("#outline li.draft")`, products)
	run(t, owner, "the delete dialog has the keyboard and gives it back",
		chromedp.KeyEvent(kb.Delete),
		waitJS(dialogOpen),
		chromedp.KeyEvent(kb.Enter),
		waitJS(backOnRow),
		chromedp.KeyEvent(kb.Delete),
		waitJS(dialogOpen),
		chromedp.KeyEvent(kb.Escape),
		waitJS(backOnRow),
		waitJS(shown(products)),
	)
	run(t, owner, "Del deletes the branch, after asking",
		chromedp.KeyEvent(kb.Delete),
		waitJS(`document.querySelector("#dialog .modal")?.textContent.includes("You can undo it")`),
		settled(), // htmx has made the button work
		clickAt(`#dialog #confirm`),
		waitJS(gone(products)), waitJS(gone(pricing)),
	)
	waitFor(t, func() bool { _, err := db.Pages.Page(bg, pricing); return site.ErrorCode(err) == site.ENotFound }, "the deletion to be stored")
	run(t, editor, "the colleague sees it go", waitJS(gone(products)))

	ctrl := chromedp.KeyModifiers(input.ModifierCtrl)
	run(t, owner, "Ctrl+Z brings it back",
		chromedp.KeyEvent("z", ctrl),
		waitJS(shown(products)),
		waitJS(`document.getElementById("flash").textContent.includes("Undone: Olive Owner deleted “Products” and the 2 pages below it")`),
	)
	out, in, err := db.Links.PageLinks(bg, pricing)
	if err != nil || len(out) != 1 || len(in) != 1 {
		t.Errorf("Pricing came back with %d links out and %d in (%v), want 1 and 1", len(out), len(in), err)
	}
	run(t, editor, "the colleague sees it come back", waitJS(shown(products)), waitJS(shown(pricing)))
	run(t, owner, "Ctrl+Shift+Z deletes it again",
		chromedp.KeyEvent("Z", chromedp.KeyModifiers(input.ModifierCtrl|input.ModifierShift)),
		waitJS(gone(products)),
		waitJS(`document.getElementById("flash").textContent.includes("Redone")`),
	)
	run(t, owner, "the toolbar's Undo brings it back", clickAt(`[data-undo]`), waitJS(shown(products)))
	// Ctrl+Z in a text field is the field's own; on a selected page it
	// asks the server, which has nothing more of Olive's to undo.
	run(t, owner, "Ctrl+Z in a text field is the field's own",
		chromedp.Evaluate(`window.__undos = 0; { const f = window.fetch; window.fetch = (u, o) => { if (String(u).endsWith("/undo")) __undos++; return f(u, o); }; }`, nil),
		chromedp.SendKeys(`.toolbar input[type=search]`, "x"),
		chromedp.KeyEvent("z", ctrl),
		clickAt(fmt.Sprintf(`#title-%d`, ids["Contact"])),
		waitJS(fmt.Sprintf(`document.activeElement.id === "title-%d"`, ids["Contact"])),
		chromedp.KeyEvent("z", ctrl),
		waitJS(`document.getElementById("flash").textContent.includes("nothing of yours to undo")`),
		waitJS(`window.__undos === 1`),
	)
	run(t, owner, "the History panel tells what happened",
		clickAt(`#history-button`),
		waitJS(`document.querySelectorAll("#history li.change").length >= 1`),
		waitJS(`document.querySelector("#history li.change .change-what").textContent === "Olive Owner deleted “Products” and the 2 pages below it"`),
		waitJS(`document.querySelector("#history li.change").classList.contains("change-undone")`),
	)
	screenshot(t, owner, "history.png")

	// Undoing the creation of the page on show: the details make way for
	// the summary, no error.
	addRoot(t, owner, "Newsroom")
	var newsroom int64
	waitFor(t, func() bool {
		tr, err := db.Pages.Tree(bg, pid)
		if err != nil {
			return false
		}
		for _, r := range tr.Roots(site.PlacementMain) {
			if r.Title == "Newsroom" {
				newsroom = r.ID
			}
		}
		return newsroom != 0
	}, "Newsroom to be stored")
	run(t, owner, "owner shows Newsroom and undoes its creation",
		clickAt(fmt.Sprintf(`#title-%d`, newsroom)),
		waitJS(fmt.Sprintf(`document.getElementById("details-inner")?.dataset.page === "%d"`, newsroom)),
		settled(),
		chromedp.KeyEvent("z", ctrl),
		waitJS(gone(newsroom)),
		waitJS(`!!document.querySelector("#details #summary") && !document.querySelector("#details .alert-error")`),
	)
	noProblems(t, owner, "undo and history")

	run(t, owner, "owner names a version",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d/versions", base, pid)),
		chromedp.WaitVisible(`#f-version-name`),
		chromedp.SendKeys(`#f-version-name`, "Kickoff"),
		clickAt(`form.inline-form button[type=submit]`),
		waitJS(`document.querySelector(".version h2")?.textContent === "Version 1 “Kickoff”"`),
	)
	if _, err := db.Pages.RenamePage(bg, pricing, "Plans", 1); err != nil {
		t.Fatal(err)
	}
	careers := site.NewPage("Careers")
	careers.ProjectID, careers.ParentID = pid, ids["Home"]
	if err := db.Pages.CreatePage(bg, &careers); err != nil {
		t.Fatal(err)
	}
	run(t, owner, "owner compares it with now",
		clickAt(`.compare-form button[type=submit]`),
		chromedp.WaitVisible(`.compare-page .diagram-canvas svg`),
		waitJS(`document.querySelector(".compare-list").textContent.includes("Renamed (1)")`),
		waitJS(`document.querySelector(".compare-list").textContent.includes("Added (1)")`),
	)
	screenshot(t, owner, "compare.png")
	// Its diagram zooms and pans like the editor's, without an editor's
	// place to keep the view in.
	run(t, owner, "zoom and pan the compared diagram",
		chromedp.ActionFunc(func(ctx context.Context) error {
			return chromedp.Evaluate(`(() => {
				const c = document.querySelector(".compare-page .diagram-canvas"), r = c.getBoundingClientRect();
				c.dataset.k = c.view?.k || 1;
				c.dispatchEvent(new WheelEvent("wheel", {deltaY: -100, clientX: r.left + 50, clientY: r.top + 50, bubbles: true, cancelable: true}));
				return true;
			})()`, nil).Do(ctx)
		}),
		waitJS(`(c => c.view?.k > Number(c.dataset.k))(document.querySelector(".compare-page .diagram-canvas"))`),
		// and its own + and Fit buttons
		chromedp.Evaluate(`(c => { c.dataset.k = c.view.k; return true; })(document.querySelector(".compare-page .diagram-canvas"))`, nil),
		clickAt(`.compare-page [data-zoom=in]`),
		waitJS(`(c => c.view.k > Number(c.dataset.k))(document.querySelector(".compare-page .diagram-canvas"))`),
		clickAt(`.compare-page [data-zoom=fit]`),
		waitJS(`(c => c.view.k < Number(c.dataset.k))(document.querySelector(".compare-page .diagram-canvas"))`),
	)
	noProblems(t, owner, "compare")

	l := site.ShareLink{ProjectID: pid, Role: site.ShareComment, Label: "Client"}
	token, err := db.Sharing.CreateShareLink(bg, &l)
	if err != nil {
		t.Fatal(err)
	}
	client := otherBrowser(t, owner)
	run(t, client, "the client opens the version through the share link",
		chromedp.Navigate(base+"/s/"+token),
		chromedp.WaitVisible(`main.review`),
		clickAt(`.review-versions`),
		clickAt(`.version h2 a`),
		chromedp.WaitVisible(`form.signoff-form`),
	)
	run(t, client, "the client approves the About us branch",
		waitJS(`document.getElementById("approve-button").textContent.startsWith("Approve the whole plan of Version 1")`),
		chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.getElementById("f-approve-page"); s.value = "%d"; s.dispatchEvent(new Event("change", {bubbles: true})); })()`, ids["About us"]), nil),
		waitJS(`document.getElementById("approve-button").textContent.startsWith("Approve “About us” and the pages below it of Version 1")`),
		chromedp.SendKeys(`#f-approver`, "Carla Client"),
		clickAt(`form.signoff-form button[type=submit]`),
		waitJS(`document.querySelector(".version-side .alert-ok")?.textContent.includes("your approval is recorded")`),
		waitJS(`[...document.querySelectorAll(".version-side .signoff")].some(s => s.textContent.includes("Carla Client") && s.textContent.includes("“About us” and the pages below it"))`),
	)
	run(t, client, "the name is remembered", waitJS(`document.getElementById("f-approver").value === "Carla Client"`))
	screenshot(t, client, "signoff.png")
	noProblems(t, client, "sign-off")
	vs, err := db.History.Versions(bg, pid)
	if err != nil || len(vs) != 1 || len(vs[0].Approvals) != 1 || vs[0].Approvals[0].PageID != ids["About us"] {
		t.Errorf("stored approvals: %+v (%v)", vs, err)
	}
}
