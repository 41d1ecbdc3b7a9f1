package site

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Tree is a project's pages indexed for traversal and URL derivation.
// It fills caches as it is read (paths, each locale's tree), so one Tree
// is not for several goroutines at once.
type Tree struct {
	Project  Project
	byID     map[int64]*Page
	children map[int64][]*Page // parent ID -> children by position; 0 -> roots
	paths    map[int64]string  // memo: node path without trailing-slash policy
	// memo, per locale tag: the project there and each page's path
	inLocale map[string]*Tree
}

// NewTree indexes pages. Roots are ordered by placement, then position.
func NewTree(p Project, pages []Page) *Tree {
	t := &Tree{
		Project:  p,
		byID:     make(map[int64]*Page, len(pages)),
		children: make(map[int64][]*Page),
		paths:    make(map[int64]string, len(pages)),
	}
	for i := range pages {
		pg := &pages[i]
		t.byID[pg.ID] = pg
		t.children[pg.ParentID] = append(t.children[pg.ParentID], pg)
	}
	rank := map[string]int{PlacementMain: 0, PlacementUtility: 1, PlacementFooter: 2}
	for parent, kids := range t.children {
		sort.SliceStable(kids, func(i, j int) bool {
			if parent == 0 && kids[i].Placement != kids[j].Placement {
				return rank[kids[i].Placement] < rank[kids[j].Placement]
			}
			return kids[i].Position < kids[j].Position
		})
	}
	// A partial tree keeps the child counts its query gave.
	for id, pg := range t.byID {
		pg.ChildCount = max(pg.ChildCount, len(t.children[id]))
	}
	return t
}

// Pages returns a copy of every page, in no particular order.
func (t *Tree) Pages() []Page {
	out := make([]Page, 0, len(t.byID))
	for _, p := range t.byID {
		out = append(out, *p)
	}
	return out
}

// Len returns the number of pages.
func (t *Tree) Len() int { return len(t.byID) }

// Page returns the page with id, or nil.
func (t *Tree) Page(id int64) *Page { return t.byID[id] }

// Children returns the children of id in order; id 0 gives the roots.
func (t *Tree) Children(id int64) []*Page { return t.children[id] }

// HomeNote says what is wrong when the plan has no home page but its
// first main root is plainly meant to be it ("Home" with the slug
// "home", which puts every URL below it under /home/), and how to fix
// it; "" otherwise.
func (t *Tree) HomeNote() string { return homeNote(t.Roots(PlacementMain)) }

// homeNote is HomeNote of the main roots of a plan.
func homeNote(roots []*Page) string {
	if len(roots) == 0 || slices.ContainsFunc(roots, (*Page).IsHome) {
		return ""
	}
	r := roots[0]
	title, slug := r.Title, r.Slug
	if r.Kind != KindPage || r.Path != "" || !strings.EqualFold(strings.TrimSpace(title), "home") && slug != "home" {
		return ""
	}
	return fmt.Sprintf("The plan has no home page: “%s” has the slug “%s”, so its URL is /%s and every URL below it starts with /%s/. Give it an empty slug (\"slug\": \"\" in a siteplan/1 document) to make it the home page, /.", title, slug, slug, slug)
}

// Roots returns the root pages of one placement in order.
func (t *Tree) Roots(placement string) []*Page {
	var out []*Page
	for _, p := range t.children[0] {
		if p.Placement == placement {
			out = append(out, p)
		}
	}
	return out
}

// Descendants counts the pages below id; for a page loaded without its
// children, its ChildCount.
func (t *Tree) Descendants(id int64) int {
	kids := t.children[id]
	if len(kids) == 0 {
		if p := t.byID[id]; p != nil {
			return p.ChildCount
		}
		return 0
	}
	n := 0
	for _, c := range kids {
		n += 1 + t.Descendants(c.ID)
	}
	return n
}

// Walk visits every page depth-first in outline order with its depth (roots
// are 1). Returning false from fn skips the page's children.
func (t *Tree) Walk(fn func(p *Page, depth int) bool) {
	var walk func(id int64, depth int)
	walk = func(id int64, depth int) {
		for _, c := range t.children[id] {
			if fn(c, depth) {
				walk(c.ID, depth+1)
			}
		}
	}
	walk(0, 1)
}

// URL returns the page's URL as a sitemap prints it (normalised:
// NormalizeURL), or "" for a page that has no URL of its own (group, placeholder,
// external, or an override that is not a valid URL).
func (t *Tree) URL(id int64) string {
	p := t.byID[id]
	if p == nil || !p.HasURL() {
		return ""
	}
	return t.nodeURL(p)
}

// Location returns the URL a page points at whatever its kind: for an
// external page its override, for others the URL its slugs give.
func (t *Tree) Location(id int64) string {
	p := t.byID[id]
	if p == nil {
		return ""
	}
	return t.nodeURL(p)
}

func (t *Tree) nodeURL(p *Page) string { return t.Project.FinishURL(p, t.path(p)) }

// PlanReader is a plan read page by page in outline order, without
// holding it whole: what an export reads. A Tree is read through
// export.TreeSource; the store streams one from the database.
type PlanReader interface {
	Project() Project
	// Walk calls fn for root (0: every page, main, utility then footer
	// navigation) and each page below it in outline order, with the
	// page's path (Project.ChildPath) and its depth from 1. The page is
	// valid only during the call; its ChildCount is above zero if it has
	// children. Errors: ENotFound if root is not a page of the plan; the
	// first error fn returns.
	Walk(root int64, fn func(p *Page, path string, depth int) error) error
}

// Path returns a page's path as Project.ChildPath derives it: what its
// children's paths extend ("" for no such page).
func (t *Tree) Path(id int64) string {
	if p := t.byID[id]; p != nil {
		return t.path(p)
	}
	return ""
}

// path returns the node's normalised location without the trailing-slash
// policy; its children's URLs extend it.
func (t *Tree) path(p *Page) string {
	if s, ok := t.paths[p.ID]; ok {
		return s
	}
	parent := t.Project.RootPath()
	if pp := t.byID[p.ParentID]; p.ParentID != 0 && pp != nil {
		parent = t.path(pp)
	}
	s := t.Project.ChildPath(p, parent)
	t.paths[p.ID] = s
	return s
}

// WalkURLs visits root (0: every page) and the pages below it in outline
// order, each with its sitemap URL ("" for pages without one), until fn
// returns false. It derives each path from its parent's as it goes, so a
// whole export costs one string per page and no lookups.
func (t *Tree) WalkURLs(root int64, fn func(p *Page, url string) bool) {
	var walk func(id int64, parent string) bool
	walk = func(id int64, parent string) bool {
		for _, c := range t.children[id] {
			path := t.Project.ChildPath(c, parent)
			u := ""
			if c.HasURL() {
				u = t.Project.FinishURL(c, path)
			}
			if !fn(c, u) || (c.ChildCount > 0 && !walk(c.ID, path)) { // a leaf needs no lookup
				return false
			}
		}
		return true
	}
	if root == 0 {
		walk(0, t.Project.RootPath())
		return
	}
	if p := t.byID[root]; p != nil && fn(p, t.URL(root)) {
		walk(root, t.path(p))
	}
}

// ClaimURLs makes the URLs of the pages in ids, and of every page below
// them, unique in t, taking them in outline order (0 in ids takes every
// page). Only pages of kind page have URLs. A page whose slug is derived
// from its title gets the next free number ("faq-2", "faq-3", ...); a
// slug or path override the user typed that another page's URL already
// has is refused. It returns the pages whose slug it changed, changed in
// t too. Errors: EInvalid, with the field at fault and the other page.
func (t *Tree) ClaimURLs(ids []int64) ([]*Page, error) {
	mine := map[int64]bool{}
	var order []*Page // the claiming pages, parents before children
	var add func(p *Page)
	add = func(p *Page) {
		if mine[p.ID] {
			return
		}
		mine[p.ID] = true
		order = append(order, p)
		for _, c := range t.children[p.ID] {
			add(c)
		}
	}
	for _, id := range ids {
		if id == 0 {
			for _, r := range t.children[0] {
				add(r)
			}
		} else if p := t.byID[id]; p != nil {
			add(p)
		}
	}
	taken := map[string]*Page{}
	for _, p := range t.byID {
		if u := t.URL(p.ID); u != "" && !mine[p.ID] {
			taken[u] = p
		}
	}
	var renamed []*Page
	for _, p := range order {
		u := t.URL(p.ID)
		other := taken[u]
		if u == "" {
			continue
		}
		if other != nil && Renumberable(p) {
			base := p.Slug
			for n := 2; other != nil; n++ {
				p.Slug = NumberedSlug(base, n)
				clear(t.paths) // the page's and its descendants' URLs change
				u = t.URL(p.ID)
				other = taken[u]
			}
			renamed = append(renamed, p)
		}
		if other != nil {
			return nil, URLTakenError(p, u, other.Title)
		}
		taken[u] = p
	}
	return renamed, nil
}

// Renumberable reports whether a page whose URL another page has may
// take the next free number instead: its slug is derived from its title.
func Renumberable(p *Page) bool { return p.SlugAuto && p.Path == "" && p.Slug != "" }

// NumberedSlug is base numbered n ("faq-2"), cut to fit MaxSlugLen.
func NumberedSlug(base string, n int) string {
	suffix := "-" + strconv.Itoa(n)
	return strings.TrimRight(base[:min(len(base), MaxSlugLen-len(suffix))], "-") + suffix
}

// URLTakenError is the EInvalid error of page p, whose URL u the page
// titled other already has: on the slug or the path override.
func URLTakenError(p *Page, u, other string) error {
	field, what := "slug", "slug"
	if p.Path != "" {
		field, what = "path", "path override"
	}
	return &Error{Code: EInvalid, Fields: map[string]string{field: "“" + other + "” already has this URL; change the " + what + "."},
		Message: fmt.Sprintf("“%s” would have the URL %s, which “%s” already has: change its %s.", p.Title, u, other, what)}
}

// Summary counts pages by kind, status, page type and placement.
type Summary struct {
	Total       int
	ByKind      []Count
	ByStatus    []Count
	ByType      []Count
	ByPlacement []Count
	InSitemap   int
	HomeNote    string // Tree.HomeNote
}

// Count is one row of a Summary.
type Count struct {
	Name string
	N    int
}

// RootPath is the path the project's root pages extend: its base URL
// without the trailing slash.
func (pr *Project) RootPath() string { return strings.TrimSuffix(pr.BaseURL, "/") }

// ChildPath derives a page's path from its parent's (RootPath for a
// root): the parent's extended by the page's slug, or the page's path
// override resolved against the base URL. The path is without the
// trailing-slash policy; the page's children extend it, and FinishURL
// makes it the page's URL.
func (pr *Project) ChildPath(p *Page, parent string) string {
	switch {
	case p.Path != "":
		return pr.resolveOverride(p.Path)
	case p.Slug == "" || parent == "":
		return parent
	}
	return strings.TrimSuffix(parent, "/") + "/" + EncodeSegment(p.Slug)
}

// FinishURL applies the home-page and trailing-slash rules to a page's
// path (ChildPath), giving its URL as a sitemap prints it.
func (pr *Project) FinishURL(p *Page, path string) string {
	if path == "" {
		return ""
	}
	if len(path)+1 == len(pr.BaseURL) && path+"/" == pr.BaseURL {
		return pr.BaseURL
	}
	if p.Path == "" && pr.TrailingSlash && !strings.HasSuffix(path, "/") {
		return path + "/"
	}
	return path
}

func (pr *Project) resolveOverride(o string) string {
	if strings.HasPrefix(o, "/") && !strings.HasPrefix(o, "//") {
		o = Origin(pr.BaseURL) + o
	}
	u, err := NormalizeURL(o)
	if err != nil {
		return ""
	}
	return u
}

// OutlineFrom is where a stretch of the outline starts or goes on: the
// children of Parent (0: the roots of Placement) after the child After
// (0: from the first), which are at Depth (roots are 1).
type OutlineFrom struct {
	Parent    int64
	Placement string
	After     int64
	Depth     int
}
