package store

import (
	"context"
	"fmt"
	"testing"

	"siteplan/site"
)

// TestBriefHistory: a page's brief is saved with it, listed as a field
// change, undone and redone, kept by a version and restored with it,
// streamed by the outline and written to the document.
func TestBriefHistory(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	ctx := context.Background()
	brief := func() site.Brief {
		t.Helper()
		p, err := db.Pages.Page(ctx, ids["Pricing"])
		if err != nil {
			t.Fatal(err)
		}
		return p.Brief
	}
	save := func(b site.Brief) {
		t.Helper()
		p, err := db.Pages.Page(ctx, ids["Pricing"])
		if err != nil {
			t.Fatal(err)
		}
		p.Brief = b
		if err := db.Pages.UpdatePage(anna, &p); err != nil {
			t.Fatal(err)
		}
	}
	full := site.Brief{SEOTitle: "Pricing | Acme", MetaDescription: "What Acme costs.", H1: "Pricing", Keyword: "acme pricing",
		Intent: site.IntentCommercial, Blocks: []site.Block{{Kind: "hero"}, {Kind: "table", Note: "Plans side by side"}},
		WordTarget: 400, Owner: "Mara", Due: "2026-12-15"}
	before, err := db.Pages.Tree(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	save(full)
	if b := brief(); !b.Equal(&full) {
		t.Fatalf("saved %+v", b)
	}
	if _, err := db.History.CreateVersion(anna, pid, "With brief"); err != nil {
		t.Fatal(err)
	}
	after, _ := db.Pages.Tree(ctx, pid)
	changed := map[string]bool{}
	for _, e := range site.Compare(before, after, nil, nil).Changed {
		for _, f := range e.Fields {
			changed[f.Field] = true
		}
	}
	for _, f := range []string{"seo_title", "meta_description", "h1", "keyword", "intent", "blocks", "word_target", "content_owner", "due"} {
		if !changed[f] {
			t.Errorf("the change does not list %s: %v", f, changed)
		}
	}

	less := full.Clone()
	less.Blocks = less.Blocks[:1]
	less.SEOTitle = ""
	save(less)
	if _, err := db.History.Undo(anna, pid); err != nil {
		t.Fatal(err)
	}
	if b := brief(); !b.Equal(&full) {
		t.Errorf("after undo %+v", b)
	}
	if _, err := db.History.Redo(anna, pid); err != nil {
		t.Fatal(err)
	}
	if b := brief(); !b.Equal(&less) {
		t.Errorf("after redo %+v", b)
	}
	if _, err := db.History.RestoreVersion(anna, pid, 1); err != nil {
		t.Fatal(err)
	}
	if b := brief(); !b.Equal(&full) {
		t.Errorf("after restoring the version %+v", b)
	}
	_, vt, _, err := db.History.Version(ctx, pid, 1)
	if err != nil || !vt.Page(ids["Pricing"]).Brief.Equal(&full) {
		t.Errorf("the version keeps %+v (%v)", vt.Page(ids["Pricing"]).Brief, err)
	}

	var streamed site.Brief
	o, err := db.Pages.Outline(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Walk(0, func(p *site.Page, _ string, _ int) error {
		if p.ID == ids["Pricing"] {
			streamed = p.Brief
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !streamed.Equal(&full) {
		t.Errorf("the outline streams %+v", streamed)
	}
	doc, err := db.Projects.Document(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	again, err := db.Projects.ImportDocument(ctx, 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(ctx, again)
	found := false
	tr.Walk(func(p *site.Page, _ int) bool {
		if p.Title == "Pricing" {
			found = p.Brief.Equal(&full)
		}
		return true
	})
	if !found {
		t.Error("the brief does not round-trip through the document")
	}
}

// TestTypeTemplates: a page that takes a type with a template starts
// with its blocks (notes, not the "required" marks); one with blocks of
// its own keeps them; a type the team has not used, or a wrong block,
// is refused.
func TestTypeTemplates(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	ctx := context.Background()
	tmpl := []site.Block{{Kind: "Hero", Note: "Product photo"}, {Kind: "table", Note: "Specs", Required: true}, {Kind: "faq"}}
	if err := db.Themes.SetTypeTemplate(ctx, 1, "landing", tmpl, "post"); err != nil {
		t.Fatal(err)
	}
	got, err := db.Themes.ProjectTemplates(ctx, pid)
	if err != nil || site.BlocksText(got["landing"]) != "Hero: Product photo · Table: Specs · FAQ" || !got["landing"][1].Required {
		t.Fatalf("templates %+v %v", got, err)
	}
	if pt, err := db.Themes.PostTypes(ctx, pid); err != nil || pt["landing"] != "post" {
		t.Errorf("post types %v, %v", pt, err)
	}
	if err := db.Themes.SetTypeTemplate(ctx, 1, "landing", tmpl, "Not A Type"); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("a post type WordPress would not take: %v", err)
	}
	if err := db.Themes.SetTypeTemplate(ctx, 1, "nosuchtype", tmpl, ""); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("an unused type: %v", err)
	}
	if err := db.Themes.SetTypeTemplate(ctx, 1, "landing", []site.Block{{Kind: "banner"}}, ""); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("a wrong block: %v", err)
	}
	// A new page of the type, and a page that takes it.
	p := site.NewPage("Spring sale")
	p.ProjectID, p.Type = pid, "landing"
	if err := db.Pages.CreatePage(anna, &p); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Pages.Page(ctx, p.ID); site.BlocksText(got.Brief.Blocks) != "Hero: Product photo · Table: Specs · FAQ" || got.Brief.Blocks[1].Required {
		t.Errorf("a new landing page starts with %+v", got.Brief.Blocks)
	}
	team, _ := db.Pages.Page(ctx, ids["Team"])
	team.Type = "landing"
	if err := db.Pages.UpdatePage(anna, &team); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Pages.Page(ctx, ids["Team"]); len(got.Brief.Blocks) != 3 {
		t.Errorf("a page that takes the type starts with %+v", got.Brief.Blocks)
	}
	own, _ := db.Pages.Page(ctx, ids["Contact"])
	own.Type, own.Brief.Blocks = "landing", []site.Block{{Kind: "form"}}
	if err := db.Pages.UpdatePage(anna, &own); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Pages.Page(ctx, ids["Contact"]); site.BlocksText(got.Brief.Blocks) != "Form" {
		t.Errorf("a page with blocks of its own has %+v", got.Brief.Blocks)
	}
}

// TestStarters: a plan kept as a starter comes back whole as a document
// (briefs included); names are a team's own; the team keeps at most
// site.MaxStarters; deleting one leaves the rest.
func TestStarters(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	ctx := context.Background()
	pg, _ := db.Pages.Page(ctx, ids["Pricing"])
	pg.Brief = site.Brief{H1: "Plans", Blocks: []site.Block{{Kind: "table"}}}
	if err := db.Pages.UpdatePage(anna, &pg); err != nil {
		t.Fatal(err)
	}
	s, err := db.Projects.SaveStarter(ctx, pid, "Agency site", "Anna")
	if err != nil || s.ID == 0 || s.Pages != 12 || s.TeamID != 1 {
		t.Fatalf("save: %+v %v", s, err)
	}
	doc, err := db.Projects.StarterDocument(ctx, 1, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var brief *site.Brief
	var walk func(ps []*site.DocPage)
	walk = func(ps []*site.DocPage) {
		for _, p := range ps {
			if p.Title == "Pricing" {
				brief = p.Brief
			}
			walk(p.Children)
		}
	}
	walk(doc.Pages)
	if brief == nil || brief.H1 != "Plans" || doc.CountPages() != 12 {
		t.Errorf("the starter's document: %d pages, Pricing's brief %+v", doc.CountPages(), brief)
	}
	if _, err := db.Projects.StarterDocument(ctx, 2, s.ID); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("another team's starter: %v", err)
	}
	if _, err := db.Projects.SaveStarter(ctx, pid, "Agency site", "Anna"); site.ErrorCode(err) != site.EConflict {
		t.Errorf("a name taken: %v", err)
	}
	if _, err := db.Projects.SaveStarter(ctx, pid, " ", "Anna"); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("no name: %v", err)
	}
	for i := 1; i < site.MaxStarters; i++ {
		if _, err := db.Projects.SaveStarter(ctx, pid, fmt.Sprintf("Starter %02d", i), "Anna"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Projects.SaveStarter(ctx, pid, "One too many", "Anna"); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("past the most: %v", err)
	}
	if err := db.Projects.DeleteStarter(ctx, 1, s.ID); err != nil {
		t.Fatal(err)
	}
	if list, _ := db.Projects.Starters(ctx, 1); len(list) != site.MaxStarters-1 || list[0].Name != "Starter 01" {
		t.Errorf("after a delete: %d, first %+v", len(list), list[0])
	}
	if err := db.Projects.DeleteStarter(ctx, 1, s.ID); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("deleted twice: %v", err)
	}
}
