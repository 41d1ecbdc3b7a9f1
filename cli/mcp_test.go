package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mcpResult is what the TypeScript SDK's client got.
type mcpResult struct {
	Server   string   `json:"server"`
	Tools    []string `json:"tools"`
	Resource string   `json:"resource"`
	Calls    map[string]struct {
		IsError bool   `json:"isError"`
		Text    string `json:"text"`
	} `json:"calls"`
}

// TestMCPClients: the official TypeScript SDK's MCP client (npm) starts
// siteplan mcp over stdio with a token and calls every tool, then talks
// to a running server's /mcp over streamable HTTP, and through siteplan
// mcp --server, which relays to it.
func TestMCPClients(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	bin, dir := siteplanBinary(t), t.TempDir()
	db := filepath.Join(dir, "mcp.db")
	if err := run([]string{"user", "add", "--db", db, "--email", "owner@test.example", "--name", "Owner", "--team", "Agency", "--role", "owner"},
		strings.NewReader("a long enough password\n"), &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"import", "--db", db, "--team", "Agency", "../store/testdata/acme.json"}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run([]string{"token", "create", "--db", db, "--email", "owner@test.example", "--scope", "read", "--name", "agent"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(out.String())
	calls := `{"list_projects": {}, "read_plan": {"project_id": 1}, "search_pages": {"project_id": 1, "query": "pricing"},
		"read_brief": {"project_id": 1, "page_id": 1}, "redirect_status": {"project_id": 1}, "last_launch_check": {"project_id": 1},
		"run_launch_check": {"project_id": 1, "base": "https://staging.example/"},
		"propose_changes": {"project_id": 1, "title": "Careers", "operations": [{"op": "add", "parent": "#1", "title": "Careers"}]}}`
	client := func(args ...string) mcpResult {
		t.Helper()
		cmd := exec.Command("node", append([]string{"testdata/mcpclient.mjs"}, args...)...)
		cmd.Env = append(os.Environ(), "SITEPLAN_TOKEN="+token, "MCP_CALLS="+calls, "MCP_RESOURCE=siteplan://projects/1/plan")
		cmd.Stderr = os.Stderr
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("the TypeScript client (%s): %v\n%s", args[0], err, b)
		}
		var r mcpResult
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("its output: %v\n%s", err, b)
		}
		return r
	}
	check := func(how string, r mcpResult) {
		t.Helper()
		if got := strings.Join(r.Tools, " "); got != "last_launch_check list_projects propose_changes read_brief read_plan redirect_status run_launch_check search_pages" {
			t.Errorf("%s: tools %s", how, got)
		}
		for name, c := range r.Calls {
			if c.IsError != (name == "run_launch_check" || name == "propose_changes") { // a read token may not start one, nor propose
				t.Errorf("%s: %s: error %v: %s", how, name, c.IsError, c.Text)
			}
		}
		if !strings.Contains(r.Calls["read_plan"].Text, "- Pricing (https://www.acme.example/produkte/pricing)") ||
			!strings.Contains(r.Calls["list_projects"].Text, "Acme relaunch") || !strings.Contains(r.Calls["run_launch_check"].Text, "not change it") ||
			!strings.Contains(r.Resource, `"format":"siteplan/1"`) {
			t.Errorf("%s: %+v", how, r)
		}
	}
	check("stdio", client("stdio", bin, "mcp", "--db", db))
	_, base, _ := serve(t, bin, "--db", db)
	check("HTTP", client("http", base+"/mcp"))
	check("stdio relaying to the server", client("stdio", bin, "mcp", "--server", base))
	// An agent with a write token proposes; the plan waits for a person.
	out.Reset()
	if err := run([]string{"token", "create", "--db", db, "--email", "owner@test.example", "--scope", "write", "--name", "drafter"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	token, calls = strings.TrimSpace(out.String()), `{"propose_changes": {"project_id": 1, "title": "Careers", "summary": "For hiring.",
		"operations": [{"op": "add", "key": "c", "parent": "#1", "title": "Careers"}, {"op": "add", "parent": "c", "title": "Jobs"}]}}`
	r := client("http", base+"/mcp")
	if c := r.Calls["propose_changes"]; c.IsError || !strings.Contains(c.Text, "Proposal 1 “Careers” waits for the team's review at /projects/1/proposals/1") ||
		!strings.Contains(c.Text, "+ “Jobs” (new) in Home › Careers") {
		t.Errorf("propose_changes with a write token: %+v", c)
	}
}
