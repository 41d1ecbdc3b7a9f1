package web

import (
	"context"
	"net/url"
	"reflect"
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

// TestRateCardForm: the Team page's rate card is a form with a row per
// page type, block kind and fixed line; what it sends is the card
// saved, exactly (a decimal comma, blank rows skipped). A field that
// cannot be read comes back marked, with what to fix, the rest as it
// was typed, nothing saved. A project's settings start from its team's
// card, and a card saved there prices that plan alone until cleared.
func TestRateCardForm(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	ctx := context.Background()
	d := doc(t, c.do("GET", "/team", nil, false))
	if got := d.Find(`#rate-types ol input[name=type_name]`).Length(); got != 2 || d.Find(`#rate-card #rc-hourly_rate`).AttrOr("value", "") != "95" {
		t.Errorf("a team without a card starts from the documented one: %d type rows", got)
	}
	form := url.Values{"currency": {"eur"}, "hourly_rate": {"110"}, "margin_percent": {"12,5"}, "clients": {site.ClientsTotal},
		"type_name": {"product", "", "*"}, "type_first_hours": {"16", "", "8"}, "type_each_hours": {"1,5", "", "2"},
		"type_first_price": {"", "", ""}, "type_each_price": {"20", "", ""},
		"block_kind": {"hero", "*"}, "block_hours": {"1", "0.5"}, "per_100_words_hours": {"0.25"},
		"fixed_name": {"QA", "Discovery"}, "fixed_hours": {"8", "24"}, "fixed_price": {"", "500"}}
	wantStatus(t, c.do("POST", "/team/ratecard", form, true), 200, "the card saved")
	card, source, ok, err := c.db.RateCards.RateCard(ctx, 1, 0)
	want, _ := site.ParseRateCard(strings.NewReader(`{"currency": "EUR", "hourly_rate": 110, "margin_percent": 12.5, "clients": "total",
		"types": {"product": {"first_hours": 16, "each_hours": 1.5, "each_price": 20}, "*": {"first_hours": 8, "each_hours": 2}},
		"blocks": {"hero": 1, "*": 0.5}, "per_100_words_hours": 0.25, "fixed": [{"name": "QA", "hours": 8}, {"name": "Discovery", "hours": 24, "price": 500}]}`))
	if err != nil || !ok || source != site.CardOfTeam || !reflect.DeepEqual(card, want) {
		t.Fatalf("saved %+v (%v %v), want %+v", card, ok, err, want)
	}

	form.Set("hourly_rate", "95.555")
	form["type_each_hours"] = []string{"1,5", "", "two"}
	rec := c.do("POST", "/team/ratecard", form, true)
	wantStatus(t, rec, 422, "a refused card")
	d = doc(t, rec)
	rate, each := d.Find(`#rc-hourly_rate`), d.Find(`#rate-types ol > li:nth-child(3) input[name=type_each_hours]`)
	if rate.AttrOr("aria-invalid", "") != "true" || rate.AttrOr("value", "") != "95.555" || each.AttrOr("aria-invalid", "") != "true" || each.AttrOr("value", "") != "two" {
		t.Errorf("the refused fields are not marked as typed: rate %v, row %v", rate.Nodes, each.Nodes)
	}
	if msg := d.Find("#" + strings.ReplaceAll(each.AttrOr("aria-describedby", ""), ".", `\.`)).Text(); !strings.Contains(msg, "Page type “*”, hours of each other page: write a number such as 1.5, not “two”") {
		t.Errorf("the row's problem: %q", msg)
	}
	if msg := d.Find(`#rc-hourly_rate-problem`).Text(); !strings.Contains(msg, "95.555 has more than 2 decimals") {
		t.Errorf("the rate's problem: %q", msg)
	}
	if d.Find(`#rate-types ol input[name=type_name]`).Length() != 3 || d.Find(`#rc-margin_percent`).AttrOr("value", "") != "12,5" {
		t.Errorf("the rows as typed are not kept")
	}
	if card, _, _, _ := c.db.RateCards.RateCard(ctx, 1, 0); card.HourlyRate != 11000 {
		t.Errorf("a refused card changed the saved one: %+v", card)
	}

	settings := "/projects/" + itoa(pid) + "/settings"
	d = doc(t, c.do("GET", settings, nil, false))
	if d.Find(`#rc-hourly_rate`).AttrOr("value", "") != "110" || !strings.Contains(d.Find("#rate-card").Text(), "The team's rate card prices this plan") {
		t.Errorf("a project's settings do not start from its team's card")
	}
	own := url.Values{"currency": {"CHF"}, "hourly_rate": {"150"}, "type_name": {"*"}, "type_first_hours": {"4"}, "type_each_hours": {"1"}}
	wantStatus(t, c.do("POST", "/projects/"+itoa(pid)+"/ratecard", own, true), 200, "the project's card saved")
	if card, source, _, _ := c.db.RateCards.RateCard(ctx, 1, pid); source != site.CardOfProject || card.Currency != "CHF" || card.HourlyRate != 15000 {
		t.Errorf("the project's card: %s %+v", source, card)
	}
	if card, _, _, _ := c.db.RateCards.RateCard(ctx, 1, 0); card.Currency != "EUR" {
		t.Errorf("the project's card changed the team's: %+v", card)
	}
	rec = c.do("POST", "/projects/"+itoa(pid)+"/ratecard/clear", nil, true)
	wantStatus(t, rec, 200, "the project's card cleared")
	if d = doc(t, rec); !strings.Contains(d.Find("#rate-card-saved").Text(), "the team's card prices this plan again") || d.Find(`#rc-currency`).AttrOr("value", "") != "EUR" {
		t.Errorf("clearing the project's card does not say so in place with the team's card")
	}
	if _, source, _, _ := c.db.RateCards.RateCard(ctx, 1, pid); source != site.CardOfTeam {
		t.Errorf("after clearing, the plan is priced by the %s's card", source)
	}
	pasted := url.Values{"card": {`{"currency": "EUR", "hourly_rate": 95, "colour": "red"}`}}
	rec = c.do("POST", "/team/ratecard", pasted, true)
	wantStatus(t, rec, 422, "a refused paste")
	if d = doc(t, rec); d.Find(`details.rate-card-json[open]`).Length() != 1 || !strings.Contains(d.Find("#rate-card-problem").Text(), "unknown field") ||
		!strings.Contains(d.Find("#rate-card-json").Text(), "colour") {
		t.Errorf("a refused paste is not shown open with its problem")
	}
}
