package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Live events are what one instance's live hub tells the hubs of the
// other instances on a PostgreSQL database: changes, who is viewing,
// streams to end. Each is a row of live_events, numbered in the order
// the rows commit (they are written under an advisory lock), and a
// NOTIFY on liveChannel wakes the listeners, who read the rows past the
// last one they read. So a payload has no size limit (NOTIFY's is 8,000
// bytes), and a listener whose connection dropped reads, once back, what
// came meanwhile. Rows are kept liveKept. On SQLite, one process serves
// the file and there is nothing to tell.
const (
	liveChannel = "siteplan_live"
	liveKept    = 5 * time.Minute
	livePrune   = 10 // seconds between removals of the rows past liveKept
	// liveApp names the listeners' connections in pg_stat_activity.
	liveApp = "siteplan-live"
)

// SharedLive reports whether other instances may serve the database,
// so that the live hub must tell them its events: true on PostgreSQL.
// Errors: none of its own; a database error as it is.
func (db *Live) SharedLive() bool { return db.sharedLive() }

// PublishLive keeps payloads, in order, for the listeners of every
// instance and wakes them. It does nothing on SQLite.
//
// It is one statement, so one round trip, in a transaction of its own:
// the lock is taken before the rows are numbered and held until they
// commit, so rows commit in the order of their numbers and a listener
// reading past the last number it read misses none.
// Errors: none of its own; a database error as it is.
func (db *Live) PublishLive(ctx context.Context, payloads ...[]byte) error {
	if !db.sharedLive() || len(payloads) == 0 {
		return nil
	}
	now := time.Now()
	_, err := db.w.ExecContext(ctx, `WITH locked AS (SELECT pg_advisory_xact_lock(?)),
		added AS (INSERT INTO live_events (at, payload)
			SELECT ?, p.payload FROM locked, unnest(CAST(? AS BYTEA[])) WITH ORDINALITY AS p(payload, n) ORDER BY p.n RETURNING id)
		SELECT pg_notify(?, '') FROM (SELECT count(*) FROM added) AS n`, liveLock, now.Unix(), payloads, liveChannel)
	if err != nil {
		return translate(err)
	}
	// Rows older than liveKept go now and then, not with every event.
	if last := db.livePruned.Load(); now.Unix()-last >= livePrune && db.livePruned.CompareAndSwap(last, now.Unix()) {
		_, err = db.w.ExecContext(ctx, `DELETE FROM live_events WHERE at < ?`, now.Add(-liveKept).Unix())
	}
	return translate(err)
}

// LiveCursor is the number of the last live event, for a listener to
// start after.
// Errors: none of its own; a database error as it is.
func (db *Live) LiveCursor(ctx context.Context) (int64, error) {
	if !db.sharedLive() {
		return 0, nil
	}
	var id int64
	err := db.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM live_events`).Scan(&id)
	return id, translate(err)
}

// ListenLive hands deliver, in order, the payload of each live event
// numbered after after, and then of each as it comes, on a connection
// of its own, until ctx ends (nil) or the connection fails (its error).
// It returns the number of the last event delivered: listening again
// from there misses nothing kept. On SQLite it waits for ctx.
func (db *Live) ListenLive(ctx context.Context, after int64, deliver func(payload []byte)) (last int64, err error) {
	last = after
	if !db.sharedLive() {
		<-ctx.Done()
		return last, nil
	}
	cfg := db.pgcfg.Copy()
	cfg.RuntimeParams["application_name"] = liveApp
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return last, quiet(ctx, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, `LISTEN `+liveChannel); err != nil {
		return last, quiet(ctx, err)
	}
	for {
		// The listener's own connection is pgx's, without the store's
		// rebinding: PostgreSQL's parameters.
		rows, err := conn.Query(ctx, `SELECT id, payload FROM live_events WHERE id > $1 ORDER BY id`, last)
		if err != nil {
			return last, quiet(ctx, err)
		}
		var id int64
		var payload []byte
		_, err = pgx.ForEachRow(rows, []any{&id, &payload}, func() error {
			deliver(payload)
			last = id
			return nil
		})
		if err != nil {
			return last, quiet(ctx, err)
		}
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return last, quiet(ctx, err)
		}
	}
}

// quiet is err, or nil once ctx has ended: a listener stopped is not a
// failure.
func quiet(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}
