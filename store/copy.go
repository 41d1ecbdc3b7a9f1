package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"siteplan/site"
)

// A whole database moves between SQLite and PostgreSQL (siteplan
// migrate) and is backed up while it serves (siteplan backup) by Copy:
// every row of every table, ids included, read in one snapshot of the
// source and written in one transaction of the target, which must be
// new. The schemas are the same on both backends, table for table and
// column for column.

// copyTables are the tables Copy copies, each after those it refers to.
// parent names a column that refers to the table's own rows: those rows
// are copied parents first. Not copied: schema_migrations (each
// database's own), rate_buckets, api_idempotency, live_events and the live-site jobs
// (site_jobs, site_job_chunks): the passing state of running servers;
// and SQLite's search table (page_search, with its shadow tables),
// which its triggers fill as the pages are copied.
var copyTables = []struct{ name, parent string }{
	{"teams", ""}, {"users", ""}, {"memberships", ""}, {"sessions", ""}, {"invites", ""},
	{"server_keys", ""}, {"team_themes", ""}, {"type_colors", ""}, {"starter_plans", ""},
	{"webhooks", ""}, {"deliveries", ""},
	{"projects", ""}, {"project_themes", ""}, {"pages", "parent_id"}, {"page_variants", ""}, {"page_slugs", ""}, {"links", ""},
	{"share_links", ""}, {"comments", "parent_id"}, {"changes", ""}, {"change_pages", ""},
	{"versions", ""}, {"approvals", ""}, {"old_urls", ""}, {"launched_urls", ""}, {"launch_checks", ""},
	{"notifications", ""}, {"watches", ""},
	{"studies", ""}, {"study_tasks", ""}, {"study_participants", ""}, {"study_events", ""},
	{"api_tokens", ""}, {"proposals", ""}, {"proposal_comments", ""}, {"rate_cards", ""},
}

// copyBatch bounds the rows of one INSERT, under both backends' limits
// on a statement's parameters.
const copyBatch = 500

// Copied is how many rows of each table Copy copied, in copyTables'
// order.
type Copied []struct {
	Table string
	Rows  int64
}

// Copy copies every row of from into to, a new database (no users, no
// projects), and checks that each table then holds as many rows in
// both. From may be serving meanwhile: it is read in one snapshot.
// Errors: EConflict (to has data), and those of the databases.
func Copy(ctx context.Context, from, to *Store) (Copied, error) {
	var used int
	if err := to.r.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM projects)`).Scan(&used); err != nil {
		return nil, translate(err)
	}
	if used > 0 {
		return nil, site.Errorf(site.EConflict, "The target database has users or plans: copy into a new, empty database.")
	}
	src, err := from.r.BeginTx(ctx, from.snapshot())
	if err != nil {
		return nil, translate(err)
	}
	defer src.Rollback()
	var out Copied
	var withIDs []string // the tables with ids
	err = to.tx(ctx, func(dst *sql.Tx) error {
		// The new database's own rows (its default team) make way.
		for i := len(copyTables) - 1; i >= 0; i-- {
			if _, err := dst.ExecContext(ctx, `DELETE FROM `+copyTables[i].name); err != nil {
				return err
			}
		}
		for _, t := range copyTables {
			n, cols, err := copyTable(ctx, src, dst, t.name, t.parent)
			if err != nil {
				return fmt.Errorf("copy %s: %w", t.name, err)
			}
			if slices.Contains(cols, "id") {
				withIDs = append(withIDs, t.name)
			}
			out = append(out, struct {
				Table string
				Rows  int64
			}{t.name, n})
		}
		// The triggers on pages counted nothing and listed no slug while
		// the projects said they were importing (copyTable); the projects
		// say now what the source's say.
		if err := copyImporting(ctx, src, dst); err != nil {
			return err
		}
		last, err := from.lastIDs(ctx, src, withIDs)
		if err != nil {
			return err
		}
		return to.continueIDs(ctx, dst, last)
	})
	if err != nil {
		return nil, err
	}
	for _, c := range out {
		var n int64
		if err := to.r.QueryRowContext(ctx, `SELECT count(*) FROM `+c.Table).Scan(&n); err != nil {
			return nil, translate(err)
		}
		if n != c.Rows {
			return nil, fmt.Errorf("copy %s: %d rows read, %d in the copy", c.Table, c.Rows, n)
		}
	}
	return out, nil
}

// copyTable copies one table's rows, parents first if parent is set,
// and returns how many and its columns. Projects are written as importing, so that the
// triggers on pages leave their page counts and slug lists, copied as
// they are, alone.
func copyTable(ctx context.Context, src, dst *sql.Tx, table, parent string) (n int64, cols []string, err error) {
	query := `SELECT * FROM ` + table + ` ORDER BY 1`
	if parent != "" {
		query = `WITH RECURSIVE d(id, depth) AS (
				SELECT id, 0 FROM ` + table + ` WHERE ` + parent + ` IS NULL
				UNION ALL SELECT t.id, d.depth + 1 FROM ` + table + ` t JOIN d ON t.` + parent + ` = d.id)
			SELECT t.* FROM ` + table + ` t JOIN d ON d.id = t.id ORDER BY d.depth, t.id`
	}
	rows, err := src.QueryContext(ctx, query)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	if cols, err = rows.Columns(); err != nil {
		return 0, nil, err
	}
	importing := -1
	for i, c := range cols {
		if table == "projects" && c == "importing" {
			importing = i
		}
	}
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	per := max(1, min(copyBatch, 30000/len(cols)))
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = `"` + c + `"`
	}
	batch := make([]any, 0, per*len(cols))
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		k := len(batch) / len(cols)
		_, err := dst.ExecContext(ctx, `INSERT INTO `+table+` (`+strings.Join(quoted, ", ")+`) VALUES `+
			strings.TrimSuffix(strings.Repeat(one+", ", k), ", "), batch...)
		batch = batch[:0]
		return err
	}
	vals, ptrs := anyRow(len(cols))
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return 0, nil, err
		}
		if importing >= 0 {
			vals[importing] = int64(1)
		}
		batch = append(batch, vals...)
		n++
		if len(batch) == per*len(cols) {
			if err := flush(); err != nil {
				return 0, nil, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return 0, nil, err
	}
	return n, cols, flush()
}

// anyRow is a row of n values of any type and the pointers Scan reads
// them into.
func anyRow(n int) (vals, ptrs []any) {
	vals, ptrs = make([]any, n), make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	return vals, ptrs
}

// copyImporting sets each copied project's importing flag as the
// source has it: 0 but for an import's leftovers.
func copyImporting(ctx context.Context, src, dst *sql.Tx) error {
	ids, err := collect(ctx, src, scanID, `SELECT id FROM projects WHERE importing <> 0`)
	if err != nil {
		return err
	}
	if _, err := dst.ExecContext(ctx, `UPDATE projects SET importing = 0`); err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := dst.ExecContext(ctx, `UPDATE projects SET importing = 1 WHERE id = ?`, id); err != nil {
			return err
		}
	}
	return nil
}

// lastIDs is, for each table with ids, the largest id it ever handed
// out, deleted rows' too: SQLite's sqlite_sequence (AUTOINCREMENT), else
// the largest id there is; PostgreSQL's identity sequences.
func (db *conn) lastIDs(ctx context.Context, tx *sql.Tx, tables []string) (map[string]int64, error) {
	last := map[string]int64{}
	for _, t := range tables {
		var id int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM `+t).Scan(&id); err != nil {
			return nil, err
		}
		seq, err := db.lastSequence(ctx, tx, t)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		last[t] = max(id, seq)
	}
	return last, nil
}

// continueIDs makes each table's next id come after last's, as the
// source would have gone on.
func (db *conn) continueIDs(ctx context.Context, tx *sql.Tx, last map[string]int64) error {
	for table, id := range last {
		if id == 0 {
			continue
		}
		err := db.setSequence(ctx, tx, table, id)
		if err != nil {
			return fmt.Errorf("continue the ids of %s: %w", table, err)
		}
	}
	return nil
}

// Backup writes a consistent copy of db, which may be serving, to a new
// SQLite file at path (replacing one there only once the copy is
// whole): SQLite's VACUUM INTO a file of a SQLite database, Copy of a
// PostgreSQL one.
func Backup(ctx context.Context, db *Store, path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".siteplan-backup-*")
	if err != nil {
		return err
	}
	tmp.Close()
	os.Remove(tmp.Name()) // VACUUM INTO wants to make the file itself
	defer os.Remove(tmp.Name())
	if !db.vacuumInto() {
		to, err := openSQLite(tmp.Name())
		if err != nil {
			return err
		}
		_, err = Copy(ctx, db, to)
		if err := errors.Join(err, to.Close()); err != nil {
			return err
		}
	} else if _, err := db.r.ExecContext(ctx, `VACUUM INTO ?`, tmp.Name()); err != nil {
		return translate(err)
	}
	return os.Rename(tmp.Name(), path)
}
