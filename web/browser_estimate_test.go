package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
)

// TestBrowserEstimate: an owner edits the team's rate card on the Team
// page, a form that starts from the documented card: a rate it cannot
// read is marked with what to fix; a row removed, a fixed line added
// and moved up, Enter saves. The Summary panel prices the plan, and
// follows an edit: a page added raises the total without a reload.
// axe-core finds no violation on the card or the panel.
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
	run(t, ctx, "the form starts from the documented card; a rate it cannot read is marked",
		chromedp.Navigate(base+"/team#rate-card"),
		chromedp.WaitVisible(`#rc-hourly_rate`, chromedp.ByQuery),
		settled(),
		chromedp.SetValue(`#rc-hourly_rate`, "95,555", chromedp.ByQuery),
		chromedp.Click(`#rate-card .form-actions button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#rc-hourly_rate-problem`, chromedp.ByQuery),
		waitJS(`document.activeElement.id === "rate-card-problem" && !!document.activeElement.querySelector("a[href='#rc-hourly_rate']")`),
		chromedp.Text(`#rc-hourly_rate-problem`, &problem, chromedp.ByQuery),
	)
	if !strings.Contains(problem, "Hourly rate: 95.555 has more than 2 decimals") {
		t.Errorf("the problem said: %q", problem)
	}
	if v := axeViolationsIn(t, ctx, `document.querySelector("#rate-card")`); len(v) > 0 {
		t.Errorf("axe on the rate card: %q", v)
	}
	screenshot(t, ctx, "rate-card-refused.png")
	run(t, ctx, "a row removed, a line added and moved up, Enter saves",
		chromedp.Click(`#rate-types ol > li:first-child [data-block=remove]`, chromedp.ByQuery),
		waitJS(`document.querySelectorAll("#rate-types ol > li").length === 1 && document.activeElement.name === "type_name"`),
		chromedp.Click(`#rate-fixed [data-block=add]`, chromedp.ByQuery),
		waitJS(`document.activeElement.matches("#rate-fixed ol > li:nth-child(2) input[name=fixed_name]")`),
		chromedp.SendKeys(`#rate-fixed ol > li:nth-child(2) input[name=fixed_name]`, "QA", chromedp.ByQuery),
		chromedp.SendKeys(`#rate-fixed ol > li:nth-child(2) input[name=fixed_hours]`, "2", chromedp.ByQuery),
		chromedp.KeyEvent(kb.ArrowUp, chromedp.KeyModifiers(input.ModifierAlt)),
		waitJS(`document.querySelector("#rate-fixed ol > li:first-child input[name=fixed_name]").value === "QA" && document.activeElement.name === "fixed_hours"`),
		chromedp.Evaluate(`document.querySelector("#rc-margin_percent").value = ""`, nil),
		chromedp.SetValue(`#rc-hourly_rate`, "95", chromedp.ByQuery),
		chromedp.Focus(`#rc-hourly_rate`, chromedp.ByQuery),
		chromedp.KeyEvent(kb.Enter),
		waitJS(`document.activeElement.id === "rate-card-saved" && document.querySelector("#rc-hourly_rate").value === "95"`),
	)
	screenshot(t, ctx, "rate-card-saved.png")
	card, _, _, err := db.RateCards.RateCard(context.Background(), 1, 0)
	if err != nil || len(card.Types) != 1 || card.MarginBP != 0 || len(card.Fixed) != 2 || card.Fixed[0] != (site.FixedLine{Name: "QA", Hours: 2 * site.HourUnit}) {
		t.Errorf("saved %+v (%v)", card, err)
	}
	var before string
	run(t, ctx, "the Summary panel prices the plan",
		chromedp.Navigate(base+"/projects/"+itoa(pid)),
		waitJS(scriptReady),
		chromedp.Click(`//button[normalize-space(.)="Summary"]`, chromedp.BySearch),
		chromedp.WaitVisible(`#estimate-total`, chromedp.ByQuery),
		chromedp.Text(`#estimate-total`, &before, chromedp.ByQuery),
	)
	// 9 pages: the templates of landing, sales and pages without a type
	// (8 h each), six more at 2 h, QA 2 h, Discovery 24 h: 62 h at €95.
	if before != "€5,890.00" {
		t.Errorf("the total: %q", before)
	}
	if v := axeViolationsIn(t, ctx, `document.querySelector("#summary")`); len(v) > 0 {
		t.Errorf("axe on the estimate: %q", v)
	}
	screenshot(t, ctx, "estimate-panel.png")
	addRoot(t, ctx, "Careers")
	// Careers, a page without a type: 2 h more.
	run(t, ctx, "the panel follows the edit",
		waitJS(`document.querySelector("#estimate-total")?.textContent === "€6,080.00"`),
	)
	noProblems(t, ctx, "estimate")
}
