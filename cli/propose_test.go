package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/site"
	"siteplan/store"
)

// TestImportPropose: the plan's own Mermaid diagram, edited elsewhere,
// comes back as a proposal (import --project --propose): the plan waits
// for a person, the proposal holds just the edit; a siteplan/1 document
// proposes through a running server's API; a Mermaid diagram makes a new
// plan at the --base-url it is given, and without one says what to add.
func TestImportPropose(t *testing.T) {
	bin, dir := siteplanBinary(t), t.TempDir()
	db := filepath.Join(dir, "p.db")
	if err := run([]string{"user", "add", "--db", db, "--email", "owner@test.example", "--name", "Owner", "--team", "Agency", "--role", "owner"},
		strings.NewReader("a long enough password\n"), &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"import", "--db", db, "--team", "Agency", "../store/testdata/acme.json"}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	mmd := filepath.Join(dir, "plan.mmd")
	if err := run([]string{"diagram", "--db", db, "--project", "1", "--format", "mermaid", "--out", mmd}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(mmd)
	edited := strings.Replace(string(b), `["About us"]`, `["Company"]`, 1)
	if edited == string(b) {
		t.Fatalf("the diagram lacks About us:\n%s", b)
	}
	if err := os.WriteFile(mmd, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run([]string{"import", "--db", db, "--project", "1", "--propose", "--title", "Rename About", mmd}, nil, &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "1\n" {
		t.Errorf("printed %q, want the proposal's number", out.String())
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	prop, plans, err := st.Proposals.Proposal(ctx, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	cmp := plans.Comparison()
	if prop.Title != "Rename About" || prop.Source != site.SourceMermaid || len(cmp.Renamed) != 1 || cmp.Renamed[0].Title != "Company" ||
		len(cmp.Added)+len(cmp.Removed)+len(cmp.Moved)+len(cmp.LinksAdded)+len(cmp.LinksRemoved) != 0 {
		t.Errorf("the proposal %+v changes:\n%s", prop, cmp.Text())
	}
	if tr, _ := st.Pages.Tree(ctx, 1); tr.Page(2).Title != "About us" {
		t.Errorf("proposing changed the plan")
	}
	st.Close()

	// Through a running server, a document.
	out.Reset()
	if err := run([]string{"token", "create", "--db", db, "--email", "owner@test.example", "--scope", "write", "--name", "CI"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SITEPLAN_TOKEN", strings.TrimSpace(out.String()))
	_, base, _ := serve(t, bin, "--db", db)
	out.Reset()
	if err := run([]string{"dump", "--db", db, "--project", "1"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(dir, "doc.json")
	if err := os.WriteFile(doc, bytes.Replace(out.Bytes(), []byte(`"title":"Contact"`), []byte(`"title":"Contact us"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run([]string{"import", "--server", base, "--project", "1", "--propose", doc}, nil, &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "2\n" {
		t.Errorf("through the server: printed %q", out.String())
	}
	if err := run([]string{"import", "--db", db, "--project", "1", doc}, nil, &out); err == nil || !strings.Contains(err.Error(), "--propose and --project ID go together") {
		t.Errorf("--project without --propose: %v", err)
	}

	// A Mermaid diagram as a new plan.
	draft := filepath.Join(dir, "draft.mmd")
	if err := os.WriteFile(draft, []byte("mindmap\n  Home\n    Shop\n      Tents\n    About\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"import", "--db", db, "--team", "Agency", draft}, nil, &out); err == nil || !strings.Contains(err.Error(), "--base-url") {
		t.Errorf("a Mermaid plan without a base URL: %v", err)
	}
	out.Reset()
	if err := run([]string{"import", "--db", db, "--team", "Agency", "--base-url", "https://draft.example/", "--name", "Draft", draft}, nil, &out); err != nil {
		t.Fatal(err)
	}
	st, _ = store.Open(db)
	defer st.Close()
	tr, err := st.Pages.Tree(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Project.Name != "Draft" || tr.URL(tr.Children(tr.Roots(site.PlacementMain)[0].ID)[0].ID) != "https://draft.example/shop" {
		var urls []string
		tr.Walk(func(p *site.Page, _ int) bool { urls = append(urls, tr.URL(p.ID)); return true })
		t.Errorf("the new plan %q: %v", tr.Project.Name, urls)
	}
}
