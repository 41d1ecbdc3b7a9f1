package store

import (
	"context"
	"database/sql"

	"siteplan/site"
)

// importChunk is how many pages one transaction of an import writes:
// other writers wait for one chunk (some 80 ms), not the whole import.
const importChunk = 5000

// importChunkDone, when set (by tests), runs after each chunk of an
// import is written.
var importChunkDone func(projectID int64)

// ImportDocument stores a validated document as a new project of teamID
// and returns the project's ID. The pages are written in chunks of
// importChunk, each in its own transaction, into a project that stays
// invisible until the last: the import is all or nothing for its users,
// and other teams' edits go on meanwhile. Of pages that would share a
// URL, the first in outline order keeps it and a later one's derived slug
// is numbered ("faq-2"). Errors: EInvalid (also a typed slug or path an
// earlier page's URL has).
func (db *DB) ImportDocument(ctx context.Context, teamID int64, d *site.Document) (id int64, err error) {
	if err := d.Validate(); err != nil {
		return 0, err
	}
	p := d.Project.ToProject()
	p.TeamID = teamID
	if err := p.Validate(); err != nil {
		return 0, err
	}
	// The document's tree numbers its pages from 1 in outline order, so a
	// page is written after its parent; its links use those numbers.
	tr, links := d.Tree()
	if _, err := tr.ClaimURLs([]int64{0}); err != nil {
		return 0, err
	}
	n := tr.Len()

	if err := db.tx(ctx, func(tx *sql.Tx) error {
		if err := insertProject(ctx, tx, &p); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE projects SET importing = 1 WHERE id = ?`, p.ID)
		return err
	}); err != nil {
		return 0, err
	}
	defer func() {
		if err != nil { // all or nothing: nothing
			db.discard(context.WithoutCancel(ctx), p.ID)
		}
	}()
	ids := make([]int64, n+1) // the stored id of each page number
	roots := map[string]int{} // root positions count per placement
	for start := 1; start <= n; start += importChunk {
		end := min(start+importChunk-1, n)
		if err := db.tx(ctx, func(tx *sql.Tx) error {
			stmt, err := tx.PrepareContext(ctx, `INSERT INTO pages (project_id, parent_id, position, title, slug, slug_auto, path, kind, placement,
				type, status, assignee, notes, in_sitemap, in_html_sitemap, priority, changefreq, lastmod)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
			if err != nil {
				return err
			}
			defer stmt.Close()
			for i := start; i <= end; i++ {
				pg := *tr.Page(int64(i))
				if pg.ParentID == 0 {
					pg.Position = roots[pg.Placement]
					roots[pg.Placement]++
				} else {
					pg.Placement = site.PlacementMain
				}
				res, err := stmt.ExecContext(ctx, p.ID, nullID(ids[pg.ParentID]), pg.Position, pg.Title, pg.Slug, pg.SlugAuto, pg.Path, pg.Kind,
					pg.Placement, pg.Type, pg.Status, pg.Assignee, pg.Notes, pg.InSitemap, pg.InHTMLSitemap,
					nullFloat(pg.Priority), pg.Changefreq, pg.Lastmod)
				if err != nil {
					return err
				}
				if ids[i], err = res.LastInsertId(); err != nil {
					return err
				}
			}
			// A live import is not a leftover (removeLeftovers); the
			// version stays 1 for the project's first readers.
			_, err = tx.ExecContext(ctx, `UPDATE projects SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`, p.ID)
			return err
		}); err != nil {
			return 0, err
		}
		if importChunkDone != nil {
			importChunkDone(p.ID)
		}
	}
	err = db.change(ctx, func(j *journal) error {
		tx := j.tx
		j.projectID, j.verb, j.undoable, j.newProject = p.ID, "import", false, true
		j.summary = "imported " + pagesWords(n) + " and " + site.Plural(len(links), "link", "links")
		for _, l := range links {
			if _, err := tx.ExecContext(ctx, `INSERT INTO links (project_id, from_id, to_id, label) VALUES (?, ?, ?, ?)`,
				p.ID, ids[l.FromID], ids[l.ToID], l.Label); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE projects SET importing = 0 WHERE id = ?`, p.ID)
		return err
	})
	return p.ID, err
}

// discard removes a project that an import left unfinished, in chunks.
func (db *DB) discard(ctx context.Context, projectID int64) {
	for {
		var n int64
		err := db.tx(ctx, func(tx *sql.Tx) error {
			// Leaves first: no page is deleted with a subtree below it.
			res, err := tx.ExecContext(ctx, `DELETE FROM pages WHERE id IN (SELECT id FROM pages p WHERE project_id = ?
				AND NOT EXISTS (SELECT 1 FROM pages c WHERE c.parent_id = p.id) LIMIT ?)`, projectID, importChunk)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
		if err != nil || n == 0 {
			break
		}
	}
	db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM projects WHERE id = ?`, projectID)
		return err
	})
}

// removeLeftovers removes the projects that an import left unfinished
// when its process died: those it has not written to for ten minutes.
func (db *DB) removeLeftovers(ctx context.Context) error {
	rows, err := db.w.QueryContext(ctx, `SELECT id FROM projects WHERE importing AND updated_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-10 minutes')`)
	if err != nil {
		return err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	for _, id := range ids {
		db.discard(ctx, id)
	}
	return rows.Err()
}

// Document returns the native document of a project. Errors: ENotFound.
func (db *DB) Document(ctx context.Context, projectID int64) (*site.Document, error) {
	t, err := db.Tree(ctx, projectID)
	if err != nil {
		return nil, err
	}
	links, err := db.Links(ctx, projectID)
	if err != nil {
		return nil, err
	}
	return site.NewDocument(t, links), nil
}
