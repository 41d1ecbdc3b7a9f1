package site

import (
	"strings"
	"testing"
)

// TestLint: each rule finds its seeded problem, naming the page and the
// field; pages whose briefs are right, groups, placeholders and pages
// kept out of the sitemap without H1 raise nothing.
func TestLint(t *testing.T) {
	pr := Project{Name: "A", BaseURL: "https://a.example/"}
	good := Brief{SEOTitle: "Tents for every season | Aurora", MetaDescription: "Four-season tents tested on three continents, with free returns for a year.",
		H1: "Tents", Keyword: "tents"}
	page := func(id int64, title string, b Brief) Page {
		p := NewPage(title)
		p.ID, p.Position, p.Brief = id, int(id), b
		return p
	}
	dup := good
	dup.H1 = " TENTS " // the same, as the checks compare
	short := Brief{SEOTitle: "Boots", MetaDescription: "Boots.", H1: "Boots", Keyword: "hiking boots"}
	long := Brief{SEOTitle: strings.Repeat("Backpacks ", 7), MetaDescription: strings.Repeat("A pack for every trip. ", 8), H1: "Backpacks", Keyword: "backpacks"}
	blocks := Brief{SEOTitle: "Stoves for camp cooking | Aurora", MetaDescription: "Light stoves for camp cooking, from canister to wood-burning models.",
		H1: "Camp stoves", Keyword: "stoves", Blocks: []Block{{Kind: "hero", Note: "Photo"}, {Kind: "table"}}}
	kept := page(6, "Login", Brief{})
	kept.InSitemap = false
	group := page(7, "Shop", Brief{})
	group.Kind = KindGroup
	bare := page(8, "About", Brief{SEOTitle: "About Aurora, since 1987"})
	typed := page(9, "Camp kitchen", good)
	typed.Brief.SEOTitle, typed.Brief.MetaDescription, typed.Brief.H1 = "Camp kitchen gear | Aurora", "Pots, pans and stoves for cooking outdoors, tested on long trips.", "Camp kitchen"
	typed.Brief.Keyword, typed.Slug, typed.SlugAuto = "camp kitchen", "Camp Kitchen Stuff", false
	pages := []Page{page(1, "Tents", good), page(2, "Tents again", dup), page(3, "Boots", short), page(4, "Backpacks", long), page(5, "Stoves", blocks), kept, group, bare, typed}
	pages[4].Type = "product"
	rep := Lint(NewTree(pr, pages), map[string][]Block{"product": {{Kind: "table", Required: true}, {Kind: "hero"}}})
	var got []string
	for _, p := range rep.Problems {
		got = append(got, p.Page+" "+p.Rule+" "+p.Field)
	}
	want := []string{
		"Tents duplicate-title seo_title", "Tents duplicate-description meta_description", "Tents duplicate-h1 h1", "Tents shared-keyword keyword",
		"Tents again duplicate-title seo_title", "Tents again duplicate-description meta_description", "Tents again duplicate-h1 h1", "Tents again shared-keyword keyword",
		"Boots title-length seo_title", "Boots description-length meta_description", "Boots keyword-unused keyword",
		"Backpacks title-length seo_title", "Backpacks description-length meta_description",
		"Stoves block-note blocks.1",
		"About missing-description meta_description", "About missing-h1 h1",
		"Camp kitchen slug slug",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Pages != 8 {
		t.Errorf("%d pages checked, want 8 (not the group)", rep.Pages)
	}
	for _, p := range rep.Problems {
		if p.Page == "Tents" && p.Rule == LintDuplicateTitle && p.Message != "The SEO title “Tents for every season | Aurora” is also on “Tents again”: search engines cannot tell the pages apart." {
			t.Errorf("the duplicate says %q", p.Message)
		}
		if p.Page == "Boots" && p.Rule == LintTitleLength && !strings.Contains(p.Message, "5 characters") {
			t.Errorf("the short title says %q", p.Message)
		}
		if p.Rule == LintSlug && p.Message != "The slug “Camp Kitchen Stuff” has spaces and capitals: its URL reads “…/Camp%20Kitchen%20Stuff”; use “camp-kitchen-stuff”." {
			t.Errorf("the slug says %q", p.Message)
		}
		if p.PageID == 0 || p.URL == "" {
			t.Errorf("%+v names no page", p)
		}
	}
}
