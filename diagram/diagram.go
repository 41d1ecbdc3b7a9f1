// Package diagram draws a plan: site values in, pictures out. Render
// (render.go) is its one entry point and Options (options.go) say what
// to draw.
//
// The top-down and left-to-right diagrams are org charts laid out here
// (chart.go; cards sized in card.go, colours and the legend in this
// file) and painted by siteplan's own painters (paint.go) on a canvas
// (draw.go): SVG (svg.go), PNG (png.go), the editor's scene (scene.go)
// or a PDF book of sheets with a cover (pdf.go, sheets.go, cover.go,
// logo.go). A radial diagram's cards and stacks are placed as plain
// boxes by Graphviz in internal/graphviz (in a worker process a server
// can end) and painted by the same painters (radial.go). The PDF and PNG
// print their words in the fonts of internal/fonts, which also measures
// every text the layouts wrap. DOT (dot.go) and GraphML (graphml.go) are
// downloads too.
package diagram

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"siteplan/diagram/internal/fonts"
	"siteplan/site"
)

// accent is the accent colour the diagram is drawn with.
func (d *diagram) accent() string {
	if d.opt.Accent != "" {
		return d.opt.Accent
	}
	return DefaultAccent
}

// Palette colours: a fixed colour per status, and per change.
var (
	statusColors = map[string]string{"planned": "#64748b", "in_progress": "#2563eb", "review": "#d97706", "approved": "#16a34a", "live": "#7c3aed"}
	statusFills  = map[string]string{"planned": "#f1f5f9", "in_progress": "#dbeafe", "review": "#fef3c7", "approved": "#dcfce7", "live": "#ede9fe"}
	// markFills colour a comparison, in the order of its legend.
	markFills = []legendItem{{site.MarkAdded, "#86efac"}, {site.MarkRemoved, "#fca5a5"}, {site.MarkMoved, "#93c5fd"},
		{site.MarkRenamed, "#fcd34d"}, {site.MarkChanged, "#e9d5ff"}, {"unchanged", "#ffffff"}}
	// checkFills colour a launch check, worst first.
	checkFills = []legendItem{{CheckError, "#fca5a5"}, {CheckWarning, "#fcd34d"}, {CheckOK, "#86efac"}, {notChecked, "#e5e7eb"}}
	// treeFills colour a tree test's task: where the answers are, the
	// way to them and away from them.
	treeFills = []legendItem{{TreeCorrect, "#4ade80"}, {TreeRightWay, "#bbf7d0"}, {TreeWrongWay, "#fed7aa"}, {TreeWrongChoice, "#fca5a5"}, {notVisited, "#f1f5f9"}}
)

// checkSigns tell a launch check's results apart without their colours:
// on a compact card, whose title is all it says, and in the legend.
var checkSigns = map[string]string{CheckError: "✕", CheckWarning: "!", CheckOK: "✓", TreeCorrect: "✓", TreeWrongChoice: "✕", TreeWrongWay: "!"}

// notChecked is a launch check's word for a page it did not check: a
// group, a placeholder, an external page, one added since.
const notChecked = "not checked"

// notVisited is a tree test's word for a page no participant opened in
// the task.
const notVisited = "not visited"

const (
	untypedFill = "#e2e8f0"
	inkColor    = "#1e293b" // text on a band
	cardBorder  = "#94a3b8"
	linkColor   = "#c026d3"
	lineColor   = "#64748b"
	textColor   = "#0f172a"
	mutedColor  = "#475569"
	stackFill   = "#f8fafc" // behind a radial diagram's stack of cards
	stackLine   = "#cbd5e1"
	blockFill   = "#f1f5f9" // a content block's box (Options.Content)
	blockLine   = "#cbd5e1"
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
	tree  *site.Tree
	opt   Options
	links []site.Link
	colouring
	faces  map[cardFace]card // the cards' faces measured, shared by a PDF's trial drawings; nil: not kept
	origin string

	placed  map[string][]*card // the cards of each placement, in outline order
	cards   []*card            // every card, placement by placement
	byID    map[int64]*card
	part    map[int64]string // which of the drawing's parts each drawn page is in (drawsLink)
	pages   int              // pages drawn
	sheet   *point           // the drawing area of the PDF sheet it is arranged for; nil: a screen
	tallest int              // while arranging: the most cards in a stack
}

// newDiagram prepares a diagram of t with its cross-links, with options
// already normalised.
func newDiagram(t *site.Tree, links []site.Link, opt Options) *diagram {
	return newDiagramIn(t, links, opt, colouringOf(t, opt), nil)
}

// newDiagramIn is newDiagram with the colours of t already picked, and
// the cards' faces kept in faces if not nil: the trial drawings of a
// PDF's sheets share them.
func newDiagramIn(t *site.Tree, links []site.Link, opt Options, col colouring, faces map[cardFace]card) *diagram {
	d := &diagram{tree: t, opt: opt, links: links, colouring: col, faces: faces, origin: site.Origin(t.Project.BaseURL)}
	d.place()
	return d
}

// colouring is the band colour of each page type, status or change, and
// the legend.
type colouring struct {
	legend []legendItem
	fills  map[string]string
	marks  map[string]string // page type -> the mark that tells it from a type of the same colour
}

// colouringOf picks t's colours as opt colours it: a type has the colour
// it has in the outline. It reads the whole plan for its types.
func colouringOf(t *site.Tree, opt Options) colouring {
	c := colouring{fills: map[string]string{}, marks: map[string]string{}}
	if marks, ok := map[string][]legendItem{ColorByChange: markFills, ColorByCheck: checkFills, ColorByTreeTest: treeFills}[opt.ColorBy]; ok {
		for _, it := range marks {
			c.fills[it.Label] = it.Fill
			c.legend = append(c.legend, legendItem{marked(checkSigns[it.Label], it.Label), it.Fill})
		}
		return c
	}
	if opt.ColorBy == ColorByStatus {
		for _, s := range site.Statuses {
			c.fills[s] = statusFills[s]
			c.legend = append(c.legend, legendItem{statusLabel(s), statusFills[s]})
		}
		return c
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
	pal := opt.Palette.With(types)
	for _, ty := range types {
		look := pal.Of(ty)
		c.fills[ty], c.marks[ty] = look.Color, look.Mark
		c.legend = append(c.legend, legendItem{marked(look.Mark, ty), look.Color})
	}
	c.legend = append(c.legend, legendItem{"no type", untypedFill})
	return c
}

// marked puts a type's mark, if it has one, before words about it.
func marked(mark, words string) string {
	if mark == "" {
		return words
	}
	return mark + " " + words
}

// place makes the card of each page to draw, placement by placement.
func (d *diagram) place() {
	d.placed, d.byID, d.part = map[string][]*card{}, map[int64]*card{}, map[int64]string{}
	shown := d.focused()
	var walk func(p *site.Page, depth int, placement string)
	walk = func(p *site.Page, depth int, placement string) {
		kids := d.tree.Children(p.ID)
		hidden := 0
		closed := d.opt.Collapsed[p.ID] || d.opt.cut[p.ID] || (d.opt.Depth > 0 && depth >= d.opt.Depth)
		if closed || (len(kids) == 0 && p.ChildCount > 0) {
			hidden = d.tree.Descendants(p.ID)
		} else if shown != nil { // the children out of focus, counted on the card
			var in []*site.Page
			for _, k := range kids {
				if shown[k.ID] {
					in = append(in, k)
				} else {
					hidden += 1 + d.tree.Descendants(k.ID)
				}
			}
			kids = in
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
		if closed || len(kids) == 0 {
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
				if r.Placement == pl && (shown == nil || shown[r.ID]) {
					walk(r, 1, pl)
				}
			}
		}
	}
	d.pages = len(d.cards)
	if d.opt.refs && d.opt.Links {
		d.awayLinks()
	}
}

// maxRefs is how many cross-links to other sheets a card lists; a line
// counts the rest.
const maxRefs = 3

// awayLinks gives each card the cross-links from its page to pages this
// drawing leaves out, printed on it as references once the book knows
// which sheet draws them, and makes room for them.
func (d *diagram) awayLinks() {
	for _, l := range d.links {
		c, to := d.byID[l.FromID], d.tree.Page(l.ToID)
		if c == nil || to == nil || d.byID[l.ToID] != nil {
			continue
		}
		if len(c.refs) < maxRefs || (len(c.refs) == maxRefs && c.moreRefs == 0) {
			c.h += c.moreLineH()
		}
		if len(c.refs) < maxRefs {
			c.refs = append(c.refs, ref{to: to})
		} else {
			c.moreRefs++
		}
	}
}

// focused returns the pages Options.Focus draws: those it names and their
// ancestors; nil to draw every page.
func (d *diagram) focused() map[int64]bool {
	if d.opt.Focus == nil {
		return nil
	}
	shown := map[int64]bool{}
	for id, ok := range d.opt.Focus {
		if !ok {
			continue
		}
		for p := d.tree.Page(id); p != nil && !shown[p.ID]; p = d.tree.Page(p.ParentID) {
			shown[p.ID] = true // an ancestor already shown has its own shown
		}
	}
	return shown
}

// fill returns the colour of a page's band.
func (d *diagram) fill(p *site.Page) string {
	key := p.Type
	switch d.opt.ColorBy {
	case ColorByStatus:
		key = p.Status
	case ColorByChange:
		key = d.opt.Marks[p.ID]
	case ColorByCheck, ColorByTreeTest:
		key = d.checkMark(p)
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

// curve is a cross-link's path: a cubic curve (y down) that ends at the
// base of its arrow, the arrow's tip, and where its label goes.
type curve struct {
	pts   []point // a bezier path: a start and three points a segment
	path  []point // the same as straight segments, for what follows it
	tip   point   // where the arrow ends, on the card's border
	label point   // the label's centre
}

// plainCurve joins two cards by a curve from edge to edge, bent away from
// the straight line: for a link the router finds no way for.
func plainCurve(a, b *card) curve {
	ca := point{a.x + a.w/2, a.y + a.h/2}
	cb := point{b.x + b.w/2, b.y + b.h/2}
	from, tip := edgePoint(a, cb), edgePoint(b, ca)
	dx, dy := tip.X-from.X, tip.Y-from.Y
	dist := math.Hypot(dx, dy)
	if dist < 1 {
		dx, dy, dist = 1, 0, 1
	}
	ux, uy := dx/dist, dy/dist
	nx, ny := -uy, ux // the side the curve bends to
	bend := math.Min(dist*0.25, 80)
	end := point{tip.X - ux*arrowLen, tip.Y - uy*arrowLen}
	c1 := point{from.X + dx/3 + nx*bend, from.Y + dy/3 + ny*bend}
	c2 := point{from.X + 2*dx/3 + nx*bend, from.Y + 2*dy/3 + ny*bend}
	mid := point{(from.X + 3*c1.X + 3*c2.X + end.X) / 8, (from.Y + 3*c1.Y + 3*c2.Y + end.Y) / 8}
	return curve{pts: []point{from, c1, c2, end}, path: []point{from, mid, end}, tip: tip, label: mid}
}

// edgePoint is where the line from a card's centre towards p leaves it.
func edgePoint(c *card, p point) point { return box{c.x, c.y, c.x + c.w, c.y + c.h}.edge(p) }

// drawsLink reports whether a cross-link is drawn: both its pages must
// be.
func (d *diagram) drawsLink(l site.Link) bool { return d.part[l.FromID] != "" && d.part[l.ToID] != "" }

// oneStar reports whether a cross-link joins two pages of one part of a
// radial diagram: the tree of one top-level page, or the star of utility
// or footer navigation. twopi lays each part out around its own centre,
// and an edge joining two parts leaves pages that no tree edge reaches
// from the root, which makes Graphviz fail (it drew nothing but the
// legend); the radial DOT a user downloads leaves such links out.
func (d *diagram) oneStar(l site.Link) bool { return d.part[l.FromID] == d.part[l.ToID] }

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
	words = fonts.Measure(d.legendTitle(), 10, true) - legendSwatchW - legendSpacing
	rows := d.legendRows()
	for _, it := range rows {
		words = max(words, fonts.Measure(it.Label, 9, false))
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
	return map[string]string{ColorByType: "Page type", ColorByStatus: "Status", ColorByChange: "Change", ColorByCheck: "Launch check", ColorByTreeTest: "Tree test"}[d.opt.ColorBy]
}

// checkMark is a page's launch check result, in words.
func (d *diagram) checkMark(p *site.Page) string {
	if m := d.opt.Marks[p.ID]; m != "" {
		return m
	}
	if d.opt.ColorBy == ColorByTreeTest {
		return notVisited
	}
	return notChecked
}
