package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"siteplan/site"
	"siteplan/verify"
)

// The MCP server for agents (Model Context Protocol, the official Go
// SDK): tools to list projects, read a plan as an outline or siteplan/1,
// search its pages, read a brief, count the redirect map, read the last
// launch check and start one; each plan as a resource. It answers at
// /mcp over the streamable HTTP transport, stateless (so any instance
// behind a balancer serves any request), with an API token; `siteplan
// mcp` serves the same over stdio. A tool sees what the token's viewer
// may see, decided as the API's guard decides.

// MCPServer is the MCP server of the viewer v (a token's person or
// team), its tools reading and writing through s's stores.
func (s *Server) MCPServer(v site.Viewer) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "siteplan", Version: "1.0.0"}, &mcp.ServerOptions{
		Instructions: "siteplan holds an agency's site plans: trees of pages with briefs, redirect maps and launch checks. " +
			"Start with list_projects, then read_plan (an indented outline) to see a plan.",
	})
	t := mcpTools{s: s, v: v}
	mcp.AddTool(srv, &mcp.Tool{Name: "list_projects", Description: "The projects (site plans) this token may read: id, name, base URL, pages.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, t.listProjects)
	mcp.AddTool(srv, &mcp.Tool{Name: "read_plan", Description: "A plan as an indented outline (each page's title, URL, type and status) or as a siteplan/1 JSON document.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, t.readPlan)
	mcp.AddTool(srv, &mcp.Tool{Name: "search_pages", Description: "Pages of a plan whose title, URL or brief match the words asked, with their ids.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, t.searchPages)
	mcp.AddTool(srv, &mcp.Tool{Name: "read_brief", Description: "A page's brief: SEO title, meta description, H1, keyword, intent, content blocks, word target, owner, due date.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, t.readBrief)
	mcp.AddTool(srv, &mcp.Tool{Name: "redirect_status", Description: "A relaunch's redirect map: old URLs accepted, awaiting review, unmatched and retired, and the clicks at risk.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, t.redirectStatus)
	mcp.AddTool(srv, &mcp.Tool{Name: "last_launch_check", Description: "The newest launch check of a plan: the site checked, errors, warnings and the first problems.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, t.lastLaunchCheck)
	mcp.AddTool(srv, &mcp.Tool{Name: "run_launch_check", Description: "Start a launch check of the built site (base URL) against the plan; it runs in the background: read it later with last_launch_check.",
		Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptrTo(true)}}, t.runLaunchCheck)
	mcp.AddTool(srv, &mcp.Tool{Name: "propose_changes", Description: "Propose changes to a plan; they wait for a person on the team to accept or reject them " +
		"(nothing changes until then). Send either operations on the plan (pages named by their ids from read_plan, #12, or by the key an earlier add gave " +
		"a new page): add {parent, position, title, slug, type, kind, status, notes}, update {page, title, ...}, move {page, parent, position}, " +
		"delete {page} (with its branch), link {from, to, label}, unlink {from, to}; or the whole plan as a Mermaid flowchart or mindmap " +
		"(nodes named p12 are the plan's pages, others new; pages left out are deleted). Answers with what the proposal changes and where to review it.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptrTo(false)}}, t.proposeChanges)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "plan", URITemplate: "siteplan://projects/{id}/plan", MIMEType: "application/json",
		Description: "A plan as a siteplan/1 document."}, t.planResource)
	return srv
}

func ptrTo[T any](v T) *T { return &v }

// mcpHandler serves /mcp: each request's server is its token's.
func (s *Server) mcpHandler() http.Handler {
	return mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		return s.MCPServer(site.ViewerFrom(r.Context()))
	}, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, MaxRequestBodyBytes: 1 << 20,
		// The SDK refuses a request on a loopback address whose Host is
		// another name, against DNS rebinding of an unauthenticated local
		// server: here every request carries its API token, which a
		// rebound page does not have, and a reverse proxy in front of
		// serve on 127.0.0.1 (docs/deployment.md) sends the site's name.
		DisableLocalhostProtection: true})
}

// serveMCP answers /mcp for an authenticated token.
func (s *Server) serveMCP(c echo.Context) error {
	if viewer(c).TokenID == 0 {
		return site.Errorf(site.EUnauthorized, "The MCP server takes an API token: Authorization: Bearer TOKEN.")
	}
	s.mcp.ServeHTTP(c.Response(), c.Request())
	return nil
}

// mcpTools are the tools of one viewer.
type mcpTools struct {
	s *Server
	v site.Viewer
}

// project is project id as the tools' viewer may use it, with the
// viewer in ctx for the store. Errors: ENotFound, EForbidden.
func (t mcpTools) project(ctx context.Context, id int64, min site.Access) (context.Context, site.Project, error) {
	ctx = site.WithViewer(ctx, t.v)
	p, err := t.s.store.projects.Project(ctx, id)
	access := memberAccess(t.v, p)
	switch {
	case err != nil && site.ErrorCode(err) != site.ENotFound:
		return ctx, p, err
	case access == site.AccessNone:
		return ctx, p, site.Errorf(site.ENotFound, "Project %d does not exist, or this token may not read it: list_projects names those it may.", id)
	case access < min:
		return ctx, p, site.Errorf(site.EForbidden, "This token may read project %d but not change it: its scope is %s.", id, t.v.TokenScope)
	}
	t.v.Access = access
	return site.WithViewer(ctx, t.v), p, nil
}

// text is a tool's answer in words.
func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// mcpErr is a tool's error in the words the API would say.
func mcpErr(err error) error { return fmt.Errorf("%s", site.ErrorMessage(err)) }

type projectArg struct {
	ProjectID int64 `json:"project_id" jsonschema:"the project's id, from list_projects"`
}

func (t mcpTools) listProjects(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	list, err := t.s.store.projects.Projects(ctx, t.v.Team.ID)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	var b strings.Builder
	for _, p := range list {
		if memberAccess(t.v, p) > site.AccessNone {
			fmt.Fprintf(&b, "%d\t%s\t%s\t%s\n", p.ID, p.Name, p.BaseURL, site.Plural(p.PageCount, "page", "pages"))
		}
	}
	if b.Len() == 0 {
		return text("No project this token may read."), nil, nil
	}
	return text("id\tname\tbase URL\tpages\n" + b.String()), nil, nil
}

type planArg struct {
	ProjectID int64  `json:"project_id" jsonschema:"the project's id, from list_projects"`
	Format    string `json:"format,omitempty" jsonschema:"outline (the default: an indented list an agent reads easily) or siteplan/1 (the JSON document)"`
}

func (t mcpTools) readPlan(ctx context.Context, _ *mcp.CallToolRequest, in planArg) (*mcp.CallToolResult, any, error) {
	ctx, p, err := t.project(ctx, in.ProjectID, site.AccessRead)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	switch in.Format {
	case "siteplan/1", "json":
		d, err := t.s.store.projects.Document(ctx, p.ID)
		if err != nil {
			return nil, nil, mcpErr(err)
		}
		var b strings.Builder
		if err := d.Encode(&b); err != nil {
			return nil, nil, err
		}
		return text(b.String()), nil, nil
	case "", "outline":
	default:
		return nil, nil, fmt.Errorf("format is outline or siteplan/1, not %q", in.Format)
	}
	tr, err := t.s.store.pages.Tree(ctx, p.ID)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s), %s\n", p.Name, p.BaseURL, site.Plural(p.PageCount, "page", "pages"))
	placement := ""
	tr.Walk(func(pg *site.Page, depth int) bool {
		if depth == 1 && pg.Placement != placement {
			placement = pg.Placement
			fmt.Fprintf(&b, "\n[%s navigation]\n", placement)
		}
		what := []string{pg.Status}
		if pg.Type != "" {
			what = append([]string{pg.Type}, what...)
		}
		if pg.Kind != site.KindPage {
			what = append([]string{pg.Kind}, what...)
		}
		url := tr.URL(pg.ID)
		if url == "" {
			url = "no URL"
		}
		fmt.Fprintf(&b, "%s- %s (%s) [%s] #%d\n", strings.Repeat("  ", depth-1), pg.Title, url, strings.Join(what, ", "), pg.ID)
		return true
	})
	return text(b.String()), nil, nil
}

type searchArg struct {
	ProjectID int64  `json:"project_id" jsonschema:"the project's id, from list_projects"`
	Query     string `json:"query" jsonschema:"words to find in the pages' titles, URLs and briefs"`
}

func (t mcpTools) searchPages(ctx context.Context, _ *mcp.CallToolRequest, in searchArg) (*mcp.CallToolResult, any, error) {
	ctx, p, err := t.project(ctx, in.ProjectID, site.AccessRead)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	found, err := t.s.store.pages.Search(ctx, p.ID, in.Query, 0, 50)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	var b strings.Builder
	for _, f := range found {
		fmt.Fprintf(&b, "#%d\t%s\t%s\n", f.Page.ID, f.Page.Title, f.URL)
	}
	if b.Len() == 0 {
		return text("No page matches."), nil, nil
	}
	return text(b.String()), nil, nil
}

type pageArg struct {
	ProjectID int64 `json:"project_id" jsonschema:"the project's id, from list_projects"`
	PageID    int64 `json:"page_id" jsonschema:"the page's id (#N in read_plan's outline)"`
}

func (t mcpTools) readBrief(ctx context.Context, _ *mcp.CallToolRequest, in pageArg) (*mcp.CallToolResult, any, error) {
	ctx, p, err := t.project(ctx, in.ProjectID, site.AccessRead)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	pg, err := t.s.store.pages.Page(ctx, in.PageID)
	if err != nil || pg.ProjectID != p.ID {
		return nil, nil, fmt.Errorf("page %d is not one of project %d", in.PageID, p.ID)
	}
	b, _ := json.MarshalIndent(map[string]any{"page": pg.Title, "brief": pg.Brief}, "", "  ")
	return text(string(b)), nil, nil
}

func (t mcpTools) redirectStatus(ctx context.Context, _ *mcp.CallToolRequest, in projectArg) (*mcp.CallToolResult, any, error) {
	ctx, p, err := t.project(ctx, in.ProjectID, site.AccessRead)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	st, err := t.s.store.redirects.RedirectStatus(ctx, p.ID)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	b, _ := json.Marshal(st)
	return text(string(b)), nil, nil
}

func (t mcpTools) lastLaunchCheck(ctx context.Context, _ *mcp.CallToolRequest, in projectArg) (*mcp.CallToolResult, any, error) {
	ctx, p, err := t.project(ctx, in.ProjectID, site.AccessRead)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	cs, err := t.s.store.launch.LaunchChecks(ctx, p.ID, 1)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	if len(cs) == 0 {
		return text("This plan has no launch check yet: start one with run_launch_check."), nil, nil
	}
	rep, what, err := verify.ReadKept(cs[0].Report, cs[0].ID)
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s against %s, %s: %s, %s\n", what, rep.Base, cs[0].At.UTC().Format("2006-01-02 15:04 UTC"),
		site.Counted(rep.Errors, "error", "errors"), site.Counted(rep.Warnings, "warning", "warnings"))
	for i, pr := range rep.Problems {
		if i == 50 {
			fmt.Fprintf(&b, "… and %d more\n", len(rep.Problems)-i+rep.Omitted)
			break
		}
		fmt.Fprintf(&b, "%s [%s] %s: %s\n", pr.Severity, pr.Rule, pr.URL, pr.Message)
	}
	return text(b.String()), nil, nil
}

type launchArg struct {
	ProjectID int64  `json:"project_id" jsonschema:"the project's id, from list_projects"`
	Base      string `json:"base" jsonschema:"where the built site is served, such as https://staging.example.com/"`
	Version   string `json:"version,omitempty" jsonschema:"approved (the version signed off), a version's number, or empty for the plan as it is"`
}

func (t mcpTools) runLaunchCheck(ctx context.Context, _ *mcp.CallToolRequest, in launchArg) (*mcp.CallToolResult, any, error) {
	ctx, p, err := t.project(ctx, in.ProjectID, site.AccessEdit)
	if err == nil {
		err = jobOwner(t.v)
	}
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	base, userinfo, err := launchBase(in.Base)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	vs, err := t.s.store.history.Versions(ctx, p.ID)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	n, err := launchVersion(vs, in.Version)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	j, err := t.s.store.jobs.CreateJob(ctx, site.Job{Kind: site.JobLaunch, Source: base, Credentials: userinfo, ProjectID: p.ID, Version: n,
		UserID: t.v.UserID, TokenID: jobToken(t.v), TeamID: p.TeamID, By: t.v.Name}, nil)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	return text(fmt.Sprintf("Launch check %s started against %s; read its report with last_launch_check once it is done (a few minutes at most).", j.ID, base)), nil, nil
}

func (t mcpTools) planResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	var id int64
	if _, err := fmt.Sscanf(req.Params.URI, "siteplan://projects/%d/plan", &id); err != nil {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	ctx, p, err := t.project(ctx, id, site.AccessRead)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	d, err := t.s.store.projects.Document(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if err := d.Encode(&b); err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: b.String()}}}, nil
}

type proposeArg struct {
	ProjectID   int64             `json:"project_id" jsonschema:"the project's id, from list_projects"`
	Title       string            `json:"title" jsonschema:"what the proposal changes, in a few words, as the team will see it"`
	Summary     string            `json:"summary,omitempty" jsonschema:"why: the reasoning a reviewer reads"`
	BaseVersion int               `json:"base_version,omitempty" jsonschema:"a version's number to propose on; absent: the plan as it is"`
	Operations  []site.ProposalOp `json:"operations,omitempty" jsonschema:"the changes, in order"`
	Mermaid     string            `json:"mermaid,omitempty" jsonschema:"the whole plan as a Mermaid flowchart or mindmap, instead of operations"`
}

func (t mcpTools) proposeChanges(ctx context.Context, _ *mcp.CallToolRequest, in proposeArg) (*mcp.CallToolResult, any, error) {
	ctx, p, err := t.project(ctx, in.ProjectID, site.AccessComment)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	prop, err := t.s.propose(ctx, p, proposalInput{Title: in.Title, Summary: in.Summary, BaseVersion: in.BaseVersion,
		Operations: in.Operations, Mermaid: in.Mermaid}, site.SourceMCP)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	_, plans, err := t.s.store.proposals.Proposal(ctx, p.ID, prop.Number)
	if err != nil {
		return nil, nil, mcpErr(err)
	}
	return text(fmt.Sprintf("%s waits for the team's review at %s.\n\n%s", prop.Label(), proposalPath(p.ID, prop.Number),
		plans.Comparison().Text())), nil, nil
}
