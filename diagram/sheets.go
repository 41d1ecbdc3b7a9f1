package diagram

import (
	"context"
	"math"
	"slices"
	"strings"

	"siteplan/diagram/internal/graphviz"
	"siteplan/site"
)

// A PDF is a book of sheets. A drawing that prints legibly on one sheet
// (every word at least minTextPt) takes one; else the first sheet is an
// overview of as many top levels as fit, and each section whose pages
// go deeper continues on sheets after it, recursively; sections small
// enough share a sheet. A card whose branch moves on says which sheet it
// is on, and so does a cross-link to a page drawn on another sheet
// ("→ Pricing, sheet 3"). Only a drawing too wide to fit even two levels
// (or a radial one) is cut into tiles.

// minTextPt is the smallest text a sheet may print, in points.
const minTextPt = 6.0

// MinTextPt is minTextPt for those who warn of a PDF: the smallest
// words people read on paper, in points.
const MinTextPt = minTextPt

// legible is the smallest scale at which the cards' smallest words print
// at minTextPt: the band's label on a full card, the title (and every
// other word) on a compact one.
func legible(compact bool) float64 {
	if compact {
		return minTextPt / titleSize
	}
	return minTextPt / bandSize
}

// sheet is one page of the PDF: a drawing, or one tile of it.
type sheet struct {
	d        *diagram
	pic      picture
	scale    float64
	col, row int // the tile of the drawing, counted from 0
	cols     int // tiles across; 0 for a drawing on one sheet
	rows     int
	root     *site.Page // the section drawn; nil: the whole drawing
	overview bool       // the top levels only, sections continuing on other sheets
	from     int        // the sheet this section continues from; 0: none
	part     int        // which of the section's runs of children it draws, of parts; 0: all
	parts    int
	// Sections packed onto one sheet (pack): the drawings after this one,
	// and where each drawing's top left is in the sheet's drawing area.
	also []*sheet
	at   point
	// What fit drew, to draw it again with compact cards.
	levels int
	kids   []int64
	cut    map[int64]bool
}

// drawings lists what a sheet prints: its drawing and those packed with it.
func (s *sheet) drawings() []*sheet { return append([]*sheet{s}, s.also...) }

// book plans the sheets of a PDF.
type book struct {
	ctx    context.Context
	t      *site.Tree
	links  []site.Link
	opt    Options
	area   point // a sheet's drawing area, points
	sheets []*sheet
	col    *colouring        // the plan's colours, picked once for every trial drawing
	faces  map[cardFace]card // the cards' faces, measured once for every trial drawing
}

// draw lays out root's branch (0: the whole drawing) to levels (0: all)
// for a sheet: only kids of root's children (nil: all), the pages in cut
// closed. It returns no picture if the cards alone cover more than the
// sheet holds legibly.
func (b *book) draw(root int64, levels int, compact bool, kids []int64, cut map[int64]bool) (*diagram, picture, error) {
	return b.drawIn(b.area, root, levels, compact, kids, cut)
}

// drawIn is draw arranged for an area of the sheet.
func (b *book) drawIn(area point, root int64, levels int, compact bool, kids []int64, cut map[int64]bool) (*diagram, picture, error) {
	o := b.opt
	o.Root, o.Depth, o.compact, o.kids, o.cut, o.refs = root, levels, compact, kids, cut, true
	if b.col == nil {
		col := colouringOf(b.t, b.opt)
		b.col, b.faces = &col, map[cardFace]card{}
	}
	d := newDiagramIn(b.t, b.links, o, *b.col, b.faces)
	d.sheet = &area
	if !b.opt.OneSheet && d.cardArea()*legible(compact)*legible(compact) > area.X*area.Y {
		return d, nil, nil
	}
	pic, _, err := d.picture(b.ctx, false)
	return d, pic, err
}

// cardArea is the area the drawing's cards cover, in square points.
func (d *diagram) cardArea() float64 {
	a := 0.0
	for _, c := range d.cards {
		a += c.w * c.h
	}
	return a
}

// fit draws on one sheet what draw would, if it prints legibly: with
// full cards if they do, else compact ones; nil if neither does.
func (b *book) fit(root int64, levels int, kids []int64, cut map[int64]bool) (*sheet, error) {
	if err := b.ctx.Err(); err != nil {
		return nil, graphviz.TimeoutError()
	}
	for _, compact := range []bool{false, true} {
		d, pic, err := b.draw(root, levels, compact, kids, cut)
		if err != nil {
			return nil, err
		}
		if pic == nil {
			continue
		}
		w, h := pic.size()
		s := fitScale(w, h, b.area.X, b.area.Y)
		if s >= legible(compact)-1e-9 || (b.opt.OneSheet && compact) {
			return &sheet{d: d, pic: pic, scale: s, root: b.t.Page(root), levels: levels, kids: kids, cut: cut}, nil
		}
	}
	return nil, nil
}

// plan plans the sheets of the drawing the options ask for: one if it
// fits, else an overview of as many top levels as fit and the sections
// it cuts, packed; then numbers the cross-links' references.
func (b *book) plan() error {
	if err := b.planSheets(); err != nil {
		return err
	}
	b.pack()
	b.refer()
	return nil
}

// planSheets plans a sheet for each drawing.
func (b *book) planSheets() error {
	root, levels := b.opt.Root, b.opt.Depth
	one, err := b.fit(root, levels, nil, nil)
	if err != nil {
		return err
	}
	if one != nil {
		b.sheets = append(b.sheets, one)
		return nil
	}
	deepest := b.deepest(root, levels)
	if b.opt.Layout == LayoutRadial || deepest <= 2 {
		return b.tile(root, levels, 0)
	}
	for k := deepest - 1; k >= 2; k-- {
		ov, err := b.fit(root, k, nil, nil)
		if err != nil {
			return err
		}
		if ov != nil {
			ov.overview = true
			b.sheets = append(b.sheets, ov)
			return b.sections(ov.d, levels, 1)
		}
	}
	if err := b.tile(root, 2, 0); err != nil { // too wide for two levels
		return err
	}
	for _, s := range b.sheets {
		s.overview = true
	}
	return b.sections(b.sheets[0].d, levels, 1)
}

// deepest is the deepest level a drawing of root's branch (0: the whole
// plan) to levels (0: all) shows, collapsed branches closed.
func (b *book) deepest(root int64, levels int) int {
	deepest := 0
	var walk func(id int64, depth int)
	walk = func(id int64, depth int) {
		deepest = max(deepest, depth)
		if depth != levels && !b.opt.Collapsed[id] {
			for _, k := range b.t.Children(id) {
				walk(k.ID, depth+1)
			}
		}
	}
	if root != 0 {
		walk(root, 1)
		return deepest
	}
	for _, r := range b.t.Children(0) {
		walk(r.ID, 1)
	}
	return deepest
}

// sections plans the sheets of each section of an overview on sheet at
// (a card on its second level) whose branch it cuts, and marks the cut
// cards with the sheet their branch continues on.
func (b *book) sections(ov *diagram, levels, at int) error {
	for _, c := range ov.cards {
		if c.depth != 2 {
			continue
		}
		cut := ov.cut(c)
		if len(cut) == 0 {
			continue
		}
		first := len(b.sheets)
		if err := b.section(c.page.ID, sub(levels), at); err != nil {
			return err
		}
		for _, k := range cut {
			b.sends(k, first)
		}
	}
	return nil
}

// sends marks card c, drawn closed, with the first sheet from index
// first on that draws its children.
func (b *book) sends(c *card, first int) {
	kids := b.t.Children(c.page.ID)
	if len(kids) == 0 {
		return
	}
	for i, sh := range b.sheets[first:] {
		if sh.d.byID[kids[0].ID] != nil {
			c.sheet = first + i + 1
			return
		}
	}
}

// sub is the levels left to a branch one level down.
func sub(levels int) int {
	if levels > 1 {
		return levels - 1
	}
	return 0
}

// section plans the sheets of root's branch, continued from sheet from:
// one sheet if it fits; else its children in runs that fit, a sheet per
// run, each with root's card on top. A child whose branch fits no sheet
// with root's is drawn closed in its run and continues on sheets of its
// own, after the run's.
func (b *book) section(root int64, levels, from int) error {
	one, err := b.fit(root, levels, nil, nil)
	if err != nil {
		return err
	}
	if one != nil {
		one.from = from
		b.sheets = append(b.sheets, one)
		return nil
	}
	first := len(b.sheets)
	var run []int64
	cut := map[int64]bool{}
	var runCut []int64
	flush := func(s *sheet) error { // the run's sheet, then its cut children's
		s.from = from
		b.sheets = append(b.sheets, s)
		at := len(b.sheets)
		for _, id := range runCut {
			first := len(b.sheets)
			if err := b.section(id, sub(levels), at); err != nil {
				return err
			}
			b.sends(s.d.byID[id], first)
		}
		run, runCut = nil, nil
		return nil
	}
	var last *sheet                        // the current run drawn
	for _, k := range b.t.Children(root) { // root is not collapsed: it would have fitted
		s, err := b.fit(root, levels, append(slices.Clone(run), k.ID), cut)
		if err != nil {
			return err
		}
		if s != nil {
			run, last = append(run, k.ID), s
			continue
		}
		if len(run) > 0 {
			if err := flush(last); err != nil {
				return err
			}
		}
		if s, err = b.fit(root, levels, []int64{k.ID}, cut); err != nil {
			return err
		}
		if s == nil { // its branch alone is too much: closed here, continued on
			cut[k.ID] = true
			runCut = append(runCut, k.ID)
			if s, err = b.fit(root, levels, []int64{k.ID}, cut); err != nil {
				return err
			}
			if s == nil { // not even the card fits: should not happen
				return b.tile(root, levels, from)
			}
		}
		run, last = []int64{k.ID}, s
	}
	if len(run) > 0 {
		if err := flush(last); err != nil {
			return err
		}
	}
	var parts []*sheet // the runs' sheets, among their children's
	for _, s := range b.sheets[first:] {
		if s.root != nil && s.root.ID == root {
			parts = append(parts, s)
		}
	}
	for i, s := range parts {
		s.part, s.parts = i+1, len(parts)
	}
	return nil
}

// cut lists the cards in c's branch whose pages go on below them, not
// drawn here because the sheet has no room (not because they are
// collapsed).
func (d *diagram) cut(c *card) []*card {
	var out []*card
	var walk func(c *card)
	walk = func(c *card) {
		kids := d.tree.Children(c.page.ID)
		if c.hidden > 0 && len(kids) > 0 && !d.opt.Collapsed[c.page.ID] {
			out = append(out, c)
			return
		}
		for _, k := range kids {
			if kc := d.byID[k.ID]; kc != nil {
				walk(kc)
			}
		}
	}
	walk(c)
	return out
}

// tile plans root's branch to levels as tiles, printed at the legible
// scale of compact cards.
func (b *book) tile(root int64, levels, from int) error {
	d, pic, err := b.draw(root, levels, true, nil, nil)
	if err == nil && pic == nil { // too big for one sheet: draw it anyway
		pic, _, err = d.picture(b.ctx, false)
	}
	if err != nil {
		return err
	}
	w, h := pic.size()
	s := legible(true)
	cols := max(1, int(math.Ceil(w*s/b.area.X)))
	rows := max(1, int(math.Ceil(h*s/b.area.Y)))
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			b.sheets = append(b.sheets, &sheet{d: d, pic: pic, scale: s, col: c, row: r, cols: cols, rows: rows, root: b.t.Page(root), from: from})
		}
	}
	return nil
}

// trail names a section by its ancestors: "Home › Products › Shoes".
func trail(t *site.Tree, p *site.Page) string {
	var names []string
	for q := p; q != nil; q = t.Page(q.ParentID) {
		names = append(names, q.Title)
	}
	slices.Reverse(names)
	return strings.Join(names, " › ")
}

// sheetGap is the space between drawings packed onto one sheet, in points
// on paper.
const sheetGap = 28.0

// pack puts small sheets together: each sheet that draws a section goes
// onto the sheet before it (a section's or the overview) if that still
// has room for it, in rows at a scale every drawing there prints legibly
// at, with compact cards if that is what makes it fit. The sheets keep
// their order. Then it renumbers what points at sheets.
func (b *book) pack() {
	packable := func(s *sheet) bool { return s.cols == 0 && (s.overview || s.root != nil) }
	var out [][]*sheet
	renum := make([]int, len(b.sheets)) // old index -> new index
	for i, s := range b.sheets {
		renum[i] = len(out)
		if !packable(s) {
			out = append(out, []*sheet{s})
			continue
		}
		if last := len(out) - 1; last >= 0 && packable(out[last][0]) {
			if grown := b.grow(out[last], s); grown != nil {
				out[last], renum[i] = grown, last
				continue
			}
		}
		out = append(out, []*sheet{s})
	}
	for gi, g := range out {
		for _, s := range g {
			if s.from > 0 {
				s.from = renum[s.from-1] + 1
			}
			for _, c := range s.d.cards {
				if c.sheet > 0 {
					c.sheet = renum[c.sheet-1] + 1
					c.sheetHere = c.sheet == gi+1
				}
			}
		}
	}
	b.sheets = b.sheets[:0]
	for _, g := range out {
		if len(g) > 1 {
			scale, _ := b.shelve(g)
			for _, s := range g {
				s.scale = scale
			}
			b.place(g, scale)
			g[0].also = g[1:]
		}
		b.sheets = append(b.sheets, g[0])
	}
}

// An org chart's cards cover at most about three quarters of its
// drawing (the connectors and indents take the rest); compactH is the
// least a compact card is tall.
const (
	maxDensity = 0.8
	compactH   = 2 + compactBandH + cardTop + titleLineH + cardBottom
)

// roomFor reports whether an area might hold so many compact cards
// legibly, arranged as well as can be.
func roomFor(cards int, area point) bool {
	l := legible(true)
	return float64(cards)*cardW*compactH*l*l <= maxDensity*area.X*area.Y
}

// grow returns group with s added if they fit one sheet legibly: as
// drawn, with compact cards, or with compact cards each arranged for a
// share of the sheet (side by side, or in two or three rows); nil if they
// do not.
func (b *book) grow(group []*sheet, s *sheet) []*sheet {
	g := append(slices.Clone(group), s)
	if _, ok := b.shelve(g); ok {
		return g
	}
	cards := 0
	for _, dr := range g {
		cards += len(dr.d.cards)
	}
	if !roomFor(cards, b.area) {
		return nil
	}
	tries := []point{b.area}
	for rows := 1; rows <= min(3, len(g)); rows++ {
		cols := (len(g) + rows - 1) / rows
		tries = append(tries, point{(b.area.X+sheetGap)/float64(cols) - sheetGap, (b.area.Y+sheetGap)/float64(rows) - sheetGap})
	}
next:
	for _, cell := range tries {
		h := make([]*sheet, len(g))
		for i, dr := range g {
			if h[i] = b.redraw(dr, cell); h[i] == nil {
				continue next
			}
		}
		if _, ok := b.shelve(h); ok {
			return h
		}
	}
	return nil
}

// redraw is sheet s drawn with compact cards arranged for an area of the
// sheet, its cards still saying where their branches continue; nil if
// it does not print legibly there.
func (b *book) redraw(s *sheet, area point) *sheet {
	if s.d.opt.compact && s.d.sheet != nil && *s.d.sheet == area {
		return s
	}
	if !roomFor(len(s.d.cards), area) {
		return nil
	}
	root := int64(0)
	if s.root != nil {
		root = s.root.ID
	}
	d, pic, err := b.drawIn(area, root, s.levels, true, s.kids, s.cut)
	if err != nil || pic == nil {
		return nil
	}
	for _, c := range d.cards {
		if old := s.d.byID[c.page.ID]; old != nil {
			c.sheet = old.sheet
		}
	}
	w, h := pic.size()
	c := *s
	c.d, c.pic, c.scale = d, pic, fitScale(w, h, area.X, area.Y)
	if c.scale < legible(true) {
		return nil
	}
	return &c
}

// shelve finds the largest scale, at most each drawing's own, at which
// the drawings fit the sheet in rows; false if they do not at the scale
// the most demanding of them needs to stay legible.
func (b *book) shelve(group []*sheet) (float64, bool) {
	lo, hi := 0.0, maxScale
	for _, g := range group {
		lo, hi = max(lo, legible(g.d.opt.compact)), min(hi, g.scale)
	}
	if lo > hi || !b.fits(group, lo) {
		return 0, false
	}
	for range 20 {
		if mid := (lo + hi) / 2; b.fits(group, mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, true
}

// fits reports whether the drawings fit the sheet in rows at scale s.
func (b *book) fits(group []*sheet, s float64) bool {
	_, h, ok := b.rows(group, s)
	return ok && h <= b.area.Y
}

// rows lays the drawings out in rows across the sheet at scale s, left to
// right and top down, and returns each one's top left and the rows'
// height on paper; false if one is wider than the sheet.
func (b *book) rows(group []*sheet, s float64) ([]point, float64, bool) {
	at := make([]point, len(group))
	x, y, rowH := 0.0, 0.0, 0.0
	for i, g := range group {
		pw, ph := g.pic.size()
		pw, ph = pw*s, ph*s
		if pw > b.area.X {
			return nil, 0, false
		}
		if x > 0 && x+pw > b.area.X {
			x, y, rowH = 0, y+rowH+sheetGap, 0
		}
		at[i] = point{x, y}
		x += pw + sheetGap
		rowH = max(rowH, ph)
	}
	return at, y + rowH, true
}

// place sets where each drawing of a packed sheet goes: in rows, the
// whole centred on the sheet.
func (b *book) place(group []*sheet, s float64) {
	at, h, _ := b.rows(group, s)
	w := 0.0
	for i, g := range group {
		pw, _ := g.pic.size()
		w = max(w, at[i].X+pw*s)
	}
	dx, dy := (b.area.X-w)/2, (b.area.Y-h)/2
	for i, g := range group {
		g.at = point{at[i].X + dx, at[i].Y + dy}
	}
}

// refer numbers each cross-link reference with the first sheet that
// draws its page, or marks it as on its own sheet.
func (b *book) refer() {
	first := map[int64]int{}
	for i, s := range b.sheets {
		for _, dr := range s.drawings() {
			for _, c := range dr.d.cards {
				if _, ok := first[c.page.ID]; !ok {
					first[c.page.ID] = i + 1
				}
			}
		}
	}
	for _, s := range b.sheets {
		for _, dr := range s.drawings() {
			for _, c := range dr.d.cards {
				for k := range c.refs {
					r := &c.refs[k]
					r.sheet = first[r.to.ID]
					for _, other := range s.drawings() {
						r.here = r.here || other.d.byID[r.to.ID] != nil
					}
				}
			}
		}
	}
}
