package site

import (
	"strings"
	"testing"
)

// TestProjection: a client's projection keeps what is the client's and
// strips the rest; a member's (nil) strips nothing.
func TestProjection(t *testing.T) {
	page := func() Page {
		return Page{Title: "Pricing", Slug: "pricing", Type: "landing", Status: "review", Assignee: "Mats", Notes: "margin 12%",
			Brief: Brief{SEOTitle: "Prices", MetaDescription: "All prices", H1: "Plans", Keyword: "prices", Intent: IntentCommercial,
				Blocks: []Block{{Kind: "table", Note: "Three tiers"}}, WordTarget: 600, Owner: "Mara", Due: "2026-12-01"}}
	}
	tests := []struct {
		name   string
		pr     *Projection
		public bool
		want   func(p *Page) bool
	}{
		{"member", nil, false, func(p *Page) bool {
			return p.Assignee == "Mats" && p.Notes != "" && p.Brief.Owner == "Mara" && p.Status == "review"
		}},
		{"client", &Projection{}, false, func(p *Page) bool {
			return p.Assignee == "" && p.Notes == "" && p.Status == "" && p.Brief.Owner == "" && p.Brief.Due == "" && p.Brief.Keyword == "" &&
				p.Brief.Intent == "" && p.Brief.WordTarget == 0 && p.Brief.H1 == "Plans" && p.Brief.SEOTitle == "Prices" && len(p.Brief.Blocks) == 1 &&
				p.Title == "Pricing" && p.Type == "landing"
		}},
		{"client with public notes and statuses", &Projection{Statuses: []string{"review"}}, true, func(p *Page) bool {
			return p.Notes == "margin 12%" && p.Status == "review" && p.Assignee == ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := page()
			p.NotesPublic = tt.public
			tt.pr.Page(&p)
			if !tt.want(&p) {
				t.Errorf("got %+v", p)
			}
		})
	}
}

// TestDigest: a client's digest of a branch changes with what the client
// sees of it, not with the team's fields, nor with pages elsewhere.
func TestDigest(t *testing.T) {
	pr := Project{BaseURL: "https://acme.example/"}
	pages := func() []Page {
		return []Page{
			{ID: 1, Title: "Home", Kind: KindPage, Placement: PlacementMain},
			{ID: 2, ParentID: 1, Title: "About", Slug: "about", Kind: KindPage},
			{ID: 3, ParentID: 1, Position: 1, Title: "Jobs", Slug: "jobs", Kind: KindPage},
		}
	}
	client := &Projection{}
	base := NewTree(pr, pages())
	digest := func(pr *Projection, edit func(ps []Page), root int64) string {
		ps := pages()
		edit(ps)
		return pr.Digest(NewTree(base.Project, ps), nil, root)
	}
	same := func(ps []Page) {}
	tests := []struct {
		name       string
		edit       func(ps []Page)
		pr         *Projection
		root       int64
		wantChange bool
	}{
		{"nothing", same, client, 0, false},
		{"an assignee, to a client", func(ps []Page) { ps[1].Assignee = "Mats" }, client, 2, false},
		{"an assignee, to a member", func(ps []Page) { ps[1].Assignee = "Mats" }, nil, 2, true},
		{"a title in the branch", func(ps []Page) { ps[1].Title = "About us" }, client, 2, true},
		{"a title elsewhere", func(ps []Page) { ps[2].Title = "Careers" }, client, 2, false},
		{"a slug above the branch moves its URL", func(ps []Page) { ps[0].Slug = "en" }, client, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := digest(tt.pr, tt.edit, tt.root) != digest(tt.pr, same, tt.root); got != tt.wantChange {
				t.Errorf("changed: got %t, want %t", got, tt.wantChange)
			}
		})
	}
}

// TestOldURLOf: an old URL is kept as every URL siteplan reads, or
// refused with what to fix.
func TestOldURLOf(t *testing.T) {
	long := "https://old.example/" + strings.Repeat("a", 20<<20)
	tests := []struct {
		in, want string
		bad      string // in the error
	}{
		{"https://old.example/contact?ref=\"home\"", "https://old.example/contact?ref=%22home%22", ""},
		{"https://old.example/a\x00b", "https://old.example/a%00b", ""},
		{"https://old.example/x\ny", "https://old.example/x%0Ay", ""},
		{"https://old.example/a/../b/./c", "https://old.example/b/c", ""},
		{"https://old.example/a/..", "https://old.example/", ""},
		{"https://old.example/\xff\xfe", "", "UTF-8"},
		{"/relative", "", "absolute"},
		{"https://old.example/" + strings.Repeat("é", 1000), "", "at most 2,048"},
		{long, "", "longer than 2,048"},
	}
	for _, tt := range tests {
		got, err := OldURLOf(tt.in)
		if tt.bad != "" {
			if ErrorCode(err) != EInvalid || !strings.Contains(ErrorMessage(err), tt.bad) {
				t.Errorf("OldURLOf(%.60q): %q, %v, want an error saying %q", tt.in, got, err, tt.bad)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("OldURLOf(%.60q) = %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
}
