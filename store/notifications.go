package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"siteplan/site"
)

// notify writes the inbox lines event e gives, in tx, the transaction of
// what it tells of: the members its comment mentions, the accounts that
// wrote in the thread it replies in, and the watchers of its plan (a
// comment, a reply, a sign-off); each member once, never its author.
func (db *conn) notify(ctx context.Context, tx *sql.Tx, e site.Event) error {
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
		return db.insertNotice(ctx, tx, user, e.ProjectID, kind, text, e.Path, at)
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
		writers, err := collect(ctx, tx, scanID, `SELECT DISTINCT user_id FROM comments WHERE (id = ?1 OR parent_id = ?1) AND user_id IS NOT NULL`, e.ThreadID)
		if err != nil {
			return err
		}
		for _, u := range writers {
			if err := add(u, site.NoticeReply, e.Text); err != nil {
				return err
			}
		}
	}
	watchers, err := collect(ctx, tx, scanID, `SELECT user_id FROM watches WHERE project_id = ?`, e.ProjectID)
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

// insertNotice writes one line of a member's inbox.
func (db *conn) insertNotice(ctx context.Context, tx *sql.Tx, user, projectID int64, kind, text, path, at string) error {
	db.queue(tx)
	_, err := tx.ExecContext(ctx, `INSERT INTO notifications (user_id, project_id, kind, text, path, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		user, projectID, kind, text, path, at)
	return err
}

// watchOnCreate makes the member who creates a project (the viewer of
// ctx) its watcher.
func watchOnCreate(ctx context.Context, tx *sql.Tx, projectID int64) error {
	v := site.ViewerFrom(ctx)
	if v.UserID == 0 || v.Share {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO watches (user_id, project_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, v.UserID, projectID)
	return err
}

// Watch makes a member a watcher of a project (on), or not. Errors:
// those of the database.
func (db *Notifications) Watch(ctx context.Context, userID, projectID int64, on bool) error {
	q := `INSERT INTO watches (user_id, project_id) VALUES (?, ?) ON CONFLICT DO NOTHING`
	if !on {
		q = `DELETE FROM watches WHERE user_id = ? AND project_id = ?`
	}
	_, err := db.w.ExecContext(ctx, q, userID, projectID)
	return translate(err)
}

// Watching reports whether a member watches a project.
// Errors: none of its own; a database error as it is.
func (db *Notifications) Watching(ctx context.Context, userID, projectID int64) (bool, error) {
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
// Errors: none of its own; a database error as it is.
func (db *Notifications) Inbox(ctx context.Context, userID int64, limit int) ([]site.Notification, error) {
	return collect(ctx, db.r, scanNotifications, `SELECT `+notificationCols+` FROM notifications n WHERE user_id = ? ORDER BY id DESC LIMIT ?`, userID, limit)
}

// Unread counts a member's unread notifications.
// Errors: none of its own; a database error as it is.
func (db *Notifications) Unread(ctx context.Context, userID int64) (int, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM notifications WHERE user_id = ? AND read_at IS NULL`, userID).Scan(&n)
	return n, translate(err)
}

// ReadNotification marks a member's notification read and returns it.
// Errors: ENotFound (not theirs, or gone).
func (db *Notifications) ReadNotification(ctx context.Context, userID, id int64) (site.Notification, error) {
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
// Errors: none of its own; a database error as it is.
func (db *Notifications) ReadAll(ctx context.Context, userID int64) error {
	_, err := db.w.ExecContext(ctx, `UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL`, fmtTime(time.Now()), userID)
	return translate(err)
}

// MentionNames are the names a comment on a project may mention: its
// team's members, then the guests who commented through its share links
// (who have no inbox: a mention of them is for the team's eyes).
// Errors: none of its own; a database error as it is.
func (db *Notifications) MentionNames(ctx context.Context, projectID int64) ([]string, error) {
	return collect(ctx, db.r, scanString, `SELECT name FROM (
			SELECT u.name, 0 AS guest FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.team_id = (SELECT team_id FROM projects WHERE id = ?1)
			UNION SELECT DISTINCT author, 1 FROM comments WHERE project_id = ?1 AND share_link_id IS NOT NULL
		) AS n GROUP BY name ORDER BY min(guest), lower(name)`, projectID)
}

// MailSettings returns how a member's notifications are e-mailed.
// Errors: ENotFound.
func (db *Notifications) MailSettings(ctx context.Context, userID int64) (site.MailSettings, error) {
	var m site.MailSettings
	err := db.r.QueryRowContext(ctx, `SELECT mail_mode, digest_hour, time_zone FROM users WHERE id = ?`, userID).Scan(&m.Mode, &m.DigestHour, &m.TimeZone)
	return m, notFound(err, "No such account.")
}

// SetMailSettings sets how a member's notifications are e-mailed, and
// when their next digest is due. Errors: EInvalid, ENotFound.
func (db *Notifications) SetMailSettings(ctx context.Context, userID int64, m site.MailSettings) error {
	if err := m.Validate(); err != nil {
		return err
	}
	res, err := db.w.ExecContext(ctx, `UPDATE users SET mail_mode = ?, digest_hour = ?, time_zone = ?, digest_next_at = ? WHERE id = ?`,
		m.Mode, m.DigestHour, m.TimeZone, fmtTime(m.NextDigest(db.Now())), userID)
	if err != nil {
		return translate(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return site.Errorf(site.ENotFound, "No such account.")
	}
	return nil
}

// ClaimMail claims for lease, member by member, the notifications not
// yet e-mailed of the members whose mode is mode, made since since
// (older ones are not e-mailed late), at most limit of them in all; for
// site.MailDigest, only of the members whose digest is due at now.
// Another instance's mailer skips them until the lease ends. held
// reports that some that wait are held by another instance's claim.
// Errors: none of its own; a database error as it is.
func (db *Notifications) ClaimMail(ctx context.Context, mode string, since, now time.Time, lease time.Duration, limit int) (out []site.MailBatch, held bool, err error) {
	due, args := "", []any{fmtTime(since), mode}
	switch mode {
	case site.MailDigest:
		due, args = ` AND coalesce(u.digest_next_at, '') <= ?`, append(args, fmtTime(now))
	case site.MailInstant: // at most one e-mail a member every site.MailInstantEvery: a flood of mentions is one e-mail
		due, args = ` AND coalesce(u.mailed_at, '') <= ?`, append(args, fmtTime(now.Add(-site.MailInstantEvery)))
	}
	pending := `FROM notifications n JOIN users u ON u.id = n.user_id
		WHERE n.mailed_at IS NULL AND n.created_at >= ? AND u.mail_mode = ?` + due
	// A read first: the mailer asks every few seconds, and most of the
	// time nothing waits; the writer's lock is taken only to claim.
	var waits bool
	if err := db.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 `+pending+`)`, args...).Scan(&waits); err != nil || !waits {
		return nil, false, translate(err)
	}
	free := ` AND coalesce(n.mail_lease_until, '') <= ?`
	err = db.tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+notificationCols+`, u.email, u.name `+pending+free+`
			ORDER BY u.id, n.id LIMIT ?`, append(args, fmtTime(now), limit)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		ids := []int64{} // [], not null: json_each(null) is one NULL, which NOT IN never passes
		for rows.Next() {
			var b site.MailBatch
			n, err := scanNotification(scanPlus{rows, []any{&b.Email, &b.Name}})
			if err != nil {
				return err
			}
			if len(out) == 0 || out[len(out)-1].UserID != n.UserID {
				b.UserID = n.UserID
				out = append(out, b)
			}
			last := &out[len(out)-1]
			last.Notices = append(last.Notices, n)
			ids = append(ids, n.ID)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		list, _ := json.Marshal(ids)
		if _, err := tx.ExecContext(ctx, `UPDATE notifications SET mail_lease_until = ?
			WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, fmtTime(now.Add(lease)), string(list)); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 `+pending+` AND n.mail_lease_until > ?
			AND NOT n.id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)))`, append(args, fmtTime(now), string(list))...).Scan(&held)
	})
	return out, held, translate(err)
}

// AdvanceDigests sets the next digest of each member whose digest was
// due at now: their hour, in their time zone, after now. It writes only
// when one was due.
// Errors: none of its own; a database error as it is.
func (db *Notifications) AdvanceDigests(ctx context.Context, now time.Time) error {
	type due struct {
		id int64
		m  site.MailSettings
	}
	dues, err := collect(ctx, db.r, func(rows *sql.Rows) (d due, err error) { return d, rows.Scan(&d.id, &d.m.DigestHour, &d.m.TimeZone) },
		`SELECT id, digest_hour, time_zone FROM users WHERE mail_mode = 'digest' AND coalesce(digest_next_at, '') <= ?`, fmtTime(now))
	if err != nil || len(dues) == 0 {
		return translate(err)
	}
	return db.tx(ctx, func(tx *sql.Tx) error {
		for _, d := range dues {
			if _, err := tx.ExecContext(ctx, `UPDATE users SET digest_next_at = ? WHERE id = ?`, fmtTime(d.m.NextDigest(now)), d.id); err != nil {
				return err
			}
		}
		return nil
	})
}

// MarkMailed records that notifications were e-mailed.
//
// Their members are marked e-mailed at the same time, which holds the
// next instant e-mail back until site.MailInstantEvery has passed.
// Errors: none of its own; a database error as it is.
func (db *Notifications) MarkMailed(ctx context.Context, ids []int64) error {
	list, _ := json.Marshal(ids)
	now := fmtTime(db.Now())
	return translate(db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE notifications SET mailed_at = ? WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, now, string(list)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE users SET mailed_at = ? WHERE id IN (SELECT user_id FROM notifications WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)))`, now, string(list))
		return err
	}))
}

// ReleaseMail lets go of the claim on notifications that could not be
// e-mailed, for the next round, on any instance, to try again.
// Errors: none of its own; a database error as it is.
func (db *Notifications) ReleaseMail(ctx context.Context, ids []int64) error {
	list, _ := json.Marshal(ids)
	_, err := db.w.ExecContext(ctx, `UPDATE notifications SET mail_lease_until = NULL WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, string(list))
	return translate(err)
}

// ServerKey returns the server's key of that name, made (32 random
// bytes) the first time it is asked for: a read, and a write only then.
// Errors: none of its own; a database error as it is.
func (db *Notifications) ServerKey(ctx context.Context, name string) ([]byte, error) {
	var k []byte
	err := db.r.QueryRowContext(ctx, `SELECT key FROM server_keys WHERE name = ?`, name).Scan(&k)
	if err != sql.ErrNoRows {
		return k, translate(err)
	}
	k = make([]byte, 32)
	rand.Read(k)
	if _, err := db.w.ExecContext(ctx, `INSERT INTO server_keys (name, key) VALUES (?, ?) ON CONFLICT DO NOTHING`, name, k); err != nil {
		return nil, translate(err)
	}
	err = db.w.QueryRowContext(ctx, `SELECT key FROM server_keys WHERE name = ?`, name).Scan(&k) // another instance's, if it came first
	return k, translate(err)
}

// TellChangedSince tells, once, of each sign-off in force whose plan
// now differs from its version in what it approved ("changed since
// approval"): an inbox line for the plan's watchers and for its signer,
// if a member. It looks at most at limit sign-offs a call, only those
// whose plan was edited since they were last looked at, and says how
// many it told of. Two servers doing it at once tell each sign-off once.
// Errors: none of its own; a database error as it is.
func (db *Notifications) TellChangedSince(ctx context.Context, limit int) (int, error) {
	dues, err := collect(ctx, db.r, func(rows *sql.Rows) (d signoffDue, err error) {
		return d, rows.Scan(&d.id, &d.project, &d.planVersion, &d.projectName)
	}, `SELECT a.id, v.project_id, p.version, p.name FROM approvals a JOIN versions v ON v.id = a.version_id JOIN projects p ON p.id = v.project_id
		WHERE a.changed_told_at IS NULL AND a.voided_at IS NULL AND a.checked_version < p.version ORDER BY v.project_id LIMIT ?`, limit)
	if err != nil || len(dues) == 0 {
		return 0, translate(err)
	}
	told := 0
	for i := 0; i < len(dues); {
		pid := dues[i].project
		j := i
		for j < len(dues) && dues[j].project == pid {
			j++
		}
		n, err := db.tellChanged(ctx, pid, dues[i:j])
		told += n
		if err != nil {
			return told, err
		}
		i = j
	}
	return told, nil
}

// signoffDue is a sign-off whose plan was edited (planVersion) since
// it was last held against it.
type signoffDue struct {
	id, project, planVersion int64
	projectName              string
}

// tellChanged holds the sign-offs ids of one project against its plan
// (see TellChangedSince).
func (db *conn) tellChanged(ctx context.Context, projectID int64, dues []signoffDue) (int, error) {
	vs, err := db.parts.History.Versions(ctx, projectID)
	if err != nil {
		return 0, err
	}
	if err := db.parts.History.MarkChanged(ctx, projectID, vs); err != nil {
		return 0, err
	}
	type signed struct {
		v site.Version
		a site.Approval
	}
	byID := map[int64]signed{}
	for _, v := range vs {
		for _, a := range v.Approvals {
			byID[a.ID] = signed{v, a}
		}
	}
	told := 0
	now := fmtTime(db.Now().UTC())
	err = db.tx(ctx, func(tx *sql.Tx) error {
		told = 0
		for _, d := range dues {
			s, ok := byID[d.id]
			if !ok || !s.a.ChangedSince {
				if _, err := tx.ExecContext(ctx, `UPDATE approvals SET checked_version = ? WHERE id = ?`, d.planVersion, d.id); err != nil {
					return err
				}
				continue
			}
			res, err := tx.ExecContext(ctx, `UPDATE approvals SET checked_version = ?, changed_told_at = ? WHERE id = ? AND changed_told_at IS NULL`,
				d.planVersion, now, d.id)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue // told by another server
			}
			told++
			text := d.projectName + " has changed in " + s.a.What() + ", which " + s.a.By() + " signed off in " + s.v.Label()
			path := fmt.Sprintf("/projects/%d/compare?from=%d", projectID, s.v.Number)
			users, err := collect(ctx, tx, scanID, `SELECT user_id FROM watches WHERE project_id = ?1 UNION SELECT user_id FROM approvals WHERE id = ?2 AND signer = 'member' AND user_id IS NOT NULL`,
				projectID, d.id)
			if err != nil {
				return err
			}
			for _, u := range users {
				if err := db.insertNotice(ctx, tx, u, projectID, site.NoticeChanged, text, path, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return told, translate(err)
}
