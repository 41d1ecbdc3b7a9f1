package site

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
