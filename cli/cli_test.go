package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"siteplan/site"
	"siteplan/store"
)

func TestImportDumpCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "cli.db")
	var out bytes.Buffer
	if err := run([]string{"import", "--db", db, "../store/testdata/acme.json", "-"}, strings.NewReader(
		`{"format":"siteplan/1","project":{"name":"Stdin","base_url":"https://stdin.example"},"pages":[{"title":"Home","slug":""}]}`), &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "1\n2\n" {
		t.Fatalf("import printed %q, want each new project id alone on a line", got)
	}
	out.Reset()
	if err := run([]string{"dump", "--db", db, "--project", "1"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	d, err := site.ParseDocument(&out)
	if err != nil {
		t.Fatalf("dump is not a valid document: %v", err)
	}
	if d.Project.Name != "Acme relaunch" || d.CountPages() != 12 || len(d.Links) != 2 {
		t.Errorf("dump: %q, %d pages, %d links", d.Project.Name, d.CountPages(), len(d.Links))
	}
}

func TestImportCLIRefusesBadDocumentsAsAWhole(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "cli.db")
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"format":"siteplan/1","project":{"name":"X","base_url":"https://x.example/"},
		"pages":[{"title":"Home","children":[{"key":"a","title":"A"},{"key":"a","title":"B"}]}]}`), 0o644)
	var out bytes.Buffer
	err := run([]string{"import", "--db", db, "../store/testdata/acme.json", bad}, nil, &out)
	if err == nil || !strings.Contains(err.Error(), `"B"`) || !strings.Contains(err.Error(), "key") || !strings.Contains(err.Error(), "nothing was imported") {
		t.Fatalf("err = %v, want a message naming page B, its key, and that nothing was imported", err)
	}
	if out.Len() != 0 {
		t.Errorf("import printed %q though it failed", out.String())
	}
	out.Reset()
	if err := run([]string{"dump", "--db", db, "--project", "1"}, nil, &out); err == nil {
		t.Errorf("project 1 exists after a refused import")
	}
}

func TestCLIErrors(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	tests := []struct {
		args []string
		want string
	}{
		{nil, "no command"},
		{[]string{"launch"}, "unknown command"},
		{[]string{"dump", "--db", db}, "--project ID is required"},
		{[]string{"dump", "--db", db, "--project", "7"}, "does not exist"},
		{[]string{"import", "--db", db}, "at least one"},
		{[]string{"import", "--db", db, "nope.json"}, "no such file"},
		{[]string{"serve", "--bogus"}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		err := run(tt.args, strings.NewReader(""), &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("run(%q) = %v, want an error containing %q", tt.args, err, tt.want)
		}
	}
}

// TestVerbHelp: every verb's --help (and -h) prints its usage lines and
// its flags on standard output and succeeds, writing nothing.
func TestVerbHelp(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for name := range verbs {
		for _, flag := range []string{"--help", "-h"} {
			var out bytes.Buffer
			args := append(strings.Fields(name), flag)
			if err := run(args, strings.NewReader(""), &out); err != nil {
				t.Errorf("run(%q) = %v, want its help", args, err)
				continue
			}
			if !strings.HasPrefix(out.String(), "usage:\n  siteplan "+name+" ") || !strings.Contains(out.String(), "\nflags:\n") || !strings.Contains(out.String(), "\n  -db string\n") {
				t.Errorf("run(%q) printed\n%s\nwant its usage lines and flags", args, out.String())
			}
		}
	}
	var out bytes.Buffer
	run([]string{"serve", "--help"}, nil, &out)
	if !strings.Contains(out.String(), "-allow-private-fetch\n") || !strings.Contains(out.String(), "[--allow-private-fetch]") {
		t.Errorf("serve --help:\n%s\nwant --allow-private-fetch among its flags and usage", out.String())
	}
	if files, _ := os.ReadDir(dir); len(files) > 0 {
		t.Errorf("help wrote %v", files)
	}
}

func TestExportCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "cli.db")
	if err := run([]string{"import", "--db", db, "../store/testdata/acme.json"}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var report bytes.Buffer
	if err := run([]string{"export", "--db", db, "--project", "1", "--out", out, "--max-urls", "3", "--gzip"}, nil, &report); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sitemap.xml", "sitemap-1.xml.gz", "sitemap-2.xml.gz", "sitemap-3.xml.gz", "sitemap.txt", "robots.txt", "footer.html"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("export did not write %s", name)
		}
	}
	for _, want := range []string{"8 URLs", "sitemap-3.xml.gz", "robots.txt: Sitemap: https://www.acme.example/sitemap.xml", "note: Google ignores"} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, report.String())
		}
	}
	robots, _ := os.ReadFile(filepath.Join(out, "robots.txt"))
	if !strings.Contains(string(robots), "Sitemap: https://www.acme.example/sitemap.xml\n") {
		t.Errorf("robots.txt = %q", robots)
	}
	err := run([]string{"export", "--db", db, "--project", "1", "--out", out, "--section", "7"}, nil, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "Nothing to export") {
		t.Errorf("export of a placeholder section: err = %v, want 'Nothing to export'", err)
	}
	if err := run([]string{"export", "--db", db, "--project", "1"}, nil, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "--out") {
		t.Errorf("export without --out: %v", err)
	}
}

func TestDiagramCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "cli.db")
	if err := run([]string{"import", "--db", db, "../store/testdata/acme.json"}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ format, magic string }{{"svg", "<svg"}, {"png", "\x89PNG"}, {"pdf", "%PDF-"}, {"dot", "digraph"}, {"graphml", "<graphml"}} {
		out := filepath.Join(dir, "plan."+f.format)
		var report bytes.Buffer
		if err := run([]string{"diagram", "--db", db, "--project", "1", "--format", f.format, "--out", out, "--layout", "lr", "--depth", "2"}, nil, &report); err != nil {
			t.Fatalf("%s: %v", f.format, err)
		}
		b, _ := os.ReadFile(out)
		if !bytes.Contains(b[:min(600, len(b))], []byte(f.magic)) {
			t.Errorf("%s file starts %q", f.format, b[:min(40, len(b))])
		}
		if !strings.Contains(report.String(), "9 of 12 pages drawn") {
			t.Errorf("%s report: %s", f.format, report.String())
		}
	}
	// The PDF's paper and cover from the command line (pdfinfo reads them).
	if _, err := exec.LookPath("pdfinfo"); err != nil && os.Getenv("CI") == "true" {
		t.Error("pdfinfo is missing; .ci/run installs poppler-utils")
	} else if err == nil {
		out := filepath.Join(dir, "tabloid.pdf")
		if err := run([]string{"diagram", "--db", db, "--project", "1", "--format", "pdf", "--out", out, "--paper", "tabloid", "--orientation", "portrait", "--cover", "--client"}, nil, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		info, err := exec.Command("pdfinfo", out).Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"792 x 1224 pts", "Pages:           2"} {
			if !strings.Contains(string(info), want) {
				t.Errorf("pdfinfo of --paper tabloid --orientation portrait --cover lacks %q:\n%s", want, info)
			}
		}
	}
	for _, args := range [][]string{
		{"--format", "jpeg", "--out", "x"},
		{"--format", "svg"},
		{"--format", "svg", "--out", "x", "--layout", "spiral"},
		{"--format", "pdf", "--out", "x", "--paper", "b5"},
	} {
		err := run(append([]string{"diagram", "--db", db, "--project", "1"}, args...), nil, &bytes.Buffer{})
		if err == nil {
			t.Errorf("diagram %v: no error", args)
		}
	}
}

func TestUserAndShareCLI(t *testing.T) {
	store.PasswordCost = bcrypt.MinCost
	dir := t.TempDir()
	db := filepath.Join(dir, "cli.db")
	var out bytes.Buffer
	if err := run([]string{"import", "--db", db, "../store/testdata/acme.json"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	add := func(pw string, args ...string) error {
		out.Reset()
		return run(append([]string{"user", "add", "--db", db}, args...), strings.NewReader(pw), &out)
	}
	who := []string{"--email", "ana@agency.example", "--name", "Ana", "--team", "Agency", "--role", "owner"}
	if err := add("first password 1\n", who...); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "created ana@agency.example") {
		t.Errorf("user add printed %q", out.String())
	}
	if err := add("second password 2\n", who...); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "password reset for ana@agency.example") {
		t.Errorf("second user add printed %q, want a password reset", out.String())
	}
	for _, c := range []struct {
		pw   string
		args []string
		want string
	}{
		{"", who, "password on standard input"},
		{"short\n", who, "password: Use at least 10 characters"},
		{"a long password\n", []string{"--email", "x@y.example", "--name", "X", "--team", "Agency", "--role", "admin"}, "Role must be owner, editor or viewer"},
		{"a long password\n", []string{"--email", "x@y.example"}, "are all required"},
	} {
		if err := add(c.pw, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("user add %v: got %v, want an error saying %q", c.args, err, c.want)
		}
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	u, err := st.Accounts.Authenticate(ctx, "ana@agency.example", "second password 2")
	if err != nil {
		t.Fatalf("the reset password does not log in: %v", err)
	}
	p, _ := st.Projects.Project(ctx, 1)
	if role, _ := st.Teams.Role(ctx, p.TeamID, u.ID); role != site.RoleOwner {
		t.Errorf("Ana is %q of the team that holds the imported plan, want owner", role)
	}

	out.Reset()
	if err := run([]string{"share", "create", "--db", db, "--project", "1", "--role", "comment", "--expires", "7d"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	path := strings.TrimSpace(out.String())
	if !strings.HasPrefix(path, "/s/") || len(path) < 3+22 {
		t.Fatalf("share create printed %q, want /s/ and a token of 128 bits or more", out.String())
	}
	l, err := st.Sharing.UseShareLink(ctx, strings.TrimPrefix(path, "/s/"))
	if err != nil || l.Role != site.ShareComment || time.Until(l.ExpiresAt) < 6*24*time.Hour {
		t.Errorf("the printed link opens %+v, %v", l, err)
	}
	for _, args := range [][]string{
		{"--project", "1", "--role", "edit"},
		{"--project", "1", "--role", "view", "--expires", "soon"},
		{"--project", "99", "--role", "view"},
	} {
		if err := run(append([]string{"share", "create", "--db", db}, args...), nil, &out); err == nil {
			t.Errorf("share create %v: no error", args)
		}
	}
}

// TestImportCLITeam: import writes into the team --team names (an id or a
// name); without it, into the only team there is, and with several it
// asks which.
func TestImportCLITeam(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	addUser := func(email, team string) {
		t.Helper()
		if err := run([]string{"user", "add", "--db", db, "--email", email, "--name", "N", "--team", team, "--role", "owner"},
			strings.NewReader("a long enough password\n"), &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
	}
	addUser("ana@agency.example", "Agency")
	var out bytes.Buffer
	if err := run([]string{"import", "--db", db, "../store/testdata/acme.json"}, nil, &out); err != nil {
		t.Fatalf("import into the only team: %v", err)
	}
	addUser("bo@client.example", "Client")
	err := run([]string{"import", "--db", db, "../store/testdata/acme.json"}, nil, &out)
	if err == nil || !strings.Contains(err.Error(), "--team") {
		t.Fatalf("import with two teams and no --team: %v, want a message asking for --team", err)
	}
	out.Reset()
	if err := run([]string{"import", "--db", db, "--team", "Client", "../store/testdata/acme.json"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"import", "--db", db, "--team", "Nobody", "../store/testdata/acme.json"}, nil, &bytes.Buffer{}); err == nil {
		t.Error("import into an unknown team: no error")
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	client, err := st.Teams.FindTeam(ctx, "Client")
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(out.String())
	projects, _ := st.Projects.Projects(ctx, client.ID)
	if len(projects) != 1 || strconv.FormatInt(projects[0].ID, 10) != id {
		t.Errorf("team Client has %+v, want project %s", projects, id)
	}
}

// TestDiagramCLIScripts: a plan with emoji, Hebrew, Arabic and Japanese
// titles draws in every format from the command line.
func TestDiagramCLIScripts(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "cli.db")
	if err := run([]string{"import", "--db", db, "../diagram/testdata/diagram-scripts.json"}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"svg", "png", "pdf", "dot", "graphml"} {
		out := filepath.Join(dir, "plan."+f)
		if err := run([]string{"diagram", "--db", db, "--project", "1", "--format", f, "--out", out}, nil, &bytes.Buffer{}); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if st, err := os.Stat(out); err != nil || st.Size() < 100 || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v, %v", f, st, err)
		}
	}
}

// TestExportLocalizedCLI: siteplan export of a localized plan, read from
// the database, writes each locale's sitemap with hreflang under the
// index, and a dump gives its locales and variants back.
func TestExportLocalizedCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "cli.db")
	if err := run([]string{"import", "--db", db, "../site/testdata/localized.json"}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var report bytes.Buffer
	if err := run([]string{"export", "--db", db, "--project", "1", "--out", out, "--gzip"}, nil, &report); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sitemap.xml", "sitemap-en.xml.gz", "sitemap-de.xml.gz", "sitemap-fr-CH.xml.gz", "sitemap-de.txt", "footer-fr-CH.html", "inventory.csv", "robots.txt"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("export did not write %s:\n%s", name, report.String())
		}
	}
	index, _ := os.ReadFile(filepath.Join(out, "sitemap.xml"))
	if !strings.Contains(string(index), "<loc>https://www.acme.example/sitemap-de.xml.gz</loc>") {
		t.Errorf("sitemap.xml:\n%s", index)
	}
	if !strings.Contains(report.String(), "https://acme.ch/robots.txt") {
		t.Errorf("the report does not say what the Swiss domain needs:\n%s", report.String())
	}
	var dump bytes.Buffer
	if err := run([]string{"dump", "--db", db, "--project", "1"}, nil, &dump); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dump.String(), `"fr-CH":{"title":"Magasins","slug":"magasins","state":"translating"}`) {
		t.Errorf("dump:\n%s", dump.String())
	}
}
