package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
	"siteplan/store"
)

// relaunchPlan imports the acme plan and attaches 240 old URLs to it:
// 200 accepted redirects to Pricing, 30 proposed to Contact below the
// matcher's bar, 10 with no proposal; the most clicked first.
func relaunchPlan(t *testing.T, db *store.Store) (int64, map[string]int64) {
	t.Helper()
	ctx := context.Background()
	doc, err := site.ReadDocumentFile("../store/testdata/acme.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.Projects.ImportDocument(ctx, 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(ctx, pid)
	ids := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { ids[p.Title] = p.ID; return true })
	var olds []site.OldPage
	var maps []site.Mapping
	for i := range 240 {
		o := site.OldPage{URL: fmt.Sprintf("https://www.acme.example/old/item-%03d.html", i), Title: fmt.Sprintf("Item %d", i), Clicks: 1000 - i}
		m := site.Mapping{From: o.URL, Disposition: site.DispositionRedirect, PageID: ids["Pricing"], Status: 301, Confidence: 0.95, Reason: "same slug", Accepted: true}
		switch {
		case i >= 230:
			m = site.Mapping{From: o.URL, Disposition: site.DispositionReview, Reason: "no page of the plan matches"}
		case i >= 200:
			m = site.Mapping{From: o.URL, Disposition: site.DispositionRedirect, PageID: ids["Contact"], Status: 301, Confidence: 0.6, Reason: "merged"}
		}
		olds, maps = append(olds, o), append(maps, m)
	}
	if _, err := db.Redirects.AttachOldSite(ctx, pid, olds, maps); err != nil {
		t.Fatal(err)
	}
	return pid, ids
}

// TestBrowserRedirects reviews a relaunch's map in the Redirects view:
// pages of 100 rows, a filter, accepting one row, choosing a page in the
// picker, undoing it, and accepting every proposal a filter shows.
func TestBrowserRedirects(t *testing.T) {
	ctx, base, db := browser(t)
	pid, ids := relaunchPlan(t, db)
	status := func() site.RedirectStatus {
		st, err := db.Redirects.RedirectStatus(context.Background(), pid)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	count := func(want string) chromedp.Action {
		return waitJS(`document.getElementById("redirect-count")?.textContent.includes(` + quoteJS(want) + `)`)
	}
	run(t, ctx, "open the Redirects view",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d/redirects", base, pid)),
		chromedp.WaitVisible(`#redirect-figures`),
		count("1–100 of 240"),
		waitJS(`document.getElementById("clicks-at-risk").textContent.startsWith("31,220")`), // items 200–239
	)
	run(t, ctx, "page on", settled(), chromedp.Click(`.pager a[rel=next]`), count("101–200 of 240"))
	run(t, ctx, "show what awaits review",
		settled(),
		chromedp.Click(`.show-tabs label:has(input[value=awaiting])`, chromedp.ByQuery),
		count("1–40 of 40"),
		waitJS(`location.search.includes("show=awaiting")`),
	)
	screenshot(t, ctx, "redirects-awaiting.png")

	// Accept one proposal: it leaves the filter, the figures follow.
	run(t, ctx, "accept one",
		settled(), // htmx wires swapped content as it settles: a click before would go unheard
		chromedp.Click(`#old-`+oldID(t, db, pid, "item-200")+` button`, chromedp.ByQuery),
		count("1–39 of 39"),
		waitJS(`document.querySelector("#redirect-figures div:nth-child(2) dd").textContent === "201"`),
	)
	if st := status(); st.Accepted != 201 {
		t.Fatalf("after accepting one: %+v", st)
	}

	// Choose a page for a URL with no proposal, in the picker.
	unmatched := oldID(t, db, pid, "item-235")
	run(t, ctx, "open the picker",
		settled(),
		chromedp.Click(`#old-`+unmatched+` .decide button:nth-of-type(1)`, chromedp.ByQuery),
		waitJS(`!!document.querySelector("#dialog dialog[open] input[type=search]")`),
		settled(), // htmx wires the picker's search as it settles: an event before is lost
		// One search, as Enter in the field sends it (typing sends one a
		// pause, and a click could meet a list being replaced).
		chromedp.SetValue(`#picker-status`, "308", chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const q = document.querySelector("#dialog input[type=search]"); q.value = "team"; q.dispatchEvent(new Event("search")); })()`, nil),
		waitJS(`(() => { const p = [...document.querySelectorAll("#picker-results .pick")]; return p.length === 1 && p[0].textContent.includes("Team"); })()`),
		settled(),
		// The results were replaced under a pointer that has not moved
		// since: its click is not the user's choice, and sends nothing.
		chromedp.Evaluate(`window.decides = 0; document.body.addEventListener("htmx:beforeRequest", (e) => { if (e.detail.pathInfo.requestPath.includes("/decide")) window.decides++; })`, nil),
		chromedp.Click(`#picker-results .pick`, chromedp.ByQuery),
		waitJS(`window.decides === 0 && !!document.querySelector("#dialog dialog[open]")`),
		pointTo(`document.querySelector("#picker-results .pick")`),
		chromedp.Click(`#picker-results .pick`, chromedp.ByQuery),
		waitJS(`!document.querySelector("#dialog dialog")`),
		count("1–38 of 38"),
	)
	if o := oldURL(t, db, pid, unmatched); o.PageID != ids["Team"] || !o.Accepted || o.Status != 308 {
		t.Fatalf("after the picker: %+v", o)
	}
	// Undo takes the choice back, and the table shows it again.
	run(t, ctx, "undo",
		settled(),
		chromedp.Click(`#undo-redirects`, chromedp.ByQuery),
		count("1–39 of 39"),
		chromedp.WaitVisible(`#old-`+unmatched),
	)
	if o := oldURL(t, db, pid, unmatched); o.PageID != 0 || o.Accepted {
		t.Fatalf("after the undo: %+v", o)
	}

	// Accept every proposal the filter shows: the 29 below the bar; the
	// 10 with no proposal stay, and the button counts only the 29.
	run(t, ctx, "accept all shown",
		chromedp.Evaluate(`window.confirm = () => true`, nil),
		waitJS(`document.getElementById("accept-all").textContent.trim() === "Accept the 29 proposals shown"`),
		settled(),
		chromedp.Click(`#accept-all`, chromedp.ByQuery),
		count("1–10 of 10"),
		waitJS(`document.getElementById("clicks-at-risk").textContent.startsWith("7,655")`), // items 230–239
	)
	if st := status(); st.Accepted != 230 || st.Awaiting != 10 {
		t.Fatalf("after accepting all: %+v", st)
	}
	screenshot(t, ctx, "redirects-accepted.png")

	// Every accepted row, on all three pages of the filter, retired at
	// once: "all shown" ticked, then Retire. Retired and accepted are
	// counted apart.
	run(t, ctx, "show the accepted",
		settled(),
		chromedp.Click(`.show-tabs label:has(input[value=accepted])`, chromedp.ByQuery),
		count("1–100 of 230"),
		waitJS(`document.getElementById("select-all-shown").textContent.includes("All 230 shown, on every page of this filter")`),
	)
	run(t, ctx, "retire all shown",
		settled(),
		chromedp.Click(`#select-all-shown input`, chromedp.ByQuery),
		chromedp.Click(`#redirect-bulk button[value=retire]`, chromedp.ByQuery),
		count("No old URL matches this filter."),
		waitJS(`document.querySelector("#redirect-figures div:nth-child(2) dd").textContent === "0"`),
		waitJS(`document.querySelector("#redirect-figures div:nth-child(5) dd").textContent === "230"`),
	)
	if st := status(); st.Accepted != 0 || st.Retired != 230 || st.Awaiting != 10 || st.OldURLs != st.Accepted+st.Retired+st.Awaiting {
		t.Fatalf("after retiring all shown: %+v", st)
	}
	noProblems(t, ctx, "the Redirects view")
}

// oldID is the id of the old URL whose URL holds part.
func oldID(t *testing.T, db *store.Store, pid int64, part string) string {
	t.Helper()
	list, _, err := db.Redirects.OldURLs(context.Background(), pid, site.OldFilter{Search: part})
	if err != nil || len(list) != 1 {
		t.Fatalf("old URL %q: %v, %d found", part, err, len(list))
	}
	return fmt.Sprint(list[0].ID)
}

func oldURL(t *testing.T, db *store.Store, pid int64, id string) site.OldURL {
	t.Helper()
	var n int64
	fmt.Sscan(id, &n)
	o, err := db.Redirects.OldURL(context.Background(), pid, n)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func quoteJS(s string) string { return "`" + strings.ReplaceAll(s, "`", "\\`") + "`" }

// TestBrowserRenameKeepsURL renames a launched page with a page below it
// in the outline: the notice says how many URLs changed and that they
// redirect now; "Keep the old URL" gives them back, and no redirect is
// left.
func TestBrowserRenameKeepsURL(t *testing.T) {
	ctx, base, db := browser(t)
	pid, ids := relaunchPlan(t, db)
	bg := context.Background()
	if _, err := db.History.LaunchVersion(bg, pid, "Live"); err != nil {
		t.Fatal(err)
	}
	redirects := func() int {
		list, _, err := db.Redirects.OldURLs(bg, pid, site.OldFilter{Search: "/about-us"})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, o := range list {
			if o.Accepted && o.Disposition == site.DispositionRedirect {
				n++
			}
		}
		return n
	}
	run(t, ctx, "rename About us",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		chromedp.WaitVisible(`#outline`),
		settled(),
		chromedp.Focus(fmt.Sprintf(`#title-%d`, ids["About us"])),
		chromedp.KeyEvent(kb.F2),
		waitJS(fieldFocused),
		chromedp.SetValue(titleField, "Company"),
		chromedp.SendKeys(titleField, kb.Enter),
		waitJS(`document.getElementById("url-notice")?.textContent.includes("2 URLs changed")`),
		waitJS(`document.getElementById("url-notice").textContent.includes("redirect")`),
	)
	screenshot(t, ctx, "rename-notice.png")
	if n := redirects(); n != 2 {
		t.Fatalf("after the rename: %d redirects of /about-us, want 2", n)
	}
	run(t, ctx, "keep the old URL",
		settled(),
		chromedp.Click(`#keep-url`, chromedp.ByQuery),
		waitJS(`document.getElementById("url-notices").textContent.includes("Kept the old URL")`),
	)
	p, err := db.Pages.Page(bg, ids["About us"])
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "Company" || p.Slug != "about-us" || p.SlugAuto {
		t.Errorf("after keeping the URL: %q, slug %q (derived %v)", p.Title, p.Slug, p.SlugAuto)
	}
	if n := redirects(); n != 0 {
		t.Errorf("the URLs are back, yet %d redirects remain", n)
	}
	noProblems(t, ctx, "the rename notice")
}

// TestBrowserDeleteLaunched deletes a launched leaf with the Delete key:
// the dialog asks where its visitors go, retiring it records the 410
// with the deletion, and undo takes both back.
func TestBrowserDeleteLaunched(t *testing.T) {
	ctx, base, db := browser(t)
	pid, ids := relaunchPlan(t, db)
	bg := context.Background()
	if _, err := db.History.LaunchVersion(bg, pid, "Live"); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, "delete Imprint",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		chromedp.WaitVisible(`#outline`),
		settled(),
		chromedp.Focus(fmt.Sprintf(`#title-%d`, ids["Imprint"])),
		chromedp.KeyEvent(kb.Delete),
		waitJS(`!!document.querySelector("#dialog dialog[open] #delete-launched")`),
		waitJS(`document.querySelector("#delete-launched").textContent.includes("1 URL on the launched site")`),
	)
	screenshot(t, ctx, "delete-launched.png")
	run(t, ctx, "retire it",
		settled(),
		chromedp.Click(`#delete-launched input[value=retire]`, chromedp.ByQuery),
		chromedp.Click(`#delete-launched #confirm`, chromedp.ByQuery),
		waitJS(fmt.Sprintf(`!document.getElementById("node-%d")`, ids["Imprint"])),
	)
	gone := func() int {
		_, n, err := db.Redirects.OldURLs(bg, pid, site.OldFilter{Show: site.ShowRetired, Search: "/imprint"})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := gone(); n != 1 {
		t.Fatalf("after the deletion: %d retired /imprint, want 1", n)
	}
	run(t, ctx, "undo", chromedp.Click(`[data-undo]`, chromedp.ByQuery), titleShown("Imprint"))
	if n := gone(); n != 0 {
		t.Errorf("after the undo: %d retired /imprint, want 0", n)
	}
	noProblems(t, ctx, "deleting a launched page")
}
