package store

import (
	"context"
	"strings"
	"testing"

	"siteplan/site"
)

// TestURLsStayUnique: every write that can give a page a URL keeps URLs
// unique: a derived slug is numbered, a typed slug or path is refused
// naming the other page, and what was saved before stays as it was.
func TestURLsStayUnique(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	p, ids := newProject(t, db, "Home\nFAQ\nTeam\n  Anna\nAbout\n  Team")
	slug := func(id int64) string {
		t.Helper()
		pg, err := db.Page(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return pg.Slug
	}
	urls := func() {
		t.Helper()
		tr, err := db.Tree(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]string{}
		tr.Walk(func(pg *site.Page, _ int) bool {
			if u := tr.URL(pg.ID); u != "" && seen[u] != "" {
				t.Errorf("%q and %q share %s", seen[u], pg.Title, u)
			} else {
				seen[u] = pg.Title
			}
			return true
		})
	}

	// Add a sibling, then rename it FAQ inline: it becomes faq-2, and
	// saving it again keeps working.
	pg := site.NewPage("New page")
	pg.ProjectID, pg.Position = p.ID, -1
	if err := db.CreatePage(ctx, &pg); err != nil {
		t.Fatal(err)
	}
	renamed, err := db.RenamePage(ctx, pg.ID, "FAQ", pg.Version)
	if err != nil || renamed.Slug != "faq-2" || slug(pg.ID) != "faq-2" {
		t.Fatalf("renamed to FAQ beside FAQ: slug %q (stored %q), err %v; want faq-2", renamed.Slug, slug(pg.ID), err)
	}
	renamed.Notes = "saved again"
	if err := db.UpdatePage(ctx, &renamed); err != nil || renamed.Slug != "faq-2" {
		t.Fatalf("saving faq-2 again: slug %q, err %v", renamed.Slug, err)
	}

	// A typed slug that collides is refused, naming the other page.
	renamed.Slug, renamed.SlugAuto = "faq", false
	err = db.UpdatePage(ctx, &renamed)
	if site.ErrorCode(err) != site.EInvalid || !strings.Contains(site.ErrorFields(err)["slug"], "“FAQ”") {
		t.Fatalf("typed slug faq: %v %v, want EInvalid naming FAQ", err, site.ErrorFields(err))
	}
	if got := slug(pg.ID); got != "faq-2" {
		t.Errorf("a refused save changed the slug to %q", got)
	}

	// Moving About's Team beside Team numbers it; its URL moves along.
	var aboutTeam int64
	tr, _ := db.Tree(ctx, p.ID)
	for _, c := range tr.Children(ids["About"]) {
		aboutTeam = c.ID
	}
	if err := db.MovePage(ctx, aboutTeam, 0, site.PlacementMain, 0); err != nil {
		t.Fatal(err)
	}
	if got := slug(aboutTeam); got != "team-2" {
		t.Errorf("moved Team's slug = %q, want team-2", got)
	}

	// Paste and duplicate twice.
	items, _ := site.ParseOutline("FAQ\nFAQ")
	if _, err := db.InsertOutline(ctx, p.ID, 0, items); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := db.DuplicatePage(ctx, ids["Team"]); err != nil {
			t.Fatal(err)
		}
	}
	urls()

	// Import: twins with derived slugs are numbered; typed twins refused.
	d, err := site.ParseDocument(strings.NewReader(`{"format":"siteplan/1","project":{"name":"I","base_url":"https://i.example/"},
		"pages":[{"title":"Home","slug":"","children":[{"title":"FAQ"},{"title":"FAQ"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	id, err := db.ImportDocument(ctx, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	if it, _ := db.Tree(ctx, id); it.Children(it.Roots(site.PlacementMain)[0].ID)[1].Slug != "faq-2" {
		t.Errorf("imported twin's slug = %q, want faq-2", it.Children(it.Roots(site.PlacementMain)[0].ID)[1].Slug)
	}
	d, _ = site.ParseDocument(strings.NewReader(`{"format":"siteplan/1","project":{"name":"I","base_url":"https://i.example/"},
		"pages":[{"title":"Home","slug":"","children":[{"title":"FAQ"},{"title":"Help","slug":"faq"}]}]}`))
	if _, err := db.ImportDocument(ctx, 1, d); site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "“Help”") {
		t.Errorf("typed twin import: %v, want EInvalid naming Help", err)
	}
}
