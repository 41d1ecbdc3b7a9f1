package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"siteplan/site"
)

// Rate limits live in the database, so that every instance on it counts
// the same attempts. A bucket's row holds when it is full again (Unix
// nanoseconds); a full bucket has no row, and rows that are full again
// are deleted as tokens are taken.

// TakeToken takes a token from take's bucket if it and every bucket in
// also hold one at now, all in one transaction. It returns the key of
// the first bucket without a token; "" when the token was taken.
// Errors: none of its own; a database error as it is.
func (db *Limits) TakeToken(ctx context.Context, now time.Time, take site.Bucket, also ...site.Bucket) (empty string, err error) {
	err = db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM rate_buckets WHERE full_at <= ?`, now.UnixNano()); err != nil {
			return err
		}
		var takeFull time.Time
		for i, b := range append([]site.Bucket{take}, also...) {
			full, err := fullAt(ctx, tx, b.Key)
			if err != nil {
				return err
			}
			if !b.Has(full, now) {
				empty = b.Key
				return nil
			}
			if i == 0 {
				takeFull = full
			}
		}
		return setFull(ctx, tx, take.Key, take.Take(takeFull, now))
	})
	return empty, err
}

// SpendToken takes a token from b's bucket if it holds one at now.
// Errors: none of its own; a database error as it is.
func (db *Limits) SpendToken(ctx context.Context, now time.Time, b site.Bucket) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		full, err := fullAt(ctx, tx, b.Key)
		if err != nil || !b.Has(full, now) {
			return err
		}
		return setFull(ctx, tx, b.Key, b.Take(full, now))
	})
}

// FillBucket fills key's bucket: what was taken from it is forgotten.
// Errors: none of its own; a database error as it is.
func (db *Limits) FillBucket(ctx context.Context, key string) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM rate_buckets WHERE key = ?`, key)
		return err
	})
}

// fullAt is when key's bucket is full again; the zero time if it is.
func fullAt(ctx context.Context, tx *sql.Tx, key string) (time.Time, error) {
	var ns int64
	err := tx.QueryRowContext(ctx, `SELECT full_at FROM rate_buckets WHERE key = ?`, key).Scan(&ns)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	return time.Unix(0, ns), err
}

func setFull(ctx context.Context, tx *sql.Tx, key string, full time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO rate_buckets (key, full_at) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET full_at = excluded.full_at`, key, full.UnixNano())
	return err
}
