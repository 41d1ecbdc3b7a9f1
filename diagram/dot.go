package diagram

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"siteplan/site"
)

// dotWriter writes a diagram's DOT, the file a user downloads to edit
// or lay out with Graphviz of their own.
type dotWriter struct {
	*diagram
}

// write writes the diagram in the DOT language. Every piece of user text
// goes into an HTML-like label, escaped, so no title can break out of its
// label or inject attributes.
func (d *dotWriter) write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("digraph siteplan {\n")
	graph := `charset="UTF-8", fontname="Helvetica", fontsize=12, bgcolor="#ffffff", pad=0.3, outputorder=edgesfirst`
	if d.opt.Layout == LayoutRadial {
		graph += `, ranksep=1.6, overlap=scale, pack=true, packmode="graph"`
	}
	fmt.Fprintf(bw, "  graph [%s];\n", graph)
	fmt.Fprintf(bw, "  node [shape=none, margin=0, width=0, height=0, fontname=\"Helvetica\", fontsize=11, fontcolor=%q];\n", textColor)
	fmt.Fprintf(bw, "  edge [color=%q, penwidth=1.2, arrowhead=none, fontname=\"Helvetica\", fontsize=9];\n", lineColor)
	if d.opt.Layout == LayoutRadial {
		d.writeRadial(bw)
	} else {
		d.writeChart(bw, d.arrange(true))
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// writeChart writes an org chart with every node and edge where arrange
// put it, for Graphviz's "nop2" engine to draw as it is.
func (d *dotWriter) writeChart(bw *bufio.Writer, ch *chart) {
	pos := func(x, y float64) string { return num(x) + "," + num(ch.h-y) } // Graphviz's y points up
	for _, f := range ch.frames {
		// The frame's label is its title, at its top left ("\l" ends a
		// line justified left).
		fmt.Fprintf(bw, "  frame_%s [id=\"frame-%s\", shape=box, style=\"rounded,dashed\", color=%q, fontcolor=%q, fontname=\"Helvetica-Bold\", fontsize=10, labelloc=t, margin=\"0.19,0.2\", fixedsize=true, width=%s, height=%s, label=\"%s\\l\", pos=%q];\n",
			f.placement, f.placement, mutedColor, mutedColor, num(f.w/72), num(f.h/72), frameLabel(f.placement), pos(f.x+f.w/2, f.y+f.h/2))
	}
	if ch.legend != nil {
		l := ch.legend
		fmt.Fprintf(bw, "  legend [id=\"legend\", label=<%s>, pos=%q];\n", d.legendTable(), pos((l.x0+l.x1)/2, (l.y0+l.y1)/2))
	}
	for _, c := range d.cards {
		fmt.Fprintf(bw, "  p%d [id=\"p%d\", pos=%q, label=<", c.page.ID, c.page.ID, pos(c.x+c.w/2, c.y+c.h/2))
		d.writeCard(bw, c, false)
		bw.WriteString(">];\n")
	}
	// Cross-links first: the connectors of the tree are drawn over them.
	if d.opt.Links {
		for _, l := range d.links {
			c, ok := ch.links[l.ID]
			if !ok {
				continue
			}
			spline := "e," + pos(c.tip.X, c.tip.Y)
			for _, p := range c.pts {
				spline += " " + pos(p.X, p.Y)
			}
			attrs := fmt.Sprintf("style=dashed, color=%q, fontcolor=%q, arrowhead=normal, arrowsize=0.7, pos=%q", linkColor, linkColor, spline)
			if l.Label != "" {
				attrs += fmt.Sprintf(", label=<%s>, lp=%q", d.text(l.Label), pos(c.label.X, c.label.Y))
			}
			fmt.Fprintf(bw, "  p%d -> p%d [id=\"link-%d\", %s];\n", l.FromID, l.ToID, l.ID, attrs)
		}
	}
	for _, wr := range ch.wires {
		spline := pos(wr.pts[0].X, wr.pts[0].Y)
		for _, p := range wr.pts[1:] { // a straight cubic segment to each turn
			prev := strings.LastIndexByte(spline, ' ') + 1
			spline += " " + spline[prev:] + " " + pos(p.X, p.Y) + " " + pos(p.X, p.Y)
		}
		fmt.Fprintf(bw, "  p%d -> p%d [pos=%q];\n", wr.from, wr.to, spline)
	}
}

// writeRadial writes a mind map for twopi to lay out around the home
// page: cards and stacks of cards as nodes, edges to their ports.
func (d *dotWriter) writeRadial(bw *bufio.Writer) {
	end := map[int64]string{} // the table cell where edges to a drawn page attach
	items := map[string][]item{}
	for _, pl := range site.Placements {
		items[pl] = d.items(d.placed[pl])
		for _, it := range items[pl] {
			for _, c := range it.cards {
				end[c.page.ID] = it.name() + ":p" + strconv.FormatInt(c.page.ID, 10)
			}
		}
	}
	if main := items[site.PlacementMain]; len(main) > 0 {
		fmt.Fprintf(bw, "  graph [root=%s];\n", main[0].name()) // the home page, or the branch drawn
	}
	for _, placement := range site.Placements {
		if len(items[placement]) == 0 {
			continue
		}
		if placement != site.PlacementMain {
			// twopi draws no clusters: utility and footer navigation are
			// each a small star of their own around a heading, which the
			// packing of components sets beside the main tree.
			fmt.Fprintf(bw, "  nav_%s [id=\"nav-%s\", shape=box, style=\"rounded,dashed\", color=%q, fontcolor=%q, fontsize=10, margin=\"0.12,0.06\", label=<<b>%s</b>>];\n",
				placement, placement, mutedColor, mutedColor, frameLabel(placement))
			for _, it := range items[placement] {
				if it.cards[0].depth == 1 {
					fmt.Fprintf(bw, "  nav_%s -> %s [style=dashed];\n", placement, it.name())
				}
			}
		}
		for _, it := range items[placement] {
			d.writeItem(bw, it)
		}
		for _, it := range items[placement] {
			if p := it.cards[0].page; p.ParentID != 0 && end[p.ParentID] != "" {
				fmt.Fprintf(bw, "  %s -> %s;\n", end[p.ParentID], it.name())
			}
		}
	}
	if d.opt.Links {
		for _, l := range d.links {
			if !d.drawsLink(l) || !d.oneStar(l) {
				continue
			}
			// twopi builds its tree from edges of non-zero weight.
			attrs := fmt.Sprintf("style=dashed, color=%q, fontcolor=%q, arrowhead=normal, arrowsize=0.7, weight=0", linkColor, linkColor)
			if l.Label != "" {
				attrs += ", label=<" + d.text(l.Label) + ">"
			}
			fmt.Fprintf(bw, "  %s -> %s [id=\"link-%d\", %s];\n", end[l.FromID], end[l.ToID], l.ID, attrs)
		}
	}
	// The legend is packed beside the drawing as a component of its own.
	fmt.Fprintf(bw, "  legend [id=\"legend\", label=<%s>];\n", d.legendTable())
}

// writeItem writes a radial diagram's card, or stack of cards as one
// node whose label is a table with a card in each cell. Each cell is an
// edge port; a card of its own carries its page's id as a node ("pN"), a
// stacked card as its table's link ("a_pN" in the SVG). An empty cell
// needs both a width and a height: with only one, Graphviz 12 fails to
// draw the graph.
func (d *dotWriter) writeItem(bw *bufio.Writer, it item) {
	id := it.name()
	if it.stack {
		id = fmt.Sprintf("stack-%d", it.cards[0].page.ID)
	}
	fmt.Fprintf(bw, "  %s [id=%q, label=<<table border=\"0\" cellspacing=\"%d\" cellpadding=\"0\">", it.name(), id, int(stackGap))
	cols := it.cols()
	for i, c := range it.cells() {
		if i%cols == 0 {
			bw.WriteString("<tr>")
		}
		if c == nil {
			bw.WriteString(`<td width="1" height="1"></td>`)
		} else {
			fmt.Fprintf(bw, `<td port="p%d">`, c.page.ID)
			d.writeCard(bw, c, it.stack)
			bw.WriteString("</td>")
		}
		if i%cols == cols-1 {
			bw.WriteString("</tr>")
		}
	}
	bw.WriteString("</table>>];\n")
}

// legendTable is the legend as an HTML-like table of legendSize.
func (d *dotWriter) legendTable() string {
	w, h, words := d.legendSize()
	var b strings.Builder
	fmt.Fprintf(&b, `<table fixedsize="true" width="%s" height="%s" border="1" style="rounded" color="#cbd5e1" bgcolor="#ffffff" cellborder="0" cellspacing="%s" cellpadding="0">`,
		num(w), num(h), num(legendSpacing))
	fmt.Fprintf(&b, `<tr><td colspan="2" fixedsize="true" width="%s" height="%s" align="left" cellpadding="4"><font point-size="10" color=%q><b>%s</b></font></td></tr>`,
		num(legendSwatchW+legendSpacing+words), num(legendTitleH), textColor, d.legendTitle())
	for _, it := range d.legendRows() {
		swatch := ""
		if it.Fill != "" {
			swatch = fmt.Sprintf(` bgcolor=%q`, it.Fill)
		}
		fmt.Fprintf(&b, `<tr><td fixedsize="true" width="%s" height="%s"%s></td><td fixedsize="true" width="%s" height="%s" align="left" cellpadding="2"><font point-size="9" color=%q>%s</font></td></tr>`,
			num(legendSwatchW), num(legendRowH), swatch, num(words), num(legendRowH), textColor, d.text(it.Label))
	}
	b.WriteString(`</table>`)
	return b.String()
}

// text escapes s for an HTML-like DOT label: the XML entities, a doubled
// backslash (Graphviz expands \N, \G and the like even inside HTML labels,
// entities included), and control characters, which XML cannot carry,
// become spaces.
func (d *dotWriter) text(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == '\\':
			b.WriteString(`\\`)
		case unicode.IsControl(r) || r == unicode.ReplacementChar:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
