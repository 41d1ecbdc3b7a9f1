package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/internal/pgtest"
)

// TestMigrateCLI moves a database to another (PostgreSQL when the tests
// run on it) and back to a new SQLite file, and backs the middle one up:
// each dumps the plan and lists the versions as the first did.
func TestMigrateCLI(t *testing.T) {
	dir := t.TempDir()
	src, back, backup := filepath.Join(dir, "src.db"), filepath.Join(dir, "back.db"), filepath.Join(dir, "backup.db")
	mid := pgtest.DSN(t, "mid.db")
	cli := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := run(args, strings.NewReader(""), &out); err != nil {
			t.Fatalf("siteplan %s: %v", strings.Join(args, " "), err)
		}
		return out.String()
	}
	cli("import", "--db", src, "../store/testdata/acme.json")
	cli("version", "create", "--db", src, "--project", "1", "--name", "Signed off")
	want := cli("dump", "--db", src, "--project", "1") + cli("version", "list", "--db", src, "--project", "1")

	report := cli("migrate", "--from", src, "--to", mid)
	if !strings.Contains(report, "pages            12\n") || !strings.Contains(report, "each table's count checked") {
		t.Errorf("migrate printed %q, want the rows of each table", report)
	}
	cli("migrate", "--from", mid, "--to", back)
	if out := cli("backup", "--db", mid, "--out", backup); out != backup+"\n" {
		t.Errorf("backup printed %q, want the file", out)
	}
	for _, db := range []string{mid, back, backup} {
		if got := cli("dump", "--db", db, "--project", "1") + cli("version", "list", "--db", db, "--project", "1"); got != want {
			t.Errorf("%s holds another plan:\n%s\nwant\n%s", db, got, want)
		}
	}
	var out bytes.Buffer
	err := run([]string{"migrate", "--from", src, "--to", back}, nil, &out)
	if err == nil || !strings.Contains(err.Error(), "copy into a new, empty database") {
		t.Errorf("migrate into a database with data: %v", err)
	}
}
