package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"siteplan/site"
)

// MaxInviteTTL is the longest an invite link may stay open.
const MaxInviteTTL = 30 * 24 * time.Hour

// CreateInvite makes a single-use invite link to a team that expires
// after ttl, and returns its token, the only copy of it. Errors: EInvalid.
func (db *Sharing) CreateInvite(ctx context.Context, teamID, byUserID int64, role string, ttl time.Duration) (string, error) {
	if err := site.ValidateRole(role); err != nil {
		return "", err
	}
	if ttl <= 0 || ttl > MaxInviteTTL {
		return "", site.Errorf(site.EInvalid, "An invite must expire within 1 hour to 30 days.")
	}
	token, hash := newToken()
	now := db.Now()
	return token, db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO invites (team_id, role, token_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
			teamID, role, hash, nullID(byUserID), fmtTime(now), fmtTime(now.Add(ttl)))
		return err
	})
}

// Invites lists a team's invites that are neither used nor expired.
// Errors: none of its own; a database error as it is.
func (db *Sharing) Invites(ctx context.Context, teamID int64) ([]site.Invite, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.Invite, error) {
		inv := site.Invite{TeamID: teamID}
		var created, expires sql.NullString
		err := rows.Scan(&inv.ID, &inv.Role, &inv.CreatedBy, &created, &expires)
		inv.CreatedAt, inv.ExpiresAt = parseTime(created), parseTime(expires)
		return inv, err
	}, `SELECT i.id, i.role, coalesce(u.name, ''), i.created_at, i.expires_at FROM invites i
		LEFT JOIN users u ON u.id = i.created_by
		WHERE i.team_id = ? AND i.used_at IS NULL AND i.expires_at > ? ORDER BY i.id DESC`, teamID, fmtTime(db.Now()))
}

var errInvite = site.Errorf(site.ENotFound, "This invite link is not valid: it was used, withdrawn or has expired. Ask the team's owner for a new one.")

// Invite returns the open invite of a token with its team. Errors:
// ENotFound (unknown, used, withdrawn or expired).
func (db *Sharing) Invite(ctx context.Context, token string) (site.Invite, site.Team, error) {
	var inv site.Invite
	var t site.Team
	var exp sql.NullString
	err := db.r.QueryRowContext(ctx, `SELECT i.id, i.team_id, i.role, i.expires_at, t.name FROM invites i JOIN teams t ON t.id = i.team_id
		WHERE i.token_hash = ? AND i.used_at IS NULL AND i.expires_at > ?`, hashToken(token), fmtTime(db.Now())).
		Scan(&inv.ID, &inv.TeamID, &inv.Role, &exp, &t.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return inv, t, errInvite
	}
	t.ID, inv.ExpiresAt = inv.TeamID, parseTime(exp)
	return inv, t, err
}

// useInvite marks the invite used by userID and adds them to its team
// in tx; a second use finds nothing. Errors: ENotFound.
func (db *conn) useInvite(ctx context.Context, tx *sql.Tx, token string, userID int64) (int64, error) {
	var teamID int64
	var role string
	err := tx.QueryRowContext(ctx, `UPDATE invites SET used_at = ?, used_by = ?
		WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING team_id, role`,
		fmtTime(db.Now()), userID, hashToken(token), fmtTime(db.Now())).Scan(&teamID, &role)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, errInvite
	} else if err != nil {
		return 0, err
	}
	// Someone already in the team keeps the higher of the two roles.
	_, err = tx.ExecContext(ctx, `INSERT INTO memberships (team_id, user_id, role) VALUES (?, ?, ?)
		ON CONFLICT (team_id, user_id) DO UPDATE SET role = CASE WHEN
			(CASE excluded.role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END) <
			(CASE memberships.role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END)
			THEN excluded.role ELSE memberships.role END`, teamID, userID, role)
	return teamID, err
}

// AcceptInvite adds an existing account to the invite's team and uses
// the invite up. Errors: ENotFound.
func (db *Sharing) AcceptInvite(ctx context.Context, token string, userID int64) (int64, error) {
	var teamID int64
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var err error
		teamID, err = db.useInvite(ctx, tx, token, userID)
		return err
	})
	return teamID, err
}

// SignUpWithInvite creates an account in the invite's team and uses the
// invite up, all or nothing. Errors: EInvalid, EConflict (e-mail taken),
// ENotFound (invite).
func (db *Sharing) SignUpWithInvite(ctx context.Context, token, email, name, password string) (site.User, int64, error) {
	var u site.User
	var teamID int64
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var err error
		if u, err = insertUser(ctx, tx, email, name, password); err != nil {
			return err
		}
		teamID, err = db.useInvite(ctx, tx, token, u.ID)
		return err
	})
	return u, teamID, err
}

// DeleteInvite withdraws an invite of the team. Errors: ENotFound.
func (db *Sharing) DeleteInvite(ctx context.Context, teamID, id int64) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM invites WHERE id = ? AND team_id = ?`, id, teamID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return site.Errorf(site.ENotFound, "No such invite.")
		}
		return nil
	})
}

// CreateShareLink stores a share link for l.ProjectID (l.ID and
// l.CreatedAt are set) and returns its token, the only copy of it.
// Errors: EInvalid, ENotFound (project).
func (db *Sharing) CreateShareLink(ctx context.Context, l *site.ShareLink) (string, error) {
	if err := site.ValidateShareRole(l.Role); err != nil {
		return "", err
	}
	l.Label = strings.TrimSpace(l.Label)
	if msg := site.NameProblem("The label", l.Label, site.MaxName); msg != "" {
		return "", site.Errorf(site.EInvalid, "%s", msg)
	}
	l.CreatedAt = db.Now()
	if !l.ExpiresAt.IsZero() && !l.ExpiresAt.After(l.CreatedAt) {
		return "", site.Errorf(site.EInvalid, "The expiry must be in the future.")
	}
	if l.Downloads == nil {
		l.Downloads = site.DefaultShareDownloads
	}
	if err := site.ValidateShareView(l.Downloads, l.Statuses); err != nil {
		return "", err
	}
	token, hash := newToken()
	err := db.tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO share_links (project_id, role, label, token_hash, created_at, expires_at, downloads, statuses)
			SELECT id, ?, ?, ?, ?, ?, ?, ? FROM projects WHERE id = ? RETURNING id`,
			l.Role, l.Label, hash, fmtTime(l.CreatedAt), nullTime(l.ExpiresAt), strings.Join(l.Downloads, " "), strings.Join(l.Statuses, " "), l.ProjectID).Scan(&l.ID)
		return notFound(err, "Project %d does not exist.", l.ProjectID)
	})
	return token, err
}

const shareCols = `id, project_id, role, label, created_at, expires_at, last_used_at, revoked_at, downloads, statuses`

func scanShare(row interface{ Scan(...any) error }) (site.ShareLink, error) {
	var l site.ShareLink
	var c, e, u, r sql.NullString
	var downloads, statuses string
	err := row.Scan(&l.ID, &l.ProjectID, &l.Role, &l.Label, &c, &e, &u, &r, &downloads, &statuses)
	l.CreatedAt, l.ExpiresAt, l.LastUsedAt, l.RevokedAt = parseTime(c), parseTime(e), parseTime(u), parseTime(r)
	l.Downloads, l.Statuses = strings.Fields(downloads), strings.Fields(statuses)
	return l, err
}

// ShareLinks lists a project's share links, newest first, revoked and
// expired ones included.
// Errors: none of its own; a database error as it is.
func (db *Sharing) ShareLinks(ctx context.Context, projectID int64) ([]site.ShareLink, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.ShareLink, error) { return scanShare(rows) },
		`SELECT `+shareCols+` FROM share_links WHERE project_id = ? ORDER BY id DESC`, projectID)
}

// shareUseEvery is how often a link's "last used" time is written.
const shareUseEvery = time.Minute

// UseShareLink returns the active share link of a token and notes that
// it was used. Errors: ENotFound (unknown, revoked or expired).
func (db *Sharing) UseShareLink(ctx context.Context, token string) (site.ShareLink, error) {
	now := db.Now()
	hash := hashToken(token)
	l, err := scanShare(db.r.QueryRowContext(ctx, `SELECT `+shareCols+` FROM share_links WHERE token_hash = ?`, hash))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !l.Active(now)) {
		return site.ShareLink{}, site.Errorf(site.ENotFound, "This share link is not valid: it was revoked or has expired. Ask the agency for a new one.")
	} else if err != nil {
		return l, err
	}
	if now.Sub(l.LastUsedAt) >= shareUseEvery {
		err = db.tx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `UPDATE share_links SET last_used_at = ? WHERE id = ?`, fmtTime(now), l.ID)
			return err
		})
		l.LastUsedAt = now
	}
	return l, err
}

// RevokeShareLink ends a project's share link at once. Errors: ENotFound.
func (db *Sharing) RevokeShareLink(ctx context.Context, projectID, id int64) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE share_links SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? AND project_id = ?`,
			fmtTime(db.Now()), id, projectID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return site.Errorf(site.ENotFound, "No such share link.")
		}
		return nil
	})
}
