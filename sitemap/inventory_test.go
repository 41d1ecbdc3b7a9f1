package sitemap

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/export"
)

// TestImportCSV: a page inventory (a header row with url, then a row a
// page; , or ; between cells; a BOM) becomes a plan with the rows'
// titles and fields; rows without a url and invalid values are left out,
// and said so; an inventory.csv imports back to the same URLs and titles.
func TestImportCSV(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pages.csv")
	os.WriteFile(path, []byte("\uFEFFURL;Title;Status;Assignee;Notes;Priority;Ignored\n"+
		"https://example.com/;Start;live;;;1.0;x\n"+
		"https://example.com/about;'=About us;review;Ann;\"first; second\";0.5;\n"+
		";No URL;planned;;;;\n"+
		"https://example.com/about/team;Team;done;;;;\n"), 0o644)
	pl := NewPlanner()
	rep, err := (&Reader{Local: true}).Read(context.Background(), path, func(_ *SourceFile, u *Found) error { pl.Add(u); return nil })
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Files[0]
	if f.Kind != KindCSV || f.URLs != 3 || len(f.Problems) != 1 || f.Problems[0].Rule != "csv-url" || f.Problems[0].Line != 4 {
		t.Errorf("read %s, %d URLs, problems %+v", f.Kind, f.URLs, f.Problems)
	}
	doc, warns, err := pl.Document("CSV")
	if err != nil {
		t.Fatal(err)
	}
	home := doc.Pages[0]
	about := home.Children[0]
	if home.Title != "Start" || home.Status != "live" || about.Title != "=About us" || about.Assignee != "Ann" || about.Notes != "first; second" ||
		about.Priority == nil || *about.Priority != 0.5 || about.Children[0].Title != "Team" || about.Children[0].Status != "" {
		t.Errorf("plan: %s %q; %s %q %q %v; %s %q", home.Title, home.Status, about.Title, about.Assignee, about.Notes, about.Priority, about.Children[0].Title, about.Children[0].Status)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Reason, "1 value left out as invalid") {
		t.Errorf("warnings %+v", warns)
	}

	// inventory.csv back in
	if err := doc.Validate(); err != nil {
		t.Fatal(err)
	}
	tr, _ := doc.Tree()
	inv := filepath.Join(dir, "inventory.csv")
	var buf bytes.Buffer
	export.WriteInventory(&buf, tr)
	os.WriteFile(inv, buf.Bytes(), 0o644)
	again := NewPlanner()
	if _, err := (&Reader{Local: true}).Read(context.Background(), inv, func(_ *SourceFile, u *Found) error { again.Add(u); return nil }); err != nil {
		t.Fatal(err)
	}
	doc2, _, err := again.Document("CSV again")
	if err != nil {
		t.Fatal(err)
	}
	if a, b := shape(doc.Pages), shape(doc2.Pages); a != b {
		t.Errorf("inventory.csv imports as\n%s\nnot\n%s", b, a)
	}
}

// TestReadCSVBroken: a row the CSV reader cannot parse (an open quote)
// stops the reading with the line and what is wrong, after the rows
// before it; even where it ends the file with no field read.
func TestReadCSVBroken(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"open quote", "url,title\nhttps://example.com/,Home\nhttps://example.com/a,\"A\n", `1 URLs; csv line 3: Line 3: extraneous or missing " in quoted-field; reading stopped there.`},
		{"nothing after", "URL \n\"", `0 URLs; csv line 2: Line 2: extraneous or missing " in quoted-field; reading stopped there.`},
	}
	for _, tt := range tests {
		n := 0
		doc, err := ReadCSV(strings.NewReader(tt.in), func(*Document, *Found) error { n++; return nil })
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got string
		for _, p := range doc.Problems {
			got = fmt.Sprintf("%d URLs; %s line %d: %s", n, p.Rule, p.Line, p.Msg)
		}
		if len(doc.Problems) != 1 || got != tt.want {
			t.Errorf("%s: %q (%d problems), want %q", tt.name, got, len(doc.Problems), tt.want)
		}
	}
}
