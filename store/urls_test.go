package store

import (
	"context"
	"strconv"
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
		pg, err := db.Pages.Page(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return pg.Slug
	}
	urls := func() {
		t.Helper()
		tr, err := db.Pages.Tree(ctx, p.ID)
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
	if err := db.Pages.CreatePage(ctx, &pg); err != nil {
		t.Fatal(err)
	}
	renamed, err := db.Pages.RenamePage(ctx, pg.ID, "FAQ", pg.Version)
	if err != nil || renamed.Slug != "faq-2" || slug(pg.ID) != "faq-2" {
		t.Fatalf("renamed to FAQ beside FAQ: slug %q (stored %q), err %v; want faq-2", renamed.Slug, slug(pg.ID), err)
	}
	renamed.Notes = "saved again"
	if err := db.Pages.UpdatePage(ctx, &renamed); err != nil || renamed.Slug != "faq-2" {
		t.Fatalf("saving faq-2 again: slug %q, err %v", renamed.Slug, err)
	}

	// A typed slug that collides is refused, naming the other page.
	renamed.Slug, renamed.SlugAuto = "faq", false
	err = db.Pages.UpdatePage(ctx, &renamed)
	if site.ErrorCode(err) != site.EInvalid || !strings.Contains(site.ErrorFields(err)["slug"], "“FAQ”") {
		t.Fatalf("typed slug faq: %v %v, want EInvalid naming FAQ", err, site.ErrorFields(err))
	}
	if got := slug(pg.ID); got != "faq-2" {
		t.Errorf("a refused save changed the slug to %q", got)
	}

	// Moving About's Team beside Team numbers it; its URL moves along.
	var aboutTeam int64
	tr, _ := db.Pages.Tree(ctx, p.ID)
	for _, c := range tr.Children(ids["About"]) {
		aboutTeam = c.ID
	}
	if err := db.Pages.MovePage(ctx, aboutTeam, 0, site.PlacementMain, 0); err != nil {
		t.Fatal(err)
	}
	if got := slug(aboutTeam); got != "team-2" {
		t.Errorf("moved Team's slug = %q, want team-2", got)
	}

	// A branch with more slugs than one query may list moves too.
	var big strings.Builder
	big.WriteString("Big branch\n")
	for i := range 300 {
		big.WriteString("  Leaf " + strconv.Itoa(i) + "\n")
	}
	bigItems, _ := site.ParseOutline(big.String())
	bigIDs, err := db.Pages.InsertOutline(ctx, p.ID, ids["About"], bigItems)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Pages.MovePage(ctx, bigIDs[0], 0, site.PlacementMain, 1); err != nil {
		t.Fatalf("moving a branch of 300 pages: %v", err)
	}

	// Paste and duplicate twice.
	items, _ := site.ParseOutline("FAQ\nFAQ")
	if _, err := db.Pages.InsertOutline(ctx, p.ID, 0, items); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := db.Pages.DuplicatePage(ctx, ids["Team"]); err != nil {
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
	id, err := db.Projects.ImportDocument(ctx, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	it, _ := db.Pages.Tree(ctx, id)
	home := it.Roots(site.PlacementMain)[0].ID
	if it.Children(home)[1].Slug != "faq-2" {
		t.Errorf("imported twin's slug = %q, want faq-2", it.Children(home)[1].Slug)
	}
	// The imported pages' slugs count once the import is in.
	pg = site.NewPage("New page")
	pg.ProjectID, pg.ParentID, pg.Position = id, home, -1
	if err := db.Pages.CreatePage(ctx, &pg); err != nil {
		t.Fatal(err)
	}
	if renamed, err := db.Pages.RenamePage(ctx, pg.ID, "FAQ", pg.Version); err != nil || renamed.Slug != "faq-3" {
		t.Errorf("renamed to FAQ beside imported FAQs: slug %q, err %v; want faq-3", renamed.Slug, err)
	}
	d, _ = site.ParseDocument(strings.NewReader(`{"format":"siteplan/1","project":{"name":"I","base_url":"https://i.example/"},
		"pages":[{"title":"Home","slug":"","children":[{"title":"FAQ"},{"title":"Help","slug":"faq"}]}]}`))
	if _, err := db.Projects.ImportDocument(ctx, 1, d); site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "“Help”") {
		t.Errorf("typed twin import: %v, want EInvalid naming Help", err)
	}
	checkSlugs(t, db)
}

// checkForeignKeys checks that the writer enforces foreign keys (an
// import's chunks are written without, txUnchecked) and that every
// reference in the database holds.
func checkForeignKeys(t *testing.T, db *Store) {
	t.Helper()
	if db.pg { // PostgreSQL holds every key as it goes
		return
	}
	var on int
	if err := db.w.QueryRow(`PRAGMA foreign_keys`).Scan(&on); err != nil || on != 1 {
		t.Errorf("PRAGMA foreign_keys = %d, %v; want 1", on, err)
	}
	rows, err := db.w.Query(`PRAGMA foreign_key_check`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, parent string
		var rowid, fk any
		rows.Scan(&table, &rowid, &parent, &fk)
		t.Errorf("row %v of %s refers to a missing row of %s", rowid, table, parent)
	}
}

// checkSlugs checks that the URL rule's slug table lists exactly the
// pages of the projects not being imported, each by its slug.
func checkSlugs(t *testing.T, db *Store) {
	t.Helper()
	for _, q := range []struct{ what, sql string }{
		{"pages missing from page_slugs", `SELECT count(*) FROM pages p JOIN projects pr ON pr.id = p.project_id
			WHERE pr.importing = 0 AND NOT EXISTS (SELECT 1 FROM page_slugs s WHERE s.project_id = p.project_id AND s.slug = p.slug AND s.page_id = p.id)`},
		{"page_slugs rows with no such page", `SELECT count(*) FROM page_slugs s WHERE NOT EXISTS (
			SELECT 1 FROM pages p JOIN projects pr ON pr.id = p.project_id
			WHERE p.id = s.page_id AND p.project_id = s.project_id AND p.slug = s.slug AND pr.importing = 0)`},
	} {
		var n int
		if err := db.w.QueryRow(q.sql).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%d %s", n, q.what)
		}
	}
}

// TestDepthLimit: no write makes a plan deeper than site.MaxDepth levels:
// adding, pasting, moving and importing are refused with a message.
func TestDepthLimit(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	p, ids := newProject(t, db, "Root\nSide\n  Kid")
	parent := ids["Root"]
	for level := 2; level <= site.MaxDepth; level++ {
		pg := site.NewPage("Level " + strconv.Itoa(level))
		pg.ProjectID, pg.ParentID, pg.Position = p.ID, parent, -1
		if err := db.Pages.CreatePage(ctx, &pg); err != nil {
			t.Fatalf("level %d: %v", level, err)
		}
		parent = pg.ID
	}
	deepest := parent
	pg := site.NewPage("One too deep")
	pg.ProjectID, pg.ParentID = p.ID, deepest
	if err := db.Pages.CreatePage(ctx, &pg); site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "at most 100") {
		t.Errorf("add below level 100: %v, want EInvalid", err)
	}
	items, _ := site.ParseOutline("A")
	if _, err := db.Pages.InsertOutline(ctx, p.ID, deepest, items); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("paste below level 100: %v, want EInvalid", err)
	}
	// Side has a child: two levels do not fit below level 99.
	tr, _ := db.Pages.Tree(ctx, p.ID)
	level99 := tr.Page(deepest).ParentID
	if err := db.Pages.MovePage(ctx, ids["Side"], level99, "", 0); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("move a two-level branch below level 99: %v, want EInvalid", err)
	}
	if err := db.Pages.MovePage(ctx, ids["Kid"], level99, "", 0); err != nil {
		t.Errorf("move one page to level 100: %v", err)
	}
	d := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "Deep", BaseURL: "https://deep.example/"}}
	list := &d.Pages
	for level := 1; level <= site.MaxDepth+1; level++ {
		dp := &site.DocPage{Title: "L" + strconv.Itoa(level)}
		*list = append(*list, dp)
		list = &dp.Children
	}
	if _, err := db.Projects.ImportDocument(ctx, 1, d); site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "deeper than 100") {
		t.Errorf("import 101 levels: %v, want EInvalid", err)
	}
}
