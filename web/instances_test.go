package web

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/jackc/pgx/v5"

	"siteplan/internal/pgtest"
	"siteplan/jobs"
	"siteplan/site"
	"siteplan/store"
)

// instance is one siteplan server on a shared database, reached over
// HTTP as a load balancer would.
type instance struct {
	db  *store.Store
	srv *Server
	url string
	dsn string // the database's
}

// twoInstances starts two servers, each with its own pool, on one new
// database; PostgreSQL only, as SQLite is one process's.
func twoInstances(t *testing.T) (a, b instance) {
	t.Helper()
	dsn := pgtest.DSN(t, "web.db")
	var out [2]instance
	for i := range out {
		db, err := store.Open(dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		if !db.Live.SharedLive() {
			t.Skip("several instances share a PostgreSQL database, not a SQLite file")
		}
		srv := New(partsOf(db), staticFS, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{})
		srv.Start()
		t.Cleanup(srv.Close)
		ts := httptest.NewServer(srv.Echo)
		t.Cleanup(ts.Close)
		out[i] = instance{db, srv, ts.URL, dsn}
	}
	return out[0], out[1]
}

// owner is Olive, the owner of team 1, logged in on in, with the
// fixture's plan.
func (in instance) owner(t *testing.T) (*client, int64, map[string]int64) {
	t.Helper()
	addUser(t, in.db, "owner@test.example", "Olive Owner", "1", site.RoleOwner)
	c := anonymous(t, in.srv, in.db)
	c.login("owner@test.example")
	pid, ids := c.fixture()
	return c, pid, ids
}

// on is c speaking to another instance, with the same cookies.
func (c *client) on(in instance) *client {
	return &client{t: c.t, srv: in.srv, db: in.db, token: c.token, cookies: c.cookies}
}

// until reads events until one satisfies ok, failing after wait.
func until(t *testing.T, events <-chan string, wait time.Duration, what string, ok func(string) bool) string {
	t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case e, open := <-events:
			if !open {
				t.Fatalf("the stream ended waiting for %s", what)
			}
			if ok(e) {
				return e
			}
		case <-timeout:
			t.Fatalf("no %s within %s", what, wait)
		}
	}
}

// TestTwoInstances: two servers on one PostgreSQL database behave as one.
// A session made on one opens plans on the other; a rename made on one
// reaches the streams of the other within a second; each stream shows
// who views the plan on either; logging out or losing the team on one
// ends the streams on the other; failed logins count on both.
func TestTwoInstances(t *testing.T) {
	a, b := twoInstances(t)
	oa, pid, ids := a.owner(t)
	vi := addUser(t, a.db, "vi@test.example", "Vi Viewer", "1", site.RoleViewer)
	wantStatus(t, oa.on(b).do("GET", "/projects/"+itoa(pid), nil, false), 200, "the owner's session on the other instance")

	vb := anonymous(t, b.srv, b.db)
	vb.login("vi@test.example")
	onB := openEvents(t, b.url, pid, vb.cookies[sessionCookie])
	onA := openEvents(t, a.url, pid, oa.cookies[sessionCookie])
	both := func(e string) bool {
		return strings.HasPrefix(e, "presence ") && strings.Contains(e, `"Olive Owner"`) && strings.Contains(e, `"Vi Viewer"`)
	}
	until(t, onB, 2*time.Second, "presence of both on B", both)
	until(t, onA, 2*time.Second, "presence of both on A", both)

	pg, _ := a.db.Pages.Page(context.Background(), ids["Pricing"])
	wantStatus(t, oa.do("PATCH", pagePath(pid, pg.ID, "title"), url.Values{"title": {"Plans"}, "version": {itoa(pg.Version)}}, true), 200, "rename on A")
	e := until(t, onB, time.Second, "rename on B", func(e string) bool { return strings.HasPrefix(e, "change ") })
	if want := `change {"kind":"rename","page":` + itoa(pg.ID) + `,"title":"Plans","by":"Olive Owner"}`; e != want {
		t.Errorf("B got %q, want %q", e, want)
	}
	until(t, onA, time.Second, "rename on A", func(e string) bool { return strings.HasPrefix(e, "change ") })

	// The viewer leaves the team through A: the stream on B ends at once,
	// not at its next heartbeat.
	wantStatus(t, oa.do("DELETE", "/team/members/"+itoa(vi.ID), nil, true), 200, "remove Vi on A")
	ended(t, onB, "Vi's stream on B after removal on A")

	// The owner logs out through B: the stream on A ends.
	wantStatus(t, oa.on(b).do("POST", "/logout", nil, false), 303, "log out on B")
	ended(t, onA, "the owner's stream on A after logout on B")

	// Failed logins on A count on B.
	anon := anonymous(t, a.srv, a.db)
	for i := range accountBurst {
		rec := anon.do("POST", "/login", url.Values{"email": {"owner@test.example"}, "password": {"wrong"}}, false)
		wantStatus(t, rec, 401, "failed login "+itoa(int64(i+1))+" on A")
	}
	rec := anon.on(b).do("POST", "/login", url.Values{"email": {"owner@test.example"}, "password": {testPassword}}, false)
	wantStatus(t, rec, 429, "the right password on B after 5 failures on A")
}

// TestHealthCheck: /healthz answers 200 while the database answers, 503
// once it does not, so a load balancer sends the traffic elsewhere.
func TestHealthCheck(t *testing.T) {
	c := newClient(t)
	lb := &client{t: t, srv: c.srv, db: c.db, cookies: map[string]*http.Cookie{}} // no cookies, as a load balancer
	wantStatus(t, lb.do("GET", "/healthz", nil, false), 200, "healthz")
	c.db.Close()
	rec := lb.do("GET", "/healthz", nil, false)
	wantStatus(t, rec, 503, "healthz without a database")
	if !strings.Contains(rec.Body.String(), "database") {
		t.Errorf("healthz says %q", rec.Body.String())
	}
}

// TestRelayReconnects: when an instance's listening connection drops
// (a database restart, a network hiccup), it listens again and its
// streams still get the changes made meanwhile on another instance.
func TestRelayReconnects(t *testing.T) {
	a, b := twoInstances(t)
	oa, pid, ids := a.owner(t)
	onB := openEvents(t, b.url, pid, oa.cookies[sessionCookie])
	until(t, onB, 2*time.Second, "presence on B", func(e string) bool { return strings.HasPrefix(e, "presence ") })
	// Cut every listener's connection, as an administrator would with
	// pg_terminate_backend, then rename at once on A, before B has
	// listened again.
	admin, err := pgx.Connect(context.Background(), a.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	var cut int
	if err := admin.QueryRow(context.Background(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name = 'siteplan-live' AND datname = current_database()`).Scan(&cut); err != nil || cut != 2 {
		t.Fatalf("cut %d listeners, %v; want both instances'", cut, err)
	}
	pg, _ := a.db.Pages.Page(context.Background(), ids["Pricing"])
	wantStatus(t, oa.do("PATCH", pagePath(pid, pg.ID, "title"), url.Values{"title": {"After the cut"}, "version": {itoa(pg.Version)}}, true), 200, "rename on A")
	e := until(t, onB, 5*time.Second, "rename on B after its listener reconnected", func(e string) bool { return strings.HasPrefix(e, "change ") })
	if !strings.Contains(e, "After the cut") {
		t.Errorf("B got %q", e)
	}
}

// TestCachesFollowOtherInstances: a diagram one instance drew and keeps
// is drawn anew there once the plan changed through another: the cache
// is keyed by the plan's version, which is the database's.
func TestCachesFollowOtherInstances(t *testing.T) {
	a, b := twoInstances(t)
	oa, pid, ids := a.owner(t)
	svg := func() string {
		rec := oa.on(b).do("GET", "/projects/"+itoa(pid)+"/diagram/svg", nil, false)
		wantStatus(t, rec, 200, "the diagram on B")
		return rec.Body.String()
	}
	if first := svg(); !strings.Contains(first, "Pricing") || svg() != first {
		t.Fatal("the diagram on B does not show Pricing, or is not kept")
	}
	pg, _ := a.db.Pages.Page(context.Background(), ids["Pricing"])
	wantStatus(t, oa.do("PATCH", pagePath(pid, pg.ID, "title"), url.Values{"title": {"Plans and prices"}, "version": {itoa(pg.Version)}}, true), 200, "rename on A")
	if after := svg(); !strings.Contains(after, "Plans and prices") {
		t.Error("B served the diagram it kept from before the rename on A")
	}
}

// TestPresenceAcrossInstances: who views a plan on another instance
// leaves its presence when that instance shuts down, at once, and when
// it dies, once it has not told its viewers for remoteKept.
func TestPresenceAcrossInstances(t *testing.T) {
	a, b := twoInstances(t)
	oa, pid, _ := a.owner(t)
	addUser(t, a.db, "vi@test.example", "Vi Viewer", "1", site.RoleViewer)
	vb := anonymous(t, b.srv, b.db)
	vb.login("vi@test.example")
	onB := openEvents(t, b.url, pid, vb.cookies[sessionCookie])
	openEvents(t, a.url, pid, oa.cookies[sessionCookie])
	until(t, onB, 2*time.Second, "presence of both on B", func(e string) bool {
		return strings.HasPrefix(e, "presence ") && strings.Contains(e, `"Olive Owner"`) && strings.Contains(e, `"Vi Viewer"`)
	})
	// A dies: B forgets its viewers once they are remoteKept old.
	b.srv.hub.mu.Lock()
	for from, r := range b.srv.hub.remote[pid] {
		r.at = r.at.Add(-remoteKept)
		b.srv.hub.remote[pid][from] = r
	}
	b.srv.hub.mu.Unlock()
	b.srv.hub.refresh()
	b.srv.hub.mu.Lock()
	left := len(b.srv.hub.remote[pid])
	b.srv.hub.mu.Unlock()
	if left != 0 {
		t.Errorf("B still keeps %d dead instance's viewers", left)
	}
	until(t, onB, 2*time.Second, "presence without Olive on B", func(e string) bool {
		return strings.HasPrefix(e, "presence ") && !strings.Contains(e, `"Olive Owner"`) && strings.Contains(e, `"Vi Viewer"`)
	})
	// A tells its viewers again at its next refresh; then it shuts down.
	a.srv.hub.refresh()
	until(t, onB, 2*time.Second, "Olive back in B's presence", func(e string) bool {
		return strings.HasPrefix(e, "presence ") && strings.Contains(e, `"Olive Owner"`)
	})
	a.srv.Close()
	until(t, onB, 2*time.Second, "presence without Olive on B after A shut down", func(e string) bool {
		return strings.HasPrefix(e, "presence ") && !strings.Contains(e, `"Olive Owner"`)
	})
}

// TestLiveSiteJobsAcrossInstances: a reading started on one server may
// be run by another and followed from either. When the server running a
// reading dies, another fails it cleanly, the visitor may start again,
// and the living server runs the new reading.
func TestLiveSiteJobsAcrossInstances(t *testing.T) {
	a, b := twoInstances(t)
	ls := newLiveSite(t)
	ls.holdInIndex = true
	t.Cleanup(ls.release) // before the servers close, which wait for their readings
	addUser(t, a.db, "owner@test.example", "Olive Owner", "1", site.RoleOwner)
	c := anonymous(t, a.srv, a.db)
	c.login("owner@test.example")
	state := func(doc interface {
		Find(string) *goquery.Selection
	}) string {
		return doc.Find("#job-status").AttrOr("data-state", "") + " " + doc.Find("#job-error").Text()
	}

	// Started on a, which runs no jobs: b reads it.
	runJobs(t, b.db, b.srv, jobs.Config{AllowPrivate: true})
	page := c.startJob("/sites/check", url.Values{"source": {ls.URL + "/blog.xml"}})
	if got := state(c.finished(page)); got != "done " {
		t.Fatalf("the check started on a: %q", got)
	}

	// A cancel on a stops b's reading at b's next beat.
	page = c.startJob("/sites/check", url.Values{"source": {ls.URL}})
	<-ls.holding
	c.do("POST", page+"/cancel", url.Values{}, false)
	if got := state(c.finished(page)); got != "cancelled Cancelled." {
		t.Errorf("the check cancelled on a: %q", got)
	}

	// b reads again, and dies (its pool closes: it neither beats nor ends
	// the reading).
	page = c.startJob("/sites/check", url.Values{"source": {ls.URL}})
	for deadline := time.Now().Add(10 * time.Second); c.job(page).State != site.JobReading; {
		if time.Now().After(deadline) {
			t.Fatal("b did not claim the reading")
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.db.Close()
	// a starts its jobs, and sweeps: b has been silent for longer than
	// a's bound.
	runJobs(t, a.db, a.srv, jobs.Config{AllowPrivate: true, Readings: jobs.Readings{Stale: 500 * time.Millisecond}})
	if got := state(c.finished(page)); !strings.Contains(got, "failed The server reading it stopped") {
		t.Errorf("the dead server's reading, seen on a: %q", got)
	}
	if got := state(c.finished(c.startJob("/sites/check", url.Values{"source": {ls.URL + "/pages.xml"}}))); got != "done " {
		t.Errorf("the next check, which a runs: %q", got)
	}
}
