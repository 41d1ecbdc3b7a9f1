package diagram

import (
	"math"

	"siteplan/diagram/internal/fonts"
	"siteplan/site"
)

// The top-down and left-to-right diagrams are org charts that siteplan
// lays out and paints itself, without Graphviz: every card and every
// connector is placed here, so that connectors run in horizontal and
// vertical segments only (a bus under each parent), no card overlaps
// another or the legend, and a plan of 10,000 pages is placed in
// milliseconds instead of dot's seconds.

// Spacing of an org chart, in points.
const (
	rowGap      = 44.0 // top down: between a parent's row and its children's; the bus runs halfway
	siblingGap  = 18.0 // top down: between sibling branches
	spineInset  = 12.0 // a stack's spine, from the left of its column
	stackIndent = 24.0 // a stacked card, from the left of its column
	stackGap    = 8.0  // between stacked cards
	colGap      = 56.0 // left to right: between a parent's column and its children's
	lrGap       = 10.0 // left to right: between sibling branches
	rootGap     = 36.0 // between the trees of one placement
	regionGap   = 48.0 // between the main tree, the legend and the navigation frames
	framePad    = 14.0
	frameLabelH = 22.0
)

// A run of leaf siblings is stacked in columns under its parent, the way
// org-chart sitemaps list their deepest pages: from the third level down
// when there are two or more, at any level when there are many. From a
// chosen level down (arrange tries a few), every branch is listed under
// its parent, indented, so that a wide plan grows down instead of
// sideways.
const (
	stackMin     = 2  // leaf siblings that stack from the third level down
	stackAlways  = 12 // leaf siblings that stack at any level
	stackMaxRows = 40 // cards in a column before a stack adds a column (on screen)
)

// entry is a card in a stack, with its branch listed under it.
type entry struct {
	card *card
	kids []*entry
}

// size counts an entry's cards; width is how wide it is listed.
func (e *entry) size() int {
	n := 1
	for _, k := range e.kids {
		n += k.size()
	}
	return n
}

func (e *entry) width() float64 {
	w := e.card.w
	for _, k := range e.kids {
		w = max(w, stackIndent+k.width())
	}
	return w
}

// wire is a connector from a parent to a child, as points (y down); one
// from page 0 joins a radial diagram's navigation heading to its pages,
// and is dashed.
type wire struct {
	from, to int64
	pts      []point
}

// frame is the dashed box around utility or footer navigation.
type frame struct {
	placement  string
	x, y, w, h float64
}

// chart is an org chart laid out: cards placed, connectors routed, all in
// points with y pointing down from the top left.
type chart struct {
	wires  []wire
	frames []frame
	hubs   []hub           // a radial diagram's navigation headings
	stacks []box           // a radial diagram's stacks of cards, each framed
	legend *box            // the legend's place, if drawn
	links  map[int64]curve // each cross-link drawn, by link id (routeLinks)
	w, h   float64
}

// slot is what a parent's connector reaches: a card with its branch, or
// a stack of leaf cards in columns. Sizes are along the breadth axis: x
// top down, y left to right.
type slot struct {
	card  *card
	kids  []*slot
	cols  [][]*entry // a stack's columns
	depth int
	cards int     // a stack's cards
	size  float64 // breadth of the slot with all it holds
	at    float64 // start of the slot, from its parent's children's start
	// Offsets from the slot's start: the card's, the children's, and
	// where the connector from above meets it and the one below leaves.
	cardAt, kidsAt, anchor, exit float64
}

// colWidth is the width of a stack's column.
func colWidth(col []*entry) float64 {
	w := 0.0
	for _, e := range col {
		w = max(w, e.width())
	}
	return stackIndent + w
}

// stackSlot lists entries in balanced columns of about rows cards, never
// splitting an entry's branch.
func stackSlot(entries []*entry, depth, rows int) *slot {
	total := 0
	for _, e := range entries {
		total += e.size()
	}
	cols := (total + rows - 1) / rows
	per := (total + cols - 1) / cols
	s := &slot{depth: depth, cards: total}
	var col []*entry
	n := 0
	for _, e := range entries { // an entry goes to the column its middle falls in
		if len(col) > 0 && 2*n+e.size() > 2*per {
			s.cols, col, n = append(s.cols, col), nil, 0
		}
		col = append(col, e)
		n += e.size()
	}
	s.cols = append(s.cols, col)
	return s
}

// region is one placement's forest being laid out.
type region struct {
	lr     bool
	roots  []*slot
	rowH   map[int]float64 // top down: the height of each level's cards
	rowTop map[int]float64
	wires  []wire
	w, h   float64
}

// arrange lays out the drawing's cards as an org chart, top down or left
// to right, with the legend and utility and footer navigation beside the
// main tree, and routes the connectors.
//
// The screen (canvas, SVG, PNG) and the PDF sheets share one layout: the
// same shapes are tried (branches listed under their parents from the
// third or fourth level down, shorter columns of stacked cards, the
// navigation under the tree rather than beside it) and the same shape
// wins: the most balanced (no branch hanging far below the rest), then
// the one that draws largest in the area, a landscape screen's or the
// sheet's. A sheet first wants its words legible, and may list from the
// second level down for that.
func (d *diagram) arrange(withLegend bool) *chart {
	area, lowest, froms := point{sheetAspect, 1}, 0.0, []int{noLists, 4, 3} // the top two levels stay an org chart
	if d.sheet != nil {
		area, lowest, froms = *d.sheet, legible(d.opt.compact)-1e-9, append(froms, 2)
	}
	deepest := 0
	for _, c := range d.cards {
		deepest = max(deepest, c.depth)
	}
	beside := len(d.placed[site.PlacementUtility])+len(d.placed[site.PlacementFooter]) > 0 // anything to put under the tree instead
	var tries []shape
	for _, from := range froms {
		if from != noLists && (from > deepest || d.opt.Layout != LayoutTree) {
			continue // lists nothing more than noLists
		}
		for _, rows := range []int{stackMaxRows, 24, 16, 10, 6, 4, 3} {
			tries = append(tries, shape{from, rows, false})
			if beside {
				tries = append(tries, shape{from, rows, true})
			}
		}
	}
	branch := d.branches()
	best, bestOver, bestScale := tries[0], math.Inf(1), 0.0
	tallest := map[int]int{} // the most cards in a stack, listing from a level
	for _, t := range tries {
		if t.rows < stackMaxRows && tallest[t.listFrom] <= t.rows {
			continue // no stack has more cards than rows: drawn as before
		}
		d.tallest = 0
		ch := d.arrangeAs(withLegend, t)
		tallest[t.listFrom] = max(tallest[t.listFrom], d.tallest)
		over, scale := d.overhang(branch), fitScale(ch.w, ch.h, area.X, area.Y)
		switch readable, was := scale >= lowest, bestScale >= lowest; {
		case readable != was:
			if !readable {
				continue
			}
		case !readable && scale <= bestScale*1.01, readable && (over > bestOver || over == bestOver && scale <= bestScale*1.01):
			continue // a later shape must be better balanced or draw 1% larger
		}
		best, bestOver, bestScale = t, over, scale
	}
	ch := d.arrangeAs(withLegend, best) // the cards hold the last try's places
	d.routeLinks(ch)
	return ch
}

// branches numbers the main tree's cards by the branch they are in: the
// card on the second level and all below it; -1 for the others.
func (d *diagram) branches() []int {
	main := d.placed[site.PlacementMain]
	out, of := make([]int, len(main)), map[int64]int{}
	for i, c := range main { // outline order: a parent before its children
		out[i] = -1
		if c.depth == 2 {
			out[i] = i
		} else if b, ok := of[c.page.ParentID]; ok && c.depth > 2 {
			out[i] = b
		}
		if out[i] >= 0 {
			of[c.page.ID] = out[i]
		}
	}
	return out
}

// overhang is how much taller than balanced the main tree's branches
// are, as placed, in points: a branch is balanced when it is at most
// twice as tall as the drawing's widest row has cards (at their mean
// height and the gap of a stack).
func (d *diagram) overhang(branch []int) float64 {
	main := d.placed[site.PlacementMain]
	if len(main) == 0 {
		return 0
	}
	perRow, widest, meanH := map[float64]int{}, 0, 0.0
	top, bottom := map[int]float64{}, map[int]float64{}
	for i, c := range main {
		perRow[c.y]++
		widest, meanH = max(widest, perRow[c.y]), meanH+c.h
		if b := branch[i]; b >= 0 {
			if t, ok := top[b]; !ok || c.y < t {
				top[b] = c.y
			}
			bottom[b] = max(bottom[b], c.y+c.h)
		}
	}
	limit := 2 * float64(widest) * (meanH/float64(len(main)) + stackGap)
	over := 0.0
	for b, t := range top {
		over += max(0, bottom[b]-t-limit)
	}
	return over
}

// shape is how arrange lays out a chart: from which level branches are
// listed under their parents, how many cards a stack's column holds, and
// whether the legend and the navigation go on the other side of the main
// tree (under it top down, beside it left to right).
type shape struct {
	listFrom, rows int
	flip           bool
}

// fitScale is the scale at which a drawing of w×h fits an area of aw×ah,
// at most maxScale.
func fitScale(w, h, aw, ah float64) float64 {
	return math.Min(math.Min(aw/math.Max(w, 1), ah/math.Max(h, 1)), maxScale)
}

// noLists lists no branches: only runs of leaves are stacked.
const noLists = 1 << 20

// sheetAspect is the shape arrange aims for on screen: a landscape sheet's.
const sheetAspect = math.Sqrt2

// arrangeAs lays out the chart in the shape sh.
func (d *diagram) arrangeAs(withLegend bool, sh shape) *chart {
	lr := d.opt.Layout == LayoutLR
	ch := &chart{}
	main := d.region(d.placed[site.PlacementMain], lr, sh)
	ch.wires = append(ch.wires, main.wires...)
	ch.w, ch.h = main.w, main.h
	// Beside the main tree: a column right of it top down, a row under
	// it left to right.
	x, y := 0.0, 0.0
	under := lr != sh.flip
	switch {
	case main.w == 0:
	case under:
		y = main.h + regionGap
	default:
		x = main.w + regionGap
	}
	next := func(w, h float64) (float64, float64) {
		if sh.flip && !lr && x > 0 && x+w > main.w { // a row under the tree as wide as the tree
			x, y = 0, ch.h+regionGap
		}
		at := point{x, y}
		if under {
			x += w + regionGap
		} else {
			y += h + regionGap
		}
		ch.w, ch.h = max(ch.w, at.X+w), max(ch.h, at.Y+h)
		return at.X, at.Y
	}
	if withLegend {
		w, h, _ := d.legendSize()
		lx, ly := next(w, h)
		ch.legend = &box{lx, ly, lx + w, ly + h}
	}
	for _, pl := range []string{site.PlacementUtility, site.PlacementFooter} {
		if len(d.placed[pl]) == 0 {
			continue
		}
		r := d.region(d.placed[pl], lr, sh)
		w := max(r.w, fonts.Measure(frameLabel(pl), d.labelSize(10), true)) + 2*framePad
		h := r.h + 2*framePad + frameLabelH
		fx, fy := next(w, h)
		ch.frames = append(ch.frames, frame{pl, fx, fy, w, h})
		dx, dy := fx+framePad, fy+framePad+frameLabelH
		for _, c := range d.placed[pl] {
			c.x, c.y = c.x+dx, c.y+dy
		}
		for _, wr := range r.wires {
			for i := range wr.pts {
				wr.pts[i].X, wr.pts[i].Y = wr.pts[i].X+dx, wr.pts[i].Y+dy
			}
			ch.wires = append(ch.wires, wr)
		}
	}
	return ch
}

// frameLabel names a navigation frame.
func frameLabel(placement string) string {
	return map[string]string{site.PlacementUtility: "Utility navigation", site.PlacementFooter: "Footer navigation"}[placement]
}

// region lays out the cards of one placement (in outline order) at the
// origin: each top-level page's tree beside the last.
func (d *diagram) region(cards []*card, lr bool, sh shape) *region {
	r := &region{lr: lr, rowH: map[int]float64{}, rowTop: map[int]float64{}}
	kids := map[int64][]*card{}
	var tops []*card
	for _, c := range cards {
		if c.depth == 1 {
			tops = append(tops, c)
		} else {
			kids[c.page.ParentID] = append(kids[c.page.ParentID], c)
		}
	}
	r.roots = d.slots(tops, kids, lr, sh)
	for _, s := range r.roots {
		r.measure(s)
	}
	if !lr { // each level's cards start where the tallest card above ends
		top := 0.0
		for depth := 1; ; depth++ {
			h, ok := r.rowH[depth]
			if !ok {
				break
			}
			r.rowTop[depth] = top
			top += h + rowGap
		}
	}
	pos := 0.0
	for _, s := range r.roots {
		r.place(s, pos)
		pos += s.size + rootGap
	}
	for _, c := range cards {
		r.w, r.h = max(r.w, c.x+c.w), max(r.h, c.y+c.h)
	}
	return r
}

// slots groups sibling cards into slots: from depth listFrom down all of
// them become one stack with their branches; above, a run of leaf
// siblings long enough does (never left to right, where siblings already
// stand in a column).
func (d *diagram) slots(siblings []*card, kids map[int64][]*card, lr bool, sh shape) []*slot {
	if len(siblings) == 0 {
		return nil
	}
	var entries func(cards []*card) []*entry
	entries = func(cards []*card) []*entry {
		out := make([]*entry, len(cards))
		for i, c := range cards {
			out[i] = &entry{card: c, kids: entries(kids[c.page.ID])}
		}
		return out
	}
	if !lr && siblings[0].depth >= sh.listFrom {
		s := stackSlot(entries(siblings), siblings[0].depth, sh.rows)
		d.tallest = max(d.tallest, s.cards)
		return []*slot{s}
	}
	var out []*slot
	for i := 0; i < len(siblings); {
		j := i
		for j < len(siblings) && siblings[j].leaf(d.tree) {
			j++
		}
		if n := j - i; !lr && (n >= stackAlways || (n >= stackMin && siblings[i].depth >= 3)) {
			s := stackSlot(entries(siblings[i:j]), siblings[i].depth, sh.rows)
			d.tallest = max(d.tallest, s.cards)
			out = append(out, s)
			i = j
			continue
		}
		c := siblings[i]
		out = append(out, &slot{card: c, depth: c.depth, kids: d.slots(kids[c.page.ID], kids, lr, sh)})
		i++
	}
	return out
}

// extent is a card's size along the breadth axis.
func (r *region) extent(c *card) float64 {
	if r.lr {
		return c.h
	}
	return c.w
}

// measure sizes a slot and what it holds, and notes the height of each
// top-down level.
func (r *region) measure(s *slot) {
	if s.card == nil { // a stack: its connector meets the middle of its spines
		r.rowH[s.depth] = max(r.rowH[s.depth], 0) // its level starts below the one above
		last := 0.0
		for i, col := range s.cols {
			if i > 0 {
				s.size += siblingGap
			}
			last = s.size + spineInset
			s.size += colWidth(col)
		}
		s.anchor = (spineInset + last) / 2
		return
	}
	if !r.lr {
		r.rowH[s.depth] = max(r.rowH[s.depth], s.card.h)
	}
	e := r.extent(s.card)
	if len(s.kids) == 0 {
		s.size, s.anchor, s.exit = e, e/2, e/2
		return
	}
	gap := siblingGap
	if r.lr {
		gap = lrGap
	}
	pos, first, last := 0.0, 0.0, 0.0
	for i, k := range s.kids {
		r.measure(k)
		k.at = pos
		if i == 0 {
			first = pos + k.anchor
		}
		last = pos + k.anchor
		pos += k.size + gap
	}
	row := pos - gap
	exit := (first + last) / 2
	cardAt := exit - e/2
	if k := s.kids[0]; !r.lr && len(s.kids) == 1 && k.card == nil && len(k.cols) == 1 {
		// One column of leaves hangs from the card's left, its spine
		// straight down from the card.
		exit, cardAt = spineInset, 0
	}
	shift := max(0, -cardAt)
	s.kidsAt, s.cardAt, s.exit = shift, cardAt+shift, exit+shift
	s.size = max(shift+row, s.cardAt+e)
	s.anchor = s.cardAt + e/2
}

// place puts a slot's cards at start along the breadth axis, and routes
// the connectors from its card to its children.
func (r *region) place(s *slot, start float64) {
	if s.card == nil {
		left := start
		for _, col := range s.cols {
			y := r.rowTop[s.depth]
			for _, e := range col {
				y = r.list(e, left+stackIndent, y)
			}
			left += colWidth(col) + siblingGap
		}
		return
	}
	c := s.card
	if r.lr {
		c.x, c.y = float64(s.depth-1)*(cardW+colGap), start+s.cardAt
	} else {
		c.x, c.y, c.h = start+s.cardAt, r.rowTop[s.depth], r.rowH[s.depth]
	}
	for _, k := range s.kids {
		r.place(k, start+s.kidsAt+k.at)
		r.connect(s, start, k, start+s.kidsAt+k.at)
	}
}

// connect routes the connectors from a slot's card to the cards of one
// of its children's slots: down from the parent to the bus halfway to
// the next level, along it, and down into the child; into a stack, down
// its spine and across into each card. Left to right, the same turned.
func (r *region) connect(s *slot, start float64, k *slot, kStart float64) {
	p := s.card
	if r.lr {
		ex, ey := p.x+p.w, start+s.exit
		bus := ex + colGap/2
		c := k.card
		cy := c.y + c.h/2
		r.wire(p, c, point{ex, ey}, point{bus, ey}, point{bus, cy}, point{c.x, cy})
		return
	}
	ex, ey := start+s.exit, p.y+p.h
	bus := r.rowTop[s.depth+1] - rowGap/2
	if k.card != nil {
		cx := k.card.x + k.card.w/2
		r.wire(p, k.card, point{ex, ey}, point{ex, bus}, point{cx, bus}, point{cx, k.card.y})
		return
	}
	left := kStart
	for _, col := range k.cols {
		spine := left + spineInset
		for _, e := range col {
			cy := stub(e.card)
			r.wire(p, e.card, point{ex, ey}, point{ex, bus}, point{spine, bus}, point{spine, cy}, point{e.card.x, cy})
		}
		left += colWidth(col) + siblingGap
	}
}

// stub is where a connector enters a stacked card from the left: at its
// first title line.
func stub(c *card) float64 { return c.y + math.Min(c.h/2, c.bandH+cardTop+titleLineH/2) }

// list places an entry's card at (x, y) with its branch listed under it,
// each level indented, connected by a spine down from the card's bottom
// left; it returns where the next card goes.
func (r *region) list(e *entry, x, y float64) float64 {
	c := e.card
	c.x, c.y = x, y
	y += c.h + stackGap
	for _, k := range e.kids {
		ky := y
		y = r.list(k, x+stackIndent, y)
		cy := ky + (stub(k.card) - k.card.y)
		r.wire(c, k.card, point{x + spineInset, c.y + c.h}, point{x + spineInset, cy}, point{k.card.x, cy})
	}
	return y
}

// wire adds a connector through pts, without the points that do not turn.
func (r *region) wire(from, to *card, pts ...point) {
	out := []point{pts[0]}
	for _, p := range pts[1:] {
		if last := out[len(out)-1]; math.Abs(p.X-last.X) < 0.01 && math.Abs(p.Y-last.Y) < 0.01 {
			continue
		}
		if n := len(out); n >= 2 {
			a, b := out[n-2], out[n-1]
			if (a.X == b.X && b.X == p.X) || (a.Y == b.Y && b.Y == p.Y) {
				out[n-1] = p
				continue
			}
		}
		out = append(out, p)
	}
	r.wires = append(r.wires, wire{from: from.page.ID, to: to.page.ID, pts: out})
}
