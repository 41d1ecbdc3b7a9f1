package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"siteplan/site"
)

// bearerTransport sends an API token with each request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPHTTP: an MCP client of the official Go SDK, over /mcp with a
// token: the tools listed, the plan read as an outline and as a
// resource, a page found and its brief read; a read token cannot start
// a launch check, and another team's project does not exist for it.
func TestMCPHTTP(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	owner, _ := c.db.Accounts.UserByEmail(ctx, "owner@test.example")
	tok := site.APIToken{TeamID: 1, UserID: owner.ID, CreatedBy: owner.ID, Scope: site.ScopeRead, Name: "agent", ExpiresAt: time.Now().Add(time.Hour)}
	raw, err := c.db.Tokens.CreateToken(ctx, &tok)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(c.srv.Echo)
	defer ts.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{raw}},
		DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, " "); got != "last_launch_check list_projects propose_changes read_brief read_plan redirect_status run_launch_check search_pages" {
		t.Errorf("tools: %s", got)
	}
	call := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	if got, _ := call("list_projects", map[string]any{}); !strings.Contains(got, "Acme relaunch") {
		t.Errorf("list_projects: %s", got)
	}
	got, _ := call("read_plan", map[string]any{"project_id": pid})
	if !strings.Contains(got, "- Home (https://www.acme.example/)") || !strings.Contains(got, "  - Pricing (https://www.acme.example/produkte/pricing)") || !strings.Contains(got, "[footer navigation]") {
		t.Errorf("read_plan:\n%s", got)
	}
	if got, _ := call("read_plan", map[string]any{"project_id": pid, "format": "siteplan/1"}); !strings.Contains(got, `"format":"siteplan/1"`) {
		t.Errorf("read_plan as siteplan/1: %.200s", got)
	}
	if got, _ := call("search_pages", map[string]any{"project_id": pid, "query": "pricing"}); !strings.Contains(got, "#"+itoa(ids["Pricing"])) {
		t.Errorf("search_pages: %s", got)
	}
	if got, isErr := call("read_brief", map[string]any{"project_id": pid, "page_id": ids["Pricing"]}); isErr || !strings.Contains(got, `"page": "Pricing"`) {
		t.Errorf("read_brief: %s", got)
	}
	if got, isErr := call("run_launch_check", map[string]any{"project_id": pid, "base": "https://staging.example/"}); !isErr || !strings.Contains(got, "not change it") {
		t.Errorf("a read token's launch check: %v %s", isErr, got)
	}
	if got, isErr := call("propose_changes", map[string]any{"project_id": pid, "title": "More", "operations": []any{}}); !isErr || !strings.Contains(got, "not change it") {
		t.Errorf("a read token's proposal: %v %s", isErr, got)
	}
	if got, isErr := call("read_plan", map[string]any{"project_id": 999}); !isErr || !strings.Contains(got, "does not exist") {
		t.Errorf("no such project: %v %s", isErr, got)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "siteplan://projects/" + itoa(pid) + "/plan"})
	if err != nil || !strings.Contains(res.Contents[0].Text, "Acme relaunch") {
		t.Errorf("the plan as a resource: %v", err)
	}
	// Behind a reverse proxy on this machine: the site's name as Host.
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"proxy","version":"1"}}}`
	req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(init))
	req.Host = "siteplan.agency.example"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+raw)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("behind a proxy: %v %v", resp.StatusCode, err)
	}
	// Without a token, the endpoint says what to send.
	resp, err := http.Post(ts.URL+"/mcp", "application/json", strings.NewReader(`{}`))
	if err != nil || resp.StatusCode != 401 {
		t.Errorf("without a token: %v %v", resp.StatusCode, err)
	}
}

// TestMCPPropose: an agent with a write token proposes through MCP, as
// operations and as a Mermaid diagram; the plan is unchanged until a
// person accepts, and a bad operation says which and why.
func TestMCPPropose(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	owner, _ := c.db.Accounts.UserByEmail(ctx, "owner@test.example")
	tok := site.APIToken{TeamID: 1, UserID: owner.ID, CreatedBy: owner.ID, Scope: site.ScopeWrite, Name: "agent", ExpiresAt: time.Now().Add(time.Hour)}
	raw, err := c.db.Tokens.CreateToken(ctx, &tok)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(c.srv.Echo)
	defer ts.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{raw}},
		DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "propose_changes", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	before, _ := c.db.Projects.Document(ctx, pid)
	got, isErr := call(map[string]any{"project_id": pid, "title": "Careers section", "summary": "Hiring is the client's goal for Q1.",
		"operations": []any{
			map[string]any{"op": "add", "key": "careers", "parent": "#" + itoa(ids["Home"]), "title": "Careers"},
			map[string]any{"op": "add", "parent": "careers", "title": "Open positions"},
			map[string]any{"op": "update", "page": "#" + itoa(ids["Pricing"]), "title": "Plans"},
		}})
	if isErr || !strings.Contains(got, "Proposal 1 “Careers section” waits for the team's review at /projects/"+itoa(pid)+"/proposals/1") ||
		!strings.Contains(got, "+ “Careers” (new) in Home") || !strings.Contains(got, "“Pricing” → “Plans”") {
		t.Errorf("propose_changes:\n%s", got)
	}
	after, _ := c.db.Projects.Document(ctx, pid)
	if a, b := canonicalJSON(t, before), canonicalJSON(t, after); a != b {
		t.Errorf("proposing changed the plan")
	}
	if got, isErr := call(map[string]any{"project_id": pid, "title": "Bad", "operations": []any{map[string]any{"op": "move", "page": "#999999"}}}); !isErr ||
		!strings.Contains(got, `operations[0] (move): the plan has no page "#999999"`) {
		t.Errorf("a bad operation: %v %s", isErr, got)
	}
	mermaid := "flowchart TD\n  p" + itoa(ids["Home"]) + `(["Home"]) --> new1["Press"]`
	got, isErr = call(map[string]any{"project_id": pid, "title": "Only press", "mermaid": mermaid})
	if isErr || !strings.Contains(got, "+ “Press” (new) in Home") || !strings.Contains(got, "Removed") {
		t.Errorf("a Mermaid proposal:\n%s", got)
	}
	if _, err := c.db.Proposals.AcceptProposal(site.WithViewer(ctx, site.Viewer{UserID: owner.ID, Name: "Olive"}), pid, 1, 0); err != nil {
		t.Fatal(err)
	}
	tr, _ := c.db.Pages.Tree(ctx, pid)
	var titles []string
	tr.Walk(func(p *site.Page, _ int) bool { titles = append(titles, p.Title); return true })
	if all := strings.Join(titles, ","); !strings.Contains(all, "Careers,Open positions") || !strings.Contains(all, "Plans") {
		t.Errorf("accepted: %s", all)
	}
}

func canonicalJSON(t *testing.T, d *site.Document) string {
	t.Helper()
	var b strings.Builder
	if err := d.Encode(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
