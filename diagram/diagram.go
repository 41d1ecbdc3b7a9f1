package diagram

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"siteplan/diagram/internal/graphviz"
	"siteplan/site"
)

// Diagram layouts.
const (
	LayoutTree   = "tree"   // top-down org chart
	LayoutLR     = "lr"     // left to right
	LayoutRadial = "radial" // mind map around the home page
)

// Layouts lists the diagram layouts in display order.
var Layouts = []string{LayoutTree, LayoutLR, LayoutRadial}

// What the node colour shows.
const (
	ColorByType   = "type"
	ColorByStatus = "status"
	// ColorByChange colours the pages of a comparison by Options.Marks:
	// added, removed, moved, renamed, changed.
	ColorByChange = "change"
)

// Options choose what a diagram shows, how, and in which file format.
type Options struct {
	Format    string         // FormatSVG (default), FormatPNG, FormatPDF, FormatDOT or FormatGraphML
	Layout    string         // LayoutTree (default), LayoutLR or LayoutRadial
	ColorBy   string         // ColorByType (default) or ColorByStatus
	Links     bool           // draw cross-links as dashed arrows
	Root      int64          // draw only this page and its subtree; 0: the whole project
	Depth     int            // levels to draw (the top level is 1); 0: all
	Collapsed map[int64]bool // branches drawn closed, with a "+N pages" marker
	Comments  map[int64]int  // open comment threads per page, shown on its node
	Paper     string         // PDF sheets: PaperA4 (default), PaperA3, PaperLetter or PaperTabloid
	// Orientation of the PDF's sheets: Landscape (default) or Portrait.
	Orientation string
	// OneSheet fits the whole drawing on one PDF sheet however small its
	// text, instead of an overview and a sheet per section.
	OneSheet bool
	// Cover starts the PDF with a cover sheet: project, client, agency,
	// date, version and approval.
	Cover bool
	Date  time.Time // printed in a PDF's title block; zero: now
	// Marks are what a comparison says of each page (site.MarkAdded, ...),
	// for ColorByChange.
	Marks map[int64]string
	// Notes are lines under a PDF's title: the version drawn, who approved it.
	Notes []string
	// Client draws the client version: titles and colours only, without
	// paths, statuses, assignees or comments.
	Client bool
	// Scale is the PNG's resolution as a multiple of 96 dpi: 1, 2 (the
	// default, sharp on high-density screens and in print) or 3.
	Scale int
	// Accent is the theme's colour ("#rrggbb"): the home page's border,
	// the title block's rule; "": DefaultAccent.
	Accent string
	// Agency and ClientName are printed on a PDF's sheets and cover.
	Agency, ClientName string
	// Logo is the agency's logo as a PNG, printed on a PDF's sheets and
	// cover; the caller checks it (an image that does not decode is left
	// out).
	Logo []byte

	// The PDF's sheets (sheets.go) choose: compact cards; only these
	// children of Root (nil: all); pages drawn closed because their
	// branch continues on another sheet.
	compact bool
	kids    []int64
	cut     map[int64]bool
}

// DefaultAccent is the accent colour of a project without a theme.
const DefaultAccent = "#2563eb"

// accent is the accent colour the diagram is drawn with.
func (d *diagram) accent() string {
	if d.opt.Accent != "" {
		return d.opt.Accent
	}
	return DefaultAccent
}

// SetDefaults fills the options left empty with their defaults.
func (o *Options) SetDefaults() {
	if o.Format == "" {
		o.Format = FormatSVG
	}
	if o.Layout == "" {
		o.Layout = LayoutTree
	}
	if o.ColorBy == "" {
		o.ColorBy = ColorByType
	}
	if o.Paper == "" {
		o.Paper = PaperA4
	}
	if o.Orientation == "" {
		o.Orientation = Landscape
	}
	if o.Scale == 0 {
		o.Scale = 2
	}
	if o.Date.IsZero() {
		o.Date = time.Now()
	}
}

// Normalize fills defaults and checks the options against t. Render calls
// it; callers that parse options call it to answer bad input early.
// Errors: EInvalid, ENotFound (root).
func (o *Options) Normalize(t *site.Tree) error {
	o.SetDefaults()
	switch {
	case !slices.Contains(Formats, o.Format) && o.Format != FormatScene && o.Format != FormatView:
		return site.Errorf(site.EInvalid, "Diagram format must be one of %s.", strings.Join(Formats, ", "))
	case !slices.Contains(Layouts, o.Layout):
		return site.Errorf(site.EInvalid, "Layout must be one of %s.", strings.Join(Layouts, ", "))
	case o.ColorBy != ColorByType && o.ColorBy != ColorByStatus && o.ColorBy != ColorByChange:
		return site.Errorf(site.EInvalid, "Colour by must be “type” or “status”.")
	case !slices.Contains(Papers, o.Paper):
		return site.Errorf(site.EInvalid, "Paper must be one of %s.", strings.Join(Papers, ", "))
	case o.Orientation != Landscape && o.Orientation != Portrait:
		return site.Errorf(site.EInvalid, "Orientation must be landscape or portrait.")
	case o.Scale < 1 || o.Scale > 3:
		return site.Errorf(site.EInvalid, "PNG scale must be 1, 2 or 3.")
	case o.Depth < 0 || o.Depth > 100:
		return site.Errorf(site.EInvalid, "Depth must be a number from 0 (all levels) to 100.")
	case o.Root != 0 && t.Page(o.Root) == nil:
		return site.Errorf(site.ENotFound, "Page %d does not exist in this project.", o.Root)
	}
	return nil
}

// Key returns a string that identifies the drawing the options make, for
// caching (the date is left out).
func (o Options) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%s|%t|%t|%s|%s|%t|%d|%d|%d|%t|%s|%q|%q|%x|", o.Format, o.Paper, o.Orientation, o.OneSheet, o.Cover, o.Layout, o.ColorBy, o.Links, o.Root, o.Depth, o.Scale, o.Client, o.Accent,
		o.Agency, o.ClientName, sha256.Sum256(o.Logo))
	ids := make([]int64, 0, len(o.Collapsed))
	for id, ok := range o.Collapsed {
		if ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		b.WriteString(strconv.FormatInt(id, 10))
		b.WriteByte(',')
	}
	b.WriteString("|c:")
	ids = ids[:0]
	for id, n := range o.Comments {
		if n > 0 {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		fmt.Fprintf(&b, "%d=%d,", id, o.Comments[id])
	}
	b.WriteString("|m:")
	ids = ids[:0]
	for id := range o.Marks {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		fmt.Fprintf(&b, "%d=%s,", id, o.Marks[id])
	}
	b.WriteString("|n:" + strings.Join(o.Notes, "\n"))
	return b.String()
}

// Palette colours: a fixed colour per status, and per change.
var (
	statusColors = map[string]string{"planned": "#64748b", "in_progress": "#2563eb", "review": "#d97706", "approved": "#16a34a", "live": "#7c3aed"}
	statusFills  = map[string]string{"planned": "#f1f5f9", "in_progress": "#dbeafe", "review": "#fef3c7", "approved": "#dcfce7", "live": "#ede9fe"}
	// markFills colour a comparison, in the order of its legend.
	markFills = []legendItem{{site.MarkAdded, "#86efac"}, {site.MarkRemoved, "#fca5a5"}, {site.MarkMoved, "#93c5fd"},
		{site.MarkRenamed, "#fcd34d"}, {site.MarkChanged, "#e9d5ff"}, {"unchanged", "#ffffff"}}
)

const (
	untypedFill = "#e2e8f0"
	inkColor    = "#1e293b" // text on a band
	cardBorder  = "#94a3b8"
	linkColor   = "#c026d3"
	lineColor   = "#64748b"
	textColor   = "#0f172a"
	mutedColor  = "#475569"
	// externalColor outlines external pages.
	externalColor = "#7c3aed"
)

// commentColor marks open comments on a node.
const commentColor = "#b45309"

// statusLabel is a status as people read it.
func statusLabel(s string) string { return strings.ReplaceAll(s, "_", " ") }

// legendItem is one colour of a diagram's legend.
type legendItem struct {
	Label string
	Fill  string
}

// diagram is a tree prepared for drawing: its colours, and the cards
// that show its pages with the markers for what is hidden. It is built
// whole by newDiagram; Render then arranges it (chart) or groups it for
// Graphviz's radial layout (items).
type diagram struct {
	tree   *site.Tree
	opt    Options
	links  []site.Link
	legend []legendItem
	fills  map[string]string
	origin string

	placed map[string][]*card // the cards of each placement, in outline order
	cards  []*card            // every card, placement by placement
	byID   map[int64]*card
	part   map[int64]string // which of the drawing's parts each drawn page is in (drawsLink)
	pages  int              // pages drawn
	sheet  *point           // the drawing area of the PDF sheet it is arranged for; nil: a screen
}

// dotWriter writes a diagram's DOT for one use.
type dotWriter struct {
	*diagram
	// forLayout marks DOT laid out to JSON (PDF, PNG, scene, GraphML): Graphviz
	// 12's JSON writer garbles a text span that holds a backslash, so there
	// a stand-in character takes its place, swapped back when drawing.
	forLayout  bool
	withLegend bool // the PDF prints the legend in its title block instead
}

// backslashStandIn replaces "\" in labels laid out for PDF (a private-use
// code point that no title contains after validation... or that, if one
// does, prints as a backslash).
const backslashStandIn = '\uE000'

// newDiagram prepares a diagram of t with its cross-links, with options
// already normalised.
func newDiagram(t *site.Tree, links []site.Link, opt Options) *diagram {
	d := &diagram{tree: t, opt: opt, links: links, fills: map[string]string{}, origin: site.Origin(t.Project.BaseURL)}
	d.colours()
	d.place()
	return d
}

// colours picks the band colour of each page type, status or change,
// and the legend. A type has the colour it has in the outline.
func (d *diagram) colours() {
	if d.opt.ColorBy == ColorByChange {
		for _, it := range markFills {
			d.fills[it.Label] = it.Fill
		}
		d.legend = markFills
		return
	}
	if d.opt.ColorBy == ColorByStatus {
		for _, s := range site.Statuses {
			d.fills[s] = statusFills[s]
			d.legend = append(d.legend, legendItem{statusLabel(s), statusFills[s]})
		}
		return
	}
	seen := map[string]bool{}
	d.tree.Walk(func(p *site.Page, _ int) bool {
		seen[p.Type] = p.Type != ""
		return true
	})
	var types []string
	for ty, ok := range seen {
		if ok {
			types = append(types, ty)
		}
	}
	slices.Sort(types)
	for _, ty := range types {
		d.fills[ty] = site.TypeColors[site.TypeColor(ty)]
		d.legend = append(d.legend, legendItem{ty, d.fills[ty]})
	}
	d.legend = append(d.legend, legendItem{"no type", untypedFill})
}

// place makes the card of each page to draw, placement by placement.
func (d *diagram) place() {
	d.placed, d.byID, d.part = map[string][]*card{}, map[int64]*card{}, map[int64]string{}
	var walk func(p *site.Page, depth int, placement string)
	walk = func(p *site.Page, depth int, placement string) {
		kids := d.tree.Children(p.ID)
		hidden := 0
		closed := d.opt.Collapsed[p.ID] || d.opt.cut[p.ID] || (d.opt.Depth > 0 && depth >= d.opt.Depth)
		if closed || (len(kids) == 0 && p.ChildCount > 0) {
			hidden = d.tree.Descendants(p.ID)
		}
		c := d.newCard(p, depth, hidden)
		d.placed[placement] = append(d.placed[placement], c)
		d.cards = append(d.cards, c)
		d.byID[p.ID] = c
		// Utility and footer navigation are one star each; in the main
		// tree each top-level page roots a tree.
		part := placement
		if placement == site.PlacementMain {
			if part = d.part[p.ParentID]; part == "" {
				part = "main-" + strconv.FormatInt(p.ID, 10)
			}
		}
		d.part[p.ID] = part
		if hidden > 0 {
			return
		}
		for _, k := range kids {
			if depth == 1 && d.opt.kids != nil && !slices.Contains(d.opt.kids, k.ID) {
				continue
			}
			walk(k, depth+1, placement)
		}
	}
	if d.opt.Root != 0 {
		walk(d.tree.Page(d.opt.Root), 1, site.PlacementMain)
	} else {
		for _, pl := range site.Placements {
			for _, r := range d.tree.Children(0) {
				if r.Placement == pl {
					walk(r, 1, pl)
				}
			}
		}
	}
	d.pages = len(d.cards)
}

// fill returns the colour of a page's band.
func (d *diagram) fill(p *site.Page) string {
	key := p.Type
	switch d.opt.ColorBy {
	case ColorByStatus:
		key = p.Status
	case ColorByChange:
		key = d.opt.Marks[p.ID]
	}
	if f, ok := d.fills[key]; ok {
		return f
	}
	return untypedFill
}

// item is what one DOT node of a radial diagram draws: a card, or a
// stack of leaf siblings' cards in a table, square so that the circles
// stay small.
type item struct {
	cards []*card
	rows  int // rows of cells (1 for a card); a stack fills them column by column
	stack bool
}

// name is the item's DOT node name.
func (it item) name() string {
	if it.stack {
		return "s" + strconv.FormatInt(it.cards[0].page.ID, 10)
	}
	return "p" + strconv.FormatInt(it.cards[0].page.ID, 10)
}

// cols is the number of columns of the item's table.
func (it item) cols() int { return (len(it.cards) + it.rows - 1) / it.rows }

// cells returns the item's cards in the order its table lists them, row
// by row, with nil for the empty cells that end a short last column.
func (it item) cells() []*card {
	cols := it.cols()
	out := make([]*card, 0, it.rows*cols)
	for r := range it.rows {
		for c := range cols {
			if i := c*it.rows + r; i < len(it.cards) {
				out = append(out, it.cards[i])
			} else {
				out = append(out, nil)
			}
		}
	}
	return out
}

// items groups a placement's cards (in outline order) into the nodes of
// a radial diagram: a run of leaf siblings becomes one square stack when
// it is long enough.
func (d *diagram) items(cards []*card) []item {
	var out []item
	for i := 0; i < len(cards); {
		j := i
		for j < len(cards) && cards[j].page.ParentID == cards[i].page.ParentID && cards[j].leaf(d.tree) {
			j++
		}
		if n := j - i; n >= stackAlways || (n >= 3 && cards[i].depth >= 3) {
			cols := int(math.Ceil(math.Sqrt(float64(n))))
			out = append(out, item{cards: cards[i:j], rows: (n + cols - 1) / cols, stack: true})
			i = j
			continue
		}
		out = append(out, item{cards: cards[i : i+1], rows: 1})
		i++
	}
	return out
}

// minArea is the area, in square points, that the drawing's cards cover:
// a layout spreads them further apart.
func (d *diagram) minArea() float64 {
	area := 0.0
	for _, c := range d.cards {
		area += c.w * c.h
	}
	return area
}

// path is what a card shows under its title: the URL path on the
// project's host, the whole URL elsewhere.
func (d *diagram) path(p *site.Page) string {
	loc := d.tree.Location(p.ID)
	if p.Kind == site.KindExternal {
		return "→ " + loc
	}
	if rest, ok := strings.CutPrefix(loc, d.origin); ok && d.origin != "" {
		if rest == "" {
			return "/"
		}
		return rest
	}
	return loc
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
		d.writeChart(bw, d.arrange(d.withLegend))
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
			if !d.drawsLink(l) {
				continue
			}
			c := linkCurve(d.byID[l.FromID], d.byID[l.ToID])
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

// curve is a cross-link's path: a cubic curve (y down) that ends at the
// base of its arrow, the arrow's tip, and where its label goes.
type curve struct {
	pts        []point
	tip, label point
	side       bool // an arc beside the cards: its label reads from its middle rightwards
}

// linkCurve routes a cross-link between two cards. Cards one above the
// other are joined by an arc out of their right sides, through the gap
// beside them, instead of across the cards between; others by a curve
// from edge to edge, bent away from the straight line so that it does
// not lie on the tree's connectors.
func linkCurve(a, b *card) curve {
	ca := point{a.x + a.w/2, a.y + a.h/2}
	cb := point{b.x + b.w/2, b.y + b.h/2}
	if math.Abs(ca.X-cb.X) < cardW && math.Abs(ca.Y-cb.Y) > 1 {
		from := point{a.x + a.w, ca.Y}
		tip := point{b.x + b.w, cb.Y}
		out := max(from.X, tip.X) + 16 + math.Min(math.Abs(ca.Y-cb.Y)*0.08, 24)
		end := point{tip.X + 7, tip.Y}
		c1, c2 := point{out, from.Y}, point{out, end.Y}
		mid := point{(from.X+3*c1.X+3*c2.X+end.X)/8 + 2, (from.Y + end.Y) / 2}
		return curve{pts: []point{from, c1, c2, end}, tip: tip, label: mid, side: true}
	}
	from, tip := edgePoint(a, cb), edgePoint(b, ca)
	dx, dy := tip.X-from.X, tip.Y-from.Y
	dist := math.Hypot(dx, dy)
	if dist < 1 {
		dx, dy, dist = 1, 0, 1
	}
	ux, uy := dx/dist, dy/dist
	nx, ny := -uy, ux // the side the curve bends to
	bend := math.Min(dist*0.25, 80)
	end := point{tip.X - ux*7, tip.Y - uy*7} // the arrow is 7 points long
	c1 := point{from.X + dx/3 + nx*bend, from.Y + dy/3 + ny*bend}
	c2 := point{from.X + 2*dx/3 + nx*bend, from.Y + 2*dy/3 + ny*bend}
	mid := point{(from.X + 3*c1.X + 3*c2.X + end.X) / 8, (from.Y + 3*c1.Y + 3*c2.Y + end.Y) / 8}
	return curve{pts: []point{from, c1, c2, end}, tip: tip, label: mid}
}

// edgePoint is where the line from a card's centre towards p leaves it.
func edgePoint(c *card, p point) point {
	cx, cy := c.x+c.w/2, c.y+c.h/2
	dx, dy := p.X-cx, p.Y-cy
	if dx == 0 && dy == 0 {
		return point{cx, c.y}
	}
	t := math.Inf(1)
	if dx != 0 {
		t = math.Min(t, (c.w/2)/math.Abs(dx))
	}
	if dy != 0 {
		t = math.Min(t, (c.h/2)/math.Abs(dy))
	}
	return point{cx + dx*t, cy + dy*t}
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
			if !d.drawsLink(l) {
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
	if d.withLegend { // packed beside the drawing as a component of its own
		fmt.Fprintf(bw, "  legend [id=\"legend\", label=<%s>];\n", d.legendTable())
	}
}

// drawsLink reports whether a cross-link is drawn: both its pages must
// be, and in the radial layout both in one part of the drawing: the tree
// of one top-level page, or the star of utility or footer navigation.
// twopi lays each part out around its own centre, and an edge joining two
// parts leaves pages that no tree edge reaches from the root, which makes
// Graphviz fail (it drew nothing but the legend).
func (d *diagram) drawsLink(l site.Link) bool {
	from, to := d.part[l.FromID], d.part[l.ToID]
	return from != "" && to != "" && (from == to || d.opt.Layout != LayoutRadial)
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

// The legend is a table of two columns (swatch and words) with cells
// spaced apart, a title row, and a row per colour, kind of page and the
// cross-links.
const (
	legendRowH    = 14.0
	legendTitleH  = 22.0
	legendSwatchW = 18.0
	legendSpacing = 2.0
)

// legendRows lists the legend's rows: the colours, then the kinds of page
// and the cross-links, each a swatch colour (or "") and words.
func (d *diagram) legendRows() []legendItem {
	rows := slices.Clone(d.legend)
	rows = append(rows,
		legendItem{Label: markHome + " home page: accent border"},
		legendItem{Label: markGroup + " group: heading without a page"},
		legendItem{Label: markPlaceholder + " placeholder: dashed border"},
		legendItem{Label: markExternal + " external: dotted border"})
	if d.opt.Links {
		rows = append(rows, legendItem{Label: "- - ▸ cross-link"})
	}
	return rows
}

// legendSize is the width and height of the legend's table, and of the
// column of words in it.
func (d *diagram) legendSize() (w, h, words float64) {
	words = measure(d.legendTitle(), 10, true) - legendSwatchW - legendSpacing
	rows := d.legendRows()
	for _, it := range rows {
		words = max(words, measure(it.Label, 9, false))
	}
	words = math.Ceil(words + 12)
	// Two points to spare each way: Graphviz warns when a table is
	// exactly its content's size.
	w = 4 + 3*legendSpacing + legendSwatchW + words
	h = 4 + float64(len(rows)+2)*legendSpacing + legendTitleH + legendRowH*float64(len(rows))
	return w, h, words
}

// legendTitle names what the colours mean.
func (d *diagram) legendTitle() string {
	return map[string]string{ColorByType: "Page type", ColorByStatus: "Status", ColorByChange: "Change"}[d.opt.ColorBy]
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
		case r == '\\' && d.forLayout:
			b.WriteRune(backslashStandIn)
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

// Diagram file formats.
const (
	FormatSVG     = "svg"
	FormatPNG     = "png"
	FormatPDF     = "pdf"
	FormatDOT     = "dot"
	FormatGraphML = "graphml"
	// FormatScene is the drawing as a scene (scene.go) for the browser to
	// paint on a <canvas>; FormatView is what the editor shows: SVG up to
	// ViewSVGMax pages, a scene past it (IsScene tells them apart). Neither
	// is a download.
	FormatScene = "scene"
	FormatView  = "view"
)

// Formats lists the formats a diagram downloads as.
var Formats = []string{FormatSVG, FormatPNG, FormatPDF, FormatDOT, FormatGraphML}

// dpi is the PNG's resolution.
func (o Options) dpi() int { return 96 * o.Scale }

// Result says what a render drew.
type Result struct {
	Pages int // pages drawn (a collapsed branch's pages are not)
}

// MaxNodes is the most pages one diagram draws; past it, draw a
// branch or fewer levels.
const MaxNodes = 20_000

// UseWorkerProcess makes every later Graphviz layout of this process run
// in a worker process: this program, started again. Its main must call
// ServeIfWorker before anything else.
func UseWorkerProcess() error { return graphviz.UseWorkerProcess() }

// ServeIfWorker returns at once unless this process was started as a
// Graphviz worker; then it serves layouts until its parent is done, and
// exits.
func ServeIfWorker() { graphviz.ServeIfWorker() }

// Render draws t with its cross-links to w, as opt says. It waits for
// Graphviz at most until ctx is done. Errors: EInvalid and ENotFound as
// Options.Normalize, ETooLarge (more than MaxNodes pages, a PNG past
// MaxPNGPixels, or the render timed out).
func Render(ctx context.Context, w io.Writer, t *site.Tree, links []site.Link, opt Options) (Result, error) {
	if err := opt.Normalize(t); err != nil {
		return Result{}, err
	}
	if ctx.Err() != nil { // given up on before it began
		return Result{}, graphviz.TimeoutError()
	}
	d := newDiagram(t, links, opt)
	res := Result{Pages: d.pages}
	if d.pages > MaxNodes {
		return res, site.Errorf(site.ETooLarge, "The diagram would draw %d pages; at most %d fit in one diagram. Draw one branch or fewer levels.", d.pages, MaxNodes)
	}
	format := opt.Format
	if format == FormatView {
		format = FormatSVG
		if d.pages > ViewSVGMax {
			format = FormatScene
		}
	}
	if format == FormatPNG { // refuse before laying out what cannot fit
		k := float64(opt.dpi()) / 72
		if px := d.minArea() * k * k; px > MaxPNGPixels {
			return res, site.Errorf(site.ETooLarge, "At %d dpi this diagram would be at least %d megapixels, more than a PNG here may hold. Download the PDF or SVG, a smaller scale, or draw one branch or fewer levels.", opt.dpi(), int(px/1e6))
		}
	}
	dw := &dotWriter{diagram: d, forLayout: format != FormatSVG && format != FormatDOT, withLegend: format != FormatPDF}
	if format == FormatDOT {
		return res, dw.write(w)
	}
	if format == FormatSVG && opt.Layout == LayoutRadial { // Graphviz's SVG keeps each stacked card's link
		b, err := dw.layOut(ctx, graphviz.SVG)
		if err != nil {
			return res, err
		}
		_, err = w.Write(b)
		return res, err
	}
	if format == FormatPDF { // laid out sheet by sheet
		return res, writePDF(ctx, w, d, links)
	}
	pic, boxes, err := d.picture(ctx, dw)
	if err != nil {
		return res, err
	}
	switch format {
	case FormatSVG:
		return res, writeSVG(w, pic)
	case FormatPNG:
		return res, d.writePNG(w, pic)
	case FormatScene:
		return res, writeScene(w, pic, boxes)
	}
	return res, d.writeGraphML(w, boxes)
}

// picture places the diagram: an org chart siteplan lays out itself, or
// a radial diagram Graphviz lays out. It returns each page's card box
// (points, y down).
func (d *diagram) picture(ctx context.Context, dw *dotWriter) (picture, map[int64]box, error) {
	if d.opt.Layout != LayoutRadial {
		ch := d.arrange(dw.withLegend)
		boxes := make(map[int64]box, len(d.cards))
		for _, c := range d.cards {
			boxes[c.page.ID] = box{c.x, c.y, c.x + c.w, c.y + c.h}
		}
		return chartPicture{d, ch}, boxes, nil
	}
	b, err := dw.layOut(ctx, graphviz.JSON)
	if err != nil {
		return nil, nil, err
	}
	l, err := parseLayout(b)
	if err != nil {
		return nil, nil, err
	}
	cells, err := l.cards(d)
	if err != nil {
		return nil, nil, err
	}
	boxes := make(map[int64]box, len(cells))
	for id, b := range cells {
		boxes[id] = box{b.x0, l.height - b.y1, b.x1, l.height - b.y0}
	}
	return l, boxes, nil
}

// layOut writes the (radial) diagram's DOT and has Graphviz lay it out
// and draw it in format.
func (d *dotWriter) layOut(ctx context.Context, format string) ([]byte, error) {
	var dot bytes.Buffer
	if err := d.write(&dot); err != nil {
		return nil, err
	}
	return graphviz.Render(ctx, dot.Bytes(), graphviz.Twopi, format)
}
