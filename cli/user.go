package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"siteplan/site"
)

// userAddCmd creates an account or resets its password (read from the
// first line of stdin) and gives it a role in a team.
func userAddCmd(fs *flag.FlagSet, args []string, stdin io.Reader, stdout io.Writer) error {
	email := fs.String("email", "", "e-mail address")
	name := fs.String("name", "", "display name")
	team := fs.String("team", "", "team id or name (a new name makes a team)")
	role := fs.String("role", "", "owner, editor or viewer")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *email == "" || *name == "" || *team == "" || *role == "" {
		return errors.New("user add: --email, --name, --team and --role are all required")
	}
	line, err := bufio.NewReader(io.LimitReader(stdin, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("user add: read the password from standard input: %w", err)
	}
	password := strings.TrimRight(line, "\r\n")
	if password == "" {
		return errors.New("user add: give the password on standard input, e.g. printf '%s\\n' \"$PASSWORD\" | siteplan user add --email E --name N --team T --role R")
	}
	db, err := openDB(fs)
	if err != nil {
		return err
	}
	defer db.Close()
	u, created, err := db.Accounts.AddUser(context.Background(), *email, *name, password, *team, *role)
	if err != nil {
		return fmt.Errorf("user add: %w", withFields(err))
	}
	what := "password reset for"
	if created {
		what = "created"
	}
	_, err = fmt.Fprintf(stdout, "%s %s (user %d), %s of team %s\n", what, u.Email, u.ID, *role, *team)
	return err
}

// withFields adds the per-field messages of a validation error to it.
func withFields(err error) error {
	f := site.ErrorFields(err)
	if len(f) == 0 {
		return err
	}
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + f[k]
	}
	return errors.New(strings.Join(parts, "; "))
}
