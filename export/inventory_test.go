package export

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"siteplan/site"
)

// TestInventory: inventory.csv has a row a page in outline order, every
// kind, with its URL, fields and outline path; a cell a spreadsheet
// would run as a formula is written after an apostrophe.
func TestInventory(t *testing.T) {
	doc := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "Inv", BaseURL: "https://example.com/"},
		Pages: []*site.DocPage{{Title: "Home", Slug: ptr(""), Children: []*site.DocPage{
			{Title: "Products", Type: "section", Status: "review", Assignee: "Ann", Notes: "two\nlines", Brief: &site.Brief{SEOTitle: "Products | Inv",
				H1: "Our products", Keyword: "products", Intent: "commercial", Blocks: []site.Block{{Kind: "hero", Note: "Photo: the range"}, {Kind: "cards"}},
				WordTarget: 300, Owner: "Mara", Due: "2026-12-15"}, Children: []*site.DocPage{
				{Title: "=HYPERLINK(\"http://evil.example\")", Slug: ptr("evil")},
			}},
			{Title: "Legal", Kind: site.KindGroup, Children: []*site.DocPage{{Title: "Imprint"}}},
			{Title: "Careers", Kind: site.KindPlaceholder},
		}}}}
	if err := doc.Validate(); err != nil {
		t.Fatal(err)
	}
	tr, _ := doc.Tree()
	var buf bytes.Buffer
	if err := WriteInventory(&buf, tr); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, strings.Join(r, "|"))
	}
	none := strings.Repeat("|", len(site.BriefColumns)) // no brief
	want := []string{
		strings.Join(site.InventoryColumns, "|"),
		"https://example.com/|Home||planned||||||page|main|yes|Home" + none,
		"https://example.com/products|Products|section|review|Ann|two\nlines||||page|main|yes|Home > Products|Products | Inv||Our products|products|commercial|hero: Photo: the range\ncards|300|Mara|2026-12-15",
		"https://example.com/products/evil|'=HYPERLINK(\"http://evil.example\")||planned||||||page|main|yes|Home > Products > =HYPERLINK(\"http://evil.example\")" + none, // a cell starting with Home is no formula
		"|Legal||planned||||||group|main|yes|Home > Legal" + none,
		"https://example.com/legal/imprint|Imprint||planned||||||page|main|yes|Home > Legal > Imprint" + none,
		"|Careers||planned||||||placeholder|main|yes|Home > Careers" + none,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("inventory.csv:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func ptr[T any](v T) *T { return &v }

// TestAppendCSV: a field is written as site.DefuseCell and encoding/csv
// would write it, for the awkward ones.
func TestAppendCSV(t *testing.T) {
	for _, f := range []string{"", "plain", "a,b", `say "hi"`, "two\nlines", "cr\r", " lead", "\u00a0nbsp lead", "\u3000wide", `\.`,
		"=SUM(A1)", "+1", "-x", "@me", "\tTab", "\rcr", "=a,b", `=say "x"`, "trail ", "ünïcödé", "日本", "'quoted'", "\\.",
		strings.Repeat("long ", 14), strings.Repeat("long ", 14) + ",", strings.Repeat("long ", 14) + "\r", `"` + strings.Repeat("long ", 14)} {
		var want bytes.Buffer
		cw := csv.NewWriter(&want)
		cw.Write([]string{site.DefuseCell(f)})
		cw.Flush()
		if got := string(appendCSV(nil, f)) + "\n"; got != want.String() {
			t.Errorf("appendCSV(%q) = %q, encoding/csv writes %q", f, got, want.String())
		}
		if got := string(appendCSV(nil, []byte(f))) + "\n"; got != want.String() {
			t.Errorf("appendCSV([]byte(%q)) = %q, encoding/csv writes %q", f, got, want.String())
		}
	}
}
