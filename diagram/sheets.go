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
// go deeper continues on a sheet of its own, recursively. A card whose
// branch moves on says which sheet it is on. Only a drawing too wide to
// fit even two levels (or a radial one) is cut into tiles.

// minTextPt is the smallest text a sheet may print, in points.
const minTextPt = 6.0

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
}

// book plans the sheets of a PDF.
type book struct {
	ctx    context.Context
	t      *site.Tree
	links  []site.Link
	opt    Options
	area   point // a sheet's drawing area, points
	sheets []*sheet
}

// draw lays out root's branch (0: the whole drawing) to levels (0: all)
// for a sheet: only kids of root's children (nil: all), the pages in cut
// closed. It returns no picture if the cards alone cover more than the
// sheet holds legibly.
func (b *book) draw(root int64, levels int, compact bool, kids []int64, cut map[int64]bool) (*diagram, picture, error) {
	o := b.opt
	o.Root, o.Depth, o.compact, o.kids, o.cut = root, levels, compact, kids, cut
	d := newDiagram(b.t, b.links, o)
	d.sheet = &b.area
	if !b.opt.OneSheet && d.cardArea()*legible(compact)*legible(compact) > b.area.X*b.area.Y {
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
			return &sheet{d: d, pic: pic, scale: s, root: b.t.Page(root)}, nil
		}
	}
	return nil, nil
}

// plan plans the sheets of the drawing the options ask for: one if it
// fits, else an overview of as many top levels as fit and the sections
// it cuts.
func (b *book) plan() error {
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
