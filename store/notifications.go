package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"time"

	"siteplan/site"
)

// notify writes the inbox lines event e gives, in tx, the transaction of
// what it tells of: the members its comment mentions, the accounts that
// wrote in the thread it replies in, and the watchers of its plan (a
// comment, a reply, a sign-off); each member once, never its author.
func notify(ctx context.Context, tx *sql.Tx, e site.Event) error {
	if e.Kind != site.EventComment && e.Kind != site.EventReply && e.Kind != site.EventSignoff {
		return nil
	}
	told := map[int64]bool{e.ActorID: true}
	at := fmtTime(e.At)
	add := func(user int64, kind, text string) error {
		if told[user] {
			return nil
		}
		told[user] = true
		_, err := tx.ExecContext(ctx, `INSERT INTO notifications (user_id, project_id, kind, text, path, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			user, e.ProjectID, kind, text, e.Path, at)
		return err
	}
	ids := func(query string, args ...any) ([]int64, error) {
		return collect(ctx, tx, func(rows *sql.Rows) (id int64, err error) { return id, rows.Scan(&id) }, query, args...)
	}
	if e.Kind != site.EventSignoff {
		type member struct {
			id   int64
			name string
		}
		members, err := collect(ctx, tx, func(rows *sql.Rows) (m member, err error) { return m, rows.Scan(&m.id, &m.name) },
			`SELECT u.id, u.name FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.team_id = ?`, e.TeamID)
		if err != nil {
			return err
		}
		page := ""
		if e.Page != "" {
			page = " on “" + e.Page + "”"
		}
		for _, m := range members {
			if site.Mentioned(e.Body, m.name) {
				if err := add(m.id, site.NoticeMention, e.Actor+" mentioned you"+page+" in "+e.Project+": “"+site.Clip(e.Body, 200)+"”"); err != nil {
					return err
				}
			}
		}
	}
	if e.Kind == site.EventReply {
		writers, err := ids(`SELECT DISTINCT user_id FROM comments WHERE (id = ?1 OR parent_id = ?1) AND user_id IS NOT NULL`, e.ThreadID)
		if err != nil {
			return err
		}
		for _, u := range writers {
			if err := add(u, site.NoticeReply, e.Text); err != nil {
				return err
			}
		}
	}
	watchers, err := ids(`SELECT user_id FROM watches WHERE project_id = ?`, e.ProjectID)
	if err != nil {
		return err
	}
	kind := site.NoticeComment
	if e.Kind == site.EventSignoff {
		kind = site.NoticeSignoff
	}
	for _, u := range watchers {
		if err := add(u, kind, e.Text); err != nil {
			return err
		}
	}
	return nil
}

// watchOnCreate makes the member who creates a project (the viewer of
// ctx) its watcher.
func watchOnCreate(ctx context.Context, tx *sql.Tx, projectID int64) error {
	v := site.ViewerFrom(ctx)
	if v.UserID == 0 || v.Share {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO watches (user_id, project_id) VALUES (?, ?)`, v.UserID, projectID)
	return err
}

// Watch makes a member a watcher of a project (on), or not. Errors:
// those of the database.
func (db *DB) Watch(ctx context.Context, userID, projectID int64, on bool) error {
	q := `INSERT OR IGNORE INTO watches (user_id, project_id) VALUES (?, ?)`
	if !on {
		q = `DELETE FROM watches WHERE user_id = ? AND project_id = ?`
	}
	_, err := db.w.ExecContext(ctx, q, userID, projectID)
	return translate(err)
}

// Watching reports whether a member watches a project.
func (db *DB) Watching(ctx context.Context, userID, projectID int64) (bool, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM watches WHERE user_id = ? AND project_id = ?`, userID, projectID).Scan(&n)
	return n > 0, translate(err)
}

// notificationCols are a notification's columns, of the table as n.
const notificationCols = `n.id, n.user_id, n.project_id, n.kind, n.text, n.path, n.created_at, n.read_at IS NOT NULL`

func scanNotification(row interface{ Scan(...any) error }) (site.Notification, error) {
	var n site.Notification
	var at string
	err := row.Scan(&n.ID, &n.UserID, &n.ProjectID, &n.Kind, &n.Text, &n.Path, &at, &n.Read)
	n.CreatedAt, _ = time.Parse(timeFormat, at)
	return n, err
}

func scanNotifications(rows *sql.Rows) (site.Notification, error) { return scanNotification(rows) }

// Inbox returns a member's newest limit notifications, newest first.
func (db *DB) Inbox(ctx context.Context, userID int64, limit int) ([]site.Notification, error) {
	return collect(ctx, db.r, scanNotifications, `SELECT `+notificationCols+` FROM notifications n WHERE user_id = ? ORDER BY id DESC LIMIT ?`, userID, limit)
}

// Unread counts a member's unread notifications.
func (db *DB) Unread(ctx context.Context, userID int64) (int, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM notifications WHERE user_id = ? AND read_at IS NULL`, userID).Scan(&n)
	return n, translate(err)
}

// ReadNotification marks a member's notification read and returns it.
// Errors: ENotFound (not theirs, or gone).
func (db *DB) ReadNotification(ctx context.Context, userID, id int64) (site.Notification, error) {
	var n site.Notification
	err := db.tx(ctx, func(tx *sql.Tx) error {
		ns, err := collect(ctx, tx, scanNotifications, `SELECT `+notificationCols+` FROM notifications n WHERE id = ? AND user_id = ?`, id, userID)
		if err != nil {
			return err
		}
		if len(ns) == 0 {
			return site.Errorf(site.ENotFound, "No such notification.")
		}
		n = ns[0]
		_, err = tx.ExecContext(ctx, `UPDATE notifications SET read_at = coalesce(read_at, ?) WHERE id = ?`, fmtTime(time.Now()), id)
		return err
	})
	return n, translate(err)
}

// ReadAll marks every notification of a member read.
func (db *DB) ReadAll(ctx context.Context, userID int64) error {
	_, err := db.w.ExecContext(ctx, `UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL`, fmtTime(time.Now()), userID)
	return translate(err)
}

// MentionNames are the names a comment on a project may mention: its
// team's members, then the guests who commented through its share links
// (who have no inbox: a mention of them is for the team's eyes).
func (db *DB) MentionNames(ctx context.Context, projectID int64) ([]string, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (n string, err error) { return n, rows.Scan(&n) },
		`SELECT name FROM (
			SELECT u.name, 0 AS guest FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.team_id = (SELECT team_id FROM projects WHERE id = ?1)
			UNION SELECT DISTINCT author, 1 FROM comments WHERE project_id = ?1 AND share_link_id IS NOT NULL
		) GROUP BY name ORDER BY min(guest), name COLLATE NOCASE`, projectID)
}

// MailMode returns a member's e-mail mode (site.MailInstant, MailDigest
// or MailOff). Errors: ENotFound.
func (db *DB) MailMode(ctx context.Context, userID int64) (string, error) {
	var m string
	err := db.r.QueryRowContext(ctx, `SELECT mail_mode FROM users WHERE id = ?`, userID).Scan(&m)
	return m, notFound(err, "No such account.")
}

// SetMailMode sets a member's e-mail mode. Errors: EInvalid, ENotFound.
func (db *DB) SetMailMode(ctx context.Context, userID int64, mode string) error {
	if mode != site.MailInstant && mode != site.MailDigest && mode != site.MailOff {
		return site.Errorf(site.EInvalid, "E-mail must be at once, a daily digest, or never.")
	}
	res, err := db.w.ExecContext(ctx, `UPDATE users SET mail_mode = ? WHERE id = ?`, mode, userID)
	if err != nil {
		return translate(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return site.Errorf(site.ENotFound, "No such account.")
	}
	return nil
}

// PendingMail returns, member by member, the notifications not yet
// e-mailed of the members whose mode is mode, made since since (older
// ones are not e-mailed late), at most limit of them in all.
func (db *DB) PendingMail(ctx context.Context, mode string, since time.Time, limit int) ([]site.MailBatch, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+notificationCols+`, u.email, u.name
		FROM notifications n JOIN users u ON u.id = n.user_id
		WHERE n.mailed_at IS NULL AND n.created_at >= ? AND u.mail_mode = ? ORDER BY u.id, n.id LIMIT ?`, fmtTime(since), mode, limit)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []site.MailBatch
	for rows.Next() {
		var b site.MailBatch
		n, err := scanNotification(scanPlus{rows, []any{&b.Email, &b.Name}})
		if err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].UserID != n.UserID {
			b.UserID = n.UserID
			out = append(out, b)
		}
		last := &out[len(out)-1]
		last.Notices = append(last.Notices, n)
	}
	return out, rows.Err()
}

// MarkMailed records that notifications were e-mailed.
func (db *DB) MarkMailed(ctx context.Context, ids []int64) error {
	list, _ := json.Marshal(ids)
	_, err := db.w.ExecContext(ctx, `UPDATE notifications SET mailed_at = ? WHERE id IN (SELECT value FROM json_each(?))`, fmtTime(time.Now()), string(list))
	return translate(err)
}

// ServerKey returns the server's key of that name, made (32 random
// bytes) the first time it is asked for: a read, and a write only then.
func (db *DB) ServerKey(ctx context.Context, name string) ([]byte, error) {
	var k []byte
	err := db.r.QueryRowContext(ctx, `SELECT key FROM server_keys WHERE name = ?`, name).Scan(&k)
	if err != sql.ErrNoRows {
		return k, translate(err)
	}
	k = make([]byte, 32)
	rand.Read(k)
	if _, err := db.w.ExecContext(ctx, `INSERT OR IGNORE INTO server_keys (name, key) VALUES (?, ?)`, name, k); err != nil {
		return nil, translate(err)
	}
	err = db.w.QueryRowContext(ctx, `SELECT key FROM server_keys WHERE name = ?`, name).Scan(&k) // another instance's, if it came first
	return k, translate(err)
}
