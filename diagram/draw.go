package diagram

import (
	"strconv"
	"strings"
)

// point is a position on the output, y pointing down.
type point struct{ X, Y float64 }

// box is a rectangle in layout points.
type box struct{ x0, y0, x1, y1 float64 }

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

// painter draws a picture onto a canvas, mapping the drawing's
// coordinates (points, y up) to the canvas's.
type painter struct {
	c     canvas
	scale float64
	tx    func(x float64) float64
	ty    func(y float64) float64
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

// alignX is where a text of width w starts that is anchored at x with
// align 'l', 'c' or 'r'.
func alignX(x, w float64, align byte) float64 {
	switch align {
	case 'c':
		return x - w/2
	case 'r':
		return x - w
	}
	return x
}
