package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"siteplan/site"
	"siteplan/store"
)

// The API tokens (site/token.go) for scripts, CI and agents: made,
// listed and revoked as the account and Team pages do.

// tokenOwner reads the flags every token verb shares: whose token, of
// which team, and whether it is the team's. It opens the database.
type tokenOwner struct {
	email, team *string
	teamToken   *bool
}

func tokenFlags(fs *flag.FlagSet) tokenOwner {
	return tokenOwner{
		email:     fs.String("email", "", "the person who makes (and, for a personal token, owns) the token"),
		team:      fs.String("team", "", "team id or name (default: the project's team, else the person's first)"),
		teamToken: fs.Bool("team-token", false, "the team's token, not the person's (made by an owner)"),
	}
}

// resolve finds the person, and the team: --team, else project's, else
// the person's first.
func (o tokenOwner) resolve(ctx context.Context, db *store.Store, project int64) (site.User, int64, error) {
	if *o.email == "" {
		return site.User{}, 0, errors.New("--email E is required: the person who makes the token")
	}
	u, err := db.Accounts.UserByEmail(ctx, *o.email)
	if err != nil {
		return u, 0, err
	}
	switch {
	case *o.team != "":
		t, err := db.Teams.FindTeam(ctx, *o.team)
		return u, t.ID, err
	case project != 0:
		p, err := db.Projects.Project(ctx, project)
		return u, p.TeamID, err
	}
	ms, err := db.Teams.Memberships(ctx, u.ID)
	if err == nil && len(ms) == 0 {
		err = fmt.Errorf("%s is in no team", u.Email)
	}
	if err != nil {
		return u, 0, err
	}
	return u, ms[0].ID, nil
}

// tokenCreateCmd makes a token and prints it, the only time it is shown.
func tokenCreateCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	who := tokenFlags(fs)
	name := fs.String("name", "command line", "what uses the token, such as \"CI staging check\"")
	scope := fs.String("scope", site.ScopeRead, "read, write or admin")
	project := fs.Int64("project", 0, "limit the token to this project (0: all of the team's)")
	expires := fs.String("expires", "90d", "how long it lives, at most a year: 30d, 12w, 8760h")
	if err := parse(fs, args); err != nil {
		return err
	}
	db, err := openDB(fs)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	u, team, err := who.resolve(ctx, db, *project)
	if err != nil {
		return fmt.Errorf("token create: %w", err)
	}
	life, err := site.ParseDuration(*expires)
	if err != nil {
		return fmt.Errorf("token create: --expires: %w", err)
	}
	t := site.APIToken{TeamID: team, UserID: u.ID, Name: *name, Scope: *scope, ProjectID: *project, ExpiresAt: time.Now().Add(life), CreatedBy: u.ID}
	if *who.teamToken {
		t.UserID = 0
	}
	raw, err := db.Tokens.CreateToken(ctx, &t)
	if err != nil {
		return fmt.Errorf("token create: %w", err)
	}
	fmt.Fprintln(stdout, raw)
	return nil
}

// tokenListCmd lists a person's tokens in a team, or the team's.
func tokenListCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	who := tokenFlags(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	db, err := openDB(fs)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	u, team, err := who.resolve(ctx, db, 0)
	if err != nil {
		return fmt.Errorf("token list: %w", err)
	}
	owner := u.ID
	if *who.teamToken {
		owner = 0
	}
	list, err := db.Tokens.Tokens(ctx, team, owner)
	if err != nil {
		return fmt.Errorf("token list: %w", err)
	}
	for _, t := range list {
		fmt.Fprintf(stdout, "%d\t%s…\t%s\t%s\t%s\n", t.ID, t.Prefix, t.Scope, t.Name, t.State(time.Now()))
	}
	return nil
}

// tokenRevokeCmd revokes a token: it stops working at once.
func tokenRevokeCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	who := tokenFlags(fs)
	id := fs.Int64("id", 0, "the token's id, as token list prints it")
	if err := parse(fs, args); err != nil {
		return err
	}
	db, err := openDB(fs)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	u, team, err := who.resolve(ctx, db, 0)
	if err != nil {
		return fmt.Errorf("token revoke: %w", err)
	}
	owner := u.ID
	if *who.teamToken {
		owner = 0 // the team's: its owners revoke it
		ms, err := db.Teams.Memberships(ctx, u.ID)
		if err != nil {
			return fmt.Errorf("token revoke: %w", err)
		}
		if !isOwner(ms, team) {
			return fmt.Errorf("token revoke: only the team's owners revoke its tokens")
		}
	}
	if err := db.Tokens.RevokeToken(ctx, team, owner, *id); err != nil {
		return fmt.Errorf("token revoke: %w", err)
	}
	fmt.Fprintf(stdout, "token %d revoked\n", *id)
	return nil
}

// isOwner reports whether ms makes its person an owner of team.
func isOwner(ms []site.Membership, team int64) bool {
	for _, m := range ms {
		if m.ID == team && m.Role == site.RoleOwner {
			return true
		}
	}
	return false
}
