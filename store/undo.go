package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"time"

	"siteplan/site"
)

const changeCols = `c.id, c.project_id, coalesce(c.user_id, 0), c.author, c.at, c.verb, c.summary, c.page_id, c.state,
	c.undoable, coalesce(c.undone_at, '')`

func scanChange(row interface{ Scan(...any) error }) (site.Change, error) {
	var c site.Change
	var at, undone string
	err := row.Scan(&c.ID, &c.ProjectID, &c.UserID, &c.Author, &at, &c.Verb, &c.Summary, &c.PageID, &c.State, &c.Undoable, &undone)
	c.At, _ = time.Parse(timeFormat, at)
	c.UndoneAt, _ = time.Parse(timeFormat, undone)
	return c, err
}

// Undo reverts the most recent change to the project by the account in
// ctx that is still undoable, and returns it. A field someone else has
// changed since is a conflict: nothing is undone, and the error says who
// changed what. Errors: EInvalid (nothing to undo), EConflict.
func (db *History) Undo(ctx context.Context, projectID int64) (site.Change, error) {
	return db.flip(ctx, projectID, false)
}

// Redo applies again the change the account in ctx undid last, if it
// has changed nothing since. Errors: EInvalid (nothing to redo),
// EConflict.
func (db *History) Redo(ctx context.Context, projectID int64) (site.Change, error) {
	return db.flip(ctx, projectID, true)
}

func (db *conn) flip(ctx context.Context, projectID int64, redo bool) (site.Change, error) {
	v := site.ViewerFrom(ctx)
	var ch site.Change
	err := db.tx(ctx, func(tx *sql.Tx) error {
		// Undo takes the newest change still done; what was undone is
		// always newer than what is still done, so redo takes the
		// oldest undone: the one undone last.
		q := `SELECT ` + changeCols + `, c.data FROM changes c WHERE c.project_id = ? AND c.user_id = ? AND c.undoable = 1 AND c.state = 'done' ORDER BY c.id DESC LIMIT 1`
		if redo {
			q = `SELECT ` + changeCols + `, c.data FROM changes c WHERE c.project_id = ? AND c.user_id = ? AND c.state = 'undone' ORDER BY c.id LIMIT 1`
		}
		var data string
		var err error
		ch, err = scanChange(scanPlus{tx.QueryRowContext(ctx, q, projectID, v.UserID), []any{&data}})
		if err == sql.ErrNoRows {
			if redo {
				return site.Errorf(site.EInvalid, "There is nothing to redo: you have not undone anything since your last change.")
			}
			return site.Errorf(site.EInvalid, "There is nothing of yours to undo in this plan.")
		} else if err != nil {
			return err
		}
		var d changeData
		if err := json.Unmarshal([]byte(data), &d); err != nil {
			return err
		}
		what := "undone"
		if redo {
			what = "redone"
		}
		a := &applier{ctx: ctx, tx: tx, projectID: projectID, self: ch.ID, failed: "Nothing was " + what + ": "}
		if err := a.apply(&d, redo); err != nil {
			return err
		}
		state, undoneAt := site.ChangeUndone, any(fmtTime(db.Now()))
		if redo {
			state, undoneAt = site.ChangeDone, nil
		}
		buf, err := json.Marshal(d) // with the comments the apply kept
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE changes SET state = ?, undone_at = ?, data = ? WHERE id = ?`, state, undoneAt, string(buf), ch.ID); err != nil {
			return err
		}
		ch.State = state
		return touch(ctx, tx, projectID)
	})
	return ch, err
}

// scanPlus scans a row into the destinations it is given, then into
// more: a change or version row followed by its data.
type scanPlus struct {
	row  interface{ Scan(...any) error }
	more []any
}

func (s scanPlus) Scan(dst ...any) error { return s.row.Scan(append(dst, s.more...)...) }

// applier takes a project from one side of a changeData to the other.
type applier struct {
	ctx       context.Context
	tx        *sql.Tx
	projectID int64
	self      int64  // the change being applied (0: a new one), left out when blaming
	failed    string // how a conflict message starts: "Nothing was undone: "
}

// step is one page of an apply: what it must be now (e) and what it
// becomes (t), nil for absent, and what it is now (c).
type step struct {
	id      int64
	e, t, c *pageState
}

// moves reports whether the page stays but changes its parent, area or
// index.
func (s *step) moves() bool {
	return s.e != nil && s.t != nil && (s.t.Parent != s.e.Parent || s.t.Placement != s.e.Placement || s.t.Pos != s.e.Pos)
}

// steps are the pages of an apply, and which of them it brings back and
// which it deletes.
type steps struct {
	list               []*step
	creating, deleting map[int64]bool
}

// sides returns a link's label as an apply expects it and leaves it.
func (ld *linkDelta) sides(forward bool) (e, t *string) {
	if forward {
		return ld.Before, ld.After
	}
	return ld.After, ld.Before
}

// apply takes the pages, links and settings in d from their Before
// states to their After states (forward) or back. Every page, link and
// setting must still be as the other side has it, field by field (a
// position may have shifted); else nothing is applied and the error
// names who changed it since. Pages deleted on the way keep their
// comments in d.Comments, and pages brought back get theirs back. The
// pages it places or changes must have URLs no other page has, as they
// are: renumbering another page to make room would be a change nobody
// asked for. Errors: EConflict.
func (a *applier) apply(d *changeData, forward bool) error {
	incoming := d.Comments // of the pages coming back
	st, err := a.steps(d, forward)
	if err != nil {
		return err
	}
	if err := a.check(d, forward, st); err != nil {
		return err
	}
	if err := a.checkOlds(d, forward); err != nil {
		return err
	}
	if err := a.write(d, forward, st); err != nil {
		return err
	}
	if err := a.applyOlds(d, forward); err != nil {
		return err
	}
	if err := a.restoreComments(incoming, st.creating); err != nil {
		return err
	}
	var claim []int64
	for _, s := range st.list {
		if s.t != nil {
			claim = append(claim, s.id)
		}
	}
	if d.Project != nil {
		claim = []int64{0}
	}
	if len(claim) == 0 {
		return nil
	}
	renamed, err := claimURLs(a.ctx, a.tx, nil, a.projectID, claim)
	if err != nil {
		return site.Errorf(site.EConflict, "%s%s", a.failed, site.ErrorMessage(err))
	}
	for id := range renamed {
		return site.Errorf(site.EConflict, "%s“%s” would share its URL with a page added since; rename one of them first.", a.failed, titleOf(a.ctx, a.tx, id))
	}
	return nil
}

// steps reads the pages of d as they are now.
func (a *applier) steps(d *changeData, forward bool) (*steps, error) {
	ids := make([]int64, len(d.Pages))
	for i := range d.Pages {
		ids[i] = d.Pages[i].ID
	}
	cur, err := loadStates(a.ctx, a.tx, a.projectID, ids)
	if err != nil {
		return nil, err
	}
	st := &steps{creating: map[int64]bool{}, deleting: map[int64]bool{}}
	for i := range d.Pages {
		pd := &d.Pages[i]
		s := &step{id: pd.ID, e: pd.Before, t: pd.After, c: cur[pd.ID]}
		if !forward {
			s.e, s.t = s.t, s.e
		}
		st.list = append(st.list, s)
		switch {
		case s.e == nil:
			st.creating[s.id] = true
		case s.t == nil:
			st.deleting[s.id] = true
		}
	}
	return st, nil
}

// check finds the first conflict before anything is written: a page,
// link or setting no longer as the apply expects it, a parent gone, a
// page added under one to delete, a link added to one.
func (a *applier) check(d *changeData, forward bool, st *steps) error {
	if err := a.checkPages(st); err != nil {
		return err
	}
	del := sortedKeys(st.deleting)
	if err := a.checkNoneAdded(st, del); err != nil {
		return err
	}
	if err := a.checkLinks(d, forward, st, del); err != nil {
		return err
	}
	return a.checkProject(d, forward)
}

// checkPages finds a page not as the apply expects it, or its parent
// gone.
func (a *applier) checkPages(st *steps) error {
	for _, s := range st.list {
		e, t, c := s.e, s.t, s.c
		switch {
		case e == nil:
			if c != nil {
				return a.conflict(s.id, "“"+c.Title+"” is there already")
			}
		case c == nil:
			return a.conflict(s.id, "“"+e.Title+"” was deleted")
		case t == nil:
			if !c.same(e) {
				return a.conflict(s.id, "“"+c.Title+"” has changed")
			}
		default:
			for _, f := range pageFields {
				if !f.eq(e, t) && !f.eq(c, e) {
					return a.conflict(s.id, "“"+c.Title+"” has changed")
				}
			}
		}
		if t != nil && t.Parent != 0 && !st.creating[t.Parent] {
			if st.deleting[t.Parent] {
				return a.conflict(t.Parent, "the page above “"+t.Title+"” would be gone")
			}
			if !exists(a.ctx, a.tx, a.projectID, t.Parent) {
				return a.conflict(t.Parent, "“"+a.goneTitle(t.Parent)+"” was deleted")
			}
		}
	}
	return nil
}

// checkNoneAdded finds a page under one to delete that the apply does
// not delete or move out too.
func (a *applier) checkNoneAdded(st *steps, del []int64) error {
	if len(del) == 0 {
		return nil
	}
	var child int64
	var title string
	list, _ := json.Marshal(del)
	ids := make([]int64, len(st.list))
	for i, s := range st.list {
		ids[i] = s.id
	}
	all, _ := json.Marshal(ids)
	err := a.tx.QueryRowContext(a.ctx, `SELECT id, title FROM pages WHERE parent_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?1))
		AND id NOT IN (SELECT CAST(value AS BIGINT) FROM json_each(?2)) LIMIT 1`, string(list), string(all)).Scan(&child, &title)
	switch {
	case err == nil:
		return a.conflict(child, "“"+title+"” was added under a page this would delete")
	case err != sql.ErrNoRows:
		return err
	}
	return nil
}

// checkLinks finds a link not as the apply expects it, one whose end is
// gone, or one added to a page to delete.
func (a *applier) checkLinks(d *changeData, forward bool, st *steps, del []int64) error {
	ctx, tx := a.ctx, a.tx
	there := func(id int64) bool { return st.creating[id] || exists(ctx, tx, a.projectID, id) }
	linkTarget := map[linkKey]bool{}
	for i := range d.Links {
		ld := &d.Links[i]
		k := linkKey{ld.From, ld.To}
		e, t := ld.sides(forward)
		linkTarget[k] = t != nil
		_, c, err := linkLabel(ctx, tx, k)
		if err != nil {
			return err
		}
		if (c == nil) != (e == nil) || c != nil && *c != *e {
			if c == nil && (st.deleting[k.From] || st.deleting[k.To]) {
				continue // checked with its page
			}
			return a.conflict(k.From, "the link from “"+titleOf(ctx, tx, k.From)+"” to “"+titleOf(ctx, tx, k.To)+"” has changed")
		}
		if t == nil {
			continue
		}
		for _, end := range []int64{k.From, k.To} {
			if !there(end) {
				return a.conflict(end, "a page the link “"+titleOf(ctx, tx, k.From)+"” → … joins was deleted")
			}
		}
	}
	if len(del) == 0 {
		return nil
	}
	keys, err := linksTouching(ctx, tx, del)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if kept, ok := linkTarget[k]; !ok || kept {
			return a.conflict(k.From, "“"+titleOf(ctx, tx, k.From)+"” was linked to “"+titleOf(ctx, tx, k.To)+"”")
		}
	}
	return nil
}

// checkProject finds the project's settings not as the apply expects
// them.
func (a *applier) checkProject(d *changeData, forward bool) error {
	if d.Project == nil {
		return nil
	}
	e := d.Project.Before
	if !forward {
		e = d.Project.After
	}
	p, err := scanProject(a.tx.QueryRowContext(a.ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ?`, a.projectID))
	if err != nil {
		return err
	}
	if !site.DocProjectOf(&p).Equal(e) {
		return a.conflictProject()
	}
	return nil
}

// write applies what check let through. Pages leave their lists first;
// pages brought back are inserted with their ids, parents first; then
// changed fields are set one by one (a page may move under one brought
// back); then pages are deleted (a page may have moved out of them); then
// the pages placed anew take their old index among the siblings there
// now; then links and settings.
func (a *applier) write(d *changeData, forward bool, st *steps) error {
	if err := a.leaveLists(st); err != nil {
		return err
	}
	var placing, made []*step
	for _, s := range st.list {
		if s.e == nil {
			made = append(made, s)
			if !st.creating[s.t.Parent] {
				placing = append(placing, s)
			}
		}
	}
	if err := a.insert(st, made); err != nil {
		return err
	}
	moved, err := a.setFields(st)
	if err != nil {
		return err
	}
	placing = append(placing, moved...)
	if del := sortedKeys(st.deleting); len(del) > 0 {
		kept, err := commentsOf(a.ctx, a.tx, del)
		if err != nil {
			return err
		}
		d.Comments = kept // for the way back
		if err := deletePages(a.ctx, a.tx, del); err != nil {
			return err
		}
	}
	if err := a.enterLists(st, placing); err != nil {
		return err
	}
	if err := a.writeLinks(d, forward); err != nil {
		return err
	}
	return a.writeProject(d, forward)
}

// leaveLists takes the pages that move or go out of their lists,
// highest position first so each shift sees the positions as they are.
func (a *applier) leaveLists(st *steps) error {
	var leaving []*step
	for _, s := range st.list {
		if s.c != nil && s.e != nil && (s.t == nil && !st.deleting[s.c.Parent] || s.moves()) {
			leaving = append(leaving, s)
		}
	}
	slices.SortFunc(leaving, func(x, y *step) int { return cmp.Compare(y.c.Pos, x.c.Pos) })
	for _, s := range leaving {
		c := s.c
		if err := (slot{a.projectID, c.Parent, c.Placement, c.Pos}).shift(a.ctx, a.tx, c.Pos+1, -1, s.id); err != nil {
			return err
		}
		if _, err := a.tx.ExecContext(a.ctx, `UPDATE pages SET position = -1 WHERE id = ?`, s.id); err != nil {
			return err
		}
	}
	return nil
}

// setFields sets the changed fields of the pages that stay, and returns
// those that moved: they wait at position -1 to be placed.
func (a *applier) setFields(st *steps) (moved []*step, err error) {
	for _, s := range st.list {
		e, t, c := s.e, s.t, s.c
		if e == nil || t == nil {
			continue
		}
		m := *c
		for _, f := range pageFields {
			if !f.eq(e, t) {
				f.set(&m, t)
			}
		}
		var pos any // a page that stays keeps its place as the pages leaving left it, not c.Pos read before they left
		if s.moves() {
			pos = -1
			moved = append(moved, s)
		}
		if _, err := a.tx.ExecContext(a.ctx, `UPDATE pages SET parent_id = ?, placement = ?, position = coalesce(?, position), title = ?, slug = ?, slug_auto = ?,
			path = ?, kind = ?, type = ?, status = ?, assignee = ?, notes = ?, in_sitemap = ?, in_html_sitemap = ?, priority = ?,
			changefreq = ?, lastmod = ?, brief = ?, notes_public = ?, search_key = ?, search_words = ?, version = version + 1 WHERE id = ?`,
			nullID(m.Parent), m.Placement, pos, m.Title, m.Slug, m.Auto, m.Path, m.Kind, m.Type, m.Status, m.Assignee, m.Notes,
			m.InSitemap, m.InHTML, nullFloat(m.Priority), m.Changefreq, m.Lastmod, m.briefText(), m.Public,
			site.SearchKey(m.Title), site.SearchWords(m.Title, m.Slug), s.id); err != nil {
			return nil, err
		}
		if err := writeVariants(a.ctx, a.tx, a.projectID, s.id, m.Variants); err != nil {
			return nil, err
		}
	}
	return moved, nil
}

// enterLists puts the pages placed anew into their lists, lowest index
// first, so pages that were neighbours are again. Pages brought back
// under a page brought back took their old index at once, and pages
// placed among them since shifted them on: the gaps are closed, in
// order, in every list the apply touched.
func (a *applier) enterLists(st *steps, placing []*step) error {
	slices.SortStableFunc(placing, func(x, y *step) int { return cmp.Compare(x.t.Pos, y.t.Pos) })
	for _, s := range placing {
		if err := a.place(s); err != nil {
			return err
		}
	}
	lists := map[slot]bool{}
	for _, s := range st.list {
		for _, ps := range []*pageState{s.e, s.t, s.c} {
			if ps != nil {
				lists[slot{projectID: a.projectID, parentID: ps.Parent, placement: ps.Placement}] = true
			}
		}
	}
	for l := range lists {
		if !st.deleting[l.parentID] {
			if err := l.compact(a.ctx, a.tx); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeLinks gives the links of the change their side of the apply.
func (a *applier) writeLinks(d *changeData, forward bool) error {
	for i := range d.Links {
		ld := &d.Links[i]
		_, t := ld.sides(forward)
		var err error
		switch {
		case t == nil:
			_, err = a.tx.ExecContext(a.ctx, `DELETE FROM links WHERE from_id = ? AND to_id = ?`, ld.From, ld.To)
		case ld.ID == 0: // a link never made yet (a proposal's)
			_, err = a.tx.ExecContext(a.ctx, `INSERT INTO links (project_id, from_id, to_id, label) VALUES (?, ?, ?, ?)
				ON CONFLICT (from_id, to_id) DO UPDATE SET label = excluded.label`, a.projectID, ld.From, ld.To, *t)
		default:
			_, err = a.tx.ExecContext(a.ctx, `INSERT INTO links (id, project_id, from_id, to_id, label)
				VALUES ((SELECT CASE WHEN ?1 = 0 OR EXISTS (SELECT 1 FROM links WHERE id = ?1) THEN NULL ELSE ?1 END), ?, ?, ?, ?)
				ON CONFLICT (from_id, to_id) DO UPDATE SET label = excluded.label`, ld.ID, a.projectID, ld.From, ld.To, *t)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeProject gives the project's settings their side of the apply.
func (a *applier) writeProject(d *changeData, forward bool) error {
	if d.Project == nil {
		return nil
	}
	t := d.Project.After
	if !forward {
		t = d.Project.Before
	}
	pr := t.ToProject()
	_, err := a.tx.ExecContext(a.ctx, `UPDATE projects SET name = ?, base_url = ?, trailing_slash = ?, default_changefreq = ?,
		default_priority = ?, lastmod = ?, sitemap_location = ?, locales = ?, x_default = ? WHERE id = ?`,
		t.Name, t.BaseURL, t.TrailingSlash, t.DefaultChangefreq, nullFloat(t.DefaultPriority), t.Lastmod, t.SitemapLocation,
		localesText(pr.Locales), nullID(site.PageKeyID(t.XDefault)), a.projectID)
	return err
}

// place puts a page waiting at position -1 at its old index among the
// siblings of its list now (the end, if there are fewer), refusing a
// parent that was moved below it since or a plan grown too deep.
func (a *applier) place(s *step) error {
	ctx, tx, t := a.ctx, a.tx, s.t
	if t.Parent != 0 {
		if err := checkNotBelow(ctx, tx, t.Parent, s.id); err != nil {
			return a.conflict(t.Parent, "“"+titleOf(ctx, tx, t.Parent)+"” was moved below “"+t.Title+"”")
		}
		h, err := branchHeight(ctx, tx, s.id)
		if err != nil {
			return err
		}
		if err := checkDepth(ctx, tx, t.Parent, h); err != nil {
			return site.Errorf(site.EConflict, "%s%s", a.failed, site.ErrorMessage(err))
		}
	}
	var n int
	cond, args := siblingsOf(a.projectID, t.Parent, t.Placement)
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pages WHERE `+cond+` AND position >= 0`, args...).Scan(&n); err != nil {
		return err
	}
	pos := min(t.Pos, n)
	if err := (slot{a.projectID, t.Parent, t.Placement, 0}).shift(ctx, tx, pos, 1, s.id); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE pages SET position = ? WHERE id = ?`, pos, s.id)
	return err
}

// insert writes the pages in made, parents before children, with their
// ids; a page whose parent comes back with it takes its old position
// at once, the others are placed later (position -1).
func (a *applier) insert(st *steps, made []*step) error {
	if len(made) == 0 {
		return nil
	}
	byID := make(map[int64]*pageState, len(made))
	for _, s := range made {
		byID[s.id] = s.t
	}
	stmt, err := a.tx.PrepareContext(a.ctx, `INSERT INTO pages (id, project_id, parent_id, position, title, slug, slug_auto, path, kind,
		placement, type, status, assignee, notes, in_sitemap, in_html_sitemap, priority, changefreq, lastmod, brief, notes_public,
		search_key, search_words)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	done := map[int64]bool{}
	var put func(id int64) error
	put = func(id int64) error {
		if done[id] {
			return nil
		}
		done[id] = true
		t := byID[id]
		pos := -1
		if st.creating[t.Parent] {
			if err := put(t.Parent); err != nil {
				return err
			}
			pos = t.Pos
		}
		_, err := stmt.ExecContext(a.ctx, id, a.projectID, nullID(t.Parent), pos, t.Title, t.Slug, t.Auto, t.Path, t.Kind,
			t.Placement, t.Type, t.Status, t.Assignee, t.Notes, t.InSitemap, t.InHTML, nullFloat(t.Priority), t.Changefreq, t.Lastmod, t.briefText(), t.Public,
			site.SearchKey(t.Title), site.SearchWords(t.Title, t.Slug))
		if err != nil {
			return err
		}
		return writeVariants(a.ctx, a.tx, a.projectID, id, t.Variants)
	}
	for _, s := range made {
		if err := put(s.id); err != nil {
			return err
		}
	}
	return nil
}

// restoreComments brings back the comments of the pages an apply
// created, under their old ids where those are free.
func (a *applier) restoreComments(comments []commentRow, creating map[int64]bool) error {
	ids := map[int64]int64{}
	for _, c := range comments {
		if !creating[c.PageID] {
			continue
		}
		var id int64
		err := a.tx.QueryRowContext(a.ctx, `INSERT INTO comments (id, project_id, page_id, parent_id, user_id, share_link_id, author, body,
			created_at, resolved_at, resolved_by)
			VALUES ((SELECT CASE WHEN EXISTS (SELECT 1 FROM comments WHERE id = ?1) THEN NULL ELSE ?1 END), ?, ?, ?,
				(SELECT id FROM users WHERE id = ?), (SELECT id FROM share_links WHERE id = ?), ?, ?, ?, ?, ?) RETURNING id`,
			c.ID, a.projectID, c.PageID, nullID(ids[c.ParentID]), c.UserID, c.ShareID, c.Author, c.Body, c.CreatedAt,
			nullString(c.ResolvedAt), c.ResolvedBy).Scan(&id)
		if err != nil {
			return err
		}
		ids[c.ID] = id
	}
	return nil
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// exists reports whether a page of the project is there now.
func exists(ctx context.Context, q querier, projectID, id int64) bool {
	var n int
	q.QueryRowContext(ctx, `SELECT count(*) FROM pages WHERE id = ? AND project_id = ?`, id, projectID).Scan(&n)
	return n > 0
}

// conflict says that what is to be applied has changed since, and who
// changed it last: "Nothing was undone: Bob renamed “Pricing” to
// “Plans” since (“Plans” has changed)."
func (a *applier) conflict(pageID int64, what string) error {
	var author, summary, at, undone, state string
	err := a.tx.QueryRowContext(a.ctx, `SELECT c.author, c.summary, c.at, coalesce(c.undone_at, ''), c.state FROM changes c
		JOIN change_pages p ON p.change_id = c.id
		WHERE p.page_id = ? AND c.id != ? AND c.project_id = ?
		ORDER BY CASE WHEN c.undone_at > c.at THEN c.undone_at ELSE c.at END DESC, c.id DESC LIMIT 1`, pageID, a.self, a.projectID).
		Scan(&author, &summary, &at, &undone, &state)
	if err != nil {
		return site.Errorf(site.EConflict, "%s%s since.", a.failed, what)
	}
	if undone > at {
		return site.Errorf(site.EConflict, "%s%s since: %s undid their change (%s).", a.failed, what, author, summary)
	}
	return site.Errorf(site.EConflict, "%s%s since: %s %s.", a.failed, what, author, summary)
}

// goneTitle is the title a deleted page had, from the change that
// deleted it.
func (a *applier) goneTitle(id int64) string {
	rows, err := a.tx.QueryContext(a.ctx, `SELECT c.data FROM change_pages cp JOIN changes c ON c.id = cp.change_id
		WHERE cp.page_id = ? ORDER BY c.id DESC`, id)
	if err != nil {
		return "A page"
	}
	defer rows.Close()
	for rows.Next() {
		var data []byte
		var d changeData
		if rows.Scan(&data) != nil || json.Unmarshal(data, &d) != nil {
			continue
		}
		for _, p := range d.Pages {
			if p.ID != id {
				continue
			}
			if p.Before != nil && p.Before.Title != "" {
				return p.Before.Title
			}
			if p.After != nil && p.After.Title != "" {
				return p.After.Title
			}
		}
	}
	return "A page"
}

// conflictProject is conflict for the project's settings.
func (a *applier) conflictProject() error {
	var author, summary string
	err := a.tx.QueryRowContext(a.ctx, `SELECT author, summary FROM changes WHERE project_id = ? AND id != ? AND verb = 'settings'
		ORDER BY id DESC LIMIT 1`, a.projectID, a.self).Scan(&author, &summary)
	if err != nil {
		return site.Errorf(site.EConflict, "%sthe project settings have changed since.", a.failed)
	}
	return site.Errorf(site.EConflict, "%sthe project settings have changed since: %s %s.", a.failed, author, summary)
}
