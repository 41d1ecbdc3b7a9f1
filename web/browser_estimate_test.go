package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"siteplan/site"
)

// TestBrowserEstimate: an owner saves the team's rate card on the Team
// page (a refused card says which field); the Summary panel prices the
// plan, and follows an edit: a page added raises the total without a
// reload. axe-core finds no violation on the panel.
func TestBrowserEstimate(t *testing.T) {
	ctx, base, db := browser(t)
	doc, err := site.ReadDocumentFile("../store/testdata/acme.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.Projects.ImportDocument(context.Background(), 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	var problem string
	run(t, ctx, "a card refused, then the example saved",
		chromedp.Navigate(base+"/team#rate-card"),
		chromedp.WaitVisible(`#rate-card textarea`, chromedp.ByQuery),
		settled(),
		chromedp.SetValue(`#rate-card textarea`, `{"currency": "EUR", "hourly_rate": 95.555}`, chromedp.ByQuery),
		chromedp.Click(`#rate-card button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#rate-card-problem`, chromedp.ByQuery),
		chromedp.Text(`#rate-card-problem`, &problem, chromedp.ByQuery),
	)
	if !strings.Contains(problem, "hourly_rate: 95.555 has more than 2 decimals") {
		t.Errorf("the problem said: %q", problem)
	}
	run(t, ctx, "the example saved",
		chromedp.SetValue(`#rate-card textarea`, `{"currency": "EUR", "hourly_rate": 95, "types": {"*": {"first_hours": 8, "each_hours": 2}}, "fixed": [{"name": "Discovery", "hours": 24}]}`, chromedp.ByQuery),
		settled(),
		chromedp.Click(`#rate-card button[type=submit]`, chromedp.ByQuery),
		waitJS(`location.pathname === "/team" && !!document.querySelector("#rate-card textarea") && document.querySelector("#rate-card textarea").value.includes("Discovery")`),
	)
	var before, after string
	_ = after
	run(t, ctx, "the Summary panel prices the plan",
		chromedp.Navigate(base+"/projects/"+itoa(pid)),
		waitJS(scriptReady),
		chromedp.Click(`//button[normalize-space(.)="Summary"]`, chromedp.BySearch),
		chromedp.WaitVisible(`#estimate-total`, chromedp.ByQuery),
		chromedp.Text(`#estimate-total`, &before, chromedp.ByQuery),
	)
	// 9 pages: the templates of landing, sales and pages without a type
	// (8 h each), six more at 2 h, Discovery 24 h: 60 h at €95.
	if before != "€5,700.00" {
		t.Errorf("the total: %q", before)
	}
	if v := axeViolationsIn(t, ctx, `document.querySelector("#summary")`); len(v) > 0 {
		t.Errorf("axe on the estimate: %q", v)
	}
	screenshot(t, ctx, "estimate-panel.png")
	addRoot(t, ctx, "Careers")
	// Careers, a page without a type: 2 h more.
	run(t, ctx, "the panel follows the edit",
		waitJS(`document.querySelector("#estimate-total")?.textContent === "€5,890.00"`),
		chromedp.Text(`#estimate-total`, &after, chromedp.ByQuery),
	)
	noProblems(t, ctx, "estimate")
}
