package web

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"iter"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"siteplan/jobs"
	"siteplan/site"
	"siteplan/views"
)

// liveSite serves a small site on loopback: a robots.txt naming a
// sitemap index of two files, the second with an unescaped & on line 4
// and a lastmod without a zone. A request for /hold.xml waits until
// release is called.
type liveSite struct {
	*httptest.Server
	holdInIndex bool // the index lists /hold.xml last
	hold        chan struct{}
	release     func()
	holding     chan struct{} // closed when /hold.xml is asked for
}

func newLiveSite(t *testing.T) *liveSite {
	ls := &liveSite{hold: make(chan struct{}), holding: make(chan struct{})}
	var once, held sync.Once
	ls.release = func() { once.Do(func() { close(ls.hold) }) }
	ls.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := "http://" + r.Host
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow:\nSITEMAP: %s/sitemap_index.xml\n", u)
		case "/sitemap_index.xml":
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%[1]s/pages.xml</loc></sitemap>
<sitemap><loc>%[1]s/blog.xml</loc></sitemap>
`, u)
			if ls.holdInIndex {
				fmt.Fprintf(w, "<sitemap><loc>%s/hold.xml</loc></sitemap>\n", u)
			}
			fmt.Fprint(w, "</sitemapindex>")
		case "/pages.xml":
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>%[1]s/</loc></url>
<url><loc>%[1]s/products</loc><lastmod>2026-11-01</lastmod></url>
<url><loc>%[1]s/products/widgets/blue-widget</loc></url>
<url><loc>%[1]s/legal/imprint</loc></url>
</urlset>`, u)
		case "/blog.xml":
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>%[1]s/blog/hello-world</loc><lastmod>2026-11-01T10:00:00</lastmod></url>
<url><loc>%[1]s/blog?tag=news&page=2</loc></url>
</urlset>`, u)
		case "/hold.xml":
			held.Do(func() { close(ls.holding) })
			select {
			case <-ls.hold:
			case <-r.Context().Done():
			}
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/x</loc></url></urlset>`, u)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(func() { ls.release(); ls.Close() })
	return ls
}

// siteClient is a logged-in owner of a server that may read loopback.
func siteClient(t *testing.T) *client { return siteClientWith(t, jobs.Readings{}) }

// siteClientWith is siteClient with the live-site jobs bounded by lim.
func siteClientWith(t *testing.T, lim jobs.Readings) *client {
	c := newClient(t)
	allowPrivate(c.srv)
	c.jobs = runJobs(t, c.db, c.srv, jobs.Config{AllowPrivate: true, Readings: lim})
	return c
}

// startJob posts a live-site form and returns the job's page.
func (c *client) startJob(path string, form url.Values) string {
	c.t.Helper()
	rec := c.do("POST", path, form, false)
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/sites/jobs/") {
		c.t.Fatalf("POST %s: got %d %q, want 303 to a job: %.300s", path, rec.Code, loc, rec.Body.String())
	}
	return loc
}

// finished waits until the job at page has ended, reading its stream of
// events, and returns the status fragment of its "end" event.
func (c *client) finished(page string) *goquery.Document {
	c.t.Helper()
	rec := c.do("GET", page+"/events", nil, false) // returns when the job has ended
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "text/event-stream" {
		c.t.Fatalf("events: %d %q %.300s", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
	}
	var last sseEvent
	for e := range parseEvents(rec.Body) {
		if last.name == "end" {
			c.t.Fatalf("an event after the end: %q", e.name)
		}
		last = e
	}
	if last.name != "end" {
		c.t.Fatalf("the stream ended with %q, not an end event", last.name)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(last.data))
	if err != nil {
		c.t.Fatal(err)
	}
	return doc
}

// sseEvent is a server-sent event: its name and data.
type sseEvent struct{ name, data string }

// parseEvents reads a stream of server-sent events as a browser does:
// lines end at CR, LF or CRLF, a blank line dispatches, data lines are
// joined by LF, comments are skipped.
func parseEvents(r io.Reader) iter.Seq[sseEvent] {
	return func(yield func(sseEvent) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 4<<20)
		sc.Split(func(b []byte, atEOF bool) (int, []byte, error) {
			if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
				if b[i] == '\r' && i+1 == len(b) && !atEOF {
					return 0, nil, nil // a CRLF perhaps
				}
				if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
					return i + 2, b[:i], nil
				}
				return i + 1, b[:i], nil
			}
			if atEOF && len(b) > 0 {
				return len(b), b, nil
			}
			return 0, nil, nil
		})
		var e sseEvent
		var data []string
		for sc.Scan() {
			line := sc.Text()
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch {
			case line == "":
				if data != nil {
					e.data = strings.Join(data, "\n")
					if e.name == "" {
						e.name = "message"
					}
					if !yield(e) {
						return
					}
				}
				e, data = sseEvent{}, nil
			case field == "event":
				e.name = value
			case field == "data":
				data = append(data, value)
			}
		}
		if err := sc.Err(); err != nil {
			yield(sseEvent{name: "(broken)", data: err.Error()})
		}
	}
}

// openJobEvents opens the stream of a job's page on a real server and
// sends its events on the channel returned, closed when the stream ends.
func openJobEvents(t *testing.T, base, page string, cookies map[string]*http.Cookie) (<-chan sseEvent, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", base+page+"/events", nil)
	for _, ck := range cookies {
		req.AddCookie(ck)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan sseEvent, 64)
	go func() {
		defer resp.Body.Close()
		defer close(events)
		for e := range parseEvents(resp.Body) {
			events <- e
		}
	}()
	return events, resp.StatusCode
}

// TestImportLiveSite: a new project from a live site reads robots.txt,
// the index and its files in the background, then shows the check report
// beside the new plan; each problem links to its file and line, which
// shows that line of the file.
func TestImportLiveSite(t *testing.T) {
	ls := newLiveSite(t)
	c := siteClient(t)
	page := c.startJob("/sites/import", url.Values{"source": {ls.URL}, "name": {"Relaunch"}})
	doc := c.finished(page)
	if st := doc.Find("#job-status").AttrOr("data-state", ""); st != "done" {
		t.Fatalf("state %q: %s", st, doc.Find("#job-error").Text())
	}
	if got := doc.Find(".report-summary").Text(); !strings.Contains(got, "3 files") || !strings.Contains(got, "6 URLs") || !strings.Contains(got, "2 errors") {
		t.Errorf("summary %q", got)
	}
	href, ok := doc.Find("#open-plan").Attr("href")
	if !ok {
		t.Fatal("no link to the new plan")
	}
	var pid int64
	fmt.Sscanf(href, "/projects/%d", &pid)
	tr, err := c.db.Pages.Tree(context.Background(), pid)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Project.Name != "Relaunch" || tr.Len() != 9 { // home, products, widgets (group), blue widget, legal (group), imprint, blog (group), hello world, the blog query
		t.Errorf("plan %q of %d pages", tr.Project.Name, tr.Len())
	}
	if got := doc.Find("#new-plan").Text(); !strings.Contains(got, "9 pages") || !strings.Contains(got, "3 groups") {
		t.Errorf("new plan card %q", got)
	}

	// The & on line 4 of blog.xml: its link shows that line.
	var lineHref string
	doc.Find(".problems li").Each(func(_ int, li *goquery.Selection) {
		if strings.Contains(li.Find(".rule").Text(), "escap") || strings.Contains(li.Text(), "&") {
			lineHref, _ = li.Find("a.line-link").Attr("href")
		}
	})
	if lineHref == "" {
		t.Fatalf("no line link for the unescaped &: %s", doc.Find(".problems").Text())
	}
	rec := c.do("GET", lineHref, nil, false)
	lines, _ := goquery.NewDocumentFromReader(rec.Body)
	if at := lines.Find(".source-lines li.at").Text(); rec.Code != 200 || !strings.Contains(at, "tag=news&page=2") {
		t.Errorf("line page (%d): the marked line is %q", rec.Code, at)
	}
}

// TestCheckLiveSite: a check reports the same problems without making
// a project.
func TestCheckLiveSite(t *testing.T) {
	ls := newLiveSite(t)
	c := siteClient(t)
	before, _ := c.db.Projects.Projects(context.Background(), 1)
	doc := c.finished(c.startJob("/sites/check", url.Values{"source": {ls.URL + "/blog.xml"}}))
	if got := doc.Find(".report-summary").Text(); !strings.Contains(got, "1 file") || !strings.Contains(got, "2 errors") {
		t.Errorf("summary %q", got)
	}
	rules := doc.Find(".problems .rule").Text()
	for _, want := range []string{"lastmod", "escap"} {
		if !strings.Contains(rules, want) {
			t.Errorf("rules %q lack %q", rules, want)
		}
	}
	if doc.Find("#new-plan").Length() != 0 {
		t.Error("a check shows a new plan")
	}
	after, _ := c.db.Projects.Projects(context.Background(), 1)
	if len(after) != len(before) {
		t.Errorf("a check made a project: %d projects, were %d", len(after), len(before))
	}
}

// TestCancelLiveSite: a reading can be cancelled while it waits on a
// slow file; nothing is imported. While it runs, a second reading by the
// same visitor is refused.
func TestCancelLiveSite(t *testing.T) {
	ls := newLiveSite(t)
	c := siteClient(t)
	before, _ := c.db.Projects.Projects(context.Background(), 1)
	page := c.startJob("/sites/import", url.Values{"source": {ls.URL + "/hold.xml"}})
	<-ls.holding
	if rec := c.do("POST", "/sites/check", url.Values{"source": {ls.URL}}, false); rec.Code != http.StatusTooManyRequests {
		t.Errorf("a second reading: got %d, want 429", rec.Code)
	}
	if rec := c.do("POST", page+"/cancel", nil, false); rec.Code != http.StatusSeeOther {
		t.Fatalf("cancel: %d", rec.Code)
	}
	doc := c.finished(page)
	if st := doc.Find("#job-status").AttrOr("data-state", ""); st != "cancelled" || doc.Find("#job-error").Text() != "Cancelled. Nothing was imported." {
		t.Errorf("state %q (%q), want cancelled", st, doc.Find("#job-error").Text())
	}
	if got := doc.Find(".files tr.failed").Text(); !strings.Contains(got, "hold.xml") || !strings.Contains(got, "stopped while this file was read") {
		t.Errorf("the file being read when cancelled: %q", got)
	}
	after, _ := c.db.Projects.Projects(context.Background(), 1)
	if len(after) != len(before) {
		t.Errorf("a cancelled import made a project")
	}
	// Another visitor cannot see the job.
	other := anonymous(t, c.srv, c.db)
	addUser(t, c.db, "editor@test.example", "Ed", "1", site.RoleEditor)
	other.login("editor@test.example")
	if rec := other.do("GET", page, nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("another account opens the job: %d", rec.Code)
	}
}

// TestImportUploadedSitemap: a sitemap file sent with the form is read
// as the source; the web never reads a path on the server.
func TestImportUploadedSitemap(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the upload waits for its reading
	c := siteClient(t)
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("_csrf", c.token)
	fw, _ := w.CreateFormFile("file", "old-site.xml")
	fw.Write([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://old.example/</loc></url>
<url><loc>https://old.example/about-us</loc><lastmod>2026-11-01T10:00:00</lastmod></url>
</urlset>`))
	w.Close()
	rec := c.raw("POST", "/sites/import", &body, w.FormDataContentType(), false)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("upload: %d %.300s", rec.Code, rec.Body.String())
	}
	doc := c.finished(rec.Header().Get("Location"))
	if got := doc.Find("#new-plan").Text(); doc.Find("#new-plan strong").Text() != "old.example" || !strings.Contains(got, "2 pages") {
		t.Errorf("new plan %q, named after the site's host? (%s)", got, doc.Find("#job-error").Text())
	}
	if b, _ := io.ReadAll(c.db.Jobs.JobUpload(context.Background(), strings.TrimPrefix(rec.Header().Get("Location"), "/sites/jobs/"))); len(b) != 0 {
		t.Errorf("the upload was not removed after its reading: %d bytes kept", len(b))
	}
	// The lines around its problems were kept before it went.
	href, ok := doc.Find(".problems li a.line-link").Attr("href")
	if !ok || !strings.HasSuffix(href, "/files/0?line=3") {
		t.Fatalf("the lastmod without a zone on line 3 has no line link: %q", doc.Find(".problems").Text())
	}
	rec = c.do("GET", href, nil, false)
	lines, _ := goquery.NewDocumentFromReader(rec.Body)
	if at := lines.Find(".source-lines li.at").Text(); rec.Code != 200 || !strings.Contains(at, "2026-11-01T10:00:00") ||
		lines.Find(".source-lines li").Length() != 4 || !strings.Contains(lines.Find("main").Text(), "old-site.xml, as uploaded") {
		t.Errorf("line page (%d): the marked line is %q of %q", rec.Code, at, lines.Find("main").Text())
	}
	if rec := c.do("GET", strings.Replace(href, "line=3", "line=2", 1), nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("a line of an upload with no problem on it: %d, want 404", rec.Code)
	}

	// A path on the server is not a source.
	doc = c.finished(c.startJob("/sites/check", url.Values{"source": {"/etc/passwd"}}))
	if got := doc.Find("#job-error").Text(); !strings.Contains(got, "neither a file here nor an http(s) address") && !strings.Contains(got, "not") {
		t.Errorf("a local path: %q", got)
	}
}

// TestLiveSiteGuard: without --allow-private-fetch a visitor cannot make
// the server read a loopback address; the report says why.
func TestLiveSiteGuard(t *testing.T) {
	ls := newLiveSite(t)
	c := newClient(t)
	runJobs(t, c.db, c.srv, jobs.Config{}) // as serve without --allow-private-fetch
	doc := c.finished(c.startJob("/sites/check", url.Values{"source": {ls.URL + "/blog.xml"}}))
	if got := doc.Find("#job-error").Text(); doc.Find("#job-status").AttrOr("data-state", "") != site.JobFailed || !strings.Contains(got, "loopback") {
		t.Errorf("a loopback sitemap: %s %q", doc.Find("#job-status").AttrOr("data-state", ""), got)
	}
}

// TestLiveSiteShutdown: stopping the jobs cancels a reading and waits
// until what it had begun to import is gone; a reading started after
// waits for a server to run it.
func TestLiveSiteShutdown(t *testing.T) {
	ls := newLiveSite(t)
	ls.holdInIndex = true
	c := siteClient(t)
	page := c.startJob("/sites/import", url.Values{"source": {ls.URL}})
	<-ls.holding
	c.jobs.Close()
	if j := c.job(page); j.State != site.JobFailed || !strings.Contains(j.Error, "The server stopped") {
		t.Errorf("after Close the reading is %q: %q", j.State, j.Error)
	}
	projects, err := c.db.Projects.Projects(context.Background(), 1)
	if err != nil || len(projects) != 0 {
		t.Errorf("after Close: %d projects (%v), want none half-imported", len(projects), err)
	}
	if j := c.job(c.startJob("/sites/check", url.Values{"source": {ls.URL}})); j.State != site.JobWaiting {
		t.Errorf("a reading after Close is %s, want waiting", j.State)
	}
}

// TestLiveSiteStream: a job's page follows the reading through a stream
// of server-sent events: its progress as it changes, with the files read
// of those known and the URLs found (and not the Cancel button, which
// stays put), then the report in an "end" event,
// and the stream ends. A visitor may hold jobWatchers streams of a job
// at once.
func TestLiveSiteStream(t *testing.T) {
	ls := newLiveSite(t)
	ls.holdInIndex = true
	c := siteClient(t)
	ts := httptest.NewServer(c.srv.Echo)
	defer ts.Close()
	page := c.startJob("/sites/import", url.Values{"source": {ls.URL}, "name": {"Relaunch"}})
	events, code := openJobEvents(t, ts.URL, page, c.cookies)
	if code != http.StatusOK {
		t.Fatalf("events: %d", code)
	}
	fragment := func(e sseEvent) *goquery.Document {
		t.Helper()
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(e.data))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	// index, pages.xml and blog.xml read; hold.xml held
	for e := range events {
		if e.name != "status" {
			t.Fatalf("%s event before hold.xml was read: %.300s", e.name, e.data)
		}
		doc := fragment(e)
		if st := doc.Find("#job-live").AttrOr("data-state", ""); st != "waiting" && st != "reading" {
			t.Fatalf("state %q while reading", st)
		}
		if doc.Find("#job-cancel").Length() != 0 {
			t.Fatal("a status event replaces the Cancel button (a click across a frame is lost)")
		}
		if strings.Contains(doc.Find("#job-counts").Text(), "3 of 4 files read · 6 URLs") {
			if p := doc.Find("#job-progress"); p.AttrOr("value", "") != "3" || p.AttrOr("max", "") != "4" {
				t.Errorf("progress %s of %s, want 3 of 4", p.AttrOr("value", ""), p.AttrOr("max", ""))
			}
			break
		}
	}
	var others []<-chan sseEvent
	for range jobWatchers - 1 {
		ev, code := openJobEvents(t, ts.URL, page, c.cookies)
		if code != http.StatusOK {
			t.Fatalf("stream %d of %d: %d", len(others)+2, jobWatchers, code)
		}
		others = append(others, ev)
	}
	if _, code := openJobEvents(t, ts.URL, page, c.cookies); code != http.StatusTooManyRequests {
		t.Errorf("stream %d of one job: %d, want 429", jobWatchers+1, code)
	}
	ls.release()
	for i, ev := range append(others, events) {
		var last sseEvent
		for e := range ev {
			if last.name == "end" {
				t.Errorf("stream %d: %s event after the end", i, e.name)
			}
			last = e
		}
		if last.name != "end" {
			t.Fatalf("stream %d ended with %q (%s), not the end event", i, last.name, last.data)
		}
		if doc := fragment(last); doc.Find("#job-status").AttrOr("data-state", "") != "done" || doc.Find("#new-plan").Length() != 1 ||
			!strings.Contains(doc.Find(".report-summary").Text(), "4 files") {
			t.Errorf("stream %d: the end is not the report beside the new plan: %.500s", i, last.data)
		}
	}
}

// TestLiveSiteStreamLogout: logging out ends the streams of a reading;
// they get no more of it.
func TestLiveSiteStreamLogout(t *testing.T) {
	ls := newLiveSite(t)
	ls.holdInIndex = true
	c := siteClient(t)
	ts := httptest.NewServer(c.srv.Echo)
	defer ts.Close()
	page := c.startJob("/sites/import", url.Values{"source": {ls.URL}})
	events, code := openJobEvents(t, ts.URL, page, maps.Clone(c.cookies))
	if code != http.StatusOK {
		t.Fatalf("events: %d", code)
	}
	<-events
	<-ls.holding
	wantStatus(t, c.do("POST", "/logout", nil, false), http.StatusSeeOther, "log out")
	ls.release()
	for e := range events {
		if e.name != "status" {
			t.Errorf("after logout the stream got %s: %.300s", e.name, e.data)
		}
	}
}

// TestHTMLEvent: a fragment goes out as data lines a browser joins back
// into the same HTML; a carriage return in it cannot end a line.
func TestHTMLEvent(t *testing.T) {
	html := "<section id=\"a\">\n<p title=\"x\ry\">one\r\ntwo</p>\n</section>"
	var got []sseEvent
	for e := range parseEvents(bytes.NewReader(sseFrame("status", []byte(html)))) {
		got = append(got, e)
	}
	want := "<section id=\"a\">\n<p title=\"x&#13;y\">one&#13;\ntwo</p>\n</section>"
	if len(got) != 1 || got[0].name != "status" || got[0].data != want {
		t.Errorf("got %q, want one status event of %q", got, want)
	}
}

// TestJobWords: before the first file is known a reading says what it
// does, not "0 of 0 files read"; a report whose robots.txt gave no
// sitemap says so and says what was read instead.
func TestJobWords(t *testing.T) {
	var buf bytes.Buffer
	views.SiteJobProgress(views.SiteJob{State: site.JobReading, Running: true}).Render(context.Background(), &buf)
	if got := buf.String(); !strings.Contains(got, "No sitemap found yet.") || strings.Contains(got, "0 of 0") {
		t.Errorf("progress before any file is listed: %s", got)
	}
	buf.Reset()
	j := views.SiteJob{State: site.JobDone, Done: true, Report: &views.SiteReport{Robots: "https://example.com/robots.txt", RobotsNote: "robots.txt could not be read: answered 404 Not Found"}}
	views.SiteJobStatus(j).Render(context.Background(), &buf)
	if got := buf.String(); !strings.Contains(got, "robots.txt could not be read: answered 404 Not Found; the usual place, /sitemap.xml, was read instead.") || strings.Contains(got, "found through") {
		t.Errorf("report of a site without a usable robots.txt: %s", got)
	}
}
