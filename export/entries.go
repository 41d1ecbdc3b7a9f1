// Package export writes every file siteplan hands over: sitemap.xml
// (urlset or index, split by count and size, optionally gzipped),
// sitemap.txt, robots.txt lines, the HTML footer sitemap, the inventory
// CSV and the zip of them all; a relaunch's redirect map per platform
// (redirects.go, platforms.go); and the handoff to the CMS (handoff.go).
// Writers take an io.Writer and read a plan in one pass; nothing here
// knows HTTP or SQL.
package export

import (
	"cmp"
	"hash/maphash"
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
	// A localized plan's: the file's section (the locale's tag), and the
	// page's URL in every locale it is offered in, x-default last.
	Section    string
	Alternates []Alternate
}

// Alternate is one hreflang alternate of a sitemap entry.
type Alternate struct {
	Hreflang string // a locale's tag, or "x-default"
	Href     string
}

// Entries streams a sitemap's entries in order: it calls yield for each
// (the Entry is reused; copy what you keep) and returns the first error
// yield returns.
type Entries func(yield func(*Entry) error) error

// Selection is the set of pages one export writes: pages of kind page
// with in_sitemap on, at most once per URL, on the sitemap's host and
// inside its directory. It reads the plan in one walk (pass), keeping of
// each URL written only a 64-bit hash (at most 16 bytes a page), and
// walks again only to name the page a duplicate repeats or a twin under
// the other scheme matches, which a stored plan never has.
type Selection struct {
	Dir   string // the normalised directory URL the sitemap files live in
	src   site.PlanReader
	opt   Options
	seed  maphash.Seed
	warns []site.Warning
}

// Select checks the options against a plan. Errors: EInvalid when the
// location is not a valid URL. (A section that does not exist is
// ENotFound when the pages are read, before any file is written.)
func Select(src site.PlanReader, opt Options) (*Selection, error) {
	dir, err := Directory(src.Project(), opt.Location)
	if err != nil {
		return nil, err
	}
	return &Selection{Dir: dir, src: src, opt: opt, seed: maphash.MakeSeed()}, nil
}

// Warnings returns what the last pass left out, and why, in outline
// order, followed by informational notes.
func (s *Selection) Warnings() []site.Warning { return s.warns }

// pass walks the pages the options select once, in outline order, and
// calls fn for each with its URL ("" for a page without one) and its
// sitemap entry (nil for a page the sitemap leaves out; the Entry is
// reused). Afterwards Warnings says what was left out and why.
func (s *Selection) pass(fn func(v *visit, url string, e *Entry) error) error {
	proj := s.src.Project()
	s.warns = nil
	written := newHashSet()
	type repeat struct {
		warn int // its warning, whose words wait for the first page's title
		hash uint64
		loc  string
	}
	type twin struct {
		page  site.Page
		hash  uint64 // of its URL under the sitemap's scheme
		found bool
	}
	var repeats []repeat
	var twins []twin
	usesHints := false
	keptTypes := map[string]bool{}
	var e Entry
	var rawLastmod, lastmod string
	dirOrigin := site.Origin(s.Dir)
	each := func(v *visit) error {
		p := &v.page
		url := ""
		if p.HasURL() {
			url = proj.FinishURL(p, v.path)
		}
		switch {
		case !p.HasURL() || !p.InSitemap || (s.opt.LeavesOnly && p.ChildCount > 0):
			return fn(v, url, nil)
		case url == "":
			s.warn(p, "its path override is not a valid URL")
			return fn(v, url, nil)
		}
		if why := site.ScopeProblem(url, s.Dir); why != "" {
			s.warn(p, "left out: "+why)
			if other := site.OtherScheme(url); other != "" && site.Origin(url) != dirOrigin {
				twins = append(twins, twin{page: site.Page{ID: p.ID, Title: p.Title}, hash: maphash.String(s.seed, other)})
			}
			return fn(v, url, nil)
		}
		h := maphash.String(s.seed, url)
		if !written.add(h) {
			repeats = append(repeats, repeat{len(s.warns), h, url})
			s.warn(p, "")
			return fn(v, url, nil)
		}
		s.flag(p, url, keptTypes)
		if raw := cmp.Or(p.Lastmod, proj.Lastmod); raw != rawLastmod { // most pages share one lastmod
			rawLastmod, lastmod = raw, site.SitemapLastmod(raw)
		}
		e = Entry{PageID: p.ID, Loc: url, Lastmod: lastmod, Changefreq: cmp.Or(p.Changefreq, proj.DefaultChangefreq)}
		if pr := p.Priority; pr != nil {
			e.Priority = site.FormatPriority(*pr)
		} else if pr := proj.DefaultPriority; pr != nil {
			e.Priority = site.FormatPriority(*pr)
		}
		usesHints = usesHints || e.Changefreq != "" || e.Priority != ""
		return fn(v, url, &e)
	}
	if err := s.walk(each); err != nil {
		return err
	}
	// Name what the duplicates repeat and the twins match: the first page
	// written with that URL, found in a second walk if there are any.
	titles := map[uint64]string{}
	for _, r := range repeats {
		titles[r.hash] = ""
	}
	for i := range twins {
		if twins[i].found = written.has(twins[i].hash); twins[i].found {
			titles[twins[i].hash] = ""
		}
	}
	if len(titles) > 0 {
		again := newHashSet()
		err := s.walk(func(v *visit) error {
			p := &v.page
			if !p.HasURL() || !p.InSitemap || (s.opt.LeavesOnly && p.ChildCount > 0) {
				return nil
			}
			url := proj.FinishURL(p, v.path)
			if url == "" || site.ScopeProblem(url, s.Dir) != "" {
				return nil
			}
			h := maphash.String(s.seed, url)
			if t, want := titles[h]; want && t == "" && again.add(h) {
				titles[h] = p.Title
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for _, r := range repeats {
		s.warns[r.warn].Reason = "left out: same URL as “" + titles[r.hash] + "” (" + r.loc + ")"
	}
	for _, tw := range twins {
		if tw.found {
			s.warns = append(s.warns, site.Warning{PageID: tw.page.ID, Title: tw.page.Title, Reason: "the same path is also in the sitemap under the other scheme, as “" + titles[tw.hash] + "”"})
		}
	}
	if usesHints {
		s.warns = append(s.warns, site.Warning{Reason: "Google ignores changefreq and priority; Bing and others may read them. They are written as set.", Info: true})
	}
	return nil
}

// walk reads the selected branch (the whole plan, or the section).
func (s *Selection) walk(fn func(v *visit) error) error { return walk(s.src, s.opt.Section, fn) }

// walk reads root's branch (0: the whole plan) of src ahead on another
// goroutine and calls fn for each page in order.
func walk(src site.PlanReader, root int64, fn func(v *visit) error) error {
	ch, stop := readAhead(src, root)
	defer stop()
	for b := range ch {
		for i := range b.visits {
			if err := fn(&b.visits[i]); err != nil {
				return err
			}
		}
		err := b.err
		batches.Put(b)
		if err != nil {
			return err
		}
	}
	return nil
}

// Each calls fn for every entry in outline order; it is an Entries.
func (s *Selection) Each(fn func(*Entry) error) error {
	return s.pass(func(_ *visit, _ string, e *Entry) error {
		if e == nil {
			return nil
		}
		return fn(e)
	})
}

// flag warns of what a page in the sitemap may not want there: a slug
// that reads badly, a session id in its URL, a type or slug of the pages
// sites keep out of search (keptTypes remembers each type's answer).
func (s *Selection) flag(p *site.Page, url string, keptTypes map[string]bool) {
	if msg := site.SlugAdvice(p.Slug); msg != "" {
		s.warn(p, msg)
	}
	if strings.IndexByte(url, '?') >= 0 && site.HasSessionParam(url) {
		s.warn(p, "its URL carries a session-id parameter; search engines index such URLs as duplicates")
	}
	kept, ok := keptTypes[p.Type] // a plan has a few types and many pages
	if !ok {
		kept = site.KeptType(p.Type)
		keptTypes[p.Type] = kept
	}
	if kept || site.KeptSlug(p.Slug) {
		s.warn(p, "sites keep such pages (cart, checkout, account, login, search, wishlist) out of search; it is in the sitemap as set: untick “In sitemap” unless it should be found")
	}
}

func (s *Selection) warn(p *site.Page, reason string) {
	s.warns = append(s.warns, site.Warning{PageID: p.ID, Title: p.Title, Reason: reason})
}

// hashSet is a set of 64-bit hashes, open addressed, at most half full.
type hashSet struct {
	slots []uint64
	n     int
}

func newHashSet() *hashSet { return &hashSet{slots: make([]uint64, 1<<12)} }

// add puts h in the set and reports whether it was new.
func (s *hashSet) add(h uint64) bool {
	h = max(h, 1) // 0 marks an empty slot
	if 2*(s.n+1) > len(s.slots) {
		old := s.slots
		s.slots, s.n = make([]uint64, 2*len(old)), 0
		for _, x := range old {
			if x != 0 {
				s.add(x)
			}
		}
	}
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return false
		case 0:
			s.slots[i] = h
			s.n++
			return true
		}
	}
}

// has reports whether h is in the set.
func (s *hashSet) has(h uint64) bool {
	h = max(h, 1)
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// Collect returns all entries of a selection and its warnings, for
// previews and tests; exports stream with Select and Each instead.
// Errors as Select.
func Collect(t *site.Tree, opt Options) ([]Entry, []site.Warning, error) {
	sel, err := Select(TreeSource(t), opt)
	if err != nil {
		return nil, nil, err
	}
	var entries []Entry
	err = sel.Each(func(e *Entry) error {
		entries = append(entries, *e)
		return nil
	})
	return entries, sel.Warnings(), err
}

// Directory returns the normalised directory URL the sitemap files live
// in: the location given, else the project's sitemap location, else the
// base URL's directory. Errors: EInvalid.
func Directory(p site.Project, location string) (string, error) {
	if strings.TrimSpace(location) == "" {
		location = p.SitemapLocation
	}
	if strings.TrimSpace(location) == "" {
		return site.Dir(p.BaseURL), nil
	}
	u, err := site.NormalizeBaseURL(location)
	if err != nil {
		return "", site.Errorf(site.EInvalid, "Sitemap location: %s", site.ErrorMessage(err))
	}
	return u, nil
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
