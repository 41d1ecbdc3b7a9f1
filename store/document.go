package store

import (
	"context"
	"database/sql"

	"siteplan/site"
)

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
