package site

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gosimple/slug"
)

// Page kinds.
const (
	KindPage        = "page"
	KindGroup       = "group"
	KindPlaceholder = "placeholder"
	KindExternal    = "external"
)

// Kinds lists the page kinds in display order.
var Kinds = []string{KindPage, KindGroup, KindPlaceholder, KindExternal}

// Placements of root pages: the main tree, utility and footer navigation.
const (
	PlacementMain    = "main"
	PlacementUtility = "utility"
	PlacementFooter  = "footer"
)

// Placements lists the placements in display order.
var Placements = []string{PlacementMain, PlacementUtility, PlacementFooter}

// Statuses lists the workflow states of a page in order.
var Statuses = []string{"planned", "in_progress", "review", "approved", "live"}

// StatusOf is the status a label names: a stored value, or the label
// the app shows for it ("in progress"), in any case, with spaces,
// hyphens or underscores between its words. It is "" for no status.
func StatusOf(label string) string {
	words := strings.FieldsFunc(strings.ToLower(label), func(r rune) bool { return r == ' ' || r == '-' || r == '_' || r == '\t' })
	s := strings.Join(words, "_")
	if slices.Contains(Statuses, s) {
		return s
	}
	return ""
}

// StatusPlanned is the status of a new page; StatusLive that of a page
// the site has now.
const (
	StatusPlanned = "planned"
	StatusLive    = "live"
)

// Changefreqs lists the values the sitemaps protocol allows.
var Changefreqs = []string{"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}

// MaxDepth is how many levels a plan may have (the roots are level 1):
// no real site is a hundred levels deep, and a tree deeper than SQLite
// can delete in one statement (about a thousand) would be stuck.
const MaxDepth = 100

// Limits on free-text fields, in characters (a slug's in bytes), so one
// request cannot store megabytes.
const (
	MaxTitleLen = 300
	MaxSlugLen  = 200
	MaxTextLen  = 10000
	MaxShortLen = 100
)

// Team is a group of users that owns projects.
type Team struct {
	ID   int64
	Name string
}

// Project is one website plan.
type Project struct {
	ID                int64
	TeamID            int64
	Name              string
	BaseURL           string
	TrailingSlash     bool
	DefaultChangefreq string
	DefaultPriority   *float64
	Lastmod           string
	SitemapLocation   string // directory URL the sitemap files are published in; "": the base URL's
	Version           int64
	PageCount         int
	UpdatedAt         time.Time
	// CommentVersion counts the comments written and resolved on the
	// plan's pages: with Version, it names what the outline shows.
	CommentVersion int64
	// Locales are the plan's markets (locale.go); none: one language.
	Locales []Locale
	// XDefault is the page hreflang's x-default points at (a language
	// selector); 0: each page's variant in the default locale.
	XDefault int64
}

// Page is one node of a project's tree. ParentID 0 means a root.
type Page struct {
	ID            int64
	ProjectID     int64
	ParentID      int64
	Position      int
	Title         string
	Slug          string
	SlugAuto      bool // Slug follows Title
	Path          string
	Kind          string
	Placement     string
	Type          string
	Status        string
	Assignee      string
	Notes         string
	NotesPublic   bool // the client sees the notes on a share link
	InSitemap     bool
	InHTMLSitemap bool
	Priority      *float64
	Changefreq    string
	Lastmod       string
	Version       int64
	ChildCount    int // filled by queries that count children
	OpenComments  int // open comment threads, filled with ChildCount
	LinkCount     int // cross-links from or to the page, filled with ChildCount
	Brief         Brief
	// Variants are the page in the plan's locales, by tag: in the default
	// locale only its state (the page is its own variant there).
	Variants map[string]Variant
}

// IsHome reports whether p is the home page: the page with an empty slug
// at the root of the main tree, with no path of its own.
func (p *Page) IsHome() bool {
	return p.ParentID == 0 && p.Placement == PlacementMain && p.Slug == "" && p.Path == "" && p.Kind == KindPage
}

// Link is a cross-link between two pages of one project.
type Link struct {
	ID        int64
	ProjectID int64
	FromID    int64
	ToID      int64
	Label     string
	FromTitle string // filled by queries that join titles
	ToTitle   string
}

// NewPage returns a page with the defaults: kind page, placement main,
// status planned, in the HTML sitemap, and in the sitemap unless its
// title names a page sites keep out of search (KeptFromSearch).
func NewPage(title string) Page {
	p := Page{
		Title: title, Slug: Slugify(title), SlugAuto: true,
		Kind: KindPage, Placement: PlacementMain, Status: StatusPlanned,
		InHTMLSitemap: true,
	}
	p.InSitemap = !p.KeptFromSearch()
	return p
}

// searchPrivate names the pages sites keep out of search engines (their
// robots.txt usually disallows them): a visitor's own pages and the
// shop's steps, which no one should land on from a search.
var searchPrivate = []string{
	"cart", "basket", "checkout", "account", "my-account", "login", "log-in", "logout", "log-out",
	"sign-in", "signin", "sign-up", "signup", "register", "search", "wishlist", "wish-list",
}

// KeptFromSearch reports whether p's slug or page type names a page
// sites keep out of search (cart, checkout, account, login, search,
// wishlist and the like). Such a page is made "not in sitemap" unless
// someone says otherwise, and an export that has it says so.
func (p *Page) KeptFromSearch() bool { return KeptSlug(p.Slug) || KeptType(p.Type) }

// KeptSlug reports whether a slug names a page sites keep out of search.
func KeptSlug(slug string) bool { return slices.Contains(searchPrivate, slug) }

// KeptType reports whether a page type names pages sites keep out of
// search ("Log in", "cart").
func KeptType(pageType string) bool { return slices.Contains(searchPrivate, typeKey(pageType)) }

// typeKey is a page type as searchPrivate spells it: lower case, words
// joined by hyphens ("Log in" is "log-in"). It runs on every page an
// export writes, so it is no full slug and leaves long types alone.
func typeKey(t string) string {
	if t == "" || len(t) > len("my-account") {
		return ""
	}
	return strings.Join(strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return r == ' ' || r == '-' || r == '_' }), "-")
}

// Slugify derives a URL slug from a title.
func Slugify(title string) string {
	s := slug.Make(title)
	if len(s) > MaxSlugLen {
		s = strings.TrimRight(s[:MaxSlugLen], "-")
	}
	return s
}

// PageEdit is what an edit of a page did, as the store saw it in the
// edit's own transaction, so that what shows it needs no second read.
type PageEdit struct {
	Before, After Page
	// URLs is how many URLs the edit changed, when it gave the page
	// another URL: the page's and those of the pages below it; 0 when the
	// page's URL stayed.
	URLs int
	// Launched says the plan has a launched version: each launched URL
	// the edit moved has its redirect recorded.
	Launched bool
	// From and To are the page's URL before and after a move (the path
	// its branch's URLs extend, for a page without a URL of its own).
	From, To string
}

// HasURL reports whether the page's kind gives it a URL of its own.
func (p *Page) HasURL() bool { return p.Kind == KindPage }

// Validate checks a page's own fields, once its title is trimmed and,
// where the slug follows the title (SlugAuto), the slug derived from it:
// the one place a slug is derived on an edit. It returns EInvalid with a
// message per field.
func (p *Page) Validate() error {
	f := FieldErrors{}
	p.Title = strings.TrimSpace(p.Title)
	if p.SlugAuto {
		p.Slug = Slugify(p.Title)
	}
	if p.Title == "" {
		f.Add("title", "Title is required.")
	} else if msg := TextProblem("Title", p.Title, MaxTitleLen, false); msg != "" {
		f.Add("title", msg)
	}
	if msg := SlugProblem(p.Slug); msg != "" {
		f.Add("slug", msg)
	}
	if msg := PathProblem(p.Path); msg != "" {
		f.Add("path", msg)
	}
	if !slices.Contains(Kinds, p.Kind) {
		f.Add("kind", "Kind must be one of page, group, placeholder, external.")
	}
	if !slices.Contains(Placements, p.Placement) {
		f.Add("placement", "Placement must be one of main, utility, footer.")
	}
	if !slices.Contains(Statuses, p.Status) {
		f.Add("status", "Status must be one of "+strings.Join(Statuses, ", ")+".")
	}
	if msg := TextProblem("Page type", p.Type, MaxShortLen, false); msg != "" {
		f.Add("type", msg)
	}
	if msg := TextProblem("Assignee", p.Assignee, MaxShortLen, false); msg != "" {
		f.Add("assignee", msg)
	}
	if msg := TextProblem("Notes", p.Notes, MaxTextLen, true); msg != "" {
		f.Add("notes", msg)
	}
	if msg := PriorityProblem(p.Priority); msg != "" {
		f.Add("priority", msg)
	}
	if p.Changefreq != "" && !slices.Contains(Changefreqs, p.Changefreq) {
		f.Add("changefreq", "Change frequency must be one of "+strings.Join(Changefreqs, ", ")+".")
	}
	if msg := LastmodProblem(p.Lastmod); msg != "" {
		f.Add("lastmod", msg)
	}
	p.Brief.validate(f)
	return f.Err()
}

// ProjectNameProblem says what is wrong with a project's name, trimmed,
// or "": what names the field.
func ProjectNameProblem(what, name string) string {
	if name == "" {
		return what + " is required."
	}
	return TextProblem(what, name, MaxTitleLen, false)
}

// Validate checks a project's fields and normalises its base URL. It returns
// EInvalid with a message per field.
func (p *Project) Validate() error {
	f := FieldErrors{}
	p.Name = strings.TrimSpace(p.Name)
	if msg := ProjectNameProblem("Name", p.Name); msg != "" {
		f.Add("name", msg)
	}
	base, err := NormalizeBaseURL(p.BaseURL)
	if err != nil {
		f.Add("base_url", ErrorMessage(err))
	} else {
		p.BaseURL = base
	}
	if p.DefaultChangefreq != "" && !slices.Contains(Changefreqs, p.DefaultChangefreq) {
		f.Add("default_changefreq", "Change frequency must be one of "+strings.Join(Changefreqs, ", ")+".")
	}
	if msg := PriorityProblem(p.DefaultPriority); msg != "" {
		f.Add("default_priority", msg)
	}
	if msg := LastmodProblem(p.Lastmod); msg != "" {
		f.Add("lastmod", msg)
	}
	if loc, msg := p.location(base); msg != "" {
		f.Add("sitemap_location", msg)
	} else {
		p.SitemapLocation = loc
	}
	if err := CheckLocales(p.BaseURL, p.Locales); err != nil {
		f.Add("locales", ErrorMessage(err))
	}
	return f.Err()
}

// location normalises the sitemap location, which must be a directory on
// the host of base, the normalised base URL ("" when invalid): the
// sitemaps.org scope rule lets a sitemap list only URLs of its own host.
func (p *Project) location(base string) (string, string) {
	raw := strings.TrimSpace(p.SitemapLocation)
	if raw == "" {
		return "", ""
	}
	loc, err := NormalizeBaseURL(raw)
	if err != nil {
		return raw, ErrorMessage(err)
	}
	if base != "" && Origin(loc) != Origin(base) {
		return raw, "The sitemap location must be on the base URL's host, " + Origin(base) + "; a sitemap may only list URLs of its own host."
	}
	return Dir(loc), ""
}

// SlugProblem says what is wrong with a slug, or "" if nothing is.
func SlugProblem(s string) string {
	switch {
	case strings.Contains(s, "/"):
		return "Slug " + strconv.Quote(s) + " has a slash; use the parent page for deeper paths, or a path override."
	case s == "." || s == "..":
		return "Slug cannot be \".\" or \"..\"."
	case !utf8.ValidString(s):
		return "Slug is not valid UTF-8 text."
	case len(s) > MaxSlugLen:
		return "Slug is longer than 200 bytes."
	case strings.ContainsAny(s, "?#"):
		return "Slug cannot contain ? or #."
	case hasControl(s):
		return "Slug has a control character."
	}
	return ""
}

// SlugAdvice says how a slug, typed by hand, reads badly in its URL, and
// what Slugify would make of it, or "" when it reads well: spaces and
// ASCII punctuation other than - . _ ~ print percent-encoded
// ("Camp%20Kitchen"), and capitals make a URL that differs from the one
// people type. Letters and digits of other scripts are the team's choice
// and pass. A slug derived from a title always passes.
func SlugAdvice(s string) string {
	var spaces, capitals bool
	var marks []string
	for _, r := range s {
		switch {
		case r == ' ' || unicode.IsSpace(r):
			spaces = true
		case unicode.IsUpper(r):
			capitals = true
		case r < utf8.RuneSelf && !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || strings.ContainsRune("-._~", r)) && !slices.Contains(marks, string(r)):
			marks = append(marks, string(r))
		}
	}
	var what []string
	if spaces {
		what = append(what, "spaces")
	}
	if capitals {
		what = append(what, "capitals")
	}
	if len(marks) > 0 {
		what = append(what, "“"+strings.Join(marks, "”, “")+"”")
	}
	if len(what) == 0 {
		return ""
	}
	msg := "the slug “" + s + "” has " + joinAnd(what) + ": its URL reads “…/" + EncodeSegment(s) + "”"
	if to := Slugify(s); to != "" && to != s {
		msg += "; use “" + to + "”"
	}
	return msg
}

// joinAnd joins words as a sentence lists them: "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// PathProblem says what is wrong with a path override, or "" if nothing is.
func PathProblem(s string) string {
	if s == "" {
		return ""
	}
	if !utf8.ValidString(s) {
		return "Path override is not valid UTF-8 text."
	}
	if len(s) > 2048 {
		return "Path override is longer than 2,048 bytes."
	}
	if hasControl(s) {
		return "Path override has a control character."
	}
	if strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") {
		return ""
	}
	if _, err := NormalizeURL(s); err != nil {
		return "Path override must start with / or be an absolute http(s) URL."
	}
	return ""
}

// PriorityProblem says what is wrong with a priority, or "" if nothing is.
func PriorityProblem(p *float64) string {
	if p == nil {
		return ""
	}
	if math.IsNaN(*p) || *p < 0 || *p > 1 {
		return "Priority must be between 0.0 and 1.0, got " + strconv.FormatFloat(*p, 'f', -1, 64) + "."
	}
	return ""
}

var (
	rePlainDecimal = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)$`)
	reDate         = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	reDateTime     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$`)
	reNoZone       = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$`)
)

// LastmodProblem says what is wrong with a lastmod value, or "" if it is
// empty or a W3C Datetime search engines accept: a date, or a date-time with
// a time zone.
func LastmodProblem(s string) string {
	switch {
	case s == "":
		return ""
	case reDate.MatchString(s):
		if _, err := time.Parse("2006-01-02", s); err != nil {
			return "Last modified " + strconv.Quote(s) + " is not a real date."
		}
		return ""
	case reDateTime.MatchString(s):
		if _, err := time.Parse(time.RFC3339, withSeconds(s)); err != nil {
			return "Last modified " + strconv.Quote(s) + " is not a real date and time."
		}
		return ""
	case reNoZone.MatchString(s):
		return "Last modified " + strconv.Quote(s) + " has no time zone; add Z or an offset such as +01:00."
	}
	return "Last modified must be a date (2026-11-01) or a date-time with a zone (2026-11-01T10:00:00+01:00)."
}

// withSeconds adds ":00" to an hh:mm time so RFC 3339 parsing accepts it.
func withSeconds(s string) string {
	if len(s) >= 16 && (len(s) == 16 || s[16] != ':') {
		return s[:16] + ":00" + s[16:]
	}
	return s
}

// FormatPriority writes a priority as the protocol wants: decimal, never
// an exponent, and "1.0" rather than "1".
func FormatPriority(p float64) string {
	s := strconv.FormatFloat(p, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// ParsePriority parses a priority typed by a user; "" means none. A
// decimal comma ("0,8") is read as European users type it; exponents,
// hex, infinities and digit separators are refused.
func ParsePriority(s string) (*float64, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, ""
	}
	s = strings.Replace(s, ",", ".", 1)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !rePlainDecimal.MatchString(s) {
		return nil, "Priority must be a number between 0.0 and 1.0, such as 0.8 or 0,8."
	}
	return &v, PriorityProblem(&v)
}

func hasControl(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' { // C0, DEL, C1 (U+0085 too), line and paragraph separators
			return true
		}
	}
	return false
}

// SitemapLastmod returns a valid lastmod in the form the sitemap XSDs
// accept: a date as is, a date-time with seconds added when the user left
// them out. The time zone the user gave is kept.
func SitemapLastmod(s string) string {
	if len(s) > len("2006-01-02") && reDateTime.MatchString(s) {
		return withSeconds(s)
	}
	return s
}
