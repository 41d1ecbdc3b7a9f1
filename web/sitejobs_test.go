package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"siteplan/jobs"
	"siteplan/site"
	"siteplan/views"
)

// job returns the job whose page is page, with its report.
func (c *client) job(page string) site.Job {
	c.t.Helper()
	j, err := c.db.Jobs.Job(context.Background(), strings.TrimPrefix(page, "/sites/jobs/"), true)
	if err != nil {
		c.t.Fatal(err)
	}
	return j
}

// teamClient logs in a new account of a team of its own (or of team, if
// not "") on c's server.
func (c *client) teamClient(email, team string) *client {
	c.t.Helper()
	if team == "" {
		team = "Team of " + email
	}
	addUser(c.t, c.db, email, "User "+email, team, site.RoleOwner)
	o := anonymous(c.t, c.srv, c.db)
	o.login(email)
	return o
}

// bigIndex serves an index of n sitemaps with addresses of some 1 KB,
// none of which exists.
func bigIndex(t *testing.T, n int) *httptest.Server {
	pad := strings.Repeat("x", 1000)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/index.xml" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := range n {
			fmt.Fprintf(w, "<sitemap><loc>http://%s/%s-%d.xml</loc></sitemap>\n", r.Host, pad, i)
		}
		fmt.Fprint(w, `</sitemapindex>`)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// TestLiveSiteReportBounds: a check of an index of 3,000 files keeps
// rows for the first 1,000 and counts the rest; the report is shown 100
// files a page.
func TestLiveSiteReportBounds(t *testing.T) {
	ts := bigIndex(t, 3000)
	c := siteClient(t)
	page := c.startJob("/sites/check", url.Values{"source": {ts.URL + "/index.xml"}})
	doc := c.finished(page)
	if got := doc.Find(".report-summary").Text(); !strings.Contains(got, "1,000 files") && !strings.Contains(got, "1000 files") {
		t.Errorf("summary %q, want 1,000 files", got)
	}
	if got := doc.Find("#report-unread").Text(); !strings.Contains(got, "2001 more files") {
		t.Errorf("unread %q, want 2001 more files", got)
	}
	if n := doc.Find(".files tbody tr").Length(); n != views.ReportRows {
		t.Errorf("%d rows on the first page, want %d", n, views.ReportRows)
	}
	last := c.page(page + "?page=10")
	rows := last.Find(".files tbody tr")
	if rows.Length() != views.ReportRows || !strings.Contains(rows.Last().Text(), "-998.xml") {
		t.Errorf("page 10: %d rows, the last %.80q", rows.Length(), rows.Last().Text())
	}
	if got := last.Find(".report-pager").Text(); !strings.Contains(got, "901–1000 of 1000") {
		t.Errorf("pager %q", got)
	}
	if size := len(c.job(page).Report); size > 4<<20 {
		t.Errorf("the report keeps %d bytes", size)
	}
}

// page GETs a page and parses it.
func (c *client) page(path string) *goquery.Document {
	c.t.Helper()
	rec := c.do("GET", path, nil, false)
	if rec.Code != http.StatusOK {
		c.t.Fatalf("GET %s: %d %.300s", path, rec.Code, rec.Body.String())
	}
	doc, err := goquery.NewDocumentFromReader(rec.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return doc
}

// TestLiveSiteReportMemory: the reports kept take at most their team's
// and the server's bound; past either, the oldest are let go, and their
// pages say so.
func TestLiveSiteReportMemory(t *testing.T) {
	ls := newLiveSite(t)
	check := func(c *client) string {
		t.Helper()
		page := c.startJob("/sites/check", url.Values{"source": {ls.URL + "/blog.xml"}})
		c.finished(page)
		return page
	}
	first := siteClient(t)
	r := int64(len(first.job(check(first)).Report))                 // each report's size: the same site
	lim := jobs.Readings{TeamBytes: 2*r + r/2, AllBytes: 3*r + r/2} // two reports a team, three in all
	a := siteClientWith(t, lim)
	b := a.teamClient("b@test.example", "")
	a1 := check(a)
	a2, b1 := check(a), check(b)
	b2 := check(b) // four in all: a1 goes
	a3 := check(a) // a2, b1, b2, a3: a2 goes
	for _, tc := range []struct {
		c       *client
		page    string
		dropped bool
	}{{a, a1, true}, {a, a2, true}, {b, b1, false}, {b, b2, false}, {a, a3, false}} {
		doc := tc.c.page(tc.page)
		if got := doc.Find("#job-dropped").Length() == 1; got != tc.dropped || doc.Find("#report").Length() == 1 == tc.dropped {
			t.Errorf("%s: dropped %v, want %v", tc.page, got, tc.dropped)
		}
	}
	var all int64
	for _, p := range []string{a1, a2, b1, b2, a3} {
		all += int64(len(a.job(p).Report))
	}
	if all > lim.AllBytes {
		t.Errorf("the reports kept take %d bytes, past %d", all, lim.AllBytes)
	}
}

// TestLiveSiteTurns: a team reading a slow site does not hold back
// another team, whose reading takes a reader of its own; a free reader
// goes to the team served longest ago, not to the next job of the team
// that just had one; and a reading's budget counts from its turn, not
// from when it was queued.
func TestLiveSiteTurns(t *testing.T) {
	ls := newLiveSite(t)
	ls.holdInIndex = true
	a := siteClient(t)
	a2 := a.teamClient("a2@test.example", "1")
	b := a.teamClient("b@test.example", "")

	// Two readers: team A's slow reading does not hold back team B.
	held := a.startJob("/sites/check", url.Values{"source": {ls.URL}})
	<-ls.holding
	doc := b.finished(b.startJob("/sites/import", url.Values{"source": {ls.URL + "/pages.xml"}}))
	if st := doc.Find("#job-status").AttrOr("data-state", ""); st != site.JobDone {
		t.Errorf("team B's import while team A's reading is held: %s", st)
	}
	// A second job of team A waits for team A's first.
	queued := a2.startJob("/sites/check", url.Values{"source": {ls.URL + "/blog.xml"}})
	if st := a.job(queued).State; st != site.JobWaiting {
		t.Errorf("team A's second job is %s, want waiting", st)
	}
	a.do("POST", held+"/cancel", url.Values{}, false)
	a2.finished(queued)

	// One reader: the team served longest ago goes first.
	c := siteClientWith(t, jobs.Readings{Readers: 1})
	c2 := c.teamClient("c2@test.example", "1")
	d := c.teamClient("d@test.example", "")
	ls = newLiveSite(t)
	ls.holdInIndex = true
	held = c.startJob("/sites/check", url.Values{"source": {ls.URL}})
	<-ls.holding
	first := c2.startJob("/sites/check", url.Values{"source": {ls.URL + "/pages.xml"}})
	second := d.startJob("/sites/check", url.Values{"source": {ls.URL + "/blog.xml"}})
	c.do("POST", held+"/cancel", url.Values{}, false)
	c2.finished(first)
	d.finished(second)
	if f, s := c.job(first), c.job(second); !s.Started.Before(f.Started) {
		t.Errorf("the team that just had a turn went first: %v, the other team %v", f.Started, s.Started)
	}

	// The budget counts from the turn: a job that waited its whole
	// budget behind another (held until its budget ran out) still has
	// all of it when its turn comes.
	e := siteClientWith(t, jobs.Readings{Readers: 1, Budget: time.Second})
	e2 := e.teamClient("e2@test.example", "1")
	ls = newLiveSite(t)
	ls.holdInIndex = true
	held = e.startJob("/sites/check", url.Values{"source": {ls.URL}})
	<-ls.holding
	next := e2.startJob("/sites/check", url.Values{"source": {ls.URL + "/blog.xml"}})
	if doc := e.finished(held); !strings.Contains(doc.Find("#job-error").Text(), "took longer than 1s") {
		t.Errorf("the held reading: %q", doc.Find("#job-error").Text())
	}
	if doc := e2.finished(next); doc.Find("#job-status").AttrOr("data-state", "") != site.JobDone {
		t.Errorf("the reading that waited longer than its budget: %q", doc.Find("#job-error").Text())
	}
}

// TestLiveSiteUploadKept: an uploaded file waits with its job in the
// database: a cancel while it waits removes it; a job still waiting when
// its server stops stays, with its file, and the next server on the
// database reads it, then removes the file.
func TestLiveSiteUploadKept(t *testing.T) {
	ls := newLiveSite(t)
	ls.holdInIndex = true
	c := siteClientWith(t, jobs.Readings{Readers: 1})
	c2 := c.teamClient("c2@test.example", "1")
	c.startJob("/sites/check", url.Values{"source": {ls.URL}}) // holds the one reader, and team 1's turn
	<-ls.holding
	uploaded := func(page string) int {
		b, err := io.ReadAll(c.db.Jobs.JobUpload(context.Background(), strings.TrimPrefix(page, "/sites/jobs/")))
		if err != nil {
			t.Fatal(err)
		}
		return len(b)
	}
	const file = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://old.example/</loc></url></urlset>`
	upload := func() string {
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		w.WriteField("_csrf", c2.token)
		fw, _ := w.CreateFormFile("file", "old.xml")
		fw.Write([]byte(file))
		w.Close()
		rec := c2.raw("POST", "/sites/import", &body, w.FormDataContentType(), false)
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("upload: %d %.300s", rec.Code, rec.Body.String())
		}
		return rec.Header().Get("Location")
	}
	queued := upload()
	if n := uploaded(queued); n != len(file) {
		t.Fatalf("while it waits: %d bytes kept, want %d", n, len(file))
	}
	c2.do("POST", queued+"/cancel", url.Values{}, false)
	if doc := c2.finished(queued); doc.Find("#job-status").AttrOr("data-state", "") != site.JobCancelled {
		t.Errorf("the cancelled upload's job: %q", doc.Find("#job-error").Text())
	}
	if n := uploaded(queued); n != 0 {
		t.Errorf("after a cancel while waiting: %d bytes kept", n)
	}
	queued = upload()
	c.jobs.Close()
	if j := c.job(queued); j.State != site.JobWaiting || uploaded(queued) != len(file) {
		t.Fatalf("after its server stopped, the waiting upload is %s with %d bytes", j.State, uploaded(queued))
	}
	runJobs(t, c.db, c.srv, jobs.Config{AllowPrivate: true}) // the server starts again
	doc := c2.finished(queued)
	if st := doc.Find("#job-status").AttrOr("data-state", ""); st != site.JobDone || doc.Find("#new-plan strong").Text() != "old.example" {
		t.Errorf("the next server's import: %s %q", st, doc.Find("#job-error").Text())
	}
	if n := uploaded(queued); n != 0 {
		t.Errorf("after its reading: %d bytes kept", n)
	}
}

// TestImportSiteNameFirst: a project name that cannot be is refused
// before the site is read, on the form.
func TestImportSiteNameFirst(t *testing.T) {
	c := siteClient(t)
	rec := c.do("POST", "/sites/import", url.Values{"source": {"http://127.0.0.1:1/"}, "name": {strings.Repeat("n", 301)}}, true)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "The project name is longer than 300 characters") {
		t.Errorf("got %d %.300s", rec.Code, rec.Body.String())
	}
	// No reading started: the visitor may start one.
	if rec := c.do("POST", "/sites/import", url.Values{"source": {"http://127.0.0.1:1/"}}, false); rec.Code != http.StatusSeeOther {
		t.Errorf("a reading after the refused one: %d %.300s", rec.Code, rec.Body.String())
	}
}

// TestLinesOutsideGate: reading a file again for the lines around a
// problem does not take the heavy-work gate, so a slow site does not
// hold back another team's download; a visitor reads one file's lines
// at a time.
func TestLinesOutsideGate(t *testing.T) {
	ls := newLiveSite(t)
	var reads atomic.Int32
	stop := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if reads.Add(1) > 1 { // read again: never answers
			select {
			case <-stop:
			case <-r.Context().Done():
			}
			return
		}
		resp, err := http.Get(ls.URL + "/blog.xml")
		if err != nil {
			return
		}
		defer resp.Body.Close()
		io.Copy(w, resp.Body)
	}))
	defer slow.Close()
	defer close(stop) // before the server closes, which waits for its handlers
	a := siteClient(t)
	doc := a.finished(a.startJob("/sites/check", url.Values{"source": {slow.URL + "/blog.xml"}}))
	href, ok := doc.Find(".problems li a.line-link").Attr("href")
	if !ok {
		t.Fatalf("no line link: %q", doc.Find(".problems").Text())
	}
	started := make(chan struct{})
	go func() {
		close(started)
		a.do("GET", href, nil, false) // waits on the slow site until its budget ends
	}()
	<-started
	for reads.Load() < 2 { // until the reading again has begun
		runtime.Gosched()
	}
	// The heavy-work gate has its one place free for another team.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	done, err := a.srv.gate.enter(ctx, "another team")
	if err != nil {
		t.Fatalf("the heavy-work gate is held while a file's lines are read: %v", err)
	}
	done()
	if rec := a.do("GET", href, nil, false); rec.Code != http.StatusTooManyRequests {
		t.Errorf("a second file's lines at once: %d", rec.Code)
	}
}

// TestDroppedImportShows: an import whose report was let go still shows
// its state and the new plan, and says the report is gone.
func TestDroppedImportShows(t *testing.T) {
	j := site.Job{ID: "x", Kind: site.JobImport, State: site.JobDone, Dropped: true, Ended: time.Now(),
		Progress: []byte(`{"plan":{"ProjectID":7,"Name":"old.example","Pages":3}}`)}
	v, err := jobView(j, 1)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := views.SiteJobStatus(v).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); !strings.Contains(got, "job-dropped") || !strings.Contains(got, "/projects/7") {
		t.Errorf("got %.500s", got)
	}
}
