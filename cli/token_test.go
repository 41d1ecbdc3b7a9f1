package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/site"
	"siteplan/store"
)

// TestTokenVerbs: a token made on the command line is printed once and
// works; token list shows it without the secret; a viewer cannot make a
// write token nor a team token; revoke ends it.
func TestTokenVerbs(t *testing.T) {
	db := filepath.Join(t.TempDir(), "tokens.db")
	for _, u := range [][2]string{{"owner@test.example", "owner"}, {"vic@test.example", "viewer"}} {
		if err := run([]string{"user", "add", "--db", db, "--email", u[0], "--name", "N", "--team", "Agency", "--role", u[1]},
			strings.NewReader("a long enough password\n"), &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := run([]string{"token", "create", "--db", db, "--email", "owner@test.example", "--scope", "write", "--name", "CI", "--expires", "30d"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	raw := strings.TrimSpace(out.String())
	if !strings.HasPrefix(raw, site.TokenPrefix) || strings.Contains(raw, "\n") {
		t.Fatalf("token create printed %q, want the token alone", out.String())
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	use, err := st.Tokens.UseToken(context.Background(), raw)
	st.Close()
	if err != nil || use.Token.Scope != site.ScopeWrite || use.User.Email != "owner@test.example" {
		t.Fatalf("the token: %+v, %v", use, err)
	}
	out.Reset()
	if err := run([]string{"token", "list", "--db", db, "--email", "owner@test.example"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "\twrite\tCI\tuntil ") || !strings.Contains(got, "last used") || strings.Contains(got, raw) {
		t.Errorf("token list: %q", got)
	}
	for _, bad := range [][]string{
		{"--email", "vic@test.example", "--scope", "write"},
		{"--email", "vic@test.example", "--team-token"},
		{"--email", "owner@test.example", "--expires", "400d"},
		{"--email", "nobody@test.example"},
	} {
		err := run(append([]string{"token", "create", "--db", db}, bad...), nil, &bytes.Buffer{})
		if err == nil || !strings.HasPrefix(err.Error(), "token create: ") {
			t.Errorf("token create %q: %v", bad, err)
		}
	}
	if err := run([]string{"token", "revoke", "--db", db, "--email", "owner@test.example", "--id", "1"}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	st, _ = store.Open(db)
	defer st.Close()
	if _, err := st.Tokens.UseToken(context.Background(), raw); site.ErrorCode(err) != site.EUnauthorized {
		t.Errorf("after revoke: %v", err)
	}
}
