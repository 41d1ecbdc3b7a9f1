package web

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"siteplan/site"
	"siteplan/store"
)

// The actors of the access matrix.
const (
	anon         = "anonymous"
	otherTeam    = "other team"
	viewerRole   = "viewer"
	editorRole   = "editor"
	ownerRole    = "owner"
	shareView    = "share view"
	shareComment = "share comment"
)

var actors = []string{anon, otherTeam, viewerRole, editorRole, ownerRole, shareView, shareComment}

// The API's actors besides: API tokens of each scope (team tokens of
// the Acme team, and an owner's personal admin token), of the other
// team, and one revoked. They call the API routes alone: elsewhere a
// token is no login.
const (
	tokenRead    = "token read"
	tokenWrite   = "token write"
	tokenAdmin   = "token admin"
	tokenRival   = "token of the other team"
	tokenRevoked = "token revoked"
)

var tokenActors = []string{tokenRead, tokenWrite, tokenAdmin, tokenRival, tokenRevoked}

// tokenAccessOf is each token's access to the Acme plan, and
// tokenRoleOf the role it acts in, in its team.
var (
	tokenAccessOf = map[string]site.Access{tokenRead: site.AccessRead, tokenWrite: site.AccessEdit, tokenAdmin: site.AccessManage}
	tokenRoleOf   = map[string]string{tokenRead: site.RoleViewer, tokenWrite: site.RoleEditor, tokenAdmin: site.RoleOwner, tokenRival: site.RoleOwner}
)

// world is the database every access case starts from: team 1 with an
// owner, an editor and a viewer and the Acme plan (with a comment, a
// link, an invite and two share links); team 2 with its own secret plan.
type world struct {
	file    []byte // the database, copied for each case
	ids     map[string]int64
	cookies map[string][]*http.Cookie // per actor
	bearer  map[string]string         // the token actors' API tokens
	tokens  map[string]string         // the invite's and the share links' tokens
}

const csrfToken = "access-test-csrf-token-0123456789abcd"

func buildWorld(t *testing.T) *world {
	t.Helper()
	path := filepath.Join(t.TempDir(), "world.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	w := &world{cookies: map[string][]*http.Cookie{}, tokens: map[string]string{}, bearer: map[string]string{}}
	c := &client{t: t, db: db}
	pid, ids := c.fixture()
	w.ids = ids
	w.ids["project"] = pid
	var logo bytes.Buffer
	png.Encode(&logo, image.NewGray(image.Rect(0, 0, 4, 2)))
	if err := db.Themes.SetTheme(ctx, pid, site.Theme{Agency: "Agency", Logo: logo.Bytes()}); err != nil {
		t.Fatal(err)
	}
	users := map[string]site.User{
		ownerRole:  addUser(t, db, "olive@agency.example", "Olive Owner", "1", site.RoleOwner),
		editorRole: addUser(t, db, "ed@agency.example", "Ed Editor", "1", site.RoleEditor),
		viewerRole: addUser(t, db, "vi@agency.example", "Vi Viewer", "1", site.RoleViewer),
		otherTeam:  addUser(t, db, "rex@rival.example", "Rex Rival", "Rival studio", site.RoleOwner),
	}
	addUser(t, db, "otto@agency.example", "Otto Owner", "1", site.RoleOwner) // so an owner may leave
	w.ids["user"] = users[viewerRole].ID
	for a, u := range users {
		ms, _ := db.Teams.Memberships(ctx, u.ID)
		tok, err := db.Accounts.CreateSession(ctx, u.ID, ms[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		w.cookies[a] = []*http.Cookie{{Name: sessionCookie, Value: tok}}
	}
	for a, role := range map[string]string{shareView: site.ShareView, shareComment: site.ShareComment} {
		l := site.ShareLink{ProjectID: pid, Role: role}
		tok, err := db.Sharing.CreateShareLink(ctx, &l)
		if err != nil {
			t.Fatal(err)
		}
		w.cookies[a] = []*http.Cookie{{Name: shareCookie, Value: tok}}
		w.ids["share"] = l.ID
		w.tokens[role] = tok
	}
	cm := site.Comment{ProjectID: pid, PageID: ids["Pricing"], Author: "Client", Body: "Yearly prices?"}
	if err := db.Comments.AddComment(ctx, &cm, 0); err != nil {
		t.Fatal(err)
	}
	w.ids["comment"] = cm.ID
	l := site.Link{ProjectID: pid, FromID: ids["Team"], ToID: ids["Blog"]}
	if err := db.Links.AddLink(ctx, &l); err != nil {
		t.Fatal(err)
	}
	w.ids["link"] = l.ID
	if _, err := db.Pages.DeletePage(ctx, ids["Later"]); err != nil {
		t.Fatal(err)
	}
	hist, err := db.History.History(ctx, pid, 0, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	w.ids["deletion"] = hist[0].ID
	if _, err := db.History.CreateVersion(ctx, pid, "Kickoff"); err != nil {
		t.Fatal(err)
	}
	signed, err := db.History.Approve(ctx, pid, 1, 0, "Carla Client")
	if err != nil {
		t.Fatal(err)
	}
	w.ids["approval"] = signed.ID
	inv, err := db.Sharing.CreateInvite(ctx, 1, users[ownerRole].ID, site.RoleViewer, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	w.tokens["invite"] = inv
	study := site.Study{ProjectID: pid, Version: 1, Name: "Navigation", Tasks: []site.TreeTask{{Text: "Where are the prices?", Correct: []int64{ids["Pricing"]}}}}
	if w.tokens["study"], err = db.TreeTests.CreateStudy(ctx, &study); err != nil {
		t.Fatal(err)
	}
	w.ids["study"] = study.ID
	card, err := site.ParseRateCard(strings.NewReader(`{"currency": "EUR", "hourly_rate": 95, "types": {"*": {"first_hours": 8, "each_hours": 2}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RateCards.SetRateCard(ctx, 1, 0, card); err != nil {
		t.Fatal(err)
	}
	doc, err := db.Projects.Document(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	prices := "Prices"
	if err := doc.ApplyOps([]site.ProposalOp{{Op: "update", Page: itoa(ids["Pricing"]), Title: &prices}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Proposals.Propose(ctx, pid, site.ProposalDraft{Title: "Prices", Source: site.SourceMCP, Doc: doc}); err != nil {
		t.Fatal(err)
	}
	for _, tok := range []site.APIToken{{TeamID: 1, UserID: users[ownerRole].ID, Name: "Mine"}, {TeamID: 1, Name: "The team's"}} {
		tok.CreatedBy, tok.Scope, tok.ExpiresAt = users[ownerRole].ID, site.ScopeRead, time.Now().Add(time.Hour)
		if _, err := db.Tokens.CreateToken(ctx, &tok); err != nil {
			t.Fatal(err)
		}
		w.ids["token "+tok.Name] = tok.ID
	}
	rivalTeam, _ := db.Teams.Memberships(ctx, users[otherTeam].ID)
	for actor, tok := range map[string]site.APIToken{
		tokenRead:    {TeamID: 1, CreatedBy: users[ownerRole].ID, Scope: site.ScopeRead},
		tokenWrite:   {TeamID: 1, CreatedBy: users[ownerRole].ID, Scope: site.ScopeWrite},
		tokenAdmin:   {TeamID: 1, UserID: users[ownerRole].ID, CreatedBy: users[ownerRole].ID, Scope: site.ScopeAdmin},
		tokenRival:   {TeamID: rivalTeam[0].ID, CreatedBy: users[otherTeam].ID, Scope: site.ScopeAdmin},
		tokenRevoked: {TeamID: 1, CreatedBy: users[ownerRole].ID, Scope: site.ScopeAdmin},
	} {
		tok.Name, tok.ExpiresAt = actor, time.Now().Add(time.Hour)
		raw, err := db.Tokens.CreateToken(ctx, &tok)
		if err != nil {
			t.Fatal(err)
		}
		w.bearer[actor] = raw
		if actor == tokenRevoked {
			if err := db.Tokens.RevokeToken(ctx, 1, 0, tok.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	invs, _ := db.Sharing.Invites(ctx, 1)
	w.ids["invite"] = invs[0].ID
	ms, _ := db.Teams.Memberships(ctx, users[otherTeam].ID)
	w.ids["team2"] = ms[0].ID
	rival := site.Project{TeamID: ms[0].ID, Name: "Rival secret plan", BaseURL: "https://rival.example/"}
	if err := db.Projects.CreateProject(ctx, &rival); err != nil {
		t.Fatal(err)
	}
	if err := db.Projects.RenameProject(ctx, pid, "Acme Zebra-7 relaunch"); err != nil {
		t.Fatal(err)
	}
	pr, _ := db.Projects.Project(ctx, pid)
	w.ids["version"] = pr.Version
	pg, _ := db.Pages.Page(ctx, ids["Pricing"])
	w.ids["pageVersion"] = pg.Version
	db.Close()
	if w.file, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	return w
}

// serve runs one request against a fresh copy of the world.
func (w *world) serve(t *testing.T, actor, method, path string, form url.Values) *httptest.ResponseRecorder {
	t.Helper()
	path2 := filepath.Join(t.TempDir(), "case.db")
	if err := os.WriteFile(path2, w.file, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path2)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := New(partsOf(db), staticFS, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{})
	defer srv.Close() // its background workers end before the database closes and its directory goes
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.AddCookie(&http.Cookie{Name: "_csrf", Value: csrfToken})
	req.Header.Set("X-CSRF-Token", csrfToken)
	for _, ck := range w.cookies[actor] {
		req.AddCookie(ck)
	}
	if tok := w.bearer[actor]; tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	if strings.HasSuffix(path, "/events") { // a stream: end it after a moment
		ctx, cancel := context.WithTimeout(req.Context(), 30*time.Millisecond)
		defer cancel()
		req = req.WithContext(ctx)
	}
	rec := httptest.NewRecorder()
	srv.Echo.ServeHTTP(rec, req)
	return rec
}

// accessCase is one row of the matrix: how to call a route, what it
// answers when allowed, and per-actor answers that differ.
type accessCase struct {
	path     string // with the world's ids filled in
	form     url.Values
	ok       int
	override map[string]int
}

// projectAccessOf is each actor's access to the Acme plan.
var projectAccessOf = map[string]site.Access{
	anon: site.AccessNone, otherTeam: site.AccessNone, viewerRole: site.AccessComment, editorRole: site.AccessEdit,
	ownerRole: site.AccessManage, shareView: site.AccessRead, shareComment: site.AccessComment,
}

// teamRoleOf is each actor's role in the team they work in.
var teamRoleOf = map[string]string{otherTeam: site.RoleOwner, viewerRole: site.RoleViewer, editorRole: site.RoleEditor, ownerRole: site.RoleOwner}

// want is the status an actor gets from a route by its need.
func (c accessCase) want(method string, n need, actor string) int {
	if s, ok := c.override[actor]; ok {
		return s
	}
	loggedOut := func() int {
		if method == http.MethodGet && !apiPath(c.path) {
			return http.StatusSeeOther
		}
		return http.StatusUnauthorized
	}
	role, hasAccount := teamRoleOf[actor]
	a := accessOf(actor)
	if apiPath(c.path) && (actor == shareView || actor == shareComment) && n != public {
		return loggedOut() // the API is for accounts and tokens: a share link's cookie is no login there
	}
	if slices.Contains(tokenActors, actor) {
		if actor == tokenRevoked {
			return http.StatusUnauthorized // whatever the route: a token that is no longer
		}
		role, hasAccount = tokenRoleOf[actor], true
	}
	switch n {
	case public:
		return c.ok
	case account, teamEdit, teamOwner:
		switch {
		case !hasAccount:
			return loggedOut()
		case n == teamEdit && site.RoleAccess(role) < site.AccessEdit, n == teamOwner && role != site.RoleOwner:
			return http.StatusForbidden
		}
		return c.ok
	}
	switch {
	case a == site.AccessNone && !hasAccount:
		return loggedOut()
	case a == site.AccessNone:
		return http.StatusNotFound
	case a < projectAccess[n], (n == projectResolve || n == projectTeam) && !hasAccount:
		return http.StatusForbidden
	}
	return c.ok
}

func TestAccessMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("the access matrix runs ~450 requests on fresh databases")
	}
	w := buildWorld(t)
	id := func(k string) string { return itoa(w.ids[k]) }
	p := "/projects/" + id("project")
	pg := p + "/pages/" + id("Pricing")
	v := func(kv ...string) url.Values {
		out := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			out.Add(kv[i], kv[i+1])
		}
		return out
	}
	logged := map[string]int{otherTeam: 303, viewerRole: 303, editorRole: 303, ownerRole: 303}
	// A share link has the downloads the team allows it, by default the
	// diagram as PDF and PNG: the rest do not exist for it.
	guestDownload := map[string]int{shareView: 404, shareComment: 404}
	sessionsRefused := map[string]int{otherTeam: 401, viewerRole: 401, editorRole: 401, ownerRole: 401}
	rows := map[string]accessCase{
		"GET /healthz": {path: "/healthz", ok: 200},

		"GET /favicon.ico":    {path: "/favicon.ico", ok: 200},
		"GET /static*":        {path: "/static/dist/app.js", ok: 200},
		"GET /login":          {path: "/login", ok: 200, override: logged},
		"POST /login":         {path: "/login", form: v("email", "olive@agency.example", "password", "wrong password"), ok: 401},
		"GET /signup":         {path: "/signup", ok: 303},
		"POST /signup":        {path: "/signup", form: v("email", "x@y.example", "name", "X", "password", testPassword, "team", "T"), ok: 403},
		"GET /invite/:token":  {path: "/invite/" + w.tokens["invite"], ok: 200},
		"POST /invite/:token": {path: "/invite/" + w.tokens["invite"], form: v("name", ""), ok: 303, override: map[string]int{anon: 422, shareView: 422, shareComment: 422}},
		"GET /s/:token":       {path: "/s/" + w.tokens[site.ShareView], ok: 303},
		// A tree test's participant page is anybody's with its link: it
		// shows its study's tree alone, and writes nothing but events.
		"GET /t/:token":         {path: "/t/" + w.tokens["study"], ok: 200},
		"POST /t/:token/start":  {path: "/t/" + w.tokens["study"] + "/start", form: v(), ok: 303},
		"POST /t/:token/step":   {path: "/t/" + w.tokens["study"] + "/step", form: v("open", id("Products")), ok: 303}, // not started: back to the intro
		"POST /logout":          {path: "/logout", ok: 303},
		"GET /":                 {path: "/", ok: 200},
		"POST /projects":        {path: "/projects", form: v("name", "New", "base_url", "https://new.example/"), ok: 303},
		"POST /projects/import": {path: "/projects/import", form: v(), ok: 422},
		"GET /team":             {path: "/team", ok: 200},
		// The API: tokens of each scope, of the other team, revoked.
		"GET /api/v1/openapi.json":                            {path: "/api/v1/openapi.json", ok: 200},
		"GET /api/v1/projects":                                {path: "/api/v1/projects", ok: 200},
		"GET /api/v1/projects/:id":                            {path: p2api(p), ok: 200},
		"GET /api/v1/projects/:id/plan":                       {path: p2api(p) + "/plan", ok: 200},
		"GET /api/v1/projects/:id/versions":                   {path: p2api(p) + "/versions", ok: 200},
		"PUT /api/v1/projects/:id/plan":                       {path: p2api(p) + "/plan", form: v("title", "Form"), ok: 422}, // a form, not a document
		"GET /api/v1/projects/:id/proposals":                  {path: p2api(p) + "/proposals", ok: 200},
		"GET /api/v1/projects/:id/estimate":                   {path: p2api(p) + "/estimate", ok: 200},
		"GET /api/v1/projects/:id/ratecard":                   {path: p2api(p) + "/ratecard", ok: 200},
		"PUT /api/v1/projects/:id/ratecard":                   {path: p2api(p) + "/ratecard", form: v("currency", "EUR"), ok: 422},
		"DELETE /api/v1/projects/:id/ratecard":                {path: p2api(p) + "/ratecard", ok: 204},
		"GET /api/v1/ratecard":                                {path: "/api/v1/ratecard", ok: 200, override: map[string]int{otherTeam: 404, tokenRival: 404}}, // their team has none
		"PUT /api/v1/ratecard":                                {path: "/api/v1/ratecard", form: v("currency", "EUR"), ok: 422},
		"POST /api/v1/projects/:id/proposals":                 {path: p2api(p) + "/proposals", form: v("title", "Form"), ok: 422},
		"GET /api/v1/projects/:id/proposals/:n":               {path: p2api(p) + "/proposals/1", ok: 200},
		"POST /api/v1/projects/:id/proposals/:n/accept":       {path: p2api(p) + "/proposals/1/accept", ok: 200},
		"POST /api/v1/projects/:id/proposals/:n/reject":       {path: p2api(p) + "/proposals/1/reject", ok: 200},
		"POST /api/v1/projects/:id/proposals/:n/comments":     {path: p2api(p) + "/proposals/1/comments", form: v("body", "Form"), ok: 422},
		"POST /api/v1/projects/:id/versions":                  {path: p2api(p) + "/versions", form: v("name", "Form"), ok: 422}, // a form, not JSON: refused after the access check
		"GET /api/v1/projects/:id/diff":                       {path: p2api(p) + "/diff?from=1", ok: 200},
		"GET /api/v1/projects/:id/exports/:file":              {path: p2api(p) + "/exports/sitemap.xml", ok: 200},
		"GET /api/v1/projects/:id/redirects/status":           {path: p2api(p) + "/redirects/status", ok: 200},
		"POST /api/v1/projects/:id/launch-checks":             {path: p2api(p) + "/launch-checks", form: v("base", "https://x.example/"), ok: 422}, // a form, not JSON
		"GET /api/v1/projects/:id/launch-checks/:jid":         {path: p2api(p) + "/launch-checks/nope", ok: 404},
		"GET /api/v1/projects/:id/launch-checks/:jid/report":  {path: p2api(p) + "/launch-checks/nope/report", ok: 404},
		"GET /api/v1/projects/:id/pages":                      {path: p2api(p) + "/pages", ok: 200},
		"POST /api/v1/projects/:id/pages":                     {path: p2api(p) + "/pages", form: v("title", "Form"), ok: 422}, // a form, not JSON
		"GET /api/v1/projects/:id/pages/:pid":                 {path: p2api(pg), ok: 200},
		"PATCH /api/v1/projects/:id/pages/:pid":               {path: p2api(pg), form: v("title", "Form"), ok: 422},
		"DELETE /api/v1/projects/:id/pages/:pid":              {path: p2api(pg), ok: 200},
		"POST /api/v1/projects/:id/pages/:pid/comments":       {path: p2api(pg) + "/comments", form: v("body", "Form"), ok: 422},
		"GET /api/v1/projects/:id/links":                      {path: p2api(p) + "/links", ok: 200},
		"POST /api/v1/projects/:id/links":                     {path: p2api(p) + "/links", form: v("from", "1"), ok: 422},
		"DELETE /api/v1/projects/:id/links/:lid":              {path: p2api(p) + "/links/" + id("link"), ok: 204},
		"GET /api/v1/projects/:id/comments":                   {path: p2api(p) + "/comments", ok: 200},
		"GET /api/v1/projects/:id/share-links":                {path: p2api(p) + "/share-links", ok: 200},
		"POST /api/v1/projects/:id/share-links":               {path: p2api(p) + "/share-links", form: v("role", "view"), ok: 422},
		"DELETE /api/v1/projects/:id/share-links/:sid":        {path: p2api(p) + "/share-links/" + id("share"), ok: 204},
		"GET /api/v1/projects/:id/treetests":                  {path: p2api(p) + "/treetests", ok: 200},
		"POST /api/v1/projects/:id/treetests":                 {path: p2api(p) + "/treetests", form: v("name", "Form"), ok: 422},
		"GET /api/v1/projects/:id/treetests/:sid/results":     {path: p2api(p) + "/treetests/" + id("study") + "/results", ok: 200},
		"PATCH /api/v1/projects/:id":                          {path: p2api(p), form: v("name", "Form"), ok: 422},
		"GET /api/v1/webhooks":                                {path: "/api/v1/webhooks", ok: 200},
		"POST /api/v1/webhooks":                               {path: "/api/v1/webhooks", form: v("url", "https://x.example/"), ok: 422},
		"DELETE /api/v1/webhooks/:wid":                        {path: "/api/v1/webhooks/999", ok: 404},
		"GET /api/v1/projects/:id/redirects":                  {path: p2api(p) + "/redirects", ok: 200},
		"GET /api/v1/projects/:id/handoff/:format":            {path: p2api(p) + "/handoff/routes", ok: 200},
		"POST /api/v1/projects/:id/redirects/attach":          {path: p2api(p) + "/redirects/attach", form: v(), ok: 422}, // no URL in the body
		"POST /api/v1/projects/:id/redirects/traffic":         {path: p2api(p) + "/redirects/traffic", form: v(), ok: 422},
		"GET /api/v1/projects/:id/jobs/:jid":                  {path: p2api(p) + "/jobs/nope", ok: 404},
		"GET /api/v1/projects/:id/diagram/:format":            {path: p2api(p) + "/diagram/svg", ok: 200},
		"GET /api/v1/projects/:id/lint":                       {path: p2api(p) + "/lint", ok: 200},
		"POST /api/v1/projects/:id/redirects/import":          {path: p2api(p) + "/redirects/import", form: v(), ok: 422}, // no rows
		"GET /api/v1/projects/:id/treetests/:sid/files/:file": {path: p2api(p) + "/treetests/" + id("study") + "/files/outcomes.csv", ok: 200},
		"POST /api/v1/projects/:id/treetests/:sid/correct":    {path: p2api(p) + "/treetests/" + id("study") + "/correct", form: v("task", "1"), ok: 422},
		"POST /api/v1/checks":                                 {path: "/api/v1/checks", form: v("source", "x.example"), ok: 422}, // a form, not JSON
		"GET /api/v1/checks/:jid":                             {path: "/api/v1/checks/nope", ok: 404},
		"POST /api/v1/projects":                               {path: "/api/v1/projects", form: v("name", "Form"), ok: 422}, // a form, not a document
		"POST /api/v1/projects/:id/versions/:n/restore":       {path: p2api(p) + "/versions/1/restore", ok: 200},
		"GET /api/v1/projects/:id/export.zip":                 {path: p2api(p) + "/export.zip", ok: 200},
		"GET /api/v1/projects/:id/redirects/export":           {path: p2api(p) + "/redirects/export?format=csv", ok: 200},
		// The MCP server takes tokens alone; a session is told to send one.
		"POST /mcp":            {path: "/mcp", form: v(), ok: 415, override: sessionsRefused},
		"GET /mcp":             {path: "/mcp", ok: 405, override: sessionsRefused}, // stateless: no stream to open
		"DELETE /mcp":          {path: "/mcp", ok: 405, override: sessionsRefused},
		"GET /account":         {path: "/account", ok: 200},
		"POST /account/tokens": {path: "/account/tokens", form: v("name", "CI", "scope", "read", "expires", "30d"), ok: 201},
		"DELETE /account/tokens/:tid": {path: "/account/tokens/" + id("token Mine"), ok: 200,
			override: map[string]int{viewerRole: 404, editorRole: 404, otherTeam: 404}}, // another's token does not exist for them
		"POST /team/tokens":                        {path: "/team/tokens", form: v("name", "Agent", "scope", "write", "expires", "30d"), ok: 201},
		"DELETE /team/tokens/:tid":                 {path: "/team/tokens/" + id("token The team's"), ok: 200, override: map[string]int{otherTeam: 404}},
		"GET /sites":                               {path: "/sites", ok: 200},
		"POST /sites/check":                        {path: "/sites/check", form: v(), ok: 422},
		"POST /sites/import":                       {path: "/sites/import", form: v(), ok: 422},
		"GET /sites/jobs/:jid":                     {path: "/sites/jobs/nope", ok: 404},
		"GET /sites/jobs/:jid/events":              {path: "/sites/jobs/nope/events", ok: 404},
		"POST /sites/jobs/:jid/cancel":             {path: "/sites/jobs/nope/cancel", ok: 404},
		"GET /sites/jobs/:jid/files/:n":            {path: "/sites/jobs/nope/files/0?line=1", ok: 404},
		"POST /team/leave":                         {path: "/team/leave", ok: 303, override: map[string]int{otherTeam: 409}},
		"POST /team/invites":                       {path: "/team/invites", form: v("role", "viewer", "days", "7"), ok: 201},
		"DELETE /team/starters/:sid":               {path: "/team/starters/999", ok: 404},
		"POST /team/theme":                         {path: "/team/theme", form: v("accent", "red"), ok: 422},
		"GET /team/logo.png":                       {path: "/team/logo.png", ok: 404},
		"GET /inbox":                               {path: "/inbox", ok: 200},
		"GET /inbox/:nid":                          {path: "/inbox/999", ok: 404},
		"POST /inbox/read":                         {path: "/inbox/read", ok: 303},
		"POST /inbox/mail":                         {path: "/inbox/mail", form: v("mode", "digest"), ok: 303},
		"GET /unsubscribe":                         {path: "/unsubscribe?u=1&t=forged", ok: 404},
		"POST /unsubscribe":                        {path: "/unsubscribe?u=1&t=forged", ok: 404},
		"POST /projects/:id/watch":                 {path: p + "/watch", form: v("on", "1"), ok: 200},
		"POST /team/webhooks":                      {path: "/team/webhooks", form: v("url", "not a url"), ok: 422},
		"DELETE /team/webhooks/:wid":               {path: "/team/webhooks/999", ok: 404},
		"POST /projects/:id/starter":               {path: p + "/starter", form: v("name", ""), ok: 422},
		"POST /team/type-templates":                {path: "/team/type-templates", form: v("type", "nosuchtype", "blocks", "hero"), ok: 422},
		"POST /team/type-colors":                   {path: "/team/type-colors", form: v("reset", "1"), ok: 200},
		"DELETE /team/invites/:iid":                {path: "/team/invites/" + id("invite"), ok: 200, override: map[string]int{otherTeam: 404}},
		"PUT /team/members/:uid":                   {path: "/team/members/" + id("user"), form: v("role", "editor"), ok: 200, override: map[string]int{otherTeam: 404}},
		"DELETE /team/members/:uid":                {path: "/team/members/" + id("user"), ok: 200, override: map[string]int{otherTeam: 404}},
		"POST /teams":                              {path: "/teams", form: v("name", "Side project"), ok: 303},
		"POST /teams/:tid/switch":                  {path: "/teams/1/switch", ok: 303, override: map[string]int{otherTeam: 404}},
		"GET /projects/:id":                        {path: p, ok: 200},
		"GET /projects/:id/events":                 {path: p + "/events", ok: 200},
		"GET /projects/:id/document.json":          {path: p + "/document.json", ok: 200, override: guestDownload},
		"GET /projects/:id/summary":                {path: p + "/summary", ok: 200},
		"GET /projects/:id/types":                  {path: p + "/types", ok: 200},
		"GET /projects/:id/search":                 {path: p + "/search?q=pri", ok: 200},
		"GET /projects/:id/outline":                {path: p + "/outline", ok: 200},
		"GET /projects/:id/outline/more":           {path: p + "/outline/more?placement=main&depth=1&level=2", ok: 200},
		"GET /projects/:id/comments":               {path: p + "/comments", ok: 200},
		"GET /projects/:id/pages/:pid":             {path: pg, ok: 200},
		"GET /projects/:id/pages/:pid/children":    {path: p + "/pages/" + id("Home") + "/children", ok: 200},
		"GET /projects/:id/pages/:pid/comments":    {path: pg + "/comments", ok: 200},
		"GET /projects/:id/diagram":                {path: p + "/diagram", ok: 200},
		"GET /projects/:id/diagram/:format":        {path: p + "/diagram/pdf", ok: 200},
		"GET /projects/:id/diagram/scene":          {path: p + "/diagram/scene?paint=scene", ok: 200},
		"GET /projects/:id/export":                 {path: p + "/export", ok: 200, override: guestDownload},
		"GET /projects/:id/handoff/:format":        {path: p + "/handoff/wxr", ok: 200, override: guestDownload},
		"GET /projects/:id/export.zip":             {path: p + "/export.zip", ok: 200, override: guestDownload},
		"GET /projects/:id/sitemap.html":           {path: p + "/sitemap.html", ok: 200, override: guestDownload},
		"GET /projects/:id/:file":                  {path: p + "/sitemap.xml", ok: 200, override: guestDownload},
		"POST /projects/:id/pages/:pid/comments":   {path: pg + "/comments", form: v("body", "Looks good", "author", "Carla Client"), ok: 201},
		"POST /projects/:id/comments/:cid/resolve": {path: p + "/comments/" + id("comment") + "/resolve", ok: 200},
		"POST /projects/:id/comments/:cid/reopen":  {path: p + "/comments/" + id("comment") + "/reopen", ok: 200},
		"PATCH /projects/:id":                      {path: p, form: v("name", "Acme renamed"), ok: 200},
		"GET /projects/:id/rename":                 {path: p + "/rename", ok: 200},
		"GET /projects/:id/settings":               {path: p + "/settings", ok: 200},
		"POST /projects/:id/theme":                 {path: p + "/theme", form: v("accent", "#aa3300", "agency", "Studio"), ok: 200},
		"GET /projects/:id/logo.png":               {path: p + "/logo.png", ok: 200},
		"GET /projects/:id/brand.png":              {path: p + "/brand.png", ok: 200},
		"GET /projects/:id/brand.css":              {path: p + "/brand.css", ok: 200},
		"PUT /projects/:id/settings": {path: p + "/settings", form: v("name", "Acme Zebra-7 relaunch", "base_url", "https://www.acme.example/",
			"version", id("version")), ok: 200},
		"GET /projects/:id/paste":                            {path: p + "/paste", ok: 200},
		"POST /projects/:id/paste":                           {path: p + "/paste", form: v("outline", "Careers"), ok: 200},
		"POST /projects/:id/pages":                           {path: p + "/pages", form: v("parent", id("Home")), ok: 201},
		"PUT /projects/:id/pages/:pid":                       {path: pg, form: v("title", "Pricing", "kind", "page", "status", "planned", "version", id("pageVersion"), "slug_auto", "1"), ok: 200},
		"DELETE /projects/:id/pages/:pid":                    {path: pg, ok: 200},
		"GET /projects/:id/pages/:pid/delete":                {path: pg + "/delete", ok: 200},
		"PATCH /projects/:id/pages/:pid/title":               {path: pg + "/title", form: v("title", "Prices", "version", id("pageVersion")), ok: 200},
		"POST /projects/:id/pages/:pid/keep-url":             {path: pg + "/keep-url", form: v("slug", "pricing"), ok: 200},
		"POST /projects/:id/pages/:pid/move":                 {path: pg + "/move", form: v("parent", "0", "placement", "main", "position", "0"), ok: 200}, // with the notice of its new URL
		"POST /projects/:id/pages/:pid/duplicate":            {path: pg + "/duplicate", ok: 201},
		"GET /projects/:id/pages/:pid/paste":                 {path: pg + "/paste", ok: 200},
		"GET /projects/:id/pages/:pid/links/picker":          {path: pg + "/links/picker?q=con", ok: 200},
		"POST /projects/:id/pages/:pid/links":                {path: pg + "/links", form: v("to", id("Imprint")), ok: 200},
		"PUT /projects/:id/pages/:pid/variants/:tag":         {path: pg + "/variants/de", form: v("title", "Preise"), ok: 422}, // a plan in one language: refused, after the access check
		"PATCH /projects/:id/pages/:pid/variants/:tag/title": {path: pg + "/variants/de/title", form: v("title", "Preise"), ok: 422},
		"POST /projects/:id/locales/branch":                  {path: p + "/locales/branch", form: v("page", id("Imprint"), "locale", "de", "state", "ready"), ok: 422},
		"DELETE /projects/:id/links/:lid":                    {path: p + "/links/" + id("link") + "?page=" + id("Team"), ok: 200},
		"GET /projects/:id/delete":                           {path: p + "/delete", ok: 200},
		"DELETE /projects/:id":                               {path: p, ok: 303},
		"GET /projects/:id/sharing":                          {path: p + "/sharing", ok: 200},
		"POST /projects/:id/sharing":                         {path: p + "/sharing", form: v("role", "view", "expires", "7d"), ok: 201},
		"DELETE /projects/:id/sharing/:sid":                  {path: p + "/sharing/" + id("share"), ok: 200},
		// Nothing of theirs to undo or redo: the world's changes are the
		// command line's.
		"POST /projects/:id/undo":                            {path: p + "/undo", ok: 422},
		"POST /projects/:id/redo":                            {path: p + "/redo", ok: 422},
		"GET /projects/:id/history":                          {path: p + "/history", ok: 200},
		"POST /projects/:id/history/:cid/restore":            {path: p + "/history/" + id("deletion") + "/restore", ok: 200},
		"GET /projects/:id/versions":                         {path: p + "/versions", ok: 200},
		"POST /projects/:id/versions":                        {path: p + "/versions", form: v("name", "Review"), ok: 303},
		"GET /projects/:id/versions/:n":                      {path: p + "/versions/1", ok: 200},
		"GET /projects/:id/versions/:n/pitch":                {path: p + "/versions/1/pitch", ok: 200},
		"GET /projects/:id/versions/:n/pitch/notes":          {path: p + "/versions/1/pitch/notes", ok: 200},
		"GET /projects/:id/versions/:n/diagram/:format":      {path: p + "/versions/1/diagram/png", ok: 200},
		"POST /projects/:id/versions/:n/restore":             {path: p + "/versions/1/restore", ok: 303},
		"POST /projects/:id/versions/:n/approve":             {path: p + "/versions/1/approve", form: v("page", "0", "name", "Carla Client"), ok: 303},
		"POST /projects/:id/versions/:n/approvals/:aid/void": {path: p + "/versions/1/approvals/" + id("approval") + "/void", ok: 303},
		"GET /projects/:id/compare":                          {path: p + "/compare?from=1", ok: 200},
		"GET /projects/:id/proposals":                        {path: p + "/proposals", ok: 200},
		"GET /projects/:id/estimate/:type":                   {path: p + "/estimate/csv", ok: 200},
		"POST /projects/:id/ratecard":                        {path: p + "/ratecard", form: v("card", "{"), ok: 422},
		"POST /projects/:id/ratecard/clear":                  {path: p + "/ratecard/clear", ok: 303},
		"POST /team/ratecard":                                {path: "/team/ratecard", form: v("card", "{"), ok: 422},
		"GET /projects/:id/proposals/:n":                     {path: p + "/proposals/1", ok: 200},
		"GET /projects/:id/proposals/:n/diagram/:format":     {path: p + "/proposals/1/diagram/png", ok: 200},
		"POST /projects/:id/proposals":                       {path: p + "/proposals", form: v("title", "No file"), ok: 422},
		"POST /projects/:id/proposals/:n/accept":             {path: p + "/proposals/1/accept", ok: 303},
		"POST /projects/:id/proposals/:n/reject":             {path: p + "/proposals/1/reject", ok: 303},
		"POST /projects/:id/proposals/:n/comments":           {path: p + "/proposals/1/comments", form: v("body", "Agreed"), ok: 303},
		"GET /projects/:id/redirects":                        {path: p + "/redirects?show=awaiting", ok: 200, override: guestDownload},
		"GET /projects/:id/launch":                           {path: p + "/launch", ok: 200},
		"GET /projects/:id/lint":                             {path: p + "/lint", ok: 200},
		"GET /projects/:id/locales":                          {path: p + "/locales", ok: 200},
		"GET /projects/:id/treetests":                        {path: p + "/treetests", ok: 200},
		"GET /projects/:id/treetests/new":                    {path: p + "/treetests/new?version=1", ok: 200},
		"POST /projects/:id/treetests": {path: p + "/treetests", form: v("name", "Round 2", "version", "1", "tasks", "1", "text-1", "Where are the prices?",
			"correct-1", id("Pricing"), "skip", "1"), ok: 201},
		"GET /projects/:id/treetests/compare":              {path: p + "/treetests/compare?a=" + id("study") + "&b=" + id("study"), ok: 200},
		"GET /projects/:id/treetests/:sid":                 {path: p + "/treetests/" + id("study"), ok: 200},
		"GET /projects/:id/treetests/:sid/diagram/:format": {path: p + "/treetests/" + id("study") + "/diagram/png", ok: 200},
		"GET /projects/:id/treetests/:sid/:file":           {path: p + "/treetests/" + id("study") + "/outcomes.csv", ok: 200},
		"POST /projects/:id/treetests/:sid/correct":        {path: p + "/treetests/" + id("study") + "/correct", form: v("task", "1", "page", id("Pricing"), "op", "add"), ok: 303},
		"POST /projects/:id/treetests/:sid/speeders":       {path: p + "/treetests/" + id("study") + "/speeders", form: v("seconds", "5"), ok: 303},
		"POST /projects/:id/treetests/:sid/revoke":         {path: p + "/treetests/" + id("study") + "/revoke", ok: 303},
		"POST /projects/:id/treetests/:sid/link":           {path: p + "/treetests/" + id("study") + "/link", ok: 200},
		"POST /projects/:id/launch":                        {path: p + "/launch", form: v("base", "not a URL"), ok: 422},
		"GET /projects/:id/launch/diagram/:format":         {path: p + "/launch/diagram/pdf", ok: 404},
		"GET /projects/:id/launch/report.json":             {path: p + "/launch/report.json", ok: 404},
		"GET /projects/:id/redirects/export":               {path: p + "/redirects/export?format=csv", ok: 200, override: guestDownload},
		"GET /projects/:id/redirects/picker":               {path: p + "/redirects/picker?id=1", ok: 404},
		"POST /projects/:id/redirects/decide":              {path: p + "/redirects/decide", form: v("verb", "accept-all"), ok: 200},
		"POST /projects/:id/redirects/attach":              {path: p + "/redirects/attach", form: v(), ok: 422},
		"POST /projects/:id/redirects/traffic":             {path: p + "/redirects/traffic", form: v(), ok: 422},
		"GET /projects/:id/compare/diagram/:format":        {path: p + "/compare/diagram/png?from=1", ok: 200},
	}
	srv := New(Stores{}, staticFS, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{})
	needs := map[string]need{}
	for _, r := range srv.routeTable() {
		needs[r.method+" "+r.path] = r.need
	}
	needs["GET /static*"] = public
	for _, r := range srv.Echo.Routes() {
		key := r.Method + " " + r.Path
		if _, ok := rows[key]; !ok {
			t.Errorf("route %s has no row in the access matrix: add one", key)
		}
	}
	for key, row := range rows {
		n, ok := needs[key]
		if !ok {
			t.Errorf("the access matrix has a row for %s, which is not a route", key)
			continue
		}
		method := key[:strings.IndexByte(key, ' ')]
		who := actors
		if apiPath(row.path) {
			who = append(slices.Clone(actors), tokenActors...)
		}
		for _, actor := range who {
			t.Run(key+"/"+actor, func(t *testing.T) {
				rec := w.serve(t, actor, method, row.path, row.form)
				if want := row.want(method, n, actor); rec.Code != want {
					t.Fatalf("%s %s as %s: got %d, want %d: %.300s", method, row.path, actor, rec.Code, want, rec.Body.String())
				}
				body := rec.Body.String()
				if actor != otherTeam && actor != tokenRival && strings.Contains(body, "Rival secret") {
					t.Errorf("the other team's data is in the body")
				}
				if accessOf(actor) == site.AccessNone && (strings.Contains(body, "Zebra-7") || strings.Contains(body, "Yearly prices")) {
					t.Errorf("the Acme plan's data is in a body for %s", actor)
				}
				if loc := rec.Header().Get("Location"); rec.Code == 303 && strings.Contains(loc, "//") {
					t.Errorf("redirect leaves the site: %s", loc)
				}
			})
		}
	}
}

// p2api is the API's path of an editor path of a project.
func p2api(p string) string { return "/api/v1" + p }

// accessOf is an actor's access to the Acme plan, by its role, its link
// or its token.
func accessOf(actor string) site.Access {
	if a, ok := tokenAccessOf[actor]; ok {
		return a
	}
	return projectAccessOf[actor]
}

// apiPath reports whether a path is the API's or the MCP server's, which
// tokens call.
func apiPath(path string) bool { return strings.HasPrefix(path, apiPrefix) || path == "/mcp" }
