package site

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The briefs' SEO checks (Lint), each a rule.
const (
	LintDuplicateTitle       = "duplicate-title"
	LintDuplicateDescription = "duplicate-description"
	LintDuplicateH1          = "duplicate-h1"
	LintTitleLength          = "title-length"
	LintDescriptionLength    = "description-length"
	LintMissingH1            = "missing-h1"
	LintMissingDescription   = "missing-description"
	LintSharedKeyword        = "shared-keyword"
	LintKeywordUnused        = "keyword-unused"
	LintBlockNote            = "block-note"
	LintSlug                 = "slug"
)

// What search engines show of a title and a description, in characters:
// shorter says too little, longer is cut.
const (
	MinTitleLen       = 15
	MaxTitleShown     = 60
	MinDescriptionLen = 50
	MaxDescription    = 160
)

// LintProblem is one thing a page's brief should fix: the rule, the
// brief's field (its JSON key), the page and what is wrong, in words.
type LintProblem struct {
	Rule    string `json:"rule"`
	Field   string `json:"field"`
	PageID  int64  `json:"page_id"`
	Page    string `json:"page"`
	URL     string `json:"url"`
	Message string `json:"message"`
}

// LintReport is what Lint found in a plan.
type LintReport struct {
	Pages    int           `json:"pages"` // pages checked
	Problems []LintProblem `json:"problems"`
}

// Lint checks the briefs of a plan's pages (kind page, with a URL) as an
// SEO would: SEO titles, descriptions and H1s no two pages share, titles
// and descriptions of the length search engines show, an H1 and a
// description on every page in the sitemap, one page for each keyword,
// found in its title or H1, a note in every block whose type's
// template (templates, by page type) requires one, and a slug that reads
// well in its URL (SlugAdvice). Problems come in the
// plan's order, a page's in the order of its fields.
func Lint(t *Tree, templates map[string][]Block) *LintReport {
	type page struct {
		p   *Page
		url string
	}
	var pages []page
	t.WalkURLs(0, func(p *Page, u string) bool {
		if p.Kind == KindPage && u != "" {
			pages = append(pages, page{p, u})
		}
		return true
	})
	// Who else has the same title, description, H1 or keyword.
	same := map[string]map[string][]*Page{}
	for _, f := range []string{"seo_title", "meta_description", "h1", "keyword"} {
		same[f] = map[string][]*Page{}
	}
	for _, pg := range pages {
		b := &pg.p.Brief
		for f, v := range map[string]string{"seo_title": b.SEOTitle, "meta_description": b.MetaDescription, "h1": b.H1, "keyword": b.Keyword} {
			if k := lintKey(v); k != "" {
				same[f][k] = append(same[f][k], pg.p)
			}
		}
	}
	required := map[string]map[string]bool{} // the kinds of block each type's template wants a note in
	for ty, blocks := range templates {
		for _, bl := range blocks {
			if bl.Required {
				if required[ty] == nil {
					required[ty] = map[string]bool{}
				}
				required[ty][bl.Kind] = true
			}
		}
	}
	r := &LintReport{Pages: len(pages), Problems: []LintProblem{}}
	for _, pg := range pages {
		p, b := pg.p, &pg.p.Brief
		add := func(rule, field, msg string) {
			r.Problems = append(r.Problems, LintProblem{Rule: rule, Field: field, PageID: p.ID, Page: p.Title, URL: pg.url, Message: msg})
		}
		shared := func(rule, field, what, v string) {
			if others := othersThan(p, same[field][lintKey(v)]); others != "" {
				add(rule, field, fmt.Sprintf("%s “%s” is also %s: search engines cannot tell the pages apart.", what, Clip(v, 80), others))
			}
		}
		if b.SEOTitle != "" {
			shared(LintDuplicateTitle, "seo_title", "The SEO title", b.SEOTitle)
			if n := utf8.RuneCountInString(b.SEOTitle); n > MaxTitleShown {
				add(LintTitleLength, "seo_title", fmt.Sprintf("The SEO title has %d characters: search results cut it after about %d.", n, MaxTitleShown))
			} else if n < MinTitleLen {
				add(LintTitleLength, "seo_title", fmt.Sprintf("The SEO title has %d characters: give it at least %d that say what the page is.", n, MinTitleLen))
			}
		}
		if b.MetaDescription != "" {
			shared(LintDuplicateDescription, "meta_description", "The meta description", b.MetaDescription)
			if n := utf8.RuneCountInString(b.MetaDescription); n > MaxDescription {
				add(LintDescriptionLength, "meta_description", fmt.Sprintf("The meta description has %d characters: search results cut it after about %d.", n, MaxDescription))
			} else if n < MinDescriptionLen {
				add(LintDescriptionLength, "meta_description", fmt.Sprintf("The meta description has %d characters: give it at least %d.", n, MinDescriptionLen))
			}
		} else if p.InSitemap {
			add(LintMissingDescription, "meta_description", "The page is in the sitemap but has no meta description.")
		}
		if b.H1 != "" {
			shared(LintDuplicateH1, "h1", "The H1", b.H1)
		} else if p.InSitemap {
			add(LintMissingH1, "h1", "The page is in the sitemap but has no H1.")
		}
		if b.Keyword != "" {
			if others := othersThan(p, same["keyword"][lintKey(b.Keyword)]); others != "" {
				add(LintSharedKeyword, "keyword", fmt.Sprintf("The keyword “%s” is also %s: the pages compete for it.", Clip(b.Keyword, 80), others))
			}
			k := lintKey(b.Keyword)
			if !strings.Contains(lintKey(b.SEOTitle), k) && !strings.Contains(lintKey(b.H1), k) {
				add(LintKeywordUnused, "keyword", fmt.Sprintf("The keyword “%s” is in neither the SEO title nor the H1.", Clip(b.Keyword, 80)))
			}
		}
		if msg := SlugAdvice(p.Slug); msg != "" {
			add(LintSlug, "slug", strings.ToUpper(msg[:1])+msg[1:]+".")
		}
		for i, bl := range b.Blocks {
			if bl.Note == "" && required[p.Type][bl.Kind] {
				add(LintBlockNote, fmt.Sprintf("blocks.%d", i), fmt.Sprintf("Block %d (%s) has no note; the “%s” template asks for one.", i+1, BlockLabels[bl.Kind], p.Type))
			}
		}
	}
	return r
}

// lintKey is a value as the checks compare it: lower case, its spaces
// trimmed and collapsed.
func lintKey(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// othersThan names the pages of list other than p: "on “About us”", "on
// “About us” and 2 more pages"; "" when there are none.
func othersThan(p *Page, list []*Page) string {
	var first *Page
	n := 0
	for _, o := range list {
		if o.ID != p.ID {
			if first == nil {
				first = o
			}
			n++
		}
	}
	switch {
	case n == 0:
		return ""
	case n == 1:
		return "on “" + first.Title + "”"
	}
	return "on “" + first.Title + "” and " + Plural(n-1, "more page", "more pages")
}
