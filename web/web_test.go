package web

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"

	"siteplan/internal/pgtest"
	"siteplan/internal/sitegen"
	"siteplan/jobs"
	"siteplan/site"
	"siteplan/static"
	"siteplan/store"
)

func init() { store.PasswordCost = bcrypt.MinCost }

// testPassword is every test account's password.
const testPassword = "a long test password"

// client drives the server in-process, carrying its cookies (CSRF,
// session, share link) and the CSRF token like the browser does.
type client struct {
	t       testing.TB
	srv     *Server
	db      *store.Store
	token   string
	cookies map[string]*http.Cookie
	jobs    *jobs.Jobs // the background jobs beside srv, if the test runs them (runJobs)
}

var staticFS = static.FS

// newClient starts a server on a fresh database and logs in as the
// owner of team 1.
func newClient(t testing.TB) *client {
	t.Helper()
	db, err := store.Open(pgtest.DSN(t, "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	srv := New(partsOf(db), staticFS, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{})
	t.Cleanup(srv.Close) // before the database closes: its background workers read it
	addUser(t, db, "owner@test.example", "Olive Owner", "1", site.RoleOwner)
	c := anonymous(t, srv, db)
	c.login("owner@test.example")
	return c
}

// partsOf are the parts of db the server uses, as serve gives them
// (cli.WebStores).
func partsOf(db *store.Store) Stores {
	return Stores{Accounts: db.Accounts, Teams: db.Teams, Sharing: db.Sharing, Projects: db.Projects, Pages: db.Pages,
		Links: db.Links, History: db.History, Redirects: db.Redirects, Comments: db.Comments, Notifications: db.Notifications,
		Webhooks: db.Webhooks, Jobs: db.Jobs, Live: db.Live, Limits: db.Limits, Themes: db.Themes, Studies: db.TreeTests, Tokens: db.Tokens, Proposals: db.Proposals, RateCards: db.RateCards, Ping: db.Ping}
}

// allowPrivate lets s read sites on loopback, as serve
// --allow-private-fetch (Config.AllowPrivateFetch) does: the tests' sites
// are httptest servers.
func allowPrivate(s *Server) { s.fetch, s.lines = fetchers(true) }

// runJobs starts the background jobs beside srv on db, as serve does,
// with cfg (its log and srv's live hub filled in). They stop before srv
// and db do.
func runJobs(t testing.TB, db *store.Store, srv *Server, cfg jobs.Config) *jobs.Jobs {
	t.Helper()
	cfg.Log, cfg.Published = slog.New(slog.NewTextHandler(io.Discard, nil)), srv.Published
	j := jobs.Start(context.Background(), jobs.Stores{Webhooks: db.Webhooks, Notifications: db.Notifications, Projects: db.Projects,
		Jobs: db.Jobs, Pages: db.Pages, Redirects: db.Redirects, History: db.History, Queued: db.Queued}, cfg)
	t.Cleanup(j.Close)
	return j
}

// anonymous is a client of srv without a session that has its CSRF
// token from the login page.
func anonymous(t testing.TB, srv *Server, db *store.Store) *client {
	t.Helper()
	c := &client{t: t, db: db, srv: srv, cookies: map[string]*http.Cookie{}}
	rec := c.raw("GET", "/login", nil, "", false)
	m := regexp.MustCompile(`X-CSRF-Token&#34;:&#34;([^&]+)&#34;`).FindStringSubmatch(rec.Body.String())
	if c.cookies["_csrf"] == nil || m == nil {
		t.Fatalf("no CSRF cookie or token on /login (%d): %.300s", rec.Code, rec.Body.String())
	}
	c.token = m[1]
	return c
}

// addUser gives an account (created if new) a role in team.
func addUser(t testing.TB, db *store.Store, email, name, team, role string) site.User {
	t.Helper()
	u, _, err := db.Accounts.AddUser(context.Background(), email, name, testPassword, team, role)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func (c *client) login(email string) {
	c.t.Helper()
	rec := c.do("POST", "/login", url.Values{"email": {email}, "password": {testPassword}}, false)
	if rec.Code != http.StatusSeeOther || c.cookies[sessionCookie] == nil {
		c.t.Fatalf("login as %s: got %d, want 303 with a session: %.300s", email, rec.Code, rec.Body.String())
	}
}

func (c *client) raw(method, path string, body io.Reader, contentType string, hx bool) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, body)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if hx {
		req.Header.Set("HX-Request", "true")
	}
	for _, ck := range c.cookies {
		req.AddCookie(ck)
	}
	if c.token != "" {
		req.Header.Set("X-CSRF-Token", c.token)
	}
	rec := httptest.NewRecorder()
	c.srv.Echo.ServeHTTP(rec, req)
	for _, ck := range rec.Result().Cookies() {
		if ck.MaxAge < 0 {
			delete(c.cookies, ck.Name)
		} else {
			c.cookies[ck.Name] = ck
		}
	}
	return rec
}

func (c *client) do(method, path string, form url.Values, hx bool) *httptest.ResponseRecorder {
	var body io.Reader
	ct := ""
	if form != nil {
		body, ct = strings.NewReader(form.Encode()), "application/x-www-form-urlencoded"
	}
	return c.raw(method, path, body, ct, hx)
}

func doc(t testing.TB, rec *httptest.ResponseRecorder) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// acmeDoc parses the store's sample document.
func acmeDoc(t testing.TB) *site.Document {
	t.Helper()
	d, err := site.ReadDocumentFile("../store/testdata/acme.json")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// fixture imports the store's sample document and returns page IDs by title.
func (c *client) fixture() (int64, map[string]int64) {
	c.t.Helper()
	d := acmeDoc(c.t)
	ctx := context.Background()
	id, err := c.db.Projects.ImportDocument(ctx, 1, d)
	if err != nil {
		c.t.Fatal(err)
	}
	tr, _ := c.db.Pages.Tree(ctx, id)
	ids := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { ids[p.Title] = p.ID; return true })
	return id, ids
}

func pagePath(pid int64, id int64, rest ...string) string {
	s := "/projects/" + strconv.FormatInt(pid, 10) + "/pages/" + strconv.FormatInt(id, 10)
	for _, r := range rest {
		s += "/" + r
	}
	return s
}

// TestRoutes requests every route with and without HX-Request and checks
// the status and that full pages come only without it.
func TestRoutes(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	p := "/projects/" + strconv.FormatInt(pid, 10)
	home, pricing, contact := ids["Home"], ids["Pricing"], ids["Contact"]
	tests := []struct {
		method, path string
		form         url.Values
		status       int // same with and without HX-Request unless statusHX is set
		statusHX     int
		fullPage     bool // a non-htmx answer is a whole HTML page
	}{
		{"GET", "/", nil, 200, 0, true},
		{"GET", p, nil, 200, 0, true},
		{"GET", p + "?level=1", nil, 200, 0, true},
		{"GET", p + "/settings", nil, 200, 0, true},
		{"GET", p + "/summary", nil, 200, 0, false},
		{"GET", p + "/search?q=pri", nil, 200, 0, false},
		{"GET", p + "/outline?level=2", nil, 200, 0, false},
		{"GET", p + "/paste", nil, 200, 0, false},
		{"GET", p + "/rename", nil, 200, 0, false},
		{"GET", p + "/delete", nil, 200, 0, false},
		{"GET", p + "/document.json", nil, 200, 0, false},
		{"GET", pagePath(pid, pricing), nil, 200, 0, true},
		{"GET", pagePath(pid, home, "children"), nil, 200, 0, false},
		{"GET", pagePath(pid, home, "delete"), nil, 200, 0, false},
		{"GET", pagePath(pid, home, "paste"), nil, 200, 0, false},
		{"GET", pagePath(pid, home, "links", "picker") + "?q=con", nil, 200, 0, false},
		{"POST", p + "/pages", url.Values{"parent": {itoa(home)}}, 201, 0, false},
		{"POST", p + "/pages", url.Values{"after": {itoa(contact)}}, 201, 0, false},
		{"PATCH", pagePath(pid, contact, "title"), url.Values{"title": {"Contact us"}, "version": {"1"}}, 200, 409, false},
		{"POST", pagePath(pid, contact, "move"), url.Values{"parent": {"0"}, "placement": {"footer"}, "position": {"0"}}, 204, 0, false},
		{"POST", pagePath(pid, contact, "duplicate"), nil, 201, 0, false},
		{"POST", p + "/paste", url.Values{"parent": {itoa(home)}, "outline": {"Jobs\n  Engineer"}}, 200, 0, false},
		{"POST", pagePath(pid, home, "links"), url.Values{"to": {itoa(contact)}}, 200, 409, false},
		{"PATCH", p, url.Values{"name": {"Acme 2027"}}, 200, 0, false},
		{"GET", p + "/export", nil, 200, 0, true},
		{"GET", p + "/export?max_urls=0", nil, 422, 0, true},
		{"GET", p + "/export.zip", nil, 200, 0, false},
		{"GET", p + "/sitemap.xml", nil, 200, 0, false},
		{"GET", p + "/sitemap.txt", nil, 200, 0, false},
		{"GET", p + "/robots.txt", nil, 200, 0, false},
		{"GET", p + "/footer.html", nil, 200, 0, false},
		{"GET", p + "/sitemap.html", nil, 200, 0, true},
		{"GET", p + "/sitemap-9.xml", nil, 404, 0, true},
		{"GET", "/projects/999", nil, 404, 0, true},
		{"GET", "/projects/abc", nil, 404, 0, true},
		{"GET", pagePath(pid, 99999), nil, 404, 0, true},
		{"GET", "/nowhere", nil, 404, 0, true},
	}
	for _, tt := range tests {
		for _, hx := range []bool{false, true} {
			name := tt.method + " " + tt.path
			if hx {
				name += " (htmx)"
			}
			t.Run(name, func(t *testing.T) {
				rec := c.do(tt.method, tt.path, tt.form, hx)
				want := tt.status
				if hx && tt.statusHX != 0 {
					want = tt.statusHX // the first call already made the change
				}
				if rec.Code != want {
					t.Fatalf("status = %d, want %d; body: %.300s", rec.Code, want, rec.Body.String())
				}
				isPage := strings.Contains(rec.Body.String(), "<html")
				if hx && isPage && !tt.fullPage {
					t.Errorf("htmx request got a whole page")
				}
				if !hx && tt.fullPage && !isPage {
					t.Errorf("page request got a fragment: %.200s", rec.Body.String())
				}
			})
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestErrorsByRequestKind(t *testing.T) {
	c := newClient(t)
	rec := c.do("GET", "/projects/999", nil, true)
	if rec.Header().Get("HX-Retarget") != "#flash" || !strings.Contains(rec.Body.String(), "does not exist") {
		t.Errorf("htmx 404: retarget %q body %q", rec.Header().Get("HX-Retarget"), rec.Body.String())
	}
	rec = c.do("GET", "/projects/999/document.json", nil, false)
	var body struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != 404 || body.Error.Code != "not_found" || body.Error.Message == "" {
		t.Errorf(".json 404: %d %s", rec.Code, rec.Body.String())
	}
}

func TestCSRFRequired(t *testing.T) {
	c := newClient(t)
	req := httptest.NewRequest("POST", "/projects", strings.NewReader("name=X&base_url=https%3A%2F%2Fx.example%2F"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, ck := range c.cookies { // cookies but no token: a forged cross-site form
		req.AddCookie(ck)
	}
	rec := httptest.NewRecorder()
	c.srv.Echo.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "security token") {
		t.Errorf("POST without token: status %d, want 403 saying why: %s", rec.Code, rec.Body.String())
	}
	list, _ := c.db.Projects.Projects(context.Background(), 1)
	if len(list) != 0 {
		t.Errorf("a POST without CSRF token created %d projects", len(list))
	}
}

func TestSecurityHeaders(t *testing.T) {
	c := newClient(t)
	rec := c.do("GET", "/", nil, false)
	for h, want := range map[string]string{
		"Content-Security-Policy": "script-src 'self'",
		"X-Frame-Options":         "DENY",
		"X-Content-Type-Options":  "nosniff",
	} {
		if got := rec.Header().Get(h); !strings.Contains(got, want) {
			t.Errorf("%s = %q, want it to contain %q", h, got, want)
		}
	}
}

func TestBodyLimit(t *testing.T) {
	c := newClient(t)
	big := url.Values{"name": {strings.Repeat("x", 2<<20)}, "base_url": {"https://x.example/"}}
	rec := c.do("POST", "/projects", big, true)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("2 MiB form: status %d, want 413", rec.Code)
	}
}

func TestCreateProject(t *testing.T) {
	c := newClient(t)
	rec := c.do("POST", "/projects", url.Values{"name": {"Acme"}, "base_url": {"ftp://acme.example"}}, true)
	if rec.Code != 422 {
		t.Fatalf("bad base URL: status %d, want 422", rec.Code)
	}
	d := doc(t, rec)
	if got := d.Find("#err-base_url").Text(); !strings.Contains(got, "http") {
		t.Errorf("base URL message = %q", got)
	}
	if got, _ := d.Find("#f-name").Attr("value"); got != "Acme" {
		t.Errorf("typed name lost: %q", got)
	}
	rec = c.do("POST", "/projects", url.Values{"name": {"Acme"}, "base_url": {"https://ACME.example"}}, true)
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("HX-Redirect"), "/projects/") {
		t.Fatalf("create: %d %v", rec.Code, rec.Header())
	}
	rec = c.do("POST", "/projects", url.Values{"name": {"Acme 2"}, "base_url": {"https://acme.example"}}, false)
	if rec.Code != http.StatusSeeOther {
		t.Errorf("create without htmx: status %d, want 303", rec.Code)
	}
	// A bare domain, as Live sites takes it, is the site at https.
	rec = c.do("POST", "/projects", url.Values{"name": {"Aurora"}, "base_url": {" aurora-outdoor.example "}}, true)
	if rec.Code != 200 {
		t.Fatalf("create with a bare domain: %d %s", rec.Code, rec.Body.String())
	}
	list, _ := c.db.Projects.Projects(context.Background(), 1)
	if len(list) != 3 || list[1].BaseURL != "https://acme.example/" || list[1].PageCount != 1 {
		t.Errorf("projects = %+v, want three with a normalised base URL and a home page", list)
	}
	if !slices.ContainsFunc(list, func(p site.Project) bool { return p.BaseURL == "https://aurora-outdoor.example/" }) {
		t.Errorf("projects = %+v, want one at https://aurora-outdoor.example/", list)
	}
}

func TestDeleteProject(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	rec := c.do("GET", "/projects/"+itoa(pid)+"/delete", nil, true)
	if !strings.Contains(rec.Body.String(), "12 pages") {
		t.Errorf("confirmation does not say how many pages go: %s", rec.Body.String())
	}
	rec = c.do("DELETE", "/projects/"+itoa(pid), nil, true)
	if rec.Header().Get("HX-Redirect") != "/" {
		t.Errorf("delete: %d %v", rec.Code, rec.Header())
	}
	if _, err := c.db.Projects.Project(context.Background(), pid); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("project still there: %v", err)
	}
}

func TestHostileTitleIsEscaped(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	hostile := `<script>alert(1)</script> & "Co"`
	rec := c.do("PATCH", pagePath(pid, ids["Contact"], "title"), url.Values{"title": {hostile}, "version": {"1"}}, true)
	if rec.Code != 200 {
		t.Fatalf("rename: %d %s", rec.Code, rec.Body.String())
	}
	for _, path := range []string{"/projects/" + itoa(pid), pagePath(pid, ids["Contact"]), "/projects/" + itoa(pid) + "/search?q=alert"} {
		rec = c.do("GET", path, nil, false)
		if strings.Contains(rec.Body.String(), "<script>alert") {
			t.Errorf("%s: the title is in the HTML unescaped", path)
		}
		if got := doc(t, rec).Find("#title-" + itoa(ids["Contact"])).Text(); path != "/projects/"+itoa(pid)+"/search?q=alert" && got != hostile {
			t.Errorf("%s: title text = %q, want %q", path, got, hostile)
		}
	}
}

// TestRenameRefused: a refused rename answers the outliner with the
// reason in the error notice (the script shows it and puts the old
// title back), a stale one with the title someone else gave the page.
func TestRenameRefused(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	path := pagePath(pid, ids["Contact"], "title")
	for _, tc := range []struct {
		name, title, version string
		status               int
		want                 string
	}{
		{"empty", " ", "1", 422, "Title is required"},
		{"renamed", "Write to us", "1", 200, ""},
		{"stale", "Contact us", "1", 409, "Someone else renamed this page to “Write to us”"},
	} {
		rec := c.do("PATCH", path, url.Values{"title": {tc.title}, "version": {tc.version}}, true)
		wantStatus(t, rec, tc.status, tc.name)
		if got := doc(t, rec).Find(".alert-error span").Text(); !strings.Contains(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("%s: notice %q, want it to say %q", tc.name, got, tc.want)
		}
	}
}

func TestSavePageValidation(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	base := func() url.Values {
		pg, _ := c.db.Pages.Page(ctx, ids["Contact"])
		return url.Values{"version": {itoa(pg.Version)}, "title": {pg.Title}, "slug": {pg.Slug}, "kind": {"page"},
			"status": {"planned"}, "priority": {""}, "in_sitemap": {"1"}}
	}
	tests := []struct {
		name, field, value, errField, wantMsg string
	}{
		{"empty title", "title", " ", "title", "required"},
		{"slug with a slash", "slug", "a/b", "slug", "slash"},
		{"priority 1.5", "priority", "1.5", "priority", "between 0.0 and 1.0"},
		{"priority not a number", "priority", "high", "priority", "number"},
		{"duplicate URL", "slug", "about-us", "slug", "About us"},
		{"duplicate URL through a path override", "path", "/about-us", "path", "About us"},
		{"duplicate URL of a footer page", "slug", "imprint", "slug", "Imprint"},
		{"lastmod without zone", "lastmod", "2026-11-01T10:00:00", "lastmod", "time zone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			form := base()
			form.Set(tt.field, tt.value)
			form.Set("notes", "typed notes stay")
			rec := c.do("PUT", pagePath(pid, ids["Contact"]), form, true)
			if rec.Code != 422 {
				t.Fatalf("status %d, want 422", rec.Code)
			}
			d := doc(t, rec)
			if got := d.Find("#err-" + tt.errField).Text(); !strings.Contains(got, tt.wantMsg) {
				t.Errorf("message next to %s = %q, want it to mention %q", tt.errField, got, tt.wantMsg)
			}
			if got := d.Find("#f-notes").Text(); got != "typed notes stay" {
				t.Errorf("typed notes lost: %q", got)
			}
			if tt.field != "title" {
				if got, _ := d.Find("#f-" + tt.field).Attr("value"); got != tt.value {
					t.Errorf("typed %s lost: %q, want %q", tt.field, got, tt.value)
				}
			}
		})
	}
	pg, _ := c.db.Pages.Page(ctx, ids["Contact"])
	if pg.Version != 1 || pg.Notes != "form + map" {
		t.Errorf("refused saves changed the page: %+v", pg)
	}

	form := base()
	form.Set("priority", "0,8") // a decimal comma, as European users type it
	form.Set("slug", "kontakt")
	form.Del("slug_auto")
	rec := c.do("PUT", pagePath(pid, ids["Contact"]), form, true)
	if rec.Code != 200 {
		t.Fatalf("valid save: %d %s", rec.Code, rec.Body.String())
	}
	if got := doc(t, rec).Find("#page-url").Text(); got != "https://www.acme.example/kontakt" {
		t.Errorf("final URL = %q", got)
	}
	if pg, _ := c.db.Pages.Page(ctx, ids["Contact"]); pg.Priority == nil || *pg.Priority != 0.8 {
		t.Errorf("priority typed as 0,8 stored as %v, want 0.8", pg.Priority)
	}
	// A second tab still holding version 1 must not overwrite.
	stale := base()
	stale.Set("version", "1")
	stale.Set("title", "Stale title")
	rec = c.do("PUT", pagePath(pid, ids["Contact"]), stale, true)
	if rec.Code != 409 {
		t.Fatalf("stale save: status %d, want 409", rec.Code)
	}
	if got, _ := doc(t, rec).Find("#f-slug").Attr("value"); got != "kontakt" {
		t.Errorf("409 does not show the fresh page: slug %q", got)
	}
	if !strings.Contains(rec.Body.String(), "Someone else changed this page") {
		t.Error("409 does not say why the save was refused")
	}
	pg, _ = c.db.Pages.Page(ctx, ids["Contact"])
	if pg.Title != "Contact" || pg.Slug != "kontakt" || pg.Priority == nil || *pg.Priority != 0.8 {
		t.Errorf("page after stale save = %+v", pg)
	}
}

func TestMoveAndDeleteRoutes(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	rec := c.do("POST", pagePath(pid, ids["Home"], "move"), url.Values{"parent": {itoa(ids["Team"])}, "position": {"0"}}, true)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "below itself") {
		t.Errorf("cycle: %d %s", rec.Code, rec.Body.String())
	}
	rec = c.do("POST", pagePath(pid, ids["Contact"], "move"), url.Values{"parent": {itoa(ids["About us"])}, "position": {"0"}}, true)
	if rec.Code != 200 { // with the notice of its new URL
		t.Fatalf("move: %d %s", rec.Code, rec.Body.String())
	}
	pg, _ := c.db.Pages.Page(context.Background(), ids["Contact"])
	if pg.ParentID != ids["About us"] || pg.Position != 0 {
		t.Errorf("after move: parent %d pos %d", pg.ParentID, pg.Position)
	}
	rec = c.do("GET", pagePath(pid, ids["About us"], "delete"), nil, true)
	if !strings.Contains(rec.Body.String(), "the 2 pages below it") {
		t.Errorf("delete confirmation: %s", rec.Body.String())
	}
	rec = c.do("DELETE", pagePath(pid, ids["About us"]), nil, true)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `hx-swap-oob="delete"`) {
		t.Errorf("delete: %d %s", rec.Code, rec.Body.String())
	}
	if _, err := c.db.Pages.Page(context.Background(), ids["Team"]); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("child of deleted page still there")
	}
}

func TestPasteOutline(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	rec := c.do("POST", "/projects/"+itoa(pid)+"/paste", url.Values{"parent": {itoa(ids["Contact"])}, "outline": {"Offices\n\tBerlin\n\tParis\nForm"}}, true)
	if rec.Code != 200 {
		t.Fatalf("paste: %d %s", rec.Code, rec.Body.String())
	}
	if !strings.Contains(rec.Body.String(), "Added 4 pages.") {
		t.Errorf("paste notice: %s", rec.Body.String())
	}
	// The editor reloads its outline opening the branches the answer names.
	var trig struct {
		Saved struct{ Open []int64 } `json:"page-saved"`
	}
	if err := json.Unmarshal([]byte(rec.Header().Get("HX-Trigger")), &trig); err != nil {
		t.Fatalf("HX-Trigger %q: %v", rec.Header().Get("HX-Trigger"), err)
	}
	var open []string
	for _, id := range trig.Saved.Open {
		open = append(open, itoa(id))
	}
	d := doc(t, c.do("GET", "/projects/"+itoa(pid)+"/outline?level=2&open="+strings.Join(open, ","), nil, true))
	var titles []string
	d.Find("#children-" + itoa(ids["Contact"]) + " a.title").Each(func(_ int, s *goquery.Selection) { titles = append(titles, s.Text()) })
	if got, want := strings.Join(titles, ","), "Offices,Berlin,Paris,Form"; got != want {
		t.Errorf("the outline opened as the paste says shows %s, want %s", got, want)
	}
	rec = c.do("POST", "/projects/"+itoa(pid)+"/paste", url.Values{"parent": {itoa(ids["Contact"])}, "outline": {"  \n"}}, true)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "empty") {
		t.Errorf("empty paste: %d", rec.Code)
	}
}

func TestLinksRoutes(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	rec := c.do("GET", pagePath(pid, ids["Home"], "links", "picker")+"?q=team", nil, true)
	if got := doc(t, rec).Find("button.pick").Length(); got != 1 {
		t.Errorf("picker for 'team' found %d pages, want 1", got)
	}
	rec = c.do("POST", pagePath(pid, ids["Home"], "links"), url.Values{"to": {itoa(ids["Team"])}, "label": {"meet us"}}, true)
	if rec.Code != 200 || !strings.Contains(doc(t, rec).Find("#links-out").Text(), "meet us") {
		t.Fatalf("add link: %d %s", rec.Code, rec.Body.String())
	}
	rec = c.do("POST", pagePath(pid, ids["Home"], "links"), url.Values{"to": {itoa(ids["Home"])}}, true)
	if rec.Code != 422 {
		t.Errorf("self link: %d", rec.Code)
	}
	links, _ := c.db.Links.Links(context.Background(), pid)
	rec = c.do("DELETE", "/projects/"+itoa(pid)+"/links/"+itoa(links[0].ID)+"?page="+itoa(ids["Home"]), url.Values{"page": {itoa(ids["Home"])}}, true)
	if rec.Code != 200 {
		t.Fatalf("delete link: %d %s", rec.Code, rec.Body.String())
	}
	if after, _ := c.db.Links.Links(context.Background(), pid); len(after) != len(links)-1 {
		t.Errorf("links after delete: %d, want %d", len(after), len(links)-1)
	}
}

func TestSummaryAndSearch(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	d := doc(t, c.do("GET", "/projects/"+itoa(pid)+"/summary", nil, true))
	if got := d.Find("#summary p").Text(); !strings.Contains(got, "12 pages") {
		t.Errorf("summary total: %q", got)
	}
	counts := map[string]string{}
	d.Find("table.counts").Each(func(_ int, tb *goquery.Selection) {
		tb.Find("tr").Each(func(_ int, tr *goquery.Selection) {
			counts[tb.Find("caption").Text()+"/"+tr.Find("th").Text()] = tr.Find("td").Text()
		})
	})
	for k, want := range map[string]string{"By kind/group": "1", "By kind/page": "9", "By placement/footer": "2", "By status/review": "1", "By page type/sales": "1"} {
		if counts[k] != want {
			t.Errorf("summary %s = %q, want %s", k, counts[k], want)
		}
	}
	// A page is found by its slug too, with its URL beside it; a title
	// that starts with what was typed comes before a word that does.
	d = doc(t, c.do("GET", "/projects/"+itoa(pid)+"/search?q=produkte", nil, true))
	if got := d.Find(".search-results li").Text(); d.Find(".search-results li a").Length() != 1 || !strings.Contains(got, "Products") {
		t.Errorf("search by slug 'produkte' found %q, want Products", got)
	}
	d = doc(t, c.do("GET", "/projects/"+itoa(pid)+"/search?q=us", nil, true))
	if got := d.Find(".search-results li").Text(); !strings.Contains(got, "About us") || !strings.Contains(got, "https://www.acme.example/about-us") {
		t.Errorf("search 'us' found %q, want About us at its URL", got)
	}
}

func TestImportAndDownload(t *testing.T) {
	c := newClient(t)
	upload := func(content string) *httptest.ResponseRecorder {
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		fw, _ := w.CreateFormFile("file", "plan.json")
		fw.Write([]byte(content))
		w.Close()
		return c.raw("POST", "/projects/import", &body, w.FormDataContentType(), true)
	}
	bad := `{"format":"siteplan/1","project":{"name":"X","base_url":"https://x.example/"},"pages":[{"title":"A","children":[{"title":"B","changefreq":"sometimes"}]}]}`
	rec := upload(bad)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "changefreq") || !strings.Contains(rec.Body.String(), "B") {
		t.Fatalf("bad import: %d %s", rec.Code, rec.Body.String())
	}
	if list, _ := c.db.Projects.Projects(context.Background(), 1); len(list) != 0 {
		t.Fatalf("bad import created a project")
	}
	good, _ := os.ReadFile("../store/testdata/acme.json")
	rec = upload(string(good))
	loc := rec.Header().Get("HX-Redirect")
	if rec.Code != 200 || !strings.HasPrefix(loc, "/projects/") {
		t.Fatalf("import: %d %v", rec.Code, rec.Header())
	}
	rec = c.do("GET", loc+"/document.json", nil, false)
	if !strings.Contains(rec.Header().Get("Content-Disposition"), "attachment") {
		t.Errorf("download is not an attachment")
	}
	d, err := site.ParseDocument(rec.Body)
	if err != nil || d.CountPages() != 12 || len(d.Links) != 2 {
		t.Errorf("downloaded document: %v, %d pages", err, d.CountPages())
	}
}

func TestSettings(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	form := url.Values{"version": {"1"}, "name": {"Acme"}, "base_url": {"https://acme.example/de"}, "default_priority": {"2"}, "lastmod": {"2026-11-01"}}
	rec := c.do("PUT", "/projects/"+itoa(pid)+"/settings", form, true)
	if rec.Code != 422 || !strings.Contains(doc(t, rec).Find("#err-default_priority").Text(), "between") {
		t.Fatalf("bad priority: %d", rec.Code)
	}
	form.Set("default_priority", "0.7")
	form.Set("trailing_slash", "1")
	rec = c.do("PUT", "/projects/"+itoa(pid)+"/settings", form, true)
	if rec.Code != 200 {
		t.Fatalf("save settings: %d %s", rec.Code, rec.Body.String())
	}
	p, _ := c.db.Projects.Project(context.Background(), pid)
	if p.BaseURL != "https://acme.example/de/" || !p.TrailingSlash || *p.DefaultPriority != 0.7 {
		t.Errorf("settings not saved: %+v", p)
	}
	rec = c.do("PUT", "/projects/"+itoa(pid)+"/settings", form, true) // version 1 again
	if rec.Code != 409 {
		t.Errorf("stale settings: %d, want 409", rec.Code)
	}

	// The sitemap location: on the base URL's host, saved as a directory,
	// and used by the stable sitemap URLs with the scope rule applied.
	form.Set("version", "2")
	form.Set("sitemap_location", "https://elsewhere.example/")
	rec = c.do("PUT", "/projects/"+itoa(pid)+"/settings", form, true)
	if msg := doc(t, rec).Find("#err-sitemap_location").Text(); rec.Code != 422 || !strings.Contains(msg, "https://acme.example") {
		t.Fatalf("location on another host: %d %q", rec.Code, msg)
	}
	form.Set("sitemap_location", "https://acme.example/de/about-us")
	if rec = c.do("PUT", "/projects/"+itoa(pid)+"/settings", form, true); rec.Code != 200 {
		t.Fatalf("save location: %d %s", rec.Code, rec.Body.String())
	}
	if p, _ = c.db.Projects.Project(context.Background(), pid); p.SitemapLocation != "https://acme.example/de/about-us/" {
		t.Errorf("location saved as %q", p.SitemapLocation)
	}
	locs := c.do("GET", "/projects/"+itoa(pid)+"/sitemap.txt", nil, false).Body.String()
	if got, want := locs, "https://acme.example/de/about-us/\nhttps://acme.example/de/about-us/team/\n"; got != want {
		t.Errorf("sitemap.txt at the location = %q, want %q", got, want)
	}
	robots := c.do("GET", "/projects/"+itoa(pid)+"/robots.txt", nil, false).Body.String()
	if !strings.Contains(robots, "Sitemap: https://acme.example/de/about-us/sitemap.xml\n") {
		t.Errorf("robots.txt = %q", robots)
	}
}

func TestExportRoutes(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	p := "/projects/" + itoa(pid)
	// A page outside the sitemap's directory produces a warning that links to it.
	if err := c.db.Pages.UpdatePage(context.Background(), func() *site.Page {
		pg, _ := c.db.Pages.Page(context.Background(), ids["Team"])
		pg.Path = "https://elsewhere.example/team"
		return &pg
	}()); err != nil {
		t.Fatal(err)
	}
	d := doc(t, c.do("GET", p+"/export", nil, false))
	if got := d.Find("#preview").Text(); !strings.Contains(got, "<loc>https://www.acme.example/</loc>") {
		t.Errorf("preview = %q", got)
	}
	link := d.Find("#warnings a")
	if href, _ := link.Attr("href"); link.Text() != "Team" || href != pagePath(pid, ids["Team"]) || !strings.Contains(d.Find("#warnings").Text(), "another host") {
		t.Errorf("warning link = %q %q; warnings: %s", link.Text(), href, d.Find("#warnings").Text())
	}

	rec := c.do("GET", p+"/sitemap.xml?max_urls=3", nil, false)
	if !strings.Contains(rec.Body.String(), "<sitemapindex") || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/xml") {
		t.Errorf("split sitemap.xml is not an index: %s", rec.Body.String())
	}
	rec = c.do("GET", p+"/sitemap-2.xml?max_urls=3", nil, false)
	if rec.Code != 200 || strings.Count(rec.Body.String(), "<url>") != 3 {
		t.Errorf("sitemap-2.xml: %d %s", rec.Code, rec.Body.String())
	}

	rec = c.do("GET", p+"/export.zip?gzip=1", nil, false)
	zr, err := zip.NewReader(bytes.NewReader(rec.Body.Bytes()), int64(rec.Body.Len()))
	if err != nil {
		t.Fatalf("zip: %v", err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		if f.Modified.Year() < 2020 {
			t.Errorf("zip entry %s is dated %v, not when the plan last changed", f.Name, f.Modified)
		}
	}
	if got, want := strings.Join(names, " "), "sitemap.xml sitemap.xml.gz sitemap.txt robots.txt footer.html inventory.csv"; got != want {
		t.Errorf("zip holds %s, want %s", got, want)
	}

	rec = c.do("GET", p+"/export?section="+itoa(ids["Later"]), nil, true)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "Nothing to export") {
		t.Errorf("export of a placeholder: %d", rec.Code)
	}
	preview := doc(t, c.do("GET", p+"/sitemap.html", nil, false))
	if got := preview.Find(`main.footer-preview nav[aria-label="Sitemap"] a`).Length(); got != 8 {
		t.Errorf("footer preview has %d links, want 8 (Contact is kept out of it)", got)
	}
	// The content security policy allows no inline style: the preview is
	// styled by the app's stylesheet.
	if preview.Find(`link[rel=stylesheet][href="/static/app.css"]`).Length() != 1 || preview.Find("style, [style]").Length() != 0 {
		t.Error("the footer preview is not styled by app.css, or carries inline styles the CSP blocks")
	}
}

// TestChunkedBodyLimit: a form sent in chunks, without a length, that
// runs past the limit is refused with 413, not read as an empty form.
func TestChunkedBodyLimit(t *testing.T) {
	c := newClient(t)
	form := url.Values{"name": {strings.Repeat("x", 2<<20)}, "base_url": {"https://x.example/"}}.Encode()
	rec := c.raw("POST", "/projects", io.MultiReader(strings.NewReader(form)), "application/x-www-form-urlencoded", true)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("2 MiB form in chunks: status %d, want 413: %.200s", rec.Code, rec.Body.String())
	}
}

// TestNoStore: pages and downloads of a plan are not kept by caches; the
// static files are.
func TestNoStore(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	for _, path := range []string{"/", "/projects/" + itoa(pid), "/projects/" + itoa(pid) + "/document.json", "/projects/" + itoa(pid) + "/sitemap.xml"} {
		if got := c.do("GET", path, nil, false).Header().Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s: Cache-Control %q, want no-store", path, got)
		}
	}
	if got := c.do("GET", "/static/app.css", nil, false).Header().Get("Cache-Control"); got == "no-store" {
		t.Error("the stylesheet is not cacheable")
	}
}

// TestTrickledBodyIsCut: a request whose body arrives a byte at a time
// does not hold its connection past the read timeout.
func TestTrickledBodyIsCut(t *testing.T) {
	defer func(old time.Duration) { readTimeout = old }(readTimeout)
	readTimeout = 300 * time.Millisecond
	c := newClient(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := c.srv.HTTPServer(ln.Addr().String())
	go hs.Serve(ln)
	defer hs.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n")
	// Keep trickling until the server gives up on the request and closes
	// the connection (after answering 408 or not). Ten seconds is the
	// test's own bound, far past the timeout.
	ended := make(chan error, 1)
	go func() {
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, err := io.Copy(io.Discard, conn)
		ended <- err
	}()
	for {
		select {
		case err := <-ended:
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatal("the server still reads a trickled body after 10 seconds")
			}
			return
		case <-time.After(100 * time.Millisecond):
			conn.Write([]byte("e"))
		}
	}
}

// TestOutlineInChunks: the outline comes a chunk at a time; loading each
// "more" row in its place, as the page does, gives every row of the
// plan once, in the plan's order, open to the level asked for; a reload
// asks for as many rows as it had and gets them at once.
func TestOutlineInChunks(t *testing.T) {
	c := newClient(t)
	ctx := context.Background()
	pid, err := c.db.Projects.ImportDocument(ctx, 1, sitegen.Document("Wide", 3, 4, 99)) // 1,204 pages
	if err != nil {
		t.Fatal(err)
	}
	tr, err := c.db.Pages.Tree(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	p := "/projects/" + itoa(pid)
	for _, level := range []int{2, 3, 99} {
		var want []string
		tr.Walk(func(pg *site.Page, depth int) bool {
			want = append(want, "node-"+itoa(pg.ID))
			return depth < level
		})
		d := doc(t, c.do("GET", p+"/outline?level="+strconv.Itoa(level), nil, true))
		if n := d.Find("li.node").Length(); n > outlineChunk {
			t.Errorf("level %d: the first answer has %d rows, want at most %d", level, n, outlineChunk)
		}
		loads := 0
		for more := d.Find("li.node-more[data-more]").First(); more.Length() > 0; more = d.Find("li.node-more[data-more]").First() {
			rec := c.do("GET", more.AttrOr("data-more", ""), nil, true)
			wantStatus(t, rec, http.StatusOK, "more rows")
			more.ReplaceWithHtml(rec.Body.String())
			if loads++; loads > 100 {
				t.Fatalf("level %d: still more rows after %d loads", level, loads)
			}
		}
		got := d.Find("li.node").Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("id", "") })
		if !slices.Equal(got, want) {
			t.Errorf("level %d: %d rows after %d loads, want the plan's %d in order", level, len(got), loads, len(want))
		}
		if level == 99 && (loads < 2 || d.Find("li.node.collapsed").Length() != 0) {
			t.Errorf("level 99: %d loads, %d rows closed", loads, d.Find("li.node.collapsed").Length())
		}
		reload := doc(t, c.do("GET", p+"/outline?level="+strconv.Itoa(level)+"&rows="+strconv.Itoa(len(want)), nil, true))
		if n := reload.Find("li.node").Length(); n != len(want) || reload.Find("li.node-more").Length() != 0 {
			t.Errorf("level %d: a reload asking for %d rows has %d", level, len(want), n)
		}
	}
	rec := c.do("GET", p+"/outline/more?parent=1&placement=sideways&after=0&depth=1&level=2", nil, true)
	wantStatus(t, rec, http.StatusUnprocessableEntity, "more rows of no placement")
}

// TestOutlineShowsTheSelectedPage: a page opened by its address is on
// the outline, and is what the skip link goes to, however far past the
// first chunk of rows it is.
func TestOutlineShowsTheSelectedPage(t *testing.T) {
	c := newClient(t)
	ctx := context.Background()
	pid, err := c.db.Projects.ImportDocument(ctx, 1, sitegen.Document("Wide", outlineChunk+50, 0, 0)) // a home and 250 sections
	if err != nil {
		t.Fatal(err)
	}
	tr, err := c.db.Pages.Tree(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	far := tr.Children(tr.Roots(site.PlacementMain)[0].ID)[outlineChunk+20]
	d := doc(t, c.do("GET", "/projects/"+itoa(pid)+"/pages/"+itoa(far.ID), nil, false))
	if d.Find("#node-"+itoa(far.ID)).Length() != 1 {
		t.Errorf("the page asked for, row %d, is not on the outline", outlineChunk+22)
	}
	if href := d.Find("a.skip-link").AttrOr("href", ""); href != "#title-"+itoa(far.ID) {
		t.Errorf("the skip link goes to %q, want the page asked for", href)
	}
}

// TestReadBudgets: an outline answer of more than a chunk of a large plan
// is a heavy read; a viewer with a heavy read running is refused another
// at once (429), and another viewer is not; a heavy read has a deadline.
func TestReadBudgets(t *testing.T) {
	c := newClient(t)
	ctx := context.Background()
	pid, err := c.db.Projects.ImportDocument(ctx, 1, sitegen.Document("Wide", 1, maxOutlineRows/99+2, 99)) // more pages under one section than a reload shows
	if err != nil {
		t.Fatal(err)
	}
	p := "/projects/" + itoa(pid)
	d := doc(t, c.do("GET", p+"/outline?level=99&rows=99999", nil, true))
	if n := d.Find("li.node").Length(); n != maxOutlineRows || d.Find("li.node-more").Length() == 0 {
		t.Errorf("a reload of the outline to level 99 asking for every row shows %d, want %d and a more row", n, maxOutlineRows)
	}
	var deadline time.Time
	h := c.srv.heavy(func(ec echo.Context) error {
		deadline, _ = ec.Request().Context().Deadline()
		return nil
	})
	ec := c.srv.Echo.NewContext(httptest.NewRequest("GET", "/", nil), httptest.NewRecorder())
	if err := h(ec); err != nil || deadline.IsZero() || time.Until(deadline) > readBudget {
		t.Errorf("a heavy read's deadline: %v (%v), want within %v", deadline, err, readBudget)
	}

	// The viewer's place taken: their next heavy read is refused at once;
	// another viewer reads on.
	c.srv.gate = newGate(2, 1)
	release, err := c.srv.gate.enter(context.Background(), "u1")
	if err != nil {
		t.Fatal(err)
	}
	held := []func(){release}
	rec := c.do("GET", p+"/document.json", nil, false)
	if rec.Code != 429 || rec.Header().Get("Retry-After") == "" {
		t.Errorf("a third heavy read: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	if code := c.do("GET", p+"/outline?level=99&rows=5000", nil, true).Code; code != 429 {
		t.Errorf("5,000 rows of the outline of a large plan beside a heavy read: %d, want 429", code)
	}
	if code := c.do("GET", p+"/outline?level=99", nil, true).Code; code != 200 {
		t.Errorf("the outline's first chunk beside a heavy read: %d, want 200", code)
	}
	// Versions of a large plan are whole snapshots: they wait their turn too.
	for _, path := range []string{p + "/versions", p + "/compare?from=1", p + "/versions/1", p + "/history"} {
		if code := c.do("GET", path, nil, true).Code; code != 429 {
			t.Errorf("GET %s of a large plan beside a heavy read: %d, want 429", path, code)
		}
	}
	if code := c.do("POST", p+"/versions", url.Values{"name": {"Kickoff"}}, false).Code; code != 429 {
		t.Errorf("naming a version of a large plan beside a heavy read: %d, want 429", code)
	}
	addUser(t, c.db, "vi@test.example", "Vi", "1", site.RoleViewer)
	vi := anonymous(t, c.srv, c.db)
	vi.login("vi@test.example")
	if code := vi.do("GET", p+"/document.json", nil, false).Code; code != 200 {
		t.Errorf("another viewer's heavy read: %d", code)
	}
	for _, release := range held {
		release()
	}
	if code := c.do("GET", p+"/document.json", nil, false).Code; code != 200 {
		t.Errorf("once the reads are done: %d", code)
	}
	if code := c.do("POST", p+"/versions", url.Values{"name": {"Kickoff"}}, false).Code; code != 303 {
		t.Errorf("naming a version once the reads are done: %d", code)
	}
	if code := c.do("GET", p+"/compare?from=1", nil, false).Code; code != 200 {
		t.Errorf("comparing once the reads are done: %d", code)
	}
}

// TestPageTypeCompletion: the details form's page type offers the types
// the plan uses, the most used first, so a typo does not make a new one.
func TestPageTypeCompletion(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	for _, title := range []string{"Team", "Contact"} {
		pg, _ := c.db.Pages.Page(context.Background(), ids[title])
		pg.Type = "article"
		if err := c.db.Pages.UpdatePage(context.Background(), &pg); err != nil {
			t.Fatal(err)
		}
	}
	d := doc(t, c.do("GET", pagePath(pid, ids["Pricing"]), nil, false))
	field := d.Find("#f-type")
	if list := field.AttrOr("list", ""); list != "page-types" || d.Find("datalist#page-types").Length() != 1 {
		t.Errorf("the page type field's list is %q, want the page's datalist page-types", list)
	}
	// The field fills the list when it is first focused.
	types := field.AttrOr("hx-get", "")
	if types != "/projects/"+itoa(pid)+"/types" || field.AttrOr("hx-target", "") != "#page-types" {
		t.Fatalf("the page type field asks %q for %q, want the plan's types", types, field.AttrOr("hx-target", ""))
	}
	var got []string
	doc(t, c.do("GET", types, nil, true)).Find("option").Each(func(_ int, o *goquery.Selection) { got = append(got, o.AttrOr("value", "")) })
	if len(got) == 0 || got[0] != "article" || !slices.Contains(got, "sales") || slices.Contains(got, "") {
		t.Errorf("page types offered %q, want article (used twice) first and sales among them", got)
	}
}

// TestDatabaseLost: while the server's database does not answer, every
// request that needs it answers 503 with Retry-After, /healthz too, so
// a balancer sends the traffic elsewhere; never 500.
func TestDatabaseLost(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	c.db.Close()
	anon := &client{t: t, srv: c.srv, db: c.db, cookies: map[string]*http.Cookie{}} // a balancer's health check has no cookie
	if rec := anon.do("GET", "/healthz", nil, false); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("/healthz to a balancer: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	for _, path := range []string{"/healthz", "/", "/projects/" + itoa(pid), "/projects/" + itoa(pid) + "/document.json"} {
		rec := c.do("GET", path, nil, false)
		if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
			t.Errorf("GET %s without a database: %d, Retry-After %q", path, rec.Code, rec.Header().Get("Retry-After"))
		}
	}
	if rec := c.do("POST", "/projects/"+itoa(pid)+"/pages", url.Values{"parent": {"0"}}, true); rec.Code != http.StatusServiceUnavailable {
		t.Errorf("a write without a database: %d", rec.Code)
	}
}

// TestHandoffDownloads: the Export page offers the CMS handoff as the
// command line writes it: WordPress's WXR and the routes JSON.
func TestHandoffDownloads(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	p := "/projects/" + itoa(pid)
	d := doc(t, c.do("GET", p+"/export", nil, false))
	if d.Find(`#handoff a[href$="/handoff/wxr"]`).Length() != 1 || d.Find(`#handoff a[href$="/handoff/routes"]`).Length() != 1 {
		t.Errorf("the Export page offers no handoff")
	}
	rec := c.do("GET", p+"/handoff/wxr", nil, false)
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Disposition"), "acme-relaunch-wordpress.xml") || !strings.Contains(rec.Body.String(), "<wp:post_type>") {
		t.Errorf("the WXR: %d %q %.200s", rec.Code, rec.Header().Get("Content-Disposition"), rec.Body.String())
	}
	rec = c.do("GET", p+"/handoff/routes", nil, false)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"format": "siteplan-routes/1"`) {
		t.Errorf("the routes: %d %.200s", rec.Code, rec.Body.String())
	}
	if rec := c.do("GET", p+"/handoff/drupal", nil, false); rec.Code != 404 {
		t.Errorf("an unknown handoff: %d", rec.Code)
	}
	// Before anyone imports: the page whose path override WordPress
	// cannot follow (Privacy, at /legal/privacy while it sits at the top).
	rec = c.do("GET", p+"/handoff/wordpress-check", nil, true)
	if got := doc(t, rec).Find("#handoff-warnings li").Text(); rec.Code != 200 || !strings.Contains(got, "“Privacy”: WordPress would put it at /privacy, not /legal/privacy") {
		t.Errorf("the WordPress check: %d %q", rec.Code, got)
	}
}

// TestExportLocalizedZip: the export zip of a localized plan holds a
// sitemap per locale under the index, with the locales' side files.
func TestExportLocalizedZip(t *testing.T) {
	c := newClient(t)
	c.fixture()
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := c.db.Projects.ImportDocument(context.Background(), 1, d)
	if err != nil {
		t.Fatal(err)
	}
	rec := c.do("GET", "/projects/"+itoa(pid)+"/export.zip", nil, false)
	zr, err := zip.NewReader(bytes.NewReader(rec.Body.Bytes()), int64(rec.Body.Len()))
	if err != nil {
		t.Fatalf("zip: %v (%d %s)", err, rec.Code, rec.Body.String())
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	if got := strings.Join(names, " "); got != "footer-de.html footer-en.html footer-fr-CH.html inventory.csv robots.txt sitemap-de.txt sitemap-de.xml sitemap-en.txt sitemap-en.xml sitemap-fr-CH.txt sitemap-fr-CH.xml sitemap.xml" {
		t.Errorf("the zip holds %s", got)
	}
	// The Export page lists the locales' files, and each is served at
	// its stable URL.
	page := doc(t, c.do("GET", "/projects/"+itoa(pid)+"/export", nil, false))
	if !strings.Contains(page.Text(), "sitemap-fr-CH.xml") || !strings.Contains(page.Find("#preview").Text(), "<sitemapindex") {
		t.Errorf("the Export page: %s", page.Find("main").Text())
	}
	rec = c.do("GET", "/projects/"+itoa(pid)+"/sitemap-de.xml", nil, false)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `<xhtml:link rel="alternate" hreflang="de" href="https://www.acme.example/de/produkte/preise"/>`) {
		t.Errorf("sitemap-de.xml: %d %s", rec.Code, rec.Body.String())
	}
}

// TestSettingsLocales: the settings form lists a plan's locales and
// takes new ones, refuses a wrong tag with the fix, and a locale taken
// away keeps its translations aside until it is added again.
func TestSettingsLocales(t *testing.T) {
	c := newClient(t)
	c.fixture()
	ctx := context.Background()
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := c.db.Projects.ImportDocument(ctx, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	path := "/projects/" + itoa(pid) + "/settings"
	page := doc(t, c.do("GET", path, nil, false))
	var rows []string
	page.Find("table.locales tbody tr").Each(func(_ int, tr *goquery.Selection) {
		tag, _ := tr.Find("input[name=locale_tag]").Attr("value")
		place, _ := tr.Find("input[name=locale_place]").Attr("value")
		_, def := tr.Find("input[name=locale_default]").Attr("checked")
		rows = append(rows, fmt.Sprintf("%s %s %t", tag, place, def))
	})
	if got := strings.Join(rows, ", "); got != "en /en/ true, de /de/ false, fr-CH https://acme.ch/fr/ false,   false,   false" {
		t.Errorf("the form's locale rows: %s", got)
	}
	save := func(tags, places []string, def string) *httptest.ResponseRecorder {
		t.Helper()
		p, err := c.db.Projects.Project(ctx, pid)
		if err != nil {
			t.Fatal(err)
		}
		form := url.Values{"version": {strconv.FormatInt(p.Version, 10)}, "name": {p.Name}, "base_url": {p.BaseURL},
			"locale_tag": tags, "locale_place": places, "locale_default": {def}}
		return c.do("PUT", path, form, true)
	}
	rec := save([]string{"en", "en-UK", ""}, []string{"/en/", "/uk/", ""}, "0")
	if msg := doc(t, rec).Find("#err-locales").Text(); rec.Code != 422 || !strings.Contains(msg, "use en-GB") {
		t.Errorf("a wrong tag: %d %q", rec.Code, msg)
	}
	urlOf := func(title, tag string) string {
		tr, err := c.db.Pages.Tree(ctx, pid)
		if err != nil {
			t.Fatal(err)
		}
		var id int64
		tr.Walk(func(p *site.Page, _ int) bool {
			if p.Title == title {
				id = p.ID
			}
			return true
		})
		return tr.LocaleURL(id, tag)
	}
	// Take de away: the plan has two locales, its dump reads back.
	if rec := save([]string{"en", "fr-ch", ""}, []string{"/en/", "https://acme.ch/fr/", ""}, "0"); rec.Code != 200 {
		t.Fatalf("removing de: %d %s", rec.Code, rec.Body.String())
	}
	if got := urlOf("Pricing", "de"); got != "" {
		t.Errorf("Pricing in a locale taken away: %q", got)
	}
	dump := c.do("GET", "/projects/"+itoa(pid)+"/document.json", nil, false)
	if dd, err := site.ParseDocument(dump.Body); err != nil || len(dd.Project.Locales) != 2 {
		t.Errorf("the dump after removing de: %v", err)
	}
	// Add it back, as a domain of its own: its translations are there.
	if rec := save([]string{"en", "fr-CH", "de"}, []string{"/en/", "https://acme.ch/fr/", "https://acme.de"}, "0"); rec.Code != 200 {
		t.Fatalf("adding de: %d %s", rec.Code, rec.Body.String())
	}
	if got := urlOf("Pricing", "de"); got != "https://acme.de/produkte/preise" {
		t.Errorf("Pricing in de added back: %q", got)
	}
}

// TestTranslationsPanel: a localized plan's page shows its title, slug
// and state in each locale in the details panel, the default locale's
// words in grey until translated; saving one sets it (and its URL
// there), a slug a sibling has there is refused beside the locales.
func TestTranslationsPanel(t *testing.T) {
	c := newClient(t)
	c.fixture()
	ctx := context.Background()
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := c.db.Projects.ImportDocument(ctx, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	tr, _ := c.db.Pages.Tree(ctx, pid)
	tr.Walk(func(p *site.Page, _ int) bool { ids[p.Title] = p.ID; return true })
	panel := doc(t, c.do("GET", pagePath(pid, ids["Pricing"]), nil, true)).Find("#translations")
	var rows []string
	panel.Find("form.translation").Each(func(_ int, f *goquery.Selection) {
		tag, _ := f.Attr("data-locale")
		title, _ := f.Find("input[name=title]").Attr("value")
		grey, _ := f.Find("input[name=title]").Attr("placeholder")
		rows = append(rows, fmt.Sprintf("%s %q/%q %s", tag, title, grey, f.Find("select[name=state] option[selected]").Text()))
	})
	if got := strings.Join(rows, ", "); got != `en ""/"" planned, de "Preise"/"Pricing" planned, fr-CH ""/"Pricing" not offered` {
		t.Errorf("the panel: %s", got)
	}
	rec := c.do("PUT", pagePath(pid, ids["Pricing"])+"/variants/fr-CH", url.Values{"title": {"Tarifs"}, "state": {"ready"}}, true)
	if rec.Code != 200 || doc(t, rec).Find("[role=status]").Text() != "Saved." {
		t.Fatalf("saving fr-CH: %d %s", rec.Code, rec.Body.String())
	}
	tr, _ = c.db.Pages.Tree(ctx, pid)
	if got := tr.LocaleURL(ids["Pricing"], "fr-CH"); got != "https://acme.ch/fr/products/tarifs" {
		t.Errorf("Pricing in fr-CH: %q", got)
	}
	rec = c.do("PUT", pagePath(pid, ids["Swiss stores"])+"/variants/de", url.Values{"slug": {"produkte"}, "state": {"planned"}}, true)
	if msg := doc(t, rec).Find("#translations .alert-error").Text(); rec.Code != 422 || !strings.Contains(msg, `already has the slug "produkte"`) {
		t.Errorf("a sibling's slug: %d %q", rec.Code, msg)
	}
}

// TestCoveragePage: a localized plan's pages × locales, each cell the
// page's state there, filtered by locale and state ("what is missing in
// de"), a stretch of rows at a time.
func TestCoveragePage(t *testing.T) {
	c := newClient(t)
	c.fixture()
	ctx := context.Background()
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := c.db.Projects.ImportDocument(ctx, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	rows := func(query string) string {
		t.Helper()
		page := doc(t, c.do("GET", "/projects/"+itoa(pid)+"/locales"+query, nil, false))
		var out []string
		page.Find("table.coverage tbody tr").Each(func(_ int, tr *goquery.Selection) {
			var cells []string
			tr.Find("td .state").Each(func(_ int, s *goquery.Selection) { cells = append(cells, s.Text()) })
			out = append(out, strings.TrimSpace(tr.Find("th").Text())+": "+strings.Join(cells, "/"))
		})
		return strings.Join(out, ", ") + " (" + strings.TrimSpace(page.Find("#coverage-count").Text()) + ")"
	}
	for _, tt := range []struct{ query, want string }{
		{"", "Home: planned/planned/planned, Products: planned/ready/planned, Pricing: planned/planned/not offered, Swiss stores: not offered/not offered/translating (1–4 of 4 pages)"},
		{"?locale=de&state=missing", "Home: planned/planned/planned, Pricing: planned/planned/not offered (1–2 of 2 pages)"},
		{"?locale=fr-CH&state=not_offered", "Pricing: planned/planned/not offered (1–1 of 1 page)"},
		{"?state=translating", "Swiss stores: not offered/not offered/translating (1–1 of 1 page)"},
		{"?offset=3", "Swiss stores: not offered/not offered/translating (4–4 of 4 pages)"},
	} {
		if got := rows(tt.query); got != tt.want {
			t.Errorf("%q:\n%s\nwant\n%s", tt.query, got, tt.want)
		}
	}
	// A branch set not offered in de at once.
	var products string
	page := doc(t, c.do("GET", "/projects/"+itoa(pid)+"/locales", nil, false))
	page.Find("#branch-state select[name=page] option").Each(func(_ int, o *goquery.Selection) {
		if strings.HasSuffix(o.Text(), "Products") {
			products, _ = o.Attr("value")
		}
	})
	rec := c.do("POST", "/projects/"+itoa(pid)+"/locales/branch", url.Values{"page": {products}, "locale": {"de"}, "state": {"not_offered"}}, false)
	if rec.Code != 303 || rec.Header().Get("Location") != "/projects/"+itoa(pid)+"/locales?locale=de&set=2" {
		t.Fatalf("setting the branch: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if got := rows("?locale=de&state=not_offered"); got != "Products: planned/not offered/planned, Pricing: planned/not offered/not offered, Swiss stores: not offered/not offered/translating (1–3 of 3 pages)" {
		t.Errorf("after setting the branch: %s", got)
	}
	if n := doc(t, c.do("GET", "/projects/"+itoa(pid)+"/locales?locale=de&set=2", nil, false)).Find("#coverage-notice").Text(); n != "Set 2 pages; undo takes it back." {
		t.Errorf("notice: %q", n)
	}
}

// TestStudyLink: a tree test's link, without the script: the intro, the
// start, a step of the tree (the whole page back, its tree as it is),
// and, once the study is revoked, the closed page for a participant in
// the middle of it, nothing more recorded.
func TestStudyLink(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	st := site.Study{ProjectID: pid, Name: "Navigation", Tasks: []site.TreeTask{{Text: "Where are the prices?", Correct: []int64{ids["Pricing"]}}}}
	token, err := c.db.TreeTests.CreateStudy(ctx, &st)
	if err != nil {
		t.Fatal(err)
	}
	link := "/t/" + token
	if d := doc(t, c.do("GET", link+"?segment=clients", nil, false)); d.Find(`form[action="`+link+`/start?segment=clients"] button`).Text() != "Start" {
		t.Fatalf("the intro has no Start form keeping the parameters")
	}
	if rec := c.do("POST", link+"/start?segment=clients", url.Values{}, false); rec.Code != http.StatusSeeOther {
		t.Fatalf("start: %d", rec.Code)
	}
	d := doc(t, c.do("GET", link, nil, false))
	if d.Find("#task-text").Text() != "Where are the prices?" || d.Find(".tt-item").Length() == 0 {
		t.Fatalf("the task: %s", d.Find("#study-main").Text())
	}
	rec := c.do("POST", link+"/step", url.Values{"open": {itoa(ids["Products"])}}, false)
	if d := doc(t, rec); rec.Code != 200 || d.Find(fmt.Sprintf(`#tt-%d[aria-expanded="true"]`, ids["Products"])).Length() != 1 || d.Find("header.topbar").Length() != 1 {
		t.Errorf("a step without the script: %d, the whole page with Products open", rec.Code)
	}
	if err := c.db.TreeTests.RevokeStudy(ctx, pid, st.ID); err != nil {
		t.Fatal(err)
	}
	before, _ := c.db.TreeTests.Events(ctx, st.ID)
	if d := doc(t, c.do("GET", link, nil, false)); !strings.Contains(d.Find("#study-main h1").Text(), "closed") {
		t.Errorf("after the revoke: %s", d.Find("#study-main").Text())
	}
	if d := doc(t, c.do("POST", link+"/step", url.Values{"open": {itoa(ids["Pricing"])}}, true)); !strings.Contains(d.Find("h1").Text(), "closed") {
		t.Errorf("a step after the revoke: %s", d.Text())
	}
	if after, _ := c.db.TreeTests.Events(ctx, st.ID); len(after) != len(before) || len(before) != 2 {
		t.Errorf("events: %d before the revoke (a start, an open), %d after", len(before), len(after))
	}
	if ps, _ := c.db.TreeTests.Participants(ctx, st.ID); len(ps) != 1 || ps[0].Params["segment"] != "clients" {
		t.Errorf("participants: %+v", ps)
	}
}

// TestStudyTimeLimitConfidence: a task's time limit is the server's to
// keep (a press after it ends the task as timed out, with or without
// the script), and a task that asks for confidence asks after it ends,
// before the next task starts.
func TestStudyTimeLimitConfidence(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	st := site.Study{ProjectID: pid, Name: "Navigation", Tasks: []site.TreeTask{
		{Text: "Where are the prices?", Correct: []int64{ids["Pricing"]}, TimeLimit: 30, Confidence: true},
		{Text: "Where is the team?", Correct: []int64{ids["Pricing"]}},
	}}
	token, err := c.db.TreeTests.CreateStudy(ctx, &st)
	if err != nil {
		t.Fatal(err)
	}
	var offset time.Duration
	c.srv.now = func() time.Time { return time.Now().Add(offset) }
	link := "/t/" + token
	c.do("POST", link+"/start", url.Values{}, false)
	if d := doc(t, c.do("GET", link, nil, false)); d.Find("#task-timer").Text() != "0:30" || d.Find("button[data-timeout][hidden]").Length() != 1 {
		t.Errorf("the timer: %q", d.Find(".tt-timer").Text())
	}
	c.do("POST", link+"/step", url.Values{"open": {itoa(ids["Products"])}}, true)
	offset = 31 * time.Second
	d := doc(t, c.do("POST", link+"/step", url.Values{"open": {itoa(ids["Pricing"])}}, true))
	if d.Find("#ask").Text() != "How sure are you of your answer?" || d.Find(`input[name=confidence]`).Length() != 7 {
		t.Fatalf("after the limit: %s", d.Text())
	}
	if d := doc(t, c.do("GET", link, nil, false)); d.Find("#ask").Length() != 1 {
		t.Errorf("a reload before the answer: %s", d.Find("#study-main").Text())
	}
	d = doc(t, c.do("POST", link+"/step", url.Values{"confidence": {"5"}}, true))
	if d.Find("#task-text").Text() != "Where is the team?" || d.Find("#task-timer").Length() != 0 {
		t.Errorf("after the answer: %s", d.Text())
	}
	events, _ := c.db.TreeTests.Events(ctx, st.ID)
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e.Task+":"+e.Kind)
	}
	if got := strings.Join(kinds, " "); got != "1:start 1:open 1:timeout 1:confidence 2:start" {
		t.Errorf("events: %s", got)
	}
	if events[3].PageID != 5 {
		t.Errorf("the answer kept: %+v", events[3])
	}
}
