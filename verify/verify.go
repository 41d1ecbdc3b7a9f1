// Package verify checks a built site against its plan, at launch: every
// planned page answers 200 and is open to search engines, the live
// sitemaps list exactly the planned URLs, and every redirect of the map is
// one hop to a page of the plan. It talks to the site only through the
// functions it is given (fetch's, in siteplan), and says each problem in
// words, naming the page.
package verify

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/jimsmart/grobotstxt"
	"golang.org/x/net/html"

	"siteplan/site"
	"siteplan/sitemap"
)

// Answer is one response as it came: its status, the headers a check
// reads (lower-case names: location, x-robots-tag, link), and the start
// of its body. fetch.Answer has its shape.
type Answer struct {
	Status int
	Header map[string]string
	Body   []byte
}

// Hopper makes one request (GET or HEAD) without following a redirect,
// reading at most maxBody bytes of the body.
type Hopper func(ctx context.Context, method, url string, maxBody int64) (Answer, error)

// Config is a check: where the site is served, and how to reach it.
type Config struct {
	// Base is where the site is served (a staging host works): the plan's
	// paths are rebased onto it, and URLs the site names on its own
	// production host count as right.
	Base        string
	Concurrency int // requests at once (default 8)
	Hop         Hopper
	Open        sitemap.Opener // reads robots.txt's sitemaps
	// Progress, if set, is told how many of the pages and old URLs to
	// check have been checked: 0 before the first, then from the
	// goroutines that check them.
	Progress func(done, total int)
	// MaxProblems, if above 0, is how many problems the report lists; it
	// counts the rest (Omitted), and its counts of errors and warnings
	// stay whole. The editor keeps reports so within bounds.
	MaxProblems int
}

// Rules a problem breaks.
const (
	RuleStatus         = "status"          // a planned page does not answer 200
	RuleRedirected     = "redirected"      // a planned URL redirects
	RuleNoindex        = "noindex"         // hidden from search engines by a meta tag or header
	RuleCanonical      = "canonical"       // its canonical names another URL
	RuleTitle          = "title"           // its <title> is not the brief's SEO title
	RuleH1             = "h1"              // its <h1> is not the brief's
	RuleRobots         = "robots"          // robots.txt disallows it
	RuleSitemapMissing = "sitemap-missing" // planned in the sitemap, not in the live one
	RuleSitemapExtra   = "sitemap-extra"   // in the live sitemap, not planned there
	RuleRedirectMap    = "redirect-map"    // an old URL does not answer as the map says
	RuleUnreachable    = "unreachable"     // no answer at all
)

// Severities, and OK: a page's result when it has no problem.
const (
	Error   = "error"
	Warning = "warning"
	OK      = "ok"
)

// Problem is one thing that is not as planned.
type Problem struct {
	Rule     string `json:"rule"`
	URL      string `json:"url"`
	PageID   int64  `json:"page_id,omitempty"`
	Page     string `json:"page,omitempty"` // its title
	Message  string `json:"message"`
	Severity string `json:"severity"`
}

// Report is what a check found.
type Report struct {
	Base     string        `json:"base"`
	Pages    int           `json:"pages"`    // planned pages with a URL, checked
	OldURLs  int           `json:"old_urls"` // accepted redirects and retirements, checked
	Sitemaps int           `json:"sitemaps"` // URLs the live sitemaps list
	Errors   int           `json:"errors"`
	Warnings int           `json:"warnings"`
	Problems []Problem     `json:"problems"`
	Omitted  int           `json:"omitted,omitempty"` // problems past Config.MaxProblems, counted only
	Checked  []CheckedPage `json:"-"`                 // in plan order
}

// CheckedPage is a page a check checked.
type CheckedPage struct {
	ID    int64  `json:"id"`
	Title string `json:"title"`
	URL   string `json:"url"`
}

func (r *Report) add(p Problem, most int) {
	if most > 0 && len(r.Problems) >= most {
		r.Omitted++
	} else {
		r.Problems = append(r.Problems, p)
	}
	if p.Severity == Error {
		r.Errors++
	} else {
		r.Warnings++
	}
}

// Results are the outcomes of a check per page: Error or Warning, the
// worst of its problems, or OK for a checked page without any. A page's
// results are its own checks and the sitemaps'; an old URL's redirect to
// it is the map's problem, not the page's.
func (r *Report) Results() map[int64]string {
	res := make(map[int64]string, len(r.Checked))
	for _, c := range r.Checked {
		res[c.ID] = OK
	}
	for _, p := range r.Problems {
		if p.PageID != 0 && p.Rule != RuleRedirectMap && res[p.PageID] != Error {
			res[p.PageID] = p.Severity
		}
	}
	return res
}

// maxPageBody is how much of a page a check reads: its head is near the
// start.
const maxPageBody = 512 << 10

// Check checks the site served at cfg.Base against plan t and its old
// URLs (olds: the map; only accepted redirects and retirements are
// checked). Errors: EInvalid for a base that is not an http(s) URL;
// ctx's. Problems are not errors: they are in the report.
func Check(ctx context.Context, cfg Config, t *site.Tree, olds []site.OldURL) (*Report, error) {
	base, err := url.Parse(cfg.Base)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, site.Errorf(site.EInvalid, "--base must be the site's http or https address, such as https://staging.example.com/, not %q.", cfg.Base)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	c := &checker{cfg: cfg, base: base.String(), prod: strings.TrimSuffix(t.Project.RootPath(), "/") + "/", rep: &Report{Base: base.String()},
		localized: len(t.Project.Locales) > 0, live: map[string]*live{}, mapAlts: map[string][]alt{}, byURL: map[string]plannedURL{}}
	if c.cfg.Concurrency <= 0 {
		c.cfg.Concurrency = 8
	}
	// A page whose path override names another host is not this site's
	// to check: --base says where this site is served. A localized plan's
	// locale on a domain of its own is the site's: checked where it is.
	origins := map[string]bool{site.Origin(c.prod): true}
	for _, l := range t.Project.Locales {
		origins[site.Origin(l.Base(t.Project.BaseURL))] = true
	}
	var pages []plannedURL
	t.WalkLocaleURLs(func(p *site.Page, tag, u string) {
		if u != "" && origins[site.Origin(u)] && strings.HasPrefix(u, site.Origin(u)+"/") {
			pages = append(pages, plannedURL{p, tag, u})
			c.byURL[u] = plannedURL{p, tag, u}
			c.rep.Checked = append(c.rep.Checked, CheckedPage{p.ID, p.Title, u})
		}
	})
	c.rep.Pages = len(pages)
	var rules []site.Mapping
	for _, m := range t.Mappings(olds) {
		if m.Accepted && (m.Disposition == site.DispositionRedirect || m.Disposition == site.DispositionRetire) {
			rules = append(rules, m)
		}
	}
	c.rep.OldURLs = len(rules)
	c.total = len(pages) + len(rules)
	if cfg.Progress != nil {
		cfg.Progress(0, c.total)
	}
	if err := c.reach(ctx); err != nil {
		return nil, err
	}
	c.robots = c.readRobots(ctx)
	c.status = make(map[string]int, len(pages))
	c.each(ctx, len(pages), func(i int) { c.page(ctx, pages[i].p, pages[i].url) })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.sitemaps(ctx, t)
	if c.localized {
		c.hreflang(ctx, t, pages)
	}
	c.each(ctx, len(rules), func(i int) { c.redirect(ctx, t, rules[i]) })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The checks ran side by side: the report is in the order of its
	// rules, then of its URLs, the same on every run.
	slices.SortStableFunc(c.rep.Problems, func(a, b Problem) int {
		return cmp.Or(cmpRule(a.Rule)-cmpRule(b.Rule), strings.Compare(a.URL, b.URL))
	})
	return c.rep, nil
}

// Rules lists the rules in the order a report lists their problems.
var Rules = []string{RuleUnreachable, RuleStatus, RuleRedirected, RuleNoindex, RuleRobots, RuleCanonical, RuleTitle, RuleH1, RuleSitemapMissing, RuleSitemapExtra,
	RuleHreflangCode, RuleHreflangSelf, RuleHreflangReturn, RuleHreflangXDefault, RuleHreflangMissing, RuleHreflangWrongPage, RuleHreflangNotOffered,
	RuleHreflangDuplicate, RuleHreflangStatus, RuleHreflangCanonical, RuleHreflangNoindex, RuleHreflangSitemap, RuleRedirectMap}

// RuleTitles name each rule's problems, as a heading over them.
var RuleTitles = map[string]string{
	RuleUnreachable:    "Pages that gave no answer",
	RuleStatus:         "Planned pages that do not answer 200",
	RuleRedirected:     "Planned pages that redirect",
	RuleNoindex:        "Pages hidden from search engines (noindex)",
	RuleRobots:         "Pages robots.txt disallows",
	RuleCanonical:      "Pages whose canonical names another URL",
	RuleTitle:          "Pages whose title is not the brief's SEO title",
	RuleH1:             "Pages whose H1 is not the brief's",
	RuleSitemapMissing: "Planned pages missing from the live sitemaps",
	RuleSitemapExtra:   "URLs the live sitemaps list but the plan does not",
	RuleRedirectMap:    "Old URLs that do not answer as the redirect map says",
	// A localized plan's hreflang, by the names the SEO checkers use.
	RuleHreflangCode:       "Incorrect hreflang language or region codes",
	RuleHreflangSelf:       "Missing self-referencing hreflang",
	RuleHreflangReturn:     "Missing hreflang return links",
	RuleHreflangXDefault:   "Missing x-default hreflang",
	RuleHreflangMissing:    "Alternates the plan has that the page does not name",
	RuleHreflangWrongPage:  "hreflang pointing where the plan has another page",
	RuleHreflangNotOffered: "hreflang for a locale where the page is not offered",
	RuleHreflangDuplicate:  "Multiple hreflang entries for one language",
	RuleHreflangStatus:     "hreflang to non-200 URLs",
	RuleHreflangCanonical:  "hreflang to non-canonical URLs",
	RuleHreflangNoindex:    "hreflang to noindex pages",
	RuleHreflangSitemap:    "HTML and sitemap hreflang disagree",
}

func cmpRule(r string) int { return slices.Index(Rules, r) }

// checker is one check's state.
type checker struct {
	cfg    Config
	base   string // where the site is served, ending in /
	prod   string // the plan's base URL, ending in /
	robots string // the site's robots.txt ("" when it has none)
	rep    *Report
	mu     sync.Mutex
	status map[string]int // what each planned URL (production form) answered
	done   int            // pages and old URLs checked, of total
	total  int
	// A localized plan's: what each planned URL's page and the sitemaps
	// name as its alternates (hreflang.go), and the planned URLs.
	localized bool
	live      map[string]*live
	mapAlts   map[string][]alt
	byURL     map[string]plannedURL
}

// add records a problem; the checks run side by side.
func (c *checker) add(p Problem) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rep.add(p, c.cfg.MaxProblems)
}

// tick counts one page or old URL checked.
func (c *checker) tick() {
	if c.cfg.Progress == nil {
		return
	}
	c.mu.Lock()
	c.done++
	done := c.done
	c.mu.Unlock()
	c.cfg.Progress(done, c.total)
}

// each runs fn for 0..n-1, cfg.Concurrency at a time, until ctx ends.
func (c *checker) each(ctx context.Context, n int, fn func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(c.cfg.Concurrency, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
				c.tick()
			}
		}()
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// served is a planned (production) URL where the site is served.
func (c *checker) served(u string) string {
	if rest, ok := strings.CutPrefix(u, c.prod); ok {
		return c.base + rest
	}
	if strings.TrimSuffix(u, "/")+"/" == c.prod {
		return c.base
	}
	// On the plan's host outside its base path (a path override such as
	// /legal/privacy): the same path on the served host.
	if rest, ok := strings.CutPrefix(u, site.Origin(c.prod)+"/"); ok {
		return site.Origin(c.base) + "/" + rest
	}
	return u
}

// planned is a URL the site names, in the plan's (production) form: on
// the served host it is rebased back; a relative one is resolved
// against from.
func (c *checker) planned(u, from string) string {
	if f, err := url.Parse(from); err == nil {
		if r, err := f.Parse(strings.TrimSpace(u)); err == nil {
			u = r.String()
		}
	}
	if rest, ok := strings.CutPrefix(u, c.base); ok {
		return c.prod + rest
	}
	if u+"/" == c.base {
		return c.prod
	}
	if rest, ok := strings.CutPrefix(u, site.Origin(c.base)+"/"); ok {
		return site.Origin(c.prod) + "/" + rest
	}
	return u
}

// UnreachableError is a check that could not run: the site gave no
// answer at all (its name does not resolve, its address is refused, the
// connection fails). It is no problem of the site's pages, and the
// check is no report.
type UnreachableError struct {
	Base, Reason string
}

func (e *UnreachableError) Error() string {
	return "The site at " + e.Base + " could not be reached, so nothing was checked: " + e.Reason + "."
}

// reason is why a fetch could not be made, in words: the fetch client's
// errors say it (Reason), without the addresses a name resolved to.
func reason(err error) string {
	var r interface{ Reason() string }
	if errors.As(err, &r) {
		return r.Reason()
	}
	if m := site.ErrorMessage(err); site.ErrorCode(err) != site.EInternal {
		return m
	}
	return err.Error()
}

// reach asks for the base: a site that gives no answer at all is not
// checked page by page (sixty "no answer" problems, one cause). Errors:
// *UnreachableError, ctx's.
func (c *checker) reach(ctx context.Context) error {
	_, err := c.cfg.Hop(ctx, "GET", c.base, 1)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return &UnreachableError{Base: c.base, Reason: reason(err)}
}

// readRobots reads the robots.txt of the host the site is served on (""
// when there is none).
func (c *checker) readRobots(ctx context.Context) string {
	a, err := c.cfg.Hop(ctx, "GET", site.Origin(c.base)+"/robots.txt", 512<<10)
	if err != nil || a.Status != 200 {
		return ""
	}
	return string(a.Body)
}

// page checks one planned page.
func (c *checker) page(ctx context.Context, p *site.Page, u string) {
	where := c.served(u)
	problem := func(rule, severity, msg string) {
		c.add(Problem{Rule: rule, URL: u, PageID: p.ID, Page: p.Title, Message: msg, Severity: severity})
	}
	a, err := c.cfg.Hop(ctx, "GET", where, maxPageBody)
	if err != nil {
		problem(RuleUnreachable, Error, "No answer from "+where+": "+reason(err)+".")
		return
	}
	c.mu.Lock()
	c.status[u] = a.Status
	c.mu.Unlock()
	lv := &live{status: a.Status}
	if c.localized {
		defer c.noted(u, lv)
	}
	switch {
	case a.Status >= 300 && a.Status < 400:
		problem(RuleRedirected, Error, "A planned page redirects: "+where+" answers "+strconv.Itoa(a.Status)+" to "+orNothing(a.Header["location"])+".")
		return
	case a.Status != 200:
		problem(RuleStatus, Error, where+" answers "+strconv.Itoa(a.Status)+", not 200.")
		return
	}
	// Pages planned out of the sitemap may be kept from search engines
	// on purpose: a warning, not an error.
	hidden := Error
	if !p.InSitemap {
		hidden = Warning
	}
	head := readHead(a.Body)
	if v := a.Header["x-robots-tag"]; hasNoindex(v) {
		problem(RuleNoindex, hidden, "Its X-Robots-Tag header says “"+v+"”: search engines leave it out.")
		lv.noindex = true
	}
	if head.robots != "" && hasNoindex(head.robots) {
		problem(RuleNoindex, hidden, "Its meta robots tag says “"+head.robots+"”: search engines leave it out.")
		lv.noindex = true
	}
	for _, al := range append(head.alternates, linkAlternates(a.Header["link"])...) {
		lv.alts = append(lv.alts, alt{al.lang, c.planned(al.href, where)})
	}
	canonical := head.canonical
	if canonical == "" {
		canonical = linkCanonical(a.Header["link"])
	}
	if canonical != "" {
		lv.canonical = c.planned(canonical, where)
		if got := lv.canonical; got != u {
			problem(RuleCanonical, Error, "Its canonical names "+got+", not its own URL: search engines index that one instead.")
		}
	}
	if c.robots != "" && !grobotstxt.AgentAllowed(c.robots, "Googlebot", where) {
		problem(RuleRobots, hidden, "The site's robots.txt disallows it for Googlebot.")
	}
	// Words the brief planned: a copy edit is not a launch blocker, a
	// warning.
	if want := strings.Join(strings.Fields(p.Brief.SEOTitle), " "); want != "" && head.title != want {
		problem(RuleTitle, Warning, "Its <title> is “"+orNone(head.title)+"”; the brief says “"+want+"”.")
	}
	if want := strings.Join(strings.Fields(p.Brief.H1), " "); want != "" && head.h1 != want {
		problem(RuleH1, Warning, "Its <h1> is “"+orNone(head.h1)+"”; the brief says “"+want+"”.")
	}
}

// orNone is a text the page has, or says it has none.
func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func orNothing(s string) string {
	if s == "" {
		return "nowhere (no Location)"
	}
	return s
}

// hasNoindex reports whether a robots directive list says noindex (or
// none).
func hasNoindex(v string) bool {
	for _, d := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r == ',' || r == ' ' }) {
		if d == "noindex" || d == "none" || strings.HasSuffix(d, ":noindex") {
			return true
		}
	}
	return false
}

// head is what a check reads of a page's <head>.
type head struct {
	robots     string // meta robots or googlebot
	canonical  string // link rel=canonical
	alternates []alt  // link rel=alternate hreflang, as written
	title      string // the <title>'s text, its spaces collapsed
	h1         string // the first <h1>'s text, its spaces collapsed
}

// readHead reads the meta robots tag, the canonical link and the title
// of an HTML page's head, and the text of its first <h1>.
func readHead(body []byte) head {
	var h head
	z := html.NewTokenizer(bytes.NewReader(body))
	inBody := false
	var text *strings.Builder // the title's or the first h1's, while in it
	var into *string
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			return h
		case html.TextToken:
			if text != nil {
				text.Write(z.Text())
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); text != nil && (string(name) == "title" || string(name) == "h1") {
				*into, text = strings.Join(strings.Fields(text.String()), " "), nil
				if inBody {
					return h // the first h1 read: nothing more is needed
				}
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "body":
				inBody = true
			case "title":
				if !inBody && tt == html.StartTagToken && h.title == "" {
					text, into = &strings.Builder{}, &h.title
				}
			case "h1":
				if tt == html.StartTagToken && h.h1 == "" {
					inBody, text, into = true, &strings.Builder{}, &h.h1
				}
			case "meta", "link":
				if inBody {
					continue
				}
				attrs := map[string]string{}
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					attrs[string(k)] = string(v)
				}
				if string(name) == "meta" {
					if n := strings.ToLower(attrs["name"]); n == "robots" || n == "googlebot" {
						h.robots = strings.TrimSpace(strings.Join(nonEmpty(h.robots, attrs["content"]), ", "))
					}
				} else if rel := strings.Fields(strings.ToLower(attrs["rel"])); slices.Contains(rel, "canonical") && h.canonical == "" {
					h.canonical = attrs["href"]
				} else if slices.Contains(rel, "alternate") && attrs["hreflang"] != "" {
					h.alternates = append(h.alternates, alt{strings.TrimSpace(attrs["hreflang"]), strings.TrimSpace(attrs["href"])})
				}
			}
		}
	}
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// linkCanonical is the canonical URL a Link header names ("" if none).
func linkCanonical(v string) string {
	for _, part := range strings.Split(v, ",") {
		target, params, ok := strings.Cut(part, ";")
		if !ok || !strings.Contains(strings.ToLower(params), "canonical") {
			continue
		}
		return strings.Trim(strings.TrimSpace(target), "<>")
	}
	return ""
}

// sitemaps compares the live sitemaps (robots.txt's, else /sitemap.xml)
// with the plan: planned pages they miss, and URLs they list that the
// plan keeps out of its sitemap or does not have.
func (c *checker) sitemaps(ctx context.Context, t *site.Tree) {
	listed := map[string]bool{}
	rd := &sitemap.Reader{Web: c.cfg.Open}
	_, err := rd.Read(ctx, site.Origin(c.base)+"/", func(_ *sitemap.SourceFile, f *sitemap.Found) error { // the host's robots.txt, else /sitemap.xml
		u := c.planned(f.Loc, c.base)
		listed[u] = true
		for _, a := range f.Alternates {
			c.mapAlts[u] = append(c.mapAlts[u], alt{a.Hreflang, c.planned(a.Href, c.base)})
		}
		return nil
	})
	c.rep.Sitemaps = len(listed)
	if err != nil {
		c.add(Problem{Rule: RuleSitemapMissing, URL: c.base + "sitemap.xml", Message: "The site's sitemaps could not be read: " + site.ErrorMessage(err), Severity: Error})
		return
	}
	inPlan := map[string]*site.Page{}
	t.WalkLocaleURLs(func(p *site.Page, _, u string) { // in a localized plan, each locale's where the page is offered
		if u != "" {
			inPlan[u] = p
			if p.InSitemap && !listed[u] {
				c.add(Problem{Rule: RuleSitemapMissing, URL: u, PageID: p.ID, Page: p.Title, Severity: Error,
					Message: "Planned in the sitemap, but the site's sitemaps do not list it."})
			}
		}
	})
	for _, u := range slices.Sorted(func(yield func(string) bool) {
		for u := range listed {
			if !yield(u) {
				return
			}
		}
	}) {
		switch p := inPlan[u]; {
		case p == nil:
			c.add(Problem{Rule: RuleSitemapExtra, URL: u, Severity: Error, Message: "The site's sitemaps list it, but the plan has no such page."})
		case !p.InSitemap:
			c.add(Problem{Rule: RuleSitemapExtra, URL: u, PageID: p.ID, Page: p.Title, Severity: Error,
				Message: "The site's sitemaps list it, but the plan keeps it out of the sitemap."})
		}
	}
}

// redirect checks one rule of the map: a redirect answers one 301 or 308
// hop to its page, which answers 200; a retired URL answers 410.
func (c *checker) redirect(ctx context.Context, t *site.Tree, m site.Mapping) {
	where := c.servedOld(m.From)
	problem := func(msg string) {
		p := Problem{Rule: RuleRedirectMap, URL: m.From, Message: msg, Severity: Error}
		if pg := t.Page(m.PageID); pg != nil {
			p.PageID, p.Page = pg.ID, pg.Title
		}
		c.add(p)
	}
	a, err := c.cfg.Hop(ctx, "HEAD", where, 0)
	if err != nil {
		problem("No answer from " + where + ": " + reason(err) + ".")
		return
	}
	if m.Disposition == site.DispositionRetire {
		if a.Status != 410 {
			problem("Retired in the map, but " + where + " answers " + strconv.Itoa(a.Status) + ", not 410.")
		}
		return
	}
	switch {
	case a.Status == 302 || a.Status == 303 || a.Status == 307:
		problem(where + " answers a temporary " + strconv.Itoa(a.Status) + "; the map says 301 or 308 to " + m.To + ".")
		return
	case a.Status != 301 && a.Status != 308:
		problem(where + " answers " + strconv.Itoa(a.Status) + "; the map says a redirect to " + m.To + ".")
		return
	}
	to := c.planned(a.Header["location"], where)
	if to != m.To {
		problem(where + " redirects to " + to + "; the map says " + m.To + ".")
		return
	}
	c.mu.Lock()
	st, ok := c.status[to]
	c.mu.Unlock()
	if !ok {
		b, err := c.cfg.Hop(ctx, "HEAD", c.served(to), 0)
		if err != nil {
			problem("Its target " + to + " gives no answer: " + reason(err) + ".")
			return
		}
		st = b.Status
	}
	switch {
	case st >= 300 && st < 400:
		problem("A chain: " + where + " redirects to " + to + ", which redirects again; every old URL must land in one hop.")
	case st != 200:
		problem("Its target " + to + " answers " + strconv.Itoa(st) + ", not 200.")
	}
}

// servedOld is an old URL where the site is served: its path and query
// on the base's host (old URLs are paths of the host, whatever the
// plan's base path).
func (c *checker) servedOld(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	rest := p.EscapedPath()
	if rest == "" {
		rest = "/"
	}
	if p.RawQuery != "" {
		rest += "?" + p.RawQuery
	}
	return site.Origin(c.base) + rest
}
