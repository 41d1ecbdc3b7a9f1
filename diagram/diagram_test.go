package diagram

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image"
	"image/png"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"siteplan/diagram/internal/graphviz"
	"siteplan/internal/golden"
	"siteplan/internal/sitegen"
	"siteplan/site"
)

func docFile(t testing.TB, path string) *site.Document {
	t.Helper()
	d, err := site.ReadDocumentFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func prepared(t testing.TB, path string, opt Options) *diagram {
	t.Helper()
	tr, links := docFile(t, path).Tree()
	if err := opt.Normalize(tr); err != nil {
		t.Fatal(err)
	}
	return newDiagram(tr, links, opt)
}

// draw renders d's plan with d's options in format.
func draw(t testing.TB, d *diagram, format string) []byte {
	t.Helper()
	opt := d.opt
	opt.Format = format
	var buf bytes.Buffer
	res, err := Render(context.Background(), &buf, d.tree, d.links, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pages != d.pages {
		t.Errorf("Render drew %d pages, want %d", res.Pages, d.pages)
	}
	return buf.Bytes()
}

// visibleTitles lists the titles a diagram of d draws.
func visibleTitles(d *diagram) []string {
	var out []string
	for _, c := range d.cards {
		out = append(out, c.page.Title)
	}
	return out
}

// TestDiagramDOTGolden pins the DOT of representative plans: every kind,
// the three placements, cross-links with labels, a collapsed branch, a
// depth limit, one branch, and hostile titles.
func TestDiagramDOTGolden(t *testing.T) {
	tests := []struct {
		name, doc string
		opt       Options
	}{
		{"acme-tree", "../store/testdata/acme.json", Options{Links: true}},
		{"acme-lr-status", "../store/testdata/acme.json", Options{Layout: LayoutLR, ColorBy: ColorByStatus}},
		{"acme-radial-collapsed", "../store/testdata/acme.json", Options{Layout: LayoutRadial, Links: true, Collapsed: map[int64]bool{4: true}}},
		{"acme-branch-depth", "../store/testdata/acme.json", Options{Root: 1, Depth: 2}},
		{"hostile", "testdata/diagram-hostile.json", Options{Links: true}},
		{"acme-comments", "../store/testdata/acme.json", Options{Comments: map[int64]int{1: 1, 5: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden.Check(t, "diagram-"+tt.name+".dot", draw(t, prepared(t, tt.doc, tt.opt), FormatDOT))
		})
	}
}

// TestDiagramKeyFollowsComments: a cached diagram is drawn again when
// the open comment counts change.
func TestDiagramKeyFollowsComments(t *testing.T) {
	a := Options{Comments: map[int64]int{5: 1}}.Key()
	b := Options{Comments: map[int64]int{5: 2}}.Key()
	c := Options{Comments: map[int64]int{5: 1, 7: 0}}.Key()
	if a == b || a != c {
		t.Errorf("keys %q %q %q: counts must change the key, zero counts must not", a, b, c)
	}
}

// svgNodes returns the text of each node group of an SVG by its id, and
// of each linked table cell ("a_pN": a page in a stack), failing unless
// the SVG is well-formed XML.
func svgNodes(t *testing.T, svg []byte) map[string]string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	dec.Strict = true
	nodes := map[string]string{}
	var stack []string // ids of open <g> elements ("" for others)
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			id := ""
			if el.Name.Local == "g" {
				var class string
				for _, a := range el.Attr {
					switch a.Name.Local {
					case "id":
						id = a.Value
					case "class":
						class = a.Value
					}
				}
				if class != "node" && !strings.HasPrefix(id, "a_p") {
					id = ""
				}
			}
			stack = append(stack, id)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			for _, id := range stack {
				if id != "" {
					nodes[id] += string(el) + " "
				}
			}
		}
	}
	return nodes
}

var spaces = regexp.MustCompile(`\s+`)

// squash drops white space: wrapped lines compare equal to the title.
func squash(s string) string { return spaces.ReplaceAllString(s, "") }

// TestDiagramFormats renders every format of two plans and checks what a
// reader of each file sees.
func TestDiagramFormats(t *testing.T) {
	for _, doc := range []string{"../store/testdata/acme.json", "testdata/diagram-hostile.json"} {
		t.Run(filepath.Base(doc), func(t *testing.T) {
			d := prepared(t, doc, Options{Links: true})
			titles := visibleTitles(d)

			svg := draw(t, d, FormatSVG)
			nodes := svgNodes(t, svg)
			for _, c := range d.cards {
				id := "p" + strconv.FormatInt(c.page.ID, 10)
				text, ok := nodes[id]
				if got := squash(text); !ok || !strings.Contains(got, squash(c.page.Title)) {
					t.Errorf("SVG element of page %s reads %q, want the title %q", id, got, c.page.Title)
				}
			}
			pageIDs := regexp.MustCompile(`^(a_)?p\d+$`)
			n := 0
			for id := range nodes {
				if pageIDs.MatchString(id) {
					n++
				}
			}
			if n != len(titles) {
				t.Errorf("SVG has %d page elements, want %d: a title added or lost some", n, len(titles))
			}

			pngData := draw(t, d, FormatPNG)
			img, err := png.Decode(bytes.NewReader(pngData))
			if err != nil {
				t.Fatalf("PNG does not decode: %v", err)
			}
			var size struct {
				W string `xml:"width,attr"`
				H string `xml:"height,attr"`
			}
			xml.Unmarshal(svg, &size)
			wpt, _ := strconv.ParseFloat(strings.TrimSuffix(size.W, "pt"), 64)
			hpt, _ := strconv.ParseFloat(strings.TrimSuffix(size.H, "pt"), 64)
			dpi := float64(d.opt.dpi())
			wantW, wantH := wpt*dpi/72, hpt*dpi/72
			// Within 1%: the PNG is laid out with a stand-in for backslashes.
			if b := img.Bounds(); abs(float64(b.Dx())-wantW) > 2+wantW/100 || abs(float64(b.Dy())-wantH) > 2+wantH/100 {
				t.Errorf("PNG is %dx%d px, want %.0fx%.0f (the SVG's %s x %s at %d dpi)", b.Dx(), b.Dy(), wantW, wantH, size.W, size.H, d.opt.dpi())
			}

			gml := draw(t, d, FormatGraphML)
			var g struct {
				Nodes []struct {
					ID       string `xml:"id,attr"`
					Label    string `xml:"data>ShapeNode>NodeLabel"`
					Geometry struct {
						X float64 `xml:"x,attr"`
						Y float64 `xml:"y,attr"`
						W float64 `xml:"width,attr"`
						H float64 `xml:"height,attr"`
					} `xml:"data>ShapeNode>Geometry"`
				} `xml:"graph>node"`
				Edges []struct {
					Source string `xml:"source,attr"`
					Target string `xml:"target,attr"`
				} `xml:"graph>edge"`
			}
			if err := xml.Unmarshal(gml, &g); err != nil {
				t.Fatalf("GraphML does not parse: %v", err)
			}
			if len(g.Nodes) != len(titles) {
				t.Errorf("GraphML has %d nodes, want one per page: %d", len(g.Nodes), len(titles))
			}
			for i, n := range g.Nodes {
				if i < len(titles) && !strings.HasPrefix(n.Label, titles[i]) {
					t.Errorf("GraphML node %s label %q, want %q first", n.ID, n.Label, titles[i])
				}
				// Each page has its own place, stacked ones too: no two overlap.
				a := n.Geometry
				for _, m := range g.Nodes[:i] {
					b := m.Geometry
					if a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
						t.Errorf("GraphML nodes %s %+v and %s %+v overlap", n.ID, a, m.ID, b)
					}
				}
			}
			want := len(d.links)
			for _, c := range d.cards {
				if c.depth > 1 {
					want++
				}
			}
			if len(g.Edges) != want {
				t.Errorf("GraphML has %d edges, want %d", len(g.Edges), want)
			}

			d.opt.Date = time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
			pdf := draw(t, d, FormatPDF)
			if err != nil {
				t.Fatal(err)
			}
			text := pdfToText(t, pdf)
			// Every line of every title (as far as a compact card, the
			// shorter, shows it), the title block, and the key's shapes.
			var lines []string
			for _, c := range d.cards {
				for _, l := range wrapWidth(c.page.Title, titleSize, true, cardInner-2*cardPad, compactLines) {
					lines = append(lines, strings.TrimSuffix(l, "…"))
				}
			}
			for _, title := range append(lines, d.tree.Project.Name, "21 November 2026", "placeholder", "external", "cross-link") {
				if !strings.Contains(text, squash(title)) {
					t.Errorf("the PDF's text lacks %q:\n%s", title, text)
				}
			}
		})
	}
}

// pdfToText extracts a PDF's text, squashed, with poppler's pdftotext,
// and checks that its pages are A4 landscape.
func pdfToText(t *testing.T, pdf []byte) string {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", pdf[:min(20, len(pdf))])
	}
	s := readPDF(t, pdf)
	if abs(s.w-841.89) > 0.1 || abs(s.h-595.28) > 0.1 {
		t.Errorf("sheets are %.2f × %.2f pt, want A4 landscape", s.w, s.h)
	}
	var b strings.Builder
	for _, p := range s.pages {
		b.WriteString(p.text)
	}
	return b.String()
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestStacks pins which siblings share a stack: runs of two or more
// leaves from the third level down, of twelve or more anywhere, in
// balanced columns of at most forty cards; and, listed from a level,
// whole branches, never split across columns.
func TestStacks(t *testing.T) {
	tests := []struct {
		name                   string
		sections, subs, leaves int
		listFrom               int
		want                   string // main's slots below the home page: "c" a card, "s" a stack and its columns' cards
	}{
		{"one leaf stays a card", 1, 1, 1, noLists, "c c c"},
		{"two leaves on the fourth level stack", 1, 1, 2, noLists, "c c s2"},
		{"eleven leaves on the second level stay apart", 11, 0, 0, noLists, "c c c c c c c c c c c"},
		{"twelve leaves on the second level stack", 12, 0, 0, noLists, "s12"},
		{"forty-one leaves make two columns", 1, 1, 41, noLists, "c c s21,20"},
		{"a hundred leaves make three columns", 1, 1, 100, noLists, "c c s34,34,32"},
		{"listed from the third level, branches whole", 2, 3, 2, 3, "c s9 c s9"},
		{"a long list breaks between branches", 1, 5, 10, 3, "c s33,22"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, links := sitegen.Document("Stacks", tt.sections, tt.subs, tt.leaves).Tree()
			opt := Options{}
			if err := opt.Normalize(tr); err != nil {
				t.Fatal(err)
			}
			d := newDiagram(tr, links, opt)
			r := d.region(d.placed[site.PlacementMain], false, shape{listFrom: tt.listFrom, rows: stackMaxRows})
			var got []string
			var walk func(s *slot)
			walk = func(s *slot) {
				if s.card != nil {
					if s.depth > 1 {
						got = append(got, "c")
					}
					for _, k := range s.kids {
						walk(k)
					}
					return
				}
				var cols []string
				for _, col := range s.cols {
					n := 0
					for _, e := range col {
						n += e.size()
					}
					cols = append(cols, strconv.Itoa(n))
				}
				got = append(got, "s"+strings.Join(cols, ","))
			}
			for _, s := range r.roots {
				walk(s)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("slots = %q, want %q", strings.Join(got, " "), tt.want)
			}
		})
	}
}

// radialChart lays d out radially as every format but DOT draws it.
func radialChart(t *testing.T, d *diagram) *chart {
	t.Helper()
	ch, err := d.radial(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// TestRadialConnectors: in a radial diagram every connector runs from the
// border of its parent's card to the border of what it joins, a card or
// the frame of a stack (Graphviz's own edges stopped up to 51 points
// short of a stack whose last column is short); every stacked card lies
// inside its frame; no two cards overlap.
func TestRadialConnectors(t *testing.T) {
	for _, path := range []string{"testdata/diagram-hostile.json", "../store/testdata/acme.json", "testdata/diagram-deep.json"} {
		t.Run(path, func(t *testing.T) {
			d := prepared(t, path, Options{Layout: LayoutRadial})
			ch := radialChart(t, d)
			cardBox := func(c *card) box { return box{c.x, c.y, c.x + c.w, c.y + c.h} }
			frameOf := map[int64]box{} // a stacked page's frame
			for _, f := range ch.stacks {
				for _, c := range d.cards {
					if b := cardBox(c); b.x0 >= f.x0 && b.x1 <= f.x1 && b.y0 >= f.y0 && b.y1 <= f.y1 {
						frameOf[c.page.ID] = f
					}
				}
			}
			stacked := 0
			for _, it := range d.items(d.placed[site.PlacementMain]) {
				if it.stack {
					stacked += len(it.cards)
					for _, c := range it.cards {
						if _, ok := frameOf[c.page.ID]; !ok {
							t.Errorf("stacked card %q lies outside every stack frame", c.page.Title)
						}
					}
				}
			}
			if len(ch.wires) == 0 {
				t.Fatal("no connectors")
			}
			for _, wr := range ch.wires {
				if wr.from == 0 { // from a navigation heading
					continue
				}
				from, to := d.byID[wr.from], d.byID[wr.to]
				head := cardBox(to)
				if f, ok := frameOf[wr.to]; ok {
					head = f
				}
				a, b := wr.pts[0], wr.pts[len(wr.pts)-1]
				if !onBorder(a, cardBox(from)) || !onBorder(b, head) {
					t.Errorf("connector %q -> %q runs %v to %v, want from the card's border %v to %v", from.page.Title, to.page.Title, a, b, cardBox(from), head)
				}
			}
			for i, a := range d.cards {
				for _, b := range d.cards[i+1:] {
					if overlaps(cardBox(a), cardBox(b)) {
						t.Errorf("cards %q and %q overlap", a.page.Title, b.page.Title)
					}
				}
			}
			t.Logf("%d cards, %d stacked, %d connectors", len(d.cards), stacked, len(ch.wires))
		})
	}
}

// TestPNGStrips: a PNG drawn a strip at a time, through siteplan's own
// row encoder, decodes with image/png to the same pixels as one drawn at
// once: no seams where strips meet.
func TestPNGStrips(t *testing.T) {
	d := prepared(t, "testdata/diagram-hostile.json", Options{Links: true})
	draw := func(rows int) image.Image {
		t.Helper()
		defer func(old int) { pngStripRows = old }(pngStripRows)
		pngStripRows = rows
		b := draw(t, d, FormatPNG)
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("strips of %d rows: PNG does not decode: %v", rows, err)
		}
		return img
	}
	whole, strips := draw(1<<20), draw(7)
	if whole.Bounds() != strips.Bounds() {
		t.Fatalf("sizes differ: %v whole, %v in strips", whole.Bounds(), strips.Bounds())
	}
	// Anti-aliasing sums coverage from the top of the area being drawn,
	// so an edge pixel may round one level apart; nothing more may differ.
	differ, inked := 0, 0
	b := whole.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := whole.At(x, y).RGBA()
			r2, g2, b2, _ := strips.At(x, y).RGBA()
			if far(r1, r2) || far(g1, g2) || far(b1, b2) {
				differ++
				if differ < 5 {
					t.Logf("at %d,%d: %x %x %x whole, %x %x %x in strips", x, y, r1>>8, g1>>8, b1>>8, r2>>8, g2>>8, b2>>8)
				}
			}
			if r1 < 0x8000 {
				inked++
			}
		}
	}
	if differ > 0 || inked < b.Dx()*b.Dy()/200 {
		t.Errorf("%d of %d pixels differ between strips and a whole image (%d dark pixels drawn)", differ, b.Dx()*b.Dy(), inked)
	}
}

// far reports whether two 16-bit colour channels are more than one 8-bit
// level apart.
func far(a, b uint32) bool { return a>>8 > b>>8+1 || b>>8 > a>>8+1 }

// TestRadialNavigationApart: twopi draws no clusters, so in a radial
// diagram utility and footer navigation are stars of their own around a
// heading, which Graphviz packs beside the main tree instead of among its
// pages.
func TestRadialNavigationApart(t *testing.T) {
	d := prepared(t, "../store/testdata/acme.json", Options{Layout: LayoutRadial})
	ch := radialChart(t, d)
	main := box{1e18, 1e18, -1e18, -1e18}
	for _, c := range d.placed[site.PlacementMain] {
		main = box{min(main.x0, c.x), min(main.y0, c.y), max(main.x1, c.x+c.w), max(main.y1, c.y+c.h)}
	}
	hubs := map[string]bool{}
	for _, h := range ch.hubs {
		hubs[h.placement] = true
	}
	for _, pl := range []string{site.PlacementUtility, site.PlacementFooter} {
		if !hubs[pl] {
			t.Errorf("no %s heading in the radial layout", pl)
		}
		for _, c := range d.placed[pl] {
			if c.x < main.x1 && main.x0 < c.x+c.w && c.y < main.y1 && main.y0 < c.y+c.h {
				t.Errorf("%s page %q at %g,%g lies inside the main tree's box %v", pl, c.page.Title, c.x, c.y, main)
			}
		}
	}
}

// TestUnicodeTitles: a plan with emoji, Hebrew, Arabic, Japanese, Greek
// and Cyrillic titles (and an emoji in the project name, which the PDF's
// title block prints) downloads in every format; the PDF holds the text
// its fonts can embed and draws the emoji as outlines.
func TestUnicodeTitles(t *testing.T) {
	d := prepared(t, "testdata/diagram-scripts.json", Options{Links: true})
	for _, f := range Formats {
		if out := draw(t, d, f); len(out) == 0 {
			t.Errorf("%s is empty", f)
		}
	}
	if _, err := png.Decode(bytes.NewReader(draw(t, d, FormatPNG))); err != nil {
		t.Errorf("PNG does not decode: %v", err)
	}
	text := pdfToText(t, draw(t, d, FormatPDF))
	for _, want := range []string{"Weltweit", "Kontakt", "Überuns", "日本語のページ", "Ελληνικά", "Русский", "Footer©"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF's text lacks %q:\n%s", want, text)
		}
	}
	for _, r := range "שלוםمرحب" { // TestRTLInPDF checks their order; Arabic prints in joining forms
		if !strings.ContainsRune(norm.NFKC.String(text), r) {
			t.Errorf("the PDF's text lacks %q", r)
		}
	}
}

// svgShapes reads the shapes of a diagram's SVG: each group's id, class
// and the points of its paths (the first is a card's box).
type svgGroup struct {
	id, class string
	paths     [][]point
}

var pathNumbers = regexp.MustCompile(`-?[0-9.]+`)

func svgShapes(t *testing.T, svg []byte) []svgGroup {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var out []svgGroup
	var open []int // indexes into out of the open groups
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch el.Name.Local {
			case "g":
				out = append(out, svgGroup{id: attr["id"], class: attr["class"]})
				open = append(open, len(out)-1)
			case "path":
				if len(open) == 0 {
					continue
				}
				nums := pathNumbers.FindAllString(attr["d"], -1)
				var pts []point
				for i := 0; i+1 < len(nums); i += 2 {
					x, _ := strconv.ParseFloat(nums[i], 64)
					y, _ := strconv.ParseFloat(nums[i+1], 64)
					pts = append(pts, point{x, y})
				}
				g := &out[open[len(open)-1]]
				g.paths = append(g.paths, pts)
			}
		case xml.EndElement:
			if el.Name.Local == "g" {
				open = open[:len(open)-1]
			}
		}
	}
	return out
}

// overlaps reports whether two boxes share more than their borders.
func overlaps(a, b box) bool {
	const e = 0.5
	return a.x0+e < b.x1 && b.x0+e < a.x1 && a.y0+e < b.y1 && b.y0+e < a.y1
}

// onBorder reports whether p lies on the border of b.
func onBorder(p point, b box) bool {
	const e = 1.5
	inside := p.X >= b.x0-e && p.X <= b.x1+e && p.Y >= b.y0-e && p.Y <= b.y1+e
	near := math.Abs(p.X-b.x0) < e || math.Abs(p.X-b.x1) < e || math.Abs(p.Y-b.y0) < e || math.Abs(p.Y-b.y1) < e
	return inside && near
}

// TestChartGeometry reads the SVG of org charts, top down and left to
// right, of plans small, deep and of a thousand pages, whole, as a
// branch and as the client version: every connector of the tree is made
// of horizontal and vertical segments, starts on its parent's card, ends
// on its child's and crosses no other card; no card overlaps another or
// the legend; every cross-link starts on its page's card.
func TestChartGeometry(t *testing.T) {
	thousand, thousandLinks := sitegen.Document("Thousand", 10, 10, 9).Tree()
	for _, tc := range []struct {
		name string
		doc  string
		opt  Options
	}{
		{"acme", "../store/testdata/acme.json", Options{Links: true}},
		{"acme-lr", "../store/testdata/acme.json", Options{Links: true, Layout: LayoutLR}},
		{"deep", "testdata/diagram-deep.json", Options{Links: true}},
		{"deep-lr", "testdata/diagram-deep.json", Options{Links: true, Layout: LayoutLR}},
		{"deep-branch", "testdata/diagram-deep.json", Options{Links: true, Root: 2}},
		{"deep-client", "testdata/diagram-deep.json", Options{Links: true, Client: true}},
		{"hostile", "testdata/diagram-hostile.json", Options{Links: true}},
		{"thousand", "", Options{Links: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d *diagram
			if tc.doc == "" {
				opt := tc.opt
				if err := opt.Normalize(thousand); err != nil {
					t.Fatal(err)
				}
				d = newDiagram(thousand, thousandLinks, opt)
			} else {
				d = prepared(t, tc.doc, tc.opt)
			}
			groups := svgShapes(t, draw(t, d, FormatSVG))
			cards := map[string]box{}
			var legend *box
			var wires, links []svgGroup
			for _, g := range groups {
				switch {
				case g.class == "node":
					cards[g.id] = bounds(g.paths[0])
				case g.class == "legend":
					b := bounds(g.paths[0])
					legend = &b
				case g.class == "edge":
					wires = append(wires, g)
				case g.class == "edge link":
					links = append(links, g)
				}
			}
			if len(cards) != d.pages {
				t.Fatalf("%d cards in the SVG, want %d", len(cards), d.pages)
			}
			if legend == nil {
				t.Fatal("no legend")
			}
			ids := make([]string, 0, len(cards))
			for id := range cards {
				ids = append(ids, id)
			}
			slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(cards[a].x0, cards[b].x0) })
			for i, a := range ids {
				if overlaps(cards[a], *legend) {
					t.Errorf("card %s %v overlaps the legend %v", a, cards[a], *legend)
				}
				for _, b := range ids[i+1:] {
					if cards[b].x0 >= cards[a].x1 {
						break
					}
					if overlaps(cards[a], cards[b]) {
						t.Errorf("cards %s %v and %s %v overlap", a, cards[a], b, cards[b])
					}
				}
			}
			want := 0
			for _, c := range d.cards {
				if c.depth > 1 {
					want++
				}
			}
			if len(wires) != want {
				t.Errorf("%d connectors, want one per page below the top: %d", len(wires), want)
			}
			for _, w := range wires {
				ends := strings.Split(strings.TrimPrefix(w.id, "edge-"), "-")
				from, to := cards["p"+ends[0]], cards["p"+ends[len(ends)-1]]
				pts := w.paths[0]
				if !onBorder(pts[0], from) || !onBorder(pts[len(pts)-1], to) {
					t.Errorf("%s runs from %v to %v, want from the border of %v to that of %v", w.id, pts[0], pts[len(pts)-1], from, to)
				}
				for i := 1; i < len(pts); i++ {
					a, b := pts[i-1], pts[i]
					if math.Abs(a.X-b.X) > 0.01 && math.Abs(a.Y-b.Y) > 0.01 {
						t.Errorf("%s has a diagonal segment %v to %v", w.id, a, b)
					}
					seg := box{min(a.X, b.X), min(a.Y, b.Y), max(a.X, b.X), max(a.Y, b.Y)}
					for id, c := range cards {
						inner := box{c.x0 + 1, c.y0 + 1, c.x1 - 1, c.y1 - 1}
						if seg.x0 < inner.x1 && inner.x0 < seg.x1 && seg.y0 < inner.y1 && inner.y0 < seg.y1 || seg.x0 == seg.x1 && seg.x0 > inner.x0 && seg.x0 < inner.x1 && seg.y0 < inner.y1 && seg.y1 > inner.y0 || seg.y0 == seg.y1 && seg.y0 > inner.y0 && seg.y0 < inner.y1 && seg.x0 < inner.x1 && seg.x1 > inner.x0 {
							t.Errorf("%s crosses card %s", w.id, id)
						}
					}
				}
			}
			if len(links) == 0 {
				t.Error("no cross-links drawn")
			}
			for _, l := range links {
				start := l.paths[0][0]
				on := false
				for _, c := range cards {
					on = on || onBorder(start, c)
				}
				if !on {
					t.Errorf("%s starts at %v, on no card", l.id, start)
				}
			}
		})
	}
}

// TestRadialLinkBetweenRoots: in a radial diagram, a cross-link between
// two top-level pages (or between the main tree and utility navigation)
// is drawn like any other, and every page is drawn; the DOT a user
// downloads leaves such links out, since twopi cannot lay them out.
func TestRadialLinkBetweenRoots(t *testing.T) {
	doc, err := site.ParseDocument(strings.NewReader(`{"format":"siteplan/1","project":{"name":"Roots","base_url":"https://roots.example/"},
		"pages":[{"key":"a","title":"Alpha","children":[{"key":"a1","title":"Alpha one"}]},{"key":"b","title":"Beta"},
			{"key":"u","title":"Login","placement":"utility"}],
		"links":[{"from":"a","to":"b"},{"from":"a1","to":"u"},{"from":"a","to":"a1","label":"inside"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tr, links := doc.Tree()
	opt := Options{Layout: LayoutRadial, Links: true}
	if err := opt.Normalize(tr); err != nil {
		t.Fatal(err)
	}
	d := newDiagram(tr, links, opt)
	nodes := svgNodes(t, draw(t, d, FormatSVG))
	for _, title := range []string{"Alpha", "Alpha one", "Beta", "Login"} {
		found := false
		for id, text := range nodes {
			found = found || strings.HasPrefix(id, "p") && strings.Contains(squash(text), squash(title))
		}
		if !found {
			t.Errorf("the radial SVG does not draw %q", title)
		}
	}
	if got := strings.Count(string(draw(t, d, FormatSVG)), `class="edge link"`); got != 3 {
		t.Errorf("the radial SVG draws %d cross-links, want all 3", got)
	}
	var dot strings.Builder
	(&dotWriter{diagram: d}).write(&dot)
	if strings.Contains(dot.String(), "link-1") || strings.Contains(dot.String(), "link-2") || !strings.Contains(dot.String(), "link-3") {
		t.Errorf("links drawn: want only link-3, inside Alpha's tree:\n%s", dot.String())
	}
}

// TestPNGRefusedBeforeLayout: a PNG too large to hold is refused before
// Graphviz lays the plan out (that alone takes seconds), and a render
// given up on while it waited for Graphviz draws nothing.
func TestPNGRefusedBeforeLayout(t *testing.T) {
	tr, links := sitegen.Document("Big", 20, 20, 15).Tree() // 6,421 pages
	before := graphviz.Layouts()
	var buf bytes.Buffer
	_, err := Render(context.Background(), &buf, tr, links, Options{Format: FormatPNG})
	if site.ErrorCode(err) != site.ETooLarge || !strings.Contains(err.Error(), "megapixels") {
		t.Fatalf("PNG of %d pages: %v, want ETooLarge", tr.Len(), err)
	}
	if n := graphviz.Layouts() - before; n != 0 {
		t.Errorf("the plan was laid out %d times before the PNG was refused", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	before = graphviz.Layouts()
	if _, err := Render(ctx, &buf, tr, links, Options{Format: FormatSVG, Depth: 1}); site.ErrorCode(err) != site.ETooLarge {
		t.Errorf("render of a cancelled request: %v, want the timeout error", err)
	}
	if n := graphviz.Layouts() - before; n != 0 {
		t.Errorf("a render given up on was laid out %d times", n)
	}
}

// TestTypeColoursApart: past the palette's colours, types that share a
// colour carry marks, so no two legend entries look alike; each card's
// band is its type's swatch and says its mark; a colour the team chose
// for two types marks the later one.
func TestTypeColoursApart(t *testing.T) {
	tr, links := sitegen.Document("Types", 16, 1, 0).Tree()
	var types []string
	for i, sec := range tr.Children(tr.Children(0)[0].ID) {
		sec.Type = fmt.Sprintf("type %02d", i)
		types = append(types, sec.Type)
	}
	draw := func(pal site.Palette) (legend map[string]string, cards map[string][2]string) {
		var buf bytes.Buffer
		if _, err := Render(context.Background(), &buf, tr, links, Options{Format: FormatSVG, Palette: pal}); err != nil {
			t.Fatal(err)
		}
		svg := buf.String()
		i := strings.Index(svg, `id="legend"`)
		legend = map[string]string{}
		for _, m := range regexp.MustCompile(`fill="(#[0-9a-f]{6})"/>\s*<text[^>]*>([^<]+)</text>`).FindAllStringSubmatch(svg[i:i+strings.Index(svg[i:], "</g>")], -1) {
			legend[m[2]] = m[1]
		}
		cards = map[string][2]string{}
		for _, m := range regexp.MustCompile(`<title>(Section \d+)</title>\s*<path[^>]*/>\s*<path[^>]*fill="(#[0-9a-f]{6})"/>\s*<text[^>]*>([^<]+)</text>`).FindAllStringSubmatch(svg, -1) {
			cards[m[1]] = [2]string{m[2], m[3]}
		}
		return legend, cards
	}
	legend, cards := draw(site.Palette{})
	looks := map[string]string{}
	for _, ty := range types {
		words := ""
		for w := range legend {
			if strings.HasSuffix(w, ty) {
				words = w
			}
		}
		look := legend[words] + " " + strings.TrimSuffix(words, ty)
		if other, dup := looks[look]; dup || words == "" {
			t.Errorf("%q looks like %q in the legend: %q", ty, other, look)
		}
		looks[look] = ty
		sec := "Section " + strings.TrimLeft(strings.TrimPrefix(ty, "type "), "0")
		if sec == "Section " {
			sec = "Section 0"
		}
		if c := cards[sec]; c[0] != legend[words] || c[1] != strings.ToUpper(words) {
			t.Errorf("%s (%s) has band %v, the legend %s %q", sec, ty, c, legend[words], words)
		}
	}
	if n := len(site.PaletteColors); legend["type 00"] == "" || legend["◆ type "+fmt.Sprintf("%02d", n)] != legend["type 00"] {
		t.Errorf("type %d should share type 00's colour with a mark: %v", n, legend)
	}

	chosen := site.NewPalette([]site.TypeColor{{Type: "type 00"}, {Type: "type 01", Color: site.PaletteColors[0]}})
	legend, _ = draw(chosen)
	if legend["type 00"] != site.PaletteColors[0] || legend["◆ type 01"] != site.PaletteColors[0] {
		t.Errorf("type 01 chose type 00's colour: %v", legend)
	}
}

// TestLinksAvoidCards measures every cross-link drawn: no part of its
// path runs through a card (its own two included) and no label covers a
// card or another label, top down, left to right and radial, on plans
// with links between neighbours, across the tree and into stacks.
func TestLinksAvoidCards(t *testing.T) {
	thousand := sitegen.Document("Thousand", 10, 10, 9)
	for i := range 12 { // links across the plan: sections, topics, leaves
		s, u, l := i%10, (i*7)%10, (i*5)%9
		from, to := thousand.Pages[0].Children[s].Children[u], thousand.Pages[0].Children[(s+3)%10].Children[(u+4)%10].Children[l]
		if from.Key == "" {
			from.Key = fmt.Sprintf("f%d", i)
		}
		to.Key = fmt.Sprintf("t%d", i)
		thousand.Links = append(thousand.Links, site.DocLink{From: from.Key, To: to.Key, Label: fmt.Sprintf("link %d", i)})
	}
	docs := map[string]*site.Document{
		"workshop": docFile(t, "testdata/workshop.json"),
		"acme":     docFile(t, "../store/testdata/acme.json"),
		"deep":     docFile(t, "testdata/diagram-deep.json"),
		"hostile":  docFile(t, "testdata/diagram-hostile.json"),
		"thousand": thousand,
	}
	for _, name := range slices.Sorted(maps.Keys(docs)) {
		for _, layout := range []string{LayoutTree, LayoutLR, LayoutRadial} {
			if name == "thousand" && layout == LayoutRadial {
				continue // a thousand cards round a circle: slow, and the same router
			}
			t.Run(name+"-"+layout, func(t *testing.T) {
				tr, links := docs[name].Tree()
				opt := Options{Links: true, Layout: layout}
				if err := opt.Normalize(tr); err != nil {
					t.Fatal(err)
				}
				d := newDiagram(tr, links, opt)
				var cards []box
				var labels []box
				drawn := 0
				for _, g := range svgShapes(t, draw(t, d, FormatSVG)) {
					switch g.class {
					case "node":
						cards = append(cards, bounds(g.paths[0]))
					case "edge link":
						drawn++
						if len(g.paths) > 2 {
							labels = append(labels, bounds(g.paths[2]))
						}
						pts := g.paths[0]
						for i := 0; i+3 < len(pts); i += 3 {
							for s := 0.0; s <= 1; s += 0.05 {
								p := bezierAt(pts[i:i+4], s)
								for _, c := range cards {
									if p.X > c.x0+1 && p.X < c.x1-1 && p.Y > c.y0+1 && p.Y < c.y1-1 {
										t.Errorf("%s runs through the card at %v (at %v)", g.id, c, p)
									}
								}
							}
						}
					}
				}
				if drawn == 0 {
					t.Fatal("no cross-link drawn")
				}
				for i, l := range labels {
					for _, c := range cards {
						if overlaps(l, c) {
							t.Errorf("a label %v covers the card at %v", l, c)
						}
					}
					for _, o := range labels[i+1:] {
						if overlaps(l, o) {
							t.Errorf("labels %v and %v overlap", l, o)
						}
					}
				}
			})
		}
	}
}

// bezierAt is the point at s of a cubic segment.
func bezierAt(p []point, s float64) point {
	u := 1 - s
	a, b, c, d := u*u*u, 3*u*u*s, 3*u*s*s, s*s*s
	return point{a*p[0].X + b*p[1].X + c*p[2].X + d*p[3].X, a*p[0].Y + b*p[1].Y + c*p[2].Y + d*p[3].Y}
}

// TestDiagramLandings: a card says how many old URLs of a relaunch land
// on its page, in SVG and PDF (text a reader can select), not in the
// client version; the counts are part of the cache key.
func TestDiagramLandings(t *testing.T) {
	if a, b := (Options{Landings: map[int64]int{5: 1}}).Key(), (Options{Landings: map[int64]int{5: 2}}).Key(); a == b {
		t.Errorf("landings do not change the key: %q", a)
	}
	tr, _ := docFile(t, "../store/testdata/acme.json").Tree()
	var pricing int64
	tr.Walk(func(p *site.Page, _ int) bool {
		if p.Title == "Pricing" {
			pricing = p.ID
		}
		return true
	})
	d := prepared(t, "../store/testdata/acme.json", Options{Landings: map[int64]int{pricing: 12}})
	if got := svgNodes(t, draw(t, d, FormatSVG))["p"+strconv.FormatInt(pricing, 10)]; !strings.Contains(got, "↩ 12 old URLs") {
		t.Errorf("the Pricing card reads %q", got)
	}
	if pdftotext, err := exec.LookPath("pdftotext"); err == nil {
		file := filepath.Join(t.TempDir(), "plan.pdf")
		os.WriteFile(file, draw(t, d, FormatPDF), 0o644)
		out, err := exec.Command(pdftotext, file, "-").Output()
		if err != nil || !strings.Contains(string(out), "12 old URLs") {
			t.Errorf("the PDF reads %q (%v)", out, err)
		}
	}
	c := prepared(t, "../store/testdata/acme.json", Options{Landings: map[int64]int{pricing: 12}, Client: true})
	if got := svgNodes(t, draw(t, c, FormatSVG))["p"+strconv.FormatInt(pricing, 10)]; strings.Contains(got, "old URL") {
		t.Errorf("the client version reads %q", got)
	}
}

// TestDiagramCheck: coloured by a launch check, each card has its
// result's colour and says it in words (a page the check left out is
// "not checked"), and the legend names the colours.
func TestDiagramCheck(t *testing.T) {
	tr, _ := docFile(t, "../store/testdata/acme.json").Tree()
	id := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { id[p.Title] = p.ID; return true })
	marks := map[int64]string{id["Pricing"]: CheckError, id["Login"]: CheckWarning, id["Home"]: CheckOK}
	d := prepared(t, "../store/testdata/acme.json", Options{ColorBy: ColorByCheck, Marks: marks})
	svg := draw(t, d, FormatSVG)
	nodes := svgNodes(t, svg)
	for title, want := range map[string][]string{"Pricing": {"error", "#fca5a5"}, "Login": {"warning", "#fcd34d"}, "Home": {"ok", "#86efac"}, "Team": {"not checked", "#e5e7eb"}} {
		if got := nodes["p"+strconv.FormatInt(id[title], 10)]; !strings.Contains(got, want[0]) {
			t.Errorf("%s's card does not say %q: %s", title, want[0], got)
		}
		if got := d.fill(tr.Page(id[title])); got != want[1] || !strings.Contains(string(svg), got) {
			t.Errorf("%s's card is %s, want %s", title, got, want[1])
		}
	}
	for _, w := range []string{"Launch check", "✕ error", "! warning", "✓ ok", "not checked"} {
		if !strings.Contains(string(svg), w) {
			t.Errorf("the legend lacks %q", w)
		}
	}
	// A compact card (a PDF's overview) says its result by a sign.
	dc := prepared(t, "../store/testdata/acme.json", Options{ColorBy: ColorByCheck, Marks: marks, compact: true})
	for title, want := range map[string]string{"Pricing": "✕ Pricing", "Login": "! Login", "Home": "✓ Home", "Team": "Team"} {
		if got := strings.Join(dc.byID[id[title]].title, " "); got != want {
			t.Errorf("compact card %q, want %q", got, want)
		}
	}
	if a, b := (Options{ColorBy: ColorByCheck, Marks: marks}).Key(), (Options{ColorBy: ColorByCheck}).Key(); a == b {
		t.Error("results do not change the key")
	}
}

// TestDiagramTreeTest: coloured by a tree test's task, each card has
// its mark's colour and word, its figures (in the client version too),
// and a page nobody opened is "not visited".
func TestDiagramTreeTest(t *testing.T) {
	tr, _ := docFile(t, "../store/testdata/acme.json").Tree()
	id := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { id[p.Title] = p.ID; return true })
	marks := map[int64]string{id["Pricing"]: TreeCorrect, id["Products"]: TreeRightWay, id["Login"]: TreeWrongChoice, id["Team"]: TreeWrongWay}
	figures := map[int64]string{id["Pricing"]: "9 visits · 7 chose"}
	for _, client := range []bool{false, true} {
		d := prepared(t, "../store/testdata/acme.json", Options{ColorBy: ColorByTreeTest, Marks: marks, Figures: figures, Client: client})
		svg := draw(t, d, FormatSVG)
		nodes := svgNodes(t, svg)
		for title, want := range map[string][]string{"Pricing": {"correct answer", "#4ade80"}, "Products": {"right way", "#bbf7d0"},
			"Login": {"chosen, wrong", "#fca5a5"}, "Team": {"wrong way", "#fed7aa"}, "Home": {"not visited", "#f1f5f9"}} {
			if got := nodes["p"+strconv.FormatInt(id[title], 10)]; !strings.Contains(strings.ToLower(got), want[0]) {
				t.Errorf("client %t: %s's card does not say %q: %s", client, title, want[0], got)
			}
			if got := d.fill(tr.Page(id[title])); got != want[1] {
				t.Errorf("%s's card is %s, want %s", title, got, want[1])
			}
		}
		if got := nodes["p"+strconv.FormatInt(id["Pricing"], 10)]; !strings.Contains(got, "9 visits · 7 chose") {
			t.Errorf("client %t: Pricing's card lacks its figures: %s", client, got)
		}
		for _, w := range []string{"Tree test", "✓ correct answer", "✕ chosen, wrong", "! wrong way", "right way", "not visited"} {
			if !strings.Contains(string(svg), w) {
				t.Errorf("the legend lacks %q", w)
			}
		}
	}
	if a, b := (Options{ColorBy: ColorByTreeTest, Figures: figures}).Key(), (Options{ColorBy: ColorByTreeTest}).Key(); a == b {
		t.Error("figures do not change the key")
	}
}

// TestDiagramContent: the content view lists a page's blocks on its
// card, in the client version too, each clipped to the card, past ten
// the rest counted; the card grows to hold them, in every format and in
// the radial layout's tables.
func TestDiagramContent(t *testing.T) {
	doc := docFile(t, "../store/testdata/acme.json")
	tr, _ := doc.Tree()
	pages := tr.Pages()
	var pricing int64
	for i := range pages {
		if pages[i].Title == "Pricing" {
			pricing = pages[i].ID
			pages[i].Brief.Blocks = []site.Block{{Kind: "hero", Note: "Photo"}, {Kind: "table", Note: "Three tiers " + strings.Repeat("and more ", 20)}}
			for range 11 {
				pages[i].Brief.Blocks = append(pages[i].Brief.Blocks, site.Block{Kind: "faq"})
			}
		}
	}
	tr = site.NewTree(tr.Project, pages)
	for _, client := range []bool{false, true} {
		opt := Options{Content: true, Client: client}
		opt.SetDefaults()
		d := newDiagram(tr, nil, opt)
		plain := newDiagram(tr, nil, Options{Client: client})
		c := d.byID[pricing]
		if len(c.blocks) != 10 || c.blocks[0] != "Hero — Photo" || !strings.HasSuffix(c.blocks[1], "…") || c.blocks[9] != "+ 4 more blocks" {
			t.Errorf("client %t: blocks %q", client, c.blocks)
		}
		if got, want := c.h-plain.byID[pricing].h, blockGap+10*blockLineH; got != want {
			t.Errorf("client %t: the card grew %v, want %v", client, got, want)
		}
		if got := svgNodes(t, draw(t, d, FormatSVG))["p"+strconv.FormatInt(pricing, 10)]; !strings.Contains(got, "Hero — Photo") || !strings.Contains(got, "+ 4 more blocks") {
			t.Errorf("client %t: the SVG card reads %q", client, got)
		}
	}
	var dot bytes.Buffer
	if _, err := Render(context.Background(), &dot, tr, nil, Options{Format: FormatDOT, Layout: LayoutRadial, Content: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dot.String(), "Hero — Photo") || !strings.Contains(dot.String(), blockFill) {
		t.Errorf("the radial DOT has no blocks")
	}
	if a, b := (Options{Content: true}).Key(), (Options{}).Key(); a == b {
		t.Error("the content view does not change the key")
	}
}

// TestDiagramLocale: a localized plan drawn in one of its locales shows
// each page's title and URL there and its state there on its card; a
// page not offered there says so; a tag not among the plan's is refused.
func TestDiagramLocale(t *testing.T) {
	d := prepared(t, "../site/testdata/localized.json", Options{Locale: "de"})
	nodes := svgNodes(t, draw(t, d, FormatSVG))
	var all []string
	for _, n := range nodes {
		all = append(all, n)
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{"Preise", "/de/produkte/preise", "de: planned", "Produkte", "de: ready", "de: not offered"} {
		if !strings.Contains(text, want) {
			t.Errorf("the diagram in de lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Pricing") {
		t.Errorf("the diagram in de shows the default locale's title:\n%s", text)
	}
	tr, links := docFile(t, "../site/testdata/localized.json").Tree()
	var buf bytes.Buffer
	if _, err := Render(context.Background(), &buf, tr, links, Options{Locale: "it"}); err == nil || !strings.Contains(err.Error(), `Locale "it" is not one of the plan's: en, de, fr-CH.`) {
		t.Errorf("a locale not in the plan: %v", err)
	}
	if a, b := (Options{Locale: "de"}).Key(), (Options{Locale: "en"}).Key(); a == b {
		t.Errorf("the locale is not part of the key: %q", a)
	}
}

// TestMermaid: the plan as a Mermaid flowchart: the main tree's edges,
// the utility and footer navigation as subgraphs, cross-links dotted
// with their labels, and every title a quoted label whose quotes,
// brackets and markup are Mermaid's entity codes.
func TestMermaid(t *testing.T) {
	tr, links := docFile(t, "../store/testdata/acme.json").Tree()
	id := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { id[p.Title] = p.ID; return true })
	var out bytes.Buffer
	if _, err := Render(context.Background(), &out, tr, links, Options{Format: FormatMermaid, Links: true, Layout: LayoutLR}); err != nil {
		t.Fatal(err)
	}
	src := out.String()
	p := func(title string) string { return "p" + strconv.FormatInt(id[title], 10) }
	for _, want := range []string{
		"flowchart LR\n",
		"  " + p("Home") + `(["Home"])`,
		"  " + p("Home") + " --> " + p("About us") + "\n",
		`  subgraph footer["Footer navigation"]`,
		"    " + p("Imprint") + `["Imprint"]`,
		"Café #38; #34;Bar#34; #60;b#62;",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the flowchart lacks %q:\n%s", want, src)
		}
	}
	if strings.Count(src, "-.") != len(links) {
		t.Errorf("%d dotted cross-links, want %d:\n%s", strings.Count(src, "-."), len(links), src)
	}
}

// TestMermaidReadBack reads the flowchart back on the plan it drew: the
// same plan, every page, place, field and cross-link, so a diagram
// edited elsewhere and imported as a proposal changes only what its
// editor changed.
func TestMermaidReadBack(t *testing.T) {
	for _, file := range []string{"../store/testdata/acme.json", "../site/testdata/localized.json"} {
		tr, links := docFile(t, file).Tree()
		plan := site.NewDocument(tr, links)
		var out bytes.Buffer
		if _, err := Render(context.Background(), &out, tr, links, Options{Format: FormatMermaid, Links: true}); err != nil {
			t.Fatal(err)
		}
		back, err := site.ParseMermaid(out.String(), plan)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(plan)
		got, _ := json.Marshal(back)
		if string(got) != string(want) {
			t.Errorf("%s read back differs:\n got %s\nwant %s", file, got, want)
		}
	}
}

// TestPDFEstimate: the estimate is printed on the PDF's last sheet, a
// line a row and the total; for a client where the team says so, the
// total alone.
func TestPDFEstimate(t *testing.T) {
	tr, links := docFile(t, "../store/testdata/acme.json").Tree()
	card, err := site.ParseRateCard(strings.NewReader(`{"currency": "EUR", "hourly_rate": 95, "types": {"*": {"first_hours": 8, "each_hours": 2}},
		"fixed": [{"name": "Discovery", "hours": 24}], "margin_percent": 15}`))
	if err != nil {
		t.Fatal(err)
	}
	e := card.Estimate(tr, 0)
	render := func(totalOnly bool) pdfSheets {
		var out bytes.Buffer
		if _, err := Render(context.Background(), &out, tr, links, Options{Format: FormatPDF, Estimate: e, EstimateTotalOnly: totalOnly}); err != nil {
			t.Fatal(err)
		}
		return readPDF(t, out.Bytes())
	}
	full := render(false)
	squash := func(s string) string { return strings.Join(strings.Fields(s), "") } // as poppler reads it here
	last := squash(full.pages[len(full.pages)-1].text)
	for _, want := range []string{"Estimate, EUR", "Home · landing", "Discovery", "Margin 15%", "Total", site.Money(e.TotalMinor, "EUR")} {
		if !strings.Contains(last, squash(want)) {
			t.Errorf("the estimate sheet lacks %q:\n%s", want, last)
		}
	}
	client := render(true)
	last = squash(client.pages[len(client.pages)-1].text)
	if !strings.Contains(last, site.Money(e.TotalMinor, "EUR")) || strings.Contains(last, "Discovery") {
		t.Errorf("the client's sheet: %s", last)
	}
}
