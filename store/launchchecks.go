package store

import (
	"context"
	"database/sql"
	"time"

	"siteplan/site"
)

// SaveLaunchCheck keeps a launch check of its project, and lets go of
// the project's checks older than the newest site.LaunchChecksKept, in
// one transaction. It returns the check with its ID and time. Errors:
// ENotFound (no such project), ETooLarge (a report past
// site.MaxLaunchReport).
func (db *History) SaveLaunchCheck(ctx context.Context, c site.LaunchCheck) (site.LaunchCheck, error) {
	if len(c.Report) > site.MaxLaunchReport {
		return c, site.Errorf(site.ETooLarge, "The check's report is larger than %d MB.", site.MaxLaunchReport>>20)
	}
	c.At = time.Now().UTC()
	err := db.tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO launch_checks (project_id, at, by_name, base, version, errors, warnings, report)
			SELECT id, ?, ?, ?, ?, ?, ?, ? FROM projects WHERE id = ? RETURNING id`,
			c.At.Format(timeFormat), c.By, c.Base, c.Version, c.Errors, c.Warnings, c.Report, c.ProjectID).Scan(&c.ID)
		if err == sql.ErrNoRows {
			return site.Errorf(site.ENotFound, "Project %d does not exist.", c.ProjectID)
		}
		if err != nil {
			return err
		}
		if err := db.enqueue(ctx, tx, site.Event{Kind: site.EventLaunch, ProjectID: c.ProjectID, Actor: c.By, At: c.At,
			Body: c.Base + ": " + site.Plural(c.Errors, "error", "errors") + ", " + site.Plural(c.Warnings, "warning", "warnings")}); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM launch_checks WHERE project_id = ?1 AND id NOT IN
			(SELECT id FROM launch_checks WHERE project_id = ?1 ORDER BY id DESC LIMIT ?2)`, c.ProjectID, site.LaunchChecksKept)
		return err
	})
	return c, translate(err)
}

// LaunchChecks returns the newest n launch checks of a project, newest
// first, with their reports. Errors: those of the database.
func (db *History) LaunchChecks(ctx context.Context, projectID int64, n int) ([]site.LaunchCheck, error) {
	return db.launchChecks(ctx, `project_id = ? ORDER BY id DESC LIMIT ?`, projectID, n)
}

// LaunchCheck is check id of a project. Errors: ENotFound.
func (db *History) LaunchCheck(ctx context.Context, projectID, id int64) (site.LaunchCheck, error) {
	cs, err := db.launchChecks(ctx, `project_id = ? AND id = ?`, projectID, id)
	if err == nil && len(cs) == 0 {
		err = site.Errorf(site.ENotFound, "Launch check %d does not exist.", id)
	}
	if err != nil {
		return site.LaunchCheck{}, err
	}
	return cs[0], nil
}

// launchChecks are the kept checks where picks.
func (db *History) launchChecks(ctx context.Context, where string, args ...any) ([]site.LaunchCheck, error) {
	cs, err := collect(ctx, db.r, func(rows *sql.Rows) (site.LaunchCheck, error) {
		var c site.LaunchCheck
		var at string
		err := rows.Scan(&c.ID, &c.ProjectID, &at, &c.By, &c.Base, &c.Version, &c.Errors, &c.Warnings, &c.Report)
		c.At, _ = time.Parse(timeFormat, at)
		return c, err
	}, `SELECT id, project_id, at, by_name, base, version, errors, warnings, report FROM launch_checks WHERE `+where, args...)
	return cs, translate(err)
}
