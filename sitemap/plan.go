package sitemap

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
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
// carrying its slug; a URL with a query, one with an empty segment
// (/blog//), and the second spelling of a path listed both with and
// without a trailing slash (/blog and /blog/, two URLs) become pages with
// a path override beside their path's own page. Titles come from the last
// segment.
// A page whose slug cannot give back its URL exactly (a percent-encoded
// character the slug would write plainly, a trailing slash the project's
// policy does not give) keeps it as a path override, so exporting the
// plan gives back exactly the URLs read. URLs on hosts other than the
// site's (the one most URLs are on) are left out, and said so.
//
// A planner holds a site's paths as a tree of segments, packed: a node
// of 40 bytes without pointers, its segment and lastmod in one byte
// arena, its other values shared with the nodes that have the same; a
// path listed twice is found by its node, not a set of the URLs read.
// So a million URLs fit in little memory (docs/benchmarks.md), and the
// plan is given page by page.
type Planner struct {
	overrides urlSet // the URLs read that are planned as overrides (overrideNode)
	norm      site.URLNormalizer
	origins   map[string]*origin
	order     []string // origins in the order first seen
	vals      []values // the distinct values pages have; vals[0] is none
	valIdx    map[values]uint32
	urls      int
	dups      int
	bad       int
	badURL    string
	long      int // URLs over site.MaxURLLen, left out
	longURL   string
	values    int // lastmod, changefreq or priority values left out as invalid
	valueAt   string
}

// MaxPlanURLs is the most URLs a planner takes: the most pages a plan
// may have.
const MaxPlanURLs = site.MaxDocumentPages

// origin is one scheme and host's URLs, as a tree of path segments.
type origin struct {
	nodes          []pnode          // nodes[0] is the home page, "/"
	kids           map[uint64]int32 // a node by its parent and segment, hashed (probing on past a clash)
	seed           maphash.Seed
	text           []byte          // the nodes' segments and lastmods
	overridden     map[int32]int32 // a path's node: the last override node placed after it
	lastmod        span            // the last lastmod kept
	urls           int
	slash, noSlash int // listed paths (not "/") with and without a trailing slash
}

// pnode is a path segment, or a URL planned as a page with a path
// override: one with a query (under the node of its path), or one with an
// empty segment or the second spelling of a path (under the node of its
// path's parent, after its path's). Its children are a list in the
// order first seen.
type pnode struct {
	seg, lastmod        span   // seg: as in the normalised URL; an override's: its path and query
	parent              int32  // its parent's node
	first, last, next   int32  // children (0: none, as node 0 is no one's child)
	vals                uint32 // in Planner.vals
	listed, slash, over bool
}

type span struct{ at, n uint32 }

// values are a page's values other than lastmod, shared by the pages
// that have the same.
type values struct {
	changefreq, priority, title, typ, status, assignee, notes string
	brief                                                     string // a valid brief as JSON; "" for none
}

// NewPlanner returns an empty planner.
func NewPlanner() *Planner {
	return &Planner{overrides: newURLSet(), origins: map[string]*origin{}, vals: []values{{}}, valIdx: map[values]uint32{{}: 0}}
}

// Add places one URL. Errors: EInvalid past MaxPlanURLs URLs.
func (pl *Planner) Add(u *Found) error {
	norm, err := pl.norm.Normalize(u.Loc)
	if err != nil {
		if pl.bad == 0 {
			pl.badURL = u.Loc
		}
		pl.bad++
		return nil
	}
	if len(norm) > site.MaxURLLen { // search engines ignore it; the export would leave it out
		if pl.long == 0 {
			pl.longURL = norm
		}
		pl.long++
		return nil
	}
	if pl.urls >= MaxPlanURLs {
		return site.Errorf(site.EInvalid, "The site lists more than %d URLs, more than a plan can hold.", MaxPlanURLs)
	}
	key := site.Origin(norm)
	rest := norm[len(key):] // the path and query: a normalised URL has a path
	o := pl.origins[key]
	if o == nil {
		o = &origin{nodes: make([]pnode, 1, 1024), kids: map[uint64]int32{}, seed: maphash.MakeSeed()}
		pl.origins[key] = o
		pl.order = append(pl.order, key)
	}
	p, query, _ := strings.Cut(rest, "?")
	trimmed := strings.Trim(p, "/")
	// A path of segments, with or without a trailing slash, is planned by
	// them; one with an empty segment (//) is kept as it is, an override.
	lead, trail := len(p)-len(strings.TrimLeft(p, "/")), len(p)-len(strings.TrimRight(p, "/"))
	plain := p == "/" || trimmed != "" && lead == 1 && trail <= 1 && !strings.Contains(trimmed, "//")
	var n *pnode
	if query == "" && plain {
		// A path is listed once: its node says so, and no set of the
		// URLs read is needed; with and without a trailing slash it is
		// two URLs, though.
		n = &o.nodes[o.node(trimmed)]
		if n.listed && (p == "/" || n.slash == strings.HasSuffix(p, "/")) {
			pl.dups++
			return nil
		}
	}
	if n == nil || n.listed {
		if !pl.overrides.add(norm) {
			pl.dups++
			return nil
		}
		if query != "" && plain {
			// A URL with a query (a listing's next page, a filter) goes
			// under its path's page, so the site's sections stay its
			// sections: Blog (page=2) under Blog.
			n = &o.nodes[o.child(o.node(trimmed), 0)]
		} else {
			n = &o.nodes[o.overrideNode(trimmed)]
		}
		n.seg, n.over = o.keep(rest), true
	} else {
		n.listed = true
		if p != "/" {
			n.slash = strings.HasSuffix(p, "/")
			if n.slash {
				o.slash++
			} else {
				o.noSlash++
			}
		}
	}
	pl.urls++
	o.urls++
	lastmod, vals := pl.valid(u)
	n.lastmod, n.vals = o.keepLastmod(lastmod), vals
	return nil
}

// valid returns u's lastmod and the index of its other values, leaving
// out (and counting) those that are not valid.
func (pl *Planner) valid(u *Found) (string, uint32) {
	v := values{changefreq: u.Changefreq, priority: u.Priority, title: clipTitle(strings.TrimSpace(u.Title)),
		typ: u.Type, status: u.Status, assignee: u.Assignee, notes: u.Notes}
	lastmod := u.Lastmod
	drop := func(s *string) {
		if pl.values == 0 {
			pl.valueAt = u.Loc
		}
		pl.values++
		*s = ""
	}
	if site.LastmodProblem(lastmod) != "" {
		drop(&lastmod)
	}
	if v.changefreq != "" && !slices.Contains(site.Changefreqs, v.changefreq) {
		drop(&v.changefreq)
	}
	if v.priority != "" && !rePriority.MatchString(v.priority) {
		drop(&v.priority)
	}
	if st := site.StatusOf(v.status); st != "" {
		v.status = st // as stored, from the label the app shows too
	} else if v.status != "" {
		drop(&v.status)
	}
	if site.TextProblem("", v.typ, site.MaxShortLen, false) != "" {
		drop(&v.typ)
	}
	if site.TextProblem("", v.assignee, site.MaxShortLen, false) != "" {
		drop(&v.assignee)
	}
	if site.TextProblem("", v.notes, site.MaxTextLen, true) != "" {
		drop(&v.notes)
	}
	if u.Brief != nil && !u.Brief.Empty() {
		b := u.Brief.Clone()
		j, _ := json.Marshal(b) // strings and ints: never an error
		if v.brief = string(j); site.BriefProblem(&b) != "" {
			drop(&v.brief)
		} else {
			j, _ = json.Marshal(b) // as checked: trimmed, lower-cased
			v.brief = string(j)
		}
	}
	i, ok := pl.valIdx[v]
	if !ok {
		i = uint32(len(pl.vals))
		pl.vals = append(pl.vals, v)
		pl.valIdx[v] = i
	}
	return lastmod, i
}

// node returns the node of a path (without its outer slashes), making
// the levels on the way.
func (o *origin) node(path string) int32 {
	n := int32(0)
	for path != "" {
		seg, rest, _ := strings.Cut(path, "/")
		n = o.find(n, seg)
		path = rest
	}
	return n
}

// find returns parent's child named seg, made if need be.
func (o *origin) find(parent int32, seg string) int32 {
	c, key := o.lookup(parent, seg)
	if c == 0 {
		c = o.child(parent, 0)
		o.nodes[c].seg = o.keep(seg)
		o.kids[key] = c
	}
	return c
}

// lookup returns parent's child named seg (0: none yet) and, if none,
// the key to keep it under.
func (o *origin) lookup(parent int32, seg string) (int32, uint64) {
	var h maphash.Hash
	h.SetSeed(o.seed)
	h.WriteString(seg)
	key := h.Sum64() ^ uint64(parent)*0x9e3779b97f4a7c15
	for ; ; key++ { // a clash of two (parent, segment)s probes on
		c, ok := o.kids[key]
		if !ok {
			return 0, key
		}
		if n := &o.nodes[c]; n.parent == parent && !n.over && o.str(n.seg) == seg {
			return c, 0
		}
	}
}

// overrideNode makes the node of a URL planned as an override whose path
// (without its outer slashes) is path: a child of the path's parent,
// placed after the path's own node if that was read before (and after
// the overrides placed there already), else after the parent's other
// children.
func (o *origin) overrideNode(path string) int32 {
	cut := strings.LastIndexByte(path, '/')
	parent := o.node(path[:max(0, cut)])
	if path == "" { // the home page's: the home page has no siblings
		return o.child(parent, 0)
	}
	at, _ := o.lookup(parent, path[cut+1:])
	if at == 0 {
		return o.child(parent, 0)
	}
	if o.overridden == nil {
		o.overridden = map[int32]int32{}
	}
	after := at
	if q := o.overridden[at]; q != 0 {
		after = q
	}
	c := o.child(parent, after)
	o.overridden[at] = c
	return c
}

// child makes a node and places it among parent's children after the
// child after, or last (after 0).
func (o *origin) child(parent, after int32) int32 {
	c := int32(len(o.nodes))
	o.nodes = append(o.nodes, pnode{parent: parent})
	p := &o.nodes[parent]
	switch {
	case p.first == 0:
		p.first, p.last = c, c
	case after == 0 || after == p.last:
		o.nodes[p.last].next, p.last = c, c
	default:
		o.nodes[c].next, o.nodes[after].next = o.nodes[after].next, c
	}
	return c
}

// keepLastmod keeps a lastmod, sharing the copy of the last one kept
// when it is the same: a sitemap's URLs often have one date.
func (o *origin) keepLastmod(s string) span {
	if l := o.lastmod; string(o.text[l.at:l.at+l.n]) != s { // compared without a copy
		o.lastmod = o.keep(s)
	}
	return o.lastmod
}

// keep copies s into the arena.
func (o *origin) keep(s string) span {
	sp := span{uint32(len(o.text)), uint32(len(s))}
	o.text = append(o.text, s...)
	return sp
}

func (o *origin) str(s span) string { return string(o.text[s.at : s.at+s.n]) }

// Plan is a planner's plan of a site: its project's settings, and its
// pages in outline order (Pages).
type Plan struct {
	Project site.Project
	pl      *Planner
	o       *origin
}

// maxOrigins is how many other hosts a plan's warnings name one by one.
const maxOrigins = 10

// Plan returns the plan of the site's URLs, named name (if "", after the
// site's host), and what was left out and why; the planner takes no more
// URLs after. Errors: EInvalid when no URL could be placed.
func (pl *Planner) Plan(name string) (*Plan, []site.Warning, error) {
	var warns []site.Warning
	best := ""
	for _, k := range pl.order {
		if best == "" || pl.origins[k].urls > pl.origins[best].urls {
			best = k
		}
	}
	if best == "" {
		return nil, nil, site.Errorf(site.EInvalid, "The source lists no URL that can be imported.")
	}
	others, rest := 0, 0 // a warning for each of the first maxOrigins other hosts, then one for the rest
	for _, k := range pl.order {
		switch {
		case k == best:
		case others < maxOrigins:
			others++
			warns = append(warns, site.Warning{Reason: fmt.Sprintf("%s on %s left out: the site is on %s.", site.Plural(pl.origins[k].urls, "URL", "URLs"), k, best)})
		default:
			rest += pl.origins[k].urls
		}
	}
	if rest > 0 {
		warns = append(warns, site.Warning{Reason: fmt.Sprintf("%s on %s left out too.", site.Plural(rest, "URL", "URLs"), site.Plural(len(pl.order)-1-maxOrigins, "more host", "more hosts"))})
	}
	if pl.dups > 0 {
		warns = append(warns, site.Warning{Reason: fmt.Sprintf("%s listed more than once were imported once.", site.Plural(pl.dups, "URL", "URLs")), Info: true})
	}
	if pl.bad > 0 {
		warns = append(warns, site.Warning{Reason: fmt.Sprintf("%s left out as not absolute http(s) URLs, such as %q.", site.Plural(pl.bad, "entry", "entries"), clipped(pl.badURL))})
	}
	if pl.long > 0 {
		warns = append(warns, site.Warning{Reason: fmt.Sprintf("%s longer than 2,048 characters left out (search engines ignore them), such as %q.", site.Plural(pl.long, "URL", "URLs"), clipped(pl.longURL))})
	}
	if pl.values > 0 {
		warns = append(warns, site.Warning{Reason: fmt.Sprintf("%s left out as invalid (lastmod, changefreq, priority, status and the like), the first on %s.", site.Plural(pl.values, "value", "values"), clipped(pl.valueAt))})
	}
	if name == "" {
		name = best[strings.Index(best, "://")+3:]
	}
	o := pl.origins[best]
	// What finds a URL again is of no more use: free it before the plan
	// is written.
	pl.overrides, pl.valIdx = urlSet{}, nil
	for _, o := range pl.origins {
		o.kids, o.overridden = nil, nil
	}
	p := site.Project{Name: name, BaseURL: best + "/", TrailingSlash: o.slash > o.noSlash} // the policy most URLs follow
	return &Plan{Project: p, pl: pl, o: o}, warns, nil
}

// Pages yields the plan's pages in outline order, each with its depth (1
// for the home page, the one root). A page's children come in the order
// first read; the page of a URL with a query is a child of its path's
// page (Blog (page=2) under Blog), and the second spelling of a path
// comes right after its first (/blog, then /blog/).
func (p *Plan) Pages() iter.Seq2[int, site.Page] {
	return func(yield func(int, site.Page) bool) {
		p.walk(0, 1, "", yield)
	}
}

// walk yields node i at depth and the nodes below it; at is its path as
// read ("" for the home page; without a trailing slash).
func (p *Plan) walk(i int32, depth int, at string, yield func(int, site.Page) bool) bool {
	o, n := p.o, &p.o.nodes[i]
	seg := o.str(n.seg)
	title := "Home"
	if i != 0 {
		title = titleOf(seg)
	}
	pg := site.NewPage("")
	pg.Title, pg.Slug, pg.SlugAuto = title, unescape(seg), false
	if !n.listed {
		pg.Kind = site.KindGroup
	}
	// The path the slug gives, under the project's trailing-slash policy,
	// against the one read; where they differ the one read is kept as an
	// override (a group's prefixes its pages' paths).
	read, given := at, ""
	if at != "" {
		given = at[:strings.LastIndexByte(at, '/')] + "/" + site.EncodeSegment(pg.Slug)
	}
	if n.listed && (at == "" || n.slash) {
		read += "/"
	}
	if n.listed && (at == "" || p.Project.TrailingSlash) {
		given += "/"
	}
	if site.SlugProblem(pg.Slug) != "" || given != read {
		pg.Path, pg.Slug = read, site.Slugify(title)
	}
	p.values(&pg, n)
	if !yield(depth, pg) {
		return false
	}
	for c := n.first; c != 0; c = o.nodes[c].next {
		q := &o.nodes[c]
		if q.over && !yield(depth+1, p.overridePage(q)) || !q.over && !p.walk(c, depth+1, at+"/"+o.str(q.seg), yield) {
			return false
		}
	}
	return true
}

// overridePage is the page of a URL planned as an override: its title
// that of its path with the query after it ("Blog (page=2)"), or the
// path itself without a query ("Blog (/blog/)"), its path and query an
// override.
func (p *Plan) overridePage(n *pnode) site.Page {
	rest := p.o.str(n.seg)
	path, query, hasQuery := strings.Cut(rest, "?")
	title := "Home"
	if t := strings.Trim(path, "/"); t != "" {
		title = titleOf(t[strings.LastIndexByte(t, '/')+1:])
	}
	if !hasQuery {
		query = path
	}
	pg := site.NewPage("")
	pg.Title = clipTitle(title + " (" + unescape(query) + ")")
	pg.Path, pg.Slug, pg.SlugAuto = rest, site.Slugify(pg.Title), false
	if strings.HasPrefix(rest, "//") { // would name a host: the URL whole
		pg.Path = strings.TrimSuffix(p.Project.BaseURL, "/") + rest
	}
	p.values(&pg, n)
	return pg
}

// values sets a page's values from its node's.
func (p *Plan) values(pg *site.Page, n *pnode) {
	v := &p.pl.vals[n.vals]
	if v.title != "" {
		pg.Title = v.title
	}
	pg.Lastmod, pg.Changefreq = p.o.str(n.lastmod), v.changefreq
	pg.Type, pg.Assignee, pg.Notes = v.typ, v.assignee, v.notes
	if v.brief != "" {
		json.Unmarshal([]byte(v.brief), &pg.Brief) // written by valid, above
	}
	if v.status != "" {
		pg.Status = v.status
	}
	if v.priority != "" {
		pr, _ := site.ParsePriority(v.priority)
		pg.Priority = pr
	}
	pg.InSitemap = !pg.KeptFromSearch() // a cart or login page: out of the new plan's sitemap
}

// titleOf makes a title of a path segment: percent-decoded, - and _ as
// spaces, a file extension dropped, the first letter capitalised.
func titleOf(seg string) string {
	s := unescape(seg)
	if ext := path.Ext(s); len(ext) > 1 && len(ext) <= 6 && len(ext) < len(s) {
		s = strings.TrimSuffix(s, ext)
	}
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || unicode.IsSpace(r) }), " ")
	if s == "" {
		s = strings.TrimSpace(unescape(seg))
	}
	if s == "" { // a segment of spaces: its title as written, "%20"
		s = seg
	}
	r, size := utf8.DecodeRuneInString(s)
	return clipTitle(string(unicode.ToUpper(r)) + s[size:])
}

// unescape returns s percent-decoded, or as it is if that is not text a
// title or slug may hold (invalid UTF-8, a control character).
func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil && utf8.ValidString(u) && strings.IndexFunc(u, unicode.IsControl) < 0 {
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

// ReadPlan is the import's reading: it reads source as Read does (or,
// with upload, the uploaded file named source, as ReadUpload does) and
// plans the site its URLs make, named name (Planner.Plan). It returns
// the reading, which is the check's report, even when planning fails;
// the plan and what it left out. The command line and the server's
// live-site jobs both import through it. The pages of a sitemap's URLs
// are live; a CSV's have the status its rows give. An import is whole or
// nothing: the first file whose reading stopped part way (a broken row,
// broken XML, past the protocol's limits) ends the reading and fails it
// (Reader.Whole). Errors: Read's, that one's included; EInvalid when no
// URL could be placed, with the reading's first error when it had one.
func (r *Reader) ReadPlan(ctx context.Context, source string, upload io.Reader, name string) (*Reading, *Plan, []site.Warning, error) {
	pl := NewPlanner()
	found := func(f *SourceFile, u *Found) error {
		if u.Status == "" && f.Kind != KindCSV {
			u.Status = site.StatusLive // a sitemap lists what exists
		}
		return pl.Add(u)
	}
	whole := *r
	whole.Whole = true
	var rep *Reading
	var err error
	if upload != nil {
		rep, err = whole.ReadUpload(ctx, source, upload, found)
	} else {
		rep, err = whole.Read(ctx, source, found)
	}
	if err != nil {
		return rep, nil, nil, err
	}
	plan, warns, err := pl.Plan(name)
	if site.ErrorCode(err) == site.EInvalid {
		if why := firstError(rep); why != "" {
			err = site.Errorf(site.EInvalid, "%s %s", site.ErrorMessage(err), why)
		}
	}
	return rep, plan, warns, err
}

// firstError is the first thing that kept a reading's URLs out: a file
// that could not be read, or a file's first error, said with the file.
func firstError(rep *Reading) string {
	for _, f := range rep.Files {
		if f.Err != "" {
			return f.Loc + ": " + f.Err
		}
		for _, p := range f.Problems {
			if p.Error {
				return f.Loc + ": " + p.Msg
			}
		}
	}
	return ""
}
