package store

import (
	"context"

	"siteplan/site"
)

// OutlineRows returns at most limit pages of a project's outline in its
// order, from where from says: each page is followed by its children
// when open says so of it (at its depth, roots being 1) and it has any.
// It also returns the lists it left unfinished, innermost first (the
// order in which they end on the page): where each goes on. A page it
// opened but could not show a child of is among them, After 0.
//
// A child's placement is main (a root's says which navigation it is in).
// It reads one list at a time, by the siblings index, at most the rows
// still allowed plus one, so what it costs does not grow with the plan:
// the first rows of a 100,000-page plan's outline read as fast as of a
// 1,000-page one. When from.After is no longer among from's list (moved
// away meanwhile), that list is empty.
// Errors: none of its own; a database error as it is.
func (db *Pages) OutlineRows(ctx context.Context, projectID int64, from site.OutlineFrom, open func(p *site.Page, depth int) bool, limit int) ([]site.Page, []site.OutlineFrom, error) {
	w := rowWalk{db: db, ctx: ctx, project: projectID, open: open, left: limit}
	err := w.list(from)
	return w.pages, w.cut, err
}

type rowWalk struct {
	db      *Pages
	ctx     context.Context
	project int64
	open    func(p *site.Page, depth int) bool
	left    int
	pages   []site.Page
	cut     []site.OutlineFrom
}

// list adds the pages of one list, and below each the lists open, until
// the rows allowed run out; then it notes where the list goes on.
func (w *rowWalk) list(from site.OutlineFrom) error {
	if w.left == 0 {
		w.cut = append(w.cut, from)
		return nil
	}
	where, args := siblingsOf(w.project, from.Parent, from.Placement)
	if from.After != 0 { // its position among the same siblings: moved elsewhere, none
		where += ` AND position > (SELECT position FROM pages WHERE id = ? AND ` + where + `)`
		args = append(append(args, from.After), args...)
	}
	kids, err := queryPages(w.ctx, w.db.r, true, `SELECT `+pageCols+countCols+` FROM pages WHERE `+where+` ORDER BY position LIMIT ?`, append(args, w.left+1)...)
	if err != nil {
		return err
	}
	for i := range kids {
		if w.left == 0 {
			w.cut = append(w.cut, from)
			return nil
		}
		pg := &kids[i]
		w.pages = append(w.pages, *pg)
		w.left--
		from.After = pg.ID
		if pg.ChildCount > 0 && w.open(pg, from.Depth) {
			if err := w.list(site.OutlineFrom{Parent: pg.ID, Placement: site.PlacementMain, Depth: from.Depth + 1}); err != nil {
				return err
			}
		}
	}
	return nil
}
