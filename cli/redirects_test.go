package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/site"
	"siteplan/store"
)

// TestRedirectsCLI runs a relaunch from the command line: a Screaming
// Frog crawl attached and matched (its 404 row left out), Search
// Console's clicks, the status as JSON, a map edited in a spreadsheet and
// imported, the exports, and a launched version recording a rename.
func TestRedirectsCLI(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	cli := func(args ...string) (string, error) {
		t.Helper()
		var out bytes.Buffer
		n := 1 // the verb's words, then its flags
		if args[0] == "redirects" || args[0] == "version" {
			n = 2
		}
		err := run(append(append(args[:n:n], "--db", db), args[n:]...), strings.NewReader(""), &out)
		return out.String(), err
	}
	must := func(args ...string) string {
		t.Helper()
		out, err := cli(args...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		return out
	}
	status := func() site.RedirectStatus {
		t.Helper()
		var st site.RedirectStatus
		if err := json.Unmarshal([]byte(must("redirects", "status", "--project", "1", "--json")), &st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	must("import", "../store/testdata/acme.json")
	out := must("redirects", "match", "--project", "1", "../testdata/relaunch/old-crawl.csv")
	if !strings.Contains(out, "5 old URLs attached") {
		t.Errorf("match printed %q", out)
	}
	must("redirects", "traffic", "--project", "1", "../testdata/relaunch/search-console.csv")
	if got, want := status(), (site.RedirectStatus{OldURLs: 5, Accepted: 4, Awaiting: 1, Unmatched: 1, Clicks: 1500, ClicksAtRisk: 300}); got != want {
		t.Errorf("status %+v, want %+v", got, want)
	}

	// The CSV export, edited in a spreadsheet (history.html sent to About
	// us), comes back in: nothing else changes.
	dir := t.TempDir()
	must("redirects", "export", "--project", "1", "--format", "csv", "--out", filepath.Join(dir, "map.csv"))
	b, _ := os.ReadFile(filepath.Join(dir, "map.csv"))
	edited := strings.Replace(string(b), "https://www.acme.example/history.html,,,no", "https://www.acme.example/history.html,https://www.acme.example/about-us,301,yes", 1)
	os.WriteFile(filepath.Join(dir, "edited.csv"), []byte(edited), 0o644)
	out = must("redirects", "import", "--project", "1", filepath.Join(dir, "edited.csv"))
	if !strings.Contains(out, "0 added, 1 changed") {
		t.Errorf("import printed %q", out)
	}
	if st := status(); st.Accepted != 5 || st.ClicksAtRisk != 0 {
		t.Errorf("after the import: %+v", st)
	}
	// A map naming a URL the plan does not have is refused whole.
	os.WriteFile(filepath.Join(dir, "bad.csv"), []byte("from,to,status\nhttps://www.acme.example/contact,https://www.acme.example/nowhere,301\n"), 0o644)
	if _, err := cli("redirects", "import", "--project", "1", filepath.Join(dir, "bad.csv")); err == nil || !strings.Contains(err.Error(), "Line 2") || !strings.Contains(err.Error(), "not a URL of the plan") {
		t.Errorf("a bad map: %v", err)
	}

	for _, f := range []string{"nginx", "apache", "netlify", "cloudflare-pages", "vercel", "vercel-bulk", "cloudflare", "shopify", "wordpress", "iis", "caddy"} {
		out := must("redirects", "export", "--project", "1", "--format", f, "--out", filepath.Join(dir, f))
		b, _ := os.ReadFile(filepath.Join(dir, f))
		want, in := "4 redirects, 0 retired URLs\n", "produkte/pricing"
		if f == "cloudflare" || f == "cloudflare-pages" || f == "vercel-bulk" { // no query strings there
			want, in = "3 redirects, 0 retired URLs; 1 left out", "about-us/team"
		}
		if !strings.Contains(out, want) || !strings.Contains(string(b), in) {
			t.Errorf("%s: printed %q, wrote %.200s", f, out, b)
		}
	}
	if _, err := cli("redirects", "export", "--project", "1", "--format", "htaccess", "--out", filepath.Join(dir, "x")); err == nil || !strings.Contains(err.Error(), "nginx") {
		t.Errorf("an unknown format: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Error("a refused export left a file")
	}

	// Launched, a rename records the redirect of the launched URL.
	if got := must("version", "create", "--project", "1", "--name", "Live", "--launched"); got != "1\n" {
		t.Fatalf("version create --launched printed %q", got)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tr, _ := st.Pages.Tree(ctx, 1)
	var contact site.Page
	tr.Walk(func(p *site.Page, _ int) bool {
		if p.Title == "Contact" {
			contact = *p
		}
		return true
	})
	if _, err := st.Pages.RenamePage(ctx, contact.ID, "Get in touch", contact.Version); err != nil {
		t.Fatal(err)
	}
	st.Close()
	must("redirects", "export", "--project", "1", "--format", "csv", "--out", filepath.Join(dir, "after.csv"))
	b, _ = os.ReadFile(filepath.Join(dir, "after.csv"))
	for _, want := range []string{
		"https://www.acme.example/contact,https://www.acme.example/get-in-touch,301,yes", // the old site's URL follows the page
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("after the rename the map lacks %q:\n%s", want, b)
		}
	}
}
