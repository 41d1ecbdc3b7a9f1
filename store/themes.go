package store

import (
	"context"
	"database/sql"
	"errors"

	"siteplan/site"
)

// Theme returns a project's theme; an empty one if it has none. Errors:
// those of the database.
func (db *DB) Theme(ctx context.Context, projectID int64) (site.Theme, error) {
	var t site.Theme
	err := db.r.QueryRowContext(ctx, `SELECT accent, agency, client_name, logo FROM project_themes WHERE project_id = ?`, projectID).
		Scan(&t.Accent, &t.Agency, &t.ClientName, &t.Logo)
	if errors.Is(err, sql.ErrNoRows) {
		return site.Theme{}, nil
	}
	return t, translate(err)
}

// SetTheme replaces a project's theme; the logo is kept as given (the
// caller made it with site.NormalizeLogo). Errors: EInvalid (Validate),
// ENotFound (no such project).
func (db *DB) SetTheme(ctx context.Context, projectID int64, t site.Theme) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if len(t.Logo) > 2*site.MaxLogoBytes {
		return site.Errorf(site.ETooLarge, "The logo is too large.")
	}
	var logo any
	if len(t.Logo) > 0 {
		logo = t.Logo
	}
	res, err := db.w.ExecContext(ctx, `INSERT INTO project_themes (project_id, accent, agency, client_name, logo)
		SELECT id, ?, ?, ?, ? FROM projects WHERE id = ?
		ON CONFLICT (project_id) DO UPDATE SET accent = excluded.accent, agency = excluded.agency,
			client_name = excluded.client_name, logo = excluded.logo`,
		t.Accent, t.Agency, t.ClientName, logo, projectID)
	if err != nil {
		return translate(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return site.Errorf(site.ENotFound, "Project %d does not exist.", projectID)
	}
	return nil
}
