package store

import (
	"context"
	"strings"
	"testing"

	"siteplan/site"
)

// TestLocalizedPlanStored: a localized plan's locales, x-default and
// variants are stored with the plan and read back: its document is the
// one imported, and every page's URL in every locale is the same.
func TestLocalizedPlanStored(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := d.Tree()
	pid, err := db.Projects.ImportDocument(ctx, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.Pages.Tree(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got.Project.Locales); n != 3 || got.Project.Locales[2].Tag != "fr-CH" || !got.Project.Locales[0].Default {
		t.Fatalf("locales read back: %+v", got.Project.Locales)
	}
	byTitle := func(tr *site.Tree) map[string]int64 {
		m := map[string]int64{}
		tr.Walk(func(p *site.Page, _ int) bool { m[p.Title] = p.ID; return true })
		return m
	}
	wantIDs, gotIDs := byTitle(want), byTitle(got)
	if got.Project.XDefault != gotIDs["Home"] {
		t.Errorf("x-default = %d, want Home's %d", got.Project.XDefault, gotIDs["Home"])
	}
	for title := range wantIDs {
		for _, l := range want.Project.Locales {
			if w, g := want.LocaleURL(wantIDs[title], l.Tag), got.LocaleURL(gotIDs[title], l.Tag); w != g {
				t.Errorf("%s in %s: %q stored, %q imported", title, l.Tag, g, w)
			}
		}
	}
	doc, err := db.Projects.Document(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := doc.Encode(&b); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"locales":[{"tag":"en","default":true,"prefix":"/en/"},{"tag":"de","prefix":"/de/"},{"tag":"fr-CH","base_url":"https://acme.ch/fr/"}]`,
		`"state":"not_offered","variants":{"fr-CH":{"title":"Magasins","slug":"magasins","state":"translating"}}`,
		`"de":{"title":"Preise","slug":"preise","brief":{"seo_title":"Preise | Acme"}}`} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("the dump lacks %s:\n%s", s, b.String())
		}
	}
	if !strings.Contains(b.String(), `"x_default":"p`) {
		t.Errorf("the dump lacks x_default:\n%s", b.String())
	}
}

// TestLocalizedPlanHistory: a page's variants are part of its state in
// the history: undoing its deletion and restoring a version from before
// it give them back with the page, and the version reads them.
func TestLocalizedPlanHistory(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.Projects.ImportDocument(ctx, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	u, _, err := db.Accounts.AddUser(ctx, "anna@agency.example", "Anna", pw, "1", site.RoleEditor)
	if err != nil {
		t.Fatal(err)
	}
	anna := site.WithViewer(ctx, site.Viewer{UserID: u.ID, Name: "Anna", Access: site.AccessEdit})
	tr, _ := db.Pages.Tree(ctx, pid)
	var products int64
	tr.Walk(func(p *site.Page, _ int) bool {
		if p.Title == "Products" {
			products = p.ID
		}
		return true
	})
	urls := func() string {
		t.Helper()
		tr, err := db.Pages.Tree(ctx, pid)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		tr.Walk(func(p *site.Page, _ int) bool {
			for _, l := range tr.Project.Locales {
				out = append(out, l.Tag+" "+tr.LocaleURL(p.ID, l.Tag))
			}
			return true
		})
		return strings.Join(out, "\n")
	}
	want := urls()
	if !strings.Contains(want, "de https://www.acme.example/de/produkte/preise") {
		t.Fatalf("imported:\n%s", want)
	}
	v, err := db.History.CreateVersion(anna, pid, "Kickoff")
	if err != nil {
		t.Fatal(err)
	}
	del := func() {
		t.Helper()
		if _, err := db.Pages.DeletePage(anna, products); err != nil {
			t.Fatal(err)
		}
		if got := urls(); strings.Contains(got, "preise") {
			t.Fatalf("after the delete:\n%s", got)
		}
	}
	del()
	if _, err := db.History.Undo(anna, pid); err != nil {
		t.Fatal(err)
	}
	if got := urls(); got != want {
		t.Errorf("after the undo:\n%s\nwant\n%s", got, want)
	}
	del()
	if _, err := db.History.RestoreVersion(anna, pid, v.Number); err != nil {
		t.Fatal(err)
	}
	if got := urls(); got != want {
		t.Errorf("after restoring the version:\n%s\nwant\n%s", got, want)
	}
	_, vt, _, err := db.History.Version(ctx, pid, v.Number)
	if err != nil {
		t.Fatal(err)
	}
	var pricing int64
	vt.Walk(func(p *site.Page, _ int) bool {
		if p.Title == "Pricing" {
			pricing = p.ID
		}
		return true
	})
	if got := vt.LocaleURL(pricing, "de"); got != "https://www.acme.example/de/produkte/preise" {
		t.Errorf("the version reads Pricing in de as %q", got)
	}
}

// TestSetVariant: a page's variant in a locale is set as one change the
// history undoes; a slug a sibling has there is refused, naming it; a
// tag that is not a locale is refused; a translated title gets a slug.
func TestSetVariant(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.Projects.ImportDocument(ctx, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	u, _, err := db.Accounts.AddUser(ctx, "anna@agency.example", "Anna", pw, "1", site.RoleEditor)
	if err != nil {
		t.Fatal(err)
	}
	anna := site.WithViewer(ctx, site.Viewer{UserID: u.ID, Name: "Anna", Access: site.AccessEdit})
	ids := map[string]int64{}
	tr, _ := db.Pages.Tree(ctx, pid)
	tr.Walk(func(p *site.Page, _ int) bool { ids[p.Title] = p.ID; return true })
	urlIn := func(title, tag string) string {
		tr, err := db.Pages.Tree(ctx, pid)
		if err != nil {
			t.Fatal(err)
		}
		return tr.LocaleURL(ids[title], tag)
	}
	if err := db.Pages.SetVariant(anna, pid, ids["Swiss stores"], "de", site.Variant{Title: "Läden in der Schweiz", State: site.VariantReady}); err != nil {
		t.Fatal(err)
	}
	if got := urlIn("Swiss stores", "de"); got != "https://www.acme.example/de/laden-in-der-schweiz" {
		t.Errorf("Swiss stores in de: %q", got)
	}
	err = db.Pages.SetVariant(anna, pid, ids["Swiss stores"], "de", site.Variant{Slug: "produkte"})
	if err == nil || !strings.Contains(err.Error(), `In de, “Produkte” already has the slug "produkte" under the same parent`) {
		t.Errorf("a sibling's slug: %v", err)
	}
	if err := db.Pages.SetVariant(anna, pid, ids["Pricing"], "it", site.Variant{Title: "Prezzi"}); err == nil || !strings.Contains(err.Error(), "not one of the plan's locales") {
		t.Errorf("a tag not among the locales: %v", err)
	}
	if _, err := db.History.Undo(anna, pid); err != nil {
		t.Fatal(err)
	}
	if got := urlIn("Swiss stores", "de"); got != "" {
		t.Errorf("after the undo, Swiss stores in de: %q (not offered there before)", got)
	}
}

// TestSetBranchState: a branch set not offered in a locale at once, as
// one change undo takes back whole.
func TestSetBranchState(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.Projects.ImportDocument(ctx, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	u, _, err := db.Accounts.AddUser(ctx, "anna@agency.example", "Anna", pw, "1", site.RoleEditor)
	if err != nil {
		t.Fatal(err)
	}
	anna := site.WithViewer(ctx, site.Viewer{UserID: u.ID, Name: "Anna", Access: site.AccessEdit})
	ids := map[string]int64{}
	tr, _ := db.Pages.Tree(ctx, pid)
	tr.Walk(func(p *site.Page, _ int) bool { ids[p.Title] = p.ID; return true })
	urls := func() string {
		tr, _ := db.Pages.Tree(ctx, pid)
		return tr.LocaleURL(ids["Products"], "de") + " " + tr.LocaleURL(ids["Pricing"], "de")
	}
	n, err := db.Pages.SetBranchState(anna, pid, ids["Products"], "de", site.VariantNotOffered)
	if err != nil || n != 2 {
		t.Fatalf("SetBranchState = %d, %v", n, err)
	}
	if got := urls(); got != " " {
		t.Errorf("Products and Pricing in de: %q", got)
	}
	if _, err := db.History.Undo(anna, pid); err != nil {
		t.Fatal(err)
	}
	if got := urls(); got != "https://www.acme.example/de/produkte https://www.acme.example/de/produkte/preise" {
		t.Errorf("after the undo: %q", got)
	}
	if _, err := db.Pages.SetBranchState(anna, pid, ids["Products"], "it", site.VariantReady); err == nil {
		t.Error("a tag that is not a locale was taken")
	}
}
