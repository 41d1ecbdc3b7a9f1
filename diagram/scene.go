package diagram

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"
	"strconv"

	"siteplan/diagram/internal/fonts"
)

// ViewSVGMax is the most pages FormatView draws as SVG; a larger drawing
// is sent as a scene, which the browser paints on a <canvas> faster than
// it lays out so many SVG elements.
const ViewSVGMax = 1000

// IsScene reports whether b, drawn as FormatView, is a scene (else SVG).
func IsScene(b []byte) bool { return len(b) > 0 && b[0] == '{' }

// sceneCanvas records what is drawn on it as a scene: the painter's own
// operations as JSON, for the editor's script to replay onto a <canvas>
// culled to the view. The drawing logic stays in the painter, shared
// with the SVG, PDF and PNG. A scene is small and quick to read: one flat
// array of numbers for the operations, and the words and colours once
// each in a table.
//
//	{"w": W, "h": H,                       the size in points, pad included
//	 "font": "Helvetica, ...",             the SVG's font list
//	 "strs": ["#ffffff", "Home", ...],      colours and words
//	 "cards": [id, x, y, w, h, ...],       each page's card (points, y down)
//	 "groups": [[id, class, from, to], ...],  objects as ranges of ops
//	 "ops": [code, arguments..., ...]}
//
// The codes and their arguments (s: an index into strs, -1 for none; f:
// 1 to fill; n: a count of points, then their x, y):
//
//	0 s      pen            1 s      fill
//	2 w      line width     3 on off dash (0 0: solid)
//	4 f x0 y0 x1 y1         rectangle between two corners
//	5 f n …  polygon        6 n …    polyline
//	7 f n …  bezier (a start, then three points a segment)
//	8 f cx cy rx ry         ellipse
//	9 x y size flags width s  text; flags: 1 bold, 2 right to left,
//	                          4 centred, 8 right-aligned; width measured
//
// An op's index in "groups" is the position of its code in "ops". The
// cards, their comment badges, the frames, the legend and the
// cross-links are groups; the tree's connectors, one a card, are not. A
// group with no id of its own (a badge) takes its parent's. The reader starts with no pen, no fill, width 1, solid; an
// operation that would not change that state is left out.
type sceneCanvas struct {
	numWriter
	at     int // numbers written to ops so far
	strs   map[string]int
	order  []string
	state  [4]string // pen, fill, width, dash as last written
	groups []sceneGroup
	open   []int // indexes into groups of the groups begun and not ended
}

type sceneGroup struct {
	id, class string
	from, to  int
}

// Scene operation codes.
const (
	scenePen = iota
	sceneFill
	sceneWidth
	sceneDash
	sceneRect
	scenePolygon
	scenePolyline
	sceneBezier
	sceneEllipse
	sceneText
)

// writeScene draws a picture as a scene of its size plus the pad, with
// boxes, the pages' cards (points, y down, without the pad).
func writeScene(w io.Writer, pic picture, boxes map[int64]box) error {
	pw, ph := pic.size()
	c := &sceneCanvas{numWriter: numWriter{w: bufio.NewWriterSize(w, 64<<10)}, strs: map[string]int{}, state: [4]string{"-1", "-1", "1", "0,0"}}
	c.w.WriteString(`{"w":`)
	c.n(pw + 2*diagramPad)
	c.w.WriteString(`,"h":`)
	c.n(ph + 2*diagramPad)
	c.w.WriteString(`,"font":`)
	c.str(svgFonts)
	c.w.WriteString(`,"cards":[`)
	ids := make([]int64, 0, len(boxes))
	for id := range boxes {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for i, id := range ids {
		if i > 0 {
			c.w.WriteByte(',')
		}
		b := boxes[id]
		c.w.WriteString(strconv.FormatInt(id, 10))
		for _, v := range []float64{b.x0 + diagramPad, b.y0 + diagramPad, b.x1 - b.x0, b.y1 - b.y0} {
			c.w.WriteByte(',')
			c.n(v)
		}
	}
	c.w.WriteString(`],"ops":[`)
	drawPadded(c, pic)
	c.w.WriteString(`],"groups":[`)
	for i, g := range c.groups {
		if i > 0 {
			c.w.WriteByte(',')
		}
		c.w.WriteByte('[')
		c.str(g.id)
		c.w.WriteByte(',')
		c.str(g.class)
		c.w.WriteString("," + strconv.Itoa(g.from) + "," + strconv.Itoa(g.to) + "]")
	}
	c.w.WriteString(`],"strs":[`)
	for i, s := range c.order {
		if i > 0 {
			c.w.WriteByte(',')
		}
		c.str(s)
	}
	c.w.WriteString("]}\n")
	return c.w.Flush()
}

// str writes s as a JSON string, with <, > and & escaped so that the
// scene can sit in a <script> element.
func (c *sceneCanvas) str(s string) {
	b, _ := json.Marshal(s) // a string always encodes
	c.w.Write(b)
}

// index is s's place in the string table.
func (c *sceneCanvas) index(s string) int {
	i, ok := c.strs[s]
	if !ok {
		i = len(c.order)
		c.strs[s] = i
		c.order = append(c.order, s)
	}
	return i
}

// put writes numbers to ops.
func (c *sceneCanvas) put(vs ...float64) {
	for _, v := range vs {
		if c.at > 0 {
			c.w.WriteByte(',')
		}
		c.at++
		c.n(v)
	}
}

// set writes the state operation code with its arguments unless they are
// the state already; i is its place in c.state.
func (c *sceneCanvas) set(i, code int, args ...float64) {
	var key []byte
	for _, a := range args {
		key = appendNum(append(key, ','), a)
	}
	if c.state[i] == string(key[1:]) {
		return
	}
	c.state[i] = string(key[1:])
	c.put(float64(code))
	c.put(args...)
}

func (c *sceneCanvas) color(col rgb, visible bool) float64 {
	if !visible {
		return -1
	}
	return float64(c.index(colorHex(col)))
}

func (c *sceneCanvas) setPen(col rgb, visible bool)  { c.set(0, scenePen, c.color(col, visible)) }
func (c *sceneCanvas) setFill(col rgb, visible bool) { c.set(1, sceneFill, c.color(col, visible)) }
func (c *sceneCanvas) setLineWidth(w float64)        { c.set(2, sceneWidth, w) }
func (c *sceneCanvas) setDash(on, off float64)       { c.set(3, sceneDash, on, off) }

func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// points writes a count of points and their coordinates.
func (c *sceneCanvas) points(pts []point) {
	c.put(float64(len(pts)))
	for _, p := range pts {
		c.put(p.X, p.Y)
	}
}

func (c *sceneCanvas) polygon(pts []point, fill bool) {
	if len(pts) == 4 && pts[0].Y == pts[1].Y && pts[1].X == pts[2].X && pts[2].Y == pts[3].Y && pts[3].X == pts[0].X {
		c.put(sceneRect, flag(fill), pts[0].X, pts[0].Y, pts[2].X, pts[2].Y)
		return
	}
	c.put(scenePolygon, flag(fill))
	c.points(pts)
}

func (c *sceneCanvas) polyline(pts []point) {
	c.put(scenePolyline)
	c.points(pts)
}

func (c *sceneCanvas) bezier(pts []point, fill bool) {
	c.put(sceneBezier, flag(fill))
	c.points(pts)
}

func (c *sceneCanvas) ellipse(at point, rx, ry float64, fill bool) {
	c.put(sceneEllipse, flag(fill), at.X, at.Y, rx, ry)
}

func (c *sceneCanvas) text(at point, s string, size float64, bold bool, align byte, width float64) {
	if width <= 0 {
		width = fonts.Measure(s, size, bold)
	}
	flags := flag(bold) + 2*flag(rtl(s))
	switch align {
	case 'c':
		flags += 4
	case 'r':
		flags += 8
	}
	c.put(sceneText, at.X, at.Y, size, flags, width, float64(c.index(s)))
}

func (c *sceneCanvas) group(id, class, _ string) {
	if id == "" && len(c.open) > 0 {
		id = c.groups[c.open[len(c.open)-1]].id
	}
	c.open = append(c.open, len(c.groups))
	c.groups = append(c.groups, sceneGroup{id: id, class: class, from: c.at})
}

func (c *sceneCanvas) end() {
	if len(c.open) == 0 {
		return
	}
	i := c.open[len(c.open)-1]
	c.open = c.open[:len(c.open)-1]
	if c.groups[i].class == "edge" { // a connector: nothing looks it up
		c.groups = c.groups[:i]
		return
	}
	c.groups[i].to = c.at
}
