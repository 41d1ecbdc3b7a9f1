package export

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"

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
)

// DiagramOptions choose what a diagram shows and how.
type DiagramOptions struct {
	Layout    string         // LayoutTree (default), LayoutLR or LayoutRadial
	ColorBy   string         // ColorByType (default) or ColorByStatus
	Links     bool           // draw cross-links as dashed arrows
	Root      int64          // draw only this page and its subtree; 0: the whole project
	Depth     int            // levels to draw (the top level is 1); 0: all
	Collapsed map[int64]bool // branches drawn closed, with a "+N pages" marker
	Comments  map[int64]int  // open comment threads per page, shown on its node
}

// Normalize fills defaults and checks the options. Errors: EInvalid,
// ENotFound (root).
func (o *DiagramOptions) Normalize(t *site.Tree) error {
	if o.Layout == "" {
		o.Layout = LayoutTree
	}
	if o.ColorBy == "" {
		o.ColorBy = ColorByType
	}
	switch {
	case !slices.Contains(Layouts, o.Layout):
		return site.Errorf(site.EInvalid, "Layout must be one of %s.", strings.Join(Layouts, ", "))
	case o.ColorBy != ColorByType && o.ColorBy != ColorByStatus:
		return site.Errorf(site.EInvalid, "Colour by must be “type” or “status”.")
	case o.Depth < 0 || o.Depth > 100:
		return site.Errorf(site.EInvalid, "Depth must be a number from 0 (all levels) to 100.")
	case o.Root != 0 && t.Page(o.Root) == nil:
		return site.Errorf(site.ENotFound, "Page %d does not exist in this project.", o.Root)
	}
	return nil
}

// Key returns a string that identifies the options, for caching.
func (o DiagramOptions) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%t|%d|%d|", o.Layout, o.ColorBy, o.Links, o.Root, o.Depth)
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
	return b.String()
}

// Palette colours: a light fill per page type (in order of first use,
// sorted by name) and a fixed colour per status.
var (
	typeFills    = []string{"#dbeafe", "#dcfce7", "#fef3c7", "#fce7f3", "#ede9fe", "#cffafe", "#fee2e2", "#e0e7ff", "#ecfccb", "#f5f5f4"}
	statusColors = map[string]string{"planned": "#64748b", "in_progress": "#2563eb", "review": "#d97706", "approved": "#16a34a", "live": "#7c3aed"}
	statusFills  = map[string]string{"planned": "#f1f5f9", "in_progress": "#dbeafe", "review": "#fef3c7", "approved": "#dcfce7", "live": "#ede9fe"}
)

const (
	untypedFill = "#ffffff"
	linkColor   = "#c026d3"
	lineColor   = "#64748b"
	textColor   = "#0f172a"
	mutedColor  = "#475569"
)

// commentColor marks open comments on a node.
const commentColor = "#b45309"

// StatusLabel is a status as people read it.
func StatusLabel(s string) string { return strings.ReplaceAll(s, "_", " ") }

// LegendItem is one colour of a diagram's legend.
type LegendItem struct {
	Label string
	Fill  string
}

// Diagram is a tree prepared for drawing: which pages show, their colours
// and the markers for what is hidden.
type Diagram struct {
	Tree    *site.Tree
	Opt     DiagramOptions
	Links   []site.Link
	Legend  []LegendItem
	Visible int // pages drawn
	fills   map[string]string
	origin  string
}

// dotWriter writes a diagram's DOT for one use.
type dotWriter struct {
	*Diagram
	// forLayout marks DOT laid out to JSON (PDF, PNG, GraphML): Graphviz
	// 12's JSON writer garbles a text span that holds a backslash, so there
	// a stand-in character takes its place, swapped back when drawing.
	forLayout bool
	legend    bool // the PDF prints the legend in its title block instead
}

// backslashStandIn replaces "\" in labels laid out for PDF (a private-use
// code point that no title contains after validation... or that, if one
// does, prints as a backslash).
const backslashStandIn = '\uE000'

// NewDiagram prepares a diagram of t with its cross-links. Errors as
// DiagramOptions.Normalize.
func NewDiagram(t *site.Tree, links []site.Link, opt DiagramOptions) (*Diagram, error) {
	if err := opt.Normalize(t); err != nil {
		return nil, err
	}
	d := &Diagram{Tree: t, Opt: opt, Links: links, fills: map[string]string{}, origin: site.Origin(t.Project.BaseURL)}
	if opt.ColorBy == ColorByStatus {
		for _, s := range site.Statuses {
			d.fills[s] = statusFills[s]
			d.Legend = append(d.Legend, LegendItem{StatusLabel(s), statusFills[s]})
		}
		return d, nil
	}
	seen := map[string]bool{}
	t.Walk(func(p *site.Page, _ int) bool {
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
		d.Legend = append(d.Legend, LegendItem{ty, d.fills[ty]})
	}
	d.Legend = append(d.Legend, LegendItem{"no type", untypedFill})
	return d, nil
}

// fill returns a page's fill colour.
func (d *Diagram) fill(p *site.Page) string {
	key := p.Type
	if d.Opt.ColorBy == ColorByStatus {
		key = p.Status
	}
	if f, ok := d.fills[key]; ok {
		return f
	}
	return untypedFill
}

// nodeRef is a page as the diagram draws it.
type nodeRef struct {
	page   *site.Page
	hidden int // pages below it that are not drawn
}

// visible walks the pages to draw, in outline order, per placement.
func (d *Diagram) visible() map[string][]nodeRef {
	out := map[string][]nodeRef{}
	var walk func(p *site.Page, depth int, placement string)
	walk = func(p *site.Page, depth int, placement string) {
		ref := nodeRef{page: p}
		kids := d.Tree.Children(p.ID)
		closed := d.Opt.Collapsed[p.ID] || (d.Opt.Depth > 0 && depth >= d.Opt.Depth)
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
	if d.Opt.Root != 0 {
		p := d.Tree.Page(d.Opt.Root)
		walk(p, 1, site.PlacementMain)
		return out
	}
	for _, r := range d.Tree.Children(0) {
		walk(r, 1, r.Placement)
	}
	return out
}

// descendants counts the pages below p.
func (d *Diagram) descendants(p *site.Page) int {
	kids := d.Tree.Children(p.ID)
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
func (d *Diagram) path(p *site.Page) string {
	loc := d.Tree.Location(p.ID)
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

// WriteDOT writes the diagram in the DOT language. Every piece of user
// text goes into an HTML-like label, escaped, so no title can break out
// of its label or inject attributes.
func (d *Diagram) WriteDOT(w io.Writer) error {
	return (&dotWriter{Diagram: d, legend: true}).write(w)
}

func (d *dotWriter) write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	o := d.Opt
	bw.WriteString("digraph siteplan {\n")
	graph := `charset="UTF-8", fontname="Helvetica", fontsize=12, bgcolor="#ffffff", nodesep=0.3, ranksep=0.55, pad=0.3, outputorder=edgesfirst`
	switch o.Layout {
	case LayoutTree:
		graph += `, rankdir=TB, newrank=true, ordering=out`
	case LayoutLR:
		graph += `, rankdir=LR, newrank=true, ordering=out`
	case LayoutRadial:
		graph += `, ranksep=1.6, overlap=scale`
	}
	fmt.Fprintf(bw, "  graph [%s];\n", graph)
	fmt.Fprintf(bw, "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11, fontcolor=%q, color=%q, penwidth=1, margin=\"0.12,0.06\"];\n", textColor, mutedColor)
	fmt.Fprintf(bw, "  edge [color=%q, arrowsize=0.6, fontname=\"Helvetica\", fontsize=9];\n", lineColor)

	vis := d.visible()
	shown := map[int64]bool{}
	for _, refs := range vis {
		for _, r := range refs {
			shown[r.page.ID] = true
		}
	}
	d.Visible = len(shown)
	if o.Layout == LayoutRadial {
		if home := d.home(vis); home != nil {
			fmt.Fprintf(bw, "  graph [root=p%d];\n", home.ID)
		}
	}
	for _, placement := range site.Placements {
		refs := vis[placement]
		if len(refs) == 0 {
			continue
		}
		indent := "  "
		if placement != site.PlacementMain {
			label := map[string]string{site.PlacementUtility: "Utility navigation", site.PlacementFooter: "Footer navigation"}[placement]
			fmt.Fprintf(bw, "  subgraph cluster_%s {\n    graph [label=<<b>%s</b>>, style=\"rounded,dashed\", color=%q, fontcolor=%q, fontsize=10, margin=12];\n", placement, label, mutedColor, mutedColor)
			indent = "    "
		}
		for _, r := range refs {
			d.writeNode(bw, indent, r)
		}
		for _, r := range refs {
			p := r.page
			if p.ParentID != 0 && shown[p.ParentID] {
				fmt.Fprintf(bw, "%sp%d -> p%d;\n", indent, p.ParentID, p.ID)
			}
			if r.hidden > 0 {
				fmt.Fprintf(bw, "%smore%d [id=\"more-%d\", shape=box, style=\"rounded,dashed\", fillcolor=\"#ffffff\", color=%q, fontcolor=%q, fontsize=9, label=<+%d %s>];\n", indent, p.ID, p.ID, mutedColor, mutedColor, r.hidden, plural(r.hidden, "page", "pages"))
				fmt.Fprintf(bw, "%sp%d -> more%d [style=dashed, arrowhead=none];\n", indent, p.ID, p.ID)
			}
		}
		if placement != site.PlacementMain {
			bw.WriteString("  }\n")
		}
	}
	if o.Links {
		for _, l := range d.Links {
			if !shown[l.FromID] || !shown[l.ToID] {
				continue
			}
			attrs := fmt.Sprintf("style=dashed, color=%q, fontcolor=%q, constraint=false", linkColor, linkColor)
			if o.Layout == LayoutRadial {
				attrs += ", weight=0" // twopi builds its tree from edges of non-zero weight
			}
			if l.Label != "" {
				attrs += ", label=<" + d.text(l.Label) + ">"
			}
			fmt.Fprintf(bw, "  p%d -> p%d [id=\"link-%d\", %s];\n", l.FromID, l.ToID, l.ID, attrs)
		}
	}
	if d.legend {
		d.writeLegend(bw)
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// home returns the page a radial layout centres on.
func (d *Diagram) home(vis map[string][]nodeRef) *site.Page {
	if d.Opt.Root != 0 {
		return d.Tree.Page(d.Opt.Root)
	}
	if refs := vis[site.PlacementMain]; len(refs) > 0 {
		return refs[0].page
	}
	return nil
}

func (d *dotWriter) writeNode(bw *bufio.Writer, indent string, r nodeRef) {
	p := r.page
	attrs := fmt.Sprintf("id=\"p%d\", fillcolor=%q", p.ID, d.fill(p))
	switch p.Kind {
	case site.KindGroup:
		attrs += `, shape=folder, style="filled", penwidth=1.4`
	case site.KindPlaceholder:
		attrs += `, style="rounded,filled,dashed", fontcolor="#475569"`
	case site.KindExternal:
		attrs += `, style="rounded,filled,dotted", penwidth=1.6, color="#7c3aed"`
	}
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
	label.WriteString(`<br/><font point-size="8" color="` + statusColors[p.Status] + `">●</font><font point-size="8" color="` + mutedColor + `"> ` + d.text(StatusLabel(p.Status)))
	if p.Kind != site.KindPage {
		label.WriteString(" · " + p.Kind)
	}
	label.WriteString(`</font>`)
	if n := d.Opt.Comments[p.ID]; n > 0 {
		label.WriteString(`<font point-size="8" color="` + commentColor + `"> · ` + strconv.Itoa(n) + " " + plural(n, "open comment", "open comments") + `</font>`)
	}
	fmt.Fprintf(bw, "%sp%d [%s, label=<%s>];\n", indent, p.ID, attrs, label.String())
}

// writeLegend writes the colour key and the node shapes as one node in
// its own cluster.
func (d *dotWriter) writeLegend(bw *bufio.Writer) {
	title := "Page type"
	if d.Opt.ColorBy == ColorByStatus {
		title = "Status"
	}
	var b strings.Builder
	b.WriteString(`<table border="0" cellborder="1" cellspacing="2" cellpadding="3" color="#cbd5e1">`)
	b.WriteString(`<tr><td colspan="2" border="0" align="left"><b>` + title + `</b></td></tr>`)
	for _, it := range d.Legend {
		b.WriteString(`<tr><td bgcolor="` + it.Fill + `" width="18"> </td><td border="0" align="left">` + d.text(it.Label) + `</td></tr>`)
	}
	b.WriteString(`<tr><td colspan="2" border="0" align="left"><font point-size="8" color="` + mutedColor + `">rounded: page · folder: group · dashed: placeholder · dotted: external</font></td></tr>`)
	if d.Opt.Links {
		b.WriteString(`<tr><td colspan="2" border="0" align="left"><font point-size="8" color="` + linkColor + `">dashed arrow: cross-link</font></td></tr>`)
	}
	b.WriteString(`</table>`)
	fmt.Fprintf(bw, "  subgraph cluster_legend {\n    graph [label=\"\", style=\"rounded\", color=\"#cbd5e1\", margin=8];\n    legend [id=\"legend\", shape=plain, style=\"\", fontsize=9, label=<%s>];\n  }\n", b.String())
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

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Diagram file formats.
const (
	FormatSVG     = "svg"
	FormatPNG     = "png"
	FormatPDF     = "pdf"
	FormatDOT     = "dot"
	FormatGraphML = "graphml"
)

// DiagramFormats lists the formats a diagram downloads as.
var DiagramFormats = []string{FormatSVG, FormatPNG, FormatPDF, FormatDOT, FormatGraphML}

// PNGDPI is the PNG resolution: twice the usual 96 dpi, so labels stay
// sharp on high-density screens and in print.
const PNGDPI = 192

// Render draws the diagram in format. It waits for Graphviz at most until
// ctx is done. Errors: EInvalid (unknown format), ETooLarge (more than
// MaxDiagramNodes pages, or the render timed out).
func (d *Diagram) Render(ctx context.Context, format string, pdfOpt PDFOptions) ([]byte, error) {
	if !slices.Contains(DiagramFormats, format) {
		return nil, site.Errorf(site.EInvalid, "Diagram format must be one of %s.", strings.Join(DiagramFormats, ", "))
	}
	var dot bytes.Buffer
	dw := &dotWriter{Diagram: d, forLayout: format == FormatPDF || format == FormatPNG || format == FormatGraphML, legend: format != FormatPDF}
	if err := dw.write(&dot); err != nil {
		return nil, err
	}
	if d.Visible > MaxDiagramNodes {
		return nil, site.Errorf(site.ETooLarge, "The diagram would draw %d pages; at most %d fit in one diagram. Draw one branch or fewer levels.", d.Visible, MaxDiagramNodes)
	}
	switch format {
	case FormatDOT:
		return dot.Bytes(), nil
	case FormatSVG:
		return render(ctx, dot.Bytes(), d.Opt.Layout, format)
	}
	b, err := render(ctx, dot.Bytes(), d.Opt.Layout, formatJSON)
	if err != nil {
		return nil, err
	}
	l, err := parseLayout(b)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	switch format {
	case FormatPDF:
		err = d.writePDF(&out, l, pdfOpt)
	case FormatPNG:
		err = d.writePNG(&out, l)
	default:
		err = d.writeGraphML(&out, l)
	}
	return out.Bytes(), err
}
