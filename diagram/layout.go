package diagram

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"siteplan/site"
)

// layout is a diagram as Graphviz laid it out (its "json" output): sizes
// in points with y pointing up, and xdot drawing operations per object.
type layout struct {
	BB      string     `json:"bb"`
	Draw    []xop      `json:"_draw_"`
	Objects []gvObject `json:"objects"` // clusters first, then nodes
	Edges   []gvObject `json:"edges"`
	width   float64
	height  float64
}

// gvObject is a cluster, node or edge.
type gvObject struct {
	GVID  int    `json:"_gvid"`
	Name  string `json:"name"`
	ID    string `json:"id"`
	Pos   string `json:"pos"`
	Nodes []int  `json:"nodes"` // of a cluster
	// An edge's ends: the _gvid of its nodes, and the ports ("p12:s").
	Tail     int    `json:"tail"`
	Head     int    `json:"head"`
	TailPort string `json:"tailport"`
	HeadPort string `json:"headport"`
	Draw     []xop  `json:"_draw_"`
	LDraw    []xop  `json:"_ldraw_"`
	HDraw    []xop  `json:"_hdraw_"`
	TDraw    []xop  `json:"_tdraw_"`
}

// xop is one xdot drawing operation.
type xop struct {
	Op       string       `json:"op"`
	Points   [][2]float64 `json:"points"`
	Rect     [4]float64   `json:"rect"`
	Color    string       `json:"color"`
	Style    string       `json:"style"`
	Size     float64      `json:"size"`
	Face     string       `json:"face"`
	Pt       [2]float64   `json:"pt"`
	Align    string       `json:"align"`
	Width    float64      `json:"width"`
	Text     string       `json:"text"`
	Fontchar int          `json:"fontchar"`
}

func parseLayout(b []byte) (*layout, error) {
	var l layout
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("graphviz layout: %w", err)
	}
	f := strings.Split(l.BB, ",")
	if len(f) != 4 {
		return nil, fmt.Errorf("graphviz layout: bounding box %q", l.BB)
	}
	l.width, _ = strconv.ParseFloat(f[2], 64)
	l.height, _ = strconv.ParseFloat(f[3], 64)
	return &l, nil
}

// isNode reports whether o is a node rather than a cluster.
func (o *gvObject) isNode() bool { return o.Pos != "" && !strings.HasPrefix(o.Name, "cluster_") }

// ops returns an object's operations in drawing order.
func (o *gvObject) ops() [][]xop { return [][]xop{o.Draw, o.HDraw, o.TDraw, o.LDraw} }

// bounds returns the box its operations cover.
func (o *gvObject) bounds() (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = 1e18, 1e18, -1e18, -1e18
	add := func(x, y float64) {
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	size := 14.0 // Graphviz's default font size, until an "F" sets one
	for _, list := range o.ops() {
		for _, op := range list {
			for _, p := range op.Points {
				add(p[0], p[1])
			}
			switch op.Op {
			case "F":
				size = op.Size
			case "T": // a text op has no size of its own: its font's
				add(op.Pt[0]-op.Width, op.Pt[1]-size)
				add(op.Pt[0]+op.Width, op.Pt[1]+size)
			case "E", "e":
				add(op.Rect[0]-op.Rect[2], op.Rect[1]-op.Rect[3])
				add(op.Rect[0]+op.Rect[2], op.Rect[1]+op.Rect[3])
			}
		}
	}
	return
}

// box is a rectangle in layout points.
type box struct{ x0, y0, x1, y1 float64 }

// nodeCards lists the cards each DOT node draws, in the order its
// label draws them: one card, or a radial diagram's stack row by row.
func (d *diagram) nodeCards() map[string][]*card {
	out := map[string][]*card{}
	if d.opt.Layout != LayoutRadial {
		for _, c := range d.cards {
			out["p"+strconv.FormatInt(c.page.ID, 10)] = []*card{c}
		}
		return out
	}
	for _, pl := range site.Placements {
		for _, it := range d.items(d.placed[pl]) {
			for _, c := range it.cells() {
				if c != nil {
					out[it.name()] = append(out[it.name()], c)
				}
			}
		}
	}
	return out
}

// cards finds each page's card among the shapes Graphviz drew, and
// dashes the borders of placeholders and external pages, as the layout
// draws every card solid (see cardStyle). A card is the shape filled
// with cardFill, and its border the next outline after it (its cells
// have none). It returns the cards' boxes by page. A node drawn with
// another number of cards than it has is an error: Graphviz changed.
func (l *layout) cards(d *diagram) (map[int64]box, error) {
	out := map[int64]box{}
	byName := map[string]*gvObject{}
	for i := range l.Objects {
		byName[l.Objects[i].Name] = &l.Objects[i]
	}
	for name, cards := range d.nodeCards() {
		o := byName[name]
		if o == nil {
			return nil, fmt.Errorf("graphviz layout: node %s is missing", name)
		}
		ops := make([]xop, 0, len(o.LDraw)+2*len(cards))
		n, fill, dash := 0, "", ""
		for _, op := range o.LDraw {
			switch op.Op {
			case "C":
				fill = op.Color
			case "B", "P":
				if fill == cardFill && n < len(cards) {
					c := cards[n]
					b := box{1e18, 1e18, -1e18, -1e18}
					for _, q := range op.Points {
						b = box{min(b.x0, q[0]), min(b.y0, q[1]), max(b.x1, q[0]), max(b.y1, q[1])}
					}
					out[c.page.ID] = b
					dash = map[string]string{site.KindPlaceholder: "dashed", site.KindExternal: "dotted"}[c.page.Kind]
					n++
				}
			case "b", "p":
				if dash != "" {
					ops = append(ops, xop{Op: "S", Style: dash}, op, xop{Op: "S", Style: "solid"})
					dash = ""
					continue
				}
			}
			ops = append(ops, op)
		}
		if n != len(cards) {
			return nil, fmt.Errorf("graphviz layout: node %s draws %d cards for %d pages", name, n, len(cards))
		}
		o.LDraw = ops
	}
	return out, nil
}
