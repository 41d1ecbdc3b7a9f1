package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"siteplan/site"
)

// TestBrowserProposal: an agent proposes changes through MCP (the Go
// SDK's client over /mcp, with a write token); the editor shows one
// proposal waiting; the proposal's page draws and lists its changes by
// section; a person accepts one section, then the rest, each one change
// of the plan, and the editor shows the plan as accepted. axe-core finds
// no violation on the proposal's page.
func TestBrowserProposal(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	doc, err := site.ReadDocumentFile("../store/testdata/acme.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.Projects.ImportDocument(bg, 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(bg, pid)
	ids := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { ids[p.Title] = p.ID; return true })
	olive, _ := db.Accounts.UserByEmail(bg, "olive@test.example")
	tok := site.APIToken{TeamID: 1, UserID: olive.ID, CreatedBy: olive.ID, Scope: site.ScopeWrite, Name: "agent", ExpiresAt: time.Now().Add(time.Hour)}
	raw, err := db.Tokens.CreateToken(bg, &tok)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := client.Connect(bg, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{raw}},
		DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(bg, &mcp.CallToolParams{Name: "propose_changes", Arguments: map[string]any{
		"project_id": pid, "title": "Careers and plans", "summary": "The brief asks for hiring pages; “Plans” reads better than “Pricing”.",
		"operations": []any{
			map[string]any{"op": "add", "key": "careers", "parent": "#" + itoa(ids["Home"]), "title": "Careers"},
			map[string]any{"op": "add", "parent": "careers", "title": "Open positions"},
			map[string]any{"op": "update", "page": "#" + itoa(ids["Pricing"]), "title": "Plans"},
			map[string]any{"op": "link", "from": "careers", "to": "#" + itoa(ids["Contact"]), "label": "apply"},
		}}})
	if err != nil || res.IsError {
		t.Fatalf("propose_changes: %v %+v", err, res)
	}
	before := shapeOf(db, pid)
	var sections string
	run(t, ctx, "the editor shows the proposal waiting; its page draws and lists it",
		chromedp.Navigate(base+"/projects/"+itoa(pid)),
		chromedp.WaitVisible(`#proposals-link .count`, chromedp.ByQuery),
		settled(),
		chromedp.Click(`#proposals-link`, chromedp.ByQuery),
		chromedp.WaitVisible(`.proposal-list a`, chromedp.ByQuery),
		chromedp.Click(`.proposal-list a`, chromedp.ByQuery),
		chromedp.WaitVisible(`.proposal-page .diagram-canvas svg`, chromedp.ByQuery),
		chromedp.Text(`.proposal-branches`, &sections, chromedp.ByQuery),
	)
	if !strings.Contains(sections, "Careers") || !strings.Contains(sections, "Products") {
		t.Errorf("sections: %q", sections)
	}
	if v := axeViolations(t, ctx); len(v) > 0 {
		t.Errorf("axe on the proposal: %q", v)
	}
	screenshot(t, ctx, "proposal.png")
	if got := shapeOf(db, pid); got != before {
		t.Fatalf("the plan changed before anyone accepted: %s", got)
	}
	run(t, ctx, "accept the Careers section",
		chromedp.Click(`button[aria-label="Accept this section: “Careers”"]`, chromedp.ByQuery),
		waitJS(`document.querySelector(".proposal-page")?.textContent.includes("Accepted so far: “Careers”")`),
	)
	if got := shapeOf(db, pid); !strings.Contains(got, "Careers(Open positions)") || !strings.Contains(got, "Pricing") {
		t.Errorf("after the Careers section: %s", got)
	}
	run(t, ctx, "accept the rest: back in the editor with the plan accepted",
		settled(),
		chromedp.Click(`#accept-all`, chromedp.ByQuery),
		titleShown("Plans"),
	)
	if got := shapeOf(db, pid); !strings.Contains(got, "Plans") || strings.Contains(got, "Pricing") {
		t.Errorf("after accepting: %s", got)
	}
	links, _ := db.Links.Links(bg, pid)
	found := false
	for _, l := range links {
		found = found || l.FromTitle == "Careers" && l.ToTitle == "Contact" && l.Label == "apply"
	}
	if !found {
		t.Errorf("the proposed link is missing: %+v", links)
	}
	noProblems(t, ctx, "proposals")
}
