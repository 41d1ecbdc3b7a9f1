package diagram

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"siteplan/internal/golden"
	"siteplan/site"
)

// scene is a scene as the browser reads it.
type scene struct {
	W, H   float64
	Font   string
	Strs   []string
	Cards  []float64
	Groups [][]any
	Ops    []float64
}

func readScene(t *testing.T, b []byte) scene {
	t.Helper()
	var s scene
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("the scene is not JSON: %v\n%.300s", err, b)
	}
	return s
}

// sceneOp is one operation of a scene, read back.
type sceneOp struct {
	at, code int
	pts      []point // of a shape, as the SVG's path has them
	text     string
}

// read decodes the operations of ops [from, to).
func (s scene) read(t *testing.T, from, to int) []sceneOp {
	t.Helper()
	var out []sceneOp
	o := s.Ops
	for i := from; i < to; {
		op := sceneOp{at: i, code: int(o[i])}
		pts := func(j int) int { // n points from j: the index after them
			n := int(o[j])
			for k := 0; k < n; k++ {
				op.pts = append(op.pts, point{o[j+1+2*k], o[j+2+2*k]})
			}
			return j + 1 + 2*n
		}
		switch op.code {
		case scenePen, sceneFill, sceneWidth:
			i += 2
		case sceneDash:
			i += 3
		case sceneRect:
			x0, y0, x1, y1 := o[i+2], o[i+3], o[i+4], o[i+5]
			op.pts = []point{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
			i += 6
		case scenePolygon, sceneBezier:
			i = pts(i + 2)
		case scenePolyline:
			i = pts(i + 1)
		case sceneEllipse:
			i += 6
		case sceneText:
			op.text = s.Strs[int(o[i+6])]
			i += 7
		default:
			t.Fatalf("unknown scene operation %v at %d", o[i], i)
		}
		out = append(out, op)
	}
	return out
}

// shapes lists the points of every rectangle, polygon, polyline and
// bezier of ops [from, to), as svgShapes reads them from paths.
func (s scene) shapes(t *testing.T, from, to int) [][]point {
	var out [][]point
	for _, op := range s.read(t, from, to) {
		if op.pts != nil {
			out = append(out, op.pts)
		}
	}
	return out
}

// texts lists the words every text operation draws.
func (s scene) texts(t *testing.T) []string {
	var out []string
	for _, op := range s.read(t, 0, len(s.Ops)) {
		if op.code == sceneText {
			out = append(out, op.text)
		}
	}
	return out
}

// svgTexts lists the words of every <text> element of an SVG.
func svgTexts(t *testing.T, svg []byte) []string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var out []string
	in := false
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch el := tok.(type) {
		case xml.StartElement:
			in = el.Name.Local == "text"
			if in {
				out = append(out, "")
			}
		case xml.CharData:
			if in {
				out[len(out)-1] += string(el)
			}
		case xml.EndElement:
			in = false
		}
	}
	return out
}

// TestSceneIsTheSVGsDrawing draws org charts and a radial diagram as SVG
// and as a scene: the scene has the SVG's objects in the same order with
// the same shapes and words, a card box for every page drawn where its
// card is, and its titles escaped for a <script> element.
func TestSceneIsTheSVGsDrawing(t *testing.T) {
	acme := "../store/testdata/acme.json"
	for _, tc := range []struct {
		name, doc string
		opt       Options
	}{
		{"tree", acme, Options{Links: true, Comments: map[int64]int{2: 3}}},
		{"lr by status", acme, Options{Layout: LayoutLR, ColorBy: ColorByStatus, Links: true}},
		{"hostile", "testdata/diagram-hostile.json", Options{Links: true}},
		{"radial", acme, Options{Layout: LayoutRadial}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := prepared(t, tc.doc, tc.opt)
			raw := draw(t, d, FormatScene)
			if i := bytes.IndexAny(raw, "<>&"); i >= 0 {
				t.Errorf("the scene has %q at %d: it could end the <script> it sits in", raw[i], i)
			}
			sc := readScene(t, raw)
			if len(sc.Cards) != 5*d.pages {
				t.Fatalf("the scene has %d card numbers, want 5 for each of %d pages", len(sc.Cards), d.pages)
			}
			for _, title := range visibleTitles(d) {
				if !slices.ContainsFunc(sc.texts(t), func(s string) bool {
					return s == title || len(title) > 20 && len(s) > 0 && title[:10] == s[:min(10, len(s))]
				}) {
					t.Errorf("no text of the scene reads %q", title)
				}
			}
			svg := draw(t, d, FormatSVG)
			if got, want := sc.texts(t), svgTexts(t, svg); !slices.Equal(got, want) {
				t.Errorf("the scene's words differ from the SVG's:\n got %q\nwant %q", got, want)
			}
			all := svgShapes(t, svg)
			var want [][]point
			for _, g := range all {
				want = append(want, g.paths...)
			}
			if got := sc.shapes(t, 0, len(sc.Ops)); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("the scene's shapes differ from the SVG's:\n got %v\nwant %v", got, want)
			}
			groups := slices.DeleteFunc(all, func(g svgGroup) bool { return g.class == "edge" })
			if len(groups) != len(sc.Groups) {
				t.Fatalf("the scene has %d groups, the SVG %d", len(sc.Groups), len(groups))
			}
			cards := map[string][]float64{}
			for i := 0; i < len(sc.Cards); i += 5 {
				cards["p"+strconv.FormatFloat(sc.Cards[i], 'f', -1, 64)] = sc.Cards[i+1 : i+5]
			}
			var parent string
			for i, g := range groups {
				sg := sc.Groups[i]
				id, class := sg[0].(string), sg[1].(string)
				if g.id == "" { // a badge: the scene names its card
					if g.id = parent; class != "badge" {
						t.Errorf("group %d without an id has class %q", i, class)
					}
				}
				if id != g.id || class != g.class {
					t.Errorf("group %d is %s.%s in the scene, %s.%s in the SVG", i, id, class, g.id, g.class)
				}
				if class == "node" {
					parent = id
				}
				got := sc.shapes(t, int(sg[2].(float64)), int(sg[3].(float64)))
				if class == "badge" {
					continue // words only; in both, the card's shapes are the card's
				}
				if fmt.Sprint(got) != fmt.Sprint(g.paths) {
					t.Errorf("group %s: the scene's shapes differ from the SVG's:\n got %v\nwant %v", id, got, g.paths)
				}
				if class == "node" {
					b, ok := cards[id]
					if !ok {
						t.Errorf("the scene has no card box for %s", id)
						continue
					}
					x0, y0, x1, y1 := got[0][0].X, got[0][0].Y, got[0][0].X, got[0][0].Y
					for _, p := range got[0] {
						x0, y0, x1, y1 = min(x0, p.X), min(y0, p.Y), max(x1, p.X), max(y1, p.Y)
					}
					if !near(b[0], x0) || !near(b[1], y0) || !near(b[0]+b[2], x1) || !near(b[1]+b[3], y1) {
						t.Errorf("card box of %s is %v, its card is drawn at (%g,%g)-(%g,%g)", id, b, x0, y0, x1, y1)
					}
				}
			}
		})
	}
}

func near(a, b float64) bool { return abs(a-b) < 0.02 }

// TestViewFormat draws FormatView as SVG up to ViewSVGMax pages and as a
// scene past it.
func TestViewFormat(t *testing.T) {
	for _, tc := range []struct {
		pages int
		scene bool
	}{{ViewSVGMax, false}, {ViewSVGMax + 1, true}} {
		home := &site.DocPage{Title: "Home"}
		for i := range tc.pages - 1 {
			home.Children = append(home.Children, &site.DocPage{Title: fmt.Sprintf("Page %d", i)})
		}
		doc := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "View", BaseURL: "https://example.com/"}, Pages: []*site.DocPage{home}}
		tr, links := doc.Tree()
		var buf bytes.Buffer
		res, err := Render(t.Context(), &buf, tr, links, Options{Format: FormatView})
		if err != nil {
			t.Fatal(err)
		}
		if res.Pages != tc.pages || IsScene(buf.Bytes()) != tc.scene {
			t.Errorf("%d pages drawn as view: %d pages, scene %v (starts %.20q), want scene %v", tc.pages, res.Pages, IsScene(buf.Bytes()), buf.Bytes(), tc.scene)
		}
	}
}

// TestSceneGolden keeps a scene of the acme plan (cards, a comment
// badge, cross-links) in testdata/scene-acme.json: the editor's scene
// decoder (static/js/scene.test.js) reads the same file, so the two
// sides of the format are tested against one drawing.
func TestSceneGolden(t *testing.T) {
	d := prepared(t, "../store/testdata/acme.json", Options{Links: true, Comments: map[int64]int{2: 3}})
	golden.Check(t, "scene-acme.json", draw(t, d, FormatScene))
}
