package diagram

import (
	"math"
	"slices"
	"strconv"

	"siteplan/diagram/internal/fonts"
	"siteplan/site"
)

// picture is a diagram placed and ready to draw on a canvas.
type picture interface {
	// size is the drawing's width and height in points.
	size() (w, h float64)
	// draw paints what meets the window [x0,x1]×[y0,y1] (points, y down)
	// through p's mapping.
	draw(p *painter, x0, y0, x1, y1 float64)
}

// chartPicture is an org chart with the diagram it shows.
type chartPicture struct {
	d  *diagram
	ch *chart
}

func (cp chartPicture) size() (float64, float64) { return cp.ch.w, cp.ch.h }

// draw paints the chart: the navigation frames and the legend, the
// connectors, the cards, and the cross-links over them all, so that no
// card hides one (they never run along a connector).
func (cp chartPicture) draw(p *painter, x0, y0, x1, y1 float64) {
	d, ch, c := cp.d, cp.ch, p.c
	at := func(x, y float64) point { return point{p.tx(x), p.ty(ch.h - y)} }
	meets := func(bx0, by0, bx1, by1 float64) bool { return bx1 >= x0 && bx0 <= x1 && by1 >= y0 && by0 <= y1 }
	for _, f := range ch.frames {
		if !meets(f.x, f.y, f.x+f.w, f.y+f.h) {
			continue
		}
		c.group("frame-"+f.placement, "frame", frameLabel(f.placement))
		c.setFill(rgb{}, false)
		c.setPen(hex(mutedColor), true)
		c.setLineWidth(p.scale)
		c.setDash(4*p.scale, 3*p.scale)
		roundRect(c, at(f.x, f.y), at(f.x+f.w, f.y+f.h), 8*p.scale, false)
		c.setDash(0, 0)
		c.text(at(f.x+framePad, f.y+framePad+4), frameLabel(f.placement), d.labelSize(10)*p.scale, true, 'l', 0)
		c.end()
	}
	if l := ch.legend; l != nil && meets(l.x0, l.y0, l.x1, l.y1) {
		cp.drawLegend(p, at)
	}
	for _, b := range ch.stacks { // a light frame that holds a stack's cards together
		if meets(b.x0, b.y0, b.x1, b.y1) {
			c.group("", "stack", "")
			c.setFill(hex(stackFill), true)
			c.setPen(hex(stackLine), true)
			c.setLineWidth(p.scale)
			c.setDash(0, 0)
			roundRect(c, at(b.x0, b.y0), at(b.x1, b.y1), 6*p.scale, true)
			c.end()
		}
	}
	for _, h := range ch.hubs {
		if !meets(h.x0, h.y0, h.x1, h.y1) {
			continue
		}
		c.group("nav-"+h.placement, "frame", frameLabel(h.placement))
		c.setFill(rgb{255, 255, 255}, true)
		c.setPen(hex(mutedColor), true)
		c.setLineWidth(p.scale)
		c.setDash(4*p.scale, 3*p.scale)
		roundRect(c, at(h.x0, h.y0), at(h.x1, h.y1), 6*p.scale, false)
		c.setDash(0, 0)
		c.text(at(h.x0+hubPad, (h.y0+h.y1)/2+d.labelSize(10)*0.35), frameLabel(h.placement), d.labelSize(10)*p.scale, true, 'l', 0)
		c.end()
	}
	c.setDash(0, 0)
	for _, wr := range ch.wires {
		bx0, by0, bx1, by1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, q := range wr.pts {
			bx0, by0, bx1, by1 = min(bx0, q.X), min(by0, q.Y), max(bx1, q.X), max(by1, q.Y)
		}
		if !meets(bx0, by0, bx1, by1) {
			continue
		}
		c.group("edge-"+strconv.FormatInt(wr.from, 10)+"-"+strconv.FormatInt(wr.to, 10), "edge", "")
		c.setPen(hex(lineColor), true)
		c.setLineWidth(1.2 * p.scale)
		if wr.from == 0 { // from a navigation heading
			c.setDash(4*p.scale, 3*p.scale)
		}
		pts := make([]point, len(wr.pts))
		for i, q := range wr.pts {
			pts[i] = at(q.X, q.Y)
		}
		c.polyline(pts)
		c.setDash(0, 0)
		c.end()
	}
	for _, cd := range d.cards {
		if meets(cd.x, cd.y, cd.x+cd.w, cd.y+cd.h) {
			d.drawCard(p, cd, at)
		}
	}
	for _, l := range d.links {
		cv, ok := ch.links[l.ID]
		if !ok {
			continue
		}
		lw, lh := fonts.Measure(l.Label, d.labelSize(9), false)+8, d.labelSize(9)+5
		b := bounds(append(slices.Clone(cv.pts), cv.tip, point{cv.label.X - lw/2, cv.label.Y - lh/2}, point{cv.label.X + lw/2, cv.label.Y + lh/2}))
		if !meets(b.x0-4, b.y0-4, b.x1+4, b.y1+4) {
			continue
		}
		c.group("link-"+strconv.FormatInt(l.ID, 10), "edge link", l.Label)
		c.setPen(hex(linkColor), true)
		c.setFill(hex(linkColor), true)
		c.setLineWidth(p.scale)
		c.setDash(4*p.scale, 3*p.scale)
		pts := make([]point, len(cv.pts))
		for i, q := range cv.pts {
			pts[i] = at(q.X, q.Y)
		}
		c.bezier(pts, false)
		c.setDash(0, 0)
		c.polygon(arrowHead(cv.pts[len(cv.pts)-1], cv.tip, at), true)
		if l.Label != "" { // on a white ground, in free space
			c.setPen(rgb{}, false)
			c.setFill(rgb{255, 255, 255}, true)
			roundRect(c, at(cv.label.X-lw/2, cv.label.Y-lh/2), at(cv.label.X+lw/2, cv.label.Y+lh/2), 4*p.scale, true)
			c.setPen(hex(linkColor), true)
			c.text(at(cv.label.X-lw/2+4, cv.label.Y+d.labelSize(9)*0.35), l.Label, d.labelSize(9)*p.scale, false, 'l', 0)
		}
		c.end()
	}
}

// labelSize is the size of a label drawn size on full cards: on compact
// ones every word is as large as a title.
func (d *diagram) labelSize(size float64) float64 {
	if d.opt.compact {
		return titleSize
	}
	return size
}

// arrowHead is the triangle of an arrow from base to tip.
func arrowHead(base, tip point, at func(x, y float64) point) []point {
	dx, dy := tip.X-base.X, tip.Y-base.Y
	n := math.Hypot(dx, dy)
	if n == 0 {
		n = 1
	}
	nx, ny := -dy/n*3, dx/n*3
	return []point{at(tip.X, tip.Y), at(base.X+nx, base.Y+ny), at(base.X-nx, base.Y-ny)}
}

// drawCard paints a page's card: its box, band, title, path, status line
// and what is not drawn, the rows writeCard gives the DOT export.
func (d *diagram) drawCard(p *painter, cd *card, at func(x, y float64) point) {
	c, s, pg := p.c, p.scale, cd.page
	c.group("p"+strconv.FormatInt(pg.ID, 10), "node", pg.Title)
	bw, border := d.border(pg)
	x0, y0, x1, y1 := cd.x, cd.y, cd.x+cd.w, cd.y+cd.h
	c.setLineWidth(s) // every card starts from the same state, however many were drawn before
	c.setDash(0, 0)
	c.setPen(rgb{}, false)
	c.setFill(rgb{255, 255, 255}, true)
	rect(c, at(x0, y0), at(x1, y1), true)
	in := float64(bw)
	c.setFill(hex(cd.fill), true)
	rect(c, at(x0+in, y0+in), at(x1-in, y0+in+cd.bandH), true)
	c.setPen(hex(inkColor), true)
	textAt := func(x, y float64, str string, size float64, bold bool) {
		if rtl(str) {
			c.text(at(x1-in-cardPad+1, y), str, size*s, bold, 'r', 0)
			return
		}
		c.text(at(x, y), str, size*s, bold, 'l', 0)
	}
	left := x0 + in + cardPad - 1
	if cd.band != "" {
		c.text(at(left, y0+in+bandH/2+bandSize*0.35), cd.band, bandSize*s, true, 'l', 0)
	}
	if cd.comments > 0 { // a group of its own: the editor opens the thread when it is clicked
		c.group("", "badge", site.Plural(cd.comments, "open comment thread", "open comment threads"))
		c.setPen(hex(commentColor), true)
		c.text(at(x1-in-6, y0+in+bandH/2+bandSize*0.35), "✎"+strconv.Itoa(cd.comments), (bandSize+0.5)*s, true, 'r', 0)
		c.end()
	}
	y := y0 + in + cd.bandH + cardTop
	line := func(h, size float64) float64 { // the baseline of a line of height h
		base := y + h/2 + size*0.35
		y += h
		return base
	}
	c.setPen(hex(textColor), true)
	for _, t := range cd.title {
		textAt(left, line(titleLineH, titleSize), t, titleSize, true)
	}
	if cd.path != "" {
		c.setPen(hex(mutedColor), true)
		c.text(at(left, line(smallLineH, smallSize)), cd.path, smallSize*s, false, 'l', 0)
	}
	if cd.meta != "" {
		base := line(smallLineH, smallSize)
		c.setPen(hex(statusColors[pg.Status]), true)
		c.setFill(hex(statusColors[pg.Status]), true)
		c.setPen(rgb{}, false)
		c.ellipse(at(left+3, base-smallSize*0.33), 2.8*s, 2.8*s, true)
		c.setPen(hex(mutedColor), true)
		c.text(at(left+9, base), cd.meta, smallSize*s, false, 'l', 0)
	}
	if len(cd.blocks) > 0 { // a wireframe: a light box a block
		y += blockGap
		for _, b := range cd.blocks {
			c.setFill(hex(blockFill), true)
			c.setPen(hex(blockLine), true)
			c.setLineWidth(0.6 * s)
			rect(c, at(left, y+1), at(x1-in-cardPad+1, y+blockLineH-1), true)
			c.setPen(hex(textColor), true)
			c.text(at(left+4, line(blockLineH, smallSize)), b, smallSize*s, false, 'l', 0)
		}
		c.setLineWidth(s)
	}
	if cd.hidden > 0 {
		c.setPen(hex(mutedColor), true)
		c.text(at(left, line(cd.moreLineH(), cd.moreSize)), cd.more(), cd.moreSize*s, false, 'l', 0)
	}
	if len(cd.refs) > 0 {
		c.setPen(hex(linkColor), true)
		for _, r := range cd.refLines() {
			c.text(at(left, line(cd.moreLineH(), cd.moreSize)), r, cd.moreSize*s, false, 'l', 0)
		}
	}
	c.setFill(rgb{}, false)
	c.setPen(hex(border), true)
	c.setLineWidth(float64(bw) * s)
	switch pg.Kind {
	case site.KindPlaceholder:
		c.setDash(4*s, 3*s)
	case site.KindExternal:
		c.setDash(1.2*s, 2*s)
	}
	h := float64(bw) / 2
	rect(c, at(x0+h, y0+h), at(x1-h, y1-h), false)
	c.setDash(0, 0)
	c.end()
}

// drawLegend paints the legend: a title, a swatch per colour, and the
// marks of the kinds of page and the cross-links in words.
func (cp chartPicture) drawLegend(p *painter, at func(x, y float64) point) {
	d, l, c, s := cp.d, cp.ch.legend, p.c, p.scale
	c.group("legend", "legend", "")
	c.setFill(rgb{255, 255, 255}, true)
	c.setPen(hex("#cbd5e1"), true)
	c.setLineWidth(s)
	roundRect(c, at(l.x0, l.y0), at(l.x1, l.y1), 6*s, true)
	c.setPen(hex(textColor), true)
	x, y := l.x0+1+legendSpacing, l.y0+1+legendSpacing
	c.text(at(x+4, y+legendTitleH/2+3.5), d.legendTitle(), 10*s, true, 'l', 0)
	y += legendTitleH + legendSpacing
	for _, it := range d.legendRows() {
		if it.Fill != "" {
			c.setPen(rgb{}, false)
			c.setFill(hex(it.Fill), true)
			rect(c, at(x, y), at(x+legendSwatchW, y+legendRowH), true)
		}
		c.setPen(hex(textColor), true)
		c.text(at(x+legendSwatchW+legendSpacing+2, y+legendRowH/2+3.2), it.Label, 9*s, false, 'l', 0)
		y += legendRowH + legendSpacing
	}
	c.end()
}

// bounds is the box around points.
func bounds(pts []point) box {
	b := box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range pts {
		b = box{min(b.x0, p.X), min(b.y0, p.Y), max(b.x1, p.X), max(b.y1, p.Y)}
	}
	return b
}

// rect draws a rectangle between two corners.
func rect(c canvas, a, b point, fill bool) {
	c.polygon([]point{a, {b.X, a.Y}, b, {a.X, b.Y}}, fill)
}

// roundRect draws a rectangle with rounded corners of radius r between
// two corners, as one closed bezier path.
func roundRect(c canvas, a, b point, r float64, fill bool) {
	x0, x1 := min(a.X, b.X), max(a.X, b.X)
	y0, y1 := min(a.Y, b.Y), max(a.Y, b.Y)
	r = min(r, (x1-x0)/2, (y1-y0)/2)
	k := r * 0.448 // 1 - 0.552, the control point of a quarter circle
	line := func(p, q point) []point { return []point{p, q, q} }
	pts := []point{{x0 + r, y0}}
	pts = append(pts, line(pts[0], point{x1 - r, y0})...)
	pts = append(pts, point{x1 - k, y0}, point{x1, y0 + k}, point{x1, y0 + r})
	pts = append(pts, line(point{x1, y0 + r}, point{x1, y1 - r})...)
	pts = append(pts, point{x1, y1 - k}, point{x1 - k, y1}, point{x1 - r, y1})
	pts = append(pts, line(point{x1 - r, y1}, point{x0 + r, y1})...)
	pts = append(pts, point{x0 + k, y1}, point{x0, y1 - k}, point{x0, y1 - r})
	pts = append(pts, line(point{x0, y1 - r}, point{x0, y0 + r})...)
	pts = append(pts, point{x0, y0 + k}, point{x0 + k, y0}, point{x0 + r, y0})
	c.bezier(pts, fill)
}

// hex reads a "#rrggbb" colour.
func hex(s string) rgb {
	c, _ := parseColor(s)
	return c
}
