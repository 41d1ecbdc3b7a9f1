package web

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"siteplan/site"
	"siteplan/store"
)

// freshClient is an anonymous client of a server on an empty database.
func freshClient(t *testing.T) *client {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "fresh.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := &client{t: t, db: db, srv: New(partsOf(db), staticFS, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{}), cookies: map[string]*http.Cookie{}}
	t.Cleanup(c.srv.Close) // before the database closes: its background workers read it
	rec := c.do("GET", "/signup", nil, false)
	if rec.Code != 200 {
		t.Fatalf("GET /signup on a fresh database: %d", rec.Code)
	}
	c.token = c.cookies["_csrf"].Value
	return c
}

// peer is another anonymous client of the same server.
func (c *client) peer() *client {
	return anonymous(c.t, c.srv, c.db)
}

func wantStatus(t testing.TB, rec *httptest.ResponseRecorder, want int, what string) {
	t.Helper()
	if rec.Code != want {
		t.Fatalf("%s: got %d, want %d: %.400s", what, rec.Code, want, rec.Body.String())
	}
}

func TestFirstAccountSignsUpThenSignUpCloses(t *testing.T) {
	c := freshClient(t)
	rec := c.do("GET", "/", nil, false)
	wantStatus(t, rec, 303, "GET / logged out")
	if loc := rec.Header().Get("Location"); loc != "/login?next=%2F" {
		t.Errorf("redirect to %q, want the login page", loc)
	}
	wantStatus(t, c.do("GET", "/login", nil, false), 303, "GET /login without accounts")
	rec = c.do("POST", "/signup", url.Values{"email": {"bad"}, "name": {"Ana"}, "password": {"short"}, "team": {"Agency"}}, false)
	wantStatus(t, rec, 422, "bad sign-up")
	if d := doc(t, rec); d.Find("#err-email").Length() != 1 || d.Find("#err-password").Length() != 1 || d.Find("#f-name").AttrOr("value", "") != "Ana" {
		t.Errorf("the refused form does not say what to fix or lost what was typed")
	}
	rec = c.do("POST", "/signup", url.Values{"email": {"ana@agency.example"}, "name": {"Ana"}, "password": {testPassword}, "team": {"Agency"}}, false)
	wantStatus(t, rec, 303, "sign-up")
	ck := c.cookies[sessionCookie]
	if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure {
		t.Fatalf("session cookie %+v, want HttpOnly, SameSite=Lax, not Secure over plain HTTP", ck)
	}
	rec = c.do("GET", "/", nil, false)
	wantStatus(t, rec, 200, "projects after sign-up")
	if got := doc(t, rec).Find(".team-name").Text(); got != "Agency" {
		t.Errorf("team shown %q, want Agency", got)
	}
	other := c.peer()
	wantStatus(t, other.do("POST", "/signup", url.Values{"email": {"bo@agency.example"}, "name": {"Bo"}, "password": {testPassword}, "team": {"Bo's"}}, false), 403, "second sign-up")
}

func TestSessionRotatesAtLoginAndEndsAtLogout(t *testing.T) {
	c := newClient(t)
	old := c.cookies[sessionCookie].Value
	c.login("owner@test.example")
	if c.cookies[sessionCookie].Value == old {
		t.Fatal("the session id was not rotated at login")
	}
	stale := &client{t: t, srv: c.srv, db: c.db, token: c.token, cookies: map[string]*http.Cookie{
		"_csrf": c.cookies["_csrf"], sessionCookie: {Name: sessionCookie, Value: old}}}
	wantStatus(t, stale.do("GET", "/", nil, false), 303, "GET / with the session from before the login")

	current := c.cookies[sessionCookie].Value
	wantStatus(t, c.do("POST", "/logout", nil, false), 303, "logout")
	if _, _, err := c.db.Accounts.Session(context.Background(), current); site.ErrorCode(err) != site.EUnauthorized {
		t.Errorf("the session still exists on the server after logout: %v", err)
	}
	stale.cookies[sessionCookie] = &http.Cookie{Name: sessionCookie, Value: current}
	wantStatus(t, stale.do("GET", "/", nil, false), 303, "GET / with a logged-out session cookie")
}

// TestSessionCookieSecureBehindTLS: behind a TLS proxy the server
// trusts (serve --trusted-proxies), the session cookie is Secure; a
// visitor's own X-Forwarded-Proto is not believed.
func TestSessionCookieSecureBehindTLS(t *testing.T) {
	c := newClient(t)
	nets, err := ParseProxies("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	c.srv.trustProxies(nets)
	for _, tt := range []struct {
		peer   string
		secure bool
	}{{"127.0.0.1:41000", true}, {"192.0.2.7:41000", false}} {
		rec := c.from(tt.peer, "", "/login", url.Values{"email": {"owner@test.example"}, "password": {testPassword}}, func(r *http.Request) {
			r.Header.Set("X-Forwarded-Proto", "https")
		})
		wantStatus(t, rec, 303, "login behind TLS")
		found := false
		for _, ck := range rec.Result().Cookies() {
			if ck.Name == sessionCookie {
				found = true
				if ck.Secure != tt.secure {
					t.Errorf("from %s, the session cookie's Secure is %t, want %t: %s", tt.peer, ck.Secure, tt.secure, rec.Header().Values("Set-Cookie"))
				}
			}
		}
		if !found {
			t.Error("no session cookie")
		}
	}
	// The CSRF cookie a page sets is Secure behind TLS too.
	req := httptest.NewRequest("GET", "/login", nil)
	req.RemoteAddr = "127.0.0.1:41000"
	req.Header.Set("X-Forwarded-Proto", "https")
	rec := httptest.NewRecorder()
	c.srv.Echo.ServeHTTP(rec, req)
	csrf := false
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == "_csrf" {
			csrf = true
			if !ck.Secure {
				t.Errorf("the CSRF cookie behind TLS is not Secure: %s", rec.Header().Values("Set-Cookie"))
			}
		}
	}
	if !csrf {
		t.Error("no CSRF cookie on the login page")
	}
}

// from posts form to path as a connection from peer (a balancer's or a
// visitor's address) that says it forwards for xff ("": says nothing).
func (c *client) from(peer, xff, path string, form url.Values, also ...func(*http.Request)) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.RemoteAddr = peer
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	req.AddCookie(c.cookies["_csrf"])
	req.Header.Set("X-CSRF-Token", c.token)
	for _, f := range also {
		f(req)
	}
	rec := httptest.NewRecorder()
	c.srv.Echo.ServeHTTP(rec, req)
	return rec
}

// TestLoginLimitBehindABalancer: behind a balancer the server trusts,
// failures are charged to the visitor's address in X-Forwarded-For (read
// from the right, past the trusted proxies): 25 wrong passwords for
// made-up accounts from one visitor stop that visitor, never another
// visitor's right password. A visitor cannot choose the address charged
// by sending the header itself, whether or not proxies are trusted.
func TestLoginLimitBehindABalancer(t *testing.T) {
	c := newClient(t)
	balancer := "127.0.0.1:50000"
	login := func(peer, xff, email, pw string) *httptest.ResponseRecorder {
		return c.from(peer, xff, "/login", url.Values{"email": {email}, "password": {pw}})
	}
	attack := func(peer, xff string) {
		for i := range addressBurst + 5 {
			login(peer, xff, "nobody"+itoa(int64(i))+"@test.example", "guess")
		}
	}

	// Without trusted proxies the header is ignored: a visitor naming
	// another's address in it is charged as themselves.
	attack("192.0.2.66:1234", "198.51.100.7")
	wantStatus(t, login("198.51.100.7:1234", "", "owner@test.example", testPassword), 303, "the address the attacker named logs in")
	wantStatus(t, login("192.0.2.66:1234", "", "owner@test.example", testPassword), 429, "the attacker's own address")

	nets, err := ParseProxies("127.0.0.1/32")
	if err != nil {
		t.Fatal(err)
	}
	c.srv.trustProxies(nets)
	// The attacker's balancer-appended address is the rightmost; what
	// they put in the header themselves comes before it.
	attack(balancer, "198.51.100.8, 203.0.113.9")
	wantStatus(t, login(balancer, "198.51.100.8", "owner@test.example", testPassword), 303, "another visitor through the balancer")
	wantStatus(t, login(balancer, "203.0.113.9", "owner@test.example", testPassword), 429, "the attacker through the balancer")
	// A peer that is no trusted proxy is charged as itself, whatever it
	// forwards.
	attack("192.0.2.99:1", "198.51.100.10")
	wantStatus(t, login(balancer, "198.51.100.10", "owner@test.example", testPassword), 303, "the visitor an untrusted peer named")
}

func TestParseProxies(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string
		bad  bool
	}{
		{"", "", false},
		{"10.0.0.0/8, 127.0.0.1", "10.0.0.0/8 127.0.0.1/32", false},
		{"::1 fd00::/8", "::1/128 fd00::/8", false},
		{"10.0.0.0/33", "", true},
		{"balancer.internal", "", true},
	} {
		nets, err := ParseProxies(tt.in)
		if (err != nil) != tt.bad {
			t.Errorf("ParseProxies(%q): error %v, want error %t", tt.in, err, tt.bad)
			continue
		}
		var got []string
		for _, n := range nets {
			got = append(got, n.String())
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("ParseProxies(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCSRFOnLoginAndEdits(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	for _, path := range []string{"/login", "/projects/" + itoa(pid) + "/pages/" + itoa(ids["Home"]) + "/title"} {
		forged := &client{t: t, srv: c.srv, db: c.db, cookies: c.cookies} // cookies but no token
		method := "POST"
		if strings.HasSuffix(path, "/title") {
			method = "PATCH"
		}
		rec := forged.do(method, path, url.Values{"email": {"owner@test.example"}, "password": {testPassword}, "title": {"Hacked"}, "version": {"1"}}, false)
		wantStatus(t, rec, 403, method+" "+path+" without the CSRF token")
	}
	if pg, _ := c.db.Pages.Page(context.Background(), ids["Home"]); pg.Title != "Home" {
		t.Errorf("a forged request renamed the page to %q", pg.Title)
	}
}

func TestLoginRateLimit(t *testing.T) {
	c := newClient(t)
	addUser(t, c.db, "bo@test.example", "Bo", "1", site.RoleEditor)
	anon := c.peer()
	try := func(email, pw string) *httptest.ResponseRecorder {
		return anon.do("POST", "/login", url.Values{"email": {email}, "password": {pw}}, false)
	}
	for i := range accountBurst {
		wantStatus(t, try("owner@test.example", "wrong password"), 401, "failed login "+itoa(int64(i+1)))
	}
	rec := try("owner@test.example", testPassword)
	wantStatus(t, rec, 429, "the right password after 5 failures")
	if rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "Too many failed logins for this account") {
		t.Errorf("429 without Retry-After or a message: %.300s", rec.Body.String())
	}
	// Another account from the same address still logs in.
	wantStatus(t, try("bo@test.example", testPassword), 303, "another account")
	// An address that fails across many accounts is stopped too.
	for i := range addressBurst - accountBurst {
		try("nobody"+itoa(int64(i))+"@test.example", "x")
	}
	wantStatus(t, try("bo@test.example", testPassword), 429, "a known account from an address with 20 failures")
	// After the wait, the account may try again.
	c.srv.logins.now = func() time.Time { return time.Now().Add(10 * time.Minute) }
	wantStatus(t, try("owner@test.example", testPassword), 303, "login after the wait")
}

// inviteURL creates an invite through the team page and returns its path.
func (c *client) inviteURL(role, days string) string {
	c.t.Helper()
	rec := c.do("POST", "/team/invites", url.Values{"role": {role}, "days": {days}}, true)
	wantStatus(c.t, rec, 201, "create invite")
	u, err := url.Parse(doc(c.t, rec).Find("#new-invite").AttrOr("value", ""))
	if err != nil || !strings.HasPrefix(u.Path, "/invite/") {
		c.t.Fatalf("no invite link in %.300s", rec.Body.String())
	}
	return u.Path
}

func TestInviteIsSingleUseAndExpires(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	path := c.inviteURL("viewer", "1")
	if stored, _ := c.db.Sharing.Invites(context.Background(), 1); len(stored) != 1 {
		t.Fatalf("got %d invites listed, want 1", len(stored))
	}
	joiner := c.peer()
	wantStatus(t, joiner.do("GET", path, nil, false), 200, "open the invite")
	rec := joiner.do("POST", path, url.Values{"email": {"cy@client.example"}, "name": {"Cy"}, "password": {testPassword}}, false)
	wantStatus(t, rec, 303, "join")
	wantStatus(t, joiner.do("GET", "/projects/"+itoa(pid), nil, false), 200, "the new viewer opens the team's plan")
	wantStatus(t, joiner.do("PATCH", "/projects/"+itoa(pid), url.Values{"name": {"x"}}, true), 403, "the new viewer renames the plan")

	second := c.peer()
	wantStatus(t, second.do("GET", path, nil, false), 404, "open a used invite")
	wantStatus(t, second.do("POST", path, url.Values{"email": {"dee@client.example"}, "name": {"Dee"}, "password": {testPassword}}, false), 404, "use an invite twice")

	late := c.inviteURL("editor", "1")
	now := time.Now().Add(25 * time.Hour)
	c.db.Now = func() time.Time { return now }
	wantStatus(t, c.peer().do("GET", late, nil, false), 404, "open an expired invite")
}

// shareURL creates a share link and returns its path and id.
func (c *client) shareURL(pid int64, role, expires string) (string, int64) {
	c.t.Helper()
	rec := c.do("POST", "/projects/"+itoa(pid)+"/sharing", url.Values{"role": {role}, "expires": {expires}, "label": {"Client"}}, true)
	wantStatus(c.t, rec, 201, "create share link")
	d := doc(c.t, rec)
	u, _ := url.Parse(d.Find("#new-share").AttrOr("value", ""))
	id := strings.TrimPrefix(d.Find(".share-list tbody tr").First().AttrOr("id", ""), "share-")
	if !strings.HasPrefix(u.Path, "/s/") || id == "" {
		c.t.Fatalf("no share link in %.300s", rec.Body.String())
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		c.t.Fatalf("share link row id %q: %v", id, err)
	}
	return u.Path, n
}

func TestShareLinkRevocationAndExpiryTakeEffectAtOnce(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	path, sid := c.shareURL(pid, "comment", "7d")
	visitor := c.peer()
	rec := visitor.do("GET", path, nil, false)
	wantStatus(t, rec, 303, "open the share link")
	if loc := rec.Header().Get("Location"); loc != "/projects/"+itoa(pid) {
		t.Fatalf("share link leads to %q", loc)
	}
	rec = visitor.do("GET", "/projects/"+itoa(pid), nil, false)
	wantStatus(t, rec, 200, "the plan through the share link")
	d := doc(t, rec)
	if d.Find(".share-badge").Length() != 1 || d.Find("[data-action=rename]").Length() != 0 || d.Find("a[href$='/settings']").Length() != 0 {
		t.Errorf("the share visitor sees editing controls or settings")
	}
	wantStatus(t, visitor.do("GET", "/", nil, false), 303, "the share visitor opens the project list")
	wantStatus(t, visitor.do("GET", "/team", nil, false), 303, "the share visitor opens the member list")
	rec = visitor.do("POST", "/projects/"+itoa(pid)+"/pages/"+itoa(ids["Pricing"])+"/comments", url.Values{"author": {"Zoë, Client"}, "body": {"Can we add yearly prices?"}}, true)
	wantStatus(t, rec, 201, "comment through the share link")
	if !strings.Contains(rec.Body.String(), "Zoë, Client") {
		t.Errorf("the comment is missing: %.400s", rec.Body.String())
	}
	if got, want := rec.Header().Get("HX-Trigger"), fmt.Sprintf(`{"comment-count":{"id":%d,"label":"💬 1"}}`, ids["Pricing"]); got != want {
		t.Errorf("the outline's count: HX-Trigger %s, want %s", got, want)
	}
	// The name is remembered for the next comment, accents and comma kept.
	rec = visitor.do("POST", "/projects/"+itoa(pid)+"/pages/"+itoa(ids["About us"])+"/comments", url.Values{"body": {"And a team photo?"}}, true)
	wantStatus(t, rec, 201, "second comment without typing the name")
	if threads, _ := c.db.Comments.Comments(context.Background(), ids["About us"]); len(threads) != 1 || threads[0].Author != "Zoë, Client" {
		t.Errorf("second comment went under %+v, want Zoë, Client", threads)
	}
	rec = c.do("GET", "/projects/"+itoa(pid)+"/comments", nil, true)
	if !strings.Contains(rec.Body.String(), "Can we add yearly prices?") {
		t.Errorf("the owner's open comments miss the client's comment")
	}

	wantStatus(t, c.do("DELETE", "/projects/"+itoa(pid)+"/sharing/"+itoa(sid), nil, true), 200, "revoke")
	rec = visitor.do("GET", "/projects/"+itoa(pid), nil, false)
	wantStatus(t, rec, 404, "the plan after revoking")
	if !strings.Contains(rec.Body.String(), "revoked or has expired") {
		t.Errorf("the revoked visitor is not told why: %.300s", rec.Body.String())
	}

	path, _ = c.shareURL(pid, "view", "1d")
	visitor = c.peer()
	wantStatus(t, visitor.do("GET", path, nil, false), 303, "open the second link")
	wantStatus(t, visitor.do("POST", "/projects/"+itoa(pid)+"/pages/"+itoa(ids["Pricing"])+"/comments", url.Values{"author": {"V"}, "body": {"x"}}, true), 403, "comment through a view link")
	now := time.Now().Add(25 * time.Hour)
	c.db.Now = func() time.Time { return now }
	wantStatus(t, visitor.do("GET", "/projects/"+itoa(pid)+"/outline", nil, true), 404, "the plan after the link expired")
}

func TestIDsOfAnotherProjectAreRefused(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	qid, qids := c.fixture()
	cm := site.Comment{ProjectID: qid, PageID: qids["Pricing"], Author: "X", Body: "other project"}
	if err := c.db.Comments.AddComment(context.Background(), &cm, 0); err != nil {
		t.Fatal(err)
	}
	p := "/projects/" + itoa(pid)
	for _, r := range []struct {
		method, path string
		form         url.Values
	}{
		{"GET", p + "/pages/" + itoa(qids["Pricing"]), nil},
		{"PATCH", p + "/pages/" + itoa(qids["Pricing"]) + "/title", url.Values{"title": {"x"}, "version": {"1"}}},
		{"POST", p + "/pages/" + itoa(qids["Pricing"]) + "/comments", url.Values{"body": {"x"}}},
		{"POST", p + "/comments/" + itoa(cm.ID) + "/resolve", nil},
		{"POST", p + "/pages/" + itoa(ids["Pricing"]) + "/links", url.Values{"to": {itoa(qids["Home"])}}},
		{"POST", p + "/pages/" + itoa(ids["Pricing"]) + "/move", url.Values{"parent": {itoa(qids["Home"])}, "position": {"0"}}},
	} {
		rec := c.do(r.method, r.path, r.form, true)
		if rec.Code != 404 && rec.Code != 422 {
			t.Errorf("%s %s with another project's id: got %d, want 404 or 422", r.method, r.path, rec.Code)
		}
	}
	if open, _ := c.db.Comments.OpenComments(context.Background(), qid); len(open) != 1 {
		t.Errorf("the other project's comment was resolved through this one")
	}
}

// TestLiveUpdates opens a real event stream as a viewer while the owner
// renames a page: the change arrives, with who is viewing.
func TestLiveUpdates(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	addUser(t, c.db, "vi@test.example", "Vi Viewer", "1", site.RoleViewer)
	ts := httptest.NewServer(c.srv.Echo)
	defer ts.Close()
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	v := anonymous(t, c.srv, c.db)
	v.login("vi@test.example")
	u, _ := url.Parse(ts.URL)
	jar.SetCookies(u, []*http.Cookie{v.cookies[sessionCookie]})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/projects/"+itoa(pid)+"/events", nil)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	events := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		var ev string
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				events <- ev + " " + strings.TrimPrefix(line, "data: ")
			}
		}
		close(events)
	}()
	next := func(what string) string {
		select {
		case e, ok := <-events:
			if !ok {
				t.Fatalf("stream ended waiting for %s", what)
			}
			return e
		case <-time.After(2 * time.Second):
			t.Fatalf("no %s within 2 s", what)
		}
		return ""
	}
	if e := next("presence"); !strings.HasPrefix(e, "presence ") || !strings.Contains(e, `"Vi Viewer"`) {
		t.Errorf("first event %q, want presence with Vi", e)
	}
	pg, _ := c.db.Pages.Page(ctx, ids["Pricing"])
	req2 := url.Values{"title": {"Plans & prices"}, "version": {itoa(pg.Version)}}
	wantStatus(t, c.do("PATCH", "/projects/"+itoa(pid)+"/pages/"+itoa(pg.ID)+"/title", req2, true), 200, "rename")
	e := next("change")
	want := `change {"kind":"rename","page":` + itoa(pg.ID) + `,"title":"Plans \u0026 prices","by":"Olive Owner"}`
	if e != want {
		t.Errorf("got %q, want %q", e, want)
	}
	// A refused change is not announced; the next good one is.
	wantStatus(t, v.do("PATCH", "/projects/"+itoa(pid)+"/pages/"+itoa(pg.ID)+"/title", req2, true), 403, "viewer renames")
	wantStatus(t, c.do("POST", "/projects/"+itoa(pid)+"/pages", url.Values{"parent": {itoa(ids["Home"])}}, true), 201, "add page")
	if e := next("change"); !strings.HasPrefix(e, `change {"kind":"tree"`) {
		t.Errorf("got %q after adding a page, want a tree change", e)
	}
	c.srv.Close() // a shutdown ends the stream
	for range events {
	}
}

func TestViewerSeesNoEditingControls(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	addUser(t, c.db, "vi@test.example", "Vi Viewer", "1", site.RoleViewer)
	v := c.peer()
	v.login("vi@test.example")
	d := doc(t, v.do("GET", "/", nil, false))
	if d.Find("#create-project").Length() != 0 || d.Find(".project .actions button").Length() != 0 {
		t.Error("a viewer's project list offers create, rename or delete")
	}
	if d.Find("#project-"+itoa(pid)).Length() != 1 {
		t.Error("a viewer does not see the team's project")
	}
	d = doc(t, v.do("GET", "/projects/"+itoa(pid)+"/pages/"+itoa(ids["Pricing"]), nil, false))
	if d.Find("#page-form fieldset[disabled]").Length() != 1 || d.Find("#page-form button[type=submit]").Length() != 0 {
		t.Error("a viewer's details form is not read-only")
	}
	if d.Find("#comments form.comment-form").Length() != 1 || d.Find("#f-author").Length() != 0 {
		t.Error("a viewer cannot comment, or is asked for a name the account has")
	}
	if d.Find(".handle, [data-action], .add-root, #link-add").Length() != 0 {
		t.Error("a viewer's outline has editing controls")
	}
}

func TestTeamsSwitchAndMembersLeave(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	ed := addUser(t, c.db, "ed@test.example", "Ed Editor", "1", site.RoleEditor)
	e := c.peer()
	e.login("ed@test.example")
	wantStatus(t, e.do("POST", "/teams", url.Values{"name": {"Ed's side team"}}, false), 303, "create a team")
	d := doc(t, e.do("GET", "/", nil, false))
	if d.Find("#project-"+itoa(pid)).Length() != 0 || !strings.Contains(d.Find(".team-switch summary").Text(), "Ed's side team") {
		t.Fatalf("after creating a team, Ed does not work in it")
	}
	wantStatus(t, e.do("POST", "/teams/1/switch", nil, false), 303, "switch back")
	if doc(t, e.do("GET", "/", nil, false)).Find("#project-"+itoa(pid)).Length() != 1 {
		t.Fatal("after switching back, Ed does not see team 1's project")
	}
	wantStatus(t, e.do("POST", "/teams/999/switch", nil, false), 404, "switch to a team Ed is not in")

	wantStatus(t, c.do("PUT", "/team/members/"+itoa(ed.ID), url.Values{"role": {"viewer"}}, true), 200, "make Ed a viewer")
	wantStatus(t, e.do("PATCH", "/projects/"+itoa(pid), url.Values{"name": {"x"}}, true), 403, "Ed edits as a viewer")
	wantStatus(t, c.do("DELETE", "/team/members/"+itoa(ed.ID), nil, true), 200, "remove Ed")
	wantStatus(t, e.do("GET", "/projects/"+itoa(pid), nil, false), 404, "Ed opens the plan after removal")
	wantStatus(t, c.do("POST", "/team/leave", nil, false), 409, "the last owner leaves")
}

func TestHubEndsStreams(t *testing.T) {
	h := newHub()
	a := &subscriber{ch: make(chan []byte, subscriberBuffer), user: 7}
	b := &subscriber{ch: make(chan []byte, subscriberBuffer), share: 3}
	c := &subscriber{ch: make(chan []byte, 1), user: 8}
	for i, s := range []*subscriber{a, b, c} {
		s.session = "session " + itoa(int64(i))
		if ok, err := h.join(1, s); !ok {
			t.Fatalf("join refused: %v", err)
		}
	}
	// c's buffer of one is full after the first change: it is dropped at
	// the second rather than holding up the others.
	h.publish(1, change{Kind: "tree"})
	h.publish(1, change{Kind: "tree"})
	h.kickUser(7)
	h.kick(3)
	for name, s := range map[string]*subscriber{"slow": c, "removed user": a, "revoked link": b} {
		closed := false
	drain:
		for {
			select {
			case _, ok := <-s.ch:
				if !ok {
					closed = true
					break drain
				}
			default: // still open and empty: it was not ended
				break drain
			}
		}
		if !closed {
			t.Errorf("the %s stream was not ended", name)
		}
	}
	if len(h.subs[1]) != 0 {
		t.Errorf("%d streams left", len(h.subs[1]))
	}
}

// TestLoginRateLimitParallel: forty wrong passwords for one account sent
// at once get at most as many password checks as the limit allows; the
// rest are refused before the hash.
func TestLoginRateLimitParallel(t *testing.T) {
	c := newClient(t)
	var wg sync.WaitGroup
	codes := make([]int, 40)
	for i := range codes {
		anon := c.peer()
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = anon.do("POST", "/login", url.Values{"email": {"owner@test.example"}, "password": {"wrong password"}}, false).Code
		}()
	}
	wg.Wait()
	checked := 0
	for _, code := range codes {
		switch code {
		case 401:
			checked++
		case 429:
		default:
			t.Errorf("status %d, want 401 or 429", code)
		}
	}
	if checked > accountBurst {
		t.Errorf("%d of 40 parallel attempts were checked against the password; the limit is %d", checked, accountBurst)
	}
}

// TestSafeNext: after logging in, only a path on this site is followed.
func TestSafeNext(t *testing.T) {
	tests := map[string]string{
		"/projects/1":            "/projects/1",
		"/projects/1?level=3#p2": "/projects/1?level=3#p2",
		"":                       "/",
		"projects":               "/",
		"//evil.example/":        "/",
		"/\t/evil.example/":      "/",
		"/\n/evil.example/":      "/",
		"/ /evil.example/":       "/",
		"/\\evil.example":        "/",
		"/\\/evil.example":       "/",
		"https://evil.example/":  "/",
		"javascript:alert(1)":    "/",
		"/\u00a0/evil.example/":  "/",
	}
	for next, want := range tests {
		if got := safeNext(next); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", next, got, want)
		}
	}
	c := newClient(t)
	anon := c.peer()
	rec := anon.do("POST", "/login", url.Values{"email": {"owner@test.example"}, "password": {testPassword}, "next": {"/\t/evil.example/"}}, false)
	if loc := rec.Header().Get("Location"); rec.Code != 303 || loc != "/" {
		t.Errorf("login with next=/<TAB>/evil.example/: %d to %q, want 303 to /", rec.Code, loc)
	}
}

// openEvents opens a project's event stream over HTTP with cookies and
// returns its events ("kind data"); the channel closes when the stream
// ends.
func openEvents(t *testing.T, base string, pid int64, cookies ...*http.Cookie) <-chan string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/projects/"+itoa(pid)+"/events", nil)
	for _, ck := range cookies {
		req.AddCookie(ck)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("events: %d", resp.StatusCode)
	}
	events := make(chan string, 64)
	go func() {
		defer resp.Body.Close()
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		var ev string
		for sc.Scan() {
			switch line := sc.Text(); {
			case strings.HasPrefix(line, "event: "):
				ev = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				events <- ev + " " + strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	return events
}

// ended waits for a stream to end, failing on any change it still gets.
func ended(t *testing.T, events <-chan string, what string) {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case e, ok := <-events:
			if !ok {
				return
			}
			if strings.HasPrefix(e, "change ") {
				t.Errorf("%s: the stream still got %s", what, e)
			}
		case <-timeout:
			t.Fatalf("%s: the stream is still open after 5 s", what)
		}
	}
}

// TestStreamsEndWithAccess: a live stream ends when its session logs out
// or its password is reset, and when its share link expires, and gets no
// change after that.
func TestStreamsEndWithAccess(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	var offset atomic.Int64 // the store's clock, moved forward below
	c.db.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	addUser(t, c.db, "vi@test.example", "Vi Viewer", "1", site.RoleViewer)
	ts := httptest.NewServer(c.srv.Echo)
	defer ts.Close()
	rename := func(title string) {
		t.Helper()
		pg, _ := c.db.Pages.Page(context.Background(), ids["Pricing"])
		wantStatus(t, c.do("PATCH", pagePath(pid, pg.ID, "title"), url.Values{"title": {title}, "version": {itoa(pg.Version)}}, true), 200, "rename")
	}
	first := func(events <-chan string) {
		t.Helper()
		if e := <-events; !strings.HasPrefix(e, "presence ") {
			t.Fatalf("first event %q, want presence", e)
		}
	}

	v := anonymous(t, c.srv, c.db)
	v.login("vi@test.example")
	events := openEvents(t, ts.URL, pid, v.cookies[sessionCookie])
	first(events)
	wantStatus(t, v.do("POST", "/logout", nil, false), 303, "log out")
	ended(t, events, "after logout")

	v.login("vi@test.example")
	events = openEvents(t, ts.URL, pid, v.cookies[sessionCookie])
	first(events)
	if _, _, err := c.db.Accounts.AddUser(context.Background(), "vi@test.example", "Vi Viewer", "another long password", "1", site.RoleViewer); err != nil {
		t.Fatal(err) // what siteplan user add does to reset a password
	}
	rename("After the reset")
	ended(t, events, "after a password reset")

	l := site.ShareLink{ProjectID: pid, Role: "view", ExpiresAt: c.db.Now().Add(time.Hour)}
	token, err := c.db.Sharing.CreateShareLink(context.Background(), &l)
	if err != nil {
		t.Fatal(err)
	}
	events = openEvents(t, ts.URL, pid, &http.Cookie{Name: shareCookie, Value: token})
	first(events)
	offset.Store(int64(2 * time.Hour))
	rename("After the expiry")
	ended(t, events, "after the share link expired")
}

// TestHubJoinStorm: a thousand streams joining one project at once all
// stay open and each hears who is there once, not a thousand times; one
// session may hold at most maxStreams of them.
func TestHubJoinStorm(t *testing.T) {
	h := newHub()
	defer h.close()
	subs := make([]*subscriber, 1000)
	for i := range subs {
		subs[i] = &subscriber{ch: make(chan []byte, subscriberBuffer), user: int64(i + 1), session: "session " + itoa(int64(i)),
			who: presence{Name: "Viewer " + itoa(int64(i))}}
		if ok, err := h.join(1, subs[i]); !ok {
			t.Fatalf("join %d refused: %v", i, err)
		}
	}
	for i, s := range subs {
		select {
		case f, ok := <-s.ch:
			if !ok {
				t.Fatalf("stream %d was ended by the storm", i)
			}
			if !strings.HasPrefix(string(f), "event: presence") || !strings.Contains(string(f), `"Viewer 999"`) {
				t.Fatalf("stream %d got %.80q, want presence of all thousand", i, f)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("stream %d heard no presence in 5 s", i)
		}
		if n := len(s.ch); n != 0 {
			t.Fatalf("stream %d has %d more frames queued, want the one presence", i, n)
		}
	}
	for i := 0; i < maxStreams; i++ {
		if ok, err := h.join(2, &subscriber{ch: make(chan []byte, 1), session: "one tab too many"}); !ok {
			t.Fatalf("tab %d of one session refused: %v", i+1, err)
		}
	}
	if ok, err := h.join(2, &subscriber{ch: make(chan []byte, 1), session: "one tab too many"}); ok || site.ErrorCode(err) != site.ETooMany {
		t.Errorf("stream %d of one session: ok %v, %v; want ETooMany", maxStreams+1, ok, err)
	}
}
