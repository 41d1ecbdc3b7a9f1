package verify

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"siteplan/fetch"
	"siteplan/site"
)

// acme is the store's sample plan with a redirect map, as its pages and
// old URLs.
func acme(t *testing.T) (*site.Tree, []site.OldURL) {
	t.Helper()
	doc, err := site.ReadDocumentFile("../store/testdata/acme.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := doc.Tree()
	id := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { id[p.Title] = p.ID; return true })
	old := func(path, to string) site.OldURL {
		return site.OldURL{OldPage: site.OldPage{URL: "https://www.acme.example" + path}, Mapping: site.Mapping{
			Disposition: site.DispositionRedirect, PageID: id[to], Status: 301, Accepted: true}}
	}
	gone := func(path string) site.OldURL {
		return site.OldURL{OldPage: site.OldPage{URL: "https://www.acme.example" + path}, Mapping: site.Mapping{
			Disposition: site.DispositionRetire, Status: 410, Accepted: true}}
	}
	olds := []site.OldURL{
		old("/old-about.html", "About us"),  // right
		old("/old-team.html", "Team"),       // a 302
		old("/old-contact.html", "Contact"), // to the wrong place
		old("/old-prices.html", "Pricing"),  // a chain: Pricing redirects
		old("/plain.html", "Contact"),       // not redirected at all
		gone("/gone.html"),                  // right
		gone("/gone-404.html"),              // 404, not 410
		{OldPage: site.OldPage{URL: "https://www.acme.example/maybe.html"}, Mapping: site.Mapping{Disposition: site.DispositionRedirect, PageID: id["Team"]}}, // not accepted: not checked
	}
	return tr, olds
}

// seeded serves the acme plan with a defect of every kind the check
// knows, beside pages that are right and must raise nothing.
func seeded(t *testing.T) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := func(headExtra string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<!doctype html><html><head><title>x</title>%s</head><body><h1>x</h1><meta name=robots content=noindex></body></html>", headExtra)
		}
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /login$\nSitemap: %s/sitemap.xml\n", srv.URL)
		case "/sitemap.xml":
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for _, p := range []string{"/", "/about-us", "/produkte/caf%C3%A9", "/legal/privacy", "/imprint", "/extra-page", "/login"} {
				fmt.Fprintf(w, "<url><loc>%s%s</loc></url>", srv.URL, p)
			}
			fmt.Fprint(w, "</urlset>")
		case "/":
			page(`<link rel="canonical" href="/">`) // right: relative, its own URL
		case "/about-us":
			page(`<link rel="canonical" href="https://www.acme.example/about-us">`) // right: the production host, same path
		case "/about-us/team":
			http.NotFound(w, r)
		case "/produkte/pricing":
			http.Redirect(w, r, "/pricing", http.StatusMovedPermanently)
		case "/produkte/café":
			page("") // right; the noindex in the body is not a meta tag of the head
		case "/contact":
			page(`<meta name="robots" content="index, NOINDEX">`)
		case "/imprint":
			w.Header().Set("X-Robots-Tag", "noindex, nofollow")
			page("")
		case "/legal/privacy":
			page(`<link rel="canonical" href="https://www.acme.example/privacy">`)
		case "/login":
			page(`<meta name="robots" content="noindex">`) // out of the sitemap: warnings only
		case "/old-about.html":
			http.Redirect(w, r, "/about-us", http.StatusMovedPermanently)
		case "/old-team.html":
			http.Redirect(w, r, "/about-us/team", http.StatusFound)
		case "/old-contact.html":
			http.Redirect(w, r, "/kontakt", http.StatusMovedPermanently)
		case "/old-prices.html":
			http.Redirect(w, r, srv.URL+"/produkte/pricing", http.StatusPermanentRedirect)
		case "/plain.html":
			page("")
		case "/gone.html":
			w.WriteHeader(http.StatusGone)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// config reaches a loopback site with siteplan's own fetch client.
func config(base string) Config {
	c := fetch.New(fetch.Options{AllowPrivate: true})
	return Config{Base: base, Concurrency: 4, Open: c.Open,
		Hop: func(ctx context.Context, method, url string, max int64) (Answer, error) {
			a, err := c.Hop(ctx, method, url, max)
			return Answer(a), err
		}}
}

// TestCheckSeeded checks the seeded site: every defect is found, named
// with its rule, page and severity, and the right pages raise nothing.
func TestCheckSeeded(t *testing.T) {
	srv := seeded(t)
	tr, olds := acme(t)
	rep, err := Check(context.Background(), config(srv.URL), tr, olds)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range rep.Problems {
		got = append(got, p.Severity+" "+p.Rule+" "+strings.TrimPrefix(p.URL, "https://www.acme.example")+" "+p.Page)
	}
	want := []string{
		"error status /about-us/team Team",
		"error redirected /produkte/pricing Pricing",
		"error noindex /contact Contact",
		"error noindex /imprint Imprint",
		"warning noindex /login Login",
		"warning robots /login Login",
		"error canonical /legal/privacy Privacy",
		"error sitemap-missing /about-us/team Team",
		"error sitemap-missing /produkte/pricing Pricing",
		"error sitemap-missing /contact Contact",
		"error sitemap-extra /extra-page ",
		"error sitemap-extra /login Login",
		"error redirect-map /old-team.html Team",
		"error redirect-map /old-contact.html Contact",
		"error redirect-map /old-prices.html Pricing",
		"error redirect-map /plain.html Contact",
		"error redirect-map /gone-404.html ",
	}
	slices.Sort(got)
	slices.Sort(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Pages != 9 || rep.OldURLs != 7 || rep.Errors != 15 || rep.Warnings != 2 {
		t.Errorf("counts: %d pages, %d old URLs, %d errors, %d warnings", rep.Pages, rep.OldURLs, rep.Errors, rep.Warnings)
	}
	for _, p := range rep.Problems {
		if p.Message == "" {
			t.Errorf("%s %s says nothing", p.Rule, p.URL)
		}
	}
	// The words say what was found.
	for _, w := range []string{"answers 301 to /pricing", "answers 404, not 200", "index, NOINDEX", "names https://www.acme.example/privacy",
		"temporary 302", "redirects to https://www.acme.example/kontakt", "A chain", "answers 200; the map says", "not 410"} {
		if !strings.Contains(fmt.Sprint(rep.Problems), w) {
			t.Errorf("no problem says %q", w)
		}
	}

	var junit bytes.Buffer
	if err := rep.JUnit(&junit); err != nil {
		t.Fatal(err)
	}
	var suite struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(junit.Bytes(), &suite); err != nil {
		t.Fatal(err)
	}
	// 9 pages, the sitemaps, 5 old URLs with a problem; failing: the 5
	// pages with an error (Login has warnings only), the sitemaps, the 5
	// old URLs.
	if suite.Tests != 15 || suite.Failures != 11 {
		t.Errorf("JUnit: %d tests, %d failures, want 15 and 11\n%s", suite.Tests, suite.Failures, junit.String())
	}
}

// TestCheckClean: a site that is as planned raises nothing.
func TestCheckClean(t *testing.T) {
	tr, _ := acme(t)
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
		default:
			fmt.Fprintf(w, `<html><head><link rel="canonical" href="https://www.acme.example%s"></head><body></body></html>`, r.URL.EscapedPath())
		}
	}))
	defer srv.Close()
	rep, err := Check(context.Background(), config(srv.URL+"/"), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 0 || rep.Pages != 9 || rep.Sitemaps != 8 {
		t.Errorf("a clean site: %d pages, %d in the sitemaps, problems %+v", rep.Pages, rep.Sitemaps, rep.Problems)
	}
	// A page whose override names another host is not fetched: the
	// check never leaves the site it was given.
	pages := tr.Pages()
	pages = append(pages, site.Page{ID: 999, ParentID: pages[0].ID, Title: "Elsewhere", Kind: site.KindPage, Path: "https://other.example/x", InSitemap: false})
	tr2 := site.NewTree(tr.Project, pages)
	if rep, err := Check(context.Background(), config(srv.URL+"/"), tr2, nil); err != nil || rep.Pages != 9 || len(rep.Problems) != 0 {
		t.Errorf("a page on another host: %v, %d pages, %+v", err, rep.Pages, rep.Problems)
	}
	if _, err := Check(context.Background(), config("ftp://x"), tr, nil); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("a base that is not http: %v", err)
	}
}

// TestCheckBasePath: a plan under a path (/de/) served under the same
// path on staging: robots.txt and the sitemaps are the host's, a page
// whose override is a path outside /de/ is checked on the served host,
// and a clean site raises nothing.
func TestCheckBasePath(t *testing.T) {
	tr, _ := acme(t)
	pr := tr.Project
	pr.BaseURL = "https://www.acme.example/de/"
	tr = site.NewTree(pr, tr.Pages())
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /en/\nSitemap: %s/sitemap-de.xml\n", srv.URL)
		case "/sitemap-de.xml":
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			tr.WalkURLs(0, func(p *site.Page, u string) bool {
				if u != "" && p.InSitemap {
					fmt.Fprintf(w, "<url><loc>%s</loc></url>", strings.Replace(u, "https://www.acme.example", srv.URL, 1))
				}
				return true
			})
			fmt.Fprint(w, "</urlset>")
		default: // under /de/, and Privacy's override /legal/privacy at the host's root
			fmt.Fprint(w, `<html><head></head><body></body></html>`)
		}
	}))
	defer srv.Close()
	rep, err := Check(context.Background(), config(srv.URL+"/de/"), tr, nil)
	if err != nil || len(rep.Problems) != 0 || rep.Sitemaps != 8 {
		t.Errorf("a plan under /de/: %v, %d in the sitemaps, %+v", err, rep.Sitemaps, rep.Problems)
	}
}

// TestCheckResults: the seeded site's pages get their worst severity
// (an old URL's problem is not its target's), every checked page a
// result; progress counts every page and old URL once; past
// MaxProblems the report counts problems without listing them.
func TestCheckResults(t *testing.T) {
	srv := seeded(t)
	tr, olds := acme(t)
	cfg := config(srv.URL)
	var last, calls, total int
	cfg.Progress = func(done, n int) { calls, last, total = calls+1, max(last, done), n } // Concurrency 1 below: no race
	cfg.Concurrency = 1
	rep, err := Check(context.Background(), cfg, tr, olds)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 17 || last != 16 || total != 16 {
		t.Errorf("progress: %d calls, last %d of %d; want 17 calls (0, then each), 16 of 16 (9 pages, 7 old URLs)", calls, last, total)
	}
	byTitle := map[string]string{}
	res := rep.Results()
	tr.Walk(func(p *site.Page, _ int) bool {
		if r, ok := res[p.ID]; ok {
			byTitle[p.Title] = r
		}
		return true
	})
	want := map[string]string{"Home": OK, "About us": OK, "Team": Error, "Pricing": Error, `Café & "Bar" <b>`: OK, "Contact": Error,
		"Imprint": Error, "Privacy": Error, "Login": Error} // Login: its warnings, and an error (listed in the sitemap)
	if fmt.Sprint(byTitle) != fmt.Sprint(want) {
		t.Errorf("results\n got %v\nwant %v", byTitle, want)
	}

	cfg.MaxProblems, cfg.Progress = 5, nil
	rep, err = Check(context.Background(), cfg, tr, olds)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 5 || rep.Omitted != 12 || rep.Errors != 15 || rep.Warnings != 2 {
		t.Errorf("capped at 5: %d listed, %d omitted, %d errors, %d warnings", len(rep.Problems), rep.Omitted, rep.Errors, rep.Warnings)
	}
}

// TestCheckBriefs: a page whose brief plans an SEO title or H1 must
// have them (spaces and character references as HTML reads them); a
// differing one is a warning naming both, and a page without a brief
// raises nothing.
func TestCheckBriefs(t *testing.T) {
	tr, _ := acme(t)
	pages := tr.Pages()
	for i := range pages {
		switch pages[i].Title {
		case "Home":
			pages[i].Brief = site.Brief{SEOTitle: "Acme & Co — tools", H1: "Welcome to Acme"}
		case "About us":
			pages[i].Brief = site.Brief{SEOTitle: "About Acme", H1: "About us"}
		case "Contact":
			pages[i].Brief = site.Brief{H1: "Contact us"}
		}
	}
	tr = site.NewTree(tr.Project, pages)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := map[string]string{
			"/":         "<title>\n  Acme &amp; Co &mdash; tools </title></head><body><div><h1>Welcome <em>to</em>\n Acme</h1></div><h1>Second</h1>",
			"/about-us": "<title>About</title></head><body><h1>About us</h1>",
			"/contact":  "<title>Contact</title></head><body><h2>Contact us</h2>",
		}[r.URL.Path]
		switch r.URL.Path {
		case "/robots.txt", "/sitemap.xml":
			http.NotFound(w, r)
		default:
			fmt.Fprintf(w, `<html><head><link rel="canonical" href="https://www.acme.example%s">%s</body></html>`, r.URL.EscapedPath(), body)
		}
	}))
	defer srv.Close()
	rep, err := Check(context.Background(), config(srv.URL+"/"), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range rep.Problems {
		if p.Rule == RuleTitle || p.Rule == RuleH1 {
			got = append(got, p.Severity+" "+p.Rule+" "+p.Page+": "+p.Message)
		}
	}
	want := []string{
		"warning title About us: Its <title> is “About”; the brief says “About Acme”.",
		"warning h1 Contact: Its <h1> is “(none)”; the brief says “Contact us”.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
