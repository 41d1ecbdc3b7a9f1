package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"siteplan/site"
)

// TestBrowserLaunchCheck runs a launch check from the plan's page: its
// progress while the site is slow, then the report, which replaces it
// when the check ends; a problem's page link opens that page in the
// editor.
func TestBrowserLaunchCheck(t *testing.T) {
	ctx, base, db := browserWith(t, allowPrivate)
	pid, _ := (&client{t: t, db: db}).fixture() // the sample plan
	tr, _ := db.Pages.Tree(context.Background(), pid)
	bs := newBuiltSite(t, tr)
	bs.set("/about-us/team", http.NotFound)
	bs.hold = true
	page := fmt.Sprintf("%s/projects/%d/launch", base, pid)
	run(t, ctx, "open the Launch check",
		chromedp.Navigate(page),
		chromedp.WaitVisible(`#launch-none`),
		chromedp.SetValue(`#launch-base`, bs.URL+"/", chromedp.ByQuery),
		chromedp.Click(`#launch-start`, chromedp.ByQuery),
		chromedp.WaitVisible(`#job-progress`),
		waitJS(`document.getElementById("job-live")?.dataset.state === "reading"`),
		waitJS(`document.getElementById("job-counts")?.textContent.startsWith("0 of 9 pages")`),
	)
	<-bs.held
	screenshot(t, ctx, "launch-running.png")
	close(bs.release)
	run(t, ctx, "the report replaces the progress",
		chromedp.WaitVisible(`#launch-report`),
		waitJS(`!document.getElementById("launch-job") && document.getElementById("launch-errors").textContent === "1"`),
		waitJS(`!!document.querySelector(".launch-diagram svg")`),
		chromedp.WaitVisible(`#launch-form`),
	)
	noProblems(t, ctx, "report")
	screenshot(t, ctx, "launch-report.png")
	var href string
	run(t, ctx, "open the page of a problem",
		chromedp.AttributeValue(`#rule-status a.page`, "href", &href, nil, chromedp.ByQuery),
		chromedp.Click(`#rule-status a.page`, chromedp.ByQuery),
		waitJS(`document.querySelector("#page-form input[name=title]")?.value === "Team"`),
	)
	if !strings.HasSuffix(href, "/pages/"+itoa(pageID(tr, "Team"))) {
		t.Errorf("the problem links to %q", href)
	}
}

// pageID is the ID of the page of t titled title.
func pageID(t *site.Tree, title string) int64 {
	var id int64
	t.Walk(func(p *site.Page, _ int) bool {
		if p.Title == title {
			id = p.ID
		}
		return id == 0
	})
	return id
}
