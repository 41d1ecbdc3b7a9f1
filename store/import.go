package store

import (
	"context"
	"database/sql"
	"hash/maphash"
	"iter"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplan/site"
)

// importChunk is how many pages one transaction of an import writes:
// other writers wait for one chunk, not the whole import (how long is in
// docs/benchmarks.md). The pages' slugs are not written
// chunk by chunk but all at once, in slug order, by Commit.
var importChunk = 10_000

// importRows is how many pages one INSERT statement of an import writes:
// a statement a row spends more on the call than on the row.
const importRows = 100

// importChunkDone, when set (by tests), runs after each chunk of an
// import is written, on the goroutine that wrote it.
var importChunkDone func(projectID int64)

// Import writes a new project page by page, in outline order, so that a
// plan of a million pages is never held whole: a chunk of importChunk
// pages at a time, the write lock held only while the chunk is written.
// A chunk is written in the background while the next is added, so that
// checking pages and making them (a plan's walk) and SQLite's writing
// them share the time on two cores.
// The project stays invisible to everyone until Commit and is removed
// again if the import does not get there: the import is all or nothing
// for its users, while other writers go on between its chunks. Every
// rule a stored plan keeps is checked as the pages come: each page's
// fields, the depth, placements and unique URLs (of pages that would
// share one, the first keeps it and a later one's derived slug is
// numbered, "faq-2").
type Import struct {
	db      *Store
	ctx     context.Context
	project site.Project
	chunk   int              // importChunk when the import began
	stack   []importLevel    // the ancestors of the next page, by depth
	roots   map[string]int   // the next root position, by placement
	urls    map[uint64]int64 // the number of the page that has a URL, by the URL's hash
	seed    maphash.Seed
	pending []site.Page    // added, not yet handed to the writing; ID and ParentID are page numbers
	written int            // pages handed to the writing; the pending are numbered on from written+1
	keep    map[int64]bool // the numbers of the pages links may join
	links   []site.Link    // between page numbers
	// A localized plan's variants, by page number, and the number of the
	// page x-default points at (0: none).
	variants []importVariant
	xDefault int64
	err      error // the first error; the import is then discarded
	done     bool

	// The chunk being written, from page number writingFrom on, and
	// where its writing reports; the buffer of the one before, free.
	writing     []site.Page
	writingFrom int
	wrote       chan error
	spare       []site.Page
	// Only the writing touches these while a chunk is written.
	bases []int64 // the id of each chunk's first page, in order
	args  []any
}

// importVariant is a page's variant in a locale, by page number.
type importVariant struct {
	num int64
	tag string
	v   site.Variant
}

// importLevel is an ancestor of the next page.
type importLevel struct {
	num  int64  // its page number
	path string // its path (site.Project.ChildPath)
	kids int    // children so far
}

// BeginImport starts an import of a new project of teamID with p's
// settings. The caller adds its pages with Add and ends with Commit, or
// Discard (which a deferred call may do in any case). Errors: EInvalid.
func (db *Projects) BeginImport(ctx context.Context, teamID int64, p site.Project) (*Import, error) {
	p.TeamID = teamID
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := db.tx(ctx, func(tx *sql.Tx) error {
		if err := insertProject(ctx, tx, &p); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE projects SET importing = 1, import_owner = ? WHERE id = ?`, db.owner, p.ID)
		return err
	}); err != nil {
		return nil, err
	}
	db.mu.Lock()
	db.live[p.ID] = true
	db.mu.Unlock()
	return &Import{db: db.parts, ctx: ctx, project: p, chunk: importChunk, roots: map[string]int{}, urls: map[uint64]int64{},
		seed: maphash.MakeSeed(), keep: map[int64]bool{}}, nil
}

// Add adds a page at depth (1 for a root) after the pages added so far:
// a page at depth d lands under the last page added at depth d-1. Only
// p's own fields count; its ID, parent and position are worked out. It
// returns the page's number in the import (1 for the first), for Link.
// Errors: EInvalid, naming the page; after an error the import is over.
func (im *Import) Add(depth int, p site.Page) (int64, error) {
	if im.err != nil {
		return 0, im.err
	}
	num, err := im.add(depth, &p)
	if err != nil {
		im.fail(err)
		return 0, err
	}
	return num, nil
}

func (im *Import) add(depth int, p *site.Page) (int64, error) {
	name := "“" + site.Clip(p.Title, 60) + "”"
	switch {
	case depth < 1 || depth > len(im.stack)+1:
		return 0, site.Errorf(site.EInvalid, "%s comes at depth %d after a page at depth %d.", name, depth, len(im.stack))
	case depth > site.MaxDepth:
		return 0, site.Errorf(site.EInvalid, "%s: the plan is deeper than %d levels; move these pages up.", name, site.MaxDepth)
	case im.written+len(im.pending) >= site.MaxDocumentPages:
		return 0, site.Errorf(site.EInvalid, "The plan has more than %d pages.", site.MaxDocumentPages)
	}
	if err := p.Validate(); err != nil {
		return 0, site.Errorf(site.EInvalid, "%s: %s", name, site.PageFieldProblem(err))
	}
	if len(im.pending) == im.chunk {
		if err := im.handOff(); err != nil {
			return 0, err
		}
	}
	num := int64(im.written + len(im.pending) + 1)
	im.stack = im.stack[:depth-1]
	parent := im.project.RootPath()
	p.ID, p.ParentID = num, 0
	if depth == 1 {
		p.Position = im.roots[p.Placement]
		im.roots[p.Placement]++
	} else {
		if p.Placement != site.PlacementMain {
			return 0, site.Errorf(site.EInvalid, "%s: placement: only root pages can be placed in utility or footer navigation.", name)
		}
		up := &im.stack[depth-2]
		p.ParentID, p.Position, parent = up.num, up.kids, up.path
		up.kids++
	}
	path, err := im.claim(p, parent, num)
	if err != nil {
		return 0, err
	}
	im.stack = append(im.stack, importLevel{num: num, path: path})
	im.pending = append(im.pending, *p)
	return num, nil
}

// claim gives p, page number num, the URL its path gives, numbering a
// derived slug that an earlier page's URL has, and returns p's path. Two
// URLs are told apart by a 64-bit hash, so a million pages cost 16 MB,
// not their URLs.
func (im *Import) claim(p *site.Page, parent string, num int64) (string, error) {
	path := im.project.ChildPath(p, parent)
	if !p.HasURL() {
		return path, nil
	}
	u := im.project.FinishURL(p, path)
	if u == "" {
		return path, nil
	}
	other, taken := im.urls[maphash.String(im.seed, u)]
	if taken && site.Renumberable(p) {
		base := p.Slug
		for n := 2; taken; n++ {
			p.Slug = site.NumberedSlug(base, n)
			path = im.project.ChildPath(p, parent)
			u = im.project.FinishURL(p, path)
			other, taken = im.urls[maphash.String(im.seed, u)]
		}
	}
	if taken {
		return "", site.URLTakenError(p, u, im.title(other))
	}
	im.urls[maphash.String(im.seed, u)] = num
	return path, nil
}

// title returns the title of page number num, written or not.
func (im *Import) title(num int64) string {
	if i := int(num) - im.written - 1; i >= 0 {
		return im.pending[i].Title
	}
	if i := int(num) - im.writingFrom; im.writing != nil && i >= 0 {
		return im.writing[i].Title // read, never changed, by the writing too
	}
	// Only the import writes to its project, in page order.
	var t string
	im.db.w.QueryRowContext(im.ctx, `SELECT title FROM pages WHERE project_id = ? ORDER BY id LIMIT 1 OFFSET ?`, im.project.ID, num-1).Scan(&t)
	return t
}

// Keep lets page number num be an end of a link (Link).
// Errors: none of its own; a database error as it is.
func (im *Import) Keep(num int64) { im.keep[num] = true }

// Link adds a cross-link between two pages added and kept (Keep), by
// their numbers; Commit refuses one to a page that was not.
// Errors: none of its own; a database error as it is.
func (im *Import) Link(from, to int64, label string) {
	im.links = append(im.links, site.Link{FromID: from, ToID: to, Label: label})
}

// handOff hands the pending pages to the writing, once the chunk before
// them is written, and goes on with an empty buffer.
func (im *Import) handOff() error {
	if err := im.wait(); err != nil {
		return err
	}
	pages := im.pending
	im.writing, im.writingFrom = pages, im.written+1
	im.written += len(pages)
	im.pending, im.spare = im.spare, nil
	wrote := make(chan error, 1)
	im.wrote = wrote
	go func() { wrote <- im.write(pages) }()
	return nil
}

// wait waits for the chunk being written, if any, and returns the
// writing's error.
func (im *Import) wait() error {
	if im.wrote == nil {
		return nil
	}
	err := <-im.wrote
	im.spare, im.writing, im.wrote = im.writing[:0], nil, nil
	return err
}

// write writes a chunk of pages in one transaction. It gives them the
// ids that come next, so that pages are inserted many a statement and
// a child finds its parent's id even in the same statement.
func (im *Import) write(pages []site.Page) error {
	write := im.insert
	if im.db.bulkCopy() {
		write = im.copy
	}
	if err := write(pages); err != nil {
		return err
	}
	if importChunkDone != nil {
		importChunkDone(im.project.ID)
	}
	return nil
}

// insert writes a chunk with INSERTs of many pages a statement.
func (im *Import) insert(pages []site.Page) error {
	ctx := im.ctx
	return im.db.txUnchecked(ctx, func(tx *sql.Tx) error {
		var next int64
		if err := tx.QueryRowContext(ctx, im.db.nextIDs(), len(pages)).Scan(&next); err != nil { // the chunk's ids at once
			return err
		}
		im.bases = append(im.bases, next)
		// Whole statements of importRows pages, then the tail a page a
		// statement. Pages whose seldom-set fields are all their columns'
		// defaults (most pages of an imported sitemap) go by the short
		// statement: 13 values a page to bind, not 23.
		batched := len(pages) / importRows * importRows
		type shape struct {
			rows  int
			short bool
		}
		stmts := map[shape]*sql.Stmt{}
		defer func() {
			for _, st := range stmts {
				st.Close()
			}
		}()
		for at := 0; at < len(pages); {
			sh := shape{rows: importRows, short: true}
			if at >= batched {
				sh.rows = 1
			}
			for i := at; i < at+sh.rows && sh.short; i++ {
				sh.short = defaultRest(&pages[i])
			}
			stmt := stmts[sh]
			if stmt == nil {
				var err error
				if stmt, err = tx.PrepareContext(ctx, insertPages(sh.rows, sh.short)); err != nil {
					return err
				}
				stmts[sh] = stmt
			}
			im.args = im.args[:0]
			for i := at; i < at+sh.rows; i++ {
				p := &pages[i]
				im.args = append(im.args, im.id(p.ID), im.project.ID, nullID(im.id(p.ParentID)), p.Position, p.Title, p.Slug, p.SlugAuto,
					p.Kind, nullFloat(p.Priority), p.Changefreq, p.Lastmod, site.SearchKey(p.Title), site.SearchWords(p.Title, p.Slug))
				if !sh.short {
					im.args = append(im.args, p.Path, p.Placement, p.Type, p.Status, p.Assignee, p.Notes, p.InSitemap, p.InHTMLSitemap, briefText(&p.Brief), p.NotesPublic)
				}
			}
			if _, err := stmt.ExecContext(ctx, im.args...); err != nil {
				return err
			}
			at += sh.rows
		}
		// A live import is not a leftover (the jobs' sweep); the version
		// stays 1 for the project's first readers.
		_, err := tx.ExecContext(ctx, `UPDATE projects SET updated_at = ? WHERE id = ?`, fmtTime(time.Now()), im.project.ID)
		return err
	})
}

// copy writes a chunk on PostgreSQL with COPY, in one transaction of
// pgx's own on a connection of the writer pool (docs/benchmarks.md: the
// INSERTs took three times SQLite's time). The project is the import's,
// seen by nobody until it commits, so the chunk shares the write lock
// as a write to one plan does.
func (im *Import) copy(pages []site.Page) error {
	ctx := im.ctx
	conn, err := im.db.w.Conn(ctx)
	if err != nil {
		return translate(err)
	}
	defer conn.Close()
	return translate(conn.Raw(func(dc any) error {
		tx, err := dc.(*pgConn).Conn.Conn().Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx))
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock_shared($1)`, writeLock); err != nil {
			return err
		}
		var next int64
		if err := tx.QueryRow(ctx, `SELECT setval(pg_get_serial_sequence('pages', 'id'),
			nextval(pg_get_serial_sequence('pages', 'id')) + $1 - 1) - $1 + 1`, len(pages)).Scan(&next); err != nil {
			return err
		}
		im.bases = append(im.bases, next)
		rows := make([][]any, len(pages))
		for i := range pages {
			p := &pages[i]
			rows[i] = []any{im.id(p.ID), im.project.ID, nullID(im.id(p.ParentID)), p.Position, p.Title, p.Slug, bit(p.SlugAuto),
				p.Kind, nullFloat(p.Priority), p.Changefreq, p.Lastmod, site.SearchKey(p.Title), site.SearchWords(p.Title, p.Slug),
				p.Path, p.Placement, p.Type, p.Status, p.Assignee, p.Notes, bit(p.InSitemap), bit(p.InHTMLSitemap), briefText(&p.Brief), bit(p.NotesPublic)}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"pages"}, importCols, pgx.CopyFromRows(rows)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE projects SET updated_at = $1 WHERE id = $2`, fmtTime(time.Now()), im.project.ID); err != nil {
			return err
		}
		return tx.Commit(ctx)
	}))
}

// importCols are the columns an imported page fills, in insertPages'
// and copy's order.
var importCols = []string{"id", "project_id", "parent_id", "position", "title", "slug", "slug_auto", "kind", "priority", "changefreq", "lastmod",
	"search_key", "search_words", "path", "placement", "type", "status", "assignee", "notes", "in_sitemap", "in_html_sitemap", "brief", "notes_public"}

// bit is a boolean as the schema keeps it, 0 or 1.
func bit(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// id returns the id of page number num (0 for none), of a chunk whose
// writing has begun: every chunk but the last has im.chunk pages.
func (im *Import) id(num int64) int64 {
	if num == 0 {
		return 0
	}
	c := (num - 1) / int64(im.chunk)
	return im.bases[c] + (num-1)%int64(im.chunk)
}

// insertPages is an INSERT of n pages: with the columns of defaultRest,
// or without them (short).
func insertPages(n int, short bool) string {
	cols := strings.Join(importCols[:13], ", ")
	if !short {
		cols = strings.Join(importCols, ", ")
	}
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", strings.Count(cols, ",")+1), ", ") + ")"
	return `INSERT INTO pages (` + cols + `) VALUES ` + strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}

// defaultRest reports whether p's fields that an imported sitemap's
// pages seldom set are all their columns' defaults (0001_init.sql).
func defaultRest(p *site.Page) bool {
	return p.Path == "" && p.Placement == site.PlacementMain && p.Type == "" && p.Status == site.StatusPlanned &&
		p.Assignee == "" && p.Notes == "" && !p.NotesPublic && p.InSitemap && p.InHTMLSitemap && p.Brief.Empty()
}

// Commit writes what is left and the links, and shows the project to
// its team. It returns the new project's id. Errors: EInvalid (no pages,
// a link to a page not kept, or an earlier error).
func (im *Import) Commit() (int64, error) {
	if im.err != nil {
		return 0, im.err
	}
	if err := im.commit(); err != nil {
		im.fail(err)
		return 0, err
	}
	im.done = true
	im.db.ended(im.project.ID)
	return im.project.ID, nil
}

// ended takes an import of this process out of those it owns.
func (db *conn) ended(id int64) {
	db.mu.Lock()
	delete(db.live, id)
	db.mu.Unlock()
}

func (im *Import) commit() error {
	if im.written+len(im.pending) == 0 {
		return site.Errorf(site.EInvalid, "The plan has no pages.")
	}
	if len(im.pending) > 0 {
		if err := im.handOff(); err != nil {
			return err
		}
	}
	if err := im.wait(); err != nil {
		return err
	}
	im.urls = nil // 16 bytes a page, no longer needed
	ctx := im.ctx
	return im.db.change(ctx, func(j *journal) error {
		tx := j.tx
		if err := j.inProject(im.project.ID); err != nil {
			return err
		}
		j.verb, j.undoable, j.newProject = "import", false, true
		j.summary = "imported " + pagesWords(im.written) + " and " + site.Plural(len(im.links), "link", "links")
		if err := im.writeVariants(tx); err != nil {
			return err
		}
		for _, l := range im.links {
			if !im.keep[l.FromID] || !im.keep[l.ToID] {
				return site.Errorf(site.EInvalid, "A link joins pages %d and %d, which were not kept for links.", l.FromID, l.ToID)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO links (project_id, from_id, to_id, label) VALUES (?, ?, ?, ?)`,
				im.project.ID, im.id(l.FromID), im.id(l.ToID), l.Label); err != nil {
				return err
			}
		}
		// The pages join the URL rule's slug table (0009_page_slugs.sql)
		// in its order, and are counted, now that they are in.
		if _, err := tx.ExecContext(ctx, `INSERT INTO page_slugs (project_id, slug, page_id)
			SELECT project_id, slug, id FROM pages WHERE project_id = ?1 ORDER BY slug, id`, im.project.ID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE projects SET importing = 0, page_count = ? WHERE id = ?`, im.written, im.project.ID)
		return err
	})
}

// variantRows is how many variants one INSERT writes (11 values each).
const variantRows = 100

// writeVariants writes a localized plan's variants and its x-default.
func (im *Import) writeVariants(tx *sql.Tx) error {
	ctx := im.ctx
	for start := 0; start < len(im.variants); start += variantRows {
		batch := im.variants[start:min(start+variantRows, len(im.variants))]
		var q strings.Builder
		q.WriteString(`INSERT INTO page_variants (page_id, project_id, tag, title, slug, path, state, seo_title, meta_description, h1, keyword) VALUES `)
		args := make([]any, 0, 11*len(batch))
		for i, iv := range batch {
			if i > 0 {
				q.WriteByte(',')
			}
			q.WriteString(`(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
			v := iv.v
			args = append(args, im.id(iv.num), im.project.ID, iv.tag, v.Title, v.Slug, v.Path, v.State, v.SEOTitle, v.MetaDescription, v.H1, v.Keyword)
		}
		if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
			return err
		}
	}
	if im.xDefault != 0 {
		_, err := tx.ExecContext(ctx, `UPDATE projects SET x_default = ? WHERE id = ?`, im.id(im.xDefault), im.project.ID)
		return err
	}
	return nil
}

// fail ends the import with err and removes what it wrote.
func (im *Import) fail(err error) {
	if im.err == nil {
		im.err = err
		im.wait() // a chunk written after the discard would stay
		im.db.discard(context.WithoutCancel(im.ctx), im.project.ID)
		im.db.ended(im.project.ID)
		im.done = true
	}
}

// Discard removes the project of an import that was not committed;
// after Commit it does nothing.
// Errors: EInvalid.
func (im *Import) Discard() {
	if !im.done {
		im.fail(site.Errorf(site.EInvalid, "The import was discarded."))
	}
}

// ImportDocument stores a document as a new project of teamID and returns
// the project's ID (see Import). Errors: EInvalid, naming the page and
// field at fault (also a typed slug or path an earlier page's URL has).
func (db *Projects) ImportDocument(ctx context.Context, teamID int64, d *site.Document) (int64, error) {
	if err := d.Validate(); err != nil {
		return 0, err
	}
	if len(d.Project.Locales) > 0 {
		t, _ := d.Tree()
		if err := t.LocaleURLProblem(); err != nil {
			return 0, err
		}
	}
	im, err := db.BeginImport(ctx, teamID, d.Project.ToProject())
	if err != nil {
		return 0, err
	}
	defer im.Discard()
	if err := im.AddDocument(d); err != nil {
		return 0, err
	}
	return im.Commit()
}

// AddDocument adds a validated document's pages and links.
// Errors: none of its own; a database error as it is.
func (im *Import) AddDocument(d *site.Document) error {
	keys := map[string]int64{} // the numbers of the links' ends and x-default's page
	for _, l := range d.Links {
		keys[l.From], keys[l.To] = 0, 0
	}
	if x := d.Project.XDefault; x != "" && x != site.XDefaultLocale {
		keys[x] = 0
	}
	def, _ := site.DefaultLocale(im.project.Locales)
	var add func(depth int, list []*site.DocPage) error
	add = func(depth int, list []*site.DocPage) error {
		for _, dp := range list {
			num, err := im.Add(depth, dp.ToPage())
			if err != nil {
				return err
			}
			for tag, v := range dp.VariantsIn(def.Tag) {
				im.variants = append(im.variants, importVariant{num, tag, v})
			}
			if _, ok := keys[dp.Key]; ok && dp.Key != "" {
				keys[dp.Key] = num
				im.Keep(num)
			}
			if err := add(depth+1, dp.Children); err != nil {
				return err
			}
		}
		return nil
	}
	if err := add(1, d.Pages); err != nil {
		return err
	}
	for _, l := range d.Links {
		im.Link(keys[l.From], keys[l.To], l.Label)
	}
	if x := d.Project.XDefault; x != "" && x != site.XDefaultLocale {
		im.xDefault = keys[x]
	}
	return nil
}

// ImportPages stores a plan given page by page in outline order, each
// with its depth (see Import.Add), as a new project of teamID with p's
// settings, and returns the project's id. Errors: EInvalid, naming the
// page and field at fault.
func (db *Projects) ImportPages(ctx context.Context, teamID int64, p site.Project, pages iter.Seq2[int, site.Page]) (int64, error) {
	im, err := db.BeginImport(ctx, teamID, p)
	if err != nil {
		return 0, err
	}
	defer im.Discard()
	if err := im.AddAll(pages); err != nil {
		return 0, err
	}
	return im.Commit()
}

// AddAll adds pages given in outline order with their depths (see Add).
// Errors: none of its own; a database error as it is.
func (im *Import) AddAll(pages iter.Seq2[int, site.Page]) error {
	for depth, p := range pages {
		if _, err := im.Add(depth, p); err != nil {
			return err
		}
	}
	return nil
}
