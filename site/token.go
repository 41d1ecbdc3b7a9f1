package site

import (
	"strconv"
	"strings"
	"time"
)

// An API token lets a script, a CI job or an agent use siteplan's API
// (/api/v1) and MCP endpoint without a browser session. A personal
// token acts as its user, a team token as a member of its team, each
// capped by the token's scope and, optionally, to one project: a token
// can never do what its owner cannot. The token itself is shown once;
// the store keeps its hash.

// Token scopes: what a token may do at most.
const (
	ScopeRead  = "read"  // read plans, exports, reports
	ScopeWrite = "write" // and change plans, run checks, propose
	ScopeAdmin = "admin" // and share, delete, manage the team's webhooks
)

// TokenScopes are the scopes, weakest first.
var TokenScopes = []string{ScopeRead, ScopeWrite, ScopeAdmin}

// ScopeAccess is the most access a token of scope gives on a project.
func ScopeAccess(scope string) Access {
	switch scope {
	case ScopeAdmin:
		return AccessManage
	case ScopeWrite:
		return AccessEdit
	case ScopeRead:
		return AccessRead
	}
	return AccessNone
}

// ScopeRole is the team role a team token of scope acts in.
func ScopeRole(scope string) string {
	switch scope {
	case ScopeAdmin:
		return RoleOwner
	case ScopeWrite:
		return RoleEditor
	}
	return RoleViewer
}

// RoleScope is the widest scope a member of role may give a token.
func RoleScope(role string) string {
	switch role {
	case RoleOwner:
		return ScopeAdmin
	case RoleEditor:
		return ScopeWrite
	}
	return ScopeRead
}

// APIToken is a token as its owner sees it (never the token itself).
type APIToken struct {
	ID     int64
	TeamID int64
	// UserID is a personal token's user; 0 for a team token.
	UserID int64
	Name   string
	Scope  string
	// ProjectID limits the token to one project of its team; 0: all.
	ProjectID int64
	// Prefix is the token's first characters, to tell tokens apart.
	Prefix                                      string
	CreatedAt, ExpiresAt, LastUsedAt, RevokedAt time.Time
	CreatedBy                                   int64
}

// TokenPrefix starts every token, so that a secret scanner (and a
// person) knows one when they see it.
const TokenPrefix = "sp_"

// MaxTokenLife is the longest a token lives.
const MaxTokenLife = 366 * 24 * time.Hour

// Validate trims a new token's name and checks it; now is the time of
// its creation. Errors: EInvalid naming the field to fix.
func (t *APIToken) Validate(now time.Time) error {
	t.Name = strings.TrimSpace(t.Name)
	if msg := NameProblem("A token's name", t.Name, MaxName); msg != "" {
		return Errorf(EInvalid, "%s Say what uses it, such as “CI staging check”.", msg)
	}
	switch {
	case ScopeAccess(t.Scope) == AccessNone:
		return Errorf(EInvalid, "A token's scope is read, write or admin, not %q.", t.Scope)
	case t.ExpiresAt.IsZero():
		return Errorf(EInvalid, "A token needs an expiry (at most a year).")
	case !t.ExpiresAt.After(now):
		return Errorf(EInvalid, "A token's expiry must be in the future.")
	case t.ExpiresAt.Sub(now) > MaxTokenLife:
		return Errorf(EInvalid, "A token lives at most a year: choose an earlier expiry.")
	}
	return nil
}

// Live reports whether the token works at now: not revoked, not expired.
func (t APIToken) Live(now time.Time) bool {
	return t.RevokedAt.IsZero() && now.Before(t.ExpiresAt)
}

// State is the token's state at now in words: until when it works and
// when it was last used, or that it was revoked or expired.
func (t APIToken) State(now time.Time) string {
	const day = "2 Jan 2006"
	switch {
	case !t.RevokedAt.IsZero():
		return "revoked " + t.RevokedAt.UTC().Format(day)
	case !now.Before(t.ExpiresAt):
		return "expired " + t.ExpiresAt.UTC().Format(day)
	case t.LastUsedAt.IsZero():
		return "until " + t.ExpiresAt.UTC().Format(day) + ", never used"
	}
	return "until " + t.ExpiresAt.UTC().Format(day) + ", last used " + t.LastUsedAt.UTC().Format(day+" 15:04") + " UTC"
}

// TokenUse is a token presented with a request, as the store finds it:
// the token, the account it acts as (none for a team token), its
// memberships (for a team token, its team in the scope's role), and
// the rate limit's state after this use.
type TokenUse struct {
	Token APIToken
	User  User
	Teams []Membership
	// Allowed is false when the token's rate limit is spent; Remaining
	// requests may follow now, and the allowance is whole again at Full.
	Allowed   bool
	Remaining int
	Full      time.Time
}

// Viewer is whom a request with the token acts as: its person, or for a
// team token the team in its scope's role under the token's name,
// capped by its scope and project.
func (u TokenUse) Viewer() Viewer {
	v := Viewer{UserID: u.User.ID, Name: u.User.Name, Teams: u.Teams, TokenID: u.Token.ID, TokenScope: u.Token.Scope, TokenProject: u.Token.ProjectID}
	if u.User.ID == 0 {
		v.Name = u.Token.Name + " (team token)"
	}
	if len(u.Teams) > 0 {
		v.Team, v.TeamRole = u.Teams[0].Team, u.Teams[0].Role
	}
	return v
}

// TokenBucket is a token's rate limit: a burst of 120 requests, then
// one every 250 ms (240 a minute), on every instance together.
func TokenBucket(tokenID int64) Bucket {
	return Bucket{Key: "api-token:" + strconv.FormatInt(tokenID, 10), Every: 250 * time.Millisecond, Burst: 120}
}

// Remaining is how many tokens a bucket full again at fullAt holds at
// now.
func (b Bucket) Remaining(fullAt, now time.Time) int {
	if !fullAt.After(now) {
		return b.Burst
	}
	used := int((fullAt.Sub(now) + b.Every - 1) / b.Every)
	return max(0, b.Burst-used)
}

// Capped is the access viewer v has on project id, given the access its
// teams give it: a token's scope caps it, and a token of one project
// has none on the others. A viewer without a token keeps access.
func (v Viewer) Capped(projectID int64, access Access) Access {
	switch {
	case v.TokenScope == "":
		return access
	case v.TokenProject != 0 && v.TokenProject != projectID:
		return AccessNone
	}
	return min(access, ScopeAccess(v.TokenScope))
}

// KeptAnswer is an API answer kept for an Idempotency-Key: sent again,
// the request gets it again.
type KeptAnswer struct {
	Status      int
	ContentType string
	Location    string
	Body        []byte
}
