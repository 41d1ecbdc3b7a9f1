package store

import (
	"context"
	"strings"
	"testing"

	"siteplan/site"
)

// searched returns the titles of what a search of q found, in order.
func searched(t *testing.T, db *Store, ctx context.Context, pid int64, q string, except int64) string {
	t.Helper()
	found, err := db.Pages.Search(ctx, pid, q, except, 30)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range found {
		out = append(out, f.Page.Title)
	}
	return strings.Join(out, ", ")
}

// TestSearch: a plan's search finds titles that start with what was
// typed first, then pages with its words in a row (the last one cut
// short or not) anywhere in their title or slug, whatever the case
// and accents (über, uber and ueber find "Über uns"), by slug too, and
// follows every write: a new page, a rename, a delete and its undo.
func TestSearch(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	ctx := context.Background()
	for _, title := range []string{"Über uns", "Page 55", "Team page", "Page 550"} {
		p := site.Page{ProjectID: pid, ParentID: ids["Home"], Title: title, SlugAuto: true, Kind: site.KindPage,
			Placement: site.PlacementMain, Status: site.StatusPlanned, InSitemap: true, Position: -1}
		if err := db.Pages.CreatePage(anna, &p); err != nil {
			t.Fatal(err)
		}
		ids[title] = p.ID
	}
	for _, tc := range []struct{ q, want string }{
		{"über", "Über uns"},
		{"UBER", "Über uns"},
		{"ueber", "Über uns"},
		{"uns", "Über uns"},
		{"ueber uns", "Über uns"},
		{"uns über", ""},                         // the words in their order
		{"page", "Page 55, Page 550, Team page"}, // the titles that start so first
		{"Page 55", "Page 55, Page 550"},
		{"55", "Page 55, Page 550"},
		{"produkte", "Products"}, // its slug
		{"café", "Café & \"Bar\" <b>"},
		{"team", "Team, Team page"},
		{"!?", ""},
		{"nothing like it", ""},
	} {
		if got := searched(t, db, ctx, pid, tc.q, 0); got != tc.want {
			t.Errorf("search %q: got %q, want %q", tc.q, got, tc.want)
		}
	}
	if got := searched(t, db, ctx, pid, " ", 0); !strings.HasPrefix(got, "About us, Blog, Café") {
		t.Errorf("a blank search lists %q, want the pages in title order", got)
	}
	if got := searched(t, db, ctx, pid, "page", ids["Page 55"]); got != "Page 550, Team page" {
		t.Errorf("search with Page 55 left out: %q", got)
	}
	found, err := db.Pages.Search(ctx, pid, "pricing", 0, 30)
	if err != nil || len(found) != 1 || found[0].URL != "https://www.acme.example/produkte/pricing" {
		t.Errorf("found %+v (%v), want Pricing at its URL", found, err)
	}

	p, err := db.Pages.Page(ctx, ids["Pricing"])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pages.Rename(anna, pid, p.ID, "Preise", p.Version); err != nil {
		t.Fatal(err)
	}
	if got := searched(t, db, ctx, pid, "preise", 0); got != "Preise" {
		t.Errorf("after the rename, search preise: %q", got)
	}
	if _, err := db.Pages.DeletePage(anna, ids["Team page"]); err != nil {
		t.Fatal(err)
	}
	if got := searched(t, db, ctx, pid, "page", 0); got != "Page 55, Page 550" {
		t.Errorf("after the delete: %q", got)
	}
	if _, err := db.History.Undo(anna, pid); err != nil {
		t.Fatal(err)
	}
	if got := searched(t, db, ctx, pid, "page", 0); got != "Page 55, Page 550, Team page" {
		t.Errorf("after the delete's undo: %q", got)
	}
	other, _, _, _ := acmeFor(t, db)
	if got := searched(t, db, ctx, other, "über", 0); got != "" {
		t.Errorf("another plan's search found %q", got)
	}
}
