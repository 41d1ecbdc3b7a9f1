// Package store persists siteplan's domain in SQLite (modernc.org/sqlite,
// pure Go), the default, or in PostgreSQL (pgx) for several servers on
// one database. It takes and returns site types and turns SQL errors
// into site error codes; nothing else in siteplan sees SQL.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"siteplan/internal/proc"
	"siteplan/site"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrations embed.FS

// conn is the connection every part of the store shares. On SQLite: one
// writer connection (transactions take the write lock at BEGIN) and a
// pool of readers. On PostgreSQL: one pool (w and r), whose write
// transactions take one advisory lock, so that they follow one another
// as SQLite's do, whichever server runs them.
type conn struct {
	parts *Store // the parts, for a step of one that asks another
	w, r  *sql.DB
	dialect
	// pgcfg makes connections of their own (the live listener's).
	pgcfg *pgx.ConnConfig
	// Now is the clock for sessions, invites, share links and comments;
	// tests move it.
	Now func() time.Time

	owner string // this DB, as the owner of the imports it writes (a proc.Tag)
	// livePruned is when PublishLive last removed old live events (Unix s).
	livePruned atomic.Int64
	mu         sync.Mutex
	live       map[int64]bool // this process's imports not yet committed or discarded
	// queuing holds the open write transactions that queued work for the
	// background jobs (webhook deliveries, inbox lines to e-mail); queued
	// rings when one of them commits.
	queuing sync.Map // *sql.Tx -> struct{}
	queued  bell
	// jobsChanged rings after this process changes a live-site job;
	// jobsCancelled after it asks one to stop.
	jobsChanged, jobsCancelled bell
}

// bell wakes whoever waits on it: a channel closed, and replaced, at
// each ring.
type bell struct {
	mu sync.Mutex
	ch chan struct{}
}

func (b *bell) wait() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch == nil {
		b.ch = make(chan struct{})
	}
	return b.ch
}

func (b *bell) ring() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch != nil {
		close(b.ch)
		b.ch = nil
	}
}

// Queued is closed after the commit of a write of this process that
// queued work for the background jobs: webhook deliveries or inbox lines
// to e-mail. Ask again for the next one. Other servers on the same
// database learn of such work when they next look for it.
// Errors: none of its own; a database error as it is.
func (db *Store) Queued() <-chan struct{} { return db.queued.wait() }

// queue marks tx as a write that queues background work.
func (db *conn) queue(tx *sql.Tx) { db.queuing.Store(tx, struct{}{}) }

// Open opens the database dsn names, a SQLite file (created if needed)
// or a postgres:// URL, and applies pending migrations.
func Open(dsn string) (*Store, error) {
	if isPostgres(dsn) {
		return openPG(dsn)
	}
	return openSQLite(dsn)
}

// openSQLite opens (creating if needed) the SQLite file at path.
func openSQLite(path string) (*Store, error) {
	dsn := func(txlock string) string {
		q := url.Values{}
		for _, p := range []string{"busy_timeout(5000)", "journal_mode(WAL)", "foreign_keys(1)", "synchronous(NORMAL)", "temp_store(MEMORY)"} {
			q.Add("_pragma", p)
		}
		if txlock != "" {
			q.Set("_txlock", txlock)
			// The one writer keeps up to 32 MiB of pages, not SQLite's
			// 2 MiB, so a large import's index pages are not spilled and
			// read back one by one. It checkpoints the WAL into the
			// database at 80 MB, not 4 MB, so that a large import's
			// chunks are copied into it a few at a time, not each on
			// its own (docs/benchmarks.md).
			q.Add("_pragma", "cache_size(-32768)")
			q.Add("_pragma", "wal_autocheckpoint(20000)")
		}
		return "file:" + path + "?" + q.Encode()
	}
	if err := useWAL(path); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	w, err := sql.Open("sqlite", dsn("immediate"))
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	db := newStore(&conn{w: w, Now: time.Now, owner: proc.Tag(), live: map[int64]bool{}})
	if err := db.migrate(context.Background()); err != nil {
		w.Close()
		return nil, fmt.Errorf("migrate %s: %w", path, err)
	}
	if _, err := db.Projects.RemoveLeftovers(context.Background()); err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", dsn(""))
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(max(4, runtime.NumCPU()*2))
	db.r = r
	return db, nil
}

// useWAL puts the SQLite file at path in WAL mode, as every connection
// then finds it. SQLite answers "busy" at once, without waiting, when
// two processes make a new file WAL together (serve and an import
// started at the same moment); so it is asked here, again until it
// holds, for up to the busy timeout's 5 s.
func useWAL(path string) error {
	c, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return err
	}
	defer c.Close()
	var se *sqlite.Error
	for wait := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, err := c.Exec(`PRAGMA journal_mode = WAL`)
		if !errors.As(err, &se) || se.Code() != sqlite3.SQLITE_BUSY || time.Now().After(wait) {
			return err
		}
	}
}

// openPG opens the PostgreSQL database at url: a pool for writes and
// one for reads, as on SQLite. Write transactions wait for one another
// (writeLock), each holding a connection of the writer pool while it
// waits; a read made during a write (the tree a change checks) takes
// one of the reader pool, which waiting writers never hold. On one pool
// the writer holding the lock waited for a connection that the writers
// waiting for the lock held: seconds of stall under load.
func openPG(url string) (*Store, error) {
	w, cfg, err := openPostgres(url)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", redactURL(url), err)
	}
	r, _, err := openPostgres(url)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", redactURL(url), err)
	}
	w.SetMaxOpenConns(pgWriters)
	w.SetMaxIdleConns(pgWriters)
	r.SetMaxOpenConns(max(8, runtime.NumCPU()*4))
	r.SetMaxIdleConns(max(8, runtime.NumCPU()*4))
	db := newStore(&conn{w: w, r: r, dialect: dialect{pg: true}, pgcfg: cfg, Now: time.Now, owner: proc.Tag(), live: map[int64]bool{}})
	if err := db.migratePG(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate %s: %w", redactURL(url), err)
	}
	if _, err := db.Projects.RemoveLeftovers(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", redactURL(url), err)
	}
	return db, nil
}

// pgWriters is the size of the writer pool on PostgreSQL: the writes to
// different plans run side by side (projectTx), and a few more wait
// ready. More connections only had more transactions compete for the
// same cores and made the edits' tail longer (docs/benchmarks.md).
const pgWriters = 4

// redactURL is a database URL without its password, for messages.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the database URL"
	}
	return u.Redacted()
}

// Ping reports whether the database answers a query.
// Errors: none of its own; a database error as it is.
func (db *Store) Ping(ctx context.Context) error {
	var one int
	return db.r.QueryRowContext(ctx, `SELECT 1`).Scan(&one)
}

// Close closes the pools.
// Errors: none of its own; a database error as it is.
func (db *Store) Close() error {
	return errors.Join(db.r.Close(), db.w.Close())
}

// Lock keys of PostgreSQL's advisory locks (pg_advisory_lock).
const (
	migrateLock = 0x5e7e91a0 // migrations: one server migrates, the others wait
	writeLock   = 0x5e7e91a1 // write transactions, one at a time
	liveLock    = 0x5e7e91a2 // live events, numbered in the order they commit
	// projectLocks is the first key of the locks of projects' plans
	// (journal.inProject), with the project's id as the second:
	// PostgreSQL keeps two-key locks apart from one-key ones.
	projectLocks = 0x5e7e
	// teamLocks is the first key of the teams' locks (lockTeamOf), the
	// second the team's id.
	teamLocks = 0x5e7f
)

// migratePG applies the PostgreSQL migrations not yet applied, under an
// advisory lock: of servers started together, one migrates and the
// others wait for it, then find nothing to do.
func (db *conn) migratePG(ctx context.Context) error {
	conn, err := db.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(?)`, migrateLock); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(?)`, migrateLock)
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY)`); err != nil {
		return err
	}
	return applyMigrations(ctx, conn, "postgres")
}

// applyMigrations applies, on conn, the migrations of backend not yet
// applied, in order, each in a transaction of its own (migrateOne).
func applyMigrations(ctx context.Context, conn *sql.Conn, backend string) error {
	names, err := fs.Glob(migrations, "migrations/"+backend+"/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		var v int
		if _, err := fmt.Sscanf(path.Base(name), "%d_", &v); err != nil {
			return fmt.Errorf("migration %s: name must start with a number", name)
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return err
		}
		if otherOnly(backend, string(body)) {
			body = nil // the step is the other backend's: recorded, nothing run
		}
		if err := migrateOne(ctx, conn, name, v, string(body), backend == "sqlite"); err != nil {
			return err
		}
	}
	return nil
}

func (db *conn) migrate(ctx context.Context) error {
	// One connection for all migrations, with foreign keys off: a
	// migration that rebuilds a table (0007) drops the old one, which
	// would otherwise cascade into every table referring to it. Each
	// migration checks the keys before it commits.
	conn, release, err := db.unchecked(ctx)
	if err != nil {
		return err
	}
	defer release()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)`); err != nil {
		return err
	}
	if err := oneTimeline(ctx, conn); err != nil {
		return err
	}
	return applyMigrations(ctx, conn, "sqlite")
}

// otherOnly reports whether a migration of backend is a step only the
// other backend takes: its first line says "-- postgres only:" (in
// migrations/sqlite) or "-- sqlite only:" (in migrations/postgres), and
// why.
func otherOnly(backend, body string) bool {
	other := map[string]string{"sqlite": "postgres", "postgres": "sqlite"}[backend]
	return strings.HasPrefix(body, "-- "+other+" only:")
}

// timelineMark is the version schema_migrations holds once a SQLite
// database counts its steps on the timeline both backends share.
const timelineMark = 0

// oneTimeline moves, once, a SQLite database from before the backends
// shared one timeline of steps onto it: SQLite's steps 0028 to 0032 are
// now 0029 to 0033, after PostgreSQL's own 0028, which SQLite records as
// taken. A new database is marked at once.
func oneTimeline(ctx context.Context, conn *sql.Conn) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var marked bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?)`, timelineMark).Scan(&marked); err != nil || marked {
		return err
	}
	for _, q := range []string{
		`UPDATE schema_migrations SET version = version + 1000 WHERE version >= 28`,
		`UPDATE schema_migrations SET version = version - 999 WHERE version >= 1000`,
		`INSERT INTO schema_migrations (version) SELECT 28 WHERE EXISTS (SELECT 1 FROM schema_migrations WHERE version > 28)`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version) VALUES (?)`, timelineMark); err != nil {
		return err
	}
	return tx.Commit()
}

// migrateOne applies one migration in a transaction, unless it was
// applied already. On SQLite (checkKeys) it refuses one that leaves a
// foreign key dangling; PostgreSQL refuses that as it goes.
func migrateOne(ctx context.Context, conn *sql.Conn, name string, v int, body string, checkKeys bool) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Asked inside the transaction, which holds the write lock: another
	// process that opened the database at the same time may have
	// applied it since this one looked.
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, v).Scan(&done); err != nil || done > 0 {
		return err
	}
	if body != "" {
		if _, err := tx.ExecContext(ctx, body); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if step := goSteps[v]; step != nil {
		if err := step(ctx, tx); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if checkKeys {
		var bad int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_foreign_key_check`).Scan(&bad); err != nil {
			return err
		}
		if bad > 0 {
			return fmt.Errorf("%s: %d rows refer to rows that do not exist", name, bad)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version) VALUES (?)`, v); err != nil {
		return err
	}
	return tx.Commit()
}

// querier is a connection pool or a transaction.
type querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	QueryRowContext(context.Context, string, ...any) *sql.Row
}

// scanID and scanString read a row of one id or one string, for collect.
func scanID(rows *sql.Rows) (id int64, err error)     { return id, rows.Scan(&id) }
func scanString(rows *sql.Rows) (s string, err error) { return s, rows.Scan(&s) }

// collect runs a query and returns its rows, each read by scan.
func collect[T any](ctx context.Context, q querier, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	return collectSized(ctx, q, 0, scan, query, args...)
}

// collectSized is collect for a caller that knows about how many rows
// come (size), so that a large read does not copy them again and again
// as its slice grows.
func collectSized[T any](ctx context.Context, q querier, size int, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	if size > 0 {
		out = make([]T, 0, size)
	}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// tx runs fn in one write transaction.
// On PostgreSQL it waits for every other write transaction, as SQLite's
// one writer does (writeLock, taken exclusively).
func (db *conn) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	return db.txLocked(ctx, `SELECT pg_advisory_xact_lock(?)`, fn)
}

// projectTx runs fn in one write transaction that writes one project's
// plan and locks that project itself (journal.inProject). On PostgreSQL
// such transactions on different projects run side by side, sharing
// writeLock: they wait only for the transactions of tx.
func (db *conn) projectTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return db.txLocked(ctx, `SELECT pg_advisory_xact_lock_shared(?)`, fn)
}

// rowTx runs fn in one write transaction that takes no advisory lock on
// PostgreSQL: for rows whose rules the database's own keys and row locks
// hold (site_jobs), so that it waits for no plan's writes.
func (db *conn) rowTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return db.txLocked(ctx, "", fn)
}

func (db *conn) txLocked(ctx context.Context, lock string, fn func(*sql.Tx) error) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(err)
	}
	if lock = db.txLock(lock); lock != "" {
		if _, err := tx.ExecContext(ctx, lock, writeLock); err != nil {
			tx.Rollback()
			return translate(err)
		}
	}
	return db.finish(tx, fn)
}

// finish runs fn in tx and commits, or rolls back if fn fails; a commit
// of a write that queued background work rings Queued.
func (db *conn) finish(tx *sql.Tx, fn func(*sql.Tx) error) error {
	err := fn(tx)
	if err != nil {
		tx.Rollback()
	} else {
		err = tx.Commit()
	}
	if _, queued := db.queuing.LoadAndDelete(tx); queued && err == nil {
		db.queued.ring()
	}
	return translate(err)
}

// unchecked returns the one writer connection with foreign keys not
// enforced, and release, which enforces them again before anything else
// may use the connection, or closes it.
func (db *conn) unchecked(ctx context.Context) (conn *sql.Conn, release func(), err error) {
	if conn, err = db.w.Conn(ctx); err != nil {
		return nil, nil, err
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		conn.Close()
		return nil, nil, err
	}
	return conn, func() {
		if _, err := conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = ON`); err != nil {
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
	}, nil
}

// txUnchecked is tx without foreign keys enforced, for writes whose
// references are right by construction (an import's chunks, whose
// parents it numbers itself): SQLite otherwise looks up each new row's
// project and parent, a fifth of the time of importing 200,000 pages.
func (db *conn) txUnchecked(ctx context.Context, fn func(*sql.Tx) error) error {
	if db.keysChecked() {
		return db.tx(ctx, fn)
	}
	conn, release, err := db.unchecked(ctx)
	if err != nil {
		return err
	}
	defer release()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return translate(err)
	}
	return db.finish(tx, fn)
}

// pgUniqueViolation is PostgreSQL's SQLSTATE for a unique key violated.
const pgUniqueViolation = "23505"

// translate maps SQL errors to site error codes.
func translate(err error) error {
	var se *sqlite.Error
	var pe *pgconn.PgError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		return site.Errorf(site.ENotFound, "Not found.")
	case errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY),
		errors.As(err, &pe) && pe.Code == pgUniqueViolation:
		return site.Errorf(site.EConflict, "That already exists.")
	}
	return err
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func nullFloat(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// FindTeam returns the team whose id or name is ref; an empty ref means the
// only team there is. Errors: ENotFound, EInvalid (several teams and no
// ref).
func (db *Teams) FindTeam(ctx context.Context, ref string) (site.Team, error) {
	var t site.Team
	if ref == "" {
		var n int
		err := db.r.QueryRowContext(ctx, `SELECT count(*), coalesce(min(id), 0), coalesce(min(name), '') FROM teams`).Scan(&n, &t.ID, &t.Name)
		switch {
		case err != nil:
			return t, err
		case n == 0:
			return t, site.Errorf(site.ENotFound, "There is no team yet: sign up first, or add one with siteplan user add.")
		case n > 1:
			return t, site.Errorf(site.EInvalid, "This database has %d teams: name one with --team (its id or name).", n)
		}
		return t, nil
	}
	t, err := teamByRef(ctx, db.r, ref)
	if errors.Is(err, sql.ErrNoRows) {
		return t, site.Errorf(site.ENotFound, "There is no team %q: give a team's id or name.", ref)
	}
	return t, err
}

// teamByRef finds a team by id or name (sql.ErrNoRows if none).
func teamByRef(ctx context.Context, q querier, ref string) (site.Team, error) {
	var t site.Team
	id, perr := strconv.ParseInt(ref, 10, 64)
	err := q.QueryRowContext(ctx, `SELECT id, name FROM teams WHERE (id = ? AND ? = 1) OR name = ? ORDER BY id LIMIT 1`, id, perr == nil, ref).Scan(&t.ID, &t.Name)
	return t, err
}
