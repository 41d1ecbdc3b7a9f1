package store

import (
	"context"
	"database/sql"
	"time"

	"siteplan/internal/proc"
	"siteplan/site"
)

// discard removes a project that an import left unfinished, in chunks.
func (db *conn) discard(ctx context.Context, projectID int64) {
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

// RemoveLeftovers removes the projects of imports that no one is
// writing: those of this DB that no import of it owns (nothing
// should leave one, but a reading that did would hold its pages for
// good), those of a process that no longer runs (a crash, a kill), and
// any not written to for ten minutes (a process on another machine, or
// whose id a new process took). On PostgreSQL, which servers on other
// machines share, another process's import goes by the ten minutes
// alone: a process id says nothing of another machine's processes. It
// returns how many it removed. The server runs it at start and every
// minute.
// Errors: none of its own; a database error as it is.
func (db *Projects) RemoveLeftovers(ctx context.Context) (int, error) {
	type unfinished struct {
		id    int64
		owner string
		stale bool
	}
	list, err := collect(ctx, db.w, func(rows *sql.Rows) (unfinished, error) {
		var u unfinished
		return u, rows.Scan(&u.id, &u.owner, &u.stale)
	}, `SELECT id, import_owner, updated_at < ? FROM projects WHERE importing = 1`, fmtTime(time.Now().Add(-10*time.Minute)))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, u := range list {
		db.mu.Lock()
		live := db.live[u.id]
		db.mu.Unlock()
		switch {
		case u.owner == db.owner && live:
			continue
		case u.owner == db.owner, u.stale, u.owner != "" && !db.sharesServers() && !proc.Alive(proc.TagPID(u.owner)):
			db.discard(ctx, u.id)
			n++
		}
	}
	return n, nil
}

// Document returns the native document of a project. Errors: ENotFound.
func (db *Projects) Document(ctx context.Context, projectID int64) (*site.Document, error) {
	t, err := db.parts.Pages.Tree(ctx, projectID)
	if err != nil {
		return nil, err
	}
	links, err := db.parts.Links.Links(ctx, projectID)
	if err != nil {
		return nil, err
	}
	return site.NewDocument(t, links), nil
}
