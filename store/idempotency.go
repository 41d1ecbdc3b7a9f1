package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"siteplan/site"
)

// The API's Idempotency-Key (web/api.go): the first request with a key
// claims it, and its answer is kept for IdempotencyKept; the same
// request sent again with the key gets that answer, not a second write.

// IdempotencyKept is how long an answer is kept for a key.
const IdempotencyKept = 24 * time.Hour

// ClaimKey claims key of sender for a request whose method, path and
// body hash to request. It returns the answer kept for the key, when
// the request was answered before (claimed false); else the key is the
// caller's (claimed true) until it keeps its answer (KeepAnswer) or lets
// the key go (ReleaseKey). Errors: EInvalid (the key was sent with
// another request), EConflict (the first request is still being
// answered).
func (db *Limits) ClaimKey(ctx context.Context, sender, key, request string) (reply site.KeptAnswer, claimed bool, err error) {
	id := keyHash(sender, key)
	err = db.tx(ctx, func(tx *sql.Tx) error {
		now := db.Now().UTC()
		if _, err := tx.ExecContext(ctx, `DELETE FROM api_idempotency WHERE created_at < ?`, fmtTime(now.Add(-IdempotencyKept))); err != nil {
			return err
		}
		var req string
		err := tx.QueryRowContext(ctx, `SELECT request_hash, status, content_type, location, coalesce(body, '') FROM api_idempotency WHERE key_hash = ?`, id).
			Scan(&req, &reply.Status, &reply.ContentType, &reply.Location, &reply.Body)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			claimed = true
			_, err = tx.ExecContext(ctx, `INSERT INTO api_idempotency (key_hash, request_hash, created_at) VALUES (?, ?, ?)`, id, request, fmtTime(now))
			return err
		case err != nil:
			return err
		case req != request:
			return site.Errorf(site.EInvalid, "This Idempotency-Key was sent with another request: a new request needs a new key.")
		case reply.Status == 0:
			return site.Errorf(site.EConflict, "The first request with this Idempotency-Key is still being answered: ask again in a moment.")
		}
		return nil
	})
	return reply, claimed, err
}

// KeepAnswer keeps the answer to the request that claimed key.
func (db *Limits) KeepAnswer(ctx context.Context, sender, key string, a site.KeptAnswer) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE api_idempotency SET status = ?, content_type = ?, location = ?, body = ? WHERE key_hash = ?`,
			a.Status, a.ContentType, a.Location, a.Body, keyHash(sender, key))
		return err
	})
}

// ReleaseKey lets a claimed key go: its request failed, and may be sent
// again with it.
func (db *Limits) ReleaseKey(ctx context.Context, sender, key string) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM api_idempotency WHERE key_hash = ? AND status = 0`, keyHash(sender, key))
		return err
	})
}

func keyHash(sender, key string) string {
	h := sha256.Sum256([]byte(sender + "\x00" + key))
	return hex.EncodeToString(h[:])
}
