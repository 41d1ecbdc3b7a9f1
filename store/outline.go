package store

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"siteplan/site"
)

// Outline is a project's plan read from the database in outline order as
// it is walked, never held whole: what an export of a large plan reads
// (site.PlanReader). Each walk reads one consistent snapshot.
type Outline struct {
	db      *Store
	ctx     context.Context
	project site.Project
	seen    *site.Projection // the viewer's, applied to every page walked
}

// Outline returns a project's plan to walk. Errors: ENotFound.
func (db *Pages) Outline(ctx context.Context, projectID int64) (site.PlanReader, error) {
	pr, err := db.parts.Projects.Project(ctx, projectID)
	if err != nil {
		return nil, err
	}
	return &Outline{db: db.parts, ctx: ctx, project: pr, seen: site.ProjectionFrom(ctx)}, nil
}

// Project is the plan's project.
// Errors: none of its own; a database error as it is.
func (o *Outline) Project() site.Project { return o.project }

// Tree is the plan whole, with its variants, as the viewer sees it: what
// a localized plan's export reads. Errors: ENotFound.
func (o *Outline) Tree() (*site.Tree, error) {
	t, err := o.db.Pages.Tree(o.ctx, o.project.ID)
	if err != nil {
		return nil, err
	}
	o.seen.Tree(t)
	return t, nil
}

// outlineCols are what a walk reads of a page, in as few columns as
// can be, since reading a column costs more than working it out: the
// kind, status and the two sitemap switches come as one number (flags),
// and the fields most pages leave empty in one column, NULL when they all
// are; the title, slug and type come as one string. A child's placement
// is its parent's.
func outlineCols(d dialect) string {
	unit, array := d.unitSeparator(), d.jsonArray()
	return `id, title || ` + unit + ` || slug || ` + unit + ` || type,
	in_sitemap | (in_html_sitemap << 1) | (` + caseOf("kind", site.Kinds) + ` << 2) | (` + caseOf("status", site.Statuses) + ` << 5),
	CASE WHEN path = '' AND priority IS NULL AND changefreq = '' AND lastmod = '' AND assignee = '' AND notes = '' THEN NULL
		ELSE CAST(` + array + `(path, priority, changefreq, lastmod, assignee, notes) AS TEXT) END, brief`
}

// caseOf numbers a column's value by its place in values (from 1; 0 for
// one not among them).
func caseOf(col string, values []string) string {
	var b strings.Builder
	b.WriteString("CASE " + col)
	for i, v := range values {
		fmt.Fprintf(&b, " WHEN '%s' THEN %d", v, i+1)
	}
	b.WriteString(" ELSE 0 END")
	return b.String()
}

// fromFlags sets what outlineCols' flags carry.
func fromFlags(p *site.Page, flags int64) {
	p.InSitemap, p.InHTMLSitemap = flags&1 != 0, flags&2 != 0
	if k := int(flags>>2&7) - 1; k >= 0 && k < len(site.Kinds) {
		p.Kind = site.Kinds[k]
	}
	if s := int(flags>>5&7) - 1; s >= 0 && s < len(site.Statuses) {
		p.Status = site.Statuses[s]
	}
}

// Walk calls fn for root (0: every page, main, utility then footer
// navigation) and each page below it in outline order, with its path
// and depth from 1 (site.PlanReader). It queries the children of one page
// at a time, in position order through the siblings index, keeping a
// query open per level: what it holds is the levels above the page and
// the ids of the pages that have children (8 bytes each). It talks to
// the driver itself, under database/sql: a million rows' scanning was a
// tenth of the walk. Errors: ENotFound if root is not a page of the
// plan; fn's error.
func (o *Outline) Walk(root int64, fn func(p *site.Page, path string, depth int) error) error {
	conn, err := o.db.r.Conn(o.ctx)
	if err != nil {
		return translate(err)
	}
	defer conn.Close()
	var walkErr error
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(rawConn)
		if !ok {
			return site.Errorf(site.EInternal, "store: the driver cannot be walked")
		}
		tx, err := c.BeginTx(o.ctx, driver.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		w := &outlineWalk{o: o, c: c, fn: fn}
		defer w.close()
		walkErr = w.walk(root)
		return nil
	})
	if err != nil {
		return translate(err)
	}
	return walkErr
}

// rawConn is what a walk needs of the driver's connection.
type rawConn interface {
	driver.ConnBeginTx
	driver.ConnPrepareContext
}

// outlineWalk is one walk: its connection, inside a read transaction,
// and a statement per level.
type outlineWalk struct {
	o       *Outline
	c       rawConn
	fn      func(p *site.Page, path string, depth int) error
	parents []int64       // the pages with children, by id
	stmts   []driver.Stmt // the children's query of each level
	all     []driver.Stmt // every statement prepared, to close
}

func (w *outlineWalk) close() {
	for _, s := range w.all {
		s.Close()
	}
}

// query runs a query on the walk's connection.
func (w *outlineWalk) query(stmt driver.Stmt, args ...any) (driver.Rows, error) {
	named := make([]driver.NamedValue, len(args))
	for i, a := range args {
		named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return stmt.(driver.StmtQueryContext).QueryContext(w.o.ctx, named)
}

// prepare prepares a statement on the walk's connection.
func (w *outlineWalk) prepare(query string) (driver.Stmt, error) {
	s, err := w.c.PrepareContext(w.o.ctx, query)
	if err == nil {
		w.all = append(w.all, s)
	}
	return s, err
}

// walk reads the pages that have children, then walks from root.
func (w *outlineWalk) walk(root int64) error {
	o := w.o
	s, err := w.prepare(`SELECT DISTINCT parent_id FROM pages WHERE project_id = ? AND parent_id IS NOT NULL ORDER BY parent_id`)
	if err != nil {
		return translate(err)
	}
	rows, err := w.query(s, o.project.ID)
	if err != nil {
		return translate(err)
	}
	row := make([]driver.Value, 1)
	for rows.Next(row) == nil {
		if id, ok := row[0].(int64); ok {
			w.parents = append(w.parents, id)
		}
	}
	rows.Close()
	if root == 0 {
		for _, pl := range site.Placements {
			if err := w.level(`SELECT `+outlineCols(o.db.dialect)+` FROM pages WHERE project_id = ? AND parent_id IS NULL AND placement = ? ORDER BY position`,
				[]any{o.project.ID, pl}, pl, o.project.RootPath(), 1); err != nil {
				return err
			}
		}
		return nil
	}
	// A section: it and its ancestors, up, for its placement (its top
	// ancestor's) and the path its ancestors' slugs make.
	if s, err = w.prepare(`SELECT ` + outlineCols(o.db.dialect) + `, placement, coalesce(parent_id, 0) FROM pages WHERE project_id = ? AND id = ?`); err != nil {
		return translate(err)
	}
	var chain []site.Page
	var placement string
	for id := root; id != 0; {
		rows, err := w.query(s, o.project.ID, id)
		if err != nil {
			return translate(err)
		}
		row := make([]driver.Value, 7)
		err = rows.Next(row)
		rows.Close()
		if err != nil {
			return site.Errorf(site.ENotFound, "Section page %d does not exist in this project.", root)
		}
		p := site.Page{ProjectID: o.project.ID}
		if err := readOutlineRow(row, &p); err != nil {
			return err
		}
		placement, _ = row[5].(string)
		chain = append(chain, p)
		id, _ = row[6].(int64)
	}
	path := o.project.RootPath()
	for i := len(chain) - 1; i > 0; i-- {
		path = o.project.ChildPath(&chain[i], path)
	}
	chain[0].Placement = placement
	return w.emit(&chain[0], path, 1)
}

// readOutlineRow sets what a row of outlineCols says of a page.
func readOutlineRow(row []driver.Value, p *site.Page) error {
	p.ID, _ = row[0].(int64)
	words, _ := row[1].(string)
	// One string, cut in three: titles, slugs and types hold no control
	// characters (site.ValidatePage).
	p.Title, words, _ = strings.Cut(words, "\x1f")
	p.Slug, p.Type, _ = strings.Cut(words, "\x1f")
	flags, _ := row[2].(int64)
	fromFlags(p, flags)
	if extra, ok := row[3].(string); ok {
		var x [6]any
		if err := json.Unmarshal([]byte(extra), &x); err != nil {
			return err
		}
		p.Path, _ = x[0].(string)
		if v, ok := x[1].(float64); ok {
			p.Priority = &v
		}
		p.Changefreq, _ = x[2].(string)
		p.Lastmod, _ = x[3].(string)
		p.Assignee, _ = x[4].(string)
		p.Notes, _ = x[5].(string)
	}
	// The brief apart: cut as its column holds it, not escaped into JSON.
	brief, _ := row[4].(string)
	return readBrief(brief, &p.Brief)
}

// children calls fn for the pages under parent, and theirs.
func (w *outlineWalk) children(parent int64, placement, path string, depth int) error {
	for len(w.stmts) < depth {
		w.stmts = append(w.stmts, nil)
	}
	if w.stmts[depth-1] == nil {
		s, err := w.prepare(`SELECT ` + outlineCols(w.o.db.dialect) + ` FROM pages WHERE project_id = ? AND parent_id = ? ORDER BY placement, position`) // the siblings index's order: no sort
		if err != nil {
			return translate(err)
		}
		w.stmts[depth-1] = s
	}
	rows, err := w.query(w.stmts[depth-1], w.o.project.ID, parent)
	if err != nil {
		return translate(err)
	}
	return w.rows(rows, placement, path, depth)
}

// level calls fn for the pages a query gives, and their branches.
func (w *outlineWalk) level(query string, args []any, placement, path string, depth int) error {
	s, err := w.prepare(query)
	if err != nil {
		return translate(err)
	}
	rows, err := w.query(s, args...)
	if err != nil {
		return translate(err)
	}
	return w.rows(rows, placement, path, depth)
}

// rows reads a level's pages, and walks each one's branch before the
// next page is read.
func (w *outlineWalk) rows(rows driver.Rows, placement, parent string, depth int) error {
	next := rows.Next
	if w.o.db.oneQueryAtATime() {
		// pgx reads one query at a time on a connection: a level is read
		// whole before its branches are walked.
		var level [][5]driver.Value
		var row [5]driver.Value
		for {
			err := rows.Next(row[:])
			if err == io.EOF {
				break
			}
			if err != nil {
				rows.Close()
				return translate(err)
			}
			level = append(level, row)
		}
		rows.Close()
		next = func(row []driver.Value) error {
			if len(level) == 0 {
				return io.EOF
			}
			copy(row, level[0][:])
			level = level[1:]
			return nil
		}
	} else {
		defer rows.Close()
	}
	row := make([]driver.Value, 5)
	var p site.Page
	for {
		switch err := next(row); err {
		case nil:
		case io.EOF:
			return nil
		default:
			return translate(err)
		}
		blocks := p.Brief.Blocks[:0] // the page is fn's only during its call: its blocks' room is used again
		p = site.Page{ProjectID: w.o.project.ID, Placement: placement}
		p.Brief.Blocks = blocks
		if err := readOutlineRow(row, &p); err != nil {
			return err
		}
		if err := w.emit(&p, parent, depth); err != nil {
			return err
		}
	}
}

// emit calls fn for a page, below a page with the path parent, and walks
// its branch.
func (w *outlineWalk) emit(p *site.Page, parent string, depth int) error {
	if _, ok := slices.BinarySearch(w.parents, p.ID); ok {
		p.ChildCount = 1
	}
	path := w.o.project.ChildPath(p, parent)
	w.o.seen.Page(p)
	if err := w.fn(p, path, depth); err != nil {
		return err
	}
	if p.ChildCount > 0 {
		return w.children(p.ID, p.Placement, path, depth+1)
	}
	return nil
}
