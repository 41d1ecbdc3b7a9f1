package site

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseDocumentRefuses(t *testing.T) {
	head := `{"format":"siteplan/1","project":{"name":"X","base_url":"https://x.example/"},"pages":`
	tests := []struct {
		name, doc string
		want      []string // every part must be in the message
	}{
		{"unknown format", `{"format":"siteplan/2","project":{"name":"X","base_url":"https://x.example/"},"pages":[{"title":"A"}]}`, []string{"Unknown format", "siteplan/2"}},
		{"missing name", `{"format":"siteplan/1","project":{"base_url":"https://x.example/"},"pages":[{"title":"A"}]}`, []string{"project", "name"}},
		{"sitemap location on another host", `{"format":"siteplan/1","project":{"name":"X","base_url":"https://x.example/","sitemap_location":"https://y.example/"},"pages":[{"title":"A"}]}`, []string{"project", "sitemap_location", "https://x.example"}},
		{"bad base URL", `{"format":"siteplan/1","project":{"name":"X","base_url":"x.example"},"pages":[{"title":"A"}]}`, []string{"project", "base_url"}},
		{"missing title", head + `[{"title":"A","children":[{"slug":"b"}]}]}`, []string{"pages[0].children[0]", "title"}},
		{"duplicate key", head + `[{"key":"a","title":"A"},{"key":"a","title":"B"}]}`, []string{`pages[1] ("B")`, "key"}},
		{"unknown link end", head + `[{"key":"a","title":"A"}],"links":[{"from":"a","to":"zz"}]}`, []string{"links[0]", "zz"}},
		{"priority outside 0-1", head + `[{"title":"A","priority":1.5}]}`, []string{`("A")`, "priority"}},
		{"unknown changefreq", head + `[{"title":"A","changefreq":"often"}]}`, []string{"changefreq"}},
		{"unknown kind", head + `[{"title":"A","kind":"folder"}]}`, []string{"kind"}},
		{"unknown status", head + `[{"title":"A","status":"done"}]}`, []string{"status"}},
		{"lastmod without zone", head + `[{"title":"A","lastmod":"2026-11-01T10:00:00"}]}`, []string{"lastmod", "time zone"}},
		{"footer below root", head + `[{"title":"A","children":[{"title":"B","placement":"footer"}]}]}`, []string{"placement", "root"}},
		{"unknown field", head + `[{"title":"A","colour":"red"}]}`, []string{"Line 1, column", `unknown field "colour"`, "spelling"}},
		{"no pages", head + `[]}`, []string{"no pages"}},
		{"not JSON", `<xml/>`, []string{"Line 1, column 1:", "this is not JSON", "begins with {"}},
		{"a stray character", head + `[{"title":"A"},<b>]}`, []string{"Line 1, column", "the JSON is broken", "expected a value"}},
		{"a trailing comma, line and column", head + "[{\"title\":\"A\",\n  \"slug\":\"a\",}]}", []string{"Line 2, column 14:", "expected a key in double quotes", "a comma before }"}},
		{"a missing comma", head + "[{\"title\":\"A\"\n\"slug\":\"a\"}]}", []string{"Line 2, column 1:", "a comma missing between two fields"}},
		{"a number for a title", head + "[\n{\"title\":5}]}", []string{"Line 2, column 10:", `"pages › title" must be text in double quotes, not a number`}},
		{"text for a switch, in a child", head + `[{"title":"A","children":[{"title":"B","in_sitemap":"yes"}]}]}`, []string{`"pages › children › in_sitemap" must be true or false, not text`}},
		{"a list for the document", `[{"title":"A"}]`, []string{"must be a JSON object", "not a list"}},
		{"empty", ``, []string{"The document is empty"}},
		{"cut off", head + `[{"title":"A"`, []string{"ends too early"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDocument(strings.NewReader(tt.doc))
			if ErrorCode(err) != EInvalid {
				t.Fatalf("err = %v, want invalid", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q does not mention %q", err.Error(), w)
				}
			}
		})
	}
}

func TestParseDocumentDefaults(t *testing.T) {
	d, err := ParseDocument(strings.NewReader(`{"format":"siteplan/1","project":{"name":"X","base_url":"https://X.example"},"pages":[{"title":"Über uns"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if d.Project.BaseURL != "https://x.example/" {
		t.Errorf("base URL = %q, want it normalised", d.Project.BaseURL)
	}
	p := d.Pages[0].ToPage()
	want := Page{Title: "Über uns", Slug: "uber-uns", SlugAuto: true, Kind: KindPage, Placement: PlacementMain,
		Status: StatusPlanned, InSitemap: true, InHTMLSitemap: true}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("defaults = %+v, want %+v", p, want)
	}
}

// spaces is an endless reader of white space.
type spaces struct{}

func (spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// TestParseDocumentSizeLimit: a document is read to MaxDocumentBytes and
// no further, and refused as too large.
func TestParseDocumentSizeLimit(t *testing.T) {
	_, err := ParseDocument(io.MultiReader(strings.NewReader(`{"format":`), spaces{}))
	if ErrorCode(err) != ETooLarge || !strings.Contains(err.Error(), "64 MB") {
		t.Fatalf("endless document: %v, want ETooLarge naming 64 MB", err)
	}
}

// TestDocumentRefusesTwinLinks: two links between the same pages are
// refused, naming both, instead of one label silently dropped.
func TestDocumentRefusesTwinLinks(t *testing.T) {
	_, err := ParseDocument(strings.NewReader(`{"format":"siteplan/1","project":{"name":"X","base_url":"https://x.example/"},
		"pages":[{"key":"a","title":"A"},{"key":"b","title":"B"}],
		"links":[{"from":"a","to":"b","label":"one"},{"from":"a","to":"b","label":"two"}]}`))
	if ErrorCode(err) != EInvalid || !strings.Contains(err.Error(), "links[1]") || !strings.Contains(err.Error(), "links[0]") {
		t.Errorf("twin links: %v, want EInvalid naming links[0] and links[1]", err)
	}
}

// TestEncodeDeepDocument: the encoder's output grows with the pages, not
// with their depth (no indentation), and reads back as the same plan.
func TestEncodeDeepDocument(t *testing.T) {
	d := &Document{Format: FormatV1, Project: DocProject{Name: "Deep", BaseURL: "https://deep.example/"}}
	list := &d.Pages
	for level := 1; level <= MaxDepth; level++ {
		dp := &DocPage{Title: "L" + strconv.Itoa(level), Key: "k" + strconv.Itoa(level)}
		*list = append(*list, dp)
		list = &dp.Children
	}
	d.Links = []DocLink{{From: "k1", To: "k100", Label: "deep <link> & \"quoted\""}}
	var buf bytes.Buffer
	if err := d.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if per := buf.Len() / MaxDepth; per > 120 {
		t.Errorf("%d bytes a page for a 100-level chain: the output grows with depth", per)
	}
	back, err := ParseDocument(&buf)
	if err != nil {
		t.Fatalf("the encoded document does not parse: %v", err)
	}
	if back.CountPages() != MaxDepth || back.Links[0].Label != d.Links[0].Label {
		t.Errorf("read back %d pages and link %+v", back.CountPages(), back.Links)
	}
}

// TestKeptFromSearch: a cart, checkout, account, login, search or
// wishlist page (by its slug or its page type) starts out of the
// sitemap, made in the editor or read from a document that does not
// say; a document that says in_sitemap keeps it.
func TestKeptFromSearch(t *testing.T) {
	for _, tt := range []struct {
		title string
		want  bool
	}{{"Cart", false}, {"Checkout", false}, {"My account", false}, {"Log in", false}, {"Wishlist", false}, {"Search", false},
		{"Cartography", true}, {"Research", true}, {"About us", true}} {
		if p := NewPage(tt.title); p.InSitemap != tt.want {
			t.Errorf("NewPage(%q).InSitemap = %v, want %v", tt.title, p.InSitemap, tt.want)
		}
	}
	d, err := ParseDocument(strings.NewReader(`{"format":"siteplan/1","project":{"name":"X","base_url":"https://x.example/"},"pages":[{"title":"Home","slug":"","children":[
		{"title":"Warenkorb","slug":"warenkorb","type":"Cart"},
		{"title":"Basket","slug":"basket"},
		{"title":"Suche","slug":"search","in_sitemap":true},
		{"title":"Products"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := d.Tree()
	var got []string
	tr.Walk(func(p *Page, _ int) bool {
		got = append(got, fmt.Sprintf("%s:%v", p.Title, p.InSitemap))
		return true
	})
	if want := "Home:true Warenkorb:false Basket:false Suche:true Products:true"; strings.Join(got, " ") != want {
		t.Errorf("in the sitemap: %s, want %s", strings.Join(got, " "), want)
	}
}

// TestHomeNote: a document whose first root is "Home" without an empty
// slug has no home page and puts every URL under /home/: the document
// and its tree say so, with the fix; with "slug": "", or when a home
// page exists, or the first root is something else, they say nothing.
func TestHomeNote(t *testing.T) {
	for _, tt := range []struct{ name, pages, want string }{
		{"no slug", `[{"title":"Home","children":[{"title":"Tents"}]}]`, `“Home” has the slug “home”, so its URL is /home and every URL below it starts with /home/. Give it an empty slug ("slug": "" in a siteplan/1 document)`},
		{"slug home", `[{"title":"Start","slug":"home"}]`, `“Start” has the slug “home”`},
		{"empty slug", `[{"title":"Home","slug":"","children":[{"title":"Tents"}]}]`, ""},
		{"another root is home", `[{"title":"Home"},{"title":"Start","slug":""}]`, ""},
		{"not home", `[{"title":"Shop","children":[{"title":"Tents"}]}]`, ""},
		{"footer only", `[{"title":"Home","placement":"footer"}]`, ""},
	} {
		d, err := ParseDocument(strings.NewReader(`{"format":"siteplan/1","project":{"name":"X","base_url":"https://x.example/"},"pages":` + tt.pages + `}`))
		if err != nil {
			t.Fatal(err)
		}
		tr, _ := d.Tree()
		for who, got := range map[string]string{"document": d.HomeNote(), "tree": tr.HomeNote(), "summary": tr.Summarize().HomeNote} {
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("%s: the %s's note is %q, want one saying %q", tt.name, who, got, tt.want)
			}
		}
	}
}
