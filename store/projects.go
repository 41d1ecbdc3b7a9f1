package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"siteplan/site"
)

const projectCols = `p.id, p.team_id, p.name, p.base_url, p.trailing_slash, p.default_changefreq,
	p.default_priority, p.lastmod, p.sitemap_location, p.version, p.updated_at,
	p.page_count, p.comment_version, p.locales, p.x_default`

func scanProject(row interface{ Scan(...any) error }) (site.Project, error) {
	var p site.Project
	var prio sql.NullFloat64
	var updated, locales string
	var xDefault sql.NullInt64
	err := row.Scan(&p.ID, &p.TeamID, &p.Name, &p.BaseURL, &p.TrailingSlash, &p.DefaultChangefreq,
		&prio, &p.Lastmod, &p.SitemapLocation, &p.Version, &updated, &p.PageCount, &p.CommentVersion, &locales, &xDefault)
	if prio.Valid {
		p.DefaultPriority = &prio.Float64
	}
	p.UpdatedAt, _ = time.Parse("2006-01-02T15:04:05.999Z", updated)
	p.Locales, p.XDefault = readLocales(locales), xDefault.Int64
	return p, err
}

// localesText is a plan's locales as the projects table keeps them: a
// JSON list of siteplan/1's locales, "" for none.
func localesText(ls []site.Locale) string {
	if len(ls) == 0 {
		return ""
	}
	out := make([]site.DocLocale, len(ls))
	for i, l := range ls {
		out[i] = site.DocLocale(l)
	}
	b, _ := json.Marshal(out) // strings and a bool always encode
	return string(b)
}

// readLocales reads localesText's list; what it wrote always reads.
func readLocales(s string) []site.Locale {
	var ls []site.DocLocale
	if s == "" || json.Unmarshal([]byte(s), &ls) != nil {
		return nil
	}
	out := make([]site.Locale, len(ls))
	for i, l := range ls {
		out[i] = site.Locale(l)
	}
	return out
}

// Projects lists a team's projects, most recently changed first.
// Errors: none of its own; a database error as it is.
func (db *Projects) Projects(ctx context.Context, teamID int64) ([]site.Project, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.Project, error) { return scanProject(rows) },
		`SELECT `+projectCols+` FROM projects p WHERE p.team_id = ? AND p.importing = 0 ORDER BY p.updated_at DESC, p.id DESC`, teamID)
}

// Project returns one project. Errors: ENotFound.
func (db *Projects) Project(ctx context.Context, id int64) (site.Project, error) {
	p, err := scanProject(db.r.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ? AND p.importing = 0`, id))
	if err != nil {
		return p, notFound(err, "Project %d does not exist.", id)
	}
	return p, nil
}

// ProjectWithPalette returns one project with its team's page-type
// colours (TeamPalette), read together: every request to a plan needs
// both. Errors: ENotFound.
func (db *Projects) ProjectWithPalette(ctx context.Context, id int64) (site.Project, site.Palette, error) {
	var p site.Project
	rows, err := db.r.QueryContext(ctx, `SELECT `+projectCols+`, coalesce(c.type, ''), coalesce(c.color, '')
		FROM projects p LEFT JOIN type_colors c ON c.team_id = p.team_id
		WHERE p.id = ? AND p.importing = 0 ORDER BY c.position`, id)
	if err != nil {
		return p, site.Palette{}, translate(err)
	}
	defer rows.Close()
	var types []site.TypeColor
	found := false
	for rows.Next() {
		found = true
		var t site.TypeColor
		if p, err = scanProject(scanAlso{rows, []any{&t.Type, &t.Color}}); err != nil {
			return p, site.Palette{}, translate(err)
		}
		if t.Type != "" {
			types = append(types, t)
		}
	}
	if err := rows.Err(); err != nil {
		return p, site.Palette{}, translate(err)
	}
	if !found {
		return p, site.Palette{}, site.Errorf(site.ENotFound, "Project %d does not exist.", id)
	}
	return p, site.NewPalette(types), nil
}

// scanAlso scans a row into the destinations a scan function gives and
// then into more of its own, for a row that holds one thing and more.
type scanAlso struct {
	rows *sql.Rows
	more []any
}

func (s scanAlso) Scan(dest ...any) error { return s.rows.Scan(append(dest, s.more...)...) }

func notFound(err error, format string, args ...any) error {
	if err == sql.ErrNoRows {
		return site.Errorf(site.ENotFound, format, args...)
	}
	return translate(err)
}

// CreateProject validates p, stores it with a home page and sets p.ID.
// Errors: EInvalid.
func (db *Projects) CreateProject(ctx context.Context, p *site.Project) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return db.change(ctx, func(j *journal) error {
		if err := insertProject(ctx, j.tx, p); err != nil {
			return err
		}
		home := site.NewPage("Home")
		home.ProjectID, home.Slug, home.SlugAuto = p.ID, "", false
		j.projectID, j.verb, j.summary, j.undoable, j.newProject = p.ID, "create", "created the project", false, true
		return insertPage(ctx, j.tx, &home)
	})
}

func insertProject(ctx context.Context, tx *sql.Tx, p *site.Project) error {
	if err := tx.QueryRowContext(ctx, `INSERT INTO projects (team_id, name, base_url, trailing_slash, default_changefreq, default_priority, lastmod, sitemap_location, locales)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, p.TeamID, p.Name, p.BaseURL, p.TrailingSlash, p.DefaultChangefreq, nullFloat(p.DefaultPriority),
		p.Lastmod, p.SitemapLocation, localesText(p.Locales)).Scan(&p.ID); err != nil {
		return err
	}
	p.Version = 1
	return watchOnCreate(ctx, tx, p.ID)
}

// UpdateProject validates and saves p's settings if p.Version is current,
// then bumps the version. Errors: EInvalid (also when the new settings
// give two pages one URL), ENotFound, EConflict (stale).
func (db *Projects) UpdateProject(ctx context.Context, p *site.Project) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return db.change(ctx, func(j *journal) error {
		tx := j.tx
		if err := j.inProject(p.ID); err != nil {
			return err
		}
		if err := j.touchProject(); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE projects SET name = ?, base_url = ?, trailing_slash = ?, default_changefreq = ?,
			default_priority = ?, lastmod = ?, sitemap_location = ?, locales = ?, x_default = ?
			WHERE id = ? AND version = ?`,
			p.Name, p.BaseURL, p.TrailingSlash, p.DefaultChangefreq, nullFloat(p.DefaultPriority), p.Lastmod, p.SitemapLocation,
			localesText(p.Locales), nullID(p.XDefault), p.ID, p.Version)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return staleOrMissing(ctx, tx, "projects", p.ID, "Someone else changed this project's settings; the form now shows their version.")
		}
		p.Version++ // by the change's record
		// The trailing-slash policy can make /a and a path override /a/ one URL.
		if _, err = claimURLs(ctx, tx, j, p.ID, []int64{0}); err != nil {
			return err
		}
		j.verb, j.summary = "settings", settingsWords(j.project.Before, site.DocProjectOf(p))
		return nil
	})
}

// RenameProject changes a project's name. Errors: EInvalid, ENotFound.
func (db *Projects) RenameProject(ctx context.Context, id int64, name string) error {
	p, err := db.Project(ctx, id)
	if err != nil {
		return err
	}
	p.Name = name
	if err := p.Validate(); err != nil {
		return err
	}
	return db.change(ctx, func(j *journal) error {
		if err := j.inProject(id); err != nil {
			return err
		}
		if err := j.touchProject(); err != nil {
			return err
		}
		if _, err := j.tx.ExecContext(ctx, `UPDATE projects SET name = ? WHERE id = ?`, p.Name, id); err != nil {
			return err
		}
		j.verb, j.summary = "settings", "renamed the project to “"+p.Name+"”"
		return nil
	})
}

// DeleteProject deletes a project with its pages and links. Errors: ENotFound.
func (db *Projects) DeleteProject(ctx context.Context, id int64) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		// Links and pages first, in bulk, so the cascade does not walk the tree.
		if _, err := tx.ExecContext(ctx, `DELETE FROM links WHERE project_id = ?`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE pages SET parent_id = NULL WHERE project_id = ?`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM pages WHERE project_id = ?`, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM projects WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return site.Errorf(site.ENotFound, "Project %d does not exist.", id)
		}
		return nil
	})
}

// touch bumps a project's version after any change to it or its pages.
func touch(ctx context.Context, tx *sql.Tx, projectID int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE projects SET version = version + 1, updated_at = ? WHERE id = ?`, fmtTime(time.Now()), projectID)
	return err
}

func staleOrMissing(ctx context.Context, tx *sql.Tx, table string, id int64, msg string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE id = ?`, id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return site.Errorf(site.ENotFound, "It was deleted in the meantime.")
	}
	return site.Errorf(site.EConflict, "%s", msg)
}
