package site

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Comparison is what changed between two states of a plan (two versions,
// or a version and now), page by page. Every list is in outline order. A
// page both moved and renamed is in Moved and in Renamed; a removed branch
// lists each of its pages once, in Removed.
type Comparison struct {
	Added        []DiffEntry `json:"added"`
	Removed      []DiffEntry `json:"removed"`
	Moved        []DiffEntry `json:"moved"`     // From, To: where it was and is ("Products › Widgets", "top level")
	Reordered    []DiffEntry `json:"reordered"` // From, To: its place among the same siblings ("3 of 5"); To.Where in Where
	Renamed      []DiffEntry `json:"renamed"`   // From, To: the titles
	URLChanged   []DiffEntry `json:"url_changed"`
	Changed      []DiffEntry `json:"changed"` // Fields: the other fields that changed
	LinksAdded   []LinkDiff  `json:"links_added"`
	LinksRemoved []LinkDiff  `json:"links_removed"`
}

// DiffEntry is one page of a comparison.
type DiffEntry struct {
	ID     int64         `json:"id"`
	Title  string        `json:"title"`
	From   string        `json:"from,omitempty"`
	To     string        `json:"to,omitempty"`
	Where  string        `json:"where,omitempty"` // the list a reordered page is in
	Fields []FieldChange `json:"fields,omitempty"`
}

// FieldChange is one field of a page that changed.
type FieldChange struct {
	Field string `json:"field"`
	From  string `json:"from"`
	To    string `json:"to"`
}

// LinkDiff is a cross-link added or removed.
type LinkDiff struct {
	From      int64  `json:"from"`
	To        int64  `json:"to"`
	FromTitle string `json:"from_title"`
	ToTitle   string `json:"to_title"`
	Label     string `json:"label,omitempty"`
}

// Marks a comparison gives pages in its diagram.
const (
	MarkAdded   = "added"
	MarkRemoved = "removed"
	MarkMoved   = "moved"
	MarkRenamed = "renamed"
	MarkChanged = "changed"
)

// Compare lists what changed from one state of a plan to another. Pages
// are the same page when they have the same id.
func Compare(from, to *Tree, fromLinks, toLinks []Link) *Comparison {
	c := &Comparison{Added: []DiffEntry{}, Removed: []DiffEntry{}, Moved: []DiffEntry{}, Reordered: []DiffEntry{}, Renamed: []DiffEntry{},
		URLChanged: []DiffEntry{}, Changed: []DiffEntry{}, LinksAdded: []LinkDiff{}, LinksRemoved: []LinkDiff{}}
	fromURL, toURL := urls(from), urls(to)
	to.Walk(func(p *Page, _ int) bool {
		old := from.Page(p.ID)
		if old == nil {
			c.Added = append(c.Added, DiffEntry{ID: p.ID, Title: p.Title, To: to.Where(p.ID)})
			return true
		}
		if old.ParentID != p.ParentID || old.Placement != p.Placement {
			c.Moved = append(c.Moved, DiffEntry{ID: p.ID, Title: p.Title, From: from.Where(p.ID), To: to.Where(p.ID)})
		}
		if old.Title != p.Title {
			c.Renamed = append(c.Renamed, DiffEntry{ID: p.ID, Title: p.Title, From: old.Title, To: p.Title})
		}
		if a, b := fromURL[p.ID], toURL[p.ID]; a != b {
			c.URLChanged = append(c.URLChanged, DiffEntry{ID: p.ID, Title: p.Title, From: a, To: b})
		}
		if f := FieldChanges(old, p); len(f) > 0 {
			c.Changed = append(c.Changed, DiffEntry{ID: p.ID, Title: p.Title, Fields: f})
		}
		return true
	})
	c.Reordered = reordered(from, to, c.Reordered)
	from.Walk(func(p *Page, _ int) bool {
		if to.Page(p.ID) == nil {
			c.Removed = append(c.Removed, DiffEntry{ID: p.ID, Title: p.Title, From: from.Where(p.ID)})
		}
		return true
	})
	type pair struct{ from, to int64 }
	had := map[pair]string{}
	for _, l := range fromLinks {
		had[pair{l.FromID, l.ToID}] = l.Label
	}
	has := map[pair]bool{}
	for _, l := range toLinks {
		k := pair{l.FromID, l.ToID}
		has[k] = true
		if label, ok := had[k]; !ok || label != l.Label {
			c.LinksAdded = append(c.LinksAdded, linkDiff(to, l))
		}
	}
	for _, l := range fromLinks {
		k := pair{l.FromID, l.ToID}
		if !has[k] {
			c.LinksRemoved = append(c.LinksRemoved, linkDiff(from, l))
		}
	}
	return c
}

// reordered appends to out, in outline order, the pages that changed
// place among siblings that are in the same list in both trees: the
// fewest whose moves explain the new order, those outside a longest run
// of pages still in their old order. A page added or removed beside the
// others changes no one's order.
func reordered(from, to *Tree, out []DiffEntry) []DiffEntry {
	type place struct{ at, of int } // index in its list, and the list's length
	was := make(map[int64]place, from.Len())
	siblingLists(from, func(list []*Page) {
		for i, p := range list {
			was[p.ID] = place{i, len(list)}
		}
	})
	siblingLists(to, func(list []*Page) {
		var stay []int // indexes in list of the pages in the same list in from
		var old []int  // and their index there
		for i, p := range list {
			if q := from.Page(p.ID); q != nil && q.ParentID == p.ParentID && q.Placement == p.Placement {
				stay, old = append(stay, i), append(old, was[p.ID].at)
			}
		}
		kept := longestRising(old)
		for k, i := range stay {
			if !kept[k] {
				p := list[i]
				out = append(out, DiffEntry{ID: p.ID, Title: p.Title, Where: to.Where(p.ID),
					From: strconv.Itoa(old[k]+1) + " of " + strconv.Itoa(was[p.ID].of),
					To:   strconv.Itoa(i+1) + " of " + strconv.Itoa(len(list))})
			}
		}
	})
	return out
}

// siblingLists calls fn with each list of siblings of t of two pages or
// more, in outline order: the roots of each placement, then each page's
// children.
func siblingLists(t *Tree, fn func([]*Page)) {
	call := func(list []*Page) {
		if len(list) > 1 {
			fn(list)
		}
	}
	for _, pl := range Placements {
		call(t.Roots(pl))
	}
	t.Walk(func(p *Page, _ int) bool {
		call(t.Children(p.ID))
		return true
	})
}

// longestRising marks the elements of a longest strictly rising
// subsequence of xs (patience sorting, O(n log n)).
func longestRising(xs []int) []bool {
	tails := []int{}             // index in xs of the smallest tail of a rising run of each length
	prev := make([]int, len(xs)) // the element before each in its run
	for i, x := range xs {
		k, _ := slices.BinarySearchFunc(tails, x, func(j, x int) int { return xs[j] - x })
		if k > 0 {
			prev[i] = tails[k-1]
		} else {
			prev[i] = -1
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	kept := make([]bool, len(xs))
	if len(tails) > 0 {
		for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
			kept[i] = true
		}
	}
	return kept
}

func linkDiff(t *Tree, l Link) LinkDiff {
	d := LinkDiff{From: l.FromID, To: l.ToID, Label: l.Label, FromTitle: l.FromTitle, ToTitle: l.ToTitle}
	if p := t.Page(l.FromID); p != nil {
		d.FromTitle = p.Title
	}
	if p := t.Page(l.ToID); p != nil {
		d.ToTitle = p.Title
	}
	return d
}

// urls is every page's sitemap URL ("" for none), derived in one walk.
func urls(t *Tree) map[int64]string {
	m := make(map[int64]string, t.Len())
	t.WalkURLs(0, func(p *Page, u string) bool {
		m[p.ID] = u
		return true
	})
	return m
}

// Empty reports whether nothing changed.
func (c *Comparison) Empty() bool {
	return len(c.Added)+len(c.Removed)+len(c.Moved)+len(c.Reordered)+len(c.Renamed)+len(c.URLChanged)+len(c.Changed)+
		len(c.LinksAdded)+len(c.LinksRemoved) == 0
}

// Marks gives each page that changed its mark for a diagram: added,
// removed, moved, renamed (a page moved and renamed is marked moved), or
// changed (other fields, or its URL).
func (c *Comparison) Marks() map[int64]string {
	m := map[int64]string{}
	set := func(list []DiffEntry, mark string) {
		for _, e := range list {
			if _, ok := m[e.ID]; !ok {
				m[e.ID] = mark
			}
		}
	}
	set(c.Added, MarkAdded)
	set(c.Removed, MarkRemoved)
	set(c.Moved, MarkMoved)
	set(c.Reordered, MarkMoved)
	set(c.Renamed, MarkRenamed)
	set(c.URLChanged, MarkChanged)
	set(c.Changed, MarkChanged)
	return m
}

// Union is the tree of to with the pages removed since from put back
// where they were (under their old parent when it is still there, else
// at the top level), so that a diagram can show them struck out.
func Union(from, to *Tree) *Tree {
	pages := to.Pages()
	in := make(map[int64]bool, len(pages))
	for _, p := range pages {
		in[p.ID] = true
	}
	from.Walk(func(p *Page, _ int) bool {
		if in[p.ID] {
			return true
		}
		q := *p
		q.ChildCount = 0
		if !in[q.ParentID] {
			q.ParentID = 0
		}
		in[q.ID] = true
		pages = append(pages, q)
		return true
	})
	return NewTree(to.Project, pages)
}

// Where says where a page sits: its parents' titles ("Products ›
// Widgets"), or for a root its placement ("top level", "utility
// navigation", "footer navigation").
func (t *Tree) Where(id int64) string {
	p := t.Page(id)
	if p == nil {
		return ""
	}
	var trail []string
	for q := t.Page(p.ParentID); q != nil && len(trail) <= MaxDepth; q = t.Page(q.ParentID) {
		trail = append(trail, q.Title)
	}
	if len(trail) == 0 {
		return PlacementWords(p.Placement)
	}
	slices.Reverse(trail)
	return strings.Join(trail, " › ")
}

// PlacementWords names a placement for people.
func PlacementWords(placement string) string {
	switch placement {
	case PlacementUtility:
		return "utility navigation"
	case PlacementFooter:
		return "footer navigation"
	}
	return "top level"
}

// FieldChanges lists the fields other than title, place and position in
// which two states of a page differ, with their values in words.
func FieldChanges(a, b *Page) []FieldChange {
	var out []FieldChange
	add := func(field, x, y string) {
		if x != y {
			out = append(out, FieldChange{field, x, y})
		}
	}
	add("slug", a.Slug, b.Slug)
	add("path", a.Path, b.Path)
	add("kind", a.Kind, b.Kind)
	add("type", a.Type, b.Type)
	add("status", a.Status, b.Status)
	add("assignee", a.Assignee, b.Assignee)
	add("notes", a.Notes, b.Notes)
	add("notes_public", yesNo(a.NotesPublic), yesNo(b.NotesPublic))
	add("in_sitemap", yesNo(a.InSitemap), yesNo(b.InSitemap))
	add("in_html_sitemap", yesNo(a.InHTMLSitemap), yesNo(b.InHTMLSitemap))
	add("priority", priorityText(a.Priority), priorityText(b.Priority))
	add("changefreq", a.Changefreq, b.Changefreq)
	add("lastmod", a.Lastmod, b.Lastmod)
	x, y := &a.Brief, &b.Brief
	add("seo_title", x.SEOTitle, y.SEOTitle)
	add("meta_description", x.MetaDescription, y.MetaDescription)
	add("h1", x.H1, y.H1)
	add("keyword", x.Keyword, y.Keyword)
	add("intent", x.Intent, y.Intent)
	add("blocks", BlocksText(x.Blocks), BlocksText(y.Blocks))
	add("word_target", wordTarget(x.WordTarget), wordTarget(y.WordTarget))
	add("content_owner", x.Owner, y.Owner)
	add("due", x.Due, y.Due)
	for _, tag := range slices.Sorted(maps.Keys(mergeKeys(a.Variants, b.Variants))) {
		add("variant "+tag, a.Variant(tag).Text(), b.Variant(tag).Text()) // a translation changed is a change
	}
	return out
}

// mergeKeys is the set of keys of a and b.
func mergeKeys(a, b map[string]Variant) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func wordTarget(n int) string {
	if n == 0 {
		return ""
	}
	return Thousands(n) + " words"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func priorityText(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', -1, 64)
}

// Touches reports whether the comparison of from and to changes the
// branch at root (0: anything at all): a page of the branch in either
// state added, removed, moved, renamed or changed, or a link from or to
// one of them.
func (c *Comparison) Touches(from, to *Tree, root int64) bool {
	if root == 0 {
		return !c.Empty()
	}
	in := map[int64]bool{}
	for _, t := range []*Tree{from, to} {
		var mark func(id int64)
		mark = func(id int64) {
			in[id] = true
			for _, k := range t.Children(id) {
				mark(k.ID)
			}
		}
		if t.Page(root) != nil {
			mark(root)
		}
	}
	for _, list := range [][]DiffEntry{c.Added, c.Removed, c.Moved, c.Reordered, c.Renamed, c.URLChanged, c.Changed} {
		for _, e := range list {
			if in[e.ID] {
				return true
			}
		}
	}
	for _, list := range [][]LinkDiff{c.LinksAdded, c.LinksRemoved} {
		for _, l := range list {
			if in[l.From] || in[l.To] {
				return true
			}
		}
	}
	return false
}

// Text is the comparison for people, a section a kind of change and a
// line a page ("No changes." when empty); a page by its title and id,
// or "(new)" for a page a proposal adds.
func (c *Comparison) Text() string {
	if c.Empty() {
		return "No changes.\n"
	}
	var b strings.Builder
	section := func(title string, list []DiffEntry, line func(e DiffEntry) string) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(&b, "%s (%d)\n", title, len(list))
		for _, e := range list {
			fmt.Fprintf(&b, "  %s\n", line(e))
		}
	}
	ref := func(e DiffEntry) string {
		if e.ID < 0 {
			return "“" + e.Title + "” (new)"
		}
		return "“" + e.Title + "” #" + strconv.FormatInt(e.ID, 10)
	}
	noURL := func(s string) string {
		if s == "" {
			return "(no URL)"
		}
		return s
	}
	section("Added", c.Added, func(e DiffEntry) string { return "+ " + ref(e) + " in " + e.To })
	section("Removed", c.Removed, func(e DiffEntry) string { return "- " + ref(e) + " from " + e.From })
	section("Moved", c.Moved, func(e DiffEntry) string { return ref(e) + ": " + e.From + " → " + e.To })
	section("Reordered", c.Reordered, func(e DiffEntry) string { return ref(e) + " in " + e.Where + ": " + e.From + " → " + e.To })
	section("Renamed", c.Renamed, func(e DiffEntry) string { return ref(e) + ": “" + e.From + "” → “" + e.To + "”" })
	section("URL changed", c.URLChanged, func(e DiffEntry) string { return ref(e) + ": " + noURL(e.From) + " → " + noURL(e.To) })
	section("Changed", c.Changed, func(e DiffEntry) string {
		var f []string
		for _, x := range e.Fields {
			f = append(f, x.Field+" "+strconv.Quote(x.From)+" → "+strconv.Quote(x.To))
		}
		return ref(e) + ": " + strings.Join(f, ", ")
	})
	links := func(title string, list []LinkDiff) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(&b, "%s (%d)\n", title, len(list))
		for _, l := range list {
			fmt.Fprintf(&b, "  “%s” → “%s”", l.FromTitle, l.ToTitle)
			if l.Label != "" {
				fmt.Fprintf(&b, " (%s)", l.Label)
			}
			b.WriteString("\n")
		}
	}
	links("Links added", c.LinksAdded)
	links("Links removed", c.LinksRemoved)
	return b.String()
}
