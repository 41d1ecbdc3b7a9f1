package diagram

import (
	"math"
	"testing"

	"siteplan/diagram/internal/fonts"
)

// drawnLink is a cross-link as drawn: points along its path, a point or
// so apart, and its label's box.
type drawnLink struct {
	id    string
	along []point
	label *box
}

// TestLinkLabelsBesideTheirLinks reads the cross-links of the SVG, and of
// the chart a one-sheet PDF prints: each label sits on or right beside
// its own link and on no other, and no two links run along the same lane
// (five links shared one line on the one-sheet PDF and a label sat by
// another link, far from its own).
func TestLinkLabelsBesideTheirLinks(t *testing.T) {
	for _, path := range []string{"testdata/relaunch61.json", "testdata/workshop.json", "../store/testdata/acme.json"} {
		for _, layout := range []string{LayoutTree, LayoutLR, "one-sheet"} {
			t.Run(path+"-"+layout, func(t *testing.T) {
				var links []drawnLink
				if layout == "one-sheet" {
					links = sheetLinks(t, path)
				} else {
					links = svgLinks(t, prepared(t, path, Options{Links: true, Layout: layout}))
				}
				checkLinks(t, links)
			})
		}
	}
}

// sheetLinks lays a plan out as the one-sheet A4 PDF does, with compact
// cards for the sheet's drawing area, and lists its links.
func sheetLinks(t *testing.T, path string) []drawnLink {
	tr, links := docFile(t, path).Tree()
	opt := Options{Links: true, Format: FormatPDF, OneSheet: true}
	if err := opt.Normalize(tr); err != nil {
		t.Fatal(err)
	}
	opt.compact = true
	d := newDiagram(tr, links, opt)
	d.sheet = &point{780, 420} // about an A4 landscape sheet's drawing area
	ch := d.arrange(true)
	var out []drawnLink
	for _, l := range d.links {
		cv, ok := ch.links[l.ID]
		if !ok {
			continue
		}
		dl := drawnLink{id: l.Label}
		for i := 1; i < len(cv.path); i++ {
			a, b := cv.path[i-1], cv.path[i]
			for s := 0.0; s <= 1; s += 0.02 {
				dl.along = append(dl.along, point{a.X + (b.X-a.X)*s, a.Y + (b.Y-a.Y)*s})
			}
		}
		if l.Label != "" {
			w, h := fonts.Measure(l.Label, d.labelSize(9), false)+8, d.labelSize(9)+5
			dl.label = &box{cv.label.X - w/2, cv.label.Y - h/2, cv.label.X + w/2, cv.label.Y + h/2}
		}
		out = append(out, dl)
	}
	return out
}

// svgLinks lists the links of d's SVG.
func svgLinks(t *testing.T, d *diagram) []drawnLink {
	var links []drawnLink
	for _, g := range svgShapes(t, draw(t, d, FormatSVG)) {
		if g.class != "edge link" {
			continue
		}
		l := drawnLink{id: g.id}
		pts := g.paths[0]
		for i := 0; i+3 < len(pts); i += 3 {
			for s := 0.0; s <= 1; s += 0.02 {
				l.along = append(l.along, bezierAt(pts[i:i+4], s))
			}
		}
		if len(g.paths) > 2 {
			b := bounds(g.paths[2])
			l.label = &b
		}
		links = append(links, l)
	}
	return links
}

// checkLinks fails if a label is not on or beside its own link, lies on
// another, or two links run together.
func checkLinks(t *testing.T, links []drawnLink) {
	t.Helper()
	labelled := 0
	for _, l := range links {
		if l.label == nil {
			continue
		}
		labelled++
		if dist := boxDistance(*l.label, l.along); dist > 4 {
			t.Errorf("%s: its label %v is %.0f pt from its link", l.id, *l.label, dist)
		}
		for _, o := range links {
			if o.id != l.id && boxDistance(*l.label, o.along) < 0.5 {
				t.Errorf("%s: its label %v lies on %s", l.id, *l.label, o.id)
			}
		}
	}
	if labelled == 0 {
		t.Fatal("no labelled link drawn")
	}
	for i, l := range links {
		for _, o := range links[i+1:] {
			shared := 0.0
			for k := 1; k < len(l.along); k++ {
				p := l.along[k]
				if nearest(p, o.along) < 1.5 {
					shared += math.Hypot(p.X-l.along[k-1].X, p.Y-l.along[k-1].Y)
				}
			}
			if shared > 24 {
				t.Errorf("%s and %s run together for %.0f pt", l.id, o.id, shared)
			}
		}
	}
}

// boxDistance is how far the nearest of pts is from the box b (0 inside).
func boxDistance(b box, pts []point) float64 {
	best := math.Inf(1)
	for _, p := range pts {
		dx := max(b.x0-p.X, 0, p.X-b.x1)
		dy := max(b.y0-p.Y, 0, p.Y-b.y1)
		best = min(best, math.Hypot(dx, dy))
	}
	return best
}

// nearest is the distance from p to the nearest of pts.
func nearest(p point, pts []point) float64 {
	best := math.Inf(1)
	for _, q := range pts {
		best = min(best, math.Hypot(p.X-q.X, p.Y-q.Y))
	}
	return best
}
