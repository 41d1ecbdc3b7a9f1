package verify

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"siteplan/site"
)

// A localized plan's pages name their other locales' URLs: in the HTML
// head (<link rel="alternate" hreflang="de" href="…">), in the HTTP Link
// header, or in the sitemaps (xhtml:link). The check reads all three and
// holds them to the plan's alternates (site.Tree.Hreflang), each defect
// under the name the SEO checkers give it. A page's alternates are those
// of its HTML and Link header, or, when it names none there, its
// sitemap entry's: search engines take either.

// Rules of hreflang, a localized plan's.
const (
	RuleHreflangSelf       = "hreflang-self"        // no alternate names the page itself
	RuleHreflangReturn     = "hreflang-return"      // an alternate does not name the page back
	RuleHreflangXDefault   = "hreflang-x-default"   // no x-default
	RuleHreflangCode       = "hreflang-code"        // not a language (and region) code
	RuleHreflangStatus     = "hreflang-status"      // an alternate does not answer 200
	RuleHreflangCanonical  = "hreflang-canonical"   // an alternate's canonical names another URL
	RuleHreflangNoindex    = "hreflang-noindex"     // an alternate is noindex
	RuleHreflangDuplicate  = "hreflang-duplicate"   // one language named for two URLs
	RuleHreflangWrongPage  = "hreflang-wrong-page"  // an alternate where the plan has another page
	RuleHreflangNotOffered = "hreflang-not-offered" // an alternate in a locale the page is not offered in
	RuleHreflangMissing    = "hreflang-missing"     // an alternate the plan has, not named
	RuleHreflangSitemap    = "hreflang-sitemap"     // the HTML and the sitemap name other alternates
)

// alt is one alternate a live page names: its hreflang and its URL, in
// the plan's (production) form.
type alt struct{ lang, href string }

// live is what a check read of one planned URL for its hreflang.
type live struct {
	status    int
	alts      []alt  // from the HTML head and the Link header
	canonical string // in the plan's form; "" without one
	noindex   bool
}

// plannedURL is a page's URL to check, in a locale ("" in a plan of one
// language).
type plannedURL struct {
	p   *site.Page
	tag string
	url string
}

// linkAlternates are the hreflang alternates a Link header names
// (<url>; rel="alternate"; hreflang="de", …).
func linkAlternates(v string) []alt {
	var out []alt
	for v != "" {
		start := strings.IndexByte(v, '<')
		end := strings.IndexByte(v, '>')
		if start < 0 || end < start {
			break
		}
		href := v[start+1 : end]
		v = v[end+1:]
		params := v
		if next := strings.IndexByte(v, '<'); next >= 0 {
			params, v = v[:next], v[next:]
		} else {
			v = ""
		}
		var rel, lang string
		for _, kv := range strings.Split(params, ";") {
			k, val, _ := strings.Cut(strings.TrimSpace(strings.TrimRight(strings.TrimSpace(kv), ",")), "=")
			val = strings.Trim(strings.TrimSpace(val), `"`)
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "rel":
				rel = val
			case "hreflang":
				lang = val
			}
		}
		if slices.Contains(strings.Fields(strings.ToLower(rel)), "alternate") && lang != "" {
			out = append(out, alt{lang, strings.TrimSpace(href)})
		}
	}
	return out
}

// noted keeps what a check read of a planned page for hreflang.
func (c *checker) noted(u string, lv *live) {
	c.mu.Lock()
	c.live[u] = lv
	c.mu.Unlock()
}

// hreflang holds each planned page's live alternates, in each locale, to
// the plan's; run after the pages and the sitemaps were read.
func (c *checker) hreflang(ctx context.Context, t *site.Tree, pages []plannedURL) {
	unplanned := map[string]int{} // alternates that are no planned URL: their status, asked once
	for _, pl := range pages {
		if ctx.Err() != nil {
			return
		}
		lv := c.live[pl.url]
		if lv == nil || lv.status != 200 {
			continue // its own problem is reported
		}
		problem := func(rule, msg string) {
			c.add(Problem{Rule: rule, URL: pl.url, PageID: pl.p.ID, Page: pl.p.Title, Message: msg, Severity: Error})
		}
		got, inMap := lv.alts, c.mapAlts[pl.url]
		switch {
		case len(got) > 0 && len(inMap) > 0 && !sameAlts(got, inMap):
			c.add(Problem{Rule: RuleHreflangSitemap, URL: pl.url, PageID: pl.p.ID, Page: pl.p.Title, Severity: Warning,
				Message: "Its HTML names " + altsText(got) + "; the sitemap names " + altsText(inMap) + ": search engines may take either."})
		case len(got) == 0:
			got = inMap
		}
		want := t.Hreflang(pl.p.ID)
		if len(got) == 0 {
			problem(RuleHreflangMissing, "It names none of its alternates (the plan has "+strconv.Itoa(len(want)-1)+" locales and x-default) in its HTML, Link header or the sitemaps.")
			continue
		}
		named := map[string]string{} // canonical tag (or x-default) -> the URL named
		targets := map[string]bool{} // the alternates' URLs checked (x-default is mostly another's)
		self := false
		for _, a := range got {
			self = self || a.href == pl.url
			tag := a.lang
			if !strings.EqualFold(tag, site.XDefault) {
				canon, err := site.ParseLocaleTag(tag)
				if err != nil {
					problem(RuleHreflangCode, "hreflang=\""+tag+"\" for "+a.href+": "+site.ErrorMessage(err))
					continue
				}
				tag = canon
			} else {
				tag = site.XDefault
			}
			if prev, ok := named[tag]; ok {
				if prev != a.href {
					problem(RuleHreflangDuplicate, "It names "+tag+" twice: "+prev+" and "+a.href+"; search engines may ignore both.")
				}
				continue
			}
			named[tag] = a.href
			c.planAlternate(t, pl, tag, a.href, want, problem)
			if a.href != pl.url && !targets[a.href] {
				targets[a.href] = true
				c.alternateTarget(ctx, pl, tag, a.href, unplanned, problem)
			}
		}
		if !self {
			problem(RuleHreflangSelf, "Its alternates do not name the page itself ("+pl.url+" as "+pl.tag+"): search engines may ignore them.")
		}
		for _, w := range want {
			if _, ok := named[w.Tag]; !ok && w.Tag != pl.tag { // its own: the self reference says it
				if w.Tag == site.XDefault {
					problem(RuleHreflangXDefault, "It names no x-default; the plan's is "+w.URL+".")
				} else {
					problem(RuleHreflangMissing, "The plan has it in "+w.Tag+" at "+w.URL+"; the page does not name it.")
				}
			}
		}
	}
}

// planAlternate holds one alternate the page names to the plan: the
// locale must be one the page is offered in, and the URL its page there.
func (c *checker) planAlternate(t *site.Tree, pl plannedURL, tag, href string, want []site.Hreflang, problem func(rule, msg string)) {
	i := slices.IndexFunc(want, func(h site.Hreflang) bool { return h.Tag == tag })
	switch {
	case i >= 0 && want[i].URL == href:
	case i >= 0:
		problem(RuleHreflangWrongPage, "It names "+href+" for "+tag+c.whose(href)+"; the plan's page there is "+want[i].URL+".")
	case tag == site.XDefault:
	default:
		if _, ok := t.Project.Locale(tag); ok {
			problem(RuleHreflangNotOffered, "It names "+href+" for "+tag+", where the plan does not offer this page.")
		} else {
			problem(RuleHreflangNotOffered, "It names "+href+" for "+tag+", which is not one of the plan's locales.")
		}
	}
}

// whose says which page of the plan has the URL u, if one does.
func (c *checker) whose(u string) string {
	if pl, ok := c.byURL[u]; ok {
		return " (“" + pl.p.Title + "” in " + pl.tag + ")"
	}
	return ""
}

// alternateTarget holds what one alternate answers: 200, its own
// canonical, open to search engines, and naming the page back.
func (c *checker) alternateTarget(ctx context.Context, pl plannedURL, tag, href string, unplanned map[string]int, problem func(rule, msg string)) {
	other := c.live[href]
	if other == nil {
		st, ok := unplanned[href]
		if !ok {
			st = -1
			if a, err := c.cfg.Hop(ctx, "HEAD", c.served(href), 0); err == nil {
				st = a.Status
			}
			unplanned[href] = st
		}
		if st != 200 {
			problem(RuleHreflangStatus, "Its "+tag+" alternate "+href+" "+answers(st)+", not 200.")
		}
		return
	}
	if other.status != 200 {
		problem(RuleHreflangStatus, "Its "+tag+" alternate "+href+" "+answers(other.status)+", not 200.")
		return
	}
	if other.canonical != "" && other.canonical != href {
		problem(RuleHreflangCanonical, "Its "+tag+" alternate "+href+" is not canonical: its canonical names "+other.canonical+".")
	}
	if other.noindex {
		problem(RuleHreflangNoindex, "Its "+tag+" alternate "+href+" is noindex: search engines drop the pair.")
	}
	back := other.alts
	if len(back) == 0 {
		back = c.mapAlts[href]
	}
	if !slices.ContainsFunc(back, func(a alt) bool { return a.href == pl.url && strings.EqualFold(a.lang, pl.tag) }) {
		problem(RuleHreflangReturn, "Its "+tag+" alternate "+href+" does not name it back: without the return link search engines ignore the pair.")
	}
}

// answers says what a URL answered (-1: nothing).
func answers(status int) string {
	if status < 0 {
		return "gives no answer"
	}
	return "answers " + strconv.Itoa(status)
}

// sameAlts reports whether two lists name the same alternates.
func sameAlts(a, b []alt) bool {
	key := func(as []alt) []string {
		out := make([]string, len(as))
		for i, x := range as {
			out[i] = strings.ToLower(x.lang) + " " + x.href
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return slices.Equal(key(a), key(b))
}

// altsText lists alternates as a message says them.
func altsText(as []alt) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = a.lang + " " + a.href
	}
	return strings.Join(parts, ", ")
}
