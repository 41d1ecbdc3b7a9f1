package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"siteplan/site"
)

const pageCols = `id, project_id, coalesce(parent_id, 0), position, title, slug, slug_auto, path, kind, placement,
	type, status, assignee, notes, in_sitemap, in_html_sitemap, priority, changefreq, lastmod, version, brief, notes_public`

// countCols are the child count, open comment threads and cross-links
// (from or to) of a page, for the queries that show pages in the outline.
const countCols = `, (SELECT count(*) FROM pages c WHERE c.parent_id = pages.id),
	(SELECT count(*) FROM comments m WHERE m.page_id = pages.id AND m.parent_id IS NULL AND m.resolved_at IS NULL),
	(SELECT count(*) FROM links l WHERE l.from_id = pages.id) + (SELECT count(*) FROM links l WHERE l.to_id = pages.id)`

// pageScanner reads the pageCols of rows (and with counts, the
// countCols) into one scratch page it keeps, so a query of many rows does
// not allocate the scan targets again for every row.
type pageScanner struct {
	p     site.Page
	prio  sql.NullFloat64
	brief string
	dst   []any
}

func newPageScanner(counts bool) *pageScanner {
	s := &pageScanner{}
	p := &s.p
	s.dst = []any{&p.ID, &p.ProjectID, &p.ParentID, &p.Position, &p.Title, &p.Slug, &p.SlugAuto, &p.Path,
		&p.Kind, &p.Placement, &p.Type, &p.Status, &p.Assignee, &p.Notes, &p.InSitemap, &p.InHTMLSitemap,
		&s.prio, &p.Changefreq, &p.Lastmod, &p.Version, &s.brief, &p.NotesPublic}
	if counts {
		s.dst = append(s.dst, &p.ChildCount, &p.OpenComments, &p.LinkCount)
	}
	return s
}

func (s *pageScanner) scan(row interface{ Scan(...any) error }) (site.Page, error) {
	s.p, s.prio, s.brief = site.Page{}, sql.NullFloat64{}, ""
	err := row.Scan(s.dst...)
	p := s.p
	if s.prio.Valid {
		v := s.prio.Float64
		p.Priority = &v
	}
	if err == nil {
		err = readBrief(s.brief, &p.Brief)
	}
	return p, err
}

// A brief's column holds its fields one after the other, cut by U+001F,
// its blocks last, each a kind and a note cut by U+001D, cut from the
// next by U+001E (” for an empty brief): a brief's text never holds a
// control character (site.Brief's validation), and reading a plan of
// 10,000 full briefs costs a cut of strings, not a JSON decode of each
// (three times the plan's own reading; docs/benchmarks.md).
const (
	briefField = "\x1f"
	briefBlock = "\x1e"
	briefNote  = "\x1d"
)

// briefText is a brief as its column holds it.
func briefText(b *site.Brief) string {
	if b.Empty() {
		return ""
	}
	var w strings.Builder
	for _, f := range []string{b.SEOTitle, b.MetaDescription, b.H1, b.Keyword, b.Intent, strconv.Itoa(b.WordTarget), b.Owner, b.Due} {
		w.WriteString(f)
		w.WriteString(briefField)
	}
	for i, bl := range b.Blocks {
		if i > 0 {
			w.WriteString(briefBlock)
		}
		w.WriteString(bl.Kind)
		w.WriteString(briefNote)
		w.WriteString(bl.Note)
	}
	return w.String()
}

// readBrief reads a brief's column into b; its strings share the
// column's, its blocks the room b.Blocks has. Errors: a column not
// written by briefText.
func readBrief(s string, b *site.Brief) error {
	blocks := b.Blocks[:0]
	if s == "" {
		*b = site.Brief{Blocks: blocks} // no blocks, their room kept for the next page of a walk
		return nil
	}
	var f [9]string
	for i := range 8 {
		var ok bool
		if f[i], s, ok = strings.Cut(s, briefField); !ok {
			return fmt.Errorf("a brief of %d fields, not 9", i+1)
		}
	}
	n, err := strconv.Atoi(f[5])
	if err != nil {
		return fmt.Errorf("a brief's word target %q: %w", f[5], err)
	}
	*b = site.Brief{SEOTitle: f[0], MetaDescription: f[1], H1: f[2], Keyword: f[3], Intent: f[4], WordTarget: n, Owner: f[6], Due: f[7]}
	if s != "" {
		if blocks == nil {
			blocks = make([]site.Block, 0, strings.Count(s, briefBlock)+1)
		}
		for bl := range strings.SplitSeq(s, briefBlock) {
			kind, note, _ := strings.Cut(bl, briefNote)
			blocks = append(blocks, site.Block{Kind: kind, Note: note})
		}
		b.Blocks = blocks
	}
	return nil
}

// queryPages runs a query of pageCols (with counts, and countCols).
func queryPages(ctx context.Context, q querier, counts bool, query string, args ...any) ([]site.Page, error) {
	return queryPagesSized(ctx, q, counts, 0, query, args...)
}

// queryPagesSized is queryPages expecting about size rows.
// Every page is read in the projection of the viewer in ctx
// (site.ProjectionFrom): a client's request never holds what is the
// agency's.
func queryPagesSized(ctx context.Context, q querier, counts bool, size int, query string, args ...any) ([]site.Page, error) {
	sc, seen := newPageScanner(counts), site.ProjectionFrom(ctx)
	return collectSized(ctx, q, size, func(rows *sql.Rows) (site.Page, error) {
		p, err := sc.scan(rows)
		seen.Page(&p)
		return p, err
	}, query, args...)
}

// Page returns one page, in the projection of the viewer in ctx.
// Errors: ENotFound.
func (db *Pages) Page(ctx context.Context, id int64) (site.Page, error) {
	p, err := newPageScanner(true).scan(db.r.QueryRowContext(ctx, `SELECT `+pageCols+countCols+` FROM pages WHERE id = ?`, id))
	if err != nil {
		return p, notFound(err, "Page %d does not exist.", id)
	}
	site.ProjectionFrom(ctx).Page(&p)
	return p, nil
}

// Tree loads a project with all its pages. Errors: ENotFound.
func (db *Pages) Tree(ctx context.Context, projectID int64) (*site.Tree, error) {
	pr, err := db.parts.Projects.Project(ctx, projectID)
	if err != nil {
		return nil, err
	}
	// Sized for the plan: a 100,000-page plan would otherwise copy its
	// pages again and again as the slice grows.
	pages, err := queryPagesSized(ctx, db.r, false, pr.PageCount, `SELECT `+pageCols+` FROM pages WHERE project_id = ?`, projectID)
	if err != nil {
		return nil, err
	}
	if len(pr.Locales) > 0 {
		if err := readVariants(ctx, db.r, projectID, pages); err != nil {
			return nil, err
		}
	}
	return site.NewTree(pr, pages), nil
}

// Children returns the children of parentID (0: the roots of every
// placement) with their child counts, at most limit of them.
// Errors: none of its own; a database error as it is.
func (db *Pages) Children(ctx context.Context, projectID, parentID int64, limit int) ([]site.Page, error) {
	parent, args := parentIs(parentID)
	return queryPages(ctx, db.r, true, `SELECT `+pageCols+countCols+`
		FROM pages WHERE project_id = ? AND `+parent+` ORDER BY placement, position LIMIT ?`, append(append([]any{projectID}, args...), limit)...)
}

// PagesToDepth returns the pages of a project down to depth (roots are
// 1), each with its child count, so a large tree can be shown collapsed;
// but at most limit pages: it goes as deep as limit allows and says how
// deep that is (0 when not even all the roots fit: then the first limit
// roots). When every page to depth fits, that is depth.
//
// It walks down level by level with ids alone, each step asking for at
// most the pages still allowed plus one, then loads the pages that fit
// with their counts. Neither step reads more than limit+1 pages however
// large the plan (counting a 300,000-page plan to the end took a second).
// Errors: none of its own; a database error as it is.
func (db *Pages) PagesToDepth(ctx context.Context, projectID int64, depth, limit int) ([]site.Page, int, error) {
	ids := func(query string, args ...any) ([]int64, error) {
		return collect(ctx, db.r, scanID, query, args...)
	}
	level, err := ids(`SELECT id FROM pages WHERE project_id = ? AND parent_id IS NULL LIMIT ?`, projectID, limit+1)
	if err != nil {
		return nil, 0, err
	}
	if len(level) > limit {
		roots, err := db.Children(ctx, projectID, 0, limit)
		return roots, 0, err
	}
	all, shown := level, 1
	for ; shown < depth && len(level) > 0; shown++ {
		list, err := json.Marshal(level)
		if err != nil {
			return nil, 0, err
		}
		budget := limit - len(all)
		if level, err = ids(`SELECT id FROM pages WHERE parent_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) LIMIT ?`, string(list), budget+1); err != nil {
			return nil, 0, err
		}
		if len(level) > budget {
			break
		}
		all = append(all, level...)
	}
	if len(level) == 0 { // the plan ends above depth: all of it fits
		shown = depth
	}
	list, err := json.Marshal(all)
	if err != nil {
		return nil, 0, err
	}
	pages, err := queryPages(ctx, db.r, true, `SELECT `+pageCols+countCols+`
		FROM pages WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, string(list))
	return pages, shown, err
}

// DescendantCount returns how many pages are below id.
// Errors: none of its own; a database error as it is.
func (db *Pages) DescendantCount(ctx context.Context, id int64) (int, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `WITH RECURSIVE sub(id) AS (
			SELECT id FROM pages WHERE parent_id = ?
			UNION ALL SELECT c.id FROM pages c JOIN sub ON c.parent_id = sub.id)
		SELECT count(*) FROM sub`, id).Scan(&n)
	return n, err
}

// PageTypes returns the page types a project's pages use, the most used
// first, at most limit of them: what the details form offers as a page
// type is typed, so that a typo does not make a new type.
// Errors: none of its own; a database error as it is.
func (db *Pages) PageTypes(ctx context.Context, projectID int64, limit int) ([]string, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (t string, err error) { return t, rows.Scan(&t) },
		`SELECT type FROM pages WHERE project_id = ? AND type != '' GROUP BY type ORDER BY count(*) DESC, type LIMIT ?`, projectID, limit)
}

func insertPage(ctx context.Context, tx *sql.Tx, p *site.Page) error {
	err := tx.QueryRowContext(ctx, `INSERT INTO pages (project_id, parent_id, position, title, slug, slug_auto, path, kind, placement,
		type, status, assignee, notes, in_sitemap, in_html_sitemap, priority, changefreq, lastmod, brief, notes_public, search_key, search_words)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		p.ProjectID, nullID(p.ParentID), p.Position, p.Title, p.Slug, p.SlugAuto, p.Path, p.Kind, p.Placement,
		p.Type, p.Status, p.Assignee, p.Notes, p.InSitemap, p.InHTMLSitemap, nullFloat(p.Priority), p.Changefreq, p.Lastmod, briefText(&p.Brief), p.NotesPublic,
		site.SearchKey(p.Title), site.SearchWords(p.Title, p.Slug)).Scan(&p.ID)
	p.Version = 1
	return err
}

// siblingsOf is the condition that selects the sibling list of a parent
// (0: the roots) and placement, and its arguments: "parent_id IS NULL"
// or "= ?", each of which both backends find by the siblings index.
func siblingsOf(projectID, parentID int64, placement string) (string, []any) {
	parent, args := parentIs(parentID)
	return `project_id = ? AND ` + parent + ` AND placement = ?`, append(append([]any{projectID}, args...), placement)
}

// parentIs is the condition that a page's parent is parentID (0: none),
// and its arguments.
func parentIs(parentID int64) (string, []any) {
	if parentID == 0 {
		return "parent_id IS NULL", nil
	}
	return "parent_id = ?", []any{parentID}
}

// slot is where a page sits: its sibling list (project, parent, placement)
// and its position in it. Positions in a list are dense from 0.
type slot struct {
	projectID, parentID int64
	placement           string
	position            int
}

func pageSlot(ctx context.Context, tx *sql.Tx, id int64) (slot, error) {
	var s slot
	err := tx.QueryRowContext(ctx, `SELECT project_id, coalesce(parent_id, 0), placement, position FROM pages WHERE id = ?`, id).
		Scan(&s.projectID, &s.parentID, &s.placement, &s.position)
	if err != nil {
		return s, notFound(err, "Page %d does not exist.", id)
	}
	return s, nil
}

// shift adds delta to the positions of the list's pages at or after from,
// except one page: +1 opens a gap at from, -1 closes the gap before from.
func (s slot) shift(ctx context.Context, tx *sql.Tx, from, delta int, except int64) error {
	cond, args := siblingsOf(s.projectID, s.parentID, s.placement)
	_, err := tx.ExecContext(ctx, `UPDATE pages SET position = position + ? WHERE `+cond+` AND position >= ? AND id != ?`,
		append(append([]any{delta}, args...), from, except)...)
	return err
}

// compact numbers the list of s from 0 in the order its pages are in,
// closing gaps and parting pages that share a position (by id).
func (s slot) compact(ctx context.Context, tx *sql.Tx) error {
	cond, args := siblingsOf(s.projectID, s.parentID, s.placement)
	_, err := tx.ExecContext(ctx, `UPDATE pages SET position = r.n
		FROM (SELECT id, row_number() OVER (ORDER BY position, id) - 1 AS n FROM pages WHERE `+cond+`) AS r
		WHERE pages.id = r.id AND pages.position <> r.n`, args...)
	return err
}

// CreatePage inserts p among its siblings at p.Position (clamped; -1 or
// past the end appends), shifting later siblings, and sets p.ID. A derived
// slug that another page's URL has is numbered ("faq-2"). Errors:
// EInvalid (also a typed slug or path another page has, or a page below
// level site.MaxDepth), ENotFound
// (parent).
func (db *Pages) CreatePage(ctx context.Context, p *site.Page) error {
	if p.ParentID != 0 {
		p.Placement = site.PlacementMain
	}
	if err := p.Validate(); err != nil {
		return err
	}
	return db.change(ctx, func(j *journal) error {
		tx := j.tx
		if err := j.inProject(p.ProjectID); err != nil {
			return err
		}
		if err := checkParent(ctx, tx, p.ProjectID, p.ParentID); err != nil {
			return err
		}
		if err := checkDepth(ctx, tx, p.ParentID, 1); err != nil {
			return err
		}
		n, err := siblingCount(ctx, tx, p.ProjectID, p.ParentID, p.Placement)
		if err != nil {
			return err
		}
		if p.Position < 0 || p.Position > n {
			p.Position = n
		}
		if err := (slot{p.ProjectID, p.ParentID, p.Placement, p.Position}).shift(ctx, tx, p.Position, 1, 0); err != nil {
			return err
		}
		if err := startBlocks(ctx, tx, p, ""); err != nil {
			return err
		}
		if err := insertPage(ctx, tx, p); err != nil {
			return err
		}
		j.created(p.ID)
		j.verb, j.pageID = "create", p.ID
		j.summary = "added “" + p.Title + "”" + underWords(ctx, tx, p.ParentID, p.Placement)
		return claimPage(j, p)
	})
}

// claimPage claims the URLs of p and the pages below it, and takes the
// slug p got.
func claimPage(j *journal, p *site.Page) error {
	slugs, err := claimURLs(j.ctx, j.tx, j, p.ProjectID, []int64{p.ID})
	if s, ok := slugs[p.ID]; ok {
		p.Slug = s
	}
	return err
}

func checkParent(ctx context.Context, tx *sql.Tx, projectID, parentID int64) error {
	if parentID == 0 {
		return nil
	}
	var pid int64
	err := tx.QueryRowContext(ctx, `SELECT project_id FROM pages WHERE id = ?`, parentID).Scan(&pid)
	if err == sql.ErrNoRows || (err == nil && pid != projectID) {
		return site.Errorf(site.ENotFound, "The parent page no longer exists.")
	}
	return err
}

func siblingCount(ctx context.Context, tx *sql.Tx, projectID, parentID int64, placement string) (int, error) {
	var n int
	cond, args := siblingsOf(projectID, parentID, placement)
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pages WHERE `+cond, args...).Scan(&n)
	return n, err
}

// UpdatePage saves the editable fields of p if p.Version is still current
// and bumps it. A derived slug follows the title, numbered if another
// page's URL has it. Errors: EInvalid (also a typed slug or path another
// page has), ENotFound, EConflict (someone else saved the page first).
func (db *Pages) UpdatePage(ctx context.Context, p *site.Page) error {
	_, err := db.EditPage(ctx, p)
	return err
}

// EditPage is UpdatePage that also says what the edit did (the page
// before, the URLs it moved, whether the plan was launched), read in the
// edit's transaction. Errors: as UpdatePage's.
func (db *Pages) EditPage(ctx context.Context, p *site.Page) (site.PageEdit, error) {
	var e site.PageEdit
	if err := p.Validate(); err != nil {
		return e, err
	}
	err := db.change(ctx, func(j *journal) error {
		if err := j.inProject(p.ProjectID); err != nil {
			return err
		}
		if err := j.touch(p.ID); err != nil {
			return err
		}
		return j.savePage(p, &e)
	})
	return e, err
}

// Rename changes the title of page id of project projectID (and its
// slug, if derived) if version is current, and says what it did, all in
// one transaction. Errors: EInvalid, ENotFound, EConflict (naming the
// title the page has now).
func (db *Pages) Rename(ctx context.Context, projectID, id int64, title string, version int64) (site.PageEdit, error) {
	var e site.PageEdit
	err := db.change(ctx, func(j *journal) error {
		if err := j.inProject(projectID); err != nil {
			return err
		}
		if err := j.touch(id); err != nil {
			return err
		}
		now := j.pages[id].Before // the page as it is, read once, in the project
		if now == nil {
			return site.Errorf(site.ENotFound, "Page %d does not exist.", id)
		}
		p := now.page(id, projectID)
		p.Title, p.Version = title, version
		if err := p.Validate(); err != nil {
			return err
		}
		if err := j.savePage(&p, &e); site.ErrorCode(err) == site.EConflict {
			return site.Errorf(site.EConflict, "Someone else renamed this page to “%s” meanwhile: rename it again to keep your title.", now.Title)
		} else if err != nil {
			return err
		}
		seen := site.ProjectionFrom(j.ctx)
		seen.Page(&e.Before)
		seen.Page(&e.After)
		return nil
	})
	return e, err
}

// RenamePage is Rename of a page of any project, returning the page.
// Errors: ENotFound.
func (db *Pages) RenamePage(ctx context.Context, id int64, title string, version int64) (site.Page, error) {
	var projectID int64
	if err := db.r.QueryRowContext(ctx, `SELECT project_id FROM pages WHERE id = ?`, id).Scan(&projectID); err != nil {
		return site.Page{}, notFound(err, "Page %d does not exist.", id)
	}
	e, err := db.Rename(ctx, projectID, id, title, version)
	return e.After, err
}

// savePage writes the editable fields of p, checked, if p.Version is
// still current, and fills in e: the step an edit and a rename share.
func (j *journal) savePage(p *site.Page, e *site.PageEdit) error {
	ctx, tx := j.ctx, j.tx
	before := j.pages[p.ID].Before
	if before != nil {
		if err := startBlocks(ctx, tx, p, before.Type); err != nil {
			return err
		}
	}
	res, err := tx.ExecContext(ctx, `UPDATE pages SET title = ?, slug = ?, slug_auto = ?, path = ?, kind = ?, type = ?, status = ?,
		assignee = ?, notes = ?, in_sitemap = ?, in_html_sitemap = ?, priority = ?, changefreq = ?, lastmod = ?, brief = ?, notes_public = ?,
		placement = CASE WHEN parent_id IS NULL THEN ? ELSE 'main' END, search_key = ?, search_words = ?, version = version + 1
		WHERE id = ? AND version = ?`,
		p.Title, p.Slug, p.SlugAuto, p.Path, p.Kind, p.Type, p.Status, p.Assignee, p.Notes, p.InSitemap, p.InHTMLSitemap,
		nullFloat(p.Priority), p.Changefreq, p.Lastmod, briefText(&p.Brief), p.NotesPublic, p.Placement,
		site.SearchKey(p.Title), site.SearchWords(p.Title, p.Slug), p.ID, p.Version)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return staleOrMissing(ctx, tx, "pages", p.ID, "Someone else changed this page while you were editing; it now shows their version. Your changes were not saved.")
	}
	p.Version++
	if err := claimPage(j, p); err != nil {
		return err
	}
	j.verb, j.summary = editWords(before, p)
	j.pageID = p.ID
	e.After = *p
	if before != nil {
		e.Before = before.page(p.ID, p.ProjectID)
		e.Before.Version = p.Version - 1
	}
	return j.urlsMoved(e)
}

// urlsMoved fills in how many URLs an edit moved, and whether the plan
// was launched, when the edit gave the page another URL.
func (j *journal) urlsMoved(e *site.PageEdit) error {
	b, a := e.Before, e.After
	if b.Slug == a.Slug && b.Path == a.Path || b.Kind != site.KindPage && a.Kind != site.KindPage {
		return nil
	}
	return j.countURLs(e)
}

// countURLs fills in an edit that moved its page's path: how many URLs
// it moved (the page's and those below it), and whether the plan was
// launched.
func (j *journal) countURLs(e *site.PageEdit) error {
	// The kind comes along the walk: a join of the walk with pages
	// afterwards is planned by PostgreSQL as a scan of every page.
	if err := j.tx.QueryRowContext(j.ctx, `WITH RECURSIVE sub(id, kind) AS (
			SELECT id, kind FROM pages WHERE id = ? UNION ALL SELECT c.id, c.kind FROM pages c JOIN sub ON c.parent_id = sub.id)
		SELECT count(*) FROM sub WHERE kind = 'page'`, e.After.ID).Scan(&e.URLs); err != nil || e.URLs == 0 {
		return err
	}
	return j.tx.QueryRowContext(j.ctx, `SELECT EXISTS (SELECT 1 FROM launched_urls WHERE project_id = ?)`, j.projectID).Scan(&e.Launched)
}

// MovePage moves a page (with its subtree) to position among the children
// of parentID (0: a root with the given placement), as Move does.
// Errors: as Move's.
func (db *Pages) MovePage(ctx context.Context, id, parentID int64, placement string, position int) error {
	_, err := db.Move(ctx, id, parentID, placement, position)
	return err
}

// Move moves a page (with its subtree) to position among the children
// of parentID (0: a root with the given placement). Positions of both
// sibling lists stay dense. A moved page whose URL another page has is
// numbered if its slug is derived, refused if typed. The edit it returns
// says how many URLs the move changed (the page's and those below it;
// 0 when its path stayed, as a move among the same siblings does) and
// the page's URL before and after. Errors: ENotFound, EInvalid (a page
// cannot move below itself; a URL taken; the plan would grow deeper than
// site.MaxDepth).
func (db *Pages) Move(ctx context.Context, id, parentID int64, placement string, position int) (site.PageEdit, error) {
	var e site.PageEdit
	err := db.change(ctx, func(j *journal) error {
		tx := j.tx
		from, err := pageSlot(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := j.inProject(from.projectID); err != nil {
			return err
		}
		if err := j.touch(id); err != nil {
			return err
		}
		was, err := j.placeOf(id)
		if err != nil {
			return err
		}
		if err := checkParent(ctx, tx, from.projectID, parentID); err != nil {
			return err
		}
		if err := checkNotBelow(ctx, tx, parentID, id); err != nil {
			return err
		}
		height, err := branchHeight(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := checkDepth(ctx, tx, parentID, height); err != nil {
			return err
		}
		if parentID != 0 {
			placement = site.PlacementMain
		} else if placement == "" {
			placement = from.placement
		}
		if !slices.Contains(site.Placements, placement) {
			return site.Errorf(site.EInvalid, "Placement must be one of main, utility, footer.")
		}
		if err := from.shift(ctx, tx, from.position+1, -1, id); err != nil {
			return err
		}
		to := slot{from.projectID, parentID, placement, position}
		n, err := siblingCount(ctx, tx, to.projectID, to.parentID, to.placement)
		if err != nil {
			return err
		}
		if from.parentID != to.parentID || from.placement != to.placement {
			n++ // the page is not yet counted in its new list
		}
		if to.position < 0 || to.position > n-1 {
			to.position = n - 1
		}
		if err := to.shift(ctx, tx, to.position, 1, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE pages SET parent_id = ?, placement = ?, position = ? WHERE id = ?`,
			nullID(to.parentID), to.placement, to.position, id); err != nil {
			return err
		}
		if _, err := claimURLs(ctx, tx, j, to.projectID, []int64{id}); err != nil {
			return err
		}
		j.verb, j.pageID = "move", id
		j.summary = moveWords(ctx, tx, j.pages[id].Before, from, to)
		now, err := j.placeOf(id)
		if err != nil {
			return err
		}
		e.Before, e.After, e.From, e.To = was.page, now.page, was.url, now.url
		if was.path == now.path {
			return nil
		}
		return j.countURLs(&e)
	})
	return e, err
}

// pagePlace is a page with the URL it has (its branch's path, for a page
// without a URL of its own: what its children's URLs extend) and its path.
type pagePlace struct {
	page      site.Page
	url, path string
}

// placeOf reads a page and its ancestors, for its URL and path.
func (j *journal) placeOf(id int64) (pagePlace, error) {
	pr, err := scanProject(j.tx.QueryRowContext(j.ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ?`, j.projectID))
	if err != nil {
		return pagePlace{}, err
	}
	pages, err := queryPages(j.ctx, j.tx, false, `WITH RECURSIVE up(id) AS (
			SELECT CAST(? AS BIGINT) UNION SELECT p.parent_id FROM pages p JOIN up ON p.id = up.id WHERE p.parent_id IS NOT NULL)
		SELECT `+pageCols+` FROM pages WHERE id IN (SELECT id FROM up)`, id) // by the primary key: the page is the project's (Move's inProject)
	if err != nil {
		return pagePlace{}, err
	}
	t := site.NewTree(pr, pages)
	p := t.Page(id)
	if p == nil {
		return pagePlace{}, site.Errorf(site.ENotFound, "Page %d does not exist.", id)
	}
	pl := pagePlace{page: *p, url: t.URL(id), path: t.Path(id)}
	if pl.url == "" {
		pl.url = pl.path
	}
	return pl, nil
}

// checkDepth refuses to put a branch of height levels (a page alone is 1)
// below parentID when the plan would grow deeper than site.MaxDepth.
// Errors: EInvalid.
func checkDepth(ctx context.Context, tx *sql.Tx, parentID int64, height int) error {
	var depth int
	if err := tx.QueryRowContext(ctx, `WITH RECURSIVE up(id, d) AS (
			SELECT CAST(? AS BIGINT), 1 UNION ALL SELECT p.parent_id, d + 1 FROM pages p JOIN up ON p.id = up.id WHERE p.parent_id IS NOT NULL)
		SELECT CASE WHEN ? = 0 THEN 0 ELSE max(d) END FROM up`, parentID, parentID).Scan(&depth); err != nil {
		return err
	}
	if depth+height > site.MaxDepth {
		return site.Errorf(site.EInvalid, "This would make the plan %d levels deep; it may have at most %d. Put these pages higher up.", depth+height, site.MaxDepth)
	}
	return nil
}

// branchHeight is how many levels the branch at id has (a page alone is 1).
func branchHeight(ctx context.Context, tx *sql.Tx, id int64) (int, error) {
	var h int
	err := tx.QueryRowContext(ctx, `WITH RECURSIVE down(id, d) AS (
			SELECT CAST(? AS BIGINT), 1 UNION ALL SELECT c.id, d + 1 FROM pages c JOIN down ON c.parent_id = down.id)
		SELECT max(d) FROM down`, id).Scan(&h)
	return h, err
}

// checkNotBelow refuses a parent that is id itself or one of its descendants.
func checkNotBelow(ctx context.Context, tx *sql.Tx, parentID, id int64) error {
	for cur := parentID; cur != 0; {
		if cur == id {
			return site.Errorf(site.EInvalid, "A page cannot be moved below itself.")
		}
		var next int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(parent_id, 0) FROM pages WHERE id = ?`, cur).Scan(&next); err != nil {
			return err
		}
		cur = next
	}
	return nil
}

// DeletePage deletes a page, its subtree and their links, and returns how
// many pages went. Old URLs redirected into the branch go back to review.
// Errors: ENotFound; EInvalid when the branch has launched URLs (see
// DeletePageTo).
func (db *Pages) DeletePage(ctx context.Context, id int64) (int, error) {
	return db.DeletePageTo(ctx, id, nil)
}

// DeletePageTo is DeletePage saying where the branch's visitors go: gone
// redirects them to a page (site.DecideRedirect), retires the URLs
// (site.DecideRetire), or leaves them for review (site.DecideReopen).
// The old URLs redirected into the branch and, once the plan is launched,
// the branch's launched URLs go there, in the same change. Errors:
// ENotFound; EInvalid (gone nil for a branch with launched URLs, a target
// inside the branch).
func (db *Pages) DeletePageTo(ctx context.Context, id int64, gone *site.Decision) (int, error) {
	if gone != nil {
		if err := gone.Validate(); err != nil {
			return 0, err
		}
	}
	var n int
	err := db.change(ctx, func(j *journal) error {
		tx := j.tx
		j.gone = gone
		at, err := pageSlot(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := j.inProject(at.projectID); err != nil {
			return err
		}
		ids, err := subtreeIDs(ctx, tx, id)
		if err != nil {
			return err
		}
		n = len(ids)
		// What it takes to bring the branch back: its rows, links and
		// comments.
		if err := j.touch(ids...); err != nil {
			return err
		}
		if err := j.touchLinksOf(ids); err != nil {
			return err
		}
		if err := j.keepComments(ids); err != nil {
			return err
		}
		if gone != nil && gone.Verb == site.DecideRedirect && slices.Contains(ids, gone.PageID) {
			return site.Errorf(site.EInvalid, "The page the deleted URLs redirect to cannot be one of the pages deleted.")
		}
		if err := j.retarget(ids, j.pages[id].Before.Title); err != nil {
			return err
		}
		if err := deletePages(ctx, tx, ids); err != nil {
			return err
		}
		if err := at.shift(ctx, tx, at.position+1, -1, id); err != nil {
			return err
		}
		j.verb, j.pageID = "delete", id
		j.summary = "deleted “" + j.pages[id].Before.Title + "”" + belowWords(n-1)
		return nil
	})
	return n, err
}

// DuplicatePage copies a page and its subtree (with the links inside it)
// right after the original and returns the copy's ID. The copy's title gets
// " (copy)" and its slug follows that title; pages in the copy drop their
// path overrides, which are the originals' URLs. Any URL still taken is
// numbered. Errors: ENotFound.
func (db *Pages) DuplicatePage(ctx context.Context, id int64) (int64, error) {
	var newID int64
	err := db.change(ctx, func(j *journal) error {
		tx := j.tx
		pages, err := queryPages(ctx, tx, false, `WITH RECURSIVE sub(id, d) AS (
				SELECT CAST(? AS BIGINT), 0 UNION ALL SELECT c.id, d + 1 FROM pages c JOIN sub ON c.parent_id = sub.id)
			SELECT `+pageCols+` FROM pages JOIN sub USING (id) ORDER BY sub.d, position`, id)
		if err != nil {
			return err
		}
		if len(pages) == 0 {
			return site.Errorf(site.ENotFound, "Page %d does not exist.", id)
		}
		root := pages[0]
		if err := j.inProject(root.ProjectID); err != nil {
			return err
		}
		if err := (slot{root.ProjectID, root.ParentID, root.Placement, root.Position}).shift(ctx, tx, root.Position+1, 1, 0); err != nil {
			return err
		}
		ids := map[int64]int64{}
		for i, p := range pages {
			old := p.ID
			if i == 0 {
				p.Position++
				p.Title = truncate(p.Title+" (copy)", site.MaxTitleLen)
				p.Slug, p.SlugAuto = site.Slugify(p.Title), true
			} else {
				p.ParentID = ids[p.ParentID]
			}
			if p.Kind == site.KindPage {
				p.Path = ""
			}
			if err := insertPage(ctx, tx, &p); err != nil {
				return err
			}
			j.created(p.ID)
			ids[old] = p.ID
		}
		newID = ids[root.ID]
		if _, err := claimURLs(ctx, tx, j, root.ProjectID, []int64{newID}); err != nil {
			return err
		}
		links, err := projectLinks(ctx, tx, root.ProjectID)
		if err != nil {
			return err
		}
		for _, l := range links {
			from, okF := ids[l.FromID]
			to, okT := ids[l.ToID]
			if okF && okT {
				if err := j.touchLinks(linkKey{from, to}); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO links (project_id, from_id, to_id, label) VALUES (?, ?, ?, ?)`,
					root.ProjectID, from, to, l.Label); err != nil {
					return err
				}
			}
		}
		j.verb, j.pageID = "duplicate", newID
		j.summary = "duplicated “" + root.Title + "”" + belowWords(len(pages)-1)
		return nil
	})
	return newID, err
}

// InsertOutline creates the pages of a pasted outline as the last children
// of parentID (0: main roots) and returns their IDs. A slug another page's
// URL has is numbered. Errors: ENotFound, EInvalid (the plan would grow
// deeper than site.MaxDepth).
func (db *Pages) InsertOutline(ctx context.Context, projectID, parentID int64, items []*site.OutlineItem) ([]int64, error) {
	var ids []int64
	err := db.change(ctx, func(j *journal) error {
		tx := j.tx
		if err := j.inProject(projectID); err != nil {
			return err
		}
		if err := checkParent(ctx, tx, projectID, parentID); err != nil {
			return err
		}
		if err := checkDepth(ctx, tx, parentID, site.OutlineHeight(items)); err != nil {
			return err
		}
		start, err := siblingCount(ctx, tx, projectID, parentID, site.PlacementMain)
		if err != nil {
			return err
		}
		var add func(parent int64, list []*site.OutlineItem, first int) error
		add = func(parent int64, list []*site.OutlineItem, first int) error {
			for i, it := range list {
				p := site.NewPage(it.Title)
				p.ProjectID, p.ParentID, p.Position = projectID, parent, first+i
				if err := p.Validate(); err != nil {
					return err
				}
				if err := insertPage(ctx, tx, &p); err != nil {
					return err
				}
				ids = append(ids, p.ID)
				j.created(p.ID)
				if err := add(p.ID, it.Children, 0); err != nil {
					return err
				}
			}
			return nil
		}
		if err := add(parentID, items, start); err != nil {
			return err
		}
		if _, err := claimURLs(ctx, tx, j, projectID, ids); err != nil {
			return err
		}
		j.verb = "paste"
		if len(ids) > 0 {
			j.pageID = ids[0]
		}
		j.summary = "pasted " + pagesWords(len(ids)) + underWords(ctx, tx, parentID, site.PlacementMain)
		return nil
	})
	return ids, err
}

// truncate keeps the first n characters of s.
func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// Ancestors returns the ancestors of a page from its root down.
// The ids first, then their rows: a join of the walk with pages is
// planned by PostgreSQL as a scan of every page.
// Errors: none of its own; a database error as it is.
func (db *Pages) Ancestors(ctx context.Context, id int64) ([]site.Page, error) {
	ids, err := collect(ctx, db.r, scanID, `WITH RECURSIVE up(id, d) AS (
			SELECT parent_id, 1 FROM pages WHERE id = ? AND parent_id IS NOT NULL
			UNION ALL SELECT p.parent_id, d + 1 FROM pages p JOIN up ON p.id = up.id WHERE p.parent_id IS NOT NULL)
		SELECT id FROM up ORDER BY d DESC`, id)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	pages, err := queryPages(ctx, db.r, false, `SELECT `+pageCols+` FROM pages WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, string(list))
	at := make(map[int64]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	slices.SortFunc(pages, func(a, b site.Page) int { return at[a.ID] - at[b.ID] })
	return pages, err
}
