package site

import (
	"net/url"
	"strconv"
	"strings"
)

// The facts of the sitemaps protocol (sitemaps.org 0.9) and of the files
// siteplan hands over that both the export, which writes them, and the
// sitemap reader and check, which read them back, hold to.

// SitemapNamespace is the one namespace of a urlset and a sitemap index.
const SitemapNamespace = "http://www.sitemaps.org/schemas/sitemap/0.9"

// Protocol limits per file.
const (
	MaxSitemapURLs  = 50_000     // URLs of a urlset, sitemaps of an index
	MaxSitemapBytes = 52_428_800 // uncompressed, declaration and root element included
)

// Warning says why a page was left out of a file, or of a plan, or what a
// search engine will make of it. Info warnings are notes, not problems.
type Warning struct {
	PageID int64
	Title  string
	Reason string
	Info   bool
}

// OtherScheme returns loc with http and https swapped, or "": the twin a
// sitemap should not list beside it.
func OtherScheme(loc string) string {
	if rest, ok := strings.CutPrefix(loc, "http://"); ok {
		return "https://" + rest
	}
	if rest, ok := strings.CutPrefix(loc, "https://"); ok {
		return "http://" + rest
	}
	return ""
}

// sessionParams are query parameters that mark a session-specific URL.
var sessionParams = map[string]bool{"sid": true, "sessionid": true, "jsessionid": true, "phpsessid": true}

// HasSessionParam reports whether loc carries a session id, which search
// engines index as many URLs.
func HasSessionParam(loc string) bool {
	_, q, ok := strings.Cut(loc, "?")
	if !ok {
		return false
	}
	vals, err := url.ParseQuery(q)
	if err != nil {
		return false
	}
	for k := range vals {
		if sessionParams[strings.ToLower(k)] {
			return true
		}
	}
	return false
}

// InventoryColumns are inventory.csv's columns. url, title, type,
// status, assignee, notes, priority, changefreq, lastmod and the brief's
// (BriefColumns) are the ones a CSV import reads back.
var InventoryColumns = append([]string{"url", "title", "type", "status", "assignee", "notes", "priority", "changefreq", "lastmod", "kind", "placement", "in_sitemap", "outline"},
	BriefColumns...)

// BriefColumns are a page's brief in inventory.csv: its fields, its
// blocks a line each (AppendBlockLines), the word target a number.
var BriefColumns = []string{"seo_title", "meta_description", "h1", "keyword", "intent", "blocks", "word_target", "content_owner", "due"}

// BriefFromCells reads a brief from its cells of a CSV (cell returns the
// cell of a BriefColumns column, "" when there is none): blocks a line
// each, "kind: note", the kind as stored or as BlockLabels names it. It
// is checked when its page is (a word target that is not a number is
// left out of range for that).
func BriefFromCells(cell func(column string) string) Brief {
	b := Brief{SEOTitle: cell("seo_title"), MetaDescription: cell("meta_description"), H1: cell("h1"), Keyword: cell("keyword"),
		Intent: cell("intent"), Owner: cell("content_owner"), Due: cell("due")}
	if w := strings.ReplaceAll(cell("word_target"), ",", ""); w != "" {
		n, err := strconv.Atoi(w)
		if err != nil {
			n = -1
		}
		b.WordTarget = n
	}
	b.Blocks = ParseBlockLines(cell("blocks"))
	return b
}

// FormulaStart reports whether a CSV cell that begins with b is one a
// spreadsheet would run as a formula (=, +, -, @, a tab or a carriage
// return first): the one home of that rule.
func FormulaStart(b byte) bool { return strings.IndexByte("=+-@\t\r", b) >= 0 }

// DefuseCell puts an apostrophe before a CSV cell a spreadsheet would run
// as a formula (FormulaStart).
func DefuseCell(s string) string {
	if s != "" && FormulaStart(s[0]) {
		return "'" + s
	}
	return s
}

// UndefuseCell takes off the apostrophe DefuseCell put on.
func UndefuseCell(s string) string {
	if len(s) > 1 && s[0] == '\'' && FormulaStart(s[1]) {
		return s[1:]
	}
	return s
}

// CheckMaxURLs checks a number of URLs a sitemap file may hold, as a
// user asks for fewer than the protocol's MaxSitemapURLs.
// Errors: EInvalid.
func CheckMaxURLs(n int) error {
	if n < 1 || n > MaxSitemapURLs {
		return Errorf(EInvalid, "URLs per file must be a number from 1 to 50,000, not %d.", n)
	}
	return nil
}
