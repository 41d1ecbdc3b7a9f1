package diagram

import (
	"bufio"
	"encoding/xml"
	"io"
	"strconv"
)

// svgFonts is the SVG's font list: Helvetica's metrics (Arial and
// Liberation Sans share them), then DejaVu Sans, which the PDF and PNG
// use and which has the marks and most scripts.
const svgFonts = "Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif"

// svgCanvas writes what is drawn on it as SVG elements, each page's in a
// group with its id ("pN", class "node") and a title, so that the
// editor finds pages in it and a browser shows the title on hover.
// Coordinates are points.
type svgCanvas struct {
	numWriter
	pen, fill string // "" for none
	width     float64
	dash      string
}

// writeSVG draws a picture as an SVG document of its size plus the pad.
func writeSVG(w io.Writer, pic picture) error {
	pw, ph := pic.size()
	c := &svgCanvas{numWriter: numWriter{w: bufio.NewWriterSize(w, 64<<10)}, width: 1}
	W, H := pw+2*diagramPad, ph+2*diagramPad
	c.w.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	c.w.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="`)
	c.n(W)
	c.w.WriteString(`pt" height="`)
	c.n(H)
	c.w.WriteString(`pt" viewBox="0 0 `)
	c.n(W)
	c.w.WriteByte(' ')
	c.n(H)
	c.w.WriteString(`" font-family="` + svgFonts + `" class="siteplan-diagram">` + "\n")
	c.w.WriteString(`<rect width="100%" height="100%" fill="#ffffff"/>` + "\n")
	drawPadded(c, pic)
	c.w.WriteString("</svg>\n")
	return c.w.Flush()
}

// drawPadded draws the whole of pic on c in points, y down, with the pad
// round it: the SVG's and the scene's coordinates.
func drawPadded(c canvas, pic picture) {
	pw, ph := pic.size()
	p := &painter{c: c, scale: 1,
		tx: func(x float64) float64 { return x + diagramPad },
		ty: func(y float64) float64 { return ph - y + diagramPad }}
	pic.draw(p, -diagramPad, -diagramPad, pw+diagramPad, ph+diagramPad)
}

// numWriter writes text with numbers in it, as the SVG and the scene do.
type numWriter struct {
	w   *bufio.Writer
	num []byte
}

// n writes a number with at most two decimals.
func (c *numWriter) n(v float64) {
	c.num = appendNum(c.num[:0], v)
	c.w.Write(c.num)
}

// appendNum appends v with at most two decimals and no trailing zeros.
func appendNum(dst []byte, v float64) []byte {
	start := len(dst)
	b := strconv.AppendFloat(dst, v, 'f', 2, 64)
	for b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	if b[len(b)-1] == '.' {
		b = b[:len(b)-1]
	}
	if len(b)-start == 2 && b[start] == '-' && b[start+1] == '0' {
		b = append(b[:start], '0')
	}
	return b
}

func (c *svgCanvas) attr(name, value string) {
	c.w.WriteString(` ` + name + `="`)
	xml.EscapeText(c.w, []byte(value))
	c.w.WriteByte('"')
}

func colorHex(col rgb) string {
	const digits = "0123456789abcdef"
	return string([]byte{'#', digits[col.R>>4], digits[col.R&15], digits[col.G>>4], digits[col.G&15], digits[col.B>>4], digits[col.B&15]})
}

func (c *svgCanvas) setPen(col rgb, visible bool) {
	c.pen = ""
	if visible {
		c.pen = colorHex(col)
	}
}

func (c *svgCanvas) setFill(col rgb, visible bool) {
	c.fill = ""
	if visible {
		c.fill = colorHex(col)
	}
}

func (c *svgCanvas) setLineWidth(w float64) { c.width = w }

func (c *svgCanvas) setDash(on, off float64) {
	c.dash = ""
	if on > 0 {
		c.dash = strconv.FormatFloat(on, 'f', -1, 64) + "," + strconv.FormatFloat(off, 'f', -1, 64)
	}
}

// paint writes the fill and stroke of a shape and closes its element.
func (c *svgCanvas) paint(fill bool) {
	if fill && c.fill != "" {
		c.w.WriteString(`" fill="` + c.fill)
	} else {
		c.w.WriteString(`" fill="none`)
	}
	if c.pen == "" {
		c.w.WriteString(`"/>` + "\n")
		return
	}
	c.w.WriteString(`" stroke="` + c.pen)
	if c.width != 1 {
		c.w.WriteString(`" stroke-width="`)
		c.n(c.width)
	}
	if c.dash != "" {
		c.w.WriteString(`" stroke-dasharray="` + c.dash)
	}
	c.w.WriteString(`"/>` + "\n")
}

func (c *svgCanvas) path(op byte, pts []point, close bool) {
	c.w.WriteString(`<path d="M`)
	for i, p := range pts {
		switch {
		case i == 1:
			c.w.WriteByte(op)
		case i > 1:
			c.w.WriteByte(' ')
		}
		c.n(p.X)
		c.w.WriteByte(',')
		c.n(p.Y)
	}
	if close {
		c.w.WriteByte('Z')
	}
}

func (c *svgCanvas) polygon(pts []point, fill bool) {
	c.path('L', pts, true)
	c.paint(fill)
}

func (c *svgCanvas) polyline(pts []point) {
	c.path('L', pts, false)
	c.paint(false)
}

func (c *svgCanvas) bezier(pts []point, fill bool) {
	c.path('C', pts, fill)
	c.paint(fill)
}

func (c *svgCanvas) ellipse(at point, rx, ry float64, fill bool) {
	c.w.WriteString(`<ellipse cx="`)
	c.n(at.X)
	c.w.WriteString(`" cy="`)
	c.n(at.Y)
	c.w.WriteString(`" rx="`)
	c.n(rx)
	c.w.WriteString(`" ry="`)
	c.n(ry)
	c.paint(fill)
}

// text writes a text element. Right-aligned text that reads right to
// left is set in that direction, so that the browser orders mixed runs
// (a number in a Hebrew title) as a reader expects.
func (c *svgCanvas) text(at point, s string, size float64, bold bool, align byte, _ float64) {
	c.w.WriteString(`<text x="`)
	c.n(at.X)
	c.w.WriteString(`" y="`)
	c.n(at.Y)
	c.w.WriteString(`" font-size="`)
	c.n(size)
	c.w.WriteByte('"')
	if bold {
		c.w.WriteString(` font-weight="bold"`)
	}
	anchor := map[byte]string{'c': "middle", 'r': "end"}[align]
	if rtl(s) { // a right-to-left run starts at its right
		c.w.WriteString(` direction="rtl" unicode-bidi="embed"`)
		anchor = map[byte]string{'c': "middle", 'r': "start", 'l': "end"}[align]
	}
	if anchor != "" {
		c.w.WriteString(` text-anchor="` + anchor + `"`)
	}
	c.w.WriteString(` fill="` + c.pen + `">`)
	xml.EscapeText(c.w, []byte(s))
	c.w.WriteString("</text>\n")
}

func (c *svgCanvas) group(id, class, title string) {
	c.w.WriteString("<g")
	if id != "" {
		c.attr("id", id)
	}
	if class != "" {
		c.attr("class", class)
	}
	c.w.WriteByte('>')
	if title != "" {
		c.w.WriteString("<title>")
		xml.EscapeText(c.w, []byte(title))
		c.w.WriteString("</title>")
	}
	c.w.WriteByte('\n')
}

func (c *svgCanvas) end() { c.w.WriteString("</g>\n") }
