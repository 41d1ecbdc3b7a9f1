package store

import (
	"bytes"
	"context"
	"database/sql"
	"strings"
	"time"

	"siteplan/site"
)

// SaveStarter keeps project projectID's plan as a starter plan of its
// team, named name, kept by by. Errors: EInvalid (a name that is wrong,
// the team keeps site.MaxStarters already), EConflict (a starter of the
// team has the name), ETooLarge (past site.MaxStarterBytes), ENotFound.
func (db *Projects) SaveStarter(ctx context.Context, projectID int64, name, by string) (site.Starter, error) {
	s := site.Starter{Name: strings.TrimSpace(name), By: by}
	if msg := site.ProjectNameProblem("The starter plan's name", s.Name); msg != "" {
		return s, &site.Error{Code: site.EInvalid, Message: msg, Fields: map[string]string{"name": msg}}
	}
	pr, err := db.Project(ctx, projectID)
	if err != nil {
		return s, err
	}
	doc, err := db.Document(ctx, projectID)
	if err != nil {
		return s, err
	}
	var buf bytes.Buffer
	if err := doc.Encode(&buf); err != nil {
		return s, err
	}
	if buf.Len() > site.MaxStarterBytes {
		return s, site.Errorf(site.ETooLarge, "This plan is larger than a starter plan may be (%d MB): keep a smaller one.", site.MaxStarterBytes>>20)
	}
	s.TeamID, s.Pages, s.CreatedAt = pr.TeamID, doc.CountPages(), time.Now().UTC()
	err = db.tx(ctx, func(tx *sql.Tx) error {
		var n int
		var taken bool
		if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(max(CASE WHEN name = ? THEN 1 ELSE 0 END), 0) FROM starter_plans WHERE team_id = ?`, s.Name, s.TeamID).Scan(&n, &taken); err != nil {
			return err
		}
		switch {
		case taken:
			return site.Errorf(site.EConflict, "A starter plan of this team is already named “%s”: choose another name, or delete that one first.", s.Name)
		case n >= site.MaxStarters:
			return site.Errorf(site.EInvalid, "The team keeps %d starter plans already, the most it may: delete one on the Team page first.", site.MaxStarters)
		}
		return tx.QueryRowContext(ctx, `INSERT INTO starter_plans (team_id, name, pages, by_name, created_at, document) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
			s.TeamID, s.Name, s.Pages, s.By, s.CreatedAt.Format(timeFormat), buf.Bytes()).Scan(&s.ID)
	})
	return s, translate(err)
}

// Starters lists a team's starter plans by name. Errors: those of the
// database.
func (db *Projects) Starters(ctx context.Context, teamID int64) ([]site.Starter, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.Starter, error) {
		var s site.Starter
		var at string
		err := rows.Scan(&s.ID, &s.TeamID, &s.Name, &s.Pages, &s.By, &at)
		s.CreatedAt, _ = time.Parse(timeFormat, at)
		return s, err
	}, `SELECT id, team_id, name, pages, by_name, created_at FROM starter_plans WHERE team_id = ? ORDER BY name`, teamID)
}

// StarterDocument returns a team's starter plan as its document.
// Errors: ENotFound (no such starter of the team).
func (db *Projects) StarterDocument(ctx context.Context, teamID, id int64) (*site.Document, error) {
	var blob []byte
	err := db.r.QueryRowContext(ctx, `SELECT document FROM starter_plans WHERE id = ? AND team_id = ?`, id, teamID).Scan(&blob)
	if err != nil {
		return nil, notFound(err, "This team has no such starter plan.")
	}
	return site.ParseDocument(bytes.NewReader(blob))
}

// DeleteStarter deletes a team's starter plan; the projects started
// from it stay. Errors: ENotFound.
func (db *Projects) DeleteStarter(ctx context.Context, teamID, id int64) error {
	res, err := db.w.ExecContext(ctx, `DELETE FROM starter_plans WHERE id = ? AND team_id = ?`, id, teamID)
	if err != nil {
		return translate(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return site.Errorf(site.ENotFound, "This team has no such starter plan.")
	}
	return nil
}
