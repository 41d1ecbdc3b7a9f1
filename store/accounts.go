package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"siteplan/site"
)

// PasswordCost is the bcrypt cost of new password hashes. Tests lower it.
var PasswordCost = 12

const timeFormat = "2006-01-02T15:04:05.000Z"

func fmtTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return fmtTime(t)
}

func parseTime(s sql.NullString) time.Time {
	if !s.Valid {
		return time.Time{}
	}
	t, _ := time.Parse(timeFormat, s.String)
	return t
}

// newToken returns a random 256-bit token for a URL or cookie and the
// hash that is stored in its place.
func newToken() (token, hash string) {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand, Go 1.24+)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

func hashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// dummy is the hash compared against when an e-mail is unknown, so a
// login takes as long whether or not the account exists: it has the cost
// of the accounts' own hashes.
var dummy struct {
	sync.Mutex
	cost int
	hash []byte
}

// dummyHash returns a hash at PasswordCost.
func dummyHash() []byte {
	dummy.Lock()
	defer dummy.Unlock()
	if dummy.cost != PasswordCost {
		dummy.hash, _ = bcrypt.GenerateFromPassword([]byte("siteplan-no-such-user"), PasswordCost)
		dummy.cost = PasswordCost
	}
	return dummy.hash
}

func hashPassword(pw string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(pw), PasswordCost)
	if errors.Is(err, bcrypt.ErrPasswordTooLong) {
		return "", site.Errorf(site.EInvalid, "Use at most 72 bytes for the password.")
	}
	return string(h), err
}

// HasUsers reports whether any account exists.
// Errors: none of its own; a database error as it is.
func (db *Accounts) HasUsers(ctx context.Context) (bool, error) {
	var any bool
	err := db.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM users)`).Scan(&any)
	return any, err
}

func insertUser(ctx context.Context, tx *sql.Tx, email, name, password string) (site.User, error) {
	if err := site.ValidateAccount(email, name, password); err != nil {
		return site.User{}, err
	}
	hash, err := hashPassword(password)
	if err != nil {
		return site.User{}, err
	}
	u := site.User{Email: strings.TrimSpace(email), Name: strings.TrimSpace(name)}
	err = tx.QueryRowContext(ctx, `INSERT INTO users (email, name, password_hash) VALUES (?, ?, ?) RETURNING id`,
		u.Email, u.Name, hash).Scan(&u.ID)
	if site.ErrorCode(translate(err)) == site.EConflict {
		return u, &site.Error{Code: site.EConflict, Message: "An account with this e-mail already exists: log in instead.",
			Fields: map[string]string{"email": "An account with this e-mail already exists."}}
	}
	return u, err
}

// claimTeam returns the team called name, creating it. The team the
// first migration made, while nobody belongs to it, is renamed instead,
// so projects imported before the first account stay with that account.
func claimTeam(ctx context.Context, tx *sql.Tx, name string) (site.Team, error) {
	name = strings.TrimSpace(name)
	if err := site.ValidateTeamName(name); err != nil {
		return site.Team{}, err
	}
	t := site.Team{Name: name}
	err := tx.QueryRowContext(ctx, `UPDATE teams SET name = ? WHERE id = (SELECT min(id) FROM teams)
		AND NOT EXISTS (SELECT 1 FROM memberships) RETURNING id`, name).Scan(&t.ID)
	if errors.Is(err, sql.ErrNoRows) {
		err = tx.QueryRowContext(ctx, `INSERT INTO teams (name) VALUES (?) RETURNING id`, name).Scan(&t.ID)
	}
	return t, err
}

// SignUpFirst creates the first account with its team, whose owner it
// becomes. Errors: EInvalid, EForbidden once any account exists.
func (db *Accounts) SignUpFirst(ctx context.Context, email, name, password, team string) (site.User, site.Team, error) {
	var u site.User
	var t site.Team
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return site.Errorf(site.EForbidden, "Sign-up is closed: ask a team owner for an invite link.")
		}
		var err error
		if u, err = insertUser(ctx, tx, email, name, password); err != nil {
			return err
		}
		if t, err = claimTeam(ctx, tx, team); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO memberships (team_id, user_id, role) VALUES (?, ?, 'owner')`, t.ID, u.ID)
		return err
	})
	return u, t, err
}

// AddUser creates an account, or sets the password (and name) of the
// account with that e-mail, and gives it role in team (an id or a name;
// a new name makes a new team). It reports whether the account is new.
// Errors: EInvalid.
func (db *Accounts) AddUser(ctx context.Context, email, name, password, team, role string) (site.User, bool, error) {
	var u site.User
	created := false
	if err := site.ValidateRole(role); err != nil {
		return u, false, err
	}
	err := db.tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT id, email, name FROM users WHERE lower(email) = lower(?)`, strings.TrimSpace(email)).Scan(&u.ID, &u.Email, &u.Name)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if u, err = insertUser(ctx, tx, email, name, password); err != nil {
				return err
			}
			created = true
		case err != nil:
			return err
		default:
			if err := site.ValidateAccount(u.Email, name, password); err != nil {
				return err
			}
			hash, err := hashPassword(password)
			if err != nil {
				return err
			}
			u.Name = strings.TrimSpace(name)
			if _, err := tx.ExecContext(ctx, `UPDATE users SET name = ?, password_hash = ? WHERE id = ?`, u.Name, hash, u.ID); err != nil {
				return err
			}
			// A reset password ends every session of the account.
			if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ?`, u.ID); err != nil {
				return err
			}
		}
		t, err := teamByRef(ctx, tx, team)
		if errors.Is(err, sql.ErrNoRows) {
			t, err = claimTeam(ctx, tx, team)
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO memberships (team_id, user_id, role) VALUES (?, ?, ?)
			ON CONFLICT (team_id, user_id) DO UPDATE SET role = excluded.role`, t.ID, u.ID, role)
		return err
	})
	return u, created, err
}

// Authenticate returns the account with this e-mail and password.
// Errors: EUnauthorized.
func (db *Accounts) Authenticate(ctx context.Context, email, password string) (site.User, error) {
	var u site.User
	var hash string
	err := db.r.QueryRowContext(ctx, `SELECT id, email, name, password_hash FROM users WHERE lower(email) = lower(?)`, strings.TrimSpace(email)).
		Scan(&u.ID, &u.Email, &u.Name, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		bcrypt.CompareHashAndPassword(dummyHash(), []byte(password))
		return u, site.Errorf(site.EUnauthorized, "The e-mail or the password is wrong.")
	} else if err != nil {
		return u, err
	}
	if bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) != nil {
		return site.User{}, site.Errorf(site.EUnauthorized, "The e-mail or the password is wrong.")
	}
	return u, nil
}

// User returns one account. Errors: ENotFound.
func (db *Accounts) User(ctx context.Context, id int64) (site.User, error) {
	var u site.User
	err := db.r.QueryRowContext(ctx, `SELECT id, email, name FROM users WHERE id = ?`, id).Scan(&u.ID, &u.Email, &u.Name)
	return u, notFound(err, "No such account.")
}

// UserByEmail is the account of an e-mail address (in any case).
// Errors: ENotFound.
func (db *Accounts) UserByEmail(ctx context.Context, email string) (site.User, error) {
	var u site.User
	err := db.r.QueryRowContext(ctx, `SELECT id, email, name FROM users WHERE lower(email) = lower(?)`, strings.TrimSpace(email)).Scan(&u.ID, &u.Email, &u.Name)
	return u, notFound(err, "No account has the e-mail address %q.", strings.TrimSpace(email))
}

// Memberships lists the teams of a user, by name.
// Errors: none of its own; a database error as it is.
func (db *Teams) Memberships(ctx context.Context, userID int64) ([]site.Membership, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.Membership, error) {
		var m site.Membership
		return m, rows.Scan(&m.ID, &m.Name, &m.Role)
	}, `SELECT t.id, t.name, m.role FROM memberships m JOIN teams t ON t.id = m.team_id
		WHERE m.user_id = ? ORDER BY lower(t.name), t.id`, userID)
}

// Role returns the user's role in a team, "" when not a member.
// Errors: none of its own; a database error as it is.
func (db *Teams) Role(ctx context.Context, teamID, userID int64) (string, error) {
	var role string
	err := db.r.QueryRowContext(ctx, `SELECT role FROM memberships WHERE team_id = ? AND user_id = ?`, teamID, userID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return role, err
}

// Members lists a team's members, owners first.
// Errors: none of its own; a database error as it is.
func (db *Teams) Members(ctx context.Context, teamID int64) ([]site.Member, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.Member, error) {
		m := site.Member{TeamID: teamID}
		return m, rows.Scan(&m.ID, &m.Email, &m.Name, &m.Role)
	}, `SELECT u.id, u.email, u.name, m.role FROM memberships m JOIN users u ON u.id = m.user_id
		WHERE m.team_id = ? ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, lower(u.name)`, teamID)
}

// keepAnOwner refuses a change that would leave the team without an
// owner. Errors: EConflict.
func keepAnOwner(ctx context.Context, tx *sql.Tx, teamID int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM memberships WHERE team_id = ? AND role = 'owner'`, teamID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return site.Errorf(site.EConflict, "A team needs at least one owner: make someone else owner first.")
	}
	return nil
}

// SetRole changes a member's role. Errors: EInvalid, ENotFound,
// EConflict (the last owner).
func (db *Teams) SetRole(ctx context.Context, teamID, userID int64, role string) error {
	if err := site.ValidateRole(role); err != nil {
		return err
	}
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE memberships SET role = ? WHERE team_id = ? AND user_id = ?`, role, teamID, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return site.Errorf(site.ENotFound, "That person is not in this team.")
		}
		return keepAnOwner(ctx, tx, teamID)
	})
}

// RemoveMember takes a user out of a team (also to leave it). Errors:
// ENotFound, EConflict (the last owner).
func (db *Teams) RemoveMember(ctx context.Context, teamID, userID int64) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM memberships WHERE team_id = ? AND user_id = ?`, teamID, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return site.Errorf(site.ENotFound, "That person is not in this team.")
		}
		return keepAnOwner(ctx, tx, teamID)
	})
}

// CreateTeam makes a new team owned by the user. Errors: EInvalid.
func (db *Teams) CreateTeam(ctx context.Context, userID int64, name string) (site.Team, error) {
	t := site.Team{Name: strings.TrimSpace(name)}
	if err := site.ValidateTeamName(t.Name); err != nil {
		return t, err
	}
	err := db.tx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO teams (name) VALUES (?) RETURNING id`, t.Name).Scan(&t.ID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO memberships (team_id, user_id, role) VALUES (?, ?, 'owner')`, t.ID, userID)
		return err
	})
	return t, err
}

// Team returns one team. Errors: ENotFound.
func (db *Teams) Team(ctx context.Context, id int64) (site.Team, error) {
	t := site.Team{ID: id}
	err := db.r.QueryRowContext(ctx, `SELECT name FROM teams WHERE id = ?`, id).Scan(&t.Name)
	return t, notFound(err, "No such team.")
}

// CreateSession logs a user in to a team (0: none) and returns the
// session's token, the only copy of it.
// Errors: none of its own; a database error as it is.
func (db *Accounts) CreateSession(ctx context.Context, userID, teamID int64) (string, error) {
	token, hash := newToken()
	now := db.Now()
	return token, db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ? AND expires_at <= ?`, userID, fmtTime(now)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (token_hash, user_id, team_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
			hash, userID, nullID(teamID), fmtTime(now), fmtTime(now.Add(site.SessionTTL)))
		return err
	})
}

// Session returns the live session of a token with its user and the
// user's teams (site.Session.Teams), read together: every request asks.
// Errors: EUnauthorized (unknown or expired).
func (db *Accounts) Session(ctx context.Context, token string) (site.Session, site.User, error) {
	var s site.Session
	var u site.User
	var exp string
	rows, err := db.r.QueryContext(ctx, `SELECT s.user_id, coalesce(s.team_id, 0), s.expires_at, u.email, u.name,
			coalesce(t.id, 0), coalesce(t.name, ''), coalesce(m.role, '')
		FROM sessions s JOIN users u ON u.id = s.user_id
			LEFT JOIN memberships m ON m.user_id = s.user_id LEFT JOIN teams t ON t.id = m.team_id
		WHERE s.token_hash = ? AND s.expires_at > ? ORDER BY lower(t.name), t.id`, hashToken(token), fmtTime(db.Now()))
	if err != nil {
		return s, u, translate(err)
	}
	defer rows.Close()
	found := false
	for rows.Next() {
		var m site.Membership
		if err := rows.Scan(&s.UserID, &s.TeamID, &exp, &u.Email, &u.Name, &m.ID, &m.Name, &m.Role); err != nil {
			return s, u, translate(err)
		}
		if found = true; m.ID != 0 {
			s.Teams = append(s.Teams, m)
		}
	}
	if err := rows.Err(); err != nil {
		return s, u, translate(err)
	}
	if !found {
		return s, u, site.Errorf(site.EUnauthorized, "Your session has ended: log in again.")
	}
	u.ID = s.UserID
	s.ExpiresAt, _ = time.Parse(timeFormat, exp)
	return s, u, nil
}

// LiveSessions reports which of tokens are live sessions, in one query:
// the live-update streams check theirs before each change they send.
// Errors: none of its own; a database error as it is.
func (db *Accounts) LiveSessions(ctx context.Context, tokens []string) (map[string]bool, error) {
	byHash := make(map[string]string, len(tokens))
	hashes := make([]string, 0, len(tokens))
	for _, t := range tokens {
		h := hashToken(t)
		byHash[h] = t
		hashes = append(hashes, h)
	}
	list, err := json.Marshal(hashes)
	if err != nil {
		return nil, err
	}
	live, err := collect(ctx, db.r, scanString, `SELECT token_hash FROM sessions
		WHERE token_hash IN (SELECT value FROM json_each(?)) AND expires_at > ?`, string(list), fmtTime(db.Now()))
	out := make(map[string]bool, len(live))
	for _, h := range live {
		out[byHash[h]] = true
	}
	return out, err
}

// SwitchTeam makes teamID the session's team. Errors: ENotFound when the
// user is not in it.
func (db *Accounts) SwitchTeam(ctx context.Context, token string, teamID int64) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET team_id = ? WHERE token_hash = ?
			AND EXISTS (SELECT 1 FROM memberships WHERE team_id = ? AND user_id = sessions.user_id)`, teamID, hashToken(token), teamID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return site.Errorf(site.ENotFound, "You are not in that team.")
		}
		return nil
	})
}

// DeleteSession ends a session on the server.
// Errors: none of its own; a database error as it is.
func (db *Accounts) DeleteSession(ctx context.Context, token string) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = ?`, hashToken(token))
		return err
	})
}
