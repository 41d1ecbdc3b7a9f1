package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"siteplan/site"
)

// The change log. Every write to a project runs in db.change, whose
// journal notes the rows the write touches: a page's row before it is
// first touched, and after the write its row again. Only those rows are
// kept (changeData, JSON in changes.data), never a copy of the plan; they
// are what it takes to undo the change, redo it, or say what it did.
//
// Positions are kept for the pages a change placed (created, moved,
// deleted), not for the siblings that shifted to make room: an undo puts
// a page back at its old index among whatever siblings are there then.

// pageState is a page's row as the history keeps it: every column but
// id, project and version.
type pageState struct {
	Parent     int64       `json:"parent,omitempty"`
	Pos        int         `json:"pos"`
	Title      string      `json:"title"`
	Slug       string      `json:"slug,omitempty"`
	Auto       bool        `json:"auto,omitempty"`
	Path       string      `json:"path,omitempty"`
	Kind       string      `json:"kind"`
	Placement  string      `json:"placement"`
	Type       string      `json:"type,omitempty"`
	Status     string      `json:"status"`
	Assignee   string      `json:"assignee,omitempty"`
	Notes      string      `json:"notes,omitempty"`
	Public     bool        `json:"notes_public,omitempty"`
	InSitemap  bool        `json:"sitemap,omitempty"`
	InHTML     bool        `json:"html,omitempty"`
	Priority   *float64    `json:"priority,omitempty"`
	Changefreq string      `json:"changefreq,omitempty"`
	Lastmod    string      `json:"lastmod,omitempty"`
	Brief      *site.Brief `json:"brief,omitempty"`
	// A localized plan's variants of the page, by locale tag.
	Variants map[string]site.Variant `json:"variants,omitempty"`
}

func stateOf(p *site.Page) *pageState {
	s := &pageState{Parent: p.ParentID, Pos: p.Position, Title: p.Title, Slug: p.Slug, Auto: p.SlugAuto, Path: p.Path,
		Kind: p.Kind, Placement: p.Placement, Type: p.Type, Status: p.Status, Assignee: p.Assignee, Notes: p.Notes, Public: p.NotesPublic,
		InSitemap: p.InSitemap, InHTML: p.InHTMLSitemap, Priority: p.Priority, Changefreq: p.Changefreq, Lastmod: p.Lastmod}
	if !p.Brief.Empty() {
		b := p.Brief.Clone()
		s.Brief = &b
	}
	if len(p.Variants) > 0 {
		s.Variants = maps.Clone(p.Variants)
	}
	return s
}

// briefText is the state's brief as its column holds it.
func (s *pageState) briefText() string {
	if s.Brief == nil {
		return ""
	}
	return briefText(s.Brief)
}

// brief is the state's brief (an empty one when it has none).
func (s *pageState) brief() site.Brief {
	if s.Brief == nil {
		return site.Brief{}
	}
	return s.Brief.Clone()
}

// page is the state as a page of projectID with id.
func (s *pageState) page(id, projectID int64) site.Page {
	return site.Page{ID: id, ProjectID: projectID, ParentID: s.Parent, Position: s.Pos, Title: s.Title, Slug: s.Slug,
		SlugAuto: s.Auto, Path: s.Path, Kind: s.Kind, Placement: s.Placement, Type: s.Type, Status: s.Status,
		Assignee: s.Assignee, Notes: s.Notes, NotesPublic: s.Public, InSitemap: s.InSitemap, InHTMLSitemap: s.InHTML, Priority: s.Priority,
		Changefreq: s.Changefreq, Lastmod: s.Lastmod, Version: 1, Brief: s.brief(), Variants: maps.Clone(s.Variants)}
}

// pageFields are the fields of a page state an undo compares and sets one
// by one, so that undoing a rename keeps a status someone set since.
// "place" is the parent and placement (the position is never compared:
// siblings come and go).
var pageFields = []struct {
	name string
	eq   func(a, b *pageState) bool
	set  func(dst, src *pageState)
}{
	{"place", func(a, b *pageState) bool { return a.Parent == b.Parent && a.Placement == b.Placement },
		func(d, s *pageState) { d.Parent, d.Placement, d.Pos = s.Parent, s.Placement, s.Pos }},
	{"title", func(a, b *pageState) bool { return a.Title == b.Title }, func(d, s *pageState) { d.Title = s.Title }},
	{"slug", func(a, b *pageState) bool { return a.Slug == b.Slug && a.Auto == b.Auto },
		func(d, s *pageState) { d.Slug, d.Auto = s.Slug, s.Auto }},
	{"path", func(a, b *pageState) bool { return a.Path == b.Path }, func(d, s *pageState) { d.Path = s.Path }},
	{"kind", func(a, b *pageState) bool { return a.Kind == b.Kind }, func(d, s *pageState) { d.Kind = s.Kind }},
	{"type", func(a, b *pageState) bool { return a.Type == b.Type }, func(d, s *pageState) { d.Type = s.Type }},
	{"status", func(a, b *pageState) bool { return a.Status == b.Status }, func(d, s *pageState) { d.Status = s.Status }},
	{"assignee", func(a, b *pageState) bool { return a.Assignee == b.Assignee }, func(d, s *pageState) { d.Assignee = s.Assignee }},
	{"notes", func(a, b *pageState) bool { return a.Notes == b.Notes && a.Public == b.Public },
		func(d, s *pageState) { d.Notes, d.Public = s.Notes, s.Public }},
	{"sitemap", func(a, b *pageState) bool { return a.InSitemap == b.InSitemap && a.InHTML == b.InHTML },
		func(d, s *pageState) { d.InSitemap, d.InHTML = s.InSitemap, s.InHTML }},
	{"priority", func(a, b *pageState) bool {
		return (a.Priority == nil) == (b.Priority == nil) && (a.Priority == nil || *a.Priority == *b.Priority)
	}, func(d, s *pageState) { d.Priority = s.Priority }},
	{"changefreq", func(a, b *pageState) bool { return a.Changefreq == b.Changefreq }, func(d, s *pageState) { d.Changefreq = s.Changefreq }},
	{"lastmod", func(a, b *pageState) bool { return a.Lastmod == b.Lastmod }, func(d, s *pageState) { d.Lastmod = s.Lastmod }},
	{"brief", func(a, b *pageState) bool { x, y := a.brief(), b.brief(); return x.Equal(&y) }, func(d, s *pageState) { d.Brief = s.Brief }},
	{"translations", func(a, b *pageState) bool { return maps.Equal(a.Variants, b.Variants) }, func(d, s *pageState) { d.Variants = s.Variants }},
}

// same reports whether two states are equal in every field but the
// position.
func (s *pageState) same(o *pageState) bool {
	for _, f := range pageFields {
		if !f.eq(s, o) {
			return false
		}
	}
	return true
}

// pageDelta is one page a change touched; nil: the page did not exist.
type pageDelta struct {
	ID     int64      `json:"id"`
	Before *pageState `json:"before,omitempty"`
	After  *pageState `json:"after,omitempty"`
}

// linkKey names a link by its ends: a project has one link per pair.
type linkKey struct{ From, To int64 }

// linkDelta is one link a change touched: its label before and after
// (nil: no link).
type linkDelta struct {
	ID     int64   `json:"id"` // its id when it was there, kept when it comes back
	From   int64   `json:"from"`
	To     int64   `json:"to"`
	Before *string `json:"before,omitempty"`
	After  *string `json:"after,omitempty"`
}

type projectDelta struct {
	Before site.DocProject `json:"before"`
	After  site.DocProject `json:"after"`
}

// commentRow is a comment on a page a change deleted, kept so that
// bringing the page back brings its conversation back.
type commentRow struct {
	ID         int64  `json:"id"`
	PageID     int64  `json:"page"`
	ParentID   int64  `json:"parent,omitempty"`
	UserID     int64  `json:"user,omitempty"`
	ShareID    int64  `json:"share,omitempty"`
	Author     string `json:"author"`
	Body       string `json:"body"`
	CreatedAt  string `json:"created_at"`
	ResolvedAt string `json:"resolved_at,omitempty"`
	ResolvedBy string `json:"resolved_by,omitempty"`
}

// changeData is what a change did, as changes.data keeps it.
type changeData struct {
	Pages    []pageDelta   `json:"pages,omitempty"`
	Links    []linkDelta   `json:"links,omitempty"`
	Project  *projectDelta `json:"project,omitempty"`
	Comments []commentRow  `json:"comments,omitempty"`
	Olds     []oldDelta    `json:"olds,omitempty"` // the old site's URLs (oldurls.go)
}

// journal notes what one change touches, inside its transaction.
type journal struct {
	ctx       context.Context
	tx        *sql.Tx
	dialect         // on PostgreSQL inProject locks the project
	projectID int64 // set by inProject
	pages     map[int64]*pageDelta
	order     []int64
	links     map[linkKey]*linkDelta
	linkOrder []linkKey
	project   *projectDelta
	comments  []commentRow
	olds      map[int64]*oldDelta
	oldOrder  []int64

	// Set by the write: what the change is, in words.
	verb, summary string
	pageID        int64 // the page it is about
	undoable      bool
	newProject    bool // the change made the project: it stays at version 1
	always        bool // recorded even when it changed no row the history keeps (attaching an old site)
	// gone is what becomes of launched URLs the change deletes (launch.go):
	// nil refuses a deletion of one.
	gone *site.Decision
}

// change runs fn in one write transaction and records what it did as one
// change of the project fn names (j.projectID), by the viewer in ctx, in
// the same transaction. A change that touched nothing is not recorded.
// Either way it bumps the project's version once, and the author's undone changes of
// the project can no longer be redone.
func (db *conn) change(ctx context.Context, fn func(j *journal) error) error {
	return db.projectTx(ctx, func(tx *sql.Tx) error {
		j := &journal{ctx: ctx, tx: tx, dialect: db.dialect, pages: map[int64]*pageDelta{}, links: map[linkKey]*linkDelta{}, olds: map[int64]*oldDelta{}, undoable: true}
		if err := fn(j); err != nil {
			return err
		}
		_, err := db.record(j)
		return err
	})
}

// inProject says which project the change writes. On PostgreSQL, where
// the writes to different projects run side by side (projectTx), it
// waits for the other writes to this one to commit; so it comes before
// the change reads the plan's state, after reading no more than which
// project a page is in, which never changes.
func (j *journal) inProject(id int64) error {
	j.projectID = id
	return j.lockProject(j.ctx, j.tx, id)
}

// touch notes the pages in ids as they are before the change touches
// them (the first time each is touched).
func (j *journal) touch(ids ...int64) error {
	var fresh []int64
	for _, id := range ids {
		if _, ok := j.pages[id]; !ok && id != 0 {
			fresh = append(fresh, id)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	now, err := loadStates(j.ctx, j.tx, j.projectID, fresh)
	if err != nil {
		return err
	}
	for _, id := range fresh {
		j.pages[id] = &pageDelta{ID: id, Before: now[id]}
		j.order = append(j.order, id)
	}
	return nil
}

// created notes a page the change created.
func (j *journal) created(id int64) {
	if _, ok := j.pages[id]; !ok {
		j.pages[id] = &pageDelta{ID: id}
		j.order = append(j.order, id)
	}
}

// touchLinks notes links (by their ends) as they are before the change.
func (j *journal) touchLinks(keys ...linkKey) error {
	for _, k := range keys {
		if _, ok := j.links[k]; ok {
			continue
		}
		id, label, err := linkLabel(j.ctx, j.tx, k)
		if err != nil {
			return err
		}
		j.links[k] = &linkDelta{ID: id, From: k.From, To: k.To, Before: label}
		j.linkOrder = append(j.linkOrder, k)
	}
	return nil
}

// touchLinksOf notes every link from or to the pages in ids.
func (j *journal) touchLinksOf(ids []int64) error {
	keys, err := linksTouching(j.ctx, j.tx, ids)
	if err != nil {
		return err
	}
	return j.touchLinks(keys...)
}

// touchData notes the pages and links d names, before an apply of d.
func (j *journal) touchData(d *changeData) error {
	ids := make([]int64, len(d.Pages))
	for i := range d.Pages {
		ids[i] = d.Pages[i].ID
	}
	if err := j.touch(ids...); err != nil {
		return err
	}
	for _, l := range d.Links {
		if err := j.touchLinks(linkKey{l.From, l.To}); err != nil {
			return err
		}
	}
	olds := make([]int64, len(d.Olds))
	for i := range d.Olds {
		olds[i] = d.Olds[i].ID
	}
	return j.touchOlds(olds)
}

// touchProject notes the project's settings before the change.
func (j *journal) touchProject() error {
	if j.project != nil {
		return nil
	}
	p, err := scanProject(j.tx.QueryRowContext(j.ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ?`, j.projectID))
	if err != nil {
		return notFound(err, "Project %d does not exist.", j.projectID)
	}
	j.project = &projectDelta{Before: site.DocProjectOf(&p)}
	return nil
}

// keepComments notes the comments of pages the change is about to delete.
func (j *journal) keepComments(ids []int64) error {
	rows, err := commentsOf(j.ctx, j.tx, ids)
	j.comments = append(j.comments, rows...)
	return err
}

// record writes the change j noted: the rows after it, who and what. It
// returns the change's id (0 when nothing changed).
func (db *conn) record(j *journal) (int64, error) {
	ctx, tx := j.ctx, j.tx
	if j.projectID == 0 {
		panic("store: a change without a project")
	}
	d := changeData{Comments: j.comments}
	after, err := loadStates(ctx, tx, j.projectID, j.order)
	if err != nil {
		return 0, err
	}
	var ids []int64
	for _, id := range j.order {
		pd := j.pages[id]
		pd.After = after[id]
		if pd.Before == nil && pd.After == nil ||
			pd.Before != nil && pd.After != nil && pd.Before.same(pd.After) && pd.Before.Pos == pd.After.Pos {
			continue
		}
		d.Pages = append(d.Pages, *pd)
		ids = append(ids, id)
	}
	for _, k := range j.linkOrder {
		ld := j.links[k]
		var id int64
		if id, ld.After, err = linkLabel(ctx, tx, k); err != nil {
			return 0, err
		}
		if ld.ID == 0 {
			ld.ID = id
		}
		if (ld.Before == nil) != (ld.After == nil) || ld.Before != nil && *ld.Before != *ld.After {
			d.Links = append(d.Links, *ld)
			ids = append(ids, ld.From, ld.To) // a link is in the history of both its pages
		}
	}
	if j.project != nil {
		p, err := scanProject(tx.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ?`, j.projectID))
		if err != nil {
			return 0, err
		}
		if j.project.After = site.DocProjectOf(&p); !j.project.Before.Equal(j.project.After) {
			d.Project = j.project
		}
	}
	if err := j.launchRedirects(&d); err != nil {
		return 0, err
	}
	if d.Olds, err = j.oldDeltas(); err != nil {
		return 0, err
	}
	// A new project starts at version 1; any other write bumps it once.
	fresh := j.newProject || j.always
	if len(d.Pages)+len(d.Links)+len(d.Olds) == 0 && d.Project == nil && !fresh {
		return 0, touch(ctx, tx, j.projectID)
	}
	data, err := json.Marshal(d)
	if err != nil {
		return 0, err
	}
	v := site.ViewerFrom(ctx)
	author := v.Name
	if author == "" {
		author = "The command line"
	}
	if db.historyInOneStatement() {
		return db.recordPG(j, v.UserID, author, string(data), ids)
	}
	if v.UserID != 0 {
		// A new change of the author's ends what they may redo.
		if _, err := tx.ExecContext(ctx, `UPDATE changes SET state = 'dropped' WHERE project_id = ? AND user_id = ? AND state = 'undone'`,
			j.projectID, v.UserID); err != nil {
			return 0, err
		}
	}
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO changes (project_id, user_id, author, at, verb, summary, page_id, undoable, data)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, j.projectID, nullID(v.UserID), author, fmtTime(db.Now()),
		j.verb, j.summary, j.pageID, j.undoable, string(data)).Scan(&id); err != nil {
		return 0, err
	}
	if err := notePages(ctx, tx, id, ids); err != nil || j.newProject {
		return id, err
	}
	return id, touch(ctx, tx, j.projectID)
}

// recordPG writes a change as record does on SQLite (what the author may
// redo ends, the change with the pages it touched, the project's
// version), but in one statement: on PostgreSQL each statement is a
// round trip, made while the plan's lock is held.
func (db *conn) recordPG(j *journal, userID int64, author, data string, ids []int64) (int64, error) {
	list := []byte("[]")
	if len(ids) > 0 {
		var err error
		if list, err = json.Marshal(ids); err != nil {
			return 0, err
		}
	}
	var id int64
	err := j.tx.QueryRowContext(j.ctx, `WITH
			dropped AS (UPDATE changes SET state = 'dropped' WHERE project_id = ?1 AND user_id = ?2 AND state = 'undone'),
			added AS (INSERT INTO changes (project_id, user_id, author, at, verb, summary, page_id, undoable, data)
				VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) RETURNING id),
			noted AS (INSERT INTO change_pages (page_id, change_id)
				SELECT CAST(value AS BIGINT), added.id FROM added, json_each(?10) ON CONFLICT DO NOTHING),
			touched AS (UPDATE projects SET version = version + 1, updated_at = ?11 WHERE id = ?1 AND ?12 = 0)
		SELECT id FROM added`,
		j.projectID, nullID(userID), author, fmtTime(db.Now()), j.verb, j.summary, j.pageID, j.undoable, data,
		string(list), fmtTime(time.Now()), j.newProject).Scan(&id)
	return id, err
}

// notePages indexes the pages a change touched.
func notePages(ctx context.Context, tx *sql.Tx, changeID int64, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO change_pages (page_id, change_id) SELECT CAST(value AS BIGINT), ? FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`, changeID, string(list))
	return err
}

// loadStates reads the pages in ids as they are now; a page that does
// not exist, or is of another project, is missing from the map.
func loadStates(ctx context.Context, q querier, projectID int64, ids []int64) (map[int64]*pageState, error) {
	out := make(map[int64]*pageState, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	// "+project_id": look the pages up by id; on its own SQLite would
	// walk every page of the project by an index on project_id.
	pages, err := queryPages(ctx, q, false, `SELECT `+pageCols+` FROM pages WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) AND +project_id = ?`,
		string(list), projectID)
	if err != nil {
		return nil, err
	}
	if err := readPagesVariants(ctx, q, pages); err != nil {
		return nil, err
	}
	for i := range pages {
		out[pages[i].ID] = stateOf(&pages[i])
	}
	return out, nil
}

// linkLabel returns the id and label of the link k names (nil: none).
func linkLabel(ctx context.Context, q querier, k linkKey) (int64, *string, error) {
	var id int64
	var label string
	err := q.QueryRowContext(ctx, `SELECT id, label FROM links WHERE from_id = ? AND to_id = ?`, k.From, k.To).Scan(&id, &label)
	if err == sql.ErrNoRows {
		return 0, nil, nil
	}
	return id, &label, err
}

// linksTouching lists the links from or to the pages in ids.
func linksTouching(ctx context.Context, q querier, ids []int64) ([]linkKey, error) {
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	return collect(ctx, q, func(rows *sql.Rows) (linkKey, error) {
		var k linkKey
		return k, rows.Scan(&k.From, &k.To)
	}, `SELECT from_id, to_id FROM links WHERE from_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?1))
		UNION SELECT from_id, to_id FROM links WHERE to_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?1))`, string(list))
}

func commentsOf(ctx context.Context, q querier, pageIDs []int64) ([]commentRow, error) {
	list, err := json.Marshal(pageIDs)
	if err != nil {
		return nil, err
	}
	return collect(ctx, q, func(rows *sql.Rows) (commentRow, error) {
		var c commentRow
		return c, rows.Scan(&c.ID, &c.PageID, &c.ParentID, &c.UserID, &c.ShareID, &c.Author, &c.Body, &c.CreatedAt, &c.ResolvedAt, &c.ResolvedBy)
	}, `SELECT id, page_id, coalesce(parent_id, 0), coalesce(user_id, 0), coalesce(share_link_id, 0), author, body, created_at,
		coalesce(resolved_at, ''), resolved_by FROM comments WHERE page_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) ORDER BY id`, string(list))
}

// subtreeIDs lists id and the pages below it, parents first.
func subtreeIDs(ctx context.Context, q querier, id int64) ([]int64, error) {
	return collect(ctx, q, scanID, `WITH RECURSIVE sub(id, d) AS (SELECT CAST(? AS BIGINT), 0 UNION ALL SELECT c.id, d + 1 FROM pages c JOIN sub ON c.parent_id = sub.id)
		SELECT id FROM sub ORDER BY d`, id)
}

// titleOf is a page's title now ("" if it is gone).
func titleOf(ctx context.Context, q querier, id int64) string {
	var t string
	q.QueryRowContext(ctx, `SELECT title FROM pages WHERE id = ?`, id).Scan(&t)
	return t
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[int64]V) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// deletePages deletes the pages in ids (a branch, whole), with their
// links and comments.
func deletePages(ctx context.Context, tx *sql.Tx, ids []int64) error {
	list, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM pages WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, string(list))
	return err
}

// The words of a change, without its author ("moved “Pricing” under
// “Products”").

// underWords says where a new page went: " under “Products”", or for a
// root outside the main tree " in footer navigation".
func underWords(ctx context.Context, q querier, parentID int64, placement string) string {
	if parentID != 0 {
		return " under “" + titleOf(ctx, q, parentID) + "”"
	}
	if placement != site.PlacementMain {
		return " in " + site.PlacementWords(placement)
	}
	return ""
}

// belowWords is " and the 3 pages below it" (nothing for none).
func belowWords(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return " and the page below it"
	}
	return " and the " + strconv.Itoa(n) + " pages below it"
}

func pagesWords(n int) string { return site.Plural(n, "page", "pages") }

// editWords names an edit of a page: a rename, or the fields changed.
func editWords(before *pageState, p *site.Page) (verb, summary string) {
	after := stateOf(p)
	var fields []string
	for _, f := range pageFields {
		if f.name != "place" && f.name != "title" && !f.eq(before, after) {
			fields = append(fields, f.name)
		}
	}
	renamed := before.Title != p.Title
	switch {
	case renamed && len(fields) == 0 || renamed && len(fields) == 1 && fields[0] == "slug" && p.SlugAuto:
		return "rename", "renamed “" + before.Title + "” to “" + p.Title + "”"
	case renamed:
		return "edit", "renamed “" + before.Title + "” to “" + p.Title + "” and changed its " + strings.Join(fields, ", ")
	case len(fields) == 0:
		return "edit", "saved “" + p.Title + "” unchanged"
	}
	return "edit", "changed the " + strings.Join(fields, ", ") + " of “" + p.Title + "”"
}

// moveWords says where a page went.
func moveWords(ctx context.Context, q querier, before *pageState, from, to slot) string {
	what := "“" + before.Title + "”"
	switch {
	case from.parentID == to.parentID && from.placement == to.placement:
		if to.position < from.position {
			return "moved " + what + " up"
		}
		return "moved " + what + " down"
	case to.parentID != 0:
		return "moved " + what + " under “" + titleOf(ctx, q, to.parentID) + "”"
	}
	return "moved " + what + " to the " + site.PlacementWords(to.placement)
}

// settingsWords names the settings a change of them changed.
func settingsWords(a, b site.DocProject) string {
	var f []string
	add := func(name string, same bool) {
		if !same {
			f = append(f, name)
		}
	}
	add("name", a.Name == b.Name)
	add("base URL", a.BaseURL == b.BaseURL)
	add("trailing slash", a.TrailingSlash == b.TrailingSlash)
	add("default change frequency", a.DefaultChangefreq == b.DefaultChangefreq)
	add("default priority", site.DocProject{DefaultPriority: a.DefaultPriority}.Equal(site.DocProject{DefaultPriority: b.DefaultPriority}))
	add("last modified", a.Lastmod == b.Lastmod)
	add("sitemap location", a.SitemapLocation == b.SitemapLocation)
	if len(f) == 0 {
		return "saved the project settings unchanged"
	}
	return "changed the project's " + strings.Join(f, ", ")
}
