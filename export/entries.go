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
	entries := make([]Entry, 0, t.Len())
	var warns []Warning
	seen := make(map[string]int64, t.Len())
	var offOrigin []*site.Page // left out for their origin: maybe an http/https twin
	usesHints := false
	visit := func(p *site.Page, loc string) {
		if !p.HasURL() || !p.InSitemap || (opt.LeavesOnly && p.ChildCount > 0) {
			return
		}
		if loc == "" {
			warns = append(warns, Warning{p.ID, p.Title, "its path override is not a valid URL", false})
			return
		}
		if why := site.ScopeProblem(loc, dir); why != "" {
			warns = append(warns, Warning{p.ID, p.Title, "left out: " + why, false})
			if site.Origin(loc) != site.Origin(dir) {
				offOrigin = append(offOrigin, p)
			}
			return
		}
		if first, dup := seen[loc]; dup {
			warns = append(warns, Warning{p.ID, p.Title, "left out: same URL as “" + t.Page(first).Title + "” (" + loc + ")", false})
			return
		}
		seen[loc] = p.ID
		if strings.IndexByte(loc, '?') >= 0 && hasSessionParam(loc) {
			warns = append(warns, Warning{p.ID, p.Title, "its URL carries a session-id parameter; search engines index such URLs as duplicates", false})
		}
		e := Entry{PageID: p.ID, Loc: loc, Lastmod: site.SitemapLastmod(first(p.Lastmod, t.Project.Lastmod)), Changefreq: first(p.Changefreq, t.Project.DefaultChangefreq)}
		if pr := p.Priority; pr != nil {
			e.Priority = site.FormatPriority(*pr)
		} else if pr := t.Project.DefaultPriority; pr != nil {
			e.Priority = site.FormatPriority(*pr)
		}
		usesHints = usesHints || e.Changefreq != "" || e.Priority != ""
		entries = append(entries, e)
	}
	if opt.Section != 0 && t.Page(opt.Section) == nil {
		return nil, nil, site.Errorf(site.ENotFound, "Section page %d does not exist in this project.", opt.Section)
	}
	t.WalkURLs(opt.Section, visit)
	// Every URL in the sitemap has the sitemap's scheme, so a twin under the
	// other scheme can only be among the pages left out for their origin.
	for _, p := range offOrigin {
		loc := t.URL(p.ID)
		twin := ""
		if rest, ok := strings.CutPrefix(loc, "http://"); ok {
			twin = "https://" + rest
		} else if rest, ok := strings.CutPrefix(loc, "https://"); ok {
			twin = "http://" + rest
		}
		if id, ok := seen[twin]; ok {
			warns = append(warns, Warning{p.ID, p.Title, "the same path is also in the sitemap under the other scheme, as “" + t.Page(id).Title + "”", false})
		}
	}
	if usesHints {
		warns = append(warns, Warning{Reason: "Google ignores changefreq and priority; Bing and others may read them. They are written as set.", Info: true})
	}
	return entries, warns, nil
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

// sections names the top-level section of a URL below dir, for splitting
// by section: its first path segment as a slug, or "home" for the
// directory itself. Names are cached per segment.
type sections struct {
	dir   string
	names map[string]string
}

func (s *sections) of(loc string) string {
	seg := strings.TrimPrefix(loc, s.dir)
	if i := strings.IndexAny(seg, "/?"); i >= 0 {
		seg = seg[:i]
	}
	if name, ok := s.names[seg]; ok {
		return name
	}
	name := seg
	if u, err := url.PathUnescape(seg); err == nil {
		name = u
	}
	if name = site.Slugify(name); name == "" {
		name = "home"
	}
	s.names[seg] = name
	return name
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
