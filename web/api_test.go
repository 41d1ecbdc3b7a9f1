package web

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"siteplan/export"
	"siteplan/site"
)

// sameSet reports whether a and b hold the same strings.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// contract is the API's OpenAPI document and a router over it.
func contract(t *testing.T) (*openapi3.T, routers.Router) {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openapiYAML)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.yaml is not valid OpenAPI: %v", err)
	}
	doc.Servers = openapi3.Servers{{URL: "http://example.com/api/v1"}}
	for _, ct := range []string{"application/xml", "application/gzip", "text/html", "text/csv", "image/svg+xml", "image/png", "application/pdf",
		"text/vnd.graphviz", "application/graphml+xml", "text/vnd.mermaid"} { // the export's files and the diagrams, read as they are
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.FileBodyDecoder)
	}
	r, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return doc, r
}

// TestOpenAPIRoutes: every API route is in the contract, with its
// method, and every operation of the contract is a route.
func TestOpenAPIRoutes(t *testing.T) {
	doc, _ := contract(t)
	srv := New(Stores{}, staticFS, nil, Config{})
	routes := map[string]bool{}
	for _, r := range srv.routeTable() {
		if !strings.HasPrefix(r.path, apiPrefix) {
			continue
		}
		path := "/" + strings.TrimPrefix(r.path, apiPrefix)
		for _, part := range strings.Split(path, "/") {
			if strings.HasPrefix(part, ":") {
				path = strings.Replace(path, part, "{"+part[1:]+"}", 1)
			}
		}
		key := r.method + " " + path
		routes[key] = true
		if item := doc.Paths.Find(path); item == nil || item.GetOperation(r.method) == nil {
			t.Errorf("the route %s is not in openapi.yaml: describe it", key)
		}
	}
	codes := map[string]bool{site.EInternal: true}
	for code := range statusOf {
		codes[code] = true
	}
	for _, v := range doc.Components.Schemas["Problem"].Value.Properties["code"].Value.Enum {
		if !codes[v.(string)] {
			t.Errorf("openapi.yaml's problem codes list %q, which is no error code", v)
		}
		delete(codes, v.(string))
	}
	if len(codes) > 0 {
		t.Errorf("openapi.yaml's problem codes lack %v", codes)
	}
	var formats []string
	for _, p := range doc.Paths.Find("/projects/{id}/redirects/export").Get.Parameters {
		if p.Value.Name == "format" {
			for _, v := range p.Value.Schema.Value.Enum {
				formats = append(formats, v.(string))
			}
		}
	}
	var shows []string
	for _, p := range doc.Paths.Find("/projects/{id}/redirects").Get.Parameters {
		if p.Value.Name == "show" {
			for _, v := range p.Value.Schema.Value.Enum {
				shows = append(shows, v.(string))
			}
		}
	}
	if !sameSet(shows, site.OldShows) {
		t.Errorf("openapi.yaml's redirect filters %v, the code's %v", shows, site.OldShows)
	}
	if !sameSet(formats, export.RedirectFormats) {
		t.Errorf("openapi.yaml's redirect formats %v, the export's %v", formats, export.RedirectFormats)
	}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if !routes[method+" "+path] {
				t.Errorf("openapi.yaml describes %s %s, which is no route", method, path)
			}
		}
	}
}

// apiCall makes one API request with a token ("" for none) and checks
// its answer against the contract.
func apiCall(t *testing.T, c *client, router routers.Router, token, method, path string, body ...string) (*httptest.ResponseRecorder, map[string]any) {
	t.Helper()
	return apiCallWith(t, c, router, token, nil, method, path, body...)
}

// apiCallWith is apiCall with more headers (If-Match).
func apiCallWith(t *testing.T, c *client, router routers.Router, token string, headers map[string]string, method, path string, body ...string) (*httptest.ResponseRecorder, map[string]any) {
	t.Helper()
	var send io.Reader
	if len(body) > 0 {
		send = strings.NewReader(body[0])
	}
	req := httptest.NewRequest(method, path, send)
	if len(body) > 0 {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	c.srv.Echo.ServeHTTP(rec, req)
	vreq := httptest.NewRequest(method, "http://example.com"+path, nil)
	route, params, err := router.FindRoute(vreq)
	if err != nil {
		t.Fatalf("%s %s is not in the contract: %v", method, path, err)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status: rec.Code, Header: rec.Header(), Body: io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Errorf("%s %s: the answer (%d) breaks the contract: %v\n%.400s", method, path, rec.Code, err, rec.Body.String())
	}
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec, out
}

// TestAPITokens: the API answers a token as its person or team, capped
// by its scope and project; without a valid token it answers 401 as
// problem details; every answer carries the token's rate limit, and
// past it 429 with Retry-After; a share link's cookie reaches nothing.
func TestAPITokens(t *testing.T) {
	c := newClient(t)
	_, router := contract(t)
	pid, _ := c.fixture()
	ctx := context.Background()
	owner, err := c.db.Accounts.UserByEmail(ctx, "owner@test.example")
	if err != nil {
		t.Fatal(err)
	}
	frozen := time.Now()
	c.db.Now = func() time.Time { return frozen } // the rate limit counts no time passing, however slow the machine
	other := site.Project{TeamID: 1, Name: "Second plan", BaseURL: "https://second.example/"}
	if err := c.db.Projects.CreateProject(ctx, &other); err != nil {
		t.Fatal(err)
	}
	mk := func(tok site.APIToken) string {
		t.Helper()
		tok.TeamID, tok.CreatedBy, tok.ExpiresAt = 1, owner.ID, time.Now().Add(time.Hour)
		if tok.Name == "" {
			tok.Name = "test"
		}
		raw, err := c.db.Tokens.CreateToken(ctx, &tok)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	all := mk(site.APIToken{UserID: owner.ID, Scope: site.ScopeRead})
	one := mk(site.APIToken{UserID: owner.ID, Scope: site.ScopeRead, ProjectID: pid})
	team := mk(site.APIToken{Scope: site.ScopeWrite, Name: "CI"})
	p := "/api/v1/projects/" + itoa(pid)

	rec, body := apiCall(t, c, router, all, "GET", "/api/v1/projects")
	if items, _ := body["items"].([]any); rec.Code != 200 || len(items) != 2 {
		t.Errorf("a token of every project lists %d: %s", len(items), rec.Body)
	}
	if rec.Header().Get("RateLimit-Limit") != "120" || rec.Header().Get("RateLimit-Remaining") != "119" {
		t.Errorf("rate limit headers: %v", rec.Header())
	}
	if _, body := apiCall(t, c, router, one, "GET", "/api/v1/projects"); len(body["items"].([]any)) != 1 {
		t.Errorf("a token of one project lists: %v", body)
	}
	if rec, _ := apiCall(t, c, router, one, "GET", "/api/v1/projects/"+itoa(other.ID)); rec.Code != http.StatusNotFound {
		t.Errorf("a token of one project reads another: %d", rec.Code)
	}
	rec, body = apiCall(t, c, router, team, "GET", p+"/plan")
	if rec.Code != 200 || body["format"] != "siteplan/1" || rec.Header().Get("ETag") == "" {
		t.Errorf("the plan by a team token: %d %.200s", rec.Code, rec.Body)
	}
	rec, _ = apiCall(t, c, router, all, "GET", "/api/v1/projects?limit=1")
	var pg struct {
		Items []apiProject `json:"items"`
		Next  string       `json:"next_cursor"`
	}
	json.Unmarshal(rec.Body.Bytes(), &pg)
	if len(pg.Items) != 1 || pg.Next == "" {
		t.Fatalf("a page of one: %s", rec.Body)
	}
	rec, _ = apiCall(t, c, router, all, "GET", "/api/v1/projects?limit=1&cursor="+pg.Next)
	var next struct {
		Items []apiProject `json:"items"`
		Next  string       `json:"next_cursor"`
	}
	json.Unmarshal(rec.Body.Bytes(), &next)
	if len(next.Items) != 1 || next.Items[0].ID == pg.Items[0].ID || next.Next != "" {
		t.Errorf("the next page: %s", rec.Body)
	}
	if rec, body := apiCall(t, c, router, all, "GET", "/api/v1/projects?limit=900"); rec.Code != 422 || body["code"] != "invalid" {
		t.Errorf("a limit too large: %d %v", rec.Code, body)
	}
	// Without a valid token: 401, problem details.
	for _, tok := range []string{"", "sp_forged"} {
		rec, body := apiCall(t, c, router, tok, "GET", p)
		if rec.Code != 401 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/problem+json") || body["code"] != "unauthorized" || rec.Header().Get("WWW-Authenticate") == "" {
			t.Errorf("token %q: %d %s %v", tok, rec.Code, rec.Header(), body)
		}
	}
	// The rate limit: the rest of the burst, then 429.
	for range 119 {
		apiCall(t, c, router, one, "GET", p)
	}
	rec, body = apiCall(t, c, router, one, "GET", p)
	if rec.Code != 429 || rec.Header().Get("Retry-After") == "" || body["code"] != "too_many_requests" || rec.Header().Get("RateLimit-Remaining") != "0" {
		t.Errorf("past the burst: %d %v %v", rec.Code, rec.Header(), body)
	}
	if rec, _ := apiCall(t, c, router, all, "GET", p); rec.Code != 200 {
		t.Errorf("another token is not limited by the first: %d", rec.Code)
	}
}

// TestAPIVersions: versions made and listed, a refused name naming its
// field, a read token refused a write, the diff since a version, an
// export file and the redirect map's counts, each answer as the
// contract describes it.
func TestAPIVersions(t *testing.T) {
	c := newClient(t)
	_, router := contract(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	write, read := c.apiToken(site.ScopeWrite, 0), c.apiToken(site.ScopeRead, 0)
	p := "/api/v1/projects/" + itoa(pid)
	rec, body := apiCall(t, c, router, write, "POST", p+"/versions", `{"name": "Kickoff"}`)
	if rec.Code != 201 || body["number"] != 1.0 || body["name"] != "Kickoff" {
		t.Fatalf("a version made: %d %s", rec.Code, rec.Body)
	}
	rec, body = apiCall(t, c, router, write, "POST", p+"/versions", `{"name": ""}`)
	if fields, _ := body["errors"].(map[string]any); rec.Code != 422 || fields["name"] == nil {
		t.Errorf("an empty name: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, write, "POST", p+"/versions", `{"name": "x", "colour": "red"}`); rec.Code != 422 {
		t.Errorf("a field the route does not read: %d", rec.Code)
	}
	if rec, body := apiCall(t, c, router, read, "POST", p+"/versions", `{"name": "Sneaky"}`); rec.Code != 403 || body["code"] != "forbidden" {
		t.Errorf("a read token's write: %d %v", rec.Code, body)
	}
	tr, _ := c.db.Pages.Tree(ctx, pid)
	if _, err := c.db.Pages.RenamePage(ctx, ids["Pricing"], "Prices", tr.Page(ids["Pricing"]).Version); err != nil {
		t.Fatal(err)
	}
	if _, body := apiCall(t, c, router, read, "GET", p+"/versions"); len(body["items"].([]any)) != 1 {
		t.Errorf("versions: %v", body)
	}
	rec, body = apiCall(t, c, router, read, "GET", p+"/diff?from=1")
	if renamed, _ := body["renamed"].([]any); rec.Code != 200 || len(renamed) != 1 {
		t.Errorf("the diff since version 1: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, read, "GET", p+"/diff"); rec.Code != 422 {
		t.Errorf("a diff without from: %d", rec.Code)
	}
	rec, _ = apiCall(t, c, router, read, "GET", p+"/exports/sitemap.xml")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "<urlset") {
		t.Errorf("sitemap.xml: %d %.200s", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, read, "GET", p+"/exports/sitemap-9.xml"); rec.Code != 404 {
		t.Errorf("a file the export lacks: %d", rec.Code)
	}
	if rec, body := apiCall(t, c, router, read, "GET", p+"/redirects/status"); rec.Code != 200 || body["old_urls"] != 0.0 {
		t.Errorf("redirect status: %d %s", rec.Code, rec.Body)
	}
}

// TestAPILaunchCheck: a launch check started through the API with a
// token runs as the editor's does; its state says where its report is,
// which reads as siteplan verify --json prints it and as JUnit.
func TestAPILaunchCheck(t *testing.T) {
	c := siteClient(t)
	_, router := contract(t)
	pid, _ := c.fixture()
	ctx := context.Background()
	tr, _ := c.db.Pages.Tree(ctx, pid)
	bs := newBuiltSite(t, tr)
	bs.set("/contact", http.NotFound)
	owner, _ := c.db.Accounts.UserByEmail(ctx, "owner@test.example")
	write, read := c.apiToken(site.ScopeWrite, 0), c.apiToken(site.ScopeRead, 0)
	p := "/api/v1/projects/" + itoa(pid)
	if rec, _ := apiCall(t, c, router, read, "POST", p+"/launch-checks", `{"base": "`+bs.URL+`/"}`); rec.Code != 403 {
		t.Errorf("a read token starts a check: %d", rec.Code)
	}
	team := site.APIToken{TeamID: 1, CreatedBy: owner.ID, Scope: site.ScopeWrite, Name: "CI", ExpiresAt: time.Now().Add(time.Hour)}
	teamToken, _ := c.db.Tokens.CreateToken(ctx, &team)
	// A team token's check is the token's: it follows and reads it, a
	// person's token does not; one at a time (its site holds a page
	// until the second is refused).
	held := newBuiltSite(t, tr)
	held.hold = true
	rec, body := apiCall(t, c, router, teamToken, "POST", p+"/launch-checks", `{"base": "`+held.URL+`/"}`)
	teamJob, _ := body["id"].(string)
	if rec.Code != 202 || teamJob == "" {
		t.Fatalf("a team token starts a check: %d %v", rec.Code, body)
	}
	<-held.held
	if rec, _ := apiCall(t, c, router, teamToken, "POST", p+"/launch-checks", `{"base": "`+bs.URL+`/"}`); rec.Code != 429 {
		t.Errorf("a second check of the team token's while its first runs: %d", rec.Code)
	}
	close(held.release)
	waitFor(t, func() bool {
		_, body := apiCall(t, c, router, teamToken, "GET", p+"/launch-checks/"+teamJob)
		return body["state"] == "done"
	}, "the team token's check to be done")
	if rec, _ := apiCall(t, c, router, read, "GET", p+"/launch-checks/"+teamJob); rec.Code != 404 {
		t.Errorf("a person reads the team token's check: %d", rec.Code)
	}
	if rec, body := apiCall(t, c, router, write, "POST", p+"/launch-checks", `{"base": "staging"}`); rec.Code != 422 || body["errors"] == nil {
		t.Errorf("a base that is no URL: %d %s", rec.Code, rec.Body)
	}
	rec, body = apiCall(t, c, router, write, "POST", p+"/launch-checks", `{"base": "`+bs.URL+`/"}`)
	id, _ := body["id"].(string)
	if rec.Code != 202 || id == "" || rec.Header().Get("Location") != p+"/launch-checks/"+id {
		t.Fatalf("started: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	c.finished("/sites/jobs/" + id) // the job's stream ends when it does
	rec, body = apiCall(t, c, router, read, "GET", p+"/launch-checks/"+id)
	if rec.Code != 200 || body["state"] != "done" || body["report"] != p+"/launch-checks/"+id+"/report" {
		t.Fatalf("its state: %d %s", rec.Code, rec.Body)
	}
	rec, body = apiCall(t, c, router, read, "GET", p+"/launch-checks/"+id+"/report")
	if rec.Code != 200 || body["errors"] != 1.0 || body["base"] != bs.URL+"/" {
		t.Errorf("the report: %d %.300s", rec.Code, rec.Body)
	}
	rec, _ = apiCall(t, c, router, read, "GET", p+"/launch-checks/"+id+"/report?format=junit")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "<testsuite") || !strings.Contains(rec.Body.String(), "<failure") {
		t.Errorf("the JUnit report: %d %.300s", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, read, "GET", p+"/launch-checks/nope"); rec.Code != 404 {
		t.Errorf("no such check: %d", rec.Code)
	}
}

// TestAPIPages: pages made, read, changed, moved and deleted through
// the API go the editor's write path (the URL rules, the history under
// the token's name); a write that names a version someone changed since
// is refused with 412.
func TestAPIPages(t *testing.T) {
	c := newClient(t)
	_, router := contract(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	owner, _ := c.db.Accounts.UserByEmail(ctx, "owner@test.example")
	tok := site.APIToken{TeamID: 1, CreatedBy: owner.ID, Scope: site.ScopeWrite, Name: "Agent", ExpiresAt: time.Now().Add(time.Hour)}
	write, err := c.db.Tokens.CreateToken(ctx, &tok)
	if err != nil {
		t.Fatal(err)
	}
	p := "/api/v1/projects/" + itoa(pid)
	rec, body := apiCall(t, c, router, write, "POST", p+"/pages", `{"title": "Careers", "parent_id": `+itoa(ids["Home"])+`}`)
	if rec.Code != 201 || body["slug"] != "careers" || body["url"] != "https://www.acme.example/careers" || rec.Header().Get("ETag") == "" {
		t.Fatalf("a page made: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	id := int64(body["id"].(float64))
	page := p + "/pages/" + itoa(id)
	if rec.Header().Get("Location") != page {
		t.Errorf("Location %q", rec.Header().Get("Location"))
	}
	etag := rec.Header().Get("ETag")
	if rec, body := apiCall(t, c, router, write, "POST", p+"/pages", `{"title": "Jobs", "slug": "careers", "parent_id": `+itoa(ids["Home"])+`}`); rec.Code != 422 || !strings.Contains(body["detail"].(string), "Careers") {
		t.Errorf("a typed slug another page has: %d %v", rec.Code, body)
	}
	// Changed with the version read: its title and, derived, its slug.
	patch := func(etag, body string) (*httptest.ResponseRecorder, map[string]any) {
		t.Helper()
		return apiCallWith(t, c, router, write, map[string]string{"If-Match": etag}, "PATCH", page, body)
	}
	rec, body = patch(etag, `{"title": "Jobs"}`)
	if rec.Code != 200 || body["slug"] != "jobs" || rec.Header().Get("ETag") == etag {
		t.Fatalf("renamed: %d %s", rec.Code, rec.Body)
	}
	if rec, body := patch(etag, `{"title": "Work with us"}`); rec.Code != 412 || body["code"] != "precondition_failed" {
		t.Errorf("a stale If-Match: %d %v", rec.Code, body)
	}
	rec, body = patch(rec.Header().Get("ETag"), `{"parent_id": `+itoa(ids["About us"])+`, "position": 0}`)
	if rec.Code != 200 || body["url"] != "https://www.acme.example/about-us/jobs" || body["position"] != 0.0 {
		t.Errorf("moved under About us: %d %s", rec.Code, rec.Body)
	}
	hist, _ := c.db.History.History(ctx, pid, 0, 0, 3)
	if len(hist) < 3 || hist[0].Verb != "move" || hist[2].Verb != "create" || hist[0].Author != "Agent (team token)" {
		t.Errorf("the history: %+v", hist)
	}
	if _, body := apiCall(t, c, router, write, "GET", p+"/pages?limit=200"); len(body["items"].([]any)) != 13 {
		t.Errorf("the pages: %d", len(body["items"].([]any)))
	}
	rec, body = apiCall(t, c, router, write, "DELETE", page)
	if rec.Code != 200 || body["deleted"] != 1.0 {
		t.Errorf("deleted: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, write, "GET", page); rec.Code != 404 {
		t.Errorf("a deleted page: %d", rec.Code)
	}
}

// TestAPIIdempotency: a POST sent again with its Idempotency-Key gets
// the first answer, not a second version; the key with another body is
// refused; a failed first answer does not hold the key.
func TestAPIIdempotency(t *testing.T) {
	c := newClient(t)
	_, router := contract(t)
	pid, _ := c.fixture()
	ctx := context.Background()
	write := c.apiToken(site.ScopeWrite, 0)
	p := "/api/v1/projects/" + itoa(pid)
	key := map[string]string{"Idempotency-Key": "release-2026-11-28"}
	first, body := apiCallWith(t, c, router, write, key, "POST", p+"/versions", `{"name": "Release"}`)
	again, body2 := apiCallWith(t, c, router, write, key, "POST", p+"/versions", `{"name": "Release"}`)
	if first.Code != 201 || again.Code != 201 || body["number"] != body2["number"] || again.Header().Get("Idempotent-Replayed") != "true" {
		t.Errorf("sent twice: %d %v, %d %v", first.Code, body, again.Code, body2)
	}
	if vs, _ := c.db.History.Versions(ctx, pid); len(vs) != 1 {
		t.Errorf("%d versions, want 1", len(vs))
	}
	if rec, body := apiCallWith(t, c, router, write, key, "POST", p+"/versions", `{"name": "Other"}`); rec.Code != 422 || !strings.Contains(body["detail"].(string), "Idempotency-Key") {
		t.Errorf("the key with another body: %d %v", rec.Code, body)
	}
	// A refused request keeps its answer too (it would be refused again).
	bad := map[string]string{"Idempotency-Key": "empty-name"}
	if rec, _ := apiCallWith(t, c, router, write, bad, "POST", p+"/versions", `{"name": ""}`); rec.Code != 422 {
		t.Errorf("an empty name: %d", rec.Code)
	}
	if rec, _ := apiCallWith(t, c, router, write, bad, "POST", p+"/versions", `{"name": ""}`); rec.Code != 422 || rec.Header().Get("Idempotent-Replayed") != "true" {
		t.Errorf("the refused request again: %d %v", rec.Code, rec.Header())
	}
	if rec, _ := apiCall(t, c, router, write, "POST", p+"/versions", `{"name": "Release"}`); rec.Code != 201 {
		t.Errorf("without a key: %d", rec.Code)
	}
}

// TestAPIImportExport: a siteplan/1 document made a project, its launch
// files as one zip, its redirect map per platform, a version restored;
// a token of one project makes none.
func TestAPIImportExport(t *testing.T) {
	c := newClient(t)
	_, router := contract(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	mk := func(project int64) string { return c.apiToken(site.ScopeWrite, project) }
	write, one := mk(0), mk(pid)
	doc := `{"format": "siteplan/1", "project": {"name": "Imported", "base_url": "https://imported.example/"}, "pages": [{"title": "Home", "slug": "", "children": [{"title": "About"}]}]}`
	rec, body := apiCall(t, c, router, write, "POST", "/api/v1/projects", doc)
	if rec.Code != 201 || body["name"] != "Imported" || body["pages"] != 2.0 {
		t.Fatalf("imported: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, one, "POST", "/api/v1/projects", doc); rec.Code != 403 {
		t.Errorf("a token of one project imports: %d", rec.Code)
	}
	if rec, body := apiCall(t, c, router, write, "POST", "/api/v1/projects", `{"format": "siteplan/1", "project": {"name": "x"}}`); rec.Code != 422 || !strings.Contains(body["detail"].(string), "base") {
		t.Errorf("a document without a base URL: %d %v", rec.Code, body)
	}
	p := "/api/v1/projects/" + itoa(pid)
	rec, _ = apiCall(t, c, router, write, "GET", p+"/export.zip?gzip=1")
	if rec.Code != 200 || !bytes.HasPrefix(rec.Body.Bytes(), []byte("PK")) {
		t.Errorf("the zip: %d", rec.Code)
	}
	if rec, _ := apiCall(t, c, router, write, "GET", p+"/redirects/export?format=nginx"); rec.Code != 200 {
		t.Errorf("the nginx map: %d %s", rec.Code, rec.Body)
	}
	if rec, body := apiCall(t, c, router, write, "GET", p+"/redirects?show=awaiting"); rec.Code != 200 || body["items"] == nil {
		t.Errorf("the redirect map as JSON: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, write, "GET", p+"/handoff/routes"); rec.Code != 200 || !strings.Contains(rec.Body.String(), "Pricing") {
		t.Errorf("the routes handoff: %d %.200s", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, write, "GET", p+"/redirects/export?format=lighttpd"); rec.Code != 404 {
		t.Errorf("a platform not known: %d", rec.Code)
	}
	apiCall(t, c, router, write, "POST", p+"/versions", `{"name": "Before"}`)
	tr, _ := c.db.Pages.Tree(ctx, pid)
	c.db.Pages.RenamePage(ctx, ids["Pricing"], "Prices", tr.Page(ids["Pricing"]).Version)
	rec, body = apiCall(t, c, router, write, "POST", p+"/versions/1/restore")
	if after, _ := c.db.Pages.Page(ctx, ids["Pricing"]); rec.Code != 200 || after.Title != "Pricing" || !strings.Contains(body["summary"].(string), "restored version 1") {
		t.Errorf("restored: %d %s, Pricing is %q", rec.Code, rec.Body, after.Title)
	}
}

// TestAPILinksCommentsSharing: cross-links added, listed and removed; a
// comment under the token's person's name, listed among the open
// threads; a share link made by an admin token (its address once) and
// revoked, refused to a write token.
func TestAPILinksCommentsSharing(t *testing.T) {
	c := newClient(t)
	_, router := contract(t)
	pid, ids := c.fixture()
	write, admin := c.apiToken(site.ScopeWrite, 0), c.apiToken(site.ScopeAdmin, 0)
	p := "/api/v1/projects/" + itoa(pid)
	rec, body := apiCall(t, c, router, write, "POST", p+"/links", `{"from": `+itoa(ids["Home"])+`, "to": `+itoa(ids["Contact"])+`, "label": "footer CTA"}`)
	if rec.Code != 201 || body["label"] != "footer CTA" {
		t.Fatalf("a link: %d %s", rec.Code, rec.Body)
	}
	lid := itoa(int64(body["id"].(float64)))
	if _, body := apiCall(t, c, router, write, "GET", p+"/links"); len(body["items"].([]any)) < 2 {
		t.Errorf("links: %v", body)
	}
	if rec, _ := apiCall(t, c, router, write, "DELETE", p+"/links/"+lid); rec.Code != 204 {
		t.Errorf("link removed: %d", rec.Code)
	}
	rec, body = apiCall(t, c, router, write, "POST", p+"/pages/"+itoa(ids["Pricing"])+"/comments", `{"body": "Yearly prices too?"}`)
	if rec.Code != 201 || body["author"] != "Olive Owner" || body["guest"] != false {
		t.Errorf("a comment: %d %s", rec.Code, rec.Body)
	}
	if _, body := apiCall(t, c, router, write, "GET", p+"/comments"); len(body["items"].([]any)) != 1 {
		t.Errorf("open threads: %v", body)
	}
	if rec, _ := apiCall(t, c, router, write, "POST", p+"/share-links", `{"role": "view"}`); rec.Code != 403 {
		t.Errorf("a write token shares: %d", rec.Code)
	}
	rec, body = apiCall(t, c, router, admin, "POST", p+"/share-links", `{"role": "comment", "label": "Client", "expires": "30d"}`)
	if rec.Code != 201 || !strings.Contains(body["url"].(string), "/s/") || body["active"] != true {
		t.Fatalf("a share link: %d %s", rec.Code, rec.Body)
	}
	sid := itoa(int64(body["id"].(float64)))
	if _, body := apiCall(t, c, router, admin, "GET", p+"/share-links"); strings.Contains(fmt.Sprint(body), "/s/") {
		t.Errorf("the list shows a link's address: %v", body)
	}
	if rec, _ := apiCall(t, c, router, admin, "DELETE", p+"/share-links/"+sid); rec.Code != 204 {
		t.Errorf("revoked: %d", rec.Code)
	}
}

// TestAPITreeTests: a tree test made through the API on the plan's page
// ids, its link given once and working, listed, and its results read
// as the CLI's JSON once a participant took it.
func TestAPITreeTests(t *testing.T) {
	c := newClient(t)
	_, router := contract(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	write := c.apiToken(site.ScopeWrite, 0)
	p := "/api/v1/projects/" + itoa(pid)
	rec, body := apiCall(t, c, router, write, "POST", p+"/treetests", `{"name": "Round 1", "tasks": [{"text": "Where are the prices?", "correct": [`+itoa(ids["Pricing"])+`]}]}`)
	if rec.Code != 201 || !strings.Contains(body["link"].(string), "/t/") || body["tasks"] != 1.0 {
		t.Fatalf("made: %d %s", rec.Code, rec.Body)
	}
	sid := itoa(int64(body["id"].(float64)))
	if rec, body := apiCall(t, c, router, write, "POST", p+"/treetests", `{"name": "Bad", "tasks": [{"text": "Where?", "correct": []}]}`); rec.Code != 422 || !strings.Contains(body["detail"].(string), "Task 1") {
		t.Errorf("a task without a correct page: %d %v", rec.Code, body)
	}
	if _, body := apiCall(t, c, router, write, "GET", p+"/treetests"); len(body["items"].([]any)) != 1 {
		t.Errorf("listed: %v", body)
	}
	st, _ := c.db.TreeTests.Study(ctx, int64(body["id"].(float64)))
	part, _, _ := c.db.TreeTests.Join(ctx, st, nil, []string{"1"})
	c.db.TreeTests.Record(ctx, part, []site.TreeEvent{{Task: "1", Kind: site.TreeStart}, {Task: "1", Kind: site.TreeOpen, PageID: ids["Products"], At: 500},
		{Task: "1", Kind: site.TreeOpen, PageID: ids["Pricing"], At: 900}, {Task: "1", Kind: site.TreeChoose, PageID: ids["Pricing"], At: 1200}})
	rec, body = apiCall(t, c, router, write, "GET", p+"/treetests/"+sid+"/results")
	tasks, _ := body["tasks"].([]any)
	if rec.Code != 200 || body["participants"] != 1.0 || len(tasks) != 1 || tasks[0].(map[string]any)["direct_success"] != 1.0 {
		t.Errorf("results: %d %.400s", rec.Code, rec.Body)
	}
	// The correct pages changed afterwards: the results follow (treetest correct).
	rec, body = apiCall(t, c, router, write, "POST", p+"/treetests/"+sid+"/correct", `{"task": "1", "add": [`+itoa(ids["Products"])+`], "remove": [`+itoa(ids["Pricing"])+`]}`)
	if correct, _ := body["correct"].([]any); rec.Code != 200 || len(correct) != 1 || correct[0] != float64(ids["Products"]) {
		t.Errorf("correct: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, write, "POST", p+"/treetests/"+sid+"/correct", `{"task": "9"}`); rec.Code != 422 {
		t.Errorf("no such task: %d", rec.Code)
	}
	// The participant chose Pricing, no longer correct: a fail now.
	rec, _ = apiCall(t, c, router, write, "GET", p+"/treetests/"+sid+"/files/outcomes.csv")
	rows, err := csv.NewReader(strings.NewReader(rec.Body.String())).ReadAll()
	if rec.Code != 200 || err != nil || len(rows) != 2 || rows[0][2] != "outcome" || rows[1][2] != "fail" {
		t.Errorf("outcomes.csv after the correction: %d %v %q", rec.Code, err, rows)
	}
}

// TestAPISettingsWebhooks: the project's settings changed with If-Match
// (412 when stale), and the team's webhooks added (the secret once),
// listed and removed by an admin token, refused to a write token.
func TestAPISettingsWebhooks(t *testing.T) {
	c := newClient(t)
	doc, router := contract(t)
	pid, _ := c.fixture()
	write, admin := c.apiToken(site.ScopeWrite, 0), c.apiToken(site.ScopeAdmin, 0)
	p := "/api/v1/projects/" + itoa(pid)
	rec, _ := apiCall(t, c, router, write, "GET", p)
	etag := rec.Header().Get("ETag")
	rec, body := apiCallWith(t, c, router, write, map[string]string{"If-Match": etag}, "PATCH", p, `{"name": "Acme 2027", "trailing_slash": true}`)
	if rec.Code != 200 || body["name"] != "Acme 2027" || body["trailing_slash"] != true || rec.Header().Get("ETag") == etag {
		t.Fatalf("settings: %d %s", rec.Code, rec.Body)
	}
	if rec, body := apiCallWith(t, c, router, write, map[string]string{"If-Match": etag}, "PATCH", p, `{"name": "Stale"}`); rec.Code != 412 || body["code"] != "precondition_failed" {
		t.Errorf("a stale If-Match: %d %v", rec.Code, body)
	}
	if rec, _ := apiCall(t, c, router, write, "PATCH", p, `{"base_url": "not a url"}`); rec.Code != 422 {
		t.Errorf("a bad base URL: %d", rec.Code)
	}
	if rec, _ := apiCall(t, c, router, write, "POST", "/api/v1/webhooks", `{"url": "https://hooks.example/x"}`); rec.Code != 403 {
		t.Errorf("a write token adds a webhook: %d", rec.Code)
	}
	rec, body = apiCall(t, c, router, admin, "POST", "/api/v1/webhooks", `{"url": "https://hooks.example/x", "events": ["signoff"]}`)
	if rec.Code != 201 || body["secret"] == "" || body["format"] != "json" {
		t.Fatalf("a webhook: %d %s", rec.Code, rec.Body)
	}
	wid := itoa(int64(body["id"].(float64)))
	if _, body := apiCall(t, c, router, admin, "GET", "/api/v1/webhooks"); strings.Contains(fmt.Sprint(body), "secret") || len(body["items"].([]any)) != 1 {
		t.Errorf("the list: %v", body)
	}
	if rec, _ := apiCall(t, c, router, admin, "DELETE", "/api/v1/webhooks/"+wid); rec.Code != 204 {
		t.Errorf("removed: %d", rec.Code)
	}
	var kinds []string
	for _, v := range doc.Paths.Find("/webhooks").Post.RequestBody.Value.Content["application/json"].Schema.Value.Properties["events"].Value.Items.Value.Enum {
		kinds = append(kinds, v.(string))
	}
	if !sameSet(kinds, site.EventKinds) {
		t.Errorf("openapi.yaml's webhook events %v, the code's %v", kinds, site.EventKinds)
	}
}

// TestAPIAttachTraffic: the old site's URLs of a text list attached and
// matched to the plan, then a Search Console export's clicks read onto
// them; the map as JSON shows both.
func TestAPIAttachTraffic(t *testing.T) {
	c := newClient(t)
	_, router := contract(t)
	pid, _ := c.fixture()
	write := c.apiToken(site.ScopeWrite, 0)
	p := "/api/v1/projects/" + itoa(pid)
	text := map[string]string{"Content-Type": "text/plain"}
	if rec, body := apiCallWith(t, c, router, write, map[string]string{"Content-Type": "text/csv"}, "POST", p+"/redirects/traffic", "Top pages,Clicks\n"); rec.Code != 422 || !strings.Contains(body["detail"].(string), "old site first") {
		t.Errorf("clicks before the old site: %d %v", rec.Code, body)
	}
	rec, body := apiCallWith(t, c, router, write, text, "POST", p+"/redirects/attach", "https://old.acme.example/pricing\nhttps://old.acme.example/team\nhttps://old.acme.example/gone\n")
	if rec.Code != 200 || body["added"] != 3.0 {
		t.Fatalf("attached: %d %s", rec.Code, rec.Body)
	}
	csv := "Top pages,Clicks,Impressions\nhttps://old.acme.example/pricing,\"1,200\",40000\nhttps://old.acme.example/elsewhere,3,90\n"
	rec, body = apiCallWith(t, c, router, write, map[string]string{"Content-Type": "text/csv"}, "POST", p+"/redirects/traffic", csv)
	if rec.Code != 200 || body["matched"] != 1.0 || body["of"] != 2.0 {
		t.Errorf("traffic: %d %s", rec.Code, rec.Body)
	}
	rec, body = apiCall(t, c, router, write, "GET", p+"/redirects")
	found := false
	for _, it := range body["items"].([]any) {
		r := it.(map[string]any)
		if r["from"] == "https://old.acme.example/pricing" {
			found = r["clicks"] == 1200.0 && strings.HasSuffix(r["to"].(string), "/pricing")
		}
	}
	if !found {
		t.Errorf("the map: %s", rec.Body)
	}
}

// apiToken is an API token of the client's owner of scope, limited to
// project (0: all of the team's).
func (c *client) apiToken(scope string, project int64) string {
	c.t.Helper()
	owner, err := c.db.Accounts.UserByEmail(context.Background(), "owner@test.example")
	if err != nil {
		c.t.Fatal(err)
	}
	tok := site.APIToken{TeamID: 1, UserID: owner.ID, CreatedBy: owner.ID, Scope: scope, ProjectID: project, Name: scope, ExpiresAt: time.Now().Add(time.Hour)}
	raw, err := c.db.Tokens.CreateToken(context.Background(), &tok)
	if err != nil {
		c.t.Fatal(err)
	}
	return raw
}

// TestAPIProposals: a program proposes as operations, a document and a
// Mermaid diagram; reads a proposal with its changes and sections;
// accepts a section, then the rest; a stale acceptance names who
// changed the page; a proposal is rejected and commented on; the plan is
// replaced by a document with If-Match. Every answer against the
// contract.
func TestAPIProposals(t *testing.T) {
	c := newClient(t)
	_, router := contract(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	write, read := c.apiToken(site.ScopeWrite, 0), c.apiToken(site.ScopeRead, 0)
	p := "/api/v1/projects/" + itoa(pid)
	home, pricing := itoa(ids["Home"]), itoa(ids["Pricing"])
	rec, body := apiCall(t, c, router, write, "POST", p+"/proposals", `{"title": "Careers", "operations": [
		{"op": "add", "key": "careers", "parent": "#`+home+`", "title": "Careers"},
		{"op": "add", "parent": "careers", "title": "Jobs"},
		{"op": "update", "page": "`+pricing+`", "title": "Plans"}]}`)
	if rec.Code != 201 || body["number"] != 1.0 || body["state"] != "open" || body["source"] != "api" || rec.Header().Get("Location") != p+"/proposals/1" {
		t.Fatalf("proposed: %d %s", rec.Code, rec.Body)
	}
	branches, _ := body["branches"].([]any)
	var careers float64
	for _, b := range branches {
		if b := b.(map[string]any); b["title"] == "Careers" {
			careers = b["page"].(float64)
		}
	}
	if len(branches) != 2 || careers >= 0 {
		t.Fatalf("branches: %v", branches)
	}
	if rec, body := apiCall(t, c, router, read, "POST", p+"/proposals", `{"title": "x", "operations": [{"op": "delete", "page": "1"}]}`); rec.Code != 403 {
		t.Errorf("a read token's proposal: %d %v", rec.Code, body)
	}
	rec, body = apiCall(t, c, router, write, "POST", p+"/proposals", `{"title": "", "operations": [{"op": "delete", "page": "`+pricing+`"}]}`)
	if fields, _ := body["errors"].(map[string]any); rec.Code != 422 || fields["title"] == nil {
		t.Errorf("no title: %d %s", rec.Code, rec.Body)
	}
	if rec, body := apiCall(t, c, router, write, "POST", p+"/proposals", `{"title": "Two ways", "mermaid": "mindmap\n  Home", "operations": [{"op": "delete", "page": "1"}]}`); rec.Code != 422 ||
		!strings.Contains(body["detail"].(string), "one way") {
		t.Errorf("two ways at once: %d %v", rec.Code, body)
	}
	if rec, _ := apiCall(t, c, router, read, "GET", p+"/proposals"); rec.Code != 200 {
		t.Errorf("list: %d", rec.Code)
	}
	rec, body = apiCall(t, c, router, write, "POST", p+"/proposals/1/accept", `{"branch": `+strconv.FormatFloat(careers, 'f', 0, 64)+`}`)
	if prop, _ := body["proposal"].(map[string]any); rec.Code != 200 || prop["state"] != "open" || !strings.Contains(body["summary"].(string), "the branch “Careers”") {
		t.Fatalf("a section accepted: %d %s", rec.Code, rec.Body)
	}
	tr, _ := c.db.Pages.Tree(ctx, pid)
	if _, err := c.db.Pages.RenamePage(site.WithViewer(ctx, site.Viewer{Name: "Bob"}), ids["Pricing"], "Prices", tr.Page(ids["Pricing"]).Version); err != nil {
		t.Fatal(err)
	}
	if rec, body := apiCall(t, c, router, write, "POST", p+"/proposals/1/accept"); rec.Code != 409 || !strings.Contains(body["detail"].(string), "Bob renamed") {
		t.Errorf("accepting a page changed since: %d %v", rec.Code, body)
	}
	if rec, body := apiCall(t, c, router, write, "POST", p+"/proposals/1/comments", `{"body": "Bob renamed it meanwhile."}`); rec.Code != 201 || body["author"] == "" {
		t.Errorf("a comment: %d %v", rec.Code, body)
	}
	rec, body = apiCall(t, c, router, write, "POST", p+"/proposals/1/reject")
	if rec.Code != 200 || body["state"] != "rejected" || len(body["comments"].([]any)) != 1 {
		t.Errorf("rejected: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, write, "POST", p+"/proposals/1/accept"); rec.Code != 409 {
		t.Errorf("accepting a rejected proposal: %d", rec.Code)
	}
	rec, body = apiCall(t, c, router, write, "POST", p+"/proposals", `{"title": "Press", "mermaid": "flowchart TD\n p`+home+`([Home]) --> press[Press]"}`)
	if rec.Code != 201 || body["source"] != "api" {
		t.Errorf("a Mermaid proposal: %d %s", rec.Code, rec.Body)
	}
	// The plan replaced by a document, with If-Match.
	rec, _ = apiCall(t, c, router, read, "GET", p+"/plan")
	etag := rec.Header().Get("ETag")
	var doc site.Document
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	doc.Project.Name = "Acme, replaced"
	doc.Pages[0].Children = append(doc.Pages[0].Children, &site.DocPage{Title: "Newsroom"})
	b, _ := json.Marshal(doc)
	rec, _ = apiCallWith(t, c, router, write, map[string]string{"If-Match": `"v1"`}, "PUT", p+"/plan", string(b))
	if rec.Code != 412 {
		t.Errorf("a stale replacement: %d %s", rec.Code, rec.Body)
	}
	rec, body = apiCallWith(t, c, router, write, map[string]string{"If-Match": etag}, "PUT", p+"/plan", string(b))
	if rec.Code != 200 || rec.Header().Get("ETag") == etag || !strings.Contains(body["summary"].(string), "replaced the plan") {
		t.Fatalf("replaced: %d %s", rec.Code, rec.Body)
	}
	pr, _ := c.db.Projects.Project(ctx, pid)
	if pr.Name != "Acme, replaced" {
		t.Errorf("name %q", pr.Name)
	}
	if !strings.Contains(shapeOf(c.db, pid), "Newsroom") {
		t.Errorf("plan: %s", shapeOf(c.db, pid))
	}
}

// TestAPIAttachBySite: the old site named by its address is read in the
// background, as the editor reads it; the job's state says what the
// attach changed.
func TestAPIAttachBySite(t *testing.T) {
	c := siteClient(t)
	_, router := contract(t)
	pid, _ := c.fixture()
	var old *httptest.Server
	old = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/sitemap.xml" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%[1]s/pricing</loc></url><url><loc>%[1]s/team</loc></url></urlset>`, old.URL)
	}))
	defer old.Close()
	write := c.apiToken(site.ScopeWrite, 0)
	p := "/api/v1/projects/" + itoa(pid)
	if rec, body := apiCall(t, c, router, write, "POST", p+"/redirects/attach", `{"site": " "}`); rec.Code != 422 || body["errors"] == nil {
		t.Errorf("no address: %d %s", rec.Code, rec.Body)
	}
	rec, body := apiCall(t, c, router, write, "POST", p+"/redirects/attach", `{"site": "`+old.URL+`/sitemap.xml"}`)
	id, _ := body["id"].(string)
	if rec.Code != 202 || id == "" || rec.Header().Get("Location") != p+"/jobs/"+id {
		t.Fatalf("started: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	c.finished("/sites/jobs/" + id)
	rec, body = apiCall(t, c, router, write, "GET", p+"/jobs/"+id)
	attached, _ := body["attached"].(map[string]any)
	if rec.Code != 200 || body["state"] != "done" || attached["urls"] != 2.0 || attached["added"] != 2.0 {
		t.Errorf("its state: %d %s", rec.Code, rec.Body)
	}
	owner, _ := c.db.Accounts.UserByEmail(context.Background(), "owner@test.example")
	team := site.APIToken{TeamID: 1, CreatedBy: owner.ID, Scope: site.ScopeRead, Name: "CI", ExpiresAt: time.Now().Add(time.Hour)}
	teamToken, _ := c.db.Tokens.CreateToken(context.Background(), &team)
	if rec, _ := apiCall(t, c, router, teamToken, "GET", p+"/jobs/"+id); rec.Code != 404 {
		t.Errorf("someone else's job: %d", rec.Code)
	}
}

// TestAPIVerbs: the routes of the command line's other verbs: the
// diagram, the briefs' SEO checks, a spreadsheet of redirect decisions
// (the map's own CSV read back), and a check of a site's sitemaps.
func TestAPIVerbs(t *testing.T) {
	c := siteClient(t)
	_, router := contract(t)
	pid, _ := c.fixture()
	write := c.apiToken(site.ScopeWrite, 0)
	p := "/api/v1/projects/" + itoa(pid)
	rec, _ := apiCall(t, c, router, write, "GET", p+"/diagram/svg?depth=2")
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "image/svg+xml") || !strings.Contains(rec.Body.String(), "<svg") {
		t.Errorf("the diagram: %d %.200s", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, write, "GET", p+"/diagram/mermaid"); rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "flowchart") {
		t.Errorf("the diagram as Mermaid: %d %.200s", rec.Code, rec.Body)
	}
	if rec, body := apiCall(t, c, router, write, "GET", p+"/diagram/bmp"); rec.Code != 404 || body["code"] != "not_found" {
		t.Errorf("no such format: %d %v", rec.Code, body)
	}
	if rec, body := apiCall(t, c, router, write, "GET", p+"/lint"); rec.Code != 200 || body["pages"].(float64) < 1 || body["problems"] == nil {
		t.Errorf("lint: %d %.300s", rec.Code, rec.Body)
	}
	text := map[string]string{"Content-Type": "text/plain"}
	if rec, _ := apiCallWith(t, c, router, write, text, "POST", p+"/redirects/attach", "https://old.acme.example/pricing\nhttps://old.acme.example/gone\n"); rec.Code != 200 {
		t.Fatalf("attached: %d %s", rec.Code, rec.Body)
	}
	rec, _ = apiCall(t, c, router, write, "GET", p+"/redirects/export?format=csv")
	csv := map[string]string{"Content-Type": "text/csv"}
	rec, body := apiCallWith(t, c, router, write, csv, "POST", p+"/redirects/import", rec.Body.String())
	if rec.Code != 200 || body["rows"] != 2.0 || body["added"] != 0.0 {
		t.Errorf("the map's own CSV read back: %d %s", rec.Code, rec.Body)
	}
	if rec, body := apiCallWith(t, c, router, write, csv, "POST", p+"/redirects/import", "from,to\nnot a url,/x\n"); rec.Code != 422 || !strings.Contains(body["detail"].(string), "Nothing was imported") {
		t.Errorf("a bad row: %d %v", rec.Code, body)
	}
	var old *httptest.Server
	old = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/sitemap.xml" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/a</loc><lastmod>2026-13-40</lastmod></url></urlset>`, old.URL)
	}))
	defer old.Close()
	rec, body = apiCall(t, c, router, write, "POST", "/api/v1/checks", `{"source": "`+old.URL+`/sitemap.xml"}`)
	id, _ := body["id"].(string)
	if rec.Code != 202 || rec.Header().Get("Location") != "/api/v1/checks/"+id {
		t.Fatalf("a check started: %d %s", rec.Code, rec.Body)
	}
	waitFor(t, func() bool {
		_, body = apiCall(t, c, router, write, "GET", "/api/v1/checks/"+id)
		return body["state"] == "done" || body["state"] == "failed"
	}, "the check to end")
	if body["state"] != "done" || body["errors"] != 1.0 || body["report"] == nil {
		t.Errorf("the check: %v", body)
	}
}

// TestAPIEstimate: the team's rate card set through the API prices the
// plan (its lines add up to its total, to the cent); a version keeps its
// card when the project's own raises the rate; two compare; the
// workbook downloads; the project's card cleared, the team's is back.
func TestAPIEstimate(t *testing.T) {
	c := newClient(t)
	_, router := contract(t)
	pid, _ := c.fixture()
	admin := c.apiToken(site.ScopeAdmin, 0)
	p := "/api/v1/projects/" + itoa(pid)
	if rec, _ := apiCall(t, c, router, admin, "GET", p+"/estimate"); rec.Code != 404 {
		t.Errorf("an estimate without a card: %d", rec.Code)
	}
	card := `{"currency": "EUR", "hourly_rate": 95, "types": {"product": {"first_hours": 16, "each_hours": 1.5},
		"*": {"first_hours": 8, "each_hours": 2}}, "blocks": {"*": 0.5}, "per_100_words_hours": 0.25,
		"fixed": [{"name": "Discovery", "hours": 24}], "margin_percent": 15}`
	if rec, body := apiCall(t, c, router, admin, "PUT", "/api/v1/ratecard", card); rec.Code != 200 || body["hourly_rate"] != 95.0 {
		t.Fatalf("the team's card: %d %s", rec.Code, rec.Body)
	}
	if rec, body := apiCall(t, c, router, admin, "PUT", "/api/v1/ratecard", `{"currency": "EUR", "hourly_rate": 95.001}`); rec.Code != 422 ||
		!strings.Contains(body["detail"].(string), "hourly_rate") {
		t.Errorf("a card with a third decimal: %d %v", rec.Code, body)
	}
	rec, body := apiCall(t, c, router, admin, "GET", p+"/estimate")
	var sum float64
	for _, l := range body["lines"].([]any) {
		sum += l.(map[string]any)["amount_minor"].(float64)
	}
	if rec.Code != 200 || sum != body["total_minor"].(float64) || sum == 0 {
		t.Fatalf("the estimate: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, admin, "POST", p+"/versions", `{"name": "Priced"}`); rec.Code != 201 {
		t.Fatal(rec.Body)
	}
	if rec, _ := apiCall(t, c, router, admin, "PUT", p+"/ratecard", `{"currency": "EUR", "hourly_rate": 190, "types": {"*": {"first_hours": 8, "each_hours": 2}}}`); rec.Code != 200 {
		t.Fatal(rec.Body)
	}
	if rec, _ := apiCall(t, c, router, admin, "GET", p+"/ratecard"); rec.Header().Get("Rate-Card-Of") != "project" {
		t.Errorf("the project's card: %v", rec.Header())
	}
	if rec, v1 := apiCall(t, c, router, admin, "GET", p+"/estimate?version=1"); rec.Code != 200 || v1["total_minor"] != body["total_minor"] {
		t.Errorf("version 1 is priced by the card it kept: %v, want %v", v1["total_minor"], body["total_minor"])
	}
	rec, diff := apiCall(t, c, router, admin, "GET", p+"/estimate?from=1")
	if changes, _ := diff["changes"].([]any); rec.Code != 200 || len(changes) == 0 || diff["total_minor_from"] != body["total_minor"] {
		t.Errorf("compared: %d %s", rec.Code, rec.Body)
	}
	rec, _ = apiCall(t, c, router, admin, "GET", p+"/estimate?format=xlsx")
	if rec.Code != 200 || !bytes.HasPrefix(rec.Body.Bytes(), []byte("PK")) {
		t.Errorf("the workbook: %d %.40q", rec.Code, rec.Body)
	}
	if rec, _ := apiCall(t, c, router, admin, "DELETE", p+"/ratecard"); rec.Code != 204 {
		t.Errorf("cleared: %d", rec.Code)
	}
	if rec, _ := apiCall(t, c, router, admin, "GET", p+"/ratecard"); rec.Header().Get("Rate-Card-Of") != "team" {
		t.Errorf("after clearing: %v", rec.Header())
	}
}
