package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"siteplan/site"
)

func init() { PasswordCost = bcrypt.MinCost }

const pw = "correct horse battery"

// clock returns a settable clock installed on db.
func clock(db *Store) *time.Time {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	return &now
}

func wantCode(t *testing.T, err error, code, what string) {
	t.Helper()
	if got := site.ErrorCode(err); got != code {
		t.Fatalf("%s: got error code %q (%v), want %q", what, got, err, code)
	}
}

func TestFirstSignUpAdoptsTheDefaultTeam(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	p, _ := newProject(t, db, "Home")
	u, team, err := db.Accounts.SignUpFirst(ctx, "ana@agency.example", "Ana", pw, "Agency")
	if err != nil {
		t.Fatal(err)
	}
	if team.ID != p.TeamID || team.Name != "Agency" {
		t.Errorf("got team %+v, want the default team %d renamed Agency", team, p.TeamID)
	}
	if role, _ := db.Teams.Role(ctx, team.ID, u.ID); role != site.RoleOwner {
		t.Errorf("got role %q, want owner", role)
	}
	_, _, err = db.Accounts.SignUpFirst(ctx, "bo@agency.example", "Bo", pw, "Other")
	wantCode(t, err, site.EForbidden, "second sign-up")
	if _, err := db.Accounts.Authenticate(ctx, "ANA@agency.example", pw); err != nil {
		t.Errorf("e-mail is case-insensitive: %v", err)
	}
	_, err = db.Accounts.Authenticate(ctx, "ana@agency.example", "wrong password")
	wantCode(t, err, site.EUnauthorized, "wrong password")
	_, err = db.Accounts.Authenticate(ctx, "nobody@agency.example", pw)
	wantCode(t, err, site.EUnauthorized, "unknown e-mail")
}

func TestSignUpValidation(t *testing.T) {
	db := openTest(t)
	_, _, err := db.Accounts.SignUpFirst(context.Background(), "not an address", "", "short", "")
	wantCode(t, err, site.EInvalid, "bad sign-up")
	f := site.ErrorFields(err)
	for _, k := range []string{"email", "name", "password"} {
		if f[k] == "" {
			t.Errorf("no message for %s: %v", k, f)
		}
	}
	if ok, _ := db.Accounts.HasUsers(context.Background()); ok {
		t.Error("a refused sign-up left an account behind")
	}
}

func TestSessions(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	now := clock(db)
	u, team, err := db.Accounts.SignUpFirst(ctx, "ana@agency.example", "Ana", pw, "Agency")
	if err != nil {
		t.Fatal(err)
	}
	tok, err := db.Accounts.CreateSession(ctx, u.ID, team.ID)
	if err != nil {
		t.Fatal(err)
	}
	s, got, err := db.Accounts.Session(ctx, tok)
	if err != nil || got.ID != u.ID || s.TeamID != team.ID {
		t.Fatalf("got %+v %+v %v, want Ana's session", s, got, err)
	}
	// The session comes with its user's teams, by name, and their roles;
	// a user in no team still has a session, with none.
	if _, err := db.Teams.CreateTeam(ctx, u.ID, "aardvark studio"); err != nil {
		t.Fatal(err)
	}
	loner, _, err := db.Accounts.AddUser(ctx, "lone@agency.example", "Lone", pw, "Agency", "viewer")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Teams.RemoveMember(ctx, team.ID, loner.ID); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		user int64
		want string
	}{{u.ID, "[aardvark studio owner Agency owner]"}, {loner.ID, "[]"}} {
		tok, err := db.Accounts.CreateSession(ctx, c.user, 0)
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := db.Accounts.Session(ctx, tok)
		var teams []string
		for _, m := range s.Teams {
			teams = append(teams, m.Name, m.Role)
		}
		if got := fmt.Sprint(teams); err != nil || got != c.want {
			t.Errorf("teams of user %d's session: %s, %v; want %s", c.user, got, err, c.want)
		}
	}
	_, _, err = db.Accounts.Session(ctx, tok+"x")
	wantCode(t, err, site.EUnauthorized, "unknown token")
	live := func() string {
		t.Helper()
		m, err := db.Accounts.LiveSessions(ctx, []string{tok, tok + "x"})
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(m[tok], m[tok+"x"])
	}
	if got := live(); got != "true false" {
		t.Errorf("live sessions of the token and an unknown one: %s", got)
	}

	*now = now.Add(site.SessionTTL + time.Second)
	_, _, err = db.Accounts.Session(ctx, tok)
	wantCode(t, err, site.EUnauthorized, "expired session")
	if got := live(); got != "false false" {
		t.Errorf("live sessions once expired: %s", got)
	}

	*now = now.Add(-site.SessionTTL)
	if err := db.Accounts.DeleteSession(ctx, tok); err != nil {
		t.Fatal(err)
	}
	_, _, err = db.Accounts.Session(ctx, tok)
	wantCode(t, err, site.EUnauthorized, "deleted session")

	// A password reset ends every session.
	tok, _ = db.Accounts.CreateSession(ctx, u.ID, team.ID)
	if _, created, err := db.Accounts.AddUser(ctx, "ana@agency.example", "Ana M.", "a new long password", "Agency", "owner"); err != nil || created {
		t.Fatalf("reset: created %v, %v", created, err)
	}
	_, _, err = db.Accounts.Session(ctx, tok)
	wantCode(t, err, site.EUnauthorized, "session after a password reset")
	if _, err := db.Accounts.Authenticate(ctx, "ana@agency.example", "a new long password"); err != nil {
		t.Errorf("new password refused: %v", err)
	}
}

func TestTeamsAndRoles(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	ana, team, _ := db.Accounts.SignUpFirst(ctx, "ana@agency.example", "Ana", pw, "Agency")
	bo, created, err := db.Accounts.AddUser(ctx, "bo@agency.example", "Bo", pw, "Agency", site.RoleViewer)
	if err != nil || !created {
		t.Fatalf("add Bo: %v %v", created, err)
	}
	wantCode(t, db.Teams.SetRole(ctx, team.ID, ana.ID, site.RoleEditor), site.EConflict, "demote the last owner")
	wantCode(t, db.Teams.RemoveMember(ctx, team.ID, ana.ID), site.EConflict, "remove the last owner")
	wantCode(t, db.Teams.SetRole(ctx, team.ID, bo.ID, "admin"), site.EInvalid, "unknown role")
	if err := db.Teams.SetRole(ctx, team.ID, bo.ID, site.RoleOwner); err != nil {
		t.Fatal(err)
	}
	if err := db.Teams.RemoveMember(ctx, team.ID, ana.ID); err != nil {
		t.Fatalf("leaving with another owner left: %v", err)
	}
	if role, _ := db.Teams.Role(ctx, team.ID, ana.ID); role != "" {
		t.Errorf("Ana still has role %q", role)
	}
	other, err := db.Teams.CreateTeam(ctx, ana.ID, "Freelance")
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := db.Teams.Memberships(ctx, ana.ID)
	if len(ms) != 1 || ms[0].ID != other.ID || ms[0].Role != site.RoleOwner {
		t.Errorf("got memberships %+v, want owner of Freelance only", ms)
	}
	tok, _ := db.Accounts.CreateSession(ctx, ana.ID, other.ID)
	wantCode(t, db.Accounts.SwitchTeam(ctx, tok, team.ID), site.ENotFound, "switch to a team she left")
}

func TestInvites(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	now := clock(db)
	ana, team, _ := db.Accounts.SignUpFirst(ctx, "ana@agency.example", "Ana", pw, "Agency")
	tok, err := db.Sharing.CreateInvite(ctx, team.ID, ana.ID, site.RoleEditor, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	inv, tm, err := db.Sharing.Invite(ctx, tok)
	if err != nil || tm.Name != "Agency" || inv.Role != site.RoleEditor {
		t.Fatalf("got %+v %+v %v", inv, tm, err)
	}
	// A refused sign-up does not use the invite up.
	_, _, err = db.Sharing.SignUpWithInvite(ctx, tok, "ana@agency.example", "Ana 2", pw)
	wantCode(t, err, site.EConflict, "sign up with a taken e-mail")
	bo, teamID, err := db.Sharing.SignUpWithInvite(ctx, tok, "bo@agency.example", "Bo", pw)
	if err != nil || teamID != team.ID {
		t.Fatalf("sign up with invite: %v", err)
	}
	if role, _ := db.Teams.Role(ctx, team.ID, bo.ID); role != site.RoleEditor {
		t.Errorf("got role %q, want editor", role)
	}
	_, _, err = db.Sharing.SignUpWithInvite(ctx, tok, "cy@agency.example", "Cy", pw)
	wantCode(t, err, site.ENotFound, "second use of an invite")
	if ok, _ := db.Accounts.Authenticate(ctx, "cy@agency.example", pw); ok.ID != 0 {
		t.Error("the refused second use left an account")
	}

	tok, _ = db.Sharing.CreateInvite(ctx, team.ID, ana.ID, site.RoleViewer, time.Hour)
	*now = now.Add(time.Hour)
	_, _, err = db.Sharing.Invite(ctx, tok)
	wantCode(t, err, site.ENotFound, "expired invite")
	_, err = db.Sharing.AcceptInvite(ctx, tok, bo.ID)
	wantCode(t, err, site.ENotFound, "accept an expired invite")
	_, err = db.Sharing.CreateInvite(ctx, team.ID, ana.ID, site.RoleViewer, 31*24*time.Hour)
	wantCode(t, err, site.EInvalid, "invite for 31 days")
}

func TestShareLinks(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	now := clock(db)
	p, _ := newProject(t, db, "Home")
	l := site.ShareLink{ProjectID: p.ID, Role: site.ShareComment, Label: "Client", ExpiresAt: now.Add(48 * time.Hour)}
	tok, err := db.Sharing.CreateShareLink(ctx, &l)
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) < 22 { // 128 bits in base64
		t.Errorf("token %q is shorter than 128 bits", tok)
	}
	got, err := db.Sharing.UseShareLink(ctx, tok)
	if err != nil || got.ID != l.ID || got.Role != site.ShareComment {
		t.Fatalf("got %+v %v", got, err)
	}
	list, _ := db.Sharing.ShareLinks(ctx, p.ID)
	if len(list) != 1 || !list[0].LastUsedAt.Equal(*now) {
		t.Errorf("got %+v, want one link last used now", list)
	}
	*now = now.Add(48 * time.Hour)
	_, err = db.Sharing.UseShareLink(ctx, tok)
	wantCode(t, err, site.ENotFound, "expired link")

	l2 := site.ShareLink{ProjectID: p.ID, Role: site.ShareView}
	tok2, _ := db.Sharing.CreateShareLink(ctx, &l2)
	if _, err := db.Sharing.UseShareLink(ctx, tok2); err != nil {
		t.Fatal(err)
	}
	wantCode(t, db.Sharing.RevokeShareLink(ctx, p.ID+1, l2.ID), site.ENotFound, "revoke through another project")
	if err := db.Sharing.RevokeShareLink(ctx, p.ID, l2.ID); err != nil {
		t.Fatal(err)
	}
	_, err = db.Sharing.UseShareLink(ctx, tok2)
	wantCode(t, err, site.ENotFound, "revoked link")
	_, err = db.Sharing.CreateShareLink(ctx, &site.ShareLink{ProjectID: p.ID, Role: "edit"})
	wantCode(t, err, site.EInvalid, "share link with role edit")
}

func TestCommentThreads(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	p, ids := newProject(t, db, "Home\n  Pricing\n  About")
	q, _ := newProject(t, db, "Other")
	c := site.Comment{ProjectID: p.ID, PageID: ids["Pricing"], Author: "Client", Body: "Show yearly prices?"}
	if err := db.Comments.AddComment(ctx, &c, 0); err != nil {
		t.Fatal(err)
	}
	r := site.Comment{ProjectID: p.ID, PageID: ids["Pricing"], ParentID: c.ID, Author: "Ana", Body: "Yes."}
	if err := db.Comments.AddComment(ctx, &r, 0); err != nil {
		t.Fatal(err)
	}
	wantCode(t, db.Comments.AddComment(ctx, &site.Comment{ProjectID: q.ID, PageID: ids["Pricing"], Author: "X", Body: "x"}, 0), site.ENotFound, "comment through another project")
	wantCode(t, db.Comments.AddComment(ctx, &site.Comment{ProjectID: p.ID, PageID: ids["About"], ParentID: c.ID, Author: "X", Body: "x"}, 0), site.ENotFound, "reply on another page")
	wantCode(t, db.Comments.AddComment(ctx, &site.Comment{ProjectID: p.ID, PageID: ids["About"], Author: "X", Body: "  "}, 0), site.EInvalid, "empty comment")

	th, _ := db.Comments.Comments(ctx, ids["Pricing"])
	if len(th) != 1 || len(th[0].Replies) != 1 || th[0].Replies[0].Body != "Yes." {
		t.Fatalf("got threads %+v", th)
	}
	counts, _ := db.Comments.OpenCommentCounts(ctx, p.ID)
	if counts[ids["Pricing"]] != 1 || len(counts) != 1 {
		t.Errorf("got counts %v", counts)
	}
	pg, _ := db.Pages.Page(ctx, ids["Pricing"])
	if pg.OpenComments != 1 {
		t.Errorf("page shows %d open threads, want 1", pg.OpenComments)
	}
	// Resolving a reply resolves its thread.
	if err := db.Comments.ResolveComment(ctx, p.ID, r.ID, "Ana", true); err != nil {
		t.Fatal(err)
	}
	if open, _ := db.Comments.OpenComments(ctx, p.ID); len(open) != 0 {
		t.Errorf("got %d open threads after resolving, want 0", len(open))
	}
	wantCode(t, db.Comments.ResolveComment(ctx, q.ID, c.ID, "X", false), site.ENotFound, "reopen through another project")
	// A reply reopens.
	if err := db.Comments.AddComment(ctx, &site.Comment{ProjectID: p.ID, PageID: ids["Pricing"], ParentID: c.ID, Author: "Client", Body: "Not quite."}, 0); err != nil {
		t.Fatal(err)
	}
	open, _ := db.Comments.OpenComments(ctx, p.ID)
	if len(open) != 1 || len(open[0].Replies) != 2 || open[0].PageTitle != "Pricing" {
		t.Errorf("got open threads %+v", open)
	}
	if _, err := db.Pages.DeletePage(ctx, ids["Pricing"]); err != nil {
		t.Fatal(err)
	}
	if open, _ := db.Comments.OpenComments(ctx, p.ID); len(open) != 0 {
		t.Errorf("deleting the page left %d threads", len(open))
	}
}

// TestDummyHashCost: an unknown e-mail is checked against a hash of the
// same cost as the accounts', so a login takes as long either way.
func TestDummyHashCost(t *testing.T) {
	defer func(old int) { PasswordCost = old }(PasswordCost)
	PasswordCost = bcrypt.MinCost + 1
	if cost, err := bcrypt.Cost(dummyHash()); err != nil || cost != PasswordCost {
		t.Errorf("dummy hash cost %d (%v), want %d", cost, err, PasswordCost)
	}
}
