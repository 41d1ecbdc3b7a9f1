package sitemap

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/export"
	"siteplan/site"
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

// TestReadPlanWholeOrNothing: an import never makes a plan of part of a
// file. A CSV row the reader cannot parse (an unquoted spreadsheet
// formula with quotes in it) and a sitemap past the protocol's size
// limit each fail the import, naming the file, the line and the limit as
// check does; a file with nothing usable says why.
func TestReadPlanWholeOrNothing(t *testing.T) {
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	zw.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url>`))
	zw.Write(bytes.Repeat([]byte(" "), site.MaxSitemapBytes))
	zw.Write([]byte(`<url><loc>https://example.com/b</loc></url></urlset>`))
	zw.Close()
	for _, tt := range []struct {
		name, file string
		body       []byte
		want       []string
	}{
		{"stray quote", "pages.csv", []byte("url,title\nhttps://example.com/,Home\nhttps://example.com/a,A\nhttps://example.com/b,=HYPERLINK(\"https://x.example\";\"B\")\nhttps://example.com/c,C\n"),
			[]string{"pages.csv could not be read to its end: Line 4:", "reading stopped there", "Nothing was imported"}},
		{"gzip bomb", "sitemap.xml.gz", bomb.Bytes(),
			[]string{"sitemap.xml.gz could not be read to its end:", "larger than 52428800 bytes uncompressed, the protocol's limit", "Nothing was imported"}},
		{"no url column", "pages.csv", []byte("link,title\nhttps://example.com/,Home\n"),
			[]string{"The source lists no URL that can be imported.", "pages.csv: The CSV file's header row has no url column"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, plan, _, err := (&Reader{}).ReadPlan(context.Background(), tt.file, bytes.NewReader(tt.body), "X")
			if site.ErrorCode(err) != site.EInvalid || plan != nil {
				t.Fatalf("ReadPlan: plan %v, error %v; want no plan and EInvalid", plan != nil, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(site.ErrorMessage(err), w) {
					t.Errorf("the error %q does not say %q", site.ErrorMessage(err), w)
				}
			}
		})
	}
}

// TestCSVStatusLabels: a CSV's status may be written as the app shows
// it ("in progress"), in any case and spacing, as well as stored.
func TestCSVStatusLabels(t *testing.T) {
	csv := "url,title,status\nhttps://example.com/,Home,In Progress\nhttps://example.com/a,A,in-progress\nhttps://example.com/b,B, LIVE \nhttps://example.com/c,C,in_progress\nhttps://example.com/d,D,done\n"
	_, plan, warns, err := (&Reader{}).ReadPlan(context.Background(), "pages.csv", strings.NewReader(csv), "X")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pg := range plan.Pages() {
		got = append(got, pg.Title+":"+pg.Status)
	}
	if want := "Home:in_progress A:in_progress B:live C:in_progress D:planned"; strings.Join(got, " ") != want {
		t.Errorf("statuses %q, want %q", strings.Join(got, " "), want)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Reason, "1 value left out as invalid") {
		t.Errorf("warnings %+v, want the one unknown status", warns)
	}
}

// TestImportedStatus: the pages of a sitemap's URLs exist, so they are
// live; a level no URL names is a group, planned; a CSV row without a
// status is planned as a new page is.
func TestImportedStatus(t *testing.T) {
	xml := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url><url><loc>https://example.com/shop/tents</loc></url></urlset>`
	for _, tt := range []struct{ file, body, want string }{
		{"sitemap.xml", xml, "Home:live Shop:planned Tents:live"},
		{"pages.csv", "url\nhttps://example.com/\nhttps://example.com/a\n", "Home:planned A:planned"},
	} {
		_, plan, _, err := (&Reader{}).ReadPlan(context.Background(), tt.file, strings.NewReader(tt.body), "X")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, pg := range plan.Pages() {
			got = append(got, pg.Title+":"+pg.Status)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%s: %q, want %q", tt.file, strings.Join(got, " "), tt.want)
		}
	}
}

// TestImportKeptFromSearch: a live site's cart and login pages are
// planned out of the sitemap, as a new page of that name would be.
func TestImportKeptFromSearch(t *testing.T) {
	txt := "https://example.com/\nhttps://example.com/cart\nhttps://example.com/account/login\nhttps://example.com/tents\n"
	_, plan, _, err := (&Reader{}).ReadPlan(context.Background(), "sitemap.txt", strings.NewReader(txt), "X")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pg := range plan.Pages() {
		got = append(got, fmt.Sprintf("%s:%v", pg.Title, pg.InSitemap))
	}
	if want := "Home:true Cart:false Account:false Login:false Tents:true"; strings.Join(got, " ") != want {
		t.Errorf("in the sitemap: %s, want %s", strings.Join(got, " "), want)
	}
}

// TestImportCSVBriefs: the briefs of inventory.csv import back whole
// (blocks a line each, their kinds as stored or as the editor names
// them); a row whose brief is wrong keeps its page without the brief,
// said in the warnings.
func TestImportCSVBriefs(t *testing.T) {
	dir := t.TempDir()
	b := site.Brief{SEOTitle: "Tents | Aurora", MetaDescription: "Four seasons, one tent.", H1: "Tents", Keyword: "tents", Intent: "commercial",
		Blocks: []site.Block{{Kind: "hero", Note: "Photo: a tent at dawn"}, {Kind: "cta"}}, WordTarget: 1200, Owner: "Mara", Due: "2026-12-15"}
	doc := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "B", BaseURL: "https://example.com/"},
		Pages: []*site.DocPage{{Title: "Home", Slug: ptr(""), Children: []*site.DocPage{{Title: "Tents", Brief: &b}, {Title: "Boots"}}}}}
	if err := doc.Validate(); err != nil {
		t.Fatal(err)
	}
	tr, _ := doc.Tree()
	var buf bytes.Buffer
	if err := export.WriteInventory(&buf, tr); err != nil {
		t.Fatal(err)
	}
	// A row the editor's words wrote, and one with a brief that is wrong.
	buf.WriteString("https://example.com/stoves,Stoves,,,,,,,,page,main,yes,Home > Stoves,,,,,,\"Call to action: Buy\nFAQ\",,,\n")
	buf.WriteString("https://example.com/packs,Packs,,,,,,,,page,main,yes,Home > Packs,,,,,curious,,,,\n")
	inv := filepath.Join(dir, "inventory.csv")
	os.WriteFile(inv, buf.Bytes(), 0o644)
	pl := NewPlanner()
	if _, err := (&Reader{Local: true}).Read(context.Background(), inv, func(_ *SourceFile, u *Found) error { return pl.Add(u) }); err != nil {
		t.Fatal(err)
	}
	back, warns, err := pl.Document("B")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*site.Brief{}
	for _, p := range back.Pages[0].Children {
		got[p.Title] = p.Brief
	}
	if got["Tents"] == nil || !got["Tents"].Equal(&b) {
		t.Errorf("Tents' brief came back as %+v", got["Tents"])
	}
	if got["Boots"] != nil || got["Packs"] != nil {
		t.Errorf("briefs where none was right: %+v, %+v", got["Boots"], got["Packs"])
	}
	if s := got["Stoves"]; s == nil || site.BlocksText(s.Blocks) != "Call to action: Buy · FAQ" {
		t.Errorf("Stoves' blocks came back as %+v", s)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Reason, "1 value left out as invalid") {
		t.Errorf("warnings %+v", warns)
	}
}
