package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outlineOf renders a document's pages as "A(B C) utility:D".
func outlineOf(d *Document) string {
	var render func(list []*DocPage) string
	render = func(list []*DocPage) string {
		var parts []string
		for _, p := range list {
			s := p.Title
			if p.Placement != "" && p.Placement != PlacementMain {
				s = p.Placement + ":" + s
			}
			if p.Slug != nil && *p.Slug == "" {
				s += "/"
			}
			if len(p.Children) > 0 {
				s += "(" + render(p.Children) + ")"
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, " ")
	}
	return render(d.Pages)
}

func linksOf(d *Document) string {
	var out []string
	for _, l := range d.Links {
		s := l.From + ">" + l.To
		if l.Label != "" {
			s += ":" + l.Label
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// mermaidFile is a hand-written diagram of testdata/mermaid, which
// web's TestBrowserMermaid has the mermaid package itself parse and
// draw: what siteplan reads is Mermaid as Mermaid reads it.
func mermaidFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "mermaid", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestParseMermaidNew reads flowcharts and mindmaps as agents and
// people write them into new plans.
func TestParseMermaidNew(t *testing.T) {
	tests := []struct {
		name, file, outline, links string
	}{
		{"flowchart", "flowchart.mmd", `Home/(Shop(Tents(Tent "Aurora") Sleeping bags) About us Contact) footer:Legal`, `about>contact:meet us tents>about`},
		{"graph LR with labels and chains", "graph-lr.mmd", `Start/(Pick(Done Other))`, ``},
		{"mindmap", "mindmap.mmd", `Acme/(Products(Tents Bags) About(Team) Contact)`, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseMermaid(mermaidFile(t, tt.file), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := outlineOf(d); got != tt.outline {
				t.Errorf("got  %s\nwant %s", got, tt.outline)
			}
			if got := linksOf(d); got != tt.links {
				t.Errorf("links %q, want %q", got, tt.links)
			}
			d.Project = DocProject{Name: "X", BaseURL: "https://example.com/"}
			if err := d.Validate(); err != nil {
				t.Errorf("not a valid plan: %v", err)
			}
		})
	}
}

// TestParseMermaidOnPlan reads a diagram on top of a plan: pages by
// their node ids keep what they have, a label renames, an absent page
// goes unless a "(+N)" card hid it, a new node is a new page.
func TestParseMermaidOnPlan(t *testing.T) {
	notes := "Keep the hero"
	base := &Document{Format: FormatV1, Project: DocProject{Name: "Acme", BaseURL: "https://acme.example/"}, Pages: []*DocPage{
		{Key: "p1", Title: "Home", Slug: new(string), Children: []*DocPage{
			{Key: "p2", Title: "A very long products title that the diagram cut", Notes: notes, Children: []*DocPage{{Key: "p3", Title: "Tents"}}},
			{Key: "p4", Title: "About", Children: []*DocPage{{Key: "p5", Title: "Team"}, {Key: "p6", Title: "History"}}},
			{Key: "p7", Title: "Blog"},
		}},
	}, Links: []DocLink{{From: "p4", To: "p2"}}}
	text := mermaidFile(t, "on-plan.mmd")
	d, err := ParseMermaid(text, base)
	if err != nil {
		t.Fatal(err)
	}
	want := "Home/(A very long products title that the diagram cut(Tent shop) About(Careers Team History))"
	if got := outlineOf(d); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if d.Pages[0].Children[0].Notes != notes {
		t.Errorf("a page of the plan lost its notes")
	}
	if got := linksOf(d); got != "p4>p2" {
		t.Errorf("links %q: the plan's, as the diagram has none", got)
	}
	if d.Project.Name != "Acme" {
		t.Errorf("project %+v", d.Project)
	}
}

// TestParseMermaidRefusals names the line at fault.
func TestParseMermaidRefusals(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"", "empty"},
		{"sequenceDiagram\n A->>B: hi", "starts with"},
		{"flowchart TD\n A[Home] --> ", "Line 2"},
		{"flowchart TD\n A[\"Home] --> B", "Line 2"},
	} {
		_, err := ParseMermaid(tt.text, nil)
		if ErrorCode(err) != EInvalid || !strings.Contains(ErrorMessage(err), tt.want) {
			t.Errorf("%q: got %v, want %q", tt.text, err, tt.want)
		}
	}
}
