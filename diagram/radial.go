package diagram

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"siteplan/diagram/internal/fonts"
	"siteplan/diagram/internal/graphviz"
	"siteplan/site"
)

// A radial diagram is a mind map around the home page (or the branch
// drawn). Graphviz's twopi places one plain box per card, stack of cards,
// navigation heading and the legend: sizes only, no labels, so that it
// measures no text and draws nothing. siteplan then paints the result as
// it paints its org charts: the cards, straight connectors that end on
// the borders of what they join, a frame around each stack, and the
// cross-links it routes itself.

// hubH is the height of a navigation heading's box; hubPad its padding.
const (
	hubH   = 24.0
	hubPad = 10.0
)

// hub is the heading that utility or footer navigation radiates from.
type hub struct {
	placement string
	box
}

// radialEdge joins two boxes by their node names: a parent's card and a
// child's card or stack, or (from page 0) a heading and a top page.
type radialEdge struct {
	tail, head string
	from, to   int64
}

// radialNode is one box Graphviz places: a card, a stack, a heading or
// the legend, with its size in points.
type radialNode struct {
	name string
	w, h float64
	it   *item // a card or stack; nil for a heading or the legend
	hub  string
}

// stackCells returns the widths of a stack's columns and the heights of
// its rows.
func stackCells(it item) (cols, rows []float64) {
	n := it.cols()
	cols, rows = make([]float64, n), make([]float64, it.rows)
	for i, c := range it.cells() {
		if c != nil {
			cols[i%n] = max(cols[i%n], c.w)
			rows[i/n] = max(rows[i/n], c.h)
		}
	}
	return cols, rows
}

// size is a card's size, or a stack's with its frame.
func (it item) size() (w, h float64) {
	if !it.stack {
		return it.cards[0].w, it.cards[0].h
	}
	cols, rows := stackCells(it)
	w, h = stackGap*float64(len(cols)+1), stackGap*float64(len(rows)+1)
	for _, c := range cols {
		w += c
	}
	for _, r := range rows {
		h += r
	}
	return w, h
}

// radial lays the diagram out around its root with Graphviz and returns
// it as a chart. Errors: as graphviz.Render.
func (d *diagram) radial(ctx context.Context, withLegend bool) (*chart, error) {
	var nodes []radialNode
	var edges []radialEdge
	end := map[int64]string{}
	root := ""
	for _, pl := range site.Placements {
		items := d.items(d.placed[pl])
		if len(items) == 0 {
			continue
		}
		if pl != site.PlacementMain {
			name := "nav_" + pl
			nodes = append(nodes, radialNode{name: name, w: fonts.Measure(frameLabel(pl), d.labelSize(10), true) + 2*hubPad, h: hubH, hub: pl})
			for _, it := range items {
				if it.cards[0].depth == 1 {
					edges = append(edges, radialEdge{name, it.name(), 0, it.cards[0].page.ID})
				}
			}
		} else {
			root = items[0].name()
		}
		for i := range items {
			it := &items[i]
			w, h := it.size()
			nodes = append(nodes, radialNode{name: it.name(), w: w, h: h, it: it})
			for _, c := range it.cards {
				end[c.page.ID] = it.name()
			}
			if p := it.cards[0].page; p.ParentID != 0 && end[p.ParentID] != "" {
				edges = append(edges, radialEdge{end[p.ParentID], it.name(), p.ParentID, p.ID})
			}
		}
	}
	if withLegend {
		w, h, _ := d.legendSize()
		nodes = append(nodes, radialNode{name: "legend", w: w, h: h})
	}

	var dot bytes.Buffer
	bw := bufio.NewWriter(&dot)
	bw.WriteString("digraph radial {\n  graph [ranksep=1.6, overlap=scale, pack=true, packmode=\"graph\"")
	if root != "" {
		bw.WriteString(", root=" + root)
	}
	bw.WriteString("];\n  node [shape=box, fixedsize=true, label=\"\"];\n")
	for _, n := range nodes {
		fmt.Fprintf(bw, "  %s [width=%s, height=%s];\n", n.name, num(n.w/72), num(n.h/72))
	}
	for _, e := range edges {
		fmt.Fprintf(bw, "  %s -> %s;\n", e.tail, e.head)
	}
	bw.WriteString("}\n")
	bw.Flush()
	out, err := graphviz.Render(ctx, dot.Bytes(), graphviz.Twopi, graphviz.Positions)
	if err != nil {
		return nil, err
	}
	var gv struct {
		BB      string `json:"bb"`
		Objects []struct {
			Name string `json:"name"`
			Pos  string `json:"pos"`
		} `json:"objects"`
	}
	if err := json.Unmarshal(out, &gv); err != nil {
		return nil, fmt.Errorf("graphviz layout: %w", err)
	}
	var bb [4]float64
	if _, err := fmt.Sscanf(gv.BB, "%g,%g,%g,%g", &bb[0], &bb[1], &bb[2], &bb[3]); err != nil {
		return nil, fmt.Errorf("graphviz layout: bounding box %q", gv.BB)
	}
	centre := make(map[string]point, len(gv.Objects))
	for _, o := range gv.Objects {
		x, y, ok := strings.Cut(o.Pos, ",")
		fx, err1 := strconv.ParseFloat(x, 64)
		fy, err2 := strconv.ParseFloat(y, 64)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("graphviz layout: node %s at %q", o.Name, o.Pos)
		}
		centre[o.Name] = point{fx, bb[3] - fy} // y down
	}

	ch := &chart{w: bb[2], h: bb[3]}
	boxes := map[string]box{}
	for _, n := range nodes {
		c, ok := centre[n.name]
		if !ok {
			return nil, fmt.Errorf("graphviz layout: node %s is missing", n.name)
		}
		b := box{c.X - n.w/2, c.Y - n.h/2, c.X + n.w/2, c.Y + n.h/2}
		boxes[n.name] = b
		switch {
		case n.hub != "":
			ch.hubs = append(ch.hubs, hub{n.hub, b})
		case n.it == nil:
			ch.legend = &b
		case !n.it.stack:
			c := n.it.cards[0]
			c.x, c.y = b.x0, b.y0
		default:
			ch.stacks = append(ch.stacks, b)
			cols, rows := stackCells(*n.it)
			for i, c := range n.it.cells() {
				if c == nil {
					continue
				}
				c.x, c.y = b.x0+stackGap, b.y0+stackGap
				for _, w := range cols[:i%len(cols)] {
					c.x += w + stackGap
				}
				for _, h := range rows[:i/len(cols)] {
					c.y += h + stackGap
				}
			}
		}
	}
	for _, e := range edges {
		a, b := boxes[e.tail], boxes[e.head]
		ch.wires = append(ch.wires, wire{from: e.from, to: e.to, pts: []point{a.edge(b.centre()), b.edge(a.centre())}})
	}
	d.routeLinks(ch)
	return ch, nil
}

// centre is the middle of a box.
func (b box) centre() point { return point{(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2} }

// edge is where the line from the box's centre towards p leaves it.
func (b box) edge(p point) point {
	c := b.centre()
	dx, dy := p.X-c.X, p.Y-c.Y
	if dx == 0 && dy == 0 {
		return point{c.X, b.y0}
	}
	t := math.Inf(1)
	if dx != 0 {
		t = math.Min(t, (b.x1-b.x0)/2/math.Abs(dx))
	}
	if dy != 0 {
		t = math.Min(t, (b.y1-b.y0)/2/math.Abs(dy))
	}
	return point{c.X + dx*t, c.Y + dy*t}
}
