package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/site"
	"siteplan/store"
	"siteplan/verify"
)

// acmeSite serves the store's sample plan as built: every planned page
// with its own canonical, robots.txt and a sitemap of the planned URLs;
// broken, the contact page is gone.
func acmeSite(t *testing.T, broken bool) *httptest.Server {
	t.Helper()
	doc, err := site.ReadDocumentFile("../store/testdata/acme.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := doc.Tree()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/sitemap.xml\n", srv.URL)
		case "/sitemap.xml":
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			tr.WalkURLs(0, func(p *site.Page, u string) bool {
				if u != "" && p.InSitemap {
					fmt.Fprintf(w, "<url><loc>%s</loc></url>", strings.Replace(u, "https://www.acme.example", srv.URL, 1))
				}
				return true
			})
			fmt.Fprint(w, "</urlset>")
		case "/contact":
			if broken {
				http.NotFound(w, r)
				return
			}
			fallthrough
		default:
			fmt.Fprintf(w, `<html><head><link rel="canonical" href="https://www.acme.example%s"></head><body></body></html>`, r.URL.EscapedPath())
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestVerifyCLI runs the README's CI example against loopback sites: the
// plan imported from its siteplan/1 document into a scratch database,
// then siteplan verify with a JUnit report; a clean site passes (exit
// 0), a broken one fails the build (exit 1, the problem in the report),
// a check that cannot run says so (exit 2). --approved holds the site to
// the version signed off.
func TestVerifyCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "ci.db")
	var out bytes.Buffer
	if err := run([]string{"import", "--db", db, "../store/testdata/acme.json"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	verifyRun := func(base string, extra ...string) (string, int) {
		t.Helper()
		var out bytes.Buffer
		err := run(append([]string{"verify", "--db", db, "--project", "1", "--base", base, "--allow-private", "--junit", filepath.Join(dir, "report.xml")}, extra...), nil, &out)
		var exit *exitError
		switch {
		case err == nil:
			return out.String(), 0
		case errors.As(err, &exit):
			return out.String() + err.Error(), exit.code
		}
		return out.String() + err.Error(), 1
	}
	clean, broken := acmeSite(t, false), acmeSite(t, true)
	if got, code := verifyRun(clean.URL); code != 0 || !strings.Contains(got, "0 errors, 0 warnings") {
		t.Errorf("a clean site: exit %d\n%s", code, got)
	}
	got, code := verifyRun(broken.URL)
	if code != 1 || !strings.Contains(got, "error [status] “Contact”") {
		t.Errorf("a broken site: exit %d\n%s", code, got)
	}
	junit, err := os.ReadFile(filepath.Join(dir, "report.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var suite struct {
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(junit, &suite); err != nil || suite.Failures != 1 { // the page; its sitemap entry is right
		t.Errorf("JUnit: %d failures (%v)\n%s", suite.Failures, err, junit)
	}
	var rep verify.Report
	got, _ = verifyRun(broken.URL, "--json")
	if err := json.Unmarshal([]byte(got[:strings.LastIndex(got, "}")+1]), &rep); err != nil || rep.Errors != 1 || rep.Problems[0].Rule != verify.RuleStatus {
		t.Errorf("--json: %v %+v", err, rep)
	}
	if got, code := verifyRun(clean.URL, "--approved"); code != 2 || !strings.Contains(got, "no version of this plan is signed off") {
		t.Errorf("--approved without a sign-off: exit %d\n%s", code, got)
	}
	// Signed off, then changed: --approved holds the site to what was
	// signed, the plan now to what it is.
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	v, err := st.History.CreateVersion(ctx, 1, "Signed")
	if err == nil {
		_, err = st.History.Approve(ctx, 1, v.Number, 0, "Carla Client")
	}
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := st.Pages.Tree(ctx, 1)
	var contact site.Page
	tr.Walk(func(p *site.Page, _ int) bool {
		if p.Title == "Contact" {
			contact = *p
		}
		return true
	})
	if _, err := st.Pages.DeletePage(ctx, contact.ID); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if got, code := verifyRun(broken.URL, "--approved"); code != 1 || !strings.Contains(got, "Version 1 “Signed”") {
		t.Errorf("--approved: exit %d\n%s", code, got)
	}
	if got, code := verifyRun(broken.URL); code != 1 || !strings.Contains(got, "[sitemap-extra]") {
		t.Errorf("the plan now, without the contact page the site still lists: exit %d\n%s", code, got)
	}
	if _, code := verifyRun("ftp://nowhere"); code != 2 {
		t.Errorf("a base that is not http: exit %d", code)
	}
	// A site that gives no answer at all is one problem, not one a page:
	// the check could not run (exit 2), in words, nothing in the report.
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	got, code = verifyRun(closed.URL)
	if code != 2 || !strings.Contains(got, "refused the connection") || strings.Contains(got, "[unreachable]") || strings.Contains(got, "Internal error") {
		t.Errorf("a site that refuses the connection: exit %d\n%s", code, got)
	}
	var stdout bytes.Buffer
	err = run([]string{"verify", "--db", db, "--project", "1", "--base", clean.URL}, nil, &stdout) // no --allow-private
	if exit := (*exitError)(nil); !errors.As(err, &exit) || exit.code != 2 || !strings.Contains(err.Error(), "siteplan verify --allow-private") {
		t.Errorf("a loopback site without --allow-private: %v\n%s", err, stdout.String())
	}
}
