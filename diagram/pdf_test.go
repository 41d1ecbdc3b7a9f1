package diagram

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"siteplan/internal/sitegen"
	"siteplan/site"
)

// pdfSheets is what poppler reads in a PDF: its sheet size and each
// sheet's words with their heights.
type pdfSheets struct {
	w, h  float64
	pages []pdfSheet
}

type pdfSheet struct {
	text  string // the words, squashed together
	words []pdfWord
}

type pdfWord struct {
	Text string  `xml:",chardata"`
	XMin float64 `xml:"xMin,attr"`
	YMin float64 `xml:"yMin,attr"`
	YMax float64 `xml:"yMax,attr"`
}

// readPDF reads a PDF with pdftotext -bbox (poppler).
func readPDF(t *testing.T, pdf []byte) pdfSheets {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pdftotext is missing; .ci/run installs poppler-utils")
		}
		t.Skip("pdftotext not installed (apt-get install poppler-utils)")
	}
	path := filepath.Join(t.TempDir(), "d.pdf")
	os.WriteFile(path, pdf, 0o644)
	out, err := exec.Command("pdftotext", "-bbox", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	var doc struct {
		Pages []struct {
			W     float64   `xml:"width,attr"`
			H     float64   `xml:"height,attr"`
			Words []pdfWord `xml:"word"`
		} `xml:"body>doc>page"`
	}
	dec := xml.NewDecoder(bytes.NewReader(out))
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("pdftotext -bbox: %v", err)
	}
	var s pdfSheets
	for _, p := range doc.Pages {
		s.w, s.h = p.W, p.H
		var b strings.Builder
		for _, w := range p.Words {
			b.WriteString(w.Text)
		}
		s.pages = append(s.pages, pdfSheet{text: squash(b.String()), words: p.Words})
	}
	// pdfinfo agrees on the page count.
	info, err := exec.Command("pdfinfo", path).Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	if m := regexp.MustCompile(`Pages:\s+(\d+)`).FindSubmatch(info); m == nil || string(m[1]) != strconv.Itoa(len(s.pages)) {
		t.Fatalf("pdfinfo says %q pages, pdftotext read %d", m, len(s.pages))
	}
	return s
}

// emHeight is how much taller than its size a word's box is in the
// embedded fonts (ascent plus descent).
const emHeight = 1.163

// renderPDF draws a plan as a PDF.
func renderPDF(t *testing.T, tr *site.Tree, links []site.Link, opt Options) []byte {
	t.Helper()
	opt.Format = FormatPDF
	var buf bytes.Buffer
	if _, err := Render(context.Background(), &buf, tr, links, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkLegible fails if any word on the sheets prints under 6 pt.
func checkLegible(t *testing.T, s pdfSheets) {
	t.Helper()
	for i, p := range s.pages {
		for _, w := range p.words {
			if size := (w.YMax - w.YMin) / emHeight; size < minTextPt-0.05 {
				t.Errorf("sheet %d: %q prints at %.1f pt, under %g", i+1, w.Text, size, minTextPt)
				return
			}
		}
	}
}

// TestPDFPaper checks the sheet sizes and orientations, and that a plan of
// 60 pages or so, in shapes agencies draw, fits one legible A4 sheet.
func TestPDFPaper(t *testing.T) {
	acme, acmeLinks := docFile(t, "../store/testdata/acme.json").Tree()
	for _, tc := range []struct {
		name string
		opt  Options
		w, h float64
	}{
		{"A4 landscape", Options{}, 841.89, 595.28},
		{"A4 portrait", Options{Orientation: Portrait}, 595.28, 841.89},
		{"A3 landscape", Options{Paper: PaperA3}, 1190.55, 841.89},
		{"Letter landscape", Options{Paper: PaperLetter}, 792, 612},
		{"Tabloid portrait", Options{Paper: PaperTabloid, Orientation: Portrait}, 792, 1224},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.Links = true
			s := readPDF(t, renderPDF(t, acme, acmeLinks, tc.opt))
			if abs(s.w-tc.w) > 0.1 || abs(s.h-tc.h) > 0.1 {
				t.Errorf("sheet is %.2f × %.2f pt, want %.2f × %.2f", s.w, s.h, tc.w, tc.h)
			}
			if len(s.pages) != 1 {
				t.Errorf("the %d-page plan takes %d sheets, want 1", acme.Len(), len(s.pages))
			}
			checkLegible(t, s)
		})
	}
	for _, sh := range []struct{ sections, subs, leaves int }{
		{5, 3, 3}, {6, 9, 0}, {3, 3, 5}, {10, 5, 0}, {2, 5, 5}, {59, 0, 0}, {1, 1, 58}, {20, 2, 0},
	} {
		tr, links := sitegen.Document("Sixty", sh.sections, sh.subs, sh.leaves).Tree()
		t.Run(fmt.Sprintf("%d pages %v", tr.Len(), sh), func(t *testing.T) {
			s := readPDF(t, renderPDF(t, tr, links, Options{Links: true}))
			if len(s.pages) != 1 {
				t.Errorf("takes %d A4 sheets, want 1", len(s.pages))
			}
			checkLegible(t, s)
			tr.Walk(func(p *site.Page, _ int) bool {
				if !strings.Contains(s.pages[0].text, squash(p.Title)) {
					t.Errorf("the sheet lacks %q", p.Title)
				}
				return true
			})
		})
	}
}

// TestPDFSections checks a 1,000-page plan on A4: an overview, then the
// sections; every title printed legibly somewhere; every "on sheet N"
// leading to a sheet that says where it continues from; a cover first
// when asked for; and one sheet when told to fit it on one.
func TestPDFSections(t *testing.T) {
	tr, links := sitegen.Document("Thousand", 10, 10, 9).Tree()
	opt := Options{Links: true, Cover: true, ClientName: "Acme Corp", Agency: "Studio North"}
	s := readPDF(t, renderPDF(t, tr, links, opt))
	if len(s.pages) < 12 {
		t.Fatalf("%d sheets, want a cover, an overview and at least one per section", len(s.pages))
	}
	cover := s.pages[0].text
	for _, want := range []string{"Thousand", "PreparedforAcmeCorp", "byStudioNorth", "1011pages", "Approval", "Signature"} {
		if !strings.Contains(cover, want) {
			t.Errorf("the cover lacks %q: %s", want, cover)
		}
	}
	sheets := s.pages[1:] // numbered from 1 after the cover
	if !strings.Contains(sheets[0].text, squash("Overview of the top levels")) {
		t.Errorf("sheet 1 is not the overview: %s", sheets[0].text)
	}
	checkLegible(t, s)
	var all strings.Builder
	sends := 0
	for i, p := range sheets {
		all.WriteString(p.text)
		if want := fmt.Sprintf("%d/%d", i+1, len(sheets)); !strings.Contains(p.text, want) {
			t.Errorf("sheet %d lacks its number %q", i+1, want)
		}
		for j := 2; j < len(p.words); j++ {
			if p.words[j-2].Text != "on" || p.words[j-1].Text != "sheet" {
				continue
			}
			n, _ := strconv.Atoi(p.words[j].Text)
			sends++
			if n < 1 || n > len(sheets) {
				t.Errorf("sheet %d sends to sheet %d of %d", i+1, n, len(sheets))
				continue
			}
			if want := fmt.Sprintf("continuedfromsheet%d", i+1); !strings.Contains(sheets[n-1].text, want) {
				t.Errorf("sheet %d sends to sheet %d, which does not say %q", i+1, n, want)
			}
		}
	}
	if sends < 10 {
		t.Errorf("%d cards say where their branch continues, want one per section at least", sends)
	}
	tr.Walk(func(p *site.Page, _ int) bool {
		if !strings.Contains(all.String(), squash(p.Title)) {
			t.Errorf("no sheet shows %q", p.Title)
		}
		return true
	})
	for i := 1; i <= 10; i++ { // each section is drawn where the overview says
		if !strings.Contains(sheets[0].text, fmt.Sprintf("Section%d", i-1)) {
			t.Errorf("the overview lacks Section %d", i-1)
		}
	}

	checkSends(t, tr, links, opt)
	// Sections with a branch too big for a sheet of its own.
	deep, deepLinks := sitegen.Document("Deep", 2, 2, 150).Tree()
	if n := checkSends(t, deep, deepLinks, opt); n < 7 {
		t.Errorf("a plan of %d pages takes %d sheets", deep.Len(), n)
	}

	one := readPDF(t, renderPDF(t, tr, links, Options{Links: true, OneSheet: true}))
	if len(one.pages) != 1 {
		t.Errorf("fit to one sheet: %d sheets", len(one.pages))
	}
}

// checkSends plans the sheets of a plan and checks that a card closed for
// want of room sends to the first sheet that draws its children, and
// that every page is drawn on some sheet. It returns the sheet count.
func checkSends(t *testing.T, tr *site.Tree, links []site.Link, opt Options) int {
	t.Helper()
	opt.Format = FormatPDF
	b := &book{ctx: context.Background(), t: tr, links: links, opt: opt, area: point{780, 440}}
	b.opt.SetDefaults()
	if err := b.plan(); err != nil {
		t.Fatal(err)
	}
	drawn := map[int64]bool{}
	draws := func(sh *sheet, id int64) bool {
		for _, dr := range sh.drawings() {
			if dr.d.byID[id] != nil {
				return true
			}
		}
		return false
	}
	for i, sh := range b.sheets {
		for _, dr := range sh.drawings() {
			for _, c := range dr.d.cards {
				drawn[c.page.ID] = true
				if c.sheet == 0 {
					continue
				}
				first := 0
				for j, other := range b.sheets {
					if draws(other, tr.Children(c.page.ID)[0].ID) {
						first = j + 1
						break
					}
				}
				if c.sheet != first || c.sheetHere != (first == i+1) {
					t.Errorf("sheet %d: %q sends to sheet %d (here: %t), but its children are first on sheet %d", i+1, c.page.Title, c.sheet, c.sheetHere, first)
				}
			}
		}
	}
	if len(drawn) != tr.Len() {
		t.Errorf("%d of %d pages drawn on the %d sheets", len(drawn), tr.Len(), len(b.sheets))
	}
	return len(b.sheets)
}

// TestPDFFewestSheets checks that the default PDF takes the fewest
// readable sheets: a 52-page workshop plan on one A4 sheet with all its
// cross-links, and a 607-page plan with sections packed together, every
// cross-link to a page on another sheet printed as a reference to the
// sheet that draws it.
func TestPDFFewestSheets(t *testing.T) {
	ws, wsLinks := docFile(t, "testdata/workshop.json").Tree()
	s := readPDF(t, renderPDF(t, ws, wsLinks, Options{Links: true}))
	if len(s.pages) != 1 {
		t.Fatalf("the %d-page workshop plan takes %d A4 sheets, want 1", ws.Len(), len(s.pages))
	}
	checkLegible(t, s)
	for _, l := range wsLinks {
		if !strings.Contains(s.pages[0].text, squash(l.Label)) {
			t.Errorf("the sheet lacks the cross-link %q", l.Label)
		}
	}

	doc := sitegen.Document("Deep", 2, 2, 150)
	// Cross-links between leaves of different sections, which no sheet
	// draws together.
	leaf := func(s, u, l int) *site.DocPage { return doc.Pages[0].Children[s].Children[u].Children[l] }
	for i, e := range [][2]*site.DocPage{{leaf(0, 0, 3), leaf(1, 1, 140)}, {leaf(1, 0, 60), leaf(0, 1, 7)}, {leaf(0, 1, 100), leaf(1, 0, 2)}} {
		e[0].Key, e[1].Key = fmt.Sprintf("from%d", i), fmt.Sprintf("to%d", i)
		doc.Links = append(doc.Links, site.DocLink{From: e[0].Key, To: e[1].Key, Label: "see also"})
	}
	tr, links := doc.Tree()
	opt := Options{Links: true}
	if n := checkSends(t, tr, links, opt); n > 9 {
		t.Errorf("the %d-page plan takes %d sheets, want at most 9 (13 with a sheet a section)", tr.Len(), n)
	}
	b := &book{ctx: context.Background(), t: tr, links: links, opt: opt, area: point{780, 440}}
	b.opt.Format = FormatPDF
	b.opt.SetDefaults()
	if err := b.plan(); err != nil {
		t.Fatal(err)
	}
	packed := 0
	for _, sh := range b.sheets {
		if len(sh.also) > 0 {
			packed++
		}
	}
	if packed == 0 {
		t.Error("no sheet holds more than one section")
	}
	s = readPDF(t, renderPDF(t, tr, links, opt))
	checkLegible(t, s)
	for _, l := range links {
		if l.Label != "see also" {
			continue
		}
		from, to := tr.Page(l.FromID), tr.Page(l.ToID)
		ref := regexp.MustCompile(regexp.QuoteMeta(squash("→ "+to.Title+", sheet ")) + `(\d+)`)
		found := false
		for j, p := range s.pages {
			m := ref.FindStringSubmatch(p.text)
			if m == nil {
				continue
			}
			found = true
			if !strings.Contains(p.text, squash(from.Title)) {
				t.Errorf("sheet %d refers to %q but does not draw %q", j+1, to.Title, from.Title)
			}
			n, _ := strconv.Atoi(m[1])
			if n < 1 || n > len(s.pages) || n == j+1 || !strings.Contains(s.pages[n-1].text, squash(to.Title)) {
				t.Errorf("sheet %d sends the cross-link to %q to sheet %d, which does not draw it", j+1, to.Title, n)
			}
		}
		if !found {
			t.Errorf("no sheet says where the cross-link from %q to %q leads", from.Title, to.Title)
		}
	}
}
