package site

import "strings"

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

// RedirectStatus sums up a plan's old URLs: how many, how many accepted,
// awaiting a person, with no proposal, retired, and the clicks of the
// ones without an accepted redirect (or kept URL): the clicks at risk.
type RedirectStatus struct {
	OldURLs      int `json:"old_urls"`
	Accepted     int `json:"accepted"`
	Awaiting     int `json:"awaiting"`
	Unmatched    int `json:"unmatched"`
	Retired      int `json:"retired"`
	Clicks       int `json:"clicks"`
	ClicksAtRisk int `json:"clicks_at_risk"`
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
