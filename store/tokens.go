package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"siteplan/site"
)

// API tokens (site/token.go): created on the account and Team pages or
// by `siteplan token create`, shown once and kept hashed; each use takes
// one from the token's rate bucket and marks it used, in one
// transaction, on whichever instance serves it.

const tokenCols = `id, team_id, coalesce(user_id, 0), name, scope, coalesce(project_id, 0), prefix, coalesce(created_by, 0),
	created_at, expires_at, last_used_at, revoked_at`

func scanToken(row interface{ Scan(...any) error }) (site.APIToken, error) {
	var t site.APIToken
	var created, expires string
	var used, revoked sql.NullString
	err := row.Scan(&t.ID, &t.TeamID, &t.UserID, &t.Name, &t.Scope, &t.ProjectID, &t.Prefix, &t.CreatedBy, &created, &expires, &used, &revoked)
	t.CreatedAt, _ = time.Parse(timeFormat, created)
	t.ExpiresAt, _ = time.Parse(timeFormat, expires)
	t.LastUsedAt, t.RevokedAt = parseTime(used), parseTime(revoked)
	return t, err
}

// CreateToken creates token t and returns it, the only time it is
// shown. t.CreatedBy makes it: a personal token (t.UserID) is its own,
// in a team it is a member of, with a scope its role allows; a team
// token (t.UserID 0) is made by an owner. A token of one project names
// a project of the team. Errors: EInvalid (t.Validate, a scope past
// the role, a project of another team), EForbidden.
func (db *Tokens) CreateToken(ctx context.Context, t *site.APIToken) (string, error) {
	now := db.Now().UTC().Truncate(time.Second)
	if err := t.Validate(now); err != nil {
		return "", err
	}
	var role string
	err := db.r.QueryRowContext(ctx, `SELECT m.role FROM memberships m JOIN teams tm ON tm.id = m.team_id WHERE m.user_id = ? AND m.team_id = ?`, t.CreatedBy, t.TeamID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return "", site.Errorf(site.EForbidden, "Only the team's members make its tokens.")
	} else if err != nil {
		return "", translate(err)
	}
	switch {
	case t.UserID == 0 && role != site.RoleOwner:
		return "", site.Errorf(site.EForbidden, "Only the team's owners make team tokens.")
	case t.UserID != 0 && t.UserID != t.CreatedBy:
		return "", site.Errorf(site.EForbidden, "A personal token is made by its own person.")
	case t.UserID != 0 && site.ScopeAccess(t.Scope) > site.RoleAccess(role):
		return "", site.Errorf(site.EInvalid, "Your role in this team is %s: a token of yours can have the %s scope at most.", role, site.RoleScope(role))
	}
	if t.ProjectID != 0 {
		var team int64
		if err := db.r.QueryRowContext(ctx, `SELECT team_id FROM projects WHERE id = ?`, t.ProjectID).Scan(&team); err != nil || team != t.TeamID {
			return "", site.Errorf(site.EInvalid, "Project %d is not one of this team's: a token reaches its own team's projects only.", t.ProjectID)
		}
	}
	raw, hash := newToken()
	raw = site.TokenPrefix + raw
	hash = hashToken(raw)
	t.Prefix, t.CreatedAt = raw[:len(site.TokenPrefix)+6], now
	err = db.tx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO api_tokens (team_id, user_id, name, scope, project_id, token_hash, prefix, created_by, created_at, expires_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, t.TeamID, nullID(t.UserID), t.Name, t.Scope, nullID(t.ProjectID), hash, t.Prefix,
			t.CreatedBy, fmtTime(now), fmtTime(t.ExpiresAt.UTC())).Scan(&t.ID)
	})
	return raw, err
}

// Tokens lists a team's tokens, newest first: userID's personal ones,
// or with userID 0 the team's own, revoked and expired ones included.
func (db *Tokens) Tokens(ctx context.Context, teamID, userID int64) ([]site.APIToken, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.APIToken, error) { return scanToken(rows) },
		`SELECT `+tokenCols+` FROM api_tokens WHERE team_id = ? AND coalesce(user_id, 0) = ? ORDER BY id DESC`, teamID, userID)
}

// RevokeToken revokes token id of team teamID: userID's personal token,
// or with userID 0 a team token. Errors: ENotFound.
func (db *Tokens) RevokeToken(ctx context.Context, teamID, userID, id int64) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE api_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? AND team_id = ? AND coalesce(user_id, 0) = ?`,
			fmtTime(db.Now()), id, teamID, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return site.Errorf(site.ENotFound, "Token %d does not exist.", id)
		}
		return nil
	})
}

// UseToken is the token raw as a request presents it, with whom it acts
// as; the use is counted against its rate limit (TokenUse.Allowed false
// when spent) and marks it used. Errors: EUnauthorized (unknown,
// expired, revoked, or its person no longer in its team).
func (db *Tokens) UseToken(ctx context.Context, raw string) (site.TokenUse, error) {
	var use site.TokenUse
	now := db.Now()
	err := db.tx(ctx, func(tx *sql.Tx) error {
		t, err := scanToken(tx.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM api_tokens WHERE token_hash = ?`, hashToken(raw)))
		if errors.Is(err, sql.ErrNoRows) || err == nil && !t.Live(now) {
			return site.Errorf(site.EUnauthorized, "This API token is not valid (unknown, expired or revoked): make a new one on your account page.")
		} else if err != nil {
			return err
		}
		use.Token = t
		if use.User, use.Teams, err = tokenMember(ctx, tx, t); err != nil {
			return err
		}
		b := site.TokenBucket(t.ID)
		full, err := fullAt(ctx, tx, b.Key)
		if err != nil {
			return err
		}
		if use.Allowed = b.Has(full, now); use.Allowed {
			full = b.Take(full, now)
			if err := setFull(ctx, tx, b.Key, full); err != nil {
				return err
			}
		}
		use.Full, use.Remaining = full, b.Remaining(full, now)
		_, err = tx.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = ? WHERE id = ?`, fmtTime(now), t.ID)
		return err
	})
	return use, err
}

// tokenMember is whom token t acts as: its person, in its team with
// their role there now; or, for a team token, the team in the scope's
// role. Errors: EUnauthorized (the person left the team).
func tokenMember(ctx context.Context, tx *sql.Tx, t site.APIToken) (site.User, []site.Membership, error) {
	var u site.User
	var m site.Membership
	var err error
	if t.UserID == 0 {
		m.ID, m.Role = t.TeamID, site.ScopeRole(t.Scope)
		err = tx.QueryRowContext(ctx, `SELECT name FROM teams WHERE id = ?`, t.TeamID).Scan(&m.Name)
	} else {
		u.ID = t.UserID
		err = tx.QueryRowContext(ctx, `SELECT u.email, u.name, tm.id, tm.name, m.role FROM users u JOIN memberships m ON m.user_id = u.id JOIN teams tm ON tm.id = m.team_id
			WHERE u.id = ? AND m.team_id = ?`, t.UserID, t.TeamID).Scan(&u.Email, &u.Name, &m.ID, &m.Name, &m.Role)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return u, nil, site.Errorf(site.EUnauthorized, "This API token's person is no longer in its team: the token no longer works.")
	}
	return u, []site.Membership{m}, err
}
