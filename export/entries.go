// Package export turns a project's tree into launch files: sitemap.xml
// (urlset or index, split by count and size, optionally gzipped),
// sitemap.txt, robots.txt lines and the HTML footer sitemap. Writers take an
// io.Writer; nothing here knows HTTP or SQL.
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
}

// Entries streams a sitemap's entries in order: it calls yield for each
// (the Entry is reused; copy what you keep) and returns the first error
// yield returns.
type Entries func(yield func(*Entry) error) error

// Selection is the set of pages one export writes: pages of kind page with
// in_sitemap on, at most once per URL, on the sitemap's host and inside
// its directory. It streams them from the tree in two walks, so that
// nothing it holds grows with the page count: the first feeds every URL to
// a Bloom filter of at most 4 MiB, which flags the URLs that may repeat;
// the second writes, and checks only those flagged URLs exactly.
type Selection struct {
	Dir       string // the normalised directory URL the sitemap files live in
	tree      *site.Tree
	opt       Options
	seed      maphash.Seed
	bloomBits int // a power of two
	prepared  bool
	repeats   map[uint64]bool         // hashes of URLs that may occur more than once
	twins     map[uint64][]*site.Page // hash of the other-scheme URL -> pages left out for their scheme
	warns     []site.Warning
}

// Select checks the options against a tree. Errors: EInvalid when the
// location is not a valid URL, ENotFound when the section does not exist.
func Select(t *site.Tree, opt Options) (*Selection, error) {
	dir, err := Directory(t.Project, opt.Location)
	if err != nil {
		return nil, err
	}
	if opt.Section != 0 && t.Page(opt.Section) == nil {
		return nil, site.Errorf(site.ENotFound, "Section page %d does not exist in this project.", opt.Section)
	}
	return &Selection{Dir: dir, tree: t, opt: opt, seed: maphash.MakeSeed(), bloomBits: bloomBits(t.Len())}, nil
}

// Warnings returns what the last pass of Each left out, and why, in
// outline order, followed by informational notes.
func (s *Selection) Warnings() []site.Warning { return s.warns }

// walk visits the pages the options select in outline order, with their
// URL, or with the reason a page cannot be in the sitemap.
func (s *Selection) walk(fn func(p *site.Page, loc, why string) bool) {
	s.tree.WalkURLs(s.opt.Section, func(p *site.Page, loc string) bool {
		switch {
		case !p.HasURL() || !p.InSitemap || (s.opt.LeavesOnly && p.ChildCount > 0):
			return true
		case loc == "":
			return fn(p, loc, "its path override is not a valid URL")
		}
		if why := site.ScopeProblem(loc, s.Dir); why != "" {
			return fn(p, loc, "left out: "+why)
		}
		return fn(p, loc, "")
	})
}

// bloomBits sizes the filter: 16 bits per page (a false-positive rate
// near 0.2% with 4 probes), between 1 KiB and 4 MiB.
func bloomBits(pages int) int {
	n := 1 << 13
	for n < 16*pages && n < 1<<25 {
		n <<= 1
	}
	return n
}

// prepare runs the first walk once: it flags the URLs that may repeat and
// notes the pages left out for their scheme whose twin may be exported.
func (s *Selection) prepare() {
	if s.prepared {
		return
	}
	s.prepared = true
	bloom := make([]uint64, max(1, s.bloomBits/64))
	mask := uint64(len(bloom)*64 - 1)
	s.repeats, s.twins = map[uint64]bool{}, map[uint64][]*site.Page{}
	s.walk(func(p *site.Page, loc, why string) bool {
		if why != "" {
			if twin := site.OtherScheme(loc); twin != "" && site.Origin(loc) != site.Origin(s.Dir) {
				h := maphash.String(s.seed, twin)
				s.twins[h] = append(s.twins[h], p)
			}
			return true
		}
		h := maphash.String(s.seed, loc)
		seen, step := true, h>>33|1
		for i, b := 0, h; i < 4; i, b = i+1, b+step {
			w, bit := (b&mask)/64, uint64(1)<<(b%64)
			if bloom[w]&bit == 0 {
				seen = false
				bloom[w] |= bit
			}
		}
		if seen {
			s.repeats[h] = true
		}
		return true
	})
}

// Each calls fn for every entry in outline order; it is an Entries. Each
// pass recomputes the warnings.
func (s *Selection) Each(fn func(*Entry) error) error {
	s.prepare()
	t, proj := s.tree, s.tree.Project
	s.warns = nil
	var twinWarns []site.Warning
	firstOf := map[string]int64{} // flagged URLs -> first page with that URL
	usesHints := false
	var e Entry
	var rawLastmod, lastmod string
	var err error
	s.walk(func(p *site.Page, loc, why string) bool {
		if why != "" {
			s.warn(p, why)
			return true
		}
		h := maphash.String(s.seed, loc)
		if s.repeats[h] {
			if id, dup := firstOf[loc]; dup {
				s.warn(p, "left out: same URL as “"+t.Page(id).Title+"” ("+loc+")")
				return true
			}
			firstOf[loc] = p.ID
		}
		for _, twin := range s.twins[h] {
			if site.OtherScheme(t.URL(twin.ID)) == loc {
				twinWarns = append(twinWarns, site.Warning{PageID: twin.ID, Title: twin.Title, Reason: "the same path is also in the sitemap under the other scheme, as “" + p.Title + "”"})
			}
		}
		if strings.IndexByte(loc, '?') >= 0 && site.HasSessionParam(loc) {
			s.warn(p, "its URL carries a session-id parameter; search engines index such URLs as duplicates")
		}
		if p.KeptFromSearch() {
			s.warn(p, "sites keep such pages (cart, checkout, account, login, search, wishlist) out of search; it is in the sitemap as set: untick “In sitemap” unless it should be found")
		}
		if raw := cmp.Or(p.Lastmod, proj.Lastmod); raw != rawLastmod { // most pages share one lastmod
			rawLastmod, lastmod = raw, site.SitemapLastmod(raw)
		}
		e = Entry{PageID: p.ID, Loc: loc, Lastmod: lastmod, Changefreq: cmp.Or(p.Changefreq, proj.DefaultChangefreq)}
		if pr := p.Priority; pr != nil {
			e.Priority = site.FormatPriority(*pr)
		} else if pr := proj.DefaultPriority; pr != nil {
			e.Priority = site.FormatPriority(*pr)
		}
		usesHints = usesHints || e.Changefreq != "" || e.Priority != ""
		err = fn(&e)
		return err == nil
	})
	if err != nil {
		return err
	}
	s.warns = append(s.warns, twinWarns...)
	if usesHints {
		s.warns = append(s.warns, site.Warning{Reason: "Google ignores changefreq and priority; Bing and others may read them. They are written as set.", Info: true})
	}
	return nil
}

func (s *Selection) warn(p *site.Page, reason string) {
	s.warns = append(s.warns, site.Warning{PageID: p.ID, Title: p.Title, Reason: reason})
}

// Collect returns all entries of a selection and its warnings, for
// previews and tests; exports stream with Select and Each instead.
// Errors as Select.
func Collect(t *site.Tree, opt Options) ([]Entry, []site.Warning, error) {
	sel, err := Select(t, opt)
	if err != nil {
		return nil, nil, err
	}
	var entries []Entry
	sel.Each(func(e *Entry) error {
		entries = append(entries, *e)
		return nil
	})
	return entries, sel.Warnings(), nil
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
