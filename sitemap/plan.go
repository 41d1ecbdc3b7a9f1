package sitemap

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"siteplan/site"
)

// Planner builds a plan from a site's URLs as a reading finds them. Each
// URL becomes a page placed by its path: /products/widgets/blue-widget
// under /products/widgets under /products, under the home page. A level
// no URL names (/legal when only /legal/imprint is listed) becomes a group
// carrying its slug; a URL with a query becomes a page with a path
// override beside its path's own page. Titles come from the last segment.
// A page whose slug cannot give back its URL exactly (a percent-encoded
// character the slug would write plainly, a trailing slash the project's
// policy does not give) keeps it as a path override, so exporting the
// plan gives back exactly the URLs read. URLs on hosts other than the
// site's (the one most URLs are on) are left out, and said so.
type Planner struct {
	seen    urlSet
	origins map[string]*origin
	order   []string // origins in the order first seen
	dups    int
	bad     int
	badURL  string
	values  int // lastmod, changefreq or priority values left out as invalid
	valueAt string
}

// origin is one scheme and host's URLs, as a tree of path segments.
type origin struct {
	root           pnode
	urls           int
	slash, noSlash int // listed paths (not "/") with and without a trailing slash
}

// pnode is a path segment: the page its URL is, if listed, and the pages
// of the URLs with a query whose path's parent it is.
type pnode struct {
	seg     string // as in the normalised URL
	kids    map[string]*pnode
	order   []*pnode
	listed  bool
	slash   bool // listed with a trailing slash
	values  Found
	queries []queryPage
}

type queryPage struct {
	path   string // the exact path and query
	title  string
	values Found
}

// NewPlanner returns an empty planner.
func NewPlanner() *Planner {
	return &Planner{seen: newURLSet(), origins: map[string]*origin{}}
}

// Add places one URL.
func (pl *Planner) Add(u *Found) {
	norm, err := site.NormalizeURL(u.Loc)
	if err != nil {
		if pl.bad == 0 {
			pl.badURL = u.Loc
		}
		pl.bad++
		return
	}
	if !pl.seen.add(norm) {
		pl.dups++
		return
	}
	key := site.Origin(norm)
	rest := norm[len(key):] // the path and query: a normalised URL has a path
	o := pl.origins[key]
	if o == nil {
		o = &origin{}
		pl.origins[key] = o
		pl.order = append(pl.order, key)
	}
	o.urls++
	p, query, _ := strings.Cut(rest, "?")
	segs := strings.Split(strings.Trim(p, "/"), "/")
	if p == "/" {
		segs = nil
	}
	vals := pl.valid(u)
	if query != "" {
		parent := o.node(segs[:max(0, len(segs)-1)])
		title := "Home"
		if len(segs) > 0 {
			title = titleOf(segs[len(segs)-1])
		}
		parent.queries = append(parent.queries, queryPage{path: rest, title: clipTitle(title + " (" + unescape(query) + ")"), values: vals})
		return
	}
	n := o.node(segs)
	n.listed, n.values = true, vals
	if p != "/" {
		n.slash = strings.HasSuffix(p, "/")
		if n.slash {
			o.slash++
		} else {
			o.noSlash++
		}
	}
}

// valid returns u's values that are valid, counting the others.
func (pl *Planner) valid(u *Found) Found {
	v := Found{Lastmod: u.Lastmod, Changefreq: u.Changefreq, Priority: u.Priority,
		Title: clipTitle(strings.TrimSpace(u.Title)), Type: u.Type, Status: u.Status, Assignee: u.Assignee, Notes: u.Notes}
	drop := func(s *string) {
		if pl.values == 0 {
			pl.valueAt = u.Loc
		}
		pl.values++
		*s = ""
	}
	if site.LastmodProblem(v.Lastmod) != "" {
		drop(&v.Lastmod)
	}
	if v.Changefreq != "" && !slices.Contains(site.Changefreqs, v.Changefreq) {
		drop(&v.Changefreq)
	}
	if v.Priority != "" && !rePriority.MatchString(v.Priority) {
		drop(&v.Priority)
	}
	if v.Status != "" && !slices.Contains(site.Statuses, v.Status) {
		drop(&v.Status)
	}
	if site.TextProblem("", v.Type, site.MaxShortLen, false) != "" {
		drop(&v.Type)
	}
	if site.TextProblem("", v.Assignee, site.MaxShortLen, false) != "" {
		drop(&v.Assignee)
	}
	if site.TextProblem("", v.Notes, site.MaxTextLen, true) != "" {
		drop(&v.Notes)
	}
	return v
}

// node returns the node of a path, making the levels on the way.
func (o *origin) node(segs []string) *pnode {
	n := &o.root
	for _, s := range segs {
		c := n.kids[s]
		if c == nil {
			if n.kids == nil {
				n.kids = map[string]*pnode{}
			}
			c = &pnode{seg: s}
			n.kids[s] = c
			n.order = append(n.order, c)
		}
		n = c
	}
	return n
}

// Document returns the plan of the site's URLs, named name, and what was
// left out and why. Errors: EInvalid when no URL could be placed.
func (pl *Planner) Document(name string) (*site.Document, []Warning, error) {
	var warns []Warning
	best := ""
	for _, k := range pl.order {
		if best == "" || pl.origins[k].urls > pl.origins[best].urls {
			best = k
		}
	}
	if best == "" {
		return nil, nil, site.Errorf(site.EInvalid, "The source lists no URL that can be imported.")
	}
	for _, k := range pl.order {
		if k != best {
			warns = append(warns, Warning{Reason: fmt.Sprintf("%s on %s left out: the site is on %s.", site.Plural(pl.origins[k].urls, "URL", "URLs"), k, best)})
		}
	}
	if pl.dups > 0 {
		warns = append(warns, Warning{Reason: fmt.Sprintf("%s listed more than once were imported once.", site.Plural(pl.dups, "URL", "URLs")), Info: true})
	}
	if pl.bad > 0 {
		warns = append(warns, Warning{Reason: fmt.Sprintf("%s left out as not absolute http(s) URLs, such as %q.", site.Plural(pl.bad, "entry", "entries"), clipped(pl.badURL))})
	}
	if pl.values > 0 {
		warns = append(warns, Warning{Reason: fmt.Sprintf("%s left out as invalid (lastmod, changefreq, priority, status and the like), the first on %s.", site.Plural(pl.values, "value", "values"), clipped(pl.valueAt))})
	}
	o := pl.origins[best]
	slash := o.slash > o.noSlash // the trailing-slash policy: what most URLs do
	doc := &site.Document{
		Format:  site.FormatV1,
		Project: site.DocProject{Name: name, BaseURL: best + "/", TrailingSlash: slash},
		Pages:   []*site.DocPage{pageOf(&o.root, "Home", "", slash)},
	}
	return doc, warns, nil
}

// pageOf makes the page of node n, whose path is at ("" for the home
// page; no trailing slash), and the pages below it, under the project's
// trailing-slash policy slash.
func pageOf(n *pnode, title, at string, slash bool) *site.DocPage {
	dp := &site.DocPage{Title: title, Slug: ptr(unescape(n.seg))}
	if !n.listed {
		dp.Kind = site.KindGroup
	}
	// The path the slug gives, under the project's trailing-slash policy,
	// against the one read; where they differ the one read is kept as an
	// override (a group's prefixes its pages' paths).
	read, given := at, ""
	if at != "" {
		given = at[:strings.LastIndexByte(at, '/')] + "/" + site.EncodeSegment(*dp.Slug)
	}
	if n.listed && (at == "" || n.slash) {
		read += "/"
	}
	if n.listed && (at == "" || slash) {
		given += "/"
	}
	if site.SlugProblem(*dp.Slug) != "" || given != read {
		dp.Path, dp.Slug = ptr(read), ptr(site.Slugify(title))
	}
	setValues(dp, n.values)
	for _, q := range n.queries {
		qp := &site.DocPage{Title: q.title, Path: ptr(q.path), Slug: ptr(site.Slugify(q.title))}
		setValues(qp, q.values)
		dp.Children = append(dp.Children, qp)
	}
	for _, c := range n.order {
		dp.Children = append(dp.Children, pageOf(c, titleOf(c.seg), at+"/"+c.seg, slash))
	}
	return dp
}

func setValues(dp *site.DocPage, v Found) {
	if v.Title != "" {
		dp.Title = v.Title
	}
	dp.Lastmod, dp.Changefreq = v.Lastmod, v.Changefreq
	dp.Type, dp.Status, dp.Assignee, dp.Notes = v.Type, v.Status, v.Assignee, v.Notes
	if v.Priority != "" {
		p, _ := site.ParsePriority(v.Priority)
		dp.Priority = p
	}
}

func ptr[T any](v T) *T { return &v }

// titleOf makes a title of a path segment: percent-decoded, - and _ as
// spaces, a file extension dropped, the first letter capitalised.
func titleOf(seg string) string {
	s := unescape(seg)
	if ext := path.Ext(s); len(ext) > 1 && len(ext) <= 6 && len(ext) < len(s) {
		s = strings.TrimSuffix(s, ext)
	}
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || unicode.IsSpace(r) }), " ")
	if s == "" {
		s = unescape(seg)
	}
	r, size := utf8.DecodeRuneInString(s)
	return clipTitle(string(unicode.ToUpper(r)) + s[size:])
}

func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil && utf8.ValidString(u) {
		return u
	}
	return s
}

// clipTitle shortens s to a title's most characters.
func clipTitle(s string) string {
	if utf8.RuneCountInString(s) <= site.MaxTitleLen {
		return s
	}
	return string([]rune(s)[:site.MaxTitleLen-3]) + "..."
}
