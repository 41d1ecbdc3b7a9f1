package web

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"siteplan/site"
)

// TestSavePageBrief saves a page's brief from the details form, blocks
// in the order sent; a wrong field or block is refused, named beside it,
// and everything typed stays in the form.
func TestSavePageBrief(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	form := func() url.Values {
		pg, _ := c.db.Pages.Page(ctx, ids["Contact"])
		return url.Values{"version": {itoa(pg.Version)}, "title": {pg.Title}, "slug": {pg.Slug}, "slug_auto": {"1"}, "kind": {"page"},
			"status": {"planned"}, "in_sitemap": {"1"},
			"brief.seo_title": {"Contact Acme | Tools since 1987"}, "brief.meta_description": {"Write, call or visit."},
			"brief.h1": {"Contact us"}, "brief.keyword": {"contact acme"}, "brief.intent": {"navigational"},
			"brief.word_target": {"1,200"}, "brief.owner": {"Mara"}, "brief.due": {"2026-12-15"},
			"block_kind": {"form", "text", "faq"}, "block_note": {"Name, email, message", "", "Opening hours"}}
	}
	rec := c.do("PUT", pagePath(pid, ids["Contact"]), form(), true)
	if rec.Code != 200 {
		t.Fatalf("save: %d %.300s", rec.Code, rec.Body.String())
	}
	pg, _ := c.db.Pages.Page(ctx, ids["Contact"])
	want := site.Brief{SEOTitle: "Contact Acme | Tools since 1987", MetaDescription: "Write, call or visit.", H1: "Contact us", Keyword: "contact acme",
		Intent: site.IntentNavigational, WordTarget: 1200, Owner: "Mara", Due: "2026-12-15",
		Blocks: []site.Block{{Kind: "form", Note: "Name, email, message"}, {Kind: "text"}, {Kind: "faq", Note: "Opening hours"}}}
	if !pg.Brief.Equal(&want) {
		t.Errorf("saved %+v", pg.Brief)
	}
	d := doc(t, rec)
	if d.Find("#brief[open]").Length() != 1 || d.Find("#brief-blocks ol > li.block-row").Length() != 3 || d.Find("#brief-filled").Text() != "5 of 5" {
		t.Errorf("the form shows the brief: open %d, %d blocks, %q filled", d.Find("#brief[open]").Length(), d.Find("#brief-blocks ol > li.block-row").Length(), d.Find("#brief-filled").Text())
	}
	if got := strings.TrimSpace(d.Find("#brief-" + itoa(ids["Contact"]) + "[hx-swap-oob]").Text()); got != "▤ ✓" {
		t.Errorf("the outline's mark says %q", got)
	}
	if got := d.Find(`#brief-blocks ol > li.block-row:nth-child(3) select option[selected]`).AttrOr("value", ""); got != "faq" {
		t.Errorf("the third block shows %q", got)
	}

	for _, tc := range []struct{ field, value, errField, want string }{
		{"brief.word_target", "many", "brief.word_target", "whole number"},
		{"brief.due", "next week", "brief.due", "a date such as"},
		{"brief.intent", "curious", "brief.intent", "Intent must be one of"},
	} {
		f := form()
		f.Set(tc.field, tc.value)
		rec := c.do("PUT", pagePath(pid, ids["Contact"]), f, true)
		d := doc(t, rec)
		if got := d.Find("#err-" + strings.ReplaceAll(tc.errField, ".", `\.`)).Text(); rec.Code != 422 || !strings.Contains(got, tc.want) {
			t.Errorf("%s=%q: %d, says %q", tc.field, tc.value, rec.Code, got)
		}
		if tc.field == "brief.word_target" && d.Find(`input[name="brief.word_target"]`).AttrOr("value", "") != "many" {
			t.Error("what was typed is lost")
		}
	}
	f := form()
	f["block_kind"] = []string{"form", "carousel"}
	f["block_note"] = []string{"kept", "typed"}
	rec = c.do("PUT", pagePath(pid, ids["Contact"]), f, true)
	d = doc(t, rec)
	bad := d.Find("#brief-blocks ol > li.block-row.has-error")
	if rec.Code != 422 || bad.Length() != 1 || !strings.Contains(bad.Text(), `Block 2: kind "carousel"`) || d.Find(`input[name=block_note][value=typed]`).Length() != 1 {
		t.Errorf("a wrong block: %d, %q", rec.Code, bad.Text())
	}
	if pg2, _ := c.db.Pages.Page(ctx, ids["Contact"]); !pg2.Brief.Equal(&want) {
		t.Errorf("a refused form changed the brief: %+v", pg2.Brief)
	}
}

// TestLintPage: the Brief check lists the briefs' problems grouped by
// rule, each linking to its page; a plan whose briefs are right says so.
func TestLintPage(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	path := "/projects/" + itoa(pid) + "/lint"
	d := doc(t, c.do("GET", path, nil, false))
	if got := d.Find("#lint-missing-h1 li").Length(); got != 8 { // every page in the sitemap has no H1 yet (Login is kept out)
		t.Errorf("%d pages without an H1, want 8: %s", got, d.Find("#lint-summary").Text())
	}
	for _, title := range []string{"Pricing", "Contact"} {
		pg, _ := c.db.Pages.Page(ctx, ids[title])
		pg.Brief = site.Brief{SEOTitle: "Acme tools for every workshop", H1: title}
		if err := c.db.Pages.UpdatePage(ctx, &pg); err != nil {
			t.Fatal(err)
		}
	}
	d = doc(t, c.do("GET", path, nil, false))
	dup := d.Find("#lint-duplicate-title li")
	if dup.Length() != 2 || dup.First().Find("a.page").AttrOr("href", "") != pagePath(pid, ids["Pricing"]) ||
		!strings.Contains(dup.First().Text(), "is also on “Contact”") {
		t.Errorf("duplicate titles: %d, %q", dup.Length(), dup.First().Text())
	}
	if d.Find("#lint-clean").Length() != 0 {
		t.Error("a plan with problems says it is clean")
	}
}

// TestTypeTemplatesForm: an editor saves a page type's template on the
// team page, a line a block; a wrong block is refused naming it, what
// was typed kept; a new page of the type then starts with the blocks.
// The form also says which WordPress post type the type hands off as.
func TestTypeTemplatesForm(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	ctx := context.Background()
	d := doc(t, c.do("GET", "/team", nil, false))
	if d.Find("#template-landing textarea").Length() != 1 {
		t.Fatalf("the team page has no template for landing")
	}
	rec := c.do("POST", "/team/type-templates", url.Values{"type": {"landing"}, "blocks": {"Hero: Big photo\n\n* FAQ: Questions\ncta"}}, true)
	d = doc(t, rec)
	if rec.Code != 200 || d.Find("#template-landing[open] .alert-ok").Length() != 1 || d.Find("#template-landing textarea").Text() != "hero: Big photo\n* faq: Questions\ncta" {
		t.Errorf("save: %d %q", rec.Code, d.Find("#template-landing textarea").Text())
	}
	rec = c.do("POST", "/team/type-templates", url.Values{"type": {"landing"}, "blocks": {"hero\ncarousel: Slides"}}, true)
	d = doc(t, rec)
	if rec.Code != 422 || !strings.Contains(d.Find("#template-landing .alert-error").Text(), `Block 2: kind "carousel"`) ||
		d.Find("#template-landing textarea").Text() != "hero\ncarousel: Slides" {
		t.Errorf("a wrong block: %d %q", rec.Code, d.Find("#template-landing").Text())
	}
	p := site.NewPage("Spring sale")
	p.ProjectID, p.Type = pid, "landing"
	if err := c.db.Pages.CreatePage(ctx, &p); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.db.Pages.Page(ctx, p.ID); site.BlocksText(got.Brief.Blocks) != "Hero: Big photo · FAQ: Questions · Call to action" {
		t.Errorf("a new landing page starts with %+v", got.Brief.Blocks)
	}
	// The WordPress post type the type hands off as.
	rec = c.do("POST", "/team/type-templates", url.Values{"type": {"landing"}, "blocks": {"hero"}, "post_type": {"post"}}, true)
	if v := doc(t, rec).Find("#f-post-type-landing").AttrOr("value", ""); rec.Code != 200 || v != "post" {
		t.Errorf("the post type: %d %q", rec.Code, v)
	}
	rec = c.do("POST", "/team/type-templates", url.Values{"type": {"landing"}, "blocks": {"hero"}, "post_type": {"Blog Post"}}, true)
	if rec.Code != 422 || !strings.Contains(doc(t, rec).Find("#template-landing .alert-error").Text(), "lower-case letters") {
		t.Errorf("a post type WordPress would not take: %d", rec.Code)
	}
	if rec := c.do("GET", "/projects/"+itoa(pid)+"/handoff/wxr", nil, false); !strings.Contains(rec.Body.String(), "<wp:post_type><![CDATA[post]]></wp:post_type>") {
		t.Errorf("the handoff has no post of the landing pages")
	}
}

// TestStarterPlans: a plan kept as a starter from its settings is
// offered on the projects page; a project started from it has its
// pages and briefs under its own name and base URL; an editor deletes
// it on the Team page; another team cannot start from it.
func TestStarterPlans(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	pg, _ := c.db.Pages.Page(ctx, ids["Pricing"])
	pg.Brief = site.Brief{H1: "Plans", Blocks: []site.Block{{Kind: "table", Note: "Tiers"}}}
	if err := c.db.Pages.UpdatePage(ctx, &pg); err != nil {
		t.Fatal(err)
	}
	rec := c.do("POST", "/projects/"+itoa(pid)+"/starter", url.Values{"name": {"Agency site"}}, true)
	if rec.Code != 201 || !strings.Contains(doc(t, rec).Find("#starter-saved").Text(), "“Agency site” (12 pages)") {
		t.Fatalf("keep: %d %.300s", rec.Code, rec.Body.String())
	}
	if rec := c.do("POST", "/projects/"+itoa(pid)+"/starter", url.Values{"name": {"Agency site"}}, true); rec.Code != 409 ||
		!strings.Contains(doc(t, rec).Find(".field-error").Text(), "already named") {
		t.Errorf("a name taken: %d", rec.Code)
	}
	list, _ := c.db.Projects.Starters(ctx, 1)
	opt := doc(t, c.do("GET", "/", nil, false)).Find(`#f-starter option[value="` + itoa(list[0].ID) + `"]`)
	if !strings.Contains(opt.Text(), "Agency site") {
		t.Fatalf("the projects page does not offer the starter")
	}
	rec = c.do("POST", "/projects", url.Values{"name": {"Globex relaunch"}, "base_url": {"globex.example"}, "starter": {itoa(list[0].ID)}}, false)
	if rec.Code != 303 {
		t.Fatalf("create from the starter: %d %.300s", rec.Code, rec.Body.String())
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(rec.Header().Get("Location"), "/projects/"), 10, 64)
	pr, _ := c.db.Projects.Project(ctx, id)
	tr, _ := c.db.Pages.Tree(ctx, id)
	var brief site.Brief
	tr.Walk(func(p *site.Page, _ int) bool {
		if p.Title == "Pricing" {
			brief = p.Brief
		}
		return true
	})
	if pr.Name != "Globex relaunch" || pr.BaseURL != "https://globex.example/" || tr.Len() != 12 || brief.H1 != "Plans" {
		t.Errorf("the new project: %q %q, %d pages, Pricing's brief %+v", pr.Name, pr.BaseURL, tr.Len(), brief)
	}
	if rec := c.do("POST", "/projects", url.Values{"name": {""}, "base_url": {"x.example"}, "starter": {itoa(list[0].ID)}}, true); rec.Code != 422 {
		t.Errorf("no name: %d", rec.Code)
	}
	other := c.teamClient("other@test.example", "")
	if rec := other.do("POST", "/projects", url.Values{"name": {"Theft"}, "base_url": {"x.example"}, "starter": {itoa(list[0].ID)}}, false); rec.Code != 404 {
		t.Errorf("another team's starter: %d", rec.Code)
	}
	if d := doc(t, c.do("GET", "/team", nil, false)); d.Find("#starter-"+itoa(list[0].ID)).Length() != 1 {
		t.Error("the Team page does not list the starter")
	}
	if rec := c.do("DELETE", "/team/starters/"+itoa(list[0].ID), nil, true); rec.Code != 200 || doc(t, rec).Find("#starter-"+itoa(list[0].ID)).Length() != 0 {
		t.Errorf("delete: %d", rec.Code)
	}
}
