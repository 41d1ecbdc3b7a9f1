package site

import (
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"
)

// What becomes of an old site's URL when the new one launches.
const (
	DispositionRedirect = "redirect" // to a page of the plan (301, or 308)
	DispositionRetire   = "retire"   // 410 Gone
	DispositionKeep     = "keep"     // the plan has the same URL
	DispositionReview   = "review"   // nobody knows yet: a person decides
)

// OldPage is a URL of the site a plan replaces, as a crawl, a sitemap or
// a list gives it, with what is known of it.
type OldPage struct {
	URL    string
	Title  string
	H1     string
	Clicks int // from Search Console or Analytics; 0 when unknown
}

// Mapping is where an old URL goes: its disposition, the page of the
// plan it redirects to (or is, when kept), how sure the matcher is and
// why, in words, and whether it is accepted (by the matcher when sure,
// else by a person). Only accepted mappings become redirect rules.
type Mapping struct {
	From        string
	Disposition string
	PageID      int64  // the target page; 0 for retire and review
	To          string // the target page's URL
	Status      int    // 301, 308 or 410; 0 for keep and review
	Confidence  float64
	Reason      string
	Accepted    bool
}

// OldURL is a URL of the old site as a plan holds it: what is known of
// it (OldPage) and where it goes (Mapping, whose From is the URL).
type OldURL struct {
	ID int64
	OldPage
	Mapping
	// Manual: a person decided it (accepted, retargeted, retired); a new
	// matching keeps it as it is.
	Manual bool
}

// Safe reports whether the old URL's visitors are looked after: an
// accepted redirect, or a URL the plan keeps. Clicks of the others are
// at risk.
func (o *OldURL) Safe() bool {
	return o.Accepted && (o.Disposition == DispositionRedirect || o.Disposition == DispositionKeep)
}

// Old-URL filters (OldFilter.Show): the rows a review looks at.
const (
	ShowAll       = ""
	ShowAwaiting  = "awaiting"  // not accepted yet
	ShowLow       = "low"       // not accepted, with a proposal below the matcher's bar
	ShowUnmatched = "unmatched" // no proposal at all
	ShowRetired   = "retired"   // 410
	ShowAccepted  = "accepted"
)

// OldShows lists the filters, in the order the view offers them.
var OldShows = []string{ShowAll, ShowAwaiting, ShowLow, ShowUnmatched, ShowRetired, ShowAccepted}

// OldFilter selects old URLs: by review state, by the old site's section
// (first path segment), by clicks, by words in the URL; a page of them.
type OldFilter struct {
	Show      string
	Section   string // "" every section; "/" the URLs at the root
	MinClicks int
	Search    string // part of the URL
	Offset    int
	Limit     int // 0: all
}

// Validate checks the filter. Errors: EInvalid.
func (f *OldFilter) Validate() error {
	ok := false
	for _, s := range OldShows {
		ok = ok || s == f.Show
	}
	if !ok {
		return Errorf(EInvalid, "Show %q is not one of awaiting, low, unmatched, retired, accepted.", f.Show)
	}
	if f.MinClicks < 0 || f.Offset < 0 || f.Limit < 0 {
		return Errorf(EInvalid, "Clicks, offset and limit cannot be negative.")
	}
	return nil
}

// OldSection is the old site's section a URL is in: its first path
// segment, lower case ("/" for a URL at the root).
func OldSection(rawURL string) string {
	p := rawURL
	if i := strings.Index(p, "://"); i >= 0 {
		p = p[i+3:]
		if j := strings.IndexByte(p, '/'); j >= 0 {
			p = p[j:]
		} else {
			p = "/"
		}
	}
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	i := strings.IndexByte(p, '/')
	if i < 0 {
		return "/" // a page at the root, or the root
	}
	return strings.ToLower(p[:i])
}

// Decision is what a person decides for old URLs: accept what was
// proposed, send them to a page, retire them (410), or open them for
// review again.
type Decision struct {
	Verb   string // DecideAccept, DecideRedirect, DecideRetire, DecideReopen
	PageID int64  // for DecideRedirect
	Status int    // 301 (default) or 308, for DecideRedirect
}

// Decision verbs.
const (
	DecideAccept   = "accept"
	DecideRedirect = "redirect"
	DecideRetire   = "retire"
	DecideReopen   = "reopen"
)

// Validate checks a decision. Errors: EInvalid.
func (d *Decision) Validate() error {
	switch d.Verb {
	case DecideAccept, DecideRetire, DecideReopen:
	case DecideRedirect:
		if d.PageID == 0 {
			return Errorf(EInvalid, "Choose the page the old URLs redirect to.")
		}
		if d.Status == 0 {
			d.Status = 301
		}
		if d.Status != 301 && d.Status != 308 {
			return Errorf(EInvalid, "A redirect is 301 or 308, not %d.", d.Status)
		}
	default:
		return Errorf(EInvalid, "Decision %q is not one of accept, redirect, retire, reopen.", d.Verb)
	}
	return nil
}

// RedirectStatus sums up a plan's old URLs: how many, how many accepted
// (a redirect or a kept URL), retired (410), awaiting a person (of them,
// with no proposal), and the clicks of the ones without an accepted
// redirect (or kept URL): the clicks at risk. Accepted, Retired and
// Awaiting add up to OldURLs.
type RedirectStatus struct {
	OldURLs      int `json:"old_urls"`
	Accepted     int `json:"accepted"`
	Awaiting     int `json:"awaiting"`
	Unmatched    int `json:"unmatched"`
	Retired      int `json:"retired"`
	Clicks       int `json:"clicks"`
	ClicksAtRisk int `json:"clicks_at_risk"`
}

// ProposalsShown is how many of the old URLs f selects (every page of
// it) an accept would change, not accepted yet and with a proposal, when
// the figures tell: f selects by review state alone. ok is false when it
// needs counting.
func (st RedirectStatus) ProposalsShown(f OldFilter) (n int, ok bool) {
	if f.Section != "" || f.MinClicks != 0 || f.Search != "" {
		return 0, false
	}
	switch f.Show {
	case ShowAll, ShowAwaiting, ShowLow:
		return st.Awaiting - st.Unmatched, true
	case ShowUnmatched, ShowAccepted:
		return 0, true
	}
	return 0, false
}

// AttachReport says what attaching an old site changed: URLs new to the
// plan, URLs no longer in the old site (removed), URLs kept, and how many
// of the kept ones a person had decided (left as they were).
type AttachReport struct {
	Added, Removed, Kept, KeptDecided int
	Accepted                          int // of the added and re-matched, accepted by the matcher
}

// MaxOldURLs is how many old URLs a plan may hold.
const MaxOldURLs = 200_000

// Mappings gives the old URLs' mappings with their targets' URLs in t
// (To). A redirect or keep whose page has no URL in t any more (a page
// made a group, say) waits for a person again, so that no rule points
// nowhere.
func (t *Tree) Mappings(olds []OldURL) []Mapping {
	out := make([]Mapping, len(olds))
	for i := range olds {
		m := olds[i].Mapping
		m.From = olds[i].URL
		if m.PageID != 0 {
			tag := ""
			m.To, tag = t.TargetURL(m.PageID, m.From)
			if m.To == "" && m.Disposition != DispositionRetire {
				m.Disposition, m.Accepted, m.Status = DispositionReview, false, 0
				m.Reason = "its page has no URL in the plan"
				if tag != "" && t.byID[m.PageID] != nil && !t.Offered(t.byID[m.PageID], tag) {
					m.Reason = "its page is not offered in " + tag
				}
			}
		} else if m.Disposition == DispositionRedirect || m.Disposition == DispositionKeep {
			m.Disposition, m.Accepted, m.Status = DispositionReview, false, 0
		}
		out[i] = m
	}
	return out
}

// TargetURL is where an old URL from redirects to on page id: in a
// localized plan the page's URL in the old URL's locale (LocaleOf), a
// /de/ page's to the page's German URL; else the page's URL. tag is
// that locale ("" in a plan of one language).
func (t *Tree) TargetURL(id int64, from string) (u, tag string) {
	if tag, _ = t.Project.LocaleOf(from); tag != "" {
		return t.LocaleURL(id, tag), tag
	}
	return t.URL(id), ""
}

// ParseRedirectMap reads a redirect map as the CSV export writes it and
// a spreadsheet gives it back: a header naming the columns from and to
// (status, accepted, confidence, reason read if there), then a row an old
// URL. A row's to is a URL of t's plan (or empty for a 410 or a URL left
// for review); status is 301, 308, 410, 200 for a URL kept, or empty;
// accepted is yes or no (empty: yes for a row with a status). Errors:
// EInvalid naming the line and what to fix; nothing is returned then.
func ParseRedirectMap(r io.Reader, t *Tree) ([]Mapping, error) {
	pages := map[string]int64{}
	t.WalkLocaleURLs(func(p *Page, _, u string) {
		if u != "" {
			pages[u] = p.ID
		}
	})
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, Errorf(EInvalid, "The redirect map has no header row.")
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
	}
	if _, ok := col["from"]; !ok {
		return nil, Errorf(EInvalid, "The redirect map's header row needs the columns from,to,status,accepted,confidence,reason.")
	}
	var out []Mapping
	seen := map[string]int{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, Errorf(EInvalid, "Line %d of the redirect map: %v.", pe.Line, pe.Err)
			}
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		cell := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return UndefuseCell(strings.TrimSpace(rec[i]))
			}
			return ""
		}
		m := Mapping{From: cell("from"), Reason: cell("reason")}
		if m.From == "" {
			continue
		}
		if prev, ok := seen[m.From]; ok {
			return nil, Errorf(EInvalid, "Line %d of the redirect map: %s is on line %d already.", line, m.From, prev)
		}
		seen[m.From] = line
		to, status := cell("to"), cell("status")
		switch status {
		case "301", "308", "":
			m.Disposition = DispositionRedirect
			m.Status, _ = strconv.Atoi(status)
			if to == "" {
				m.Disposition, m.Status = DispositionReview, 0
			}
		case "410":
			m.Disposition, m.Status = DispositionRetire, 410
		case "200":
			m.Disposition = DispositionKeep
		default:
			return nil, Errorf(EInvalid, "Line %d of the redirect map: status %q is not 301, 308, 410 or 200.", line, status)
		}
		if m.Disposition == DispositionRedirect || m.Disposition == DispositionKeep {
			if to == "" {
				to = m.From
			}
			id, ok := pages[to]
			if !ok {
				return nil, Errorf(EInvalid, "Line %d of the redirect map: %s is not a URL of the plan; give the URL of one of its pages.", line, to)
			}
			m.PageID, m.To = id, to
			if m.Status == 0 && m.Disposition == DispositionRedirect {
				m.Status = 301
			}
		}
		switch a := strings.ToLower(cell("accepted")); a {
		case "yes", "true", "1":
			m.Accepted = true
		case "no", "false", "0":
		case "":
			m.Accepted = m.Disposition != DispositionReview
		default:
			return nil, Errorf(EInvalid, "Line %d of the redirect map: accepted is yes or no, not %q.", line, a)
		}
		if m.Disposition == DispositionReview {
			m.Accepted = false
		}
		m.Confidence = 1
		if c := cell("confidence"); c != "" {
			if f, err := strconv.ParseFloat(c, 64); err == nil && f >= 0 && f <= 1 {
				m.Confidence = f
			}
		}
		out = append(out, m)
	}
}

// RedirectDiff is an old URL whose mapping differs between two plans:
// what it was and what it is, in words ("" when it was not there).
type RedirectDiff struct {
	URL, Before, After string
}

// CompareRedirects lists the old URLs whose mapping differs from one
// plan (from, its old URLs a) to another (to, b), in b's order then the
// ones removed; each side's mapping in words, its target named in its
// own plan.
func CompareRedirects(from, to *Tree, a, b []OldURL) []RedirectDiff {
	before := make(map[string]string, len(a))
	for i := range a {
		before[a[i].URL] = mappingWords(from, &a[i])
	}
	var out []RedirectDiff
	seen := make(map[string]bool, len(b))
	for i := range b {
		u, w := b[i].URL, mappingWords(to, &b[i])
		seen[u] = true
		if was, ok := before[u]; !ok || was != w {
			out = append(out, RedirectDiff{URL: u, Before: was, After: w})
		}
	}
	for i := range a {
		if !seen[a[i].URL] {
			out = append(out, RedirectDiff{URL: a[i].URL, Before: before[a[i].URL]})
		}
	}
	return out
}

// mappingWords says where an old URL goes: "redirect to “Pricing” (301)", "410
// Gone", "kept", "awaiting review"; a proposal not accepted says so.
func mappingWords(t *Tree, o *OldURL) string {
	var w string
	switch o.Disposition {
	case DispositionRetire:
		w = "410 Gone"
	case DispositionKeep:
		w = "kept"
	case DispositionRedirect:
		title := "a page"
		if p := t.Page(o.PageID); p != nil {
			title = "“" + p.Title + "”"
		}
		w = "redirect to " + title + " (" + strconv.Itoa(max(o.Status, 301)) + ")"
	default:
		return "awaiting review"
	}
	if !o.Accepted {
		w += ", proposed"
	}
	return w
}

// OldURLOf is an old site's URL as a plan keeps it: normalised as every
// URL siteplan reads (NormalizeURL: valid UTF-8, absolute http or https,
// control characters, quotes and spaces percent-encoded) and at most
// MaxURLLen long, so that every redirect map can carry it. Errors:
// EInvalid, naming the URL and what to fix.
func OldURLOf(raw string) (string, error) {
	if len(raw) > 4*MaxURLLen { // not worth normalising: refused as it is
		return "", Errorf(EInvalid, "An old URL of %s characters (%q…) is longer than %s, the most a URL may have: remove it from the file.",
			Thousands(len(raw)), clip(strings.ToValidUTF8(raw, "\uFFFD")), Thousands(MaxURLLen))
	}
	u, err := NormalizeURL(raw)
	if err != nil {
		return "", Errorf(EInvalid, "Old URL: %s", ErrorMessage(err))
	}
	u = withoutDotSegments(u)
	if len(u) > MaxURLLen {
		return "", Errorf(EInvalid, "Old URL %q is %s characters long once encoded; a URL may have at most %s: remove it from the file.",
			clip(u), Thousands(len(u)), Thousands(MaxURLLen))
	}
	return u, nil
}

// withoutDotSegments removes the "." and ".." segments of a normalised
// URL's path (RFC 3986, 5.2.4), as a browser does before it asks: no
// request for "/a/../b" reaches a server, one for "/b" does.
func withoutDotSegments(u string) string {
	i := strings.Index(u, "://")
	start := strings.IndexByte(u[i+3:], '/')
	if start < 0 {
		return u
	}
	start += i + 3
	end := len(u)
	if q := strings.IndexByte(u[start:], '?'); q >= 0 {
		end = start + q
	}
	p := u[start:end]
	if !strings.Contains(p, "/.") {
		return u
	}
	var out []string
	segs := strings.Split(p[1:], "/")
	for k, s := range segs {
		last := k == len(segs)-1
		switch s {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return u[:start] + "/" + strings.Join(out, "/") + u[end:]
}
