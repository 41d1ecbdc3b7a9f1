package store

import (
	"context"
	"database/sql"
	"strings"
)

// dialect is where the two backends differ, gathered in one place: the
// words their SQL says differently, and the few steps one takes that
// the other does not. Everything else is one SQL for both (postgres.go
// numbers the parameters PostgreSQL's way). The schemas' differences
// are listed in migrations_test.go (schemaDifferences).
type dialect struct {
	pg bool // PostgreSQL; SQLite otherwise
}

// lockProject takes the lock of project id's plan on PostgreSQL, in a
// transaction of projectTx; SQLite's one writer needs none.
func (d dialect) lockProject(ctx context.Context, tx *sql.Tx, id int64) error {
	if !d.pg {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(CAST(? AS INTEGER), CAST(? AS INTEGER))`, projectLocks, id)
	return err
}

// lockTeamOf takes the lock of the team of project id on PostgreSQL, in a
// transaction of projectTx that holds that project's lock: for what
// counts across a team's plans (the deliveries its webhooks hold).
func (d dialect) lockTeamOf(ctx context.Context, tx *sql.Tx, id int64) error {
	if !d.pg {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(CAST(? AS INTEGER), CAST(team_id AS INTEGER)) FROM projects WHERE id = ?`, teamLocks, id)
	return err
}

// txLock is the statement a write transaction begins with to take the
// advisory lock of its kind (lock, with writeLock as its key), or ""
// where none is taken (SQLite, whose one writer is the lock).
func (d dialect) txLock(lock string) string {
	if !d.pg {
		return ""
	}
	return lock
}

// skipLocked is what a claim's subquery over table alias a ends with:
// on PostgreSQL, another server's claim holds its row, so take the next.
// SQLite's one writer claims one at a time.
func (d dialect) skipLocked(a string) string {
	if !d.pg {
		return ""
	}
	return " FOR UPDATE OF " + a + " SKIP LOCKED"
}

// unitSeparator and jsonArray are SQLite's char(31) and json_array in
// the backend's words.
func (d dialect) unitSeparator() string {
	if d.pg {
		return "chr(31)"
	}
	return "char(31)"
}

func (d dialect) jsonArray() string {
	if d.pg {
		return "json_build_array"
	}
	return "json_array"
}

// nextIDs takes n ids of the pages' sequence at once and returns the
// first (its parameter ?1 is n).
func (d dialect) nextIDs() string {
	if d.pg {
		return `SELECT setval(pg_get_serial_sequence('pages', 'id'), nextval(pg_get_serial_sequence('pages', 'id')) + ?1 - 1) - ?1 + 1`
	}
	return `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'pages'), 0),
		coalesce((SELECT max(id) FROM pages), 0)) + 1`
}

// lastSequence reads the last id table's sequence gave (sql.ErrNoRows
// where it gave none).
func (d dialect) lastSequence(ctx context.Context, tx *sql.Tx, table string) (int64, error) {
	var seq int64
	var err error
	if d.pg {
		err = tx.QueryRowContext(ctx, `SELECT COALESCE(last_value, 0) FROM pg_sequences
			WHERE sequencename = ? AND schemaname = current_schema()`, table+"_id_seq").Scan(&seq)
	} else {
		err = tx.QueryRowContext(ctx, `SELECT seq FROM sqlite_sequence WHERE name = ?`, table).Scan(&seq)
	}
	return seq, err
}

// setSequence makes table's next id come after id.
func (d dialect) setSequence(ctx context.Context, tx *sql.Tx, table string, id int64) error {
	if d.pg {
		_, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence(?, 'id'), ?)`, table, id)
		return err
	}
	// Only a table whose ids never come back (AUTOINCREMENT) keeps its
	// sequence, in sqlite_sequence.
	var ddl string
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&ddl); err != nil ||
		!strings.Contains(strings.ToUpper(ddl), "AUTOINCREMENT") {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sqlite_sequence WHERE name = ?`, table); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)`, table, id)
	return err
}

// snapshot are the options of a read transaction that sees one moment:
// SQLite's is one already (WAL); PostgreSQL's is one when asked.
func (d dialect) snapshot() *sql.TxOptions {
	opts := &sql.TxOptions{ReadOnly: true}
	if d.pg {
		opts.Isolation = sql.LevelRepeatableRead
	}
	return opts
}

// The steps one backend takes and the other does not, by name.

// sharedLive: the live hub's events go through the database to the
// other servers on it (PostgreSQL's NOTIFY); SQLite has one server.
func (d dialect) sharedLive() bool { return d.pg }

// oneQueryAtATime: pgx reads one query at a time on a connection, so a
// walk reads a level whole before its branches.
func (d dialect) oneQueryAtATime() bool { return d.pg }

// bulkCopy: an import writes its chunks with COPY (PostgreSQL), not
// INSERTs of many rows a statement (SQLite).
func (d dialect) bulkCopy() bool { return d.pg }

// keysChecked: the database checks foreign keys as it goes, by index
// (PostgreSQL), so a write whose references are right by construction
// need not turn them off, as SQLite's import does for speed.
func (d dialect) keysChecked() bool { return d.pg }

// sharesServers: several servers, on other machines, may write the
// database, so whether the process that began an import still runs is
// not known from here (SQLite's writers share one machine).
func (d dialect) sharesServers() bool { return d.pg }

// vacuumInto: a backup is SQLite's VACUUM INTO; PostgreSQL's is a Copy
// into a new SQLite file.
func (d dialect) vacuumInto() bool { return !d.pg }

// historyInOneStatement: a change's history is written in one statement
// (recordPG) so that concurrent writers of other plans wait on nothing.
func (d dialect) historyInOneStatement() bool { return d.pg }

// wordsMatch is what a query of pages p reads them from, and the
// condition, with its argument, that their words (search_words) hold
// words in that order, the last one cut short or not: SQLite's
// full-text table (page_search, 0034_page_search.sql) joined to the
// pages, so that its matches come in turn and a LIMIT stops them;
// PostgreSQL's GIN index of to_tsvector. The words are site.SearchKey's:
// letters and digits, nothing to escape.
func (d dialect) wordsMatch(words []string) (from, cond string, arg any) {
	if d.pg {
		return `pages p`, `to_tsvector('simple', p.search_words) @@ to_tsquery('simple', ?)`, strings.Join(words, " <-> ") + ":*"
	}
	return `page_search JOIN pages p ON p.id = page_search.rowid`, `page_search MATCH ?`, `"` + strings.Join(words, " ") + `"*`
}
