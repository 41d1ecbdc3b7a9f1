package diagram

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

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
	Paper     string         // PDF sheets: PaperA4 (default) or PaperA3, landscape
	Date      time.Time      // printed in a PDF's title block; zero: now
	// Marks are what a comparison says of each page (site.MarkAdded, ...),
	// for ColorByChange.
	Marks map[int64]string
	// Notes are lines under a PDF's title: the version drawn, who approved it.
	Notes []string
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
	case !slices.Contains(Formats, o.Format):
		return site.Errorf(site.EInvalid, "Diagram format must be one of %s.", strings.Join(Formats, ", "))
	case !slices.Contains(Layouts, o.Layout):
		return site.Errorf(site.EInvalid, "Layout must be one of %s.", strings.Join(Layouts, ", "))
	case o.ColorBy != ColorByType && o.ColorBy != ColorByStatus && o.ColorBy != ColorByChange:
		return site.Errorf(site.EInvalid, "Colour by must be “type” or “status”.")
	case o.Paper != PaperA4 && o.Paper != PaperA3:
		return site.Errorf(site.EInvalid, "Paper must be a4 or a3.")
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
	fmt.Fprintf(&b, "%s|%s|%s|%s|%t|%d|%d|", o.Format, o.Paper, o.Layout, o.ColorBy, o.Links, o.Root, o.Depth)
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

// Palette colours: a light fill per page type (in order of first use,
// sorted by name) and a fixed colour per status.
var (
	typeFills    = []string{"#dbeafe", "#dcfce7", "#fef3c7", "#fce7f3", "#ede9fe", "#cffafe", "#fee2e2", "#e0e7ff", "#ecfccb", "#f5f5f4"}
	statusColors = map[string]string{"planned": "#64748b", "in_progress": "#2563eb", "review": "#d97706", "approved": "#16a34a", "live": "#7c3aed"}
	statusFills  = map[string]string{"planned": "#f1f5f9", "in_progress": "#dbeafe", "review": "#fef3c7", "approved": "#dcfce7", "live": "#ede9fe"}
	// markFills colour a comparison, in the order of its legend.
	markFills = []legendItem{{site.MarkAdded, "#86efac"}, {site.MarkRemoved, "#fca5a5"}, {site.MarkMoved, "#93c5fd"},
		{site.MarkRenamed, "#fcd34d"}, {site.MarkChanged, "#e9d5ff"}, {"unchanged", "#ffffff"}}
)

const (
	untypedFill = "#ffffff"
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

// diagram is a tree prepared for drawing: its colours, and the nodes that
// show its pages with the markers for what is hidden. It is built whole
// by newDiagram and only read after that.
type diagram struct {
	tree   *site.Tree
	opt    Options
	links  []site.Link
	legend []legendItem
	fills  map[string]string
	origin string

	placed map[string][]item // the nodes of each placement, in outline order
	nodes  []item            // every node, placement by placement
	end    map[int64]string  // the table cell where edges to a drawn page attach
	part   map[int64]string  // which of the drawing's parts each drawn page is in (drawsLink)
	band   map[level]float64 // top down, the height of a level's nodes
	pages  int               // pages drawn
}

// level is a depth within one placement: top down, a level's nodes are as
// tall as its tallest, so a footer of three pages does not grow to a
// stack of forty.
type level struct {
	placement string
	depth     int
}

// dotWriter writes a diagram's DOT for one use.
type dotWriter struct {
	*diagram
	// forLayout marks DOT laid out to JSON (PDF, PNG, GraphML): Graphviz
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

// colours picks the fill of each page type or status, and the legend.
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
	for i, ty := range types {
		d.fills[ty] = typeFills[i%len(typeFills)]
		d.legend = append(d.legend, legendItem{ty, d.fills[ty]})
	}
	d.legend = append(d.legend, legendItem{"no type", untypedFill})
}

// place groups the pages to draw into nodes, placement by placement, and
// notes where edges attach and how tall each top-down level is.
func (d *diagram) place() {
	vis := d.visible()
	d.placed, d.end, d.part, d.band = map[string][]item{}, map[int64]string{}, map[int64]string{}, map[level]float64{}
	for _, placement := range site.Placements {
		d.placed[placement] = d.items(vis[placement])
		for _, it := range d.placed[placement] {
			for _, r := range it.refs {
				d.end[r.page.ID] = it.name() + ":p" + strconv.FormatInt(r.page.ID, 10)
				// Utility and footer navigation are one star each; in
				// the main tree each top-level page roots a tree.
				part := placement
				if placement == site.PlacementMain {
					part = d.part[r.page.ParentID]
					if part == "" {
						part = "main-" + strconv.FormatInt(r.page.ID, 10)
					}
				}
				d.part[r.page.ID] = part
			}
			lv := level{placement, it.refs[0].depth}
			d.band[lv] = max(d.band[lv], it.height())
		}
		d.nodes = append(d.nodes, d.placed[placement]...)
	}
	d.pages = len(d.end)
}

// fill returns a page's fill colour.
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

// nodeRef is a page as the diagram draws it.
type nodeRef struct {
	page   *site.Page
	depth  int // 1 for the top of the drawing
	hidden int // pages below it that are not drawn
}

// leaf reports whether the page is drawn with nothing below it.
func (r nodeRef) leaf(t *site.Tree) bool { return r.hidden == 0 && len(t.Children(r.page.ID)) == 0 }

// Leaf siblings side by side make a plan as wide as its largest level, and
// dot's layout slow, so runs of them are stacked in one node, a table
// cell per page, the way org-chart sitemaps list their deepest pages.
const (
	stackMin     = 3  // leaf siblings that stack from the third level down
	stackAlways  = 12 // leaf siblings that stack at any level
	stackMaxRows = 40 // cells in a column before a stack adds a column
	stackSpacing = 8  // points between the cells of a stack
)

// item is what one DOT node draws: a page, or a stack of leaf siblings.
type item struct {
	refs  []nodeRef // one page, or the stack in outline order
	rows  int       // rows of cells (1 for a page); a stack fills them column by column
	stack bool
}

// name is the item's DOT node name.
func (it item) name() string {
	if it.stack {
		return "s" + strconv.FormatInt(it.refs[0].page.ID, 10)
	}
	return "p" + strconv.FormatInt(it.refs[0].page.ID, 10)
}

// cols is the number of columns of the item's table.
func (it item) cols() int { return (len(it.refs) + it.rows - 1) / it.rows }

// cells returns the item's pages in the order its table lists them, row
// by row, with nil for the empty cells that end a short last column.
func (it item) cells() []*nodeRef {
	cols := it.cols()
	out := make([]*nodeRef, 0, it.rows*cols)
	for r := range it.rows {
		for c := range cols {
			if i := c*it.rows + r; i < len(it.refs) {
				out = append(out, &it.refs[i])
			} else {
				out = append(out, nil)
			}
		}
	}
	return out
}

// height estimates how tall an item's table is, in points, to make the
// nodes of a level in a top-down tree equally tall (writeItem). It errs
// on the large side, by a point a row: an item taller than its level's
// nodes would sit lower than the others.
func (it item) height() float64 {
	const (
		titleLine = 11 // Graphviz's measure of an 11 pt bold line
		cellBase  = 31 // padding, borders, the path and status lines, and a point to spare
		spacing   = stackSpacing
	)
	cols := it.cols()
	h, row := 0.0, 0.0
	for i, r := range it.cells() {
		if r != nil {
			row = max(row, float64(len(wrap(r.page.Title, 28)))*titleLine+cellBase)
		}
		if i%cols == cols-1 {
			h, row = h+row, 0
		}
	}
	if it.stack {
		h += float64(it.rows+1) * spacing
	}
	if it.refs[0].hidden > 0 {
		h += 18
	}
	return h
}

// minArea is less than the area, in square points, that the drawing's
// page boxes cover: a layout spreads them further apart. Each box is
// taken as narrow as its longest title line could be (5 points a
// character, the narrowest Helvetica runs) and as tall as height says.
func (d *diagram) minArea() float64 {
	area := 0.0
	for _, it := range d.nodes {
		for _, r := range it.refs {
			w := 0
			for _, line := range wrap(r.page.Title, 28) {
				w = max(w, utf8.RuneCountInString(line))
			}
			area += max(40, float64(w)*5+12) * 41 // a one-line cell is 41 points tall
		}
	}
	return area
}

// items groups a placement's pages (in outline order) into DOT nodes: a
// run of leaf siblings becomes one stack when it is long enough, in
// columns of stackMaxRows (square in a radial diagram).
func (d *diagram) items(refs []nodeRef) []item {
	var out []item
	for i := 0; i < len(refs); {
		j := i
		for j < len(refs) && refs[j].page.ParentID == refs[i].page.ParentID && refs[j].leaf(d.tree) {
			j++
		}
		if n := j - i; n >= stackAlways || (n >= stackMin && refs[i].depth >= 3) {
			cols := (n + stackMaxRows - 1) / stackMaxRows
			if d.opt.Layout == LayoutRadial { // square stacks keep the circles small
				cols = int(math.Ceil(math.Sqrt(float64(n))))
			}
			out = append(out, item{refs: refs[i:j], rows: (n + cols - 1) / cols, stack: true})
			i = j
			continue
		}
		out = append(out, item{refs: refs[i : i+1], rows: 1})
		i++
	}
	return out
}

// visible walks the pages to draw, in outline order, per placement.
func (d *diagram) visible() map[string][]nodeRef {
	out := map[string][]nodeRef{}
	var walk func(p *site.Page, depth int, placement string)
	walk = func(p *site.Page, depth int, placement string) {
		ref := nodeRef{page: p, depth: depth}
		kids := d.tree.Children(p.ID)
		closed := d.opt.Collapsed[p.ID] || (d.opt.Depth > 0 && depth >= d.opt.Depth)
		if closed || (len(kids) == 0 && p.ChildCount > 0) {
			ref.hidden = d.descendants(p)
		}
		out[placement] = append(out[placement], ref)
		if ref.hidden > 0 {
			return
		}
		for _, c := range kids {
			walk(c, depth+1, placement)
		}
	}
	if d.opt.Root != 0 {
		p := d.tree.Page(d.opt.Root)
		walk(p, 1, site.PlacementMain)
		return out
	}
	for _, r := range d.tree.Children(0) {
		walk(r, 1, r.Placement)
	}
	return out
}

// descendants counts the pages below p.
func (d *diagram) descendants(p *site.Page) int {
	kids := d.tree.Children(p.ID)
	if len(kids) == 0 {
		return p.ChildCount
	}
	n := 0
	for _, c := range kids {
		n += 1 + d.descendants(c)
	}
	return n
}

// path is what a node shows under its title: the URL path on the
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
	o := d.opt
	bw.WriteString("digraph siteplan {\n")
	graph := `charset="UTF-8", fontname="Helvetica", fontsize=12, bgcolor="#ffffff", nodesep=0.3, ranksep=0.55, pad=0.3, outputorder=edgesfirst`
	switch o.Layout {
	case LayoutTree:
		graph += `, rankdir=TB, newrank=true, ordering=out, splines=line`
	case LayoutLR:
		graph += `, rankdir=LR, newrank=true, ordering=out, splines=line`
	case LayoutRadial:
		graph += `, ranksep=1.6, overlap=scale, pack=true, packmode="graph"`
	}
	fmt.Fprintf(bw, "  graph [%s];\n", graph)
	fmt.Fprintf(bw, "  node [shape=none, margin=0, width=0, height=0, fontname=\"Helvetica\", fontsize=11, fontcolor=%q];\n", textColor)
	fmt.Fprintf(bw, "  edge [color=%q, arrowsize=0.6, fontname=\"Helvetica\", fontsize=9];\n", lineColor)

	items, end := d.placed, d.end
	if main := items[site.PlacementMain]; o.Layout == LayoutRadial && len(main) > 0 {
		fmt.Fprintf(bw, "  graph [root=%s];\n", main[0].name()) // the home page, or the branch drawn
	}
	// Edges leave a page's cell and enter the top of the node below (its
	// side, left to right), as a node may be taller than what it shows.
	tail, head := "", ""
	switch o.Layout {
	case LayoutTree:
		tail, head = ":s", ":n"
	case LayoutLR:
		tail, head = ":e", ":w"
	}
	for _, placement := range site.Placements {
		if len(items[placement]) == 0 {
			continue
		}
		indent := "  "
		label := map[string]string{site.PlacementUtility: "Utility navigation", site.PlacementFooter: "Footer navigation"}[placement]
		switch {
		case placement == site.PlacementMain:
		case o.Layout == LayoutRadial:
			// twopi draws no clusters: utility and footer navigation are
			// each a small star of their own around a heading, which the
			// packing of components sets beside the main tree.
			fmt.Fprintf(bw, "  nav_%s [id=\"nav-%s\", shape=box, style=\"rounded,dashed\", color=%q, fontcolor=%q, fontsize=10, margin=\"0.12,0.06\", label=<<b>%s</b>>];\n", placement, placement, mutedColor, mutedColor, label)
			for _, it := range items[placement] {
				if it.refs[0].depth == 1 {
					fmt.Fprintf(bw, "  nav_%s -> %s [style=dashed, arrowhead=none];\n", placement, it.name())
				}
			}
		default:
			fmt.Fprintf(bw, "  subgraph cluster_%s {\n    graph [label=<<b>%s</b>>, style=\"rounded,dashed\", color=%q, fontcolor=%q, fontsize=10, margin=12];\n", placement, label, mutedColor, mutedColor)
			indent = "    "
		}
		for _, it := range items[placement] {
			height := 0.0
			if o.Layout == LayoutTree {
				height = d.band[level{placement, it.refs[0].depth}]
			}
			d.writeItem(bw, indent, it, height)
		}
		for _, it := range items[placement] {
			if p := it.refs[0].page; p.ParentID != 0 && end[p.ParentID] != "" {
				weight := ""
				if it.stack { // straight below its parent
					weight = " [weight=4]"
				}
				// Top down and left to right, the edge enters the first
				// cell (a stack of several columns has a gap in the middle
				// of its top); in a radial diagram, the node's box, which
				// is its outer cells' (writeItem).
				to := end[p.ID]
				if o.Layout == LayoutRadial {
					to = it.name()
				}
				fmt.Fprintf(bw, "%s%s%s -> %s%s%s;\n", indent, end[p.ParentID], tail, to, head, weight)
			}
		}
		if placement != site.PlacementMain && o.Layout != LayoutRadial {
			bw.WriteString("  }\n")
		}
	}
	if o.Links {
		for _, l := range d.links {
			if !d.drawsLink(l) {
				continue
			}
			attrs := fmt.Sprintf("style=dashed, color=%q, fontcolor=%q, constraint=false", linkColor, linkColor)
			if o.Layout == LayoutRadial {
				attrs += ", weight=0" // twopi builds its tree from edges of non-zero weight
			}
			if l.Label != "" {
				attrs += ", label=<" + d.text(l.Label) + ">"
			}
			fmt.Fprintf(bw, "  %s -> %s [id=\"link-%d\", %s];\n", end[l.FromID], end[l.ToID], l.ID, attrs)
		}
	}
	if d.withLegend {
		d.writeLegend(bw)
	}
	bw.WriteString("}\n")
	return bw.Flush()
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

// writeItem writes a page, or a stack of leaf siblings, as one node whose
// label is a table with a cell per page. A cell looks like a page's box:
// rounded, dashed for a placeholder, dotted and purple for an external
// page, square with a thicker border for a group. Each cell is an edge
// port. A lone page's node carries its id ("pN"); in a stack, each cell's
// link gives it one ("a_pN" in the SVG). A page with pages not drawn
// below it says how many under its box. With a height, an empty last
// row pads the table to that height, so that the nodes of a level line up
// at their tops however many pages each stacks. (A taller node with its
// label at the top would not do: Graphviz places the ports of such a
// label as if it were centred, and edges would start in empty space.)
//
// An empty cell needs both a width and a height: with only one, Graphviz
// 12 fails to draw the graph.
//
// In a radial diagram an edge enters a stack at its node's box, so there
// the stack's cells are kept apart by empty rows and columns instead of
// cell spacing, which would leave a margin around the outer cells.
func (d *dotWriter) writeItem(bw *bufio.Writer, indent string, it item, height float64) {
	id, spacing, gap := fmt.Sprintf("p%d", it.refs[0].page.ID), 0, 0
	if it.stack {
		id, spacing = fmt.Sprintf("stack-%d", it.refs[0].page.ID), stackSpacing
		if d.opt.Layout == LayoutRadial {
			spacing, gap = 0, stackSpacing
		}
	}
	fmt.Fprintf(bw, "%s%s [id=%q, label=<<table border=\"0\" cellspacing=\"%d\" cellpadding=\"0\">", indent, it.name(), id, spacing)
	cols := it.cols()
	span := cols
	if gap > 0 {
		span = 2*cols - 1
	}
	for i, r := range it.cells() {
		switch {
		case i%cols == 0 && i > 0 && gap > 0:
			fmt.Fprintf(bw, `<tr><td colspan="%d" width="1" height="%d"></td></tr><tr>`, span, gap)
		case i%cols == 0:
			bw.WriteString("<tr>")
		case gap > 0:
			fmt.Fprintf(bw, `<td width="%d" height="1"></td>`, gap)
		}
		if r == nil {
			bw.WriteString("<td></td>")
		} else {
			d.writeCell(bw, r.page, it.stack)
		}
		if i%cols == cols-1 {
			bw.WriteString("</tr>")
		}
	}
	if h := it.refs[0].hidden; h > 0 {
		fmt.Fprintf(bw, `<tr><td colspan="%d" cellpadding="3"><font point-size="9" color="%s">+%s</font></td></tr>`, span, mutedColor, site.Plural(h, "page", "pages"))
	}
	if pad := int(math.Floor(height - it.height() - float64(spacing))); height > 0 && pad > 0 {
		fmt.Fprintf(bw, `<tr><td colspan="%d" width="1" height="%d"></td></tr>`, span, pad)
	}
	bw.WriteString("</table>>];\n")
}

// writeCell writes the table cell of a page.
func (d *dotWriter) writeCell(bw *bufio.Writer, p *site.Page, linked bool) {
	fmt.Fprintf(bw, `<td port="p%d"`, p.ID)
	if linked && !d.forLayout {
		fmt.Fprintf(bw, ` id="p%d" href="#p%d" tooltip="%s"`, p.ID, p.ID, d.text(p.Title))
	}
	border, color := 1, mutedColor
	switch p.Kind {
	case site.KindGroup:
		border = 2
	case site.KindExternal:
		border, color = 2, externalColor
	}
	if p.Kind != site.KindGroup {
		bw.WriteString(` style="rounded` + d.cellDash(p) + `"`)
	}
	fmt.Fprintf(bw, ` border="%d" color=%q bgcolor=%q cellpadding="6">%s</td>`, border, color, d.fill(p), d.label(p))
}

// cellDash is the border style a page's cell adds to "rounded". Graphviz
// 12's xdot and JSON writers read past the end of a table cell's
// "dashed" or "dotted" (and corrupt the WebAssembly heap doing it), so a
// layout gets solid cells, which layout.pageCells dashes again.
func (d *dotWriter) cellDash(p *site.Page) string {
	switch {
	case d.forLayout:
		return ""
	case p.Kind == site.KindPlaceholder:
		return ",dashed"
	case p.Kind == site.KindExternal:
		return ",dotted"
	}
	return ""
}

// label is the HTML-like label of a page: its title, path, status and
// open comments.
func (d *dotWriter) label(p *site.Page) string {
	var label strings.Builder
	for i, line := range wrap(p.Title, 28) {
		if i > 0 {
			label.WriteString(`<br/>`)
		}
		label.WriteString("<b>" + d.text(line) + "</b>")
	}
	if path := d.path(p); path != "" && (p.Kind != site.KindGroup || p.Slug != "") {
		label.WriteString(`<br/><font point-size="8" color="` + mutedColor + `">` + d.text(clipText(path, 48)) + `</font>`)
	}
	label.WriteString(`<br/><font point-size="8" color="` + statusColors[p.Status] + `">●</font><font point-size="8" color="` + mutedColor + `"> ` + d.text(statusLabel(p.Status)))
	if p.Kind != site.KindPage {
		label.WriteString(" · " + p.Kind)
	}
	if m := d.opt.Marks[p.ID]; m != "" && d.opt.ColorBy == ColorByChange {
		label.WriteString(" · <b>" + m + "</b>") // in words too, not by colour alone
	}
	label.WriteString(`</font>`)
	if n := d.opt.Comments[p.ID]; n > 0 {
		label.WriteString(`<font point-size="8" color="` + commentColor + `"> · ` + site.Plural(n, "open comment", "open comments") + `</font>`)
	}
	return label.String()
}

// writeLegend writes the colour key and the node shapes as one node in
// its own cluster.
func (d *dotWriter) writeLegend(bw *bufio.Writer) {
	title := map[string]string{ColorByType: "Page type", ColorByStatus: "Status", ColorByChange: "Change"}[d.opt.ColorBy]
	var b strings.Builder
	b.WriteString(`<table border="0" cellborder="1" cellspacing="2" cellpadding="3" color="#cbd5e1">`)
	b.WriteString(`<tr><td colspan="2" border="0" align="left"><b>` + title + `</b></td></tr>`)
	for _, it := range d.legend {
		b.WriteString(`<tr><td bgcolor="` + it.Fill + `" width="18"> </td><td border="0" align="left">` + d.text(it.Label) + `</td></tr>`)
	}
	b.WriteString(`<tr><td colspan="2" border="0" align="left"><font point-size="8" color="` + mutedColor + `">rounded: page · square: group · dashed: placeholder · dotted: external</font></td></tr>`)
	if d.opt.Links {
		b.WriteString(`<tr><td colspan="2" border="0" align="left"><font point-size="8" color="` + linkColor + `">dashed arrow: cross-link</font></td></tr>`)
	}
	b.WriteString(`</table>`)
	fmt.Fprintf(bw, "  subgraph cluster_legend {\n    graph [label=\"\", style=\"rounded\", color=\"#cbd5e1\", margin=8];\n    legend [id=\"legend\", shape=plain, style=\"\", fontsize=9, label=<%s>];\n  }\n", b.String())
	if d.opt.Layout == LayoutRadial {
		return // packed beside the drawing as a component of its own
	}
	// Top down and left to right, the legend takes a rank of its own
	// before every top-level page, so no edge passes through it.
	for _, it := range d.nodes {
		if it.refs[0].depth == 1 {
			fmt.Fprintf(bw, "  legend -> %s [style=invis];\n", it.name())
		}
	}
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

// wrap breaks s into lines of at most width runes at spaces.
func wrap(s string, width int) []string {
	var lines []string
	var line []rune
	for _, word := range strings.Fields(s) {
		w := []rune(word)
		for len(w) > width { // a word too long for any line is cut
			if len(line) > 0 {
				lines = append(lines, string(line))
				line = line[:0]
			}
			lines = append(lines, string(w[:width]))
			w = w[width:]
		}
		if len(line) > 0 && len(line)+1+len(w) > width {
			lines = append(lines, string(line))
			line = line[:0]
		}
		if len(line) > 0 {
			line = append(line, ' ')
		}
		line = append(line, w...)
	}
	if len(line) > 0 || len(lines) == 0 {
		lines = append(lines, string(line))
	}
	return lines
}

// clipText shortens s to n runes with an ellipsis.
func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Diagram file formats.
const (
	FormatSVG     = "svg"
	FormatPNG     = "png"
	FormatPDF     = "pdf"
	FormatDOT     = "dot"
	FormatGraphML = "graphml"
)

// Formats lists the formats a diagram downloads as.
var Formats = []string{FormatSVG, FormatPNG, FormatPDF, FormatDOT, FormatGraphML}

// PNGDPI is the PNG resolution: twice the usual 96 dpi, so labels stay
// sharp on high-density screens and in print.
const PNGDPI = 192

// Result says what a render drew.
type Result struct {
	Pages int // pages drawn (a collapsed branch's pages are not)
}

// Render draws t with its cross-links to w, as opt says. It waits for
// Graphviz at most until ctx is done. Errors: EInvalid and ENotFound as
// Options.Normalize, ETooLarge (more than MaxNodes pages, a PNG past
// MaxPNGPixels, or the render timed out).
func Render(ctx context.Context, w io.Writer, t *site.Tree, links []site.Link, opt Options) (Result, error) {
	if err := opt.Normalize(t); err != nil {
		return Result{}, err
	}
	d := newDiagram(t, links, opt)
	res := Result{Pages: d.pages}
	if d.pages > MaxNodes {
		return res, site.Errorf(site.ETooLarge, "The diagram would draw %d pages; at most %d fit in one diagram. Draw one branch or fewer levels.", d.pages, MaxNodes)
	}
	format := opt.Format
	if format == FormatPNG { // refuse before laying out what cannot fit
		k := float64(PNGDPI) / 72
		if px := d.minArea() * k * k; px > MaxPNGPixels {
			return res, site.Errorf(site.ETooLarge, "At %d dpi this diagram would be at least %d megapixels, more than a PNG here may hold. Download the PDF or SVG, or draw one branch or fewer levels.", PNGDPI, int(px/1e6))
		}
	}
	dw := &dotWriter{diagram: d, forLayout: format == FormatPDF || format == FormatPNG || format == FormatGraphML, withLegend: format != FormatPDF}
	if format == FormatDOT {
		return res, dw.write(w)
	}
	var dot bytes.Buffer
	if err := dw.write(&dot); err != nil {
		return res, err
	}
	if format == FormatSVG {
		b, err := render(ctx, dot.Bytes(), opt.Layout, format)
		if err != nil {
			return res, err
		}
		_, err = w.Write(b)
		return res, err
	}
	b, err := render(ctx, dot.Bytes(), opt.Layout, formatJSON)
	if err != nil {
		return res, err
	}
	l, err := parseLayout(b)
	if err != nil {
		return res, err
	}
	cells, err := l.pageCells(d.nodes)
	if err != nil {
		return res, err
	}
	switch format {
	case FormatPDF:
		return res, d.writePDF(w, l)
	case FormatPNG:
		return res, d.writePNG(w, l)
	}
	return res, d.writeGraphML(w, l, cells)
}
