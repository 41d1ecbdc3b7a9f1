package site

import (
	"strings"
	"testing"
)

// TestBriefValidate: a page's brief is trimmed and its vocabulary
// lower-cased; each wrong field is named "brief.FIELD" with what to fix.
func TestBriefValidate(t *testing.T) {
	p := NewPage("Tents")
	p.Brief = Brief{SEOTitle: "  Tents for every season | Aurora ", Intent: " Commercial", Keyword: "tents",
		Blocks: []Block{{Kind: "Hero", Note: " Big photo "}, {Kind: "faq"}}, WordTarget: 600, Owner: "Mara", Due: "2026-12-15"}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if b := p.Brief; b.SEOTitle != "Tents for every season | Aurora" || b.Intent != IntentCommercial || b.Blocks[0] != (Block{Kind: "hero", Note: "Big photo"}) {
		t.Errorf("not normalised: %+v", b)
	}
	for _, tc := range []struct {
		brief       Brief
		field, want string
	}{
		{Brief{Intent: "curious"}, "brief.intent", "Intent must be one of informational"},
		{Brief{Blocks: []Block{{Kind: "text"}, {Kind: "carousel"}}}, "brief.blocks.1", `Block 2: kind "carousel" is not one of hero`},
		{Brief{Blocks: []Block{{Kind: "text", Note: "a\x00b"}}}, "brief.blocks.0", "control character"},
		{Brief{Blocks: make([]Block, MaxBlocks+1)}, "brief.blocks", "at most 50 blocks"},
		{Brief{Due: "15.12.2026"}, "brief.due", "a date such as 2026-12-15"},
		{Brief{WordTarget: -1}, "brief.word_target", "from 0 to 100,000"},
		{Brief{SEOTitle: strings.Repeat("x", MaxSEOText+1)}, "brief.seo_title", "longer than 500"},
		{Brief{Keyword: "a\nb"}, "brief.keyword", "control character"},
	} {
		p := NewPage("Tents")
		p.Brief = tc.brief
		if got := ErrorFields(p.Validate())[tc.field]; !strings.Contains(got, tc.want) {
			t.Errorf("%+v: %s says %q, want %q", tc.brief, tc.field, got, tc.want)
		}
	}
}

// TestBriefDocument: a document's brief comes in with its page and goes
// out again; a wrong one names the page and the field.
func TestBriefDocument(t *testing.T) {
	const src = `{"format":"siteplan/1","project":{"name":"A","base_url":"https://a.example/"},"pages":[
		{"key":"home","title":"Home","slug":"","brief":{"seo_title":"Aurora","h1":"Tents","blocks":[{"kind":"hero","note":"Photo"}],"word_target":300,"due":"2026-12-01"}}]}`
	d, err := ParseDocument(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := d.Tree()
	home := tr.Pages()[0]
	if home.Brief.H1 != "Tents" || BlocksText(home.Brief.Blocks) != "Hero: Photo" || home.Brief.WordTarget != 300 {
		t.Errorf("brief read %+v", home.Brief)
	}
	back := NewDocument(tr, nil)
	if b := back.Pages[0].Brief; b == nil || !b.Equal(&home.Brief) {
		t.Errorf("brief written %+v", b)
	}
	plain := NewPage("x")
	plain.ID = 1
	if back2 := NewDocument(NewTree(tr.Project, []Page{plain}), nil); back2.Pages[0].Brief != nil {
		t.Error("an empty brief is written")
	}
	bad := strings.Replace(src, `"kind":"hero"`, `"kind":"banner"`, 1)
	if _, err := ParseDocument(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "brief.blocks.0") || !strings.Contains(err.Error(), "Home") {
		t.Errorf("a wrong block: %v", err)
	}
}
