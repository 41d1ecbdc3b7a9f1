package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"siteplan/site"
)

// MaxPendingDeliveries bounds the deliveries a webhook keeps waiting: a
// receiver that stays down does not grow the database without end; past
// it, new events are not queued and its last error says so.
const MaxPendingDeliveries = 1000

// AddWebhook adds a team's webhook; without a secret it is given one
// (32 random bytes, hex). Errors: EInvalid (a field; the team has
// site.MaxWebhooks already), ENotFound (no such team).
func (db *Webhooks) AddWebhook(ctx context.Context, w *site.Webhook) error {
	if err := w.Validate(); err != nil {
		return err
	}
	if w.Secret == "" {
		b := make([]byte, 32)
		rand.Read(b)
		w.Secret = hex.EncodeToString(b)
	}
	w.CreatedAt = db.Now().UTC().Truncate(time.Millisecond)
	return translate(db.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM webhooks WHERE team_id = ?`, w.TeamID).Scan(&n); err != nil {
			return err
		}
		if n >= site.MaxWebhooks {
			return site.Errorf(site.EInvalid, "A team has at most %d webhooks: delete one first.", site.MaxWebhooks)
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO webhooks (team_id, url, format, secret, events, created_at) SELECT id, ?, ?, ?, ?, ? FROM teams WHERE id = ? RETURNING id`,
			w.URL, w.Format, w.Secret, strings.Join(w.Events, ","), fmtTime(w.CreatedAt), w.TeamID).Scan(&w.ID)
		return notFound(err, "Team %d does not exist.", w.TeamID)
	}))
}

// Webhooks lists a team's webhooks, oldest first, with how their last
// delivery went and how many wait. Errors: those of the database.
func (db *Webhooks) Webhooks(ctx context.Context, teamID int64) ([]site.Webhook, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.Webhook, error) { return scanWebhook(rows) }, `SELECT `+webhookCols+`,
		(SELECT count(*) FROM deliveries d WHERE d.webhook_id = w.id) FROM webhooks w WHERE team_id = ? ORDER BY id`, teamID)
}

const webhookCols = `w.id, w.team_id, w.url, w.format, w.secret, w.events, w.created_at, coalesce(w.last_at, ''), w.last_code, w.last_error`

func scanWebhook(row interface{ Scan(...any) error }) (site.Webhook, error) {
	var w site.Webhook
	var events, at, last string
	err := row.Scan(&w.ID, &w.TeamID, &w.URL, &w.Format, &w.Secret, &events, &at, &last, &w.LastCode, &w.LastError, &w.Pending)
	if events != "" {
		w.Events = strings.Split(events, ",")
	}
	w.CreatedAt, _ = time.Parse(timeFormat, at)
	w.LastAt, _ = time.Parse(timeFormat, last)
	return w, err
}

// DeleteWebhook deletes a team's webhook and its waiting deliveries.
// Errors: ENotFound.
func (db *Webhooks) DeleteWebhook(ctx context.Context, teamID, id int64) error {
	res, err := db.w.ExecContext(ctx, `DELETE FROM webhooks WHERE id = ? AND team_id = ?`, id, teamID)
	if err != nil {
		return translate(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return site.Errorf(site.ENotFound, "This team has no such webhook.")
	}
	return nil
}

// enqueue queues e for every webhook of the project's team that is for
// its kind, in tx, the transaction of what e tells of. It fills in the
// event's team, project, page title and path.
func (db *conn) enqueue(ctx context.Context, tx *sql.Tx, e site.Event) error {
	db.queue(tx)
	if err := tx.QueryRowContext(ctx, `SELECT team_id, name FROM projects WHERE id = ?`, e.ProjectID).Scan(&e.TeamID, &e.Project); err != nil {
		return err
	}
	e.Path = "/projects/" + strconv.FormatInt(e.ProjectID, 10)
	if e.PageID != 0 {
		if err := tx.QueryRowContext(ctx, `SELECT title FROM pages WHERE id = ?`, e.PageID).Scan(&e.Page); err != nil && err != sql.ErrNoRows {
			return err
		}
		e.Path += "/pages/" + strconv.FormatInt(e.PageID, 10)
	}
	if e.At.IsZero() {
		e.At = time.Now().UTC()
	}
	e.Describe()
	if err := db.notify(ctx, tx, e); err != nil {
		return err
	}
	body, err := json.Marshal(e)
	if err != nil {
		return err
	}
	now := fmtTime(time.Now())
	_, err = tx.ExecContext(ctx, `INSERT INTO deliveries (webhook_id, event, next_at)
		SELECT w.id, ?, ? FROM webhooks w WHERE w.team_id = ? AND (w.events = '' OR ',' || w.events || ',' LIKE '%,' || ? || ',%')
			AND (SELECT count(*) FROM deliveries d WHERE d.webhook_id = w.id) < ?`, string(body), now, e.TeamID, e.Kind, MaxPendingDeliveries)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE webhooks SET last_error = 'Events are no longer queued: ' || ? || ' deliveries wait for the receiver.'
		WHERE team_id = ? AND (SELECT count(*) FROM deliveries d WHERE d.webhook_id = webhooks.id) >= ?`,
		strconv.Itoa(MaxPendingDeliveries), e.TeamID, MaxPendingDeliveries)
	return err
}

// ClaimDeliveries claims up to limit due deliveries for lease: the
// oldest waiting of each webhook, one a webhook, so that a receiver that
// is slow or down holds up only its own. Errors: those of the database.
func (db *Webhooks) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]site.Delivery, error) {
	// A read first: the deliverer asks after every write and every few
	// seconds, and most of the time nothing is due; the writer's lock is
	// taken only to claim what is.
	var due bool
	if err := db.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM deliveries WHERE next_at <= ?1 AND (lease_until IS NULL OR lease_until <= ?1))`,
		fmtTime(now)).Scan(&due); err != nil || !due {
		return nil, translate(err)
	}
	var out []site.Delivery
	err := db.tx(ctx, func(tx *sql.Tx) error {
		// The oldest due delivery of each webhook, of those the oldest of
		// each team with none under way: a team's receivers are tried one
		// at a time, however many it has and however slow they are.
		rows, err := tx.QueryContext(ctx, `SELECT `+webhookCols+`, 0, d.id, d.event, d.attempts FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id
			WHERE d.id IN (
				SELECT min(h.id) FROM deliveries h JOIN webhooks hw ON hw.id = h.webhook_id
				WHERE h.id IN (SELECT min(id) FROM deliveries GROUP BY webhook_id)
					AND h.next_at <= ?1 AND (h.lease_until IS NULL OR h.lease_until <= ?1)
					AND NOT EXISTS (SELECT 1 FROM deliveries b JOIN webhooks bw ON bw.id = b.webhook_id WHERE bw.team_id = hw.team_id AND b.lease_until > ?1)
				GROUP BY hw.team_id)
			ORDER BY d.next_at LIMIT ?2`, fmtTime(now), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var d site.Delivery
			var event string
			w, err := scanWebhook(scanPlus{rows, []any{&d.ID, &event, &d.Attempts}})
			if err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(event), &d.Event); err != nil {
				return err
			}
			d.Webhook = w
			out = append(out, d)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		for _, d := range out {
			if _, err := tx.ExecContext(ctx, `UPDATE deliveries SET lease_until = ? WHERE id = ?`, fmtTime(now.Add(lease)), d.ID); err != nil {
				return err
			}
		}
		return nil
	})
	return out, translate(err)
}

// FinishDelivery records a try of a delivery: its status code (0: no
// answer) and error ("" when delivered). retry is when to try again
// (zero: the delivery is over, delivered or given up on). The webhook
// keeps how it went. Errors: those of the database.
func (db *Webhooks) FinishDelivery(ctx context.Context, d site.Delivery, at time.Time, code int, errText string, retry time.Time) error {
	return translate(db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE webhooks SET last_at = ?, last_code = ?, last_error = ? WHERE id = ?`,
			fmtTime(at), code, errText, d.Webhook.ID); err != nil {
			return err
		}
		if retry.IsZero() {
			_, err := tx.ExecContext(ctx, `DELETE FROM deliveries WHERE id = ?`, d.ID)
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE deliveries SET attempts = attempts + 1, next_at = ?, lease_until = NULL WHERE id = ?`, fmtTime(retry), d.ID)
		return err
	}))
}
