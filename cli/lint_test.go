package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/site"
	"siteplan/store"
)

// TestLintCLI: siteplan lint exits 1 with the briefs' problems, each
// naming its page and field (also as JSON), and 0 once they are fixed.
func TestLintCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "lint.db")
	doc := `{"format":"siteplan/1","project":{"name":"A","base_url":"https://a.example/"},"pages":[
		{"title":"Home","slug":"","brief":{"seo_title":"Aurora outdoor gear since 1987","meta_description":"Tents, packs and stoves for every season, tested on three continents.","h1":"Aurora","keyword":"outdoor gear"}},
		{"title":"Tents","brief":{"seo_title":"Aurora outdoor gear since 1987","meta_description":"Four-season tents tested on three continents, with free returns.","h1":"Tents","keyword":"tents"}}]}`
	file := filepath.Join(dir, "plan.json")
	os.WriteFile(file, []byte(doc), 0o644)
	lint := func(extra ...string) (string, int) {
		t.Helper()
		var out bytes.Buffer
		err := run(append([]string{"lint", "--db", db, "--project", "1"}, extra...), nil, &out)
		var exit *exitError
		switch {
		case err == nil:
			return out.String(), 0
		case errors.As(err, &exit):
			return out.String(), exit.code
		}
		t.Fatal(err)
		return "", 0
	}
	if err := run([]string{"import", "--db", db, file}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	got, code := lint()
	if code != 1 || !strings.Contains(got, "[duplicate-title] “Tents” (2) seo_title: The SEO title “Aurora outdoor gear since 1987” is also on “Home”") ||
		!strings.Contains(got, "2 pages checked: 2 problems") {
		t.Errorf("exit %d\n%s", code, got)
	}
	got, _ = lint("--json")
	var rep site.LintReport
	if err := json.Unmarshal([]byte(got), &rep); err != nil || len(rep.Problems) != 2 || rep.Problems[0].Page != "Home" {
		t.Errorf("--json: %v %+v", err, rep)
	}
	os.WriteFile(file, []byte(strings.Replace(doc, `"seo_title":"Aurora outdoor gear since 1987","meta_description":"Four`, `"seo_title":"Four-season tents | Aurora","meta_description":"Four`, 1)), 0o644)
	os.Remove(db)
	if err := run([]string{"import", "--db", db, file}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if got, code := lint(); code != 0 || !strings.Contains(got, "0 problems") {
		t.Errorf("fixed: exit %d\n%s", code, got)
	}
}

// TestHandoffCLI: siteplan handoff writes the WordPress export and the
// routes of the plan; a format it does not know is refused.
func TestHandoffCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	if err := run([]string{"import", "--db", db, "../store/testdata/acme.json"}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ format, want string }{{"wxr", "<wp:post_type><![CDATA[page]]></wp:post_type>"}, {"routes", `"format": "siteplan-routes/1"`}} {
		out := filepath.Join(dir, "plan."+f.format)
		if err := run([]string{"handoff", "--db", db, "--project", "1", "--format", f.format, "--out", out}, nil, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(out); !strings.Contains(string(b), f.want) {
			t.Errorf("%s lacks %s:\n%.500s", f.format, f.want, b)
		}
	}
	if err := run([]string{"handoff", "--db", db, "--project", "1", "--format", "drupal", "--out", filepath.Join(dir, "x")}, nil, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "wxr, routes") {
		t.Errorf("an unknown format: %v", err)
	}
}

// TestWebhookCLI: siteplan webhook add adds a team's webhook and prints
// its secret; a bad one is refused naming the field.
func TestWebhookCLI(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	if err := run([]string{"import", "--db", db, "../store/testdata/acme.json"}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run([]string{"webhook", "add", "--db", db, "--url", "https://hooks.slack.com/services/T/B/X", "--format", "slack", "--events", "comment, signoff"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "webhook 1 of team") || !strings.Contains(out.String(), "secret: ") {
		t.Errorf("printed %q", out.String())
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ws, _ := st.Webhooks.Webhooks(context.Background(), 1)
	if len(ws) != 1 || ws[0].Format != "slack" || strings.Join(ws[0].Events, ",") != "comment,signoff" {
		t.Errorf("stored %+v", ws)
	}
	if err := run([]string{"webhook", "add", "--db", db, "--url", "https://x.example/", "--events", "deploy"}, nil, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "events: Events must be among") {
		t.Errorf("a bad event: %v", err)
	}
}
