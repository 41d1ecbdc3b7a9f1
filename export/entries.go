// Package export turns a project's tree into launch files: sitemap.xml
// (urlset or index, split by count and size, optionally gzipped),
// sitemap.txt, robots.txt lines and the HTML footer sitemap. Writers take an
// io.Writer; nothing here knows HTTP or SQL.
package export

import (
	"net/url"
	"strings"

	"siteplan/site"
)

// Options choose what is exported.
type Options struct {
	LeavesOnly bool   // only pages without children
	Section    int64  // a page whose subtree alone is exported; 0: everything
	Location   string // the URL of the directory the sitemap files live in; "": the base URL's
}

// Entry is one <url> of a sitemap, with values already in protocol form.
type Entry struct {
	PageID     int64
	Loc        string
	Lastmod    string
	Changefreq string
	Priority   string
	section    string // first path segment below the sitemap's directory
}

// Warning says why a page was left out or what a search engine will make
// of it. Info warnings are notes, not problems.
type Warning struct {
	PageID int64
	Title  string
	Reason string
	Info   bool
}

// sessionParams are query parameters that mark a session-specific URL.
var sessionParams = map[string]bool{"sid": true, "sessionid": true, "jsessionid": true, "phpsessid": true}

// Collect selects the entries of a sitemap from a tree in outline order:
// pages of kind page with in_sitemap on, at most once per URL, on the
// sitemap's host and inside its directory. Whatever is left out, and why,
// is in the warnings. It returns EInvalid when the location is not a
// valid URL and ENotFound when the section does not exist.
func Collect(t *site.Tree, opt Options) ([]Entry, []Warning, error) {
	dir, err := Directory(t.Project, opt.Location)
	if err != nil {
		return nil, nil, err
	}
	var entries []Entry
	var warns []Warning
	seen := map[string]int64{}
	schemeless := map[string]string{}
	usesHints := false
	visit := func(p *site.Page) {
		if !p.HasURL() || !p.InSitemap || (opt.LeavesOnly && p.ChildCount > 0) {
			return
		}
		loc := t.URL(p.ID)
		if loc == "" {
			warns = append(warns, Warning{p.ID, p.Title, "its path override is not a valid URL", false})
			return
		}
		if why := site.ScopeProblem(loc, dir); why != "" {
			warns = append(warns, Warning{p.ID, p.Title, "left out: " + why, false})
			return
		}
		if first, dup := seen[loc]; dup {
			warns = append(warns, Warning{p.ID, p.Title, "left out: same URL as “" + t.Page(first).Title + "” (" + loc + ")", false})
			return
		}
		seen[loc] = p.ID
		rest := loc[strings.Index(loc, "://")+3:]
		if other, ok := schemeless[rest]; ok && other != loc {
			warns = append(warns, Warning{p.ID, p.Title, "the same path is listed under both http and https", false})
		}
		schemeless[rest] = loc
		if hasSessionParam(loc) {
			warns = append(warns, Warning{p.ID, p.Title, "its URL carries a session-id parameter; search engines index such URLs as duplicates", false})
		}
		e := Entry{PageID: p.ID, Loc: loc, Lastmod: site.SitemapLastmod(first(p.Lastmod, t.Project.Lastmod)), Changefreq: first(p.Changefreq, t.Project.DefaultChangefreq), section: sectionOf(loc, dir)}
		if pr := p.Priority; pr != nil {
			e.Priority = site.FormatPriority(*pr)
		} else if pr := t.Project.DefaultPriority; pr != nil {
			e.Priority = site.FormatPriority(*pr)
		}
		usesHints = usesHints || e.Changefreq != "" || e.Priority != ""
		entries = append(entries, e)
	}
	if opt.Section != 0 {
		root := t.Page(opt.Section)
		if root == nil {
			return nil, nil, site.Errorf(site.ENotFound, "Section page %d does not exist in this project.", opt.Section)
		}
		visit(root)
		walkBelow(t, root.ID, visit)
	} else {
		t.Walk(func(p *site.Page, _ int) bool { visit(p); return true })
	}
	if usesHints {
		warns = append(warns, Warning{Reason: "Google ignores changefreq and priority; Bing and others may read them. They are written as set.", Info: true})
	}
	return entries, warns, nil
}

func walkBelow(t *site.Tree, id int64, fn func(*site.Page)) {
	for _, c := range t.Children(id) {
		fn(c)
		walkBelow(t, c.ID, fn)
	}
}

// Directory returns the normalised directory URL the sitemap files live
// in: the location given, else the project's base URL. Errors: EInvalid.
func Directory(p site.Project, location string) (string, error) {
	if strings.TrimSpace(location) == "" {
		return site.Dir(p.BaseURL), nil
	}
	u, err := site.NormalizeBaseURL(location)
	if err != nil {
		return "", site.Errorf(site.EInvalid, "Sitemap location: %s", site.ErrorMessage(err))
	}
	return u, nil
}

func hasSessionParam(loc string) bool {
	_, q, ok := strings.Cut(loc, "?")
	if !ok {
		return false
	}
	vals, err := url.ParseQuery(q)
	if err != nil {
		return false
	}
	for k := range vals {
		if sessionParams[strings.ToLower(k)] {
			return true
		}
	}
	return false
}

// sectionOf names the top-level section of loc below dir, for splitting
// by section: its first path segment, or "home" for the directory itself.
func sectionOf(loc, dir string) string {
	rest := strings.TrimPrefix(loc, dir)
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		rest = rest[:i]
	}
	if u, err := url.PathUnescape(rest); err == nil {
		rest = u
	}
	if s := site.Slugify(rest); s != "" {
		return s
	}
	return "home"
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
