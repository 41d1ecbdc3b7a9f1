package sitemap

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"siteplan/site"
)

// The relaunch matcher proposes where each URL of an old site goes in the
// plan that replaces it. It is deterministic and says why: each rule
// below names the evidence it used, and a mapping is accepted on its own
// only when that evidence points at exactly one page. Two old pages that
// could be the same new page, or a title several pages share, are left
// for a person; so is every URL no rule places: the home page is never a
// fallback, and nothing is retired (410) but by a person.

// Confidences of the rules, and the least the matcher accepts alone.
const (
	confSamePath = 1.0
	confQuery    = 0.95
	confSlug     = 0.95
	confVariant  = 0.95
	confTitle    = 0.9
	confSection  = 0.9
	confListing  = 0.9
	confWords    = 0.85
	confMerged   = 0.6
	acceptAt     = 0.85
)

// trackingParams are query parameters that only say where a visitor came
// from: two URLs that differ in them are the same page.
var trackingParams = []string{"ref", "fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "_ga", "source"}

// stopWords are dropped from slugs when comparing their words: editors
// drop them when they shorten a slug.
var stopWords = []string{"a", "an", "the", "and", "or", "of", "for", "to", "in", "on", "at", "by", "with", "what", "we", "our", "your", "is", "are", "how", "why"}

// listingSegments end a path at its listing: pagination, tags and archives.
var listingSegments = []string{"page", "tag", "tags", "category", "categories", "archive", "archives", "author"}

// oldURL is an old page as the matcher reads it.
type oldURL struct {
	raw   string
	segs  []string   // path segments, lower case, the last one's extension dropped; a last "index" dropped
	query url.Values // without tracking parameters
	canon string     // segs and query: what variants of one URL share
	title string     // the title without the site's name, normalised
	h1    string
	m     *site.Mapping // its place in Match's answer
}

// newPage is a page of the plan with a URL: what the rules read of it,
// so that the plan itself is not held while old URLs are matched (at
// 200,000 old URLs and a 150,000-page plan, the plan was a quarter of
// the match's memory).
type newPage struct {
	id, parent int64
	url        string
	segs       []string
	key        string // segs joined
}

// matcher holds the plan's pages by what an old URL may share with them.
type matcher struct {
	pages   []newPage
	byPath  map[string][]int
	bySlug  map[string][]int
	byTitle map[string][]int
	byWords map[string][]int
	byNum   map[string][]int
	byID    map[int64]int
	others  map[int64]string // the titles of the pages without a URL of their own here (groups)
	// How many old pages (variants counted once) have each title or H1:
	// a title two old pages share is no evidence for either.
	oldTitles map[string]int
}

// Match proposes a mapping for each old page, in their order. In a
// localized plan each old URL is matched among the pages its locale
// offers (site.Project.LocaleOf: /de/… old URLs to the plan's de
// variants), by that locale's titles and paths.
func Match(t *site.Tree, old []site.OldPage) []site.Mapping {
	if len(t.Project.Locales) == 0 {
		return matchIn(t, old, nil, nil)
	}
	out := make([]site.Mapping, len(old))
	groups, markers := map[string][]int{}, make([]int, len(old))
	for i, o := range old {
		tag, n := t.Project.LocaleOf(o.URL)
		groups[tag], markers[i] = append(groups[tag], i), n
	}
	for _, tag := range slices.Sorted(maps.Keys(groups)) {
		idx := groups[tag]
		part, marks := make([]site.OldPage, len(idx)), make([]int, len(idx))
		for k, i := range idx {
			part[k], marks[k] = old[i], markers[i]
		}
		offered := func(p *site.Page) bool { return t.Offered(t.Page(p.ID), tag) }
		for k, m := range matchIn(t.InLocale(tag), part, marks, offered) {
			out[idx[k]] = m
		}
	}
	return out
}

// matchIn is Match in a plan of one language (t), of the pages offered
// says are there (nil: all); markers[i] (if any) is how many leading
// segments of old[i]'s path name its locale, left out of the comparison.
func matchIn(t *site.Tree, old []site.OldPage, markers []int, offered func(*site.Page) bool) []site.Mapping {
	m := newMatcher(t, offered)
	out := make([]site.Mapping, len(old))
	parsed, olds := make([]oldURL, len(old)), make([]*oldURL, len(old))
	brand := siteName(old)
	for i, o := range old {
		marker := 0
		if markers != nil {
			marker = markers[i]
		}
		parsed[i] = parseOld(o, brand, marker)
		parsed[i].m, olds[i] = &out[i], &parsed[i]
	}
	m.countOldTitles(olds)
	for _, o := range olds {
		m.first(o)
	}
	m.variants(olds)
	m.sections(olds)
	m.variants(olds)
	for _, o := range olds {
		if o.m.Disposition == "" {
			*o.m = site.Mapping{Disposition: site.DispositionReview, Reason: m.unsettled(o)}
		}
		o.m.From = o.raw
		o.m.Accepted = placed(o) || o.m.Disposition == site.DispositionKeep
	}
	return out
}

// unsettled says why no rule placed o: the pages that match it equally
// (its path, slug, title, H1 or slug's words), for a person to choose
// among, or that none does.
func (m *matcher) unsettled(o *oldURL) string {
	type clue struct {
		ps   []int
		what string
	}
	clues := []clue{{m.byPath[strings.Join(o.segs, "/")], "its path"}}
	if len(o.segs) > 0 {
		slug := o.segs[len(o.segs)-1]
		clues = append(clues, clue{m.bySlug[slug], "its slug “" + slug + "”"})
		if w := slugWords(slug); w != "" {
			clues = append(clues, clue{m.byWords[w], "the words of its slug"})
		}
	}
	if o.title != "" {
		clues = append(clues, clue{m.byTitle[o.title], "its title"})
	}
	if o.h1 != "" && o.h1 != o.title {
		clues = append(clues, clue{m.byTitle[o.h1], "its H1"})
	}
	for _, c := range clues {
		if len(c.ps) < 2 {
			continue
		}
		var paths []string
		for _, i := range c.ps[:min(len(c.ps), 3)] {
			paths = append(paths, "/"+m.pages[i].key)
		}
		more := ""
		if len(c.ps) > 3 {
			more = " and " + strconv.Itoa(len(c.ps)-3) + " more"
		}
		return strconv.Itoa(len(c.ps)) + " pages match " + c.what + ": " + strings.Join(paths, ", ") + more + "; choose one"
	}
	if ps := m.byTitle[o.title]; len(ps) == 1 && o.title != "" && m.oldTitles[o.title] > 1 {
		return "its title is the page /" + m.pages[ps[0]].key + "'s, but " + strconv.Itoa(m.oldTitles[o.title]) + " old pages share it; choose"
	}
	return "no page of the plan matches its path, slug, query or title"
}

// countOldTitles counts the old pages (variants once) with each title
// or H1.
func (m *matcher) countOldTitles(olds []*oldURL) {
	m.oldTitles = map[string]int{}
	seen := map[string]bool{}
	for _, o := range olds {
		if seen[o.canon] {
			continue
		}
		seen[o.canon] = true
		m.oldTitles[o.title]++
		if o.h1 != o.title {
			m.oldTitles[o.h1]++
		}
	}
}

// placed reports whether a rule has placed o surely enough to accept it.
func placed(o *oldURL) bool { return o.m.PageID != 0 && o.m.Confidence >= acceptAt }

func newMatcher(t *site.Tree, offered func(*site.Page) bool) *matcher {
	m := &matcher{byPath: map[string][]int{}, bySlug: map[string][]int{}, byTitle: map[string][]int{},
		byWords: map[string][]int{}, byNum: map[string][]int{}, byID: map[int64]int{}, others: map[int64]string{}}
	base, _ := url.Parse(t.Project.BaseURL)
	t.Walk(func(p *site.Page, _ int) bool {
		if offered != nil && !offered(p) {
			m.others[p.ID] = p.Title // not in this locale: no target, but a section's name
			return true
		}
		u := t.URL(p.ID)
		pu, err := url.Parse(u)
		if u == "" || err != nil || !strings.EqualFold(pu.Host, base.Host) {
			m.others[p.ID] = p.Title
			return true
		}
		segs := pathSegs(strings.TrimPrefix(pu.Path, strings.TrimSuffix(base.Path, "/")))
		i := len(m.pages)
		np := newPage{id: p.ID, parent: p.ParentID, url: u, segs: segs, key: strings.Join(segs, "/")}
		m.pages = append(m.pages, np)
		m.byID[p.ID] = i
		m.byPath[np.key] = append(m.byPath[np.key], i)
		if len(segs) > 0 {
			slug := segs[len(segs)-1]
			m.bySlug[slug] = append(m.bySlug[slug], i)
			if w := slugWords(slug); w != "" {
				m.byWords[w] = append(m.byWords[w], i)
			}
			if n := trailingNumber(slug); n != "" {
				m.byNum[n] = append(m.byNum[n], i)
			}
		}
		if k := normTitle(p.Title); k != "" {
			m.byTitle[k] = append(m.byTitle[k], i)
		}
		return true
	})
	return m
}

// section names a page of the plan that holds others: its path, or its
// title if it has no URL (a group).
func (m *matcher) section(id int64) string {
	if i, ok := m.byID[id]; ok {
		return "/" + m.pages[i].key
	}
	if title, ok := m.others[id]; ok {
		return "“" + title + "”"
	}
	return "the top level"
}

// set maps o to page i by rule, with a confidence and a reason.
func (m *matcher) set(o *oldURL, i int, conf float64, reason string) {
	np := m.pages[i]
	*o.m = site.Mapping{Disposition: site.DispositionRedirect, PageID: np.id, To: np.url, Status: 301, Confidence: conf, Reason: reason}
	if np.url == o.raw {
		o.m.Disposition, o.m.Status, o.m.Reason = site.DispositionKeep, 0, "the plan has this URL"
	}
}

// first applies the rules that need nothing but the old URL and the
// plan: the same path, a slug or id in the query, the same slug, the
// same title, the same slug words.
func (m *matcher) first(o *oldURL) {
	key := strings.Join(o.segs, "/")
	if ps := m.byPath[key]; len(ps) == 1 && len(o.query) == 0 {
		m.set(o, ps[0], confSamePath, "same path")
		return
	}
	for _, k := range slices.Sorted(maps.Keys(o.query)) {
		v := strings.ToLower(o.query.Get(k))
		if ps := m.bySlug[v]; len(ps) == 1 && v != "" && !isDigits(v) {
			m.set(o, ps[0], confQuery, "its query's “"+k+"” is the page's slug")
			return
		}
	}
	if len(o.segs) > 0 {
		slug := o.segs[len(o.segs)-1]
		if ps := m.bySlug[slug]; len(ps) == 1 {
			m.set(o, ps[0], confSlug, "same slug, moved to /"+m.pages[ps[0]].key)
			return
		}
	}
	for _, t := range []struct{ text, what string }{{o.title, "title"}, {o.h1, "H1"}} {
		if ps := m.byTitle[t.text]; len(ps) == 1 && t.text != "" && m.oldTitles[t.text] == 1 {
			m.set(o, ps[0], confTitle, "its "+t.what+" is the page's title")
			return
		}
	}
	if len(o.segs) > 0 {
		if w := slugWords(o.segs[len(o.segs)-1]); w != "" {
			if ps := m.byWords[w]; len(ps) == 1 {
				m.set(o, ps[0], confWords, "the same words in its slug")
			}
		}
	}
}

// variants gives an old URL that differs from a mapped one only in case
// or tracking parameters that one's target.
func (m *matcher) variants(olds []*oldURL) {
	mapped := map[string]*oldURL{}
	for _, o := range olds {
		if o.m.Disposition == site.DispositionRedirect || o.m.Disposition == site.DispositionKeep {
			if _, ok := mapped[o.canon]; !ok {
				mapped[o.canon] = o
			}
		}
	}
	for _, o := range olds {
		if o.m.Disposition != "" {
			continue
		}
		if other := mapped[o.canon]; other != nil {
			*o.m = *other.m
			o.m.Disposition, o.m.Status = site.DispositionRedirect, 301
			o.m.Confidence, o.m.Reason = confVariant, "a variant (case, tracking parameters) of "+other.raw
		}
	}
}

// sections learns which new page each old folder became, from where its
// pages went (most of at least three, to children of one page), and maps
// the folder, its listings (pagination, tags, archives) and its pages
// no rule placed: a slug several pages share is settled by the folder;
// a page alone in a folder that went elsewhere waits for a person.
func (m *matcher) sections(olds []*oldURL) {
	votes := map[string]map[int64]int{} // old folder -> new parent -> pages
	counts := map[string]int{}
	for _, o := range olds {
		if len(o.segs) < 2 || !placed(o) {
			continue
		}
		dir := folderOf(o.segs)
		parent := m.pages[m.byID[o.m.PageID]].parent
		if votes[dir] == nil {
			votes[dir] = map[int64]int{}
		}
		votes[dir][parent]++
		counts[dir]++
	}
	became := map[string]int{} // old folder -> the page it became
	for dir, v := range votes {
		for parent, n := range v {
			if i, ok := m.byID[parent]; ok && counts[dir] >= 3 && n*5 >= counts[dir]*4 {
				became[dir] = i
			}
		}
	}
	for _, o := range olds {
		if o.m.Disposition != "" {
			continue
		}
		if i, ok := became[strings.Join(o.segs, "/")]; ok {
			m.set(o, i, confSection, "its pages moved to /"+m.pages[i].key)
			continue
		}
		if dir, ok := listingOf(o.segs); ok {
			if i, ok := became[dir]; ok {
				m.set(o, i, confListing, "a listing (pages, tags, archives) of /"+dir+"/, which moved to /"+m.pages[i].key)
				continue
			}
			if ps := m.byPath[dir]; len(ps) == 1 {
				m.set(o, ps[0], confListing, "a listing (pages, tags, archives) of /"+dir+"/")
				continue
			}
		}
		if i, ok := became[folderOf(o.segs)]; ok && len(o.segs) >= 2 {
			m.inFolder(o, i)
		}
	}
	m.sharedTitles(olds)
	m.idNeighbours(olds)
	// A page whose folder's own page was mapped, and nothing else: that
	// target, for a person to confirm (pages merged into one).
	folderPage := map[string]*oldURL{}
	for _, o := range olds {
		if o.m.PageID != 0 && len(o.segs) > 0 {
			folderPage[strings.Join(o.segs, "/")] = o
		}
	}
	for _, o := range olds {
		if o.m.Disposition != "" || len(o.segs) < 2 {
			continue
		}
		if f := folderPage[folderOf(o.segs)]; f != nil {
			m.set(o, m.byID[f.m.PageID], confMerged, "its folder's page went to "+f.m.To+"; merged there?")
		}
	}
}

// inFolder places an old page of a folder that became page i among
// i's children: by the id in its query that one of their slugs ends
// with, or by its slug, which pages elsewhere share too.
func (m *matcher) inFolder(o *oldURL, i int) {
	parent := m.pages[i].id
	var byID, bySlug []int
	for _, k := range slices.Sorted(maps.Keys(o.query)) {
		if v := o.query.Get(k); isDigits(v) {
			for _, c := range m.byNum[v] {
				if m.pages[c].parent == parent {
					byID = append(byID, c)
				}
			}
		}
	}
	for _, c := range m.bySlug[o.segs[len(o.segs)-1]] {
		if m.pages[c].parent == parent {
			bySlug = append(bySlug, c)
		}
	}
	switch {
	case len(byID) == 1:
		m.set(o, byID[0], confQuery, "the id in its query is the number a slug in /"+m.pages[i].key+" ends with, where its folder's pages moved")
	case len(bySlug) == 1:
		m.set(o, bySlug[0], confSlug, "same slug, in /"+m.pages[i].key+", where its folder's pages moved")
	}
}

// sharedTitles maps an old page whose title (or H1) only one page of the
// plan has, though other old pages share it, when every other old page
// with that title went to that page from another address: the same
// content at two URLs (shop/x/item.html and product.php?id=7). If one of
// them has this page's address but another query (a record of the same
// template, jobs/view.php?id=1008 beside ?id=1009), it is another record.
func (m *matcher) sharedTitles(olds []*oldURL) {
	byTitle := map[string][]*oldURL{}
	for _, o := range olds {
		for _, t := range []string{o.title, o.h1} {
			if t != "" && len(m.byTitle[t]) == 1 {
				byTitle[t] = append(byTitle[t], o)
			}
		}
	}
	for _, o := range olds {
		if o.m.Disposition == "" {
			m.sharedTitle(o, byTitle)
		}
	}
}

// sharedTitle is sharedTitles for one old page.
func (m *matcher) sharedTitle(o *oldURL, byTitle map[string][]*oldURL) {
titles:
	for _, t := range []string{o.title, o.h1} {
		ps := m.byTitle[t]
		if len(ps) != 1 || t == "" {
			continue
		}
		page := m.pages[ps[0]].id
		for _, other := range byTitle[t] {
			if other == o || other.canon == o.canon {
				continue
			}
			if other.m.PageID != page || !placed(other) || slices.Equal(other.segs, o.segs) {
				continue titles
			}
		}
		m.set(o, ps[0], confTitle, "its title is the page's, as are the other addresses with that title")
		return
	}
}

// idNeighbours settles an old record (a URL with a numeric id in its
// query) whose title several pages of the plan have, in different
// sections, by the records of the same address around it: when the
// nearest record with a smaller id and the nearest with a larger one both
// went to the same section, and one of the pages with its title is in
// that section. Shops number products by category: product.php?id=150
// between two heart products is a heart product.
func (m *matcher) idNeighbours(olds []*oldURL) {
	type record struct {
		id      int
		section int64
	}
	templates := map[string][]record{} // address and id parameter -> its records placed
	templateOf := func(o *oldURL) (string, int, bool) {
		for _, k := range slices.Sorted(maps.Keys(o.query)) {
			if v := o.query.Get(k); isDigits(v) && len(v) < 10 {
				n, _ := strconv.Atoi(v)
				return strings.Join(o.segs, "/") + "?" + k, n, true
			}
		}
		return "", 0, false
	}
	for _, o := range olds {
		if !placed(o) {
			continue
		}
		if key, n, ok := templateOf(o); ok {
			templates[key] = append(templates[key], record{n, m.pages[m.byID[o.m.PageID]].parent})
		}
	}
	for _, rs := range templates {
		slices.SortFunc(rs, func(a, b record) int { return a.id - b.id })
	}
	for _, o := range olds {
		if o.m.Disposition != "" || len(m.byTitle[o.title]) < 2 {
			continue
		}
		key, n, ok := templateOf(o)
		if !ok {
			continue
		}
		rs := templates[key]
		i, _ := slices.BinarySearchFunc(rs, n, func(r record, n int) int { return r.id - n })
		if i == 0 || i == len(rs) || rs[i-1].section != rs[i].section {
			continue
		}
		var in []int
		for _, c := range m.byTitle[o.title] {
			if m.pages[c].parent == rs[i].section {
				in = append(in, c)
			}
		}
		if len(in) == 1 {
			m.set(o, in[0], confWords, "its title is that of pages in several sections; the records of "+key+" around it ("+strconv.Itoa(rs[i-1].id)+" and "+strconv.Itoa(rs[i].id)+") went to "+m.section(rs[i].section))
		}
	}
}

// folderOf is the folder of an old URL's page.
func folderOf(segs []string) string {
	if len(segs) == 0 {
		return ""
	}
	return strings.Join(segs[:len(segs)-1], "/")
}

// listingOf returns the folder a listing URL lists: the path up to a
// pagination, tag or archive segment.
func listingOf(segs []string) (string, bool) {
	for i, s := range segs {
		if i > 0 && slices.Contains(listingSegments, s) {
			return strings.Join(segs[:i], "/"), true
		}
	}
	return "", false
}

// parseOld reads an old page's URL and words, leaving out the first
// marker segments of its path, which name its locale (/de/): the rest is
// what the locale's pages are compared with.
func parseOld(o site.OldPage, brand string, marker int) oldURL {
	ou := oldURL{raw: o.URL, title: normTitle(stripBrand(o.Title, brand)), h1: normTitle(o.H1)}
	u, err := url.Parse(strings.TrimSpace(o.URL))
	if err != nil {
		ou.canon = strings.ToLower(o.URL)
		return ou
	}
	segs := pathSegs(u.Path)
	ou.segs = dropDates(segs[min(marker, len(segs)):])
	var q url.Values // most old URLs have no query: no map for them
	if u.RawQuery != "" {
		q = u.Query()
	}
	for k := range q {
		if lk := strings.ToLower(k); strings.HasPrefix(lk, "utm_") || slices.Contains(trackingParams, lk) {
			q.Del(k)
		}
	}
	ou.query = q
	ou.canon = strings.ToLower(u.Host) + "/" + strings.Join(ou.segs, "/") + "?" + strings.ToLower(q.Encode())
	return ou
}

// pathSegs splits a path into lower-case segments, dropping empty ones,
// the last one's extension and a last "index".
func pathSegs(p string) []string {
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	var segs []string
	for _, s := range strings.Split(strings.ToLower(p), "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
	if n := len(segs); n > 0 {
		last := segs[n-1]
		for _, ext := range []string{".html", ".htm", ".php", ".aspx", ".asp", ".jsp", ".cfm", ".shtml"} {
			last = strings.TrimSuffix(last, ext)
		}
		segs[n-1] = last
		if last == "index" || last == "default" || last == "" {
			segs = segs[:n-1]
		}
	}
	return segs
}

// dropDates drops date folders from an old URL's path (news/2019/04/x:
// news/x), which a relaunch rarely keeps.
func dropDates(segs []string) []string {
	out := segs[:0:0]
	year := false
	for i, s := range segs {
		last := i == len(segs)-1
		switch {
		case !last && len(s) == 4 && isDigits(s) && s >= "1990" && s <= "2099":
			year = true
			continue
		case !last && year && len(s) <= 2 && isDigits(s):
			continue
		}
		year = false
		out = append(out, s)
	}
	return out
}

// siteName is the suffix most old titles share after " | " or " - ":
// the site's name, which no page of the plan has in its title.
func siteName(old []site.OldPage) string {
	counts := map[string]int{}
	for _, o := range old {
		for _, sep := range []string{" | ", " - ", " – ", " — "} {
			if i := strings.LastIndex(o.Title, sep); i > 0 {
				counts[strings.TrimSpace(o.Title[i+len(sep):])]++
			}
		}
	}
	best, n := "", 0
	for s, c := range counts {
		if c > n || c == n && s < best {
			best, n = s, c
		}
	}
	if n*4 < len(old) { // not most titles: no site name to strip
		return ""
	}
	return best
}

// stripBrand takes the site's name off a title.
func stripBrand(title, brand string) string {
	if brand == "" {
		return title
	}
	for _, sep := range []string{" | ", " - ", " – ", " — "} {
		title = strings.TrimSuffix(title, sep+brand)
	}
	return title
}

// normTitle is a title as the matcher compares it: lower case, words of
// letters and digits only, one space apart.
func normTitle(t string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ")
}

// slugWords is a slug's words without stop words, or "" if that leaves
// fewer than two.
func slugWords(slug string) string {
	var out []string
	for _, w := range strings.FieldsFunc(slug, func(r rune) bool { return r == '-' || r == '_' }) {
		if !slices.Contains(stopWords, w) {
			out = append(out, w)
		}
	}
	if len(out) < 2 {
		return ""
	}
	return strings.Join(out, "-")
}

// trailingNumber is the number a slug ends with ("junior-buyer-1003":
// "1003"), if it has one of at least three digits.
func trailingNumber(slug string) string {
	i := strings.LastIndexAny(slug, "-_")
	if n := slug[i+1:]; len(n) >= 3 && isDigits(n) && i > 0 {
		return n
	}
	return ""
}

func isDigits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}
