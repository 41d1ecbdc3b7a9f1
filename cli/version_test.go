package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/site"
	"siteplan/store"
)

// TestVersionCLI: version create prints the number alone; diff --json
// prints one object with the six arrays; restore gives the version back.
func TestVersionCLI(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	cli := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := run(append(args, "--db", db), strings.NewReader(""), &out); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		return out.String()
	}
	if err := run([]string{"import", "--db", db, "../store/testdata/acme.json"}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if got := cli("version", "create", "--project", "1", "--name", "Kickoff"); got != "1\n" {
		t.Fatalf("version create printed %q, want \"1\\n\"", got)
	}
	// Change the plan between the versions: Pricing renamed and moved
	// under About us, Products' other page deleted.
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tr, _ := st.Pages.Tree(ctx, 1)
	ids := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { ids[p.Title] = p.ID; return true })
	if _, err := st.Pages.RenamePage(ctx, ids["Pricing"], "Plans", 1); err != nil {
		t.Fatal(err)
	}
	if err := st.Pages.MovePage(ctx, ids["Pricing"], ids["About us"], "", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pages.DeletePage(ctx, ids["Products"]); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if got := cli("version", "create", "--project", "1", "--name", "Client review 2"); got != "2\n" {
		t.Fatalf("second version printed %q", got)
	}
	list := cli("version", "list", "--project", "1")
	if !strings.Contains(list, "Client review 2") || strings.Index(list, "Client review 2") > strings.Index(list, "Kickoff") {
		t.Errorf("version list, newest first:\n%s", list)
	}

	var got map[string][]map[string]any
	if err := json.Unmarshal([]byte(cli("diff", "--project", "1", "--from", "1", "--to", "2", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"added", "removed", "moved", "renamed", "url_changed", "changed"} {
		if _, ok := got[k]; !ok {
			t.Errorf("diff --json has no %q array", k)
		}
	}
	names := func(k string) (out []string) {
		for _, e := range got[k] {
			out = append(out, e["title"].(string))
		}
		return out
	}
	if m := names("moved"); len(m) != 1 || m[0] != "Plans" || got["moved"][0]["id"].(float64) != float64(ids["Pricing"]) {
		t.Errorf("moved: %v", got["moved"])
	}
	if r := got["renamed"]; len(r) != 1 || r[0]["from"] != "Pricing" || r[0]["to"] != "Plans" {
		t.Errorf("renamed: %v", r)
	}
	if r := names("removed"); strings.Join(r, "|") != "Products|Café & \"Bar\" <b>" {
		t.Errorf("removed (each page once): %q", r)
	}
	if now := cli("diff", "--project", "1", "--from", "2"); now != "No changes.\n" {
		t.Errorf("diff with the plan now: %q", now)
	}
	text := cli("diff", "--project", "1", "--from", "1")
	for _, want := range []string{"Moved (1)", "Home › Products → Home › About us", "Renamed (1)", "“Pricing” → “Plans”", "Removed (2)"} {
		if !strings.Contains(text, want) {
			t.Errorf("diff text lacks %q:\n%s", want, text)
		}
	}
	if got := cli("restore", "--project", "1", "--version", "1"); got != "Restored version 1 “Kickoff”.\n" {
		t.Errorf("restore printed %q", got)
	}
	if now := cli("diff", "--project", "1", "--from", "1"); now != "No changes.\n" {
		t.Errorf("after restore, diff with version 1: %q", now)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "--db", db, "--project", "1"}, "--from N is required"},
		{[]string{"diff", "--db", db, "--project", "1", "--from", "7"}, "no version 7"},
		{[]string{"restore", "--db", db, "--project", "1"}, "--version N is required"},
		{[]string{"version", "create", "--db", db, "--project", "1"}, "Give the version a name"},
		{[]string{"version"}, "say what to do"},
	} {
		err := run(bad.args, nil, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("run(%q) = %v, want an error containing %q", bad.args, err, bad.want)
		}
	}
}
