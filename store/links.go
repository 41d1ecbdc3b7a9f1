package store

import (
	"context"
	"database/sql"

	"siteplan/site"
)

const linkCols = `l.id, l.project_id, l.from_id, l.to_id, l.label, f.title, t.title`
const linkJoin = ` FROM links l JOIN pages f ON f.id = l.from_id JOIN pages t ON t.id = l.to_id`

func projectLinks(ctx context.Context, q querier, projectID int64) ([]site.Link, error) {
	return queryLinks(ctx, q, `SELECT `+linkCols+linkJoin+` WHERE l.project_id = ? ORDER BY l.id`, projectID)
}

func queryLinks(ctx context.Context, q querier, query string, args ...any) ([]site.Link, error) {
	return collect(ctx, q, func(rows *sql.Rows) (site.Link, error) {
		var l site.Link
		return l, rows.Scan(&l.ID, &l.ProjectID, &l.FromID, &l.ToID, &l.Label, &l.FromTitle, &l.ToTitle)
	}, query, args...)
}

// Links returns all cross-links of a project.
// Errors: none of its own; a database error as it is.
func (db *Links) Links(ctx context.Context, projectID int64) ([]site.Link, error) {
	return projectLinks(ctx, db.r, projectID)
}

// PageLinks returns the links leaving and reaching a page.
// Errors: none of its own; a database error as it is.
func (db *Links) PageLinks(ctx context.Context, pageID int64) (out, in []site.Link, err error) {
	out, err = queryLinks(ctx, db.r, `SELECT `+linkCols+linkJoin+` WHERE l.from_id = ? ORDER BY t.title`, pageID)
	if err != nil {
		return nil, nil, err
	}
	in, err = queryLinks(ctx, db.r, `SELECT `+linkCols+linkJoin+` WHERE l.to_id = ? ORDER BY f.title`, pageID)
	return out, in, err
}

// AddLink stores a cross-link between two pages of one project and sets
// l.ID. Errors: EInvalid (self-link, other project, long label), ENotFound,
// EConflict (the link exists).
func (db *Links) AddLink(ctx context.Context, l *site.Link) error {
	switch {
	case l.FromID == l.ToID:
		return site.Errorf(site.EInvalid, "A page cannot link to itself.")
	case site.LinkLabelProblem(l.Label) != "":
		return site.Errorf(site.EInvalid, "%s", site.LinkLabelProblem(l.Label))
	}
	err := db.change(ctx, func(j *journal) error {
		tx := j.tx
		if err := j.inProject(l.ProjectID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pages WHERE id IN (?, ?) AND project_id = ?`, l.FromID, l.ToID, l.ProjectID).Scan(&n); err != nil {
			return err
		}
		if n != 2 {
			return site.Errorf(site.ENotFound, "Both pages must exist in this project.")
		}
		if err := j.touchLinks(linkKey{l.FromID, l.ToID}); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO links (project_id, from_id, to_id, label) VALUES (?, ?, ?, ?) RETURNING id`,
			l.ProjectID, l.FromID, l.ToID, l.Label).Scan(&l.ID); err != nil {
			return err
		}
		j.verb, j.pageID = "link", l.FromID
		j.summary = "linked “" + titleOf(ctx, tx, l.FromID) + "” to “" + titleOf(ctx, tx, l.ToID) + "”"
		return nil
	})
	if site.ErrorCode(err) == site.EConflict {
		return site.Errorf(site.EConflict, "That link already exists.")
	}
	return err
}

// DeleteLink removes a link of a project. Errors: ENotFound.
func (db *Links) DeleteLink(ctx context.Context, projectID, id int64) error {
	return db.change(ctx, func(j *journal) error {
		tx := j.tx
		if err := j.inProject(projectID); err != nil {
			return err
		}
		var k linkKey
		err := tx.QueryRowContext(ctx, `SELECT from_id, to_id FROM links WHERE id = ? AND project_id = ?`, id, projectID).Scan(&k.From, &k.To)
		if err == sql.ErrNoRows {
			return site.Errorf(site.ENotFound, "That link no longer exists.")
		} else if err != nil {
			return err
		}
		if err := j.touchLinks(k); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM links WHERE id = ?`, id); err != nil {
			return err
		}
		j.verb, j.pageID = "unlink", k.From
		j.summary = "removed the link from “" + titleOf(ctx, tx, k.From) + "” to “" + titleOf(ctx, tx, k.To) + "”"
		return nil
	})
}
