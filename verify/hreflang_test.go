package verify

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"siteplan/site"
)

// localizedSite serves a localized plan on two loopback hosts (the main
// one with en and de under prefixes, fr-CH on a domain of its own), each
// page naming its alternates as the plan has them, in its HTML head, in
// its Link header (Contact) or in the sitemap alone (Team); defect, when
// set, changes what a URL names or answers. It returns the plan.
func localizedSite(t *testing.T, defect func(u string, pg *sitePage)) *site.Tree {
	t.Helper()
	var tr *site.Tree
	var main, ch *httptest.Server
	at := map[string]struct {
		p   *site.Page
		tag string
	}{}
	var mu sync.Mutex // the check asks several pages at once, and a plan's tree fills its caches as it is read
	handler := func(host func() string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			switch r.URL.Path {
			case "/robots.txt":
				fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/sitemap.xml\n", main.URL)
				return
			case "/sitemap.xml":
				if host() != main.URL {
					http.NotFound(w, r)
					return
				}
				fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">`)
				tr.WalkLocaleURLs(func(p *site.Page, _, u string) {
					pg := planPage(tr, p, u)
					if defect != nil {
						defect(u, &pg)
					}
					fmt.Fprintf(w, "<url><loc>%s</loc>", html.EscapeString(u))
					for _, a := range cmpOr(pg.mapAlts, pg.alts) {
						fmt.Fprintf(w, `<xhtml:link rel="alternate" hreflang="%s" href="%s"/>`, a.Tag, html.EscapeString(a.URL))
					}
					fmt.Fprint(w, "</url>")
				})
				fmt.Fprint(w, "</urlset>")
				return
			}
			u := host() + r.URL.Path
			where, ok := at[u]
			if !ok {
				http.NotFound(w, r)
				return
			}
			pg := planPage(tr, where.p, u)
			if defect != nil {
				defect(u, &pg)
			}
			if pg.status != 200 {
				w.WriteHeader(pg.status)
				return
			}
			var head strings.Builder
			fmt.Fprintf(&head, `<link rel="canonical" href="%s">`, html.EscapeString(pg.canonical))
			if pg.noindex {
				head.WriteString(`<meta name="robots" content="noindex">`)
			}
			switch pg.via {
			case "header":
				var links []string
				for _, a := range pg.alts {
					links = append(links, fmt.Sprintf(`<%s>; rel="alternate"; hreflang="%s"`, a.URL, a.Tag))
				}
				w.Header().Set("Link", strings.Join(links, ", "))
			case "html":
				for _, a := range pg.alts {
					fmt.Fprintf(&head, `<link rel="alternate" hreflang="%s" href="%s">`, a.Tag, html.EscapeString(a.URL))
				}
			}
			fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title>%s</head><body><h1>%s</h1></body></html>", where.p.Title, head.String(), where.p.Title)
		}
	}
	main = httptest.NewServer(handler(func() string { return main.URL }))
	t.Cleanup(main.Close)
	ch = httptest.NewServer(handler(func() string { return ch.URL }))
	t.Cleanup(ch.Close)
	doc := fmt.Sprintf(`{"format": "siteplan/1",
 "project": {"name": "Acme", "base_url": %q,
   "locales": [{"tag": "en", "default": true, "prefix": "/en/"}, {"tag": "de", "prefix": "/de/"}, {"tag": "fr-CH", "base_url": %q}]},
 "pages": [{"title": "Home", "slug": "", "children": [
   {"title": "Products", "variants": {"de": {"title": "Produkte", "slug": "produkte"}}, "children": [
     {"title": "Pricing", "variants": {"de": {"title": "Preise", "slug": "preise"}, "fr-CH": {"state": "not_offered"}}}]},
   {"title": "About", "variants": {"de": {"title": "Über uns", "slug": "ueber-uns"}}, "children": [{"title": "Team"}]},
   {"title": "Contact", "variants": {"de": {"title": "Kontakt", "slug": "kontakt"}}},
   {"title": "Swiss stores", "state": "not_offered", "variants": {"fr-CH": {"title": "Magasins", "slug": "magasins"}}}]}]}`,
		main.URL+"/", ch.URL+"/fr/")
	d, err := site.ParseDocument(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	tr, _ = d.Tree()
	tr.WalkLocaleURLs(func(p *site.Page, tag, u string) {
		at[u] = struct {
			p   *site.Page
			tag string
		}{p, tag}
	})
	return tr
}

// sitePage is what the loopback site serves at one planned URL.
type sitePage struct {
	status    int
	canonical string
	noindex   bool
	via       string // where its alternates are: "html", "header" or "sitemap" (alone)
	alts      []site.Hreflang
	mapAlts   []site.Hreflang // the sitemap's, when not alts
}

// planPage is a page as the plan has it: 200, its own canonical, its
// alternates the plan's.
func planPage(tr *site.Tree, p *site.Page, u string) sitePage {
	pg := sitePage{status: 200, canonical: u, via: "html", alts: tr.Hreflang(p.ID)}
	switch p.Title {
	case "Contact":
		pg.via = "header"
	case "Team":
		pg.via = "sitemap"
	}
	if pg.via == "sitemap" {
		pg.mapAlts, pg.alts = pg.alts, nil
	}
	return pg
}

func cmpOr(a, b []site.Hreflang) []site.Hreflang {
	if a != nil {
		return a
	}
	return b
}

// without is alts without the entry for tag.
func without(alts []site.Hreflang, tag string) []site.Hreflang {
	return slices.DeleteFunc(slices.Clone(alts), func(h site.Hreflang) bool { return h.Tag == tag })
}

// set is alts with tag's URL set to u.
func set(alts []site.Hreflang, tag, u string) []site.Hreflang {
	out := without(alts, tag)
	return append(out, site.Hreflang{Tag: tag, URL: u})
}

// TestCheckHreflangClean: a localized site built exactly to the plan,
// its alternates in the HTML head, a Link header or the sitemap alone,
// and a locale on a domain of its own, raises no problem at all.
func TestCheckHreflangClean(t *testing.T) {
	tr := localizedSite(t, nil)
	rep, err := Check(context.Background(), config(tr.Project.BaseURL), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 7 pages: Home, Products, Pricing, About, Team, Contact in en and
	// de (12), fr-CH without Pricing and with Swiss stores (6).
	if len(rep.Problems) != 0 || rep.Pages != 18 || rep.Sitemaps != 18 {
		t.Errorf("a clean localized site: %d pages, %d in the sitemaps, problems:\n%s", rep.Pages, rep.Sitemaps, problemLines(rep))
	}
}

// TestCheckHreflangSeeded seeds every class of hreflang defect the
// checkers name into a localized site: each is found, on its page, and
// the pages left right raise nothing.
func TestCheckHreflangSeeded(t *testing.T) {
	var tr *site.Tree
	url := func(title, tag string) string {
		var id int64
		tr.Walk(func(p *site.Page, _ int) bool {
			if p.Title == title {
				id = p.ID
			}
			return true
		})
		return tr.LocaleURL(id, tag)
	}
	tr = localizedSite(t, func(u string, pg *sitePage) {
		switch u {
		case url("About", "en"): // not a region code
			pg.alts = set(without(pg.alts, "en"), "en-UK", u)
		case url("Products", "de"): // no self reference (nor its de entry)
			pg.alts = without(pg.alts, "de")
		case url("Contact", "de"): // no return link to en
			pg.alts = without(pg.alts, "en")
		case url("Pricing", "de"): // no x-default
			pg.alts = without(pg.alts, site.XDefault)
		case url("Team", "de"): // answers 404: its alternates point at a 404
			pg.status = 404
		case url("About", "de"): // not canonical
			pg.canonical = url("About", "en")
		case url("Products", "fr-CH"): // noindex
			pg.noindex = true
		case url("Home", "en"): // de twice
			pg.alts = append(pg.alts, site.Hreflang{Tag: "de", URL: url("Contact", "de")})
		case url("Products", "en"): // de is another page
			pg.alts = set(pg.alts, "de", url("Pricing", "de"))
		case url("Pricing", "en"): // fr-CH, where Pricing is not offered
			pg.alts = append(pg.alts, site.Hreflang{Tag: "fr-CH", URL: strings.Replace(url("Products", "fr-CH"), "products", "products/pricing", 1)})
		case url("Home", "de"): // the sitemap names other alternates than the HTML
			pg.mapAlts = without(pg.alts, site.XDefault)
		case url("Home", "fr-CH"): // de is not named
			pg.alts = without(pg.alts, "de")
		}
	})
	rep, err := Check(context.Background(), config(tr.Project.BaseURL), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string][]string{}
	for _, p := range rep.Problems {
		found[p.Rule] = append(found[p.Rule], p.URL)
	}
	want := map[string]string{
		RuleHreflangCode:       url("About", "en"),
		RuleHreflangSelf:       url("Products", "de"),
		RuleHreflangReturn:     url("Contact", "en"),
		RuleHreflangXDefault:   url("Pricing", "de"),
		RuleHreflangStatus:     url("Team", "en"),
		RuleHreflangCanonical:  url("About", "en"),
		RuleHreflangNoindex:    url("Products", "en"),
		RuleHreflangDuplicate:  url("Home", "en"),
		RuleHreflangWrongPage:  url("Products", "en"),
		RuleHreflangNotOffered: url("Pricing", "en"),
		RuleHreflangSitemap:    url("Home", "de"),
		RuleHreflangMissing:    url("Home", "fr-CH"),
	}
	for rule, u := range want {
		if !slices.Contains(found[rule], u) {
			t.Errorf("%s not found at %s; found at %v", rule, u, found[rule])
		}
	}
	// Pages nobody touched whose alternates' pages are right raise
	// nothing: Swiss stores, Contact in fr-CH.
	for _, p := range rep.Problems {
		if p.URL == url("Swiss stores", "fr-CH") || p.URL == url("Contact", "fr-CH") {
			t.Errorf("a right page: %+v", p)
		}
	}
	if t.Failed() {
		t.Log(problemLines(rep))
	}
}

// problemLines lists a report's problems, a line each.
func problemLines(rep *Report) string {
	var b strings.Builder
	for _, p := range rep.Problems {
		fmt.Fprintf(&b, "%s %s %s: %s\n", p.Severity, p.Rule, p.URL, p.Message)
	}
	return b.String()
}
