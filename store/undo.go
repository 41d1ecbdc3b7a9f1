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
func (db *DB) Undo(ctx context.Context, projectID int64) (site.Change, error) {
	return db.flip(ctx, projectID, false)
}

// Redo applies again the change the account in ctx undid last, if it
// has changed nothing since. Errors: EInvalid (nothing to redo),
// EConflict.
func (db *DB) Redo(ctx context.Context, projectID int64) (site.Change, error) {
	return db.flip(ctx, projectID, true)
}

func (db *DB) flip(ctx context.Context, projectID int64, redo bool) (site.Change, error) {
	v := site.ViewerFrom(ctx)
	var ch site.Change
	err := db.tx(ctx, func(tx *sql.Tx) error {
		// Undo takes the newest change still done; what was undone is
		// always newer than what is still done, so redo takes the
		// oldest undone: the one undone last.
		q := `SELECT ` + changeCols + `, c.data FROM changes c WHERE c.project_id = ? AND c.user_id = ? AND c.undoable AND c.state = 'done' ORDER BY c.id DESC LIMIT 1`
		if redo {
			q = `SELECT ` + changeCols + `, c.data FROM changes c WHERE c.project_id = ? AND c.user_id = ? AND c.state = 'undone' ORDER BY c.id LIMIT 1`
		}
		var data string
		var err error
		ch, err = scanChange(scanData{tx.QueryRowContext(ctx, q, projectID, v.UserID), &data})
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
		if err := db.checkURLs(a); err != nil {
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

// scanData scans a change row followed by its data column.
type scanData struct {
	row  *sql.Row
	data *string
}

func (s scanData) Scan(dst ...any) error { return s.row.Scan(append(dst, s.data)...) }

// checkURLs keeps the URL rule after an apply: the pages it placed or
// changed must have URLs no other page has, as they are. Renumbering
// another page to make room would be a change nobody asked for, so a
// clash is a conflict. Errors: EConflict.
func (db *DB) checkURLs(a *applier) error {
	roots := a.claim
	if a.settings {
		roots = []int64{0}
	}
	if len(roots) == 0 {
		return nil
	}
	renamed, err := claimURLs(a.ctx, a.tx, nil, a.projectID, roots)
	if err != nil {
		return site.Errorf(site.EConflict, "%s%s", a.failed, site.ErrorMessage(err))
	}
	for id := range renamed {
		return site.Errorf(site.EConflict, "%s“%s” would share its URL with a page added since; rename one of them first.", a.failed, titleOf(a.ctx, a.tx, id))
	}
	return nil
}

// applier takes a project from one side of a changeData to the other.
type applier struct {
	ctx       context.Context
	tx        *sql.Tx
	projectID int64
	self      int64  // the change being applied (0: a new one), left out when blaming
	failed    string // how a conflict message starts: "Nothing was undone: "
	claim     []int64
	settings  bool
}

// apply takes the pages, links and settings in d from their Before
// states to their After states (forward) or back. Every page, link and
// setting must still be as the other side has it, field by field (a
// position may have shifted); else nothing is applied and the error
// names who changed it since. Pages deleted on the way keep their
// comments in d.Comments, and pages brought back get theirs back.
// Errors: EConflict.
func (a *applier) apply(d *changeData, forward bool) error {
	ctx, tx := a.ctx, a.tx
	expect := func(pd *pageDelta) *pageState {
		if forward {
			return pd.Before
		}
		return pd.After
	}
	target := func(pd *pageDelta) *pageState {
		if forward {
			return pd.After
		}
		return pd.Before
	}
	ids := make([]int64, len(d.Pages))
	for i := range d.Pages {
		ids[i] = d.Pages[i].ID
	}
	incoming := d.Comments // of the pages coming back
	cur, err := loadProjectStates(ctx, tx, a.projectID, ids)
	if err != nil {
		return err
	}
	creating, deleting := map[int64]bool{}, map[int64]bool{}
	for i := range d.Pages {
		pd := &d.Pages[i]
		e, t := expect(pd), target(pd)
		if e == nil && t != nil {
			creating[pd.ID] = true
		}
		if e != nil && t == nil {
			deleting[pd.ID] = true
		}
	}

	// Conflicts first: nothing is written before all is known to fit.
	for i := range d.Pages {
		pd := &d.Pages[i]
		e, t, c := expect(pd), target(pd), cur[pd.ID]
		switch {
		case e == nil && t == nil:
		case e == nil:
			if c != nil {
				return a.conflict(pd.ID, "“"+c.Title+"” is there already")
			}
		case c == nil:
			return a.conflict(pd.ID, "“"+e.Title+"” was deleted")
		case t == nil:
			if !c.same(e) {
				return a.conflict(pd.ID, "“"+c.Title+"” has changed")
			}
		default:
			for _, f := range pageFields {
				if !f.eq(e, t) && !f.eq(c, e) {
					return a.conflict(pd.ID, "“"+c.Title+"” has changed")
				}
			}
		}
		if t != nil && t.Parent != 0 && !creating[t.Parent] {
			if deleting[t.Parent] {
				return a.conflict(t.Parent, "the page above “"+t.Title+"” would be gone")
			}
			if !exists(ctx, tx, a.projectID, t.Parent) {
				return a.conflict(t.Parent, "“"+a.goneTitle(t.Parent)+"” was deleted")
			}
		}
	}
	del := sortedKeys(deleting)
	if len(del) > 0 {
		// A page under one to delete must go too, or be moved out by
		// this apply.
		var child int64
		var title string
		list, _ := json.Marshal(del)
		all, _ := json.Marshal(ids)
		err := tx.QueryRowContext(ctx, `SELECT id, title FROM pages WHERE parent_id IN (SELECT value FROM json_each(?1))
			AND id NOT IN (SELECT value FROM json_each(?2)) LIMIT 1`, string(list), string(all)).Scan(&child, &title)
		if err == nil {
			return a.conflict(child, "“"+title+"” was added under a page this would delete")
		} else if err != sql.ErrNoRows {
			return err
		}
	}
	linkTarget := map[linkKey]bool{}
	for i := range d.Links {
		ld := &d.Links[i]
		k := linkKey{ld.From, ld.To}
		e, t := ld.Before, ld.After
		if !forward {
			e, t = t, e
		}
		linkTarget[k] = t != nil
		_, c, err := linkLabel(ctx, tx, k)
		if err != nil {
			return err
		}
		if (c == nil) != (e == nil) || c != nil && *c != *e {
			if c == nil && (deleting[k.From] || deleting[k.To]) {
				continue // checked with its page
			}
			return a.conflict(k.From, "the link from “"+titleOf(ctx, tx, k.From)+"” to “"+titleOf(ctx, tx, k.To)+"” has changed")
		}
		if t != nil && (!creating[k.From] && !exists(ctx, tx, a.projectID, k.From) || !creating[k.To] && !exists(ctx, tx, a.projectID, k.To)) {
			gone := k.To
			if !creating[k.From] && !exists(ctx, tx, a.projectID, k.From) {
				gone = k.From
			}
			return a.conflict(gone, "a page the link “"+titleOf(ctx, tx, k.From)+"” → … joins was deleted")
		}
	}
	if len(del) > 0 {
		keys, err := linksTouching(ctx, tx, del)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if there, ok := linkTarget[k]; !ok || there {
				return a.conflict(k.From, "“"+titleOf(ctx, tx, k.From)+"” was linked to “"+titleOf(ctx, tx, k.To)+"”")
			}
		}
	}
	if d.Project != nil {
		e := d.Project.Before
		if !forward {
			e = d.Project.After
		}
		p, err := scanProject(tx.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ?`, a.projectID))
		if err != nil {
			return err
		}
		if !projectStateOf(&p).equal(e) {
			return a.conflictProject()
		}
	}

	// Out of their lists: pages leaving or moving, highest position first
	// so each shift sees the positions as they are.
	var leaving []int64
	for i := range d.Pages {
		pd := &d.Pages[i]
		e, t, c := expect(pd), target(pd), cur[pd.ID]
		if c == nil || e == nil {
			continue
		}
		if t == nil && deleting[c.Parent] {
			continue // goes with its parent
		}
		if t == nil || t.Parent != e.Parent || t.Placement != e.Placement || t.Pos != e.Pos {
			leaving = append(leaving, pd.ID)
		}
	}
	slices.SortFunc(leaving, func(x, y int64) int { return cmp.Compare(cur[y].Pos, cur[x].Pos) })
	for _, id := range leaving {
		c := cur[id]
		s := slot{a.projectID, c.Parent, c.Placement, c.Pos}
		if err := s.shift(ctx, tx, c.Pos+1, -1, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE pages SET position = -1 WHERE id = ?`, id); err != nil {
			return err
		}
	}

	// Rows: pages brought back inserted with their ids, parents first;
	// then changed fields set one by one (a page may move under one
	// brought back); then pages deleted (a page may have moved out).
	var placing []int64
	var made []int64
	for i := range d.Pages {
		pd := &d.Pages[i]
		e, t := expect(pd), target(pd)
		if t != nil && e == nil {
			made = append(made, pd.ID)
			if !creating[t.Parent] {
				placing = append(placing, pd.ID)
			}
		}
	}
	if err := a.insert(d, made, target, creating); err != nil {
		return err
	}
	for i := range d.Pages {
		pd := &d.Pages[i]
		e, t, c := expect(pd), target(pd), cur[pd.ID]
		if t == nil {
			continue
		}
		a.claim = append(a.claim, pd.ID)
		if e == nil {
			continue
		}
		m := *c
		for _, f := range pageFields {
			if !f.eq(e, t) {
				f.set(&m, t)
			}
		}
		moved := t.Parent != e.Parent || t.Placement != e.Placement || t.Pos != e.Pos
		pos := c.Pos
		if moved {
			pos = -1
			placing = append(placing, pd.ID)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE pages SET parent_id = ?, placement = ?, position = ?, title = ?, slug = ?, slug_auto = ?,
			path = ?, kind = ?, type = ?, status = ?, assignee = ?, notes = ?, in_sitemap = ?, in_html_sitemap = ?, priority = ?,
			changefreq = ?, lastmod = ?, version = version + 1 WHERE id = ?`,
			nullID(m.Parent), m.Placement, pos, m.Title, m.Slug, m.Auto, m.Path, m.Kind, m.Type, m.Status, m.Assignee, m.Notes,
			m.InSitemap, m.InHTML, nullFloat(m.Priority), m.Changefreq, m.Lastmod, pd.ID); err != nil {
			return err
		}
	}
	if len(del) > 0 {
		kept, err := commentsOf(ctx, tx, del)
		if err != nil {
			return err
		}
		d.Comments = kept // for the way back
		if err := deletePages(ctx, tx, del); err != nil {
			return err
		}
	}
	// Into their lists: each at its old index among the siblings there
	// now, lowest first, so pages that were neighbours are again.
	targets := map[int64]*pageState{}
	for i := range d.Pages {
		targets[d.Pages[i].ID] = target(&d.Pages[i])
	}
	slices.SortStableFunc(placing, func(x, y int64) int { return cmp.Compare(targets[x].Pos, targets[y].Pos) })
	for _, id := range placing {
		t := targets[id]
		if t.Parent != 0 {
			if err := checkNotBelow(ctx, tx, t.Parent, id); err != nil {
				return a.conflict(t.Parent, "“"+titleOf(ctx, tx, t.Parent)+"” was moved below “"+t.Title+"”")
			}
			h, err := branchHeight(ctx, tx, id)
			if err != nil {
				return err
			}
			if err := checkDepth(ctx, tx, t.Parent, h); err != nil {
				return site.Errorf(site.EConflict, "%s%s", a.failed, site.ErrorMessage(err))
			}
		}
		s := slot{a.projectID, t.Parent, t.Placement, 0}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pages WHERE `+siblingsWhere+` AND position >= 0`,
			a.projectID, nullID(t.Parent), t.Placement).Scan(&n); err != nil {
			return err
		}
		pos := min(t.Pos, n)
		if err := s.shift(ctx, tx, pos, 1, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE pages SET position = ? WHERE id = ?`, pos, id); err != nil {
			return err
		}
	}

	for i := range d.Links {
		ld := &d.Links[i]
		t := ld.After
		if !forward {
			t = ld.Before
		}
		var err error
		switch {
		case t == nil:
			_, err = tx.ExecContext(ctx, `DELETE FROM links WHERE from_id = ? AND to_id = ?`, ld.From, ld.To)
		default:
			_, err = tx.ExecContext(ctx, `INSERT INTO links (id, project_id, from_id, to_id, label)
				VALUES ((SELECT CASE WHEN ?1 = 0 OR EXISTS (SELECT 1 FROM links WHERE id = ?1) THEN NULL ELSE ?1 END), ?, ?, ?, ?)
				ON CONFLICT (from_id, to_id) DO UPDATE SET label = excluded.label`, ld.ID, a.projectID, ld.From, ld.To, *t)
		}
		if err != nil {
			return err
		}
	}
	if err := a.restoreComments(incoming, creating); err != nil {
		return err
	}
	if d.Project != nil {
		t := d.Project.After
		if !forward {
			t = d.Project.Before
		}
		if _, err := tx.ExecContext(ctx, `UPDATE projects SET name = ?, base_url = ?, trailing_slash = ?, default_changefreq = ?,
			default_priority = ?, lastmod = ?, sitemap_location = ? WHERE id = ?`,
			t.Name, t.BaseURL, t.TrailingSlash, t.DefaultChangefreq, nullFloat(t.DefaultPriority), t.Lastmod, t.SitemapLocation, a.projectID); err != nil {
			return err
		}
		a.settings = true
	}
	return nil
}

// insert writes the pages in made, parents before children, with their
// ids; a page whose parent comes back with it takes its old position
// at once, the others are placed later (position -1).
func (a *applier) insert(d *changeData, made []int64, target func(*pageDelta) *pageState, creating map[int64]bool) error {
	if len(made) == 0 {
		return nil
	}
	byID := map[int64]*pageState{}
	for i := range d.Pages {
		byID[d.Pages[i].ID] = target(&d.Pages[i])
	}
	stmt, err := a.tx.PrepareContext(a.ctx, `INSERT INTO pages (id, project_id, parent_id, position, title, slug, slug_auto, path, kind,
		placement, type, status, assignee, notes, in_sitemap, in_html_sitemap, priority, changefreq, lastmod)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
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
		if creating[t.Parent] {
			if err := put(t.Parent); err != nil {
				return err
			}
		}
		pos := t.Pos
		if !creating[t.Parent] {
			pos = -1
		}
		_, err := stmt.ExecContext(a.ctx, id, a.projectID, nullID(t.Parent), pos, t.Title, t.Slug, t.Auto, t.Path, t.Kind,
			t.Placement, t.Type, t.Status, t.Assignee, t.Notes, t.InSitemap, t.InHTML, nullFloat(t.Priority), t.Changefreq, t.Lastmod)
		return err
	}
	for _, id := range made {
		if err := put(id); err != nil {
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

// loadProjectStates is loadStates for the pages of one project: a page
// of another project is as good as absent.
func loadProjectStates(ctx context.Context, q querier, projectID int64, ids []int64) (map[int64]*pageState, error) {
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]*pageState, len(ids))
	pages, err := queryPages(ctx, q, false, `SELECT `+pageCols+` FROM pages WHERE id IN (SELECT value FROM json_each(?)) AND project_id = ?`,
		string(list), projectID)
	for i := range pages {
		out[pages[i].ID] = stateOf(&pages[i])
	}
	return out, err
}

// conflict says that what is to be applied has changed since, and who
// changed it last: "Nothing was undone: Bob renamed “Pricing” to
// “Plans” since (“Plans” has changed)."
func (a *applier) conflict(pageID int64, what string) error {
	var author, summary, at, undone, state string
	err := a.tx.QueryRowContext(a.ctx, `SELECT c.author, c.summary, c.at, coalesce(c.undone_at, ''), c.state FROM changes c
		JOIN change_pages p ON p.change_id = c.id
		WHERE p.page_id = ? AND c.id != ? AND c.project_id = ?
		ORDER BY max(c.at, coalesce(c.undone_at, '')) DESC, c.id DESC LIMIT 1`, pageID, a.self, a.projectID).
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
	var title string
	a.tx.QueryRowContext(a.ctx, `SELECT coalesce(json_extract(p.value, '$.before.title'), json_extract(p.value, '$.after.title'))
		FROM change_pages cp JOIN changes c ON c.id = cp.change_id, json_each(c.data, '$.pages') p
		WHERE cp.page_id = ?1 AND json_extract(p.value, '$.id') = ?1 ORDER BY c.id DESC LIMIT 1`, id).Scan(&title)
	return cmp.Or(title, "A page")
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
