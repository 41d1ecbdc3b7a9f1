package web

import (
	"context"
	"strings"
	"testing"

	"siteplan/site"
)

// TestCompareEstimate: Compare says what changed in the estimate between
// a version and the plan now, each priced by its own card ("+3 product
// pages"); a client on a share link sees none of it.
func TestCompareEstimate(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	card, _ := site.ParseRateCard(strings.NewReader(`{"currency": "EUR", "hourly_rate": 100, "types": {"product": {"first_hours": 10, "each_hours": 1}, "*": {"first_hours": 8, "each_hours": 2}}}`))
	if err := c.db.RateCards.SetRateCard(ctx, 1, 0, card); err != nil {
		t.Fatal(err)
	}
	if _, err := c.db.History.CreateVersion(ctx, pid, "Priced"); err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"Tent", "Stove", "Lamp"} {
		p := site.NewPage(title)
		p.ProjectID, p.ParentID, p.Type = pid, ids["Home"], "product"
		if err := c.db.Pages.CreatePage(ctx, &p); err != nil {
			t.Fatal(err)
		}
	}
	page := c.do("GET", "/projects/"+itoa(pid)+"/compare?from=1", nil, false).Body.String()
	// One product template (10 h) and two more products (1 h each): 12 h.
	if !strings.Contains(page, `id="estimate-changes"`) || !strings.Contains(page, "+3 product pages, +12 h, +€1,200.00") {
		t.Errorf("the compare page lacks the estimate's change:\n%.3000s", page[strings.Index(page, "<aside"):])
	}
	guest := c.visitor(pid, site.ShareView)
	if body := guest.do("GET", "/projects/"+itoa(pid)+"/compare?from=1", nil, false).Body.String(); strings.Contains(body, "estimate-changes") || strings.Contains(body, "€") {
		t.Errorf("a client sees the estimate")
	}
}

// TestVersionEstimate: a version's page says what it was priced at by
// the card it kept; a client sees it only where that card lets clients
// see the total, and then the sign-off says it covers it.
func TestVersionEstimate(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	ctx := context.Background()
	set := func(clients string) {
		card, err := site.ParseRateCard(strings.NewReader(`{"currency": "EUR", "hourly_rate": 100, "types": {"*": {"first_hours": 8, "each_hours": 2}}, "clients": "` + clients + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.db.RateCards.SetRateCard(ctx, 1, 0, card); err != nil {
			t.Fatal(err)
		}
	}
	set("none")
	c.db.History.CreateVersion(ctx, pid, "Hidden price")
	set("total")
	c.db.History.CreateVersion(ctx, pid, "Shown price")
	guest := c.visitor(pid, site.ShareComment)
	for _, tt := range []struct {
		who          *client
		n            string
		shown, cover bool
	}{{c, "1", true, true}, {c, "2", true, true}, {guest, "1", false, false}, {guest, "2", true, true}} {
		page := doc(t, tt.who.do("GET", "/projects/"+itoa(pid)+"/versions/"+tt.n, nil, false))
		total := page.Find("#version-estimate strong").Text()
		if shown := total != ""; shown != tt.shown || (shown && !strings.HasPrefix(total, "€")) {
			t.Errorf("version %s, guest %v: the estimate %q, want shown %v", tt.n, tt.who == guest, total, tt.shown)
		}
		if covers := page.Find("#signoff-covers").Length() > 0; covers != tt.cover {
			t.Errorf("version %s, guest %v: the sign-off covers the estimate: %v", tt.n, tt.who == guest, covers)
		}
	}
}

// TestVersionPDFEstimate: a version's PDF, the proposal, ends with its
// estimate (unless the download asks ?estimate=0); a client's, where the
// card lets clients see totals, with the total alone.
func TestVersionPDFEstimate(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	ctx := context.Background()
	card, _ := site.ParseRateCard(strings.NewReader(`{"currency": "EUR", "hourly_rate": 100, "types": {"*": {"first_hours": 8, "each_hours": 2}},
		"fixed": [{"name": "Discovery", "hours": 24}], "clients": "total"}`))
	if err := c.db.RateCards.SetRateCard(ctx, 1, 0, card); err != nil {
		t.Fatal(err)
	}
	c.db.History.CreateVersion(ctx, pid, "Proposal")
	path := "/projects/" + itoa(pid) + "/versions/1/diagram/pdf"
	text := func(who *client, query string) string {
		rec := who.do("GET", path+query, nil, false)
		if rec.Code != 200 {
			t.Fatalf("%s%s: %d", path, query, rec.Code)
		}
		return pdfText(t, rec.Body.Bytes())
	}
	if got := text(c, ""); !strings.Contains(got, "Estimate, EUR") || !strings.Contains(got, "Discovery") {
		t.Errorf("the team's PDF lacks the estimate:\n%s", got)
	}
	if got := text(c, "?estimate=0"); strings.Contains(got, "Estimate, EUR") {
		t.Errorf("?estimate=0 printed it")
	}
	guest := c.visitor(pid, site.ShareComment)
	if got := text(guest, ""); !strings.Contains(got, "Estimate, EUR") || !strings.Contains(got, "Total") || strings.Contains(got, "Discovery") {
		t.Errorf("the client's PDF:\n%s", got)
	}
}
