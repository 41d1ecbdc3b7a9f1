package store

import (
	"context"
	"strings"
	"testing"

	"siteplan/site"
)

// TestRateCards: a team's card prices its projects, a project's own
// replaces it, and a version keeps the card in force when it was named:
// its estimate stays what was priced when the card changes later.
func TestRateCards(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	pid, _ := homeProject(t, db, "Shop\n  Tents\n  Bags\nAbout")
	team, _ := site.ParseRateCard(strings.NewReader(`{"currency": "EUR", "hourly_rate": 100, "types": {"*": {"first_hours": 8, "each_hours": 2}}}`))
	if _, _, _, ok, _ := db.RateCards.Priced(ctx, pid, 0); ok {
		t.Fatalf("a card before any was set")
	}
	if err := db.RateCards.SetRateCard(ctx, 1, 0, team); err != nil {
		t.Fatal(err)
	}
	tr, _, card, ok, err := db.RateCards.Priced(ctx, pid, 0)
	if err != nil || !ok {
		t.Fatalf("priced: %v %v", ok, err)
	}
	// Home, Shop, Tents, Bags, About: one template (8 h), four pages of 2 h.
	if e := card.Estimate(tr, 0); e.TotalMinor != 160000 {
		t.Errorf("the team's card: %d", e.TotalMinor)
	}
	if _, err := db.History.CreateVersion(ctx, pid, "Priced at 100"); err != nil {
		t.Fatal(err)
	}
	dear := team
	dear.HourlyRate = 20000
	if err := db.RateCards.SetRateCard(ctx, 1, pid, dear); err != nil {
		t.Fatal(err)
	}
	if _, source, _, _ := db.RateCards.RateCard(ctx, 1, pid); source != site.CardOfProject {
		t.Errorf("the project's own card is not in force: %q", source)
	}
	tr, _, card, _, _ = db.RateCards.Priced(ctx, pid, 0)
	if e := card.Estimate(tr, 0); e.TotalMinor != 320000 {
		t.Errorf("the project's card: %d", e.TotalMinor)
	}
	tr, _, card, ok, _ = db.RateCards.Priced(ctx, pid, 1)
	if e := card.Estimate(tr, 0); !ok || e.TotalMinor != 160000 {
		t.Errorf("version 1 is priced by the card it kept: %d", e.TotalMinor)
	}
	if err := db.RateCards.ClearRateCard(ctx, pid); err != nil {
		t.Fatal(err)
	}
	if _, source, _, _ := db.RateCards.RateCard(ctx, 1, pid); source != site.CardOfTeam {
		t.Errorf("cleared: %q", source)
	}
	if err := db.RateCards.SetRateCard(ctx, 2, pid, team); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("another team's project: %v", err)
	}
}
