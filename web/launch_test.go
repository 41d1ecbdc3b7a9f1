package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"siteplan/site"
)

// builtSite serves a plan as its built site would be, on loopback: each
// planned page answers 200 with its own canonical, robots.txt names the
// sitemap, which lists the pages planned in it. A defect set for a path
// answers for it instead; hold makes every page wait until release is
// closed or its request ends (a slow site).
type builtSite struct {
	*httptest.Server
	mu      sync.Mutex
	defects map[string]http.HandlerFunc
	hold    bool
	auth    string        // "user:password" every request must send (HTTP Basic), if not ""
	held    chan struct{} // a page is waiting
	release chan struct{}
}

func newBuiltSite(t *testing.T, tr *site.Tree) *builtSite {
	bs := &builtSite{defects: map[string]http.HandlerFunc{}, held: make(chan struct{}, 100), release: make(chan struct{})}
	prod := tr.Project.RootPath()
	bs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bs.mu.Lock()
		d, hold, auth := bs.defects[r.URL.Path], bs.hold, bs.auth
		bs.mu.Unlock()
		if u, p, _ := r.BasicAuth(); auth != "" && u+":"+p != auth {
			w.Header().Set("WWW-Authenticate", `Basic realm="staging"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if hold && r.URL.Path != "/robots.txt" && r.URL.Path != "/sitemap.xml" {
			select {
			case bs.held <- struct{}{}:
			default:
			}
			select {
			case <-bs.release:
			case <-r.Context().Done():
				return
			}
		}
		switch {
		case d != nil:
			d(w, r)
		case r.URL.Path == "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/sitemap.xml\n", bs.URL)
		case r.URL.Path == "/sitemap.xml":
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			tr.WalkURLs(0, func(p *site.Page, u string) bool {
				if u != "" && p.InSitemap {
					fmt.Fprintf(w, "<url><loc>%s</loc></url>", strings.Replace(u, site.Origin(prod), bs.URL, 1))
				}
				return true
			})
			fmt.Fprint(w, "</urlset>")
		default:
			fmt.Fprintf(w, `<html><head><link rel="canonical" href="%s%s"></head><body></body></html>`, site.Origin(prod), r.URL.EscapedPath())
		}
	}))
	t.Cleanup(bs.Close)
	return bs
}

// set gives path a defect (nil: none).
func (bs *builtSite) set(path string, h http.HandlerFunc) {
	bs.mu.Lock()
	defer bs.mu.Unlock()
	if h == nil {
		delete(bs.defects, path)
	} else {
		bs.defects[path] = h
	}
}

// launch starts a launch check through the page's form and returns its
// job's page once the check has ended, reading its stream.
func (c *client) launch(pid int64, form url.Values) *goquery.Document {
	c.t.Helper()
	page := "/projects/" + itoa(pid) + "/launch"
	rec := c.do("POST", page, form, false)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != page {
		c.t.Fatalf("start: %d %q %.300s", rec.Code, rec.Header().Get("Location"), rec.Body.String())
	}
	// The job's stream ends at once for a check that has ended already: a
	// loopback site of nine pages may be checked before the page is read.
	j, ok, err := c.db.Jobs.NewestLaunchJob(context.Background(), 1, pid) // the owner newClient logs in, the database's first account
	if !ok {
		c.t.Fatalf("no check started (%v)", err)
	}
	end := c.finished("/sites/jobs/" + j.ID)
	if got := end.Find("#job-status").AttrOr("hx-get", ""); got != page {
		c.t.Errorf("the end frame loads %q, want the page", got)
	}
	return doc(c.t, c.do("GET", page, nil, false))
}

func texts(s *goquery.Selection) []string {
	var out []string
	s.Each(func(_ int, e *goquery.Selection) { out = append(out, strings.Join(strings.Fields(e.Text()), " ")) })
	return out
}

// TestLaunchCheck runs the editor's launch check three times against a
// loopback site: clean (nothing to fix, every checked page ok), with
// seeded defects (grouped by rule, linked to their pages, new since the
// last check) and mended (fixed since). The report downloads as the
// diagram's PDF and as JSON.
func TestLaunchCheck(t *testing.T) {
	c := siteClient(t)
	pid, ids := c.fixture()
	tr, _ := c.db.Pages.Tree(context.Background(), pid)
	bs := newBuiltSite(t, tr)

	page := c.launch(pid, url.Values{"base": {bs.URL + "/"}})
	if page.Find("#launch-clean").Length() != 1 || page.Find("#launch-errors").Text() != "0" {
		t.Errorf("a clean site: %q errors, %v", page.Find("#launch-errors").Text(), texts(page.Find(".launch-group h3")))
	}
	if got := page.Find("#launch-base").AttrOr("value", ""); got != bs.URL+"/" {
		t.Errorf("the form offers base %q, want the last check's", got)
	}
	if page.Find("#launch-since").Length() != 0 {
		t.Error("the first check says what changed")
	}
	card := func(title string) string {
		return strings.Join(strings.Fields(page.Find(".launch-diagram svg g#p"+itoa(ids[title])).Text()), " ")
	}
	svg := page.Find(".launch-diagram svg")
	if svg.Length() != 1 || !strings.Contains(svg.Text(), "Launch check") || !strings.Contains(card("Team"), "· ok") {
		t.Errorf("the diagram: Team's card reads %q", card("Team"))
	}

	bs.set("/about-us/team", http.NotFound)
	bs.set("/contact", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Robots-Tag", "noindex")
		fmt.Fprint(w, "<html></html>")
	})
	page = c.launch(pid, url.Values{"base": {bs.URL + "/"}})
	if got := page.Find("#launch-errors").Text(); got != "2" {
		t.Errorf("%s errors, want 2", got)
	}
	// The page opens on the result: the figures, the problems by rule,
	// the coloured plan, then what changed since, the form last.
	var order []string
	page.Find("#launch-figures, .launch-group, .launch-diagram, #launch-since, #launch-form").Each(func(_ int, s *goquery.Selection) {
		if id := s.AttrOr("id", ""); id != "" && !strings.HasPrefix(id, "rule-") {
			order = append(order, id)
		} else if o := s.AttrOr("class", ""); len(order) == 0 || order[len(order)-1] != o {
			order = append(order, o)
		}
	})
	if got := strings.Join(order, " "); got != "launch-figures launch-group diagram launch-diagram launch-since launch-form" {
		t.Errorf("the launch page in the order %q", got)
	}
	groups := texts(page.Find(".launch-group h3"))
	want := []string{"Planned pages that do not answer 200 1 error, 0 warnings", "Pages hidden from search engines (noindex) 1 error, 0 warnings"}
	if strings.Join(groups, "|") != strings.Join(want, "|") {
		t.Errorf("groups\n got %q\nwant %q", groups, want)
	}
	// The PDF, the report to sign, lists them after the coloured plan.
	rec := c.do("GET", "/projects/"+itoa(pid)+"/launch/diagram/pdf", nil, false)
	pdf := pdfText(t, rec.Body.Bytes())
	for _, w := range []string{"Problems found, by rule", "Planned pages that do not answer 200", "✕ “Team”, https://www.acme.example/about-us/team", "Pages hidden from search engines (noindex)", "“Contact”"} {
		if !strings.Contains(pdf, w) {
			t.Errorf("the launch report PDF does not list %q:\n%.1500s", w, pdf[strings.Index(pdf, "Problems found")+0:])
		}
	}
	keepFile(t, "launch-report.pdf", rec.Body.Bytes())
	team := page.Find("#rule-status li.problem a.page")
	if team.Text() != "Team" || team.AttrOr("href", "") != pagePath(pid, ids["Team"]) {
		t.Errorf("the status problem links %q to %q", team.Text(), team.AttrOr("href", ""))
	}
	if got := page.Find("#rule-status .message").Text(); !strings.Contains(got, "answers 404, not 200") {
		t.Errorf("the status problem says %q", got)
	}
	if got := texts(page.Find("#launch-new li .url")); len(got) != 2 || page.Find("#launch-fixed").Length() != 0 {
		t.Errorf("new since the last check: %q, fixed %q", got, texts(page.Find("#launch-fixed li")))
	}
	if !strings.Contains(card("Team"), "· error") || !strings.Contains(card("Home"), "· ok") {
		t.Errorf("the diagram's cards read %q and %q", card("Team"), card("Home"))
	}

	// The launch report: the diagram's PDF, and the problems as JSON.
	rec = c.do("GET", "/projects/"+itoa(pid)+"/launch/diagram/pdf", nil, false)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" {
		t.Fatalf("PDF: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	if pdftotext, err := exec.LookPath("pdftotext"); err == nil {
		file := filepath.Join(t.TempDir(), "launch.pdf")
		os.WriteFile(file, rec.Body.Bytes(), 0o644)
		out, err := exec.Command(pdftotext, file, "-").Output()
		for _, w := range []string{"LAUNCH CHECK", "Site: " + bs.URL, "2 errors, 0 warnings in 9 pages", "not checked", "Signature"} {
			if err != nil || !strings.Contains(string(out), w) {
				t.Errorf("the PDF lacks %q (%v):\n%s", w, err, out)
			}
		}
	}
	rec = c.do("GET", "/projects/"+itoa(pid)+"/launch/report.json", nil, false)
	var rep struct {
		Errors   int `json:"errors"`
		Problems []struct{ Rule, URL string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &rep); err != nil || rep.Errors != 2 || len(rep.Problems) != 2 {
		t.Errorf("JSON: %v %+v", err, rep)
	}

	bs.set("/about-us/team", nil)
	page = c.launch(pid, url.Values{"base": {bs.URL + "/"}})
	if fixed := texts(page.Find("#launch-fixed li .url")); len(fixed) != 1 || fixed[0] != "https://www.acme.example/about-us/team" ||
		page.Find("#launch-new").Length() != 0 {
		t.Errorf("fixed since the last check: %q, new %q", fixed, texts(page.Find("#launch-new li")))
	}
}

// TestLaunchCheckRefused: a base that is not a site's address, a
// version that does not exist, "the version signed off" of a plan none
// of whose versions is: refused with what to fix, nothing started.
func TestLaunchCheckRefused(t *testing.T) {
	c := siteClient(t)
	pid, _ := c.fixture()
	path := "/projects/" + itoa(pid) + "/launch"
	for _, tc := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"base": {"staging.example.com"}}, "Enter where the site is served"},
		{url.Values{"base": {"ftp://example.com/"}}, "Enter where the site is served"},
		{url.Values{"base": {"http://127.0.0.1:1/"}, "version": {"7"}}, "no version"},
		{url.Values{"base": {"http://127.0.0.1:1/"}, "version": {"approved"}}, "No version of this plan is signed off"},
	} {
		rec := c.do("POST", path, tc.form, false)
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("%v: %d %.300s", tc.form, rec.Code, rec.Body.String())
		}
	}
	if doc(t, c.do("GET", path, nil, false)).Find("#launch-job, #launch-report").Length() != 0 {
		t.Error("a refused check started")
	}
}

// TestLaunchCheckCancel: a check of a slow site is cancelled; the page
// says so and keeps no report. While it runs, the visitor's second job
// is refused and the form is not offered.
func TestLaunchCheckCancel(t *testing.T) {
	c := siteClient(t)
	pid, _ := c.fixture()
	tr, _ := c.db.Pages.Tree(context.Background(), pid)
	bs := newBuiltSite(t, tr)
	bs.hold = true
	path := "/projects/" + itoa(pid) + "/launch"
	if rec := c.do("POST", path, url.Values{"base": {bs.URL}}, false); rec.Code != http.StatusSeeOther {
		t.Fatalf("start: %d", rec.Code)
	}
	<-bs.held
	page := doc(t, c.do("GET", path, nil, false))
	job := strings.TrimSuffix(page.Find("#launch-job").AttrOr("sse-connect", ""), "/events")
	if job == "" || page.Find("#launch-form").Length() != 0 {
		t.Fatalf("a running check: job %q, form shown %d", job, page.Find("#launch-form").Length())
	}
	if rec := c.do("POST", path, url.Values{"base": {bs.URL}}, false); rec.Code != http.StatusTooManyRequests {
		t.Errorf("a second check: %d, want 429", rec.Code)
	}
	if rec := c.do("POST", job+"/cancel", nil, false); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != path {
		t.Fatalf("cancel: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	c.finished(job)
	page = doc(t, c.do("GET", path, nil, false))
	if got := page.Find("#job-error").Text(); !strings.Contains(got, "Cancelled.") || page.Find("#launch-report").Length() != 0 {
		t.Errorf("after cancel: %q, report %d", got, page.Find("#launch-report").Length())
	}
	if cs, _ := c.db.History.LaunchChecks(context.Background(), pid, 5); len(cs) != 0 {
		t.Errorf("a cancelled check kept %d reports", len(cs))
	}
}

// TestLaunchCheckTakesItsPlansTurn: a check of a plan is its team's job,
// whichever team the account that starts it works in now: accounts in
// teams of their own cannot give one team more readers than its turn.
func TestLaunchCheckTakesItsPlansTurn(t *testing.T) {
	c := siteClient(t)
	pid, _ := c.fixture()
	tr, _ := c.db.Pages.Tree(context.Background(), pid)
	bs := newBuiltSite(t, tr)
	bs.hold = true
	addUser(t, c.db, "ed@test.example", "Ed", "1", site.RoleEditor)
	ed := c.peer()
	ed.login("ed@test.example")
	if rec := ed.do("POST", "/teams", url.Values{"name": {"Ed's side team"}}, false); rec.Code != http.StatusSeeOther {
		t.Fatalf("a team of his own: %d", rec.Code)
	}
	path := "/projects/" + itoa(pid) + "/launch"
	if rec := ed.do("POST", path, url.Values{"base": {bs.URL}}, false); rec.Code != http.StatusSeeOther {
		t.Fatalf("start: %d %.300s", rec.Code, rec.Body.String())
	}
	<-bs.held
	job := strings.TrimSuffix(doc(t, ed.do("GET", path, nil, false)).Find("#launch-job").AttrOr("sse-connect", ""), "/events")
	j, err := c.db.Jobs.Job(context.Background(), strings.TrimPrefix(job, "/sites/jobs/"), false)
	if err != nil {
		t.Fatalf("job %q: %v", job, err)
	}
	if p, _ := c.db.Projects.Project(context.Background(), pid); j.TeamID != p.TeamID {
		t.Errorf("the check is team %d's job, want the plan's team %d", j.TeamID, p.TeamID)
	}
	ed.do("POST", job+"/cancel", nil, false)
	ed.finished(job)
}

// TestLaunchCheckCredentials: a base with a user and password checks a
// staging site behind HTTP Basic authentication, and no page, report or
// job shows the password: not the team's, not a viewer's, not a client's.
func TestLaunchCheckCredentials(t *testing.T) {
	c := siteClient(t)
	pid, _ := c.fixture()
	tr, _ := c.db.Pages.Tree(context.Background(), pid)
	bs := newBuiltSite(t, tr)
	bs.auth = "staging:s3cr3t-PW"
	base := strings.Replace(bs.URL, "http://", "http://staging:s3cr3t-PW@", 1) + "/"
	page := c.launch(pid, url.Values{"base": {base}})
	if page.Find("#launch-clean").Length() != 1 {
		t.Errorf("the check did not get in: %q errors, %v", page.Find("#launch-errors").Text(), texts(page.Find(".launch-group h3")))
	}
	if got := page.Find("#launch-base").AttrOr("value", ""); got != bs.URL+"/" {
		t.Errorf("the form offers base %q, want it without the password", got)
	}
	viewer := c.peer()
	addUser(t, c.db, "vi@test.example", "Vi", "1", site.RoleViewer)
	viewer.login("vi@test.example")
	guest := c.visitor(pid, site.ShareView)
	p := "/projects/" + itoa(pid)
	for who, v := range map[string]*client{"the team": c, "a viewer": viewer, "a client": guest} {
		for _, path := range []string{p + "/launch", p + "/launch/report.json", p + "/launch/diagram/pdf"} {
			rec := v.do("GET", path, nil, false)
			if body := rec.Body.String(); strings.Contains(body, "s3cr3t-PW") || rec.Code == 200 && strings.HasSuffix(path, "pdf") && strings.Contains(pdfText(t, rec.Body.Bytes()), "s3cr3t-PW") {
				t.Errorf("%s sees the password at %s", who, path)
			}
		}
	}
	j, _, _ := c.db.Jobs.NewestLaunchJob(context.Background(), 1, pid)
	if strings.Contains(j.Source, "s3cr3t") || j.Credentials != "" {
		t.Errorf("the ended job keeps %q, credentials %q", j.Source, j.Credentials)
	}
}

// TestLaunchCheckUnreachable: a site that gives no answer at all ends the
// check with one message in words, and the check is not kept, so the
// next one does not report every page "fixed".
func TestLaunchCheckUnreachable(t *testing.T) {
	c := siteClient(t)
	pid, _ := c.fixture()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	path := "/projects/" + itoa(pid) + "/launch"
	if rec := c.do("POST", path, url.Values{"base": {closed.URL + "/"}}, false); rec.Code != http.StatusSeeOther {
		t.Fatalf("start: %d", rec.Code)
	}
	j, ok, _ := c.db.Jobs.NewestLaunchJob(context.Background(), 1, pid)
	if !ok {
		t.Fatal("no check started")
	}
	c.finished("/sites/jobs/" + j.ID)
	page := doc(t, c.do("GET", path, nil, false))
	if got := page.Find("#job-error").Text(); !strings.Contains(got, "could not be reached") || !strings.Contains(got, "refused the connection") {
		t.Errorf("the check's end says %q", got)
	}
	if cs, _ := c.db.History.LaunchChecks(context.Background(), pid, 5); len(cs) != 0 || page.Find("#launch-report").Length() != 0 {
		t.Errorf("a check that could not run was kept: %d", len(cs))
	}
}
