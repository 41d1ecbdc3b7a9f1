package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRemoteVerbs runs the README's CI example against a running
// server, as a CI job without the database file does: siteplan serve on
// a database with the plan, a read-and-write token of its owner, then
// verify --server (a clean site passes, a broken one fails the build
// with its JUnit report), dump, version create, redirects status and
// export, export and import, each through the API.
func TestRemoteVerbs(t *testing.T) {
	bin, dir := siteplanBinary(t), t.TempDir()
	db := filepath.Join(dir, "server.db")
	if err := run([]string{"user", "add", "--db", db, "--email", "owner@test.example", "--name", "Owner", "--team", "Agency", "--role", "owner"},
		strings.NewReader("a long enough password\n"), &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run([]string{"import", "--db", db, "--team", "Agency", "../store/testdata/acme.json"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run([]string{"token", "create", "--db", db, "--email", "owner@test.example", "--scope", "write", "--name", "CI"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SITEPLAN_TOKEN", strings.TrimSpace(out.String()))
	_, base, _ := serve(t, bin, "--db", db, "--allow-private-fetch") // the built sites are on loopback
	remotePoll = 50 * time.Millisecond
	cli := func(args ...string) (string, int) {
		t.Helper()
		var out bytes.Buffer
		err := run(append(args, "--server", base, "--project", "1"), nil, &out)
		var exit *exitError
		switch {
		case err == nil:
			return out.String(), 0
		case errors.As(err, &exit):
			return out.String() + err.Error(), exit.code
		}
		return out.String() + err.Error(), 1
	}
	clean, broken := acmeSite(t, false), acmeSite(t, true)
	if got, code := cli("verify", "--base", clean.URL); code != 0 || !strings.Contains(got, "The plan against "+clean.URL) || !strings.Contains(got, "0 errors, 0 warnings") {
		t.Errorf("verify a clean site: exit %d\n%s", code, got)
	}
	report := filepath.Join(dir, "report.xml")
	got, code := cli("verify", "--base", broken.URL, "--junit", report)
	if code != 1 || !strings.Contains(got, "error [status] “Contact”") {
		t.Errorf("verify a broken site: exit %d\n%s", code, got)
	}
	if b, err := os.ReadFile(report); err != nil || !strings.Contains(string(b), "<failure") {
		t.Errorf("the JUnit report: %v\n%s", err, b)
	}
	if got, code := cli("verify", "--base", clean.URL, "--approved"); code != 2 || !strings.Contains(got, "signed off") {
		t.Errorf("--approved without a sign-off: exit %d\n%s", code, got)
	}
	got, code = cli("dump")
	var d struct {
		Format string `json:"format"`
	}
	if code != 0 || json.Unmarshal([]byte(got), &d) != nil || d.Format != "siteplan/1" {
		t.Errorf("dump: exit %d\n%.300s", code, got)
	}
	if got, code := cli("version", "create", "--name", "Launch", "--launched"); code != 0 || strings.TrimSpace(got) != "1" {
		t.Errorf("version create: exit %d %q", code, got)
	}
	if got, code := cli("redirects", "status", "--json"); code != 0 || !strings.Contains(got, `"old_urls":0`) {
		t.Errorf("redirects status: exit %d %q", code, got)
	}
	got, code = cli("export", "--out", filepath.Join(dir, "out"), "--gzip")
	if b, err := os.ReadFile(filepath.Join(dir, "out", "robots.txt")); code != 0 || err != nil || !strings.Contains(string(b), "Sitemap:") || !strings.Contains(got, "sitemap-1.xml.gz") && !strings.Contains(got, "sitemap.xml.gz") {
		t.Errorf("export: exit %d, robots.txt %q (%v)\n%s", code, b, err, got)
	}
	if got, code := cli("redirects", "export", "--format", "nginx", "--out", filepath.Join(dir, "redirects.conf")); code != 0 || !strings.Contains(got, "redirects.conf") {
		t.Errorf("redirects export: exit %d %q", code, got)
	}
	var imported bytes.Buffer
	err := run([]string{"import", "--server", base, "../store/testdata/acme.json"}, nil, &imported)
	if err != nil || strings.TrimSpace(imported.String()) != "2" {
		t.Errorf("import: %q %v", imported.String(), err)
	}
	if err := run([]string{"import", "--server", base, "https://example.com/"}, nil, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "siteplan/1 document") {
		t.Errorf("import of a site through a server: %v", err)
	}
	t.Setenv("SITEPLAN_TOKEN", "sp_forged")
	if got, code := cli("dump"); code == 0 || !strings.Contains(got, "API token is not valid") || !strings.Contains(got, "HTTP 401") {
		t.Errorf("a forged token: exit %d %q", code, got)
	}
	t.Setenv("SITEPLAN_TOKEN", "")
	if got, _ := cli("dump"); !strings.Contains(got, "$SITEPLAN_TOKEN") {
		t.Errorf("no token: %q", got)
	}
}
