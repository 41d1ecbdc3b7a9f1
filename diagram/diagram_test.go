package diagram

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"siteplan/internal/golden"
	"siteplan/site"

	"golang.org/x/image/font/sfnt"
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
	for _, pl := range site.Placements {
		for _, r := range d.visible()[pl] {
			out = append(out, r.page.Title)
		}
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
			stacked := 0
			for _, pl := range site.Placements {
				for _, r := range d.visible()[pl] {
					id := "p" + strconv.FormatInt(r.page.ID, 10)
					text, ok := nodes[id]
					if !ok {
						text, ok = nodes["a_"+id] // a cell in a stack
						stacked++
					}
					if got := squash(text); !ok || !strings.Contains(got, squash(r.page.Title)) {
						t.Errorf("SVG element of page %s reads %q, want the title %q", id, got, r.page.Title)
					}
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
			if strings.Contains(doc, "hostile") && stacked != 4 {
				t.Errorf("%d pages drawn in a stack, want the 4 leaves of the third level", stacked)
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
			wantW, wantH := wpt*PNGDPI/72, hpt*PNGDPI/72
			// Within 1%: the PNG is laid out with a stand-in for backslashes.
			if b := img.Bounds(); abs(float64(b.Dx())-wantW) > 2+wantW/100 || abs(float64(b.Dy())-wantH) > 2+wantH/100 {
				t.Errorf("PNG is %dx%d px, want %.0fx%.0f (the SVG's %s x %s at %d dpi)", b.Dx(), b.Dy(), wantW, wantH, size.W, size.H, PNGDPI)
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
			for _, pl := range site.Placements {
				for _, r := range d.visible()[pl] {
					if r.page.ParentID != 0 {
						want++
					}
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
			// Every title, the title block, and the key's shapes.
			for _, title := range append(titles, d.tree.Project.Name, "21 November 2026", "placeholder", "external", "cross-link") {
				if !strings.Contains(text, squash(title)) {
					t.Errorf("the PDF's text lacks %q:\n%s", title, text)
				}
			}
		})
	}
}

// pdfText extracts a PDF's text with poppler's pdftotext, and checks with
// pdfinfo that its pages are A4 landscape.
func pdfToText(t *testing.T, pdf []byte) string {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", pdf[:min(20, len(pdf))])
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pdftotext is missing; .ci/run installs poppler-utils")
		}
		t.Skip("pdftotext not installed (apt-get install poppler-utils); PDF text not checked")
	}
	path := filepath.Join(t.TempDir(), "d.pdf")
	os.WriteFile(path, pdf, 0o644)
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	info, err := exec.Command("pdfinfo", path).Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	if !strings.Contains(string(info), "841.89 x 595.28 pts (A4)") {
		t.Errorf("pdfinfo: want A4 landscape pages:\n%s", info)
	}
	return squash(string(out))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestLayoutBezierFill pins how this Graphviz build marks beziers in its
// JSON layout, which the painter relies on: "B" for a filled rounded node,
// "b" for an edge, the reverse of the xdot documentation. If Graphviz
// changes, this fails before PDFs and PNGs fill their edges.
func TestLayoutBezierFill(t *testing.T) {
	b, err := render(context.Background(), []byte(`digraph { node [shape=box, style="rounded,filled"]; a -> b }`), LayoutTree, formatJSON)
	if err != nil {
		t.Fatal(err)
	}
	l, err := parseLayout(b)
	if err != nil {
		t.Fatal(err)
	}
	ops := func(list []xop) (s string) {
		for _, op := range list {
			s += op.Op
		}
		return s
	}
	if got := ops(l.Objects[0].Draw); !strings.Contains(got, "B") || strings.Contains(got, "b") {
		t.Errorf("node shape ops = %q, want a B", got)
	}
	if got := ops(l.Edges[0].Draw); !strings.Contains(got, "b") || strings.Contains(got, "B") {
		t.Errorf("edge ops = %q, want a b", got)
	}
}

// TestStackItems pins which leaf siblings share a node: runs of three or
// more from the third level down, of twelve or more anywhere, in columns
// of at most forty, listed column by column.
func TestStackItems(t *testing.T) {
	tests := []struct {
		name           string
		sections, subs int
		leaves         int
		want           string // items of the main placement: page count, "s" for a stack, rows
	}{
		{"two leaves stay apart", 1, 1, 2, "1 1 1 1 1"},
		{"three leaves on the third level stack", 1, 1, 3, "1 1 1 3s3"},
		{"eleven leaves on the second level stay apart", 11, 0, 0, "1 1 1 1 1 1 1 1 1 1 1 1"},
		{"twelve leaves on the second level stack", 12, 0, 0, "1 12s12"},
		{"forty-one leaves make two columns", 1, 1, 41, "1 1 1 41s21"},
		{"a hundred leaves make three columns", 1, 1, 100, "1 1 1 100s34"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, links := site.GenerateDocument("Stacks", tt.sections, tt.subs, tt.leaves).Tree()
			opt := Options{}
			if err := opt.Normalize(tr); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range newDiagram(tr, links, opt).placed[site.PlacementMain] {
				s := strconv.Itoa(len(it.refs))
				if it.stack {
					s += "s" + strconv.Itoa(it.rows)
				}
				got = append(got, s)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("items = %q, want %q", strings.Join(got, " "), tt.want)
			}
		})
	}

	// Cells list pages column by column; a short last column ends empty.
	refs := make([]nodeRef, 5)
	for i := range refs {
		refs[i].page = &site.Page{ID: int64(i + 1)}
	}
	var got []string
	for _, r := range (item{refs: refs, rows: 2, stack: true}).cells() {
		if r == nil {
			got = append(got, "-")
		} else {
			got = append(got, strconv.FormatInt(r.page.ID, 10))
		}
	}
	if want := "1 3 5 2 4 -"; strings.Join(got, " ") != want {
		t.Errorf("cells row by row = %q, want %q", strings.Join(got, " "), want)
	}
}

// laidOut writes d's DOT as PNG and GraphML do and lays it out.
func laidOut(t *testing.T, d *diagram) (string, *layout) {
	t.Helper()
	dw := &dotWriter{diagram: d, forLayout: true, withLegend: true}
	var dot bytes.Buffer
	if err := dw.write(&dot); err != nil {
		t.Fatal(err)
	}
	b, err := render(context.Background(), dot.Bytes(), d.opt.Layout, formatJSON)
	if err != nil {
		t.Fatal(err)
	}
	l, err := parseLayout(b)
	if err != nil {
		t.Fatal(err)
	}
	return dot.String(), l
}

// TestStackCellsDashed: the layout draws stacked cells solid (Graphviz's
// xdot writer breaks on dashed cells), so pageCells dashes the borders of
// placeholders and dots those of external pages, and finds every cell.
func TestStackCellsDashed(t *testing.T) {
	d := prepared(t, "testdata/diagram-hostile.json", Options{})
	dot, l := laidOut(t, d)
	if strings.Contains(dot, "dashed\" border") || strings.Contains(dot, "dotted\" border") {
		t.Fatal("a layout's DOT has dashed or dotted cells")
	}
	cells, err := l.pageCells(d.nodes)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != d.pages {
		t.Errorf("found %d cells, want one for each of %d pages", len(cells), d.pages)
	}
	styles := ""
	for _, o := range l.Objects {
		if o.Name == "s6" {
			for _, op := range o.LDraw {
				if op.Op == "S" && (op.Style == "dashed" || op.Style == "dotted") {
					styles += op.Style + " "
				}
			}
		}
	}
	if styles != "dashed dotted " {
		t.Errorf("the stack's border styles = %q, want the placeholder dashed, then the external page dotted", styles)
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
// diagram utility and footer navigation are stars of their own, which
// Graphviz packs beside the main tree instead of among its pages.
func TestRadialNavigationApart(t *testing.T) {
	d := prepared(t, "../store/testdata/acme.json", Options{Layout: LayoutRadial})
	_, l := laidOut(t, d)
	boxes := map[string][4]float64{}
	for i := range l.Objects {
		o := &l.Objects[i]
		if o.isNode() {
			x0, y0, x1, y1 := o.bounds() // what the node draws
			boxes[o.ID] = [4]float64{x0, y0, x1, y1}
		}
	}
	main := [4]float64{1e18, 1e18, -1e18, -1e18}
	vis := d.visible()
	for _, r := range vis[site.PlacementMain] {
		b, ok := boxes["p"+strconv.FormatInt(r.page.ID, 10)]
		if !ok {
			t.Fatalf("page %d is not in the layout", r.page.ID)
		}
		main = [4]float64{min(main[0], b[0]), min(main[1], b[1]), max(main[2], b[2]), max(main[3], b[3])}
	}
	for _, pl := range []string{site.PlacementUtility, site.PlacementFooter} {
		if _, ok := boxes["nav-"+pl]; !ok {
			t.Errorf("no %s heading in the radial layout", pl)
		}
		for _, r := range vis[pl] {
			b := boxes["p"+strconv.FormatInt(r.page.ID, 10)]
			if b[0] < main[2] && main[0] < b[2] && b[1] < main[3] && main[1] < b[3] {
				t.Errorf("%s page %q at %v lies inside the main tree's box %v", pl, r.page.Title, b, main)
			}
		}
	}
}

// TestFontRuns: each character is drawn by the first embedded font that
// has it, a character none has by a visible U+FFFD, and invisible
// joiners and variation selectors not at all.
func TestFontRuns(t *testing.T) {
	tests := []struct {
		text string
		bold bool
		want string
	}{
		{"Home", false, "sans:Home"},
		{"Home", true, "sans-bold:Home"},
		{"Home 🏠", false, "sans:Home |symbols:🏠"},
		{"日本語 page", true, "cjk:日本語|sans-bold: page"},
		{"שלום مرحبا Ωμέγα Русский", false, "sans:שלום مرحبا Ωμέγα Русский"},
		{"✉️ 👩\u200d👩\u200d👧", false, "sans:✉ |symbols:👩👩👧"},
		{"x\U000FFFFDy", false, "sans:x\uFFFDy"},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range fonts().runs(tt.text, tt.bold) {
			got = append(got, r.face.name+":"+r.text)
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("runs(%q) = %q, want %q", tt.text, strings.Join(got, "|"), tt.want)
		}
	}
	var buf sfnt.Buffer
	if !fonts().regular[0].has(&buf, replacement) || !fonts().bold[0].has(&buf, replacement) {
		t.Error("the first font has no U+FFFD glyph: a missing character would print as nothing")
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
	for _, r := range "שלוםمرحب" { // right-to-left order is not checked here
		if !strings.ContainsRune(text, r) {
			t.Errorf("the PDF's text lacks %q", r)
		}
	}
}

// TestEdgesTouchPages: in every layout, each tree edge and cross-link of
// a deep plan (six levels, stacks, cross-links, utility and footer
// navigation) starts at the drawn box of its page and its arrow ends at
// the drawn box of the other: never in the empty part of a node that is
// as tall as its level, nor at the margin of a stack. No edge crosses the
// legend, in the whole plan or a branch of it.
func TestEdgesTouchPages(t *testing.T) {
	for _, tc := range []struct {
		layout string
		root   int64
	}{{LayoutTree, 0}, {LayoutLR, 0}, {LayoutRadial, 0}, {LayoutTree, 2}, {LayoutLR, 2}} {
		t.Run(fmt.Sprintf("%s-root%d", tc.layout, tc.root), func(t *testing.T) {
			d := prepared(t, "testdata/diagram-deep.json", Options{Links: true, Layout: tc.layout, Root: tc.root})
			_, l := laidOut(t, d)
			cells, err := l.pageCells(d.nodes)
			if err != nil {
				t.Fatal(err)
			}
			items := map[string]item{}
			for _, it := range d.nodes {
				items[it.name()] = it
			}
			names := map[int]string{}
			var legend box
			for _, o := range l.Objects {
				names[o.GVID] = o.Name
				if o.Name == "legend" {
					legend.x0, legend.y0, legend.x1, legend.y1 = o.bounds()
				}
			}
			// near is how far p is from the nearest drawn page box of the
			// node (of the port's page, if the edge names one).
			near := func(node int, port string, pts ...[2]float64) float64 {
				it, ok := items[names[node]]
				if !ok {
					return 0 // a navigation heading, not a page
				}
				var boxes []box
				if id, err := strconv.ParseInt(strings.TrimPrefix(strings.Split(port, ":")[0], "p"), 10, 64); err == nil && port != "" {
					boxes = append(boxes, cells[id])
				} else {
					for _, r := range it.refs {
						boxes = append(boxes, cells[r.page.ID])
					}
				}
				best := 1e18
				for _, b := range boxes {
					for _, p := range pts {
						dx := max(b.x0-p[0], 0, p[0]-b.x1)
						dy := max(b.y0-p[1], 0, p[1]-b.y1)
						best = min(best, math.Hypot(dx, dy))
					}
				}
				return best
			}
			const tolerance = 3.0 // points: a border's width and the arrow's pen
			edges := 0
			for _, e := range l.Edges {
				var path, arrow [][2]float64
				for _, op := range e.Draw {
					if op.Op == "b" || op.Op == "B" || op.Op == "L" {
						path = op.Points
					}
				}
				for _, op := range e.HDraw {
					arrow = append(arrow, op.Points...)
				}
				if len(path) == 0 || len(arrow) == 0 {
					continue // a navigation heading's edge has no arrow
				}
				edges++
				what := names[e.Tail] + " -> " + names[e.Head] + " " + e.ID
				if dist := near(e.Tail, e.TailPort, path[0]); dist > tolerance {
					t.Errorf("%s starts %.1f pt from its page", what, dist)
				}
				if dist := near(e.Head, e.HeadPort, arrow...); dist > tolerance {
					t.Errorf("%s ends %.1f pt from its page", what, dist)
				}
				for _, p := range append(path, arrow...) {
					if p[0] > legend.x0 && p[0] < legend.x1 && p[1] > legend.y0 && p[1] < legend.y1 {
						t.Errorf("%s passes through the legend at %v", what, p)
						break
					}
				}
			}
			if legend.x1 <= legend.x0 {
				t.Error("the layout has no legend")
			}
			if edges < 10 {
				t.Errorf("checked %d edges; the plan has more", edges)
			}
		})
	}
}

// TestRadialLinkBetweenRoots: in a radial diagram, a cross-link between
// two top-level pages (or between the main tree and utility navigation)
// is left out, and every page is still drawn.
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
	tr, links := site.GenerateDocument("Big", 20, 20, 15).Tree() // 6,421 pages
	before := layouts.Load()
	var buf bytes.Buffer
	_, err := Render(context.Background(), &buf, tr, links, Options{Format: FormatPNG})
	if site.ErrorCode(err) != site.ETooLarge || !strings.Contains(err.Error(), "megapixels") {
		t.Fatalf("PNG of %d pages: %v, want ETooLarge", tr.Len(), err)
	}
	if n := layouts.Load() - before; n != 0 {
		t.Errorf("the plan was laid out %d times before the PNG was refused", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	before = layouts.Load()
	if _, err := Render(ctx, &buf, tr, links, Options{Format: FormatSVG, Depth: 1}); site.ErrorCode(err) != site.ETooLarge {
		t.Errorf("render of a cancelled request: %v, want the timeout error", err)
	}
	if n := layouts.Load() - before; n != 0 {
		t.Errorf("a render given up on was laid out %d times", n)
	}
}
