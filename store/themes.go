package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"

	"siteplan/site"
)

// Theme returns a project's theme without its logo's bytes (Logo reads
// them; LogoSum says whether there is one); an empty theme if it has
// none. Errors: those of the database.
func (db *Themes) Theme(ctx context.Context, projectID int64) (site.Theme, error) {
	var t site.Theme
	err := db.r.QueryRowContext(ctx, `SELECT accent, agency, client_name, logo_sum FROM project_themes WHERE project_id = ?`, projectID).
		Scan(&t.Accent, &t.Agency, &t.ClientName, &t.LogoSum)
	if errors.Is(err, sql.ErrNoRows) {
		return site.Theme{}, nil
	}
	return t, translate(err)
}

// Logo returns a project's logo; nil if it has none. Errors: those of
// the database.
func (db *Themes) Logo(ctx context.Context, projectID int64) ([]byte, error) {
	var logo []byte
	err := db.r.QueryRowContext(ctx, `SELECT logo FROM project_themes WHERE project_id = ?`, projectID).Scan(&logo)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return logo, translate(err)
}

// SetTheme replaces a project's theme, its logo with t.Logo as given (the
// caller made it with site.NormalizeLogo); t.LogoSum is worked out here.
// Errors: EInvalid (Validate), ETooLarge, ENotFound (no such project).
func (db *Themes) SetTheme(ctx context.Context, projectID int64, t site.Theme) error {
	logo, sum, err := themeLogo(&t)
	if err != nil {
		return err
	}
	res, err := db.w.ExecContext(ctx, `INSERT INTO project_themes (project_id, accent, agency, client_name, logo, logo_sum)
		SELECT id, ?, ?, ?, ?, ? FROM projects WHERE id = ?
		ON CONFLICT (project_id) DO UPDATE SET accent = excluded.accent, agency = excluded.agency,
			client_name = excluded.client_name, logo = excluded.logo, logo_sum = excluded.logo_sum`,
		t.Accent, t.Agency, t.ClientName, logo, sum, projectID)
	if err != nil {
		return translate(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return site.Errorf(site.ENotFound, "Project %d does not exist.", projectID)
	}
	return nil
}

// TeamTheme returns a team's brand without its logo's bytes (TeamLogo
// reads them); an empty one if it has none. Errors: those of the
// database.
func (db *Themes) TeamTheme(ctx context.Context, teamID int64) (site.Theme, error) {
	var t site.Theme
	err := db.r.QueryRowContext(ctx, `SELECT accent, agency, logo_sum FROM team_themes WHERE team_id = ?`, teamID).Scan(&t.Accent, &t.Agency, &t.LogoSum)
	if errors.Is(err, sql.ErrNoRows) {
		return site.Theme{}, nil
	}
	return t, translate(err)
}

// TeamLogo returns a team's logo; nil if it has none.
// Errors: none of its own; a database error as it is.
func (db *Themes) TeamLogo(ctx context.Context, teamID int64) ([]byte, error) {
	var logo []byte
	err := db.r.QueryRowContext(ctx, `SELECT logo FROM team_themes WHERE team_id = ?`, teamID).Scan(&logo)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return logo, translate(err)
}

// SetTeamTheme replaces a team's brand (its client name is not kept: a
// client is a project's). Errors: EInvalid, ETooLarge, ENotFound.
func (db *Themes) SetTeamTheme(ctx context.Context, teamID int64, t site.Theme) error {
	t.ClientName = ""
	logo, sum, err := themeLogo(&t)
	if err != nil {
		return err
	}
	res, err := db.w.ExecContext(ctx, `INSERT INTO team_themes (team_id, accent, agency, logo, logo_sum) SELECT id, ?, ?, ?, ? FROM teams WHERE id = ?
		ON CONFLICT (team_id) DO UPDATE SET accent = excluded.accent, agency = excluded.agency, logo = excluded.logo, logo_sum = excluded.logo_sum`,
		t.Accent, t.Agency, logo, sum, teamID)
	if err != nil {
		return translate(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return site.Errorf(site.ENotFound, "Team %d does not exist.", teamID)
	}
	return nil
}

// themeLogo checks a theme and returns its logo as its column holds it
// (nil for none) with its sum. Errors: EInvalid (Validate), ETooLarge.
func themeLogo(t *site.Theme) (logo any, sum string, err error) {
	if err := t.Validate(); err != nil {
		return nil, "", err
	}
	if len(t.Logo) > 2*site.MaxLogoBytes {
		return nil, "", site.Errorf(site.ETooLarge, "The logo is too large.")
	}
	if len(t.Logo) == 0 {
		return nil, "", nil
	}
	h := sha256.Sum256(t.Logo)
	return t.Logo, hex.EncodeToString(h[:]), nil
}

// Brand returns the theme a project's drawings and review carry: its
// own, each field it leaves empty (accent, agency, logo) its team's.
// Errors: those of the database.
func (db *Themes) Brand(ctx context.Context, projectID int64) (site.Theme, error) {
	var t site.Theme
	err := db.r.QueryRowContext(ctx, `SELECT coalesce(nullif(p.accent, ''), t.accent, ''), coalesce(nullif(p.agency, ''), t.agency, ''),
			coalesce(p.client_name, ''), coalesce(nullif(p.logo_sum, ''), t.logo_sum, '')
		FROM projects pr LEFT JOIN project_themes p ON p.project_id = pr.id LEFT JOIN team_themes t ON t.team_id = pr.team_id
		WHERE pr.id = ?`, projectID).Scan(&t.Accent, &t.Agency, &t.ClientName, &t.LogoSum)
	if errors.Is(err, sql.ErrNoRows) {
		return site.Theme{}, nil
	}
	return t, translate(err)
}

// BrandLogo returns the logo of a project's Brand: its own, else its
// team's; nil if neither has one.
// Errors: none of its own; a database error as it is.
func (db *Themes) BrandLogo(ctx context.Context, projectID int64) ([]byte, error) {
	var logo []byte
	err := db.r.QueryRowContext(ctx, `SELECT coalesce(p.logo, t.logo)
		FROM projects pr LEFT JOIN project_themes p ON p.project_id = pr.id LEFT JOIN team_themes t ON t.team_id = pr.team_id
		WHERE pr.id = ?`, projectID).Scan(&logo)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return logo, translate(err)
}
