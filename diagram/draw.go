package diagram

import (
	"strconv"
	"strings"
)

// point is a position on the output, y pointing down.
type point struct{ X, Y float64 }

// rgb is an opaque colour.
type rgb struct{ R, G, B uint8 }

// canvas is where a laid-out diagram is drawn: a PDF page or an image.
// Coordinates and sizes are in output units.
type canvas interface {
	setPen(c rgb, visible bool)
	setFill(c rgb, visible bool)
	setLineWidth(w float64)
	setDash(on, off float64) // 0, 0: solid
	polygon(pts []point, fill bool)
	polyline(pts []point)
	bezier(pts []point, fill bool) // a start point, then three points per cubic segment
	ellipse(c point, rx, ry float64, fill bool)
	text(at point, s string, size float64, bold bool, align byte, width float64)
	// group begins the drawing of one object (an SVG group with an id, a
	// class and a title); end ends it. Only the SVG keeps them.
	group(id, class, title string)
	end()
}

// painter replays xdot operations onto a canvas, mapping the layout's
// coordinates (points, y up) to the canvas's.
type painter struct {
	c     canvas
	scale float64
	tx    func(x float64) float64
	ty    func(y float64) float64
	size  float64
	bold  bool
	// low, high bound the window being drawn (layout points, y up): a
	// shape or text wholly outside it is skipped, as an object taller than
	// a PNG strip or a PDF tile is drawn once for each.
	low, high float64
}

// outside reports whether the span [y0, y1] misses the window.
func (p *painter) outside(y0, y1 float64) bool { return y1 < p.low || y0 > p.high }

// missed reports whether every point lies outside the window on one side.
func (p *painter) missed(pts [][2]float64) bool {
	if len(pts) == 0 {
		return true
	}
	y0, y1 := pts[0][1], pts[0][1]
	for _, q := range pts[1:] {
		y0, y1 = min(y0, q[1]), max(y1, q[1])
	}
	return p.outside(y0, y1)
}

// object draws one cluster, node or edge with fresh state.
func (p *painter) object(o *gvObject) {
	p.size, p.bold = 11, false
	p.c.setPen(rgb{}, true)
	p.c.setFill(rgb{255, 255, 255}, true)
	p.c.setDash(0, 0)
	p.c.setLineWidth(p.scale)
	for _, list := range o.ops() {
		for i := range list {
			p.op(&list[i])
		}
	}
}

func (p *painter) points(op *xop) []point {
	pts := make([]point, len(op.Points))
	for i, q := range op.Points {
		pts[i] = point{p.tx(q[0]), p.ty(q[1])}
	}
	return pts
}

// op draws one operation. Graphviz 12 as built into go-graphviz marks
// beziers the other way round from the xdot documentation: "B" for filled
// node shapes, "b" for edges (TestLayoutBezierFill pins this).
func (p *painter) op(op *xop) {
	switch op.Op {
	case "c":
		c, ok := parseColor(op.Color)
		p.c.setPen(c, ok)
	case "C":
		c, ok := parseColor(op.Color)
		p.c.setFill(c, ok)
	case "S":
		switch {
		case op.Style == "dashed":
			p.c.setDash(4*p.scale, 3*p.scale)
		case op.Style == "dotted":
			p.c.setDash(1*p.scale, 2*p.scale)
		case op.Style == "solid":
			p.c.setDash(0, 0)
		case op.Style == "bold":
			p.c.setLineWidth(2 * p.scale)
		case strings.HasPrefix(op.Style, "setlinewidth("):
			v, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(op.Style, "setlinewidth("), ")"), 64)
			p.c.setLineWidth(v * p.scale)
		}
	case "P", "p":
		if !p.missed(op.Points) {
			p.c.polygon(p.points(op), op.Op == "P")
		}
	case "L":
		if !p.missed(op.Points) {
			p.c.polyline(p.points(op))
		}
	case "B", "b":
		if len(op.Points) >= 4 && !p.missed(op.Points) {
			p.c.bezier(p.points(op), op.Op == "B")
		}
	case "E", "e":
		if !p.outside(op.Rect[1]-op.Rect[3], op.Rect[1]+op.Rect[3]) {
			p.c.ellipse(point{p.tx(op.Rect[0]), p.ty(op.Rect[1])}, op.Rect[2]*p.scale, op.Rect[3]*p.scale, op.Op == "E")
		}
	case "F":
		p.size = op.Size
	case "t":
		p.bold = op.Fontchar&1 != 0
	case "T":
		text := strings.ReplaceAll(op.Text, string(backslashStandIn), `\`)
		if strings.TrimSpace(text) != "" && !p.outside(op.Pt[1]-p.size, op.Pt[1]+p.size) {
			align := byte('l')
			if op.Align != "" {
				align = op.Align[0]
			}
			p.c.text(point{p.tx(op.Pt[0]), p.ty(op.Pt[1])}, text, p.size*p.scale, p.bold, align, op.Width*p.scale)
		}
	}
}

// alignX is where a text of width w starts that Graphviz anchored at x
// with align 'l', 'c' or 'r'.
func alignX(x, w float64, align byte) float64 {
	switch align {
	case 'c':
		return x - w/2
	case 'r':
		return x - w
	}
	return x
}

// drawLayout draws the clusters, then the edges, then the nodes whose
// bounds meet the window [x0,x1]×[y0,y1] (layout points, y down).
func (p *painter) drawLayout(l *layout, x0, y0, x1, y1 float64) {
	p.low, p.high = l.height-y1, l.height-y0
	draw := func(o *gvObject) {
		bx0, by0, bx1, by1 := o.bounds()
		if bx1 < x0 || bx0 > x1 || l.height-by0 < y0 || l.height-by1 > y1 {
			return
		}
		p.object(o)
	}
	for i := range l.Objects {
		if !l.Objects[i].isNode() {
			draw(&l.Objects[i])
		}
	}
	for i := range l.Edges {
		draw(&l.Edges[i])
	}
	for i := range l.Objects {
		if l.Objects[i].isNode() {
			draw(&l.Objects[i])
		}
	}
}

// parseColor reads "#rrggbb" or "#rrggbbaa" and a few names; visible is
// false for a transparent colour.
func parseColor(s string) (c rgb, visible bool) {
	switch strings.ToLower(s) {
	case "black":
		return rgb{}, true
	case "white":
		return rgb{255, 255, 255}, true
	case "", "none", "transparent":
		return rgb{}, false
	}
	if len(s) != 7 && len(s) != 9 || s[0] != '#' {
		return rgb{}, true
	}
	v, err := strconv.ParseUint(s[1:], 16, 64)
	if err != nil {
		return rgb{}, true
	}
	if len(s) == 9 {
		if v&0xff == 0 {
			return rgb{}, false
		}
		v >>= 8
	}
	return rgb{uint8(v >> 16), uint8(v >> 8), uint8(v)}, true
}
