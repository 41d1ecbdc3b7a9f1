package diagram

import (
	"bytes"
	"image/png"
	"math"
	"strconv"
	"strings"
	"testing"

	"siteplan/site"
)

// branchRows measures a drawing's balance from where its cards are: for
// each branch of the main tree (a second-level page and all below it)
// how many rows of cards it runs down, and how many cards the widest row
// of the main tree has. rowOf gives a card's row (its top), ok false for
// a page not drawn.
func branchRows(tr *site.Tree, rowOf func(p *site.Page) (float64, bool)) (rows map[string]int, widest int) {
	rows = map[string]int{}
	seen := map[string]map[float64]bool{}
	perRow := map[float64]int{}
	var walk func(p *site.Page, branch string, depth int)
	walk = func(p *site.Page, branch string, depth int) {
		y, ok := rowOf(p)
		if ok {
			perRow[y]++
			widest = max(widest, perRow[y])
			if branch != "" {
				if seen[branch] == nil {
					seen[branch] = map[float64]bool{}
				}
				seen[branch][y] = true
				rows[branch] = len(seen[branch])
			}
		}
		for _, k := range tr.Children(p.ID) {
			if depth == 1 {
				branch = k.Title
			}
			walk(k, branch, depth+1)
		}
	}
	for _, root := range tr.Roots(site.PlacementMain) {
		walk(root, "", 1)
	}
	return rows, widest
}

// checkBalanced fails if a branch runs down more than twice as many rows
// as the widest row has cards.
func checkBalanced(t *testing.T, what string, rows map[string]int, widest int) {
	t.Helper()
	if widest == 0 || len(rows) == 0 {
		t.Fatalf("%s: no cards found", what)
	}
	for b, n := range rows {
		if n > 2*widest {
			t.Errorf("%s: the branch %q runs down %d rows; the widest row has %d cards", what, b, n, widest)
		}
	}
}

// TestBalancedLayout: the canvas, SVG, PNG and PDF share one layout, and
// it is balanced: no branch runs down more than twice as many rows as
// the widest row has cards (a shop of 5 categories and 16 products was
// one column of 22 cards), and the PNG is not half empty. Measured on
// what each format draws: the SVG's card boxes, the PNG's pixels, the
// PDF's words.
func TestBalancedLayout(t *testing.T) {
	for _, path := range []string{"testdata/relaunch61.json", "testdata/workshop.json"} {
		t.Run(path, func(t *testing.T) {
			tr, links := docFile(t, path).Tree()
			d := prepared(t, path, Options{Links: true})
			boxes := map[string]box{}
			for _, g := range svgShapes(t, draw(t, d, FormatSVG)) {
				if g.class == "node" {
					boxes[g.id] = bounds(g.paths[0])
				}
			}
			rows, widest := branchRows(tr, func(p *site.Page) (float64, bool) {
				b, ok := boxes["p"+strconv.FormatInt(p.ID, 10)]
				return math.Round(b.y0), ok
			})
			checkBalanced(t, "SVG", rows, widest)

			img, err := png.Decode(bytes.NewReader(draw(t, d, FormatPNG)))
			if err != nil {
				t.Fatal(err)
			}
			r := img.Bounds()
			if aspect := float64(r.Dx()) / float64(r.Dy()); aspect < 1 || aspect > 2.5 {
				t.Errorf("PNG: %d×%d, want a landscape screen's shape", r.Dx(), r.Dy())
			}
			for q := range 4 { // each quarter of the picture has something in it
				x0, y0 := r.Min.X+q%2*r.Dx()/2, r.Min.Y+q/2*r.Dy()/2
				ink, all := 0, 0
				for y := y0; y < y0+r.Dy()/2; y += 3 {
					for x := x0; x < x0+r.Dx()/2; x += 3 {
						if cr, cg, cb, _ := img.At(x, y).RGBA(); cr>>8 < 240 || cg>>8 < 240 || cb>>8 < 240 {
							ink++
						}
						all++
					}
				}
				if float64(ink) < 0.03*float64(all) {
					t.Errorf("PNG: quarter %d is %.1f%% drawn, nearly empty", q+1, 100*float64(ink)/float64(all))
				}
			}

			// The PDF on one A3 sheet, where the balanced layout prints
			// legibly: a card's row is where its title's first word is.
			s := readPDF(t, renderPDF(t, tr, links, Options{OneSheet: true, Paper: PaperA3, Links: false}))
			checkLegible(t, s)
			firstWord := map[string][]float64{}
			for _, w := range s.pages[0].words {
				firstWord[w.Text] = append(firstWord[w.Text], math.Round(w.YMin))
			}
			used := map[string]int{}
			rows, widest = branchRows(tr, func(p *site.Page) (float64, bool) {
				word := strings.Fields(p.Title)[0]
				ys := firstWord[word]
				if used[word] >= len(ys) {
					return 0, false
				}
				used[word]++
				return ys[used[word]-1], true
			})
			checkBalanced(t, "PDF", rows, widest)
		})
	}
}
