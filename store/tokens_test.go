package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"siteplan/site"
)

// TestTokens: who may make which token, a use counted against the
// token's rate limit and marking it used, and what ends a token:
// revoking, expiry, its person leaving the team.
func TestTokens(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	now := time.Now()
	db.Now = func() time.Time { return now }
	owner, _, err := db.Accounts.AddUser(ctx, "olive@example.com", "Olive", "correct horse battery", "1", site.RoleOwner)
	if err != nil {
		t.Fatal(err)
	}
	viewer, _, _ := db.Accounts.AddUser(ctx, "vic@example.com", "Vic", "correct horse battery", "1", site.RoleViewer)
	p, _ := newProject(t, db, "Home")
	rival, _ := db.Teams.CreateTeam(ctx, viewer.ID, "Rival")
	other := &site.Project{TeamID: rival.ID, Name: "Rival", BaseURL: "https://rival.example/"}
	if err := db.Projects.CreateProject(ctx, other); err != nil {
		t.Fatal(err)
	}
	week := now.Add(7 * 24 * time.Hour)
	mk := func(tok site.APIToken) (string, error) {
		tok.ExpiresAt = week
		if tok.Name == "" {
			tok.Name = "CI"
		}
		return db.Tokens.CreateToken(ctx, &tok)
	}
	for _, tc := range []struct {
		what string
		tok  site.APIToken
		code string
	}{
		{"a viewer's write token", site.APIToken{TeamID: 1, UserID: viewer.ID, CreatedBy: viewer.ID, Scope: site.ScopeWrite}, site.EInvalid},
		{"a team token by a viewer", site.APIToken{TeamID: 1, CreatedBy: viewer.ID, Scope: site.ScopeRead}, site.EForbidden},
		{"another's personal token", site.APIToken{TeamID: 1, UserID: viewer.ID, CreatedBy: owner.ID, Scope: site.ScopeRead}, site.EForbidden},
		{"a project of another team", site.APIToken{TeamID: 1, UserID: owner.ID, CreatedBy: owner.ID, Scope: site.ScopeRead, ProjectID: other.ID}, site.EInvalid},
		{"a scope that is none", site.APIToken{TeamID: 1, UserID: owner.ID, CreatedBy: owner.ID, Scope: "root"}, site.EInvalid},
		{"a team not theirs", site.APIToken{TeamID: rival.ID, UserID: owner.ID, CreatedBy: owner.ID, Scope: site.ScopeRead}, site.EForbidden},
	} {
		if _, err := mk(tc.tok); site.ErrorCode(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.what, err, tc.code)
		}
	}
	if _, err := db.Tokens.CreateToken(ctx, &site.APIToken{TeamID: 1, UserID: owner.ID, CreatedBy: owner.ID, Scope: site.ScopeRead, Name: "x", ExpiresAt: now.Add(400 * 24 * time.Hour)}); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("past a year: %v", err)
	}
	personal, err := mk(site.APIToken{TeamID: 1, UserID: viewer.ID, CreatedBy: viewer.ID, Scope: site.ScopeRead, ProjectID: p.ID})
	if err != nil || !strings.HasPrefix(personal, site.TokenPrefix) {
		t.Fatalf("a viewer's read token of one project: %q, %v", personal, err)
	}
	team, err := mk(site.APIToken{TeamID: 1, CreatedBy: owner.ID, Scope: site.ScopeWrite, Name: "Agent"})
	if err != nil {
		t.Fatal(err)
	}
	use, err := db.Tokens.UseToken(ctx, personal)
	if err != nil || !use.Allowed || use.User.ID != viewer.ID || len(use.Teams) != 1 || use.Teams[0].Role != site.RoleViewer || use.Token.ProjectID != p.ID {
		t.Fatalf("the personal token: %+v, %v", use, err)
	}
	if use.Remaining != 119 {
		t.Errorf("remaining after one use: %d, want 119", use.Remaining)
	}
	use, err = db.Tokens.UseToken(ctx, team)
	if err != nil || use.User.ID != 0 || use.Teams[0].ID != 1 || use.Teams[0].Role != site.RoleEditor {
		t.Errorf("the team token acts as an editor of team 1: %+v, %v", use, err)
	}
	// The rate limit: 120 at once, then none until a token comes back.
	for range 119 {
		if use, err = db.Tokens.UseToken(ctx, team); err != nil || !use.Allowed {
			t.Fatalf("within the burst: %+v, %v", use, err)
		}
	}
	if use, _ = db.Tokens.UseToken(ctx, team); use.Allowed || use.Remaining != 0 || !use.Full.After(now) {
		t.Errorf("past the burst: %+v", use)
	}
	now = now.Add(300 * time.Millisecond)
	if use, _ = db.Tokens.UseToken(ctx, team); !use.Allowed {
		t.Errorf("a token back after 250 ms: %+v", use)
	}
	list, _ := db.Tokens.Tokens(ctx, 1, 0)
	if len(list) != 1 || list[0].Name != "Agent" || list[0].LastUsedAt.IsZero() || !strings.HasPrefix(team, list[0].Prefix) {
		t.Errorf("team tokens: %+v", list)
	}
	if mine, _ := db.Tokens.Tokens(ctx, 1, viewer.ID); len(mine) != 1 || mine[0].Scope != site.ScopeRead {
		t.Errorf("the viewer's tokens: %+v", mine)
	}
	// What ends a token.
	if err := db.Tokens.RevokeToken(ctx, 1, viewer.ID, list[0].ID); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("revoking the team's token as one's own: %v", err)
	}
	if err := db.Tokens.RevokeToken(ctx, 1, 0, list[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Tokens.UseToken(ctx, team); site.ErrorCode(err) != site.EUnauthorized {
		t.Errorf("a revoked token: %v", err)
	}
	if err := db.Teams.RemoveMember(ctx, 1, viewer.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Tokens.UseToken(ctx, personal); site.ErrorCode(err) != site.EUnauthorized {
		t.Errorf("the token of a person who left: %v", err)
	}
	later, _ := mk(site.APIToken{TeamID: 1, UserID: owner.ID, CreatedBy: owner.ID, Scope: site.ScopeAdmin})
	now = week.Add(time.Second)
	if _, err := db.Tokens.UseToken(ctx, later); site.ErrorCode(err) != site.EUnauthorized {
		t.Errorf("an expired token: %v", err)
	}
	if _, err := db.Tokens.UseToken(ctx, "sp_nothing"); site.ErrorCode(err) != site.EUnauthorized {
		t.Errorf("an unknown token: %v", err)
	}
}
