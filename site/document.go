package site

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// FormatV1 is the only native document format.
const FormatV1 = "siteplan/1"

// Document is the native JSON document, siteplan/1 (docs/cli.md).
type Document struct {
	Format  string     `json:"format"`
	Project DocProject `json:"project"`
	Pages   []*DocPage `json:"pages"`
	Links   []DocLink  `json:"links,omitempty"`
}

// DocProject is the project part of a Document.
type DocProject struct {
	Name              string   `json:"name"`
	BaseURL           string   `json:"base_url"`
	TrailingSlash     bool     `json:"trailing_slash,omitempty"`
	DefaultChangefreq string   `json:"default_changefreq,omitempty"`
	DefaultPriority   *float64 `json:"default_priority,omitempty"`
	Lastmod           string   `json:"lastmod,omitempty"`
	SitemapLocation   string   `json:"sitemap_location,omitempty"`
	// A localized plan: its locales, and x-default, XDefaultLocale (when
	// absent) or the key of a page.
	Locales  []DocLocale `json:"locales,omitempty"`
	XDefault string      `json:"x_default,omitempty"`
}

// DocLocale is a locale in a document.
type DocLocale struct {
	Tag     string `json:"tag"`
	Default bool   `json:"default,omitempty"`
	Prefix  string `json:"prefix,omitempty"`
	BaseURL string `json:"base_url,omitempty"`
}

// DocVariant is a page in one locale in a document.
type DocVariant struct {
	Title string       `json:"title,omitempty"`
	Slug  string       `json:"slug,omitempty"`
	Path  string       `json:"path,omitempty"`
	State string       `json:"state,omitempty"`
	Brief *VariantText `json:"brief,omitempty"`
}

// VariantText is the part of a brief a translation carries.
type VariantText struct {
	SEOTitle        string `json:"seo_title,omitempty"`
	MetaDescription string `json:"meta_description,omitempty"`
	H1              string `json:"h1,omitempty"`
	Keyword         string `json:"keyword,omitempty"`
}

// DocProjectOf is a project's settings as a document (and the history
// of its changes) keeps them.
func DocProjectOf(p *Project) DocProject {
	d := DocProject{Name: p.Name, BaseURL: p.BaseURL, TrailingSlash: p.TrailingSlash, DefaultChangefreq: p.DefaultChangefreq,
		DefaultPriority: p.DefaultPriority, Lastmod: p.Lastmod, SitemapLocation: p.SitemapLocation}
	for _, l := range p.Locales {
		d.Locales = append(d.Locales, DocLocale(l))
	}
	if p.XDefault != 0 {
		d.XDefault = pageKey(p.XDefault)
	}
	return d
}

// Equal reports whether d and o are the same settings, their default
// priorities compared by value.
func (d DocProject) Equal(o DocProject) bool {
	dp, op := d.DefaultPriority, o.DefaultPriority
	dl, ol := d.Locales, o.Locales
	d.DefaultPriority, o.DefaultPriority, d.Locales, o.Locales = nil, nil, nil, nil
	return reflect.DeepEqual(d, o) && (dp == nil) == (op == nil) && (dp == nil || *dp == *op) && slices.Equal(dl, ol)
}

// DocPage is one page of a Document with its children. Pointer fields are
// optional: nil takes the default.
type DocPage struct {
	Key           string   `json:"key,omitempty"`
	Title         string   `json:"title"`
	Slug          *string  `json:"slug,omitempty"`
	Kind          string   `json:"kind,omitempty"`
	Placement     string   `json:"placement,omitempty"`
	Type          string   `json:"type,omitempty"`
	Status        string   `json:"status,omitempty"`
	Assignee      string   `json:"assignee,omitempty"`
	Notes         string   `json:"notes,omitempty"`
	NotesPublic   bool     `json:"notes_public,omitempty"` // the client sees the notes
	InSitemap     *bool    `json:"in_sitemap,omitempty"`
	InHTMLSitemap *bool    `json:"in_html_sitemap,omitempty"`
	Priority      *float64 `json:"priority,omitempty"`
	Changefreq    string   `json:"changefreq,omitempty"`
	Lastmod       string   `json:"lastmod,omitempty"`
	Path          *string  `json:"path,omitempty"`
	Brief         *Brief   `json:"brief,omitempty"`
	// A localized plan: the page's state in the default locale (absent:
	// planned), and the page in the other locales, by tag.
	State    string                 `json:"state,omitempty"`
	Variants map[string]*DocVariant `json:"variants,omitempty"`
	Children []*DocPage             `json:"children,omitempty"`
}

// DocLink is a cross-link between two keys.
type DocLink struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Label string `json:"label,omitempty"`
}

// Bounds of one document, so an upload cannot exhaust memory: its pages,
// and its size (a page of about 600 bytes, 100,000 pages).
const (
	MaxDocumentPages = 2_000_000
	MaxDocumentBytes = 64 << 20
)

// ParseDocument decodes and validates a native document of at most
// MaxDocumentBytes. Any problem refuses the whole document with EInvalid
// naming the page and field at fault; a larger one is ETooLarge.
func ParseDocument(r io.Reader) (*Document, error) {
	lr := &io.LimitedReader{R: r, N: MaxDocumentBytes + 1}
	d, err := parseDocument(lr)
	if lr.N <= 0 {
		return nil, Errorf(ETooLarge, "The document is larger than %d MB: split the plan, or import it from the command line in parts.", MaxDocumentBytes>>20)
	}
	return d, err
}

// ReadDocumentFile parses the document in a file. Errors: as
// ParseDocument, or the file's own.
func ReadDocumentFile(path string) (*Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseDocument(f)
}

func parseDocument(r io.Reader) (*Document, error) {
	lines := &lineReader{r: r}
	dec := json.NewDecoder(lines)
	dec.DisallowUnknownFields()
	var d Document
	if err := dec.Decode(&d); err != nil {
		return nil, Errorf(EInvalid, "%s", jsonProblem(err, lines, dec.InputOffset()))
	}
	if dec.More() {
		return nil, Errorf(EInvalid, "The document has data after its closing brace.")
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return &d, nil
}

// Validate checks the whole document and fills defaults. It returns EInvalid
// with a message that names the page (by its place and title) and field.
func (d *Document) Validate() error {
	if d.Format != FormatV1 {
		return Errorf(EInvalid, "Unknown format %q: expected %q.", clip(d.Format), FormatV1)
	}
	p := d.Project.ToProject()
	if err := p.Validate(); err != nil {
		return Errorf(EInvalid, "project: %s", firstField(err, map[string]string{
			"name": "name", "base_url": "base_url", "default_changefreq": "default_changefreq",
			"default_priority": "default_priority", "lastmod": "lastmod", "sitemap_location": "sitemap_location", "locales": "locales"}))
	}
	d.Project.BaseURL, d.Project.SitemapLocation = p.BaseURL, p.SitemapLocation
	locales := p.Locales // in canonical case
	for i := range locales {
		d.Project.Locales[i] = DocLocale(locales[i])
	}
	tags := map[string]string{} // any case: the canonical tag
	for _, l := range locales {
		tags[strings.ToLower(l.Tag)] = l.Tag
	}
	if len(d.Pages) == 0 {
		return Errorf(EInvalid, "The document has no pages.")
	}
	keys := map[string]bool{}
	n := 0
	var check func(list []*DocPage, where string, depth int) error
	check = func(list []*DocPage, where string, depth int) error {
		if len(list) > 0 && depth > MaxDepth {
			return Errorf(EInvalid, "%s: the plan is deeper than %d levels; move these pages up.", where, MaxDepth)
		}
		root := depth == 1
		for i, dp := range list {
			n++
			if n > MaxDocumentPages {
				return Errorf(EInvalid, "The document has more than %d pages.", MaxDocumentPages)
			}
			at := fmt.Sprintf("%s[%d]", where, i)
			if dp == nil {
				return Errorf(EInvalid, "%s: a page is null.", at)
			}
			name := at
			if dp.Title != "" {
				name += " (" + strconv.Quote(clip(dp.Title)) + ")"
			}
			if dp.Key != "" {
				if keys[dp.Key] {
					return Errorf(EInvalid, "%s: key %q is used twice.", name, clip(dp.Key))
				}
				keys[dp.Key] = true
			}
			pg := dp.ToPage()
			if !root && dp.Placement != "" && dp.Placement != PlacementMain {
				return Errorf(EInvalid, "%s: placement: only root pages can be placed in utility or footer navigation.", name)
			}
			if err := pg.Validate(); err != nil {
				return Errorf(EInvalid, "%s: %s", name, PageFieldProblem(err))
			}
			if err := dp.checkVariants(name, tags); err != nil {
				return err
			}
			if err := check(dp.Children, at+".children", depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := check(d.Pages, "pages", 1); err != nil {
		return err
	}
	if x := d.Project.XDefault; x != "" && x != XDefaultLocale && !keys[x] {
		return Errorf(EInvalid, "project: x_default: no page has key %q; use %q or the key of a page.", clip(x), XDefaultLocale)
	}
	seen := map[[2]string]int{} // links by their ends: their index + 1
	for i, l := range d.Links {
		switch {
		case !keys[l.From]:
			return Errorf(EInvalid, "links[%d]: from: no page has key %q.", i, clip(l.From))
		case !keys[l.To]:
			return Errorf(EInvalid, "links[%d]: to: no page has key %q.", i, clip(l.To))
		case l.From == l.To:
			return Errorf(EInvalid, "links[%d]: a page cannot link to itself.", i)
		case LinkLabelProblem(l.Label) != "":
			return Errorf(EInvalid, "links[%d]: label: %s", i, LinkLabelProblem(l.Label))
		case seen[[2]string{l.From, l.To}] > 0:
			return Errorf(EInvalid, "links[%d]: links[%d] already links %q to %q: keep one of them.", i, seen[[2]string{l.From, l.To}]-1, clip(l.From), clip(l.To))
		}
		seen[[2]string{l.From, l.To}] = i + 1
	}
	return nil
}

// checkVariants checks a page's state and variants against the plan's
// locales (tags: each locale's tag in lower case, to its canonical
// form), and puts the variants' tags in canonical case.
func (dp *DocPage) checkVariants(name string, tags map[string]string) error {
	if len(tags) == 0 && (len(dp.Variants) > 0 || dp.State != "") {
		return Errorf(EInvalid, "%s: variants: the project lists no locales; add them under project.locales.", name)
	}
	if dp.State != "" {
		if err := CheckVariant("state", &Variant{State: dp.State}); err != nil {
			return Errorf(EInvalid, "%s: state %q must be one of %s.", name, clip(dp.State), strings.Join(VariantStates, ", "))
		}
	}
	out := make(map[string]*DocVariant, len(dp.Variants))
	for tag, v := range dp.Variants {
		canon, ok := tags[strings.ToLower(tag)]
		if !ok {
			return Errorf(EInvalid, "%s: variants: %q is not one of the project's locales.", name, clip(tag))
		}
		if v == nil {
			return Errorf(EInvalid, "%s: variants: %s is null.", name, canon)
		}
		if _, dup := out[canon]; dup {
			return Errorf(EInvalid, "%s: variants: %s is listed twice.", name, canon)
		}
		vv := v.variant()
		if err := CheckVariant(canon, &vv); err != nil {
			return Errorf(EInvalid, "%s: %s", name, ErrorMessage(err))
		}
		out[canon] = v
	}
	if len(out) > 0 {
		dp.Variants = out
	}
	return nil
}

// variant is the document's variant as a Variant.
func (v *DocVariant) variant() Variant {
	out := Variant{Title: strings.TrimSpace(v.Title), Slug: v.Slug, Path: v.Path, State: v.State}
	if b := v.Brief; b != nil {
		out.SEOTitle, out.MetaDescription, out.H1, out.Keyword = b.SEOTitle, b.MetaDescription, b.H1, b.Keyword
	}
	return out
}

var pageFieldNames = map[string]string{
	"title": "title", "slug": "slug", "path": "path", "kind": "kind", "placement": "placement",
	"status": "status", "type": "type", "assignee": "assignee", "notes": "notes",
	"priority": "priority", "changefreq": "changefreq", "lastmod": "lastmod",
}

// firstField formats the first field error (in a stable order) as
// "field: message".
func firstField(err error, names map[string]string) string {
	fields := ErrorFields(err)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return ErrorMessage(err)
	}
	return cmp.Or(names[keys[0]], keys[0]) + ": " + fields[keys[0]]
}

// ToProject converts the document's project to a Project.
func (dp DocProject) ToProject() Project {
	return Project{
		Name: dp.Name, BaseURL: dp.BaseURL, TrailingSlash: dp.TrailingSlash,
		DefaultChangefreq: dp.DefaultChangefreq, DefaultPriority: dp.DefaultPriority,
		Lastmod: dp.Lastmod, SitemapLocation: dp.SitemapLocation, Locales: locales(dp.Locales),
	}
}

func locales(ls []DocLocale) []Locale {
	var out []Locale
	for _, l := range ls {
		out = append(out, Locale(l))
	}
	return out
}

// ToPage converts a document page (without children) to a Page with the
// defaults filled in.
func (dp *DocPage) ToPage() Page {
	var p Page
	if dp.Slug != nil { // a typed slug: no need to derive one (slow on big plans)
		p = NewPage("")
		p.Title, p.Slug, p.SlugAuto = dp.Title, *dp.Slug, false
	} else {
		p = NewPage(dp.Title)
	}
	p.Title = strings.TrimSpace(dp.Title)
	if dp.Path != nil {
		p.Path = *dp.Path
	}
	setIf(&p.Kind, dp.Kind)
	setIf(&p.Placement, dp.Placement)
	setIf(&p.Status, dp.Status)
	p.Type, p.Assignee, p.Notes, p.NotesPublic = dp.Type, dp.Assignee, dp.Notes, dp.NotesPublic
	if dp.InSitemap != nil {
		p.InSitemap = *dp.InSitemap
	} else {
		p.InSitemap = !p.KeptFromSearch() // a cart or a login page stays out unless the document says
	}
	if dp.InHTMLSitemap != nil {
		p.InHTMLSitemap = *dp.InHTMLSitemap
	}
	p.Priority, p.Changefreq, p.Lastmod = dp.Priority, dp.Changefreq, dp.Lastmod
	if dp.Brief != nil {
		p.Brief = dp.Brief.Clone()
	}
	return p
}

// VariantsIn is the page's variants in a plan whose default locale is
// tagged def: its own state there, and its variants elsewhere; nil for
// a page with neither.
func (dp *DocPage) VariantsIn(def string) map[string]Variant {
	if dp.State == "" && len(dp.Variants) == 0 {
		return nil
	}
	out := map[string]Variant{}
	if dp.State != "" {
		out[def] = Variant{State: dp.State}
	}
	for tag, v := range dp.Variants {
		vv := v.variant()
		if vv.State == "" {
			vv.State = VariantPlanned
		}
		out[tag] = vv
	}
	return out
}

func setIf(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

// HomeNote is Tree.HomeNote for a document, read without building its
// tree: only its main roots are made pages.
func (d *Document) HomeNote() string {
	var roots []*Page
	for _, dp := range d.Pages {
		if p := dp.ToPage(); p.Placement == PlacementMain {
			roots = append(roots, &p)
		}
	}
	return homeNote(roots)
}

// CountPages returns how many pages the document holds.
func (d *Document) CountPages() int {
	n := 0
	var count func([]*DocPage)
	count = func(list []*DocPage) {
		for _, p := range list {
			n++
			count(p.Children)
		}
	}
	count(d.Pages)
	return n
}

// Tree builds the document in memory, without a store: pages numbered from
// 1 in outline order, and its cross-links between those numbers. It trusts
// the document; call Validate first.
func (d *Document) Tree() (*Tree, []Link) {
	pages := make([]Page, 0, d.CountPages())
	keys := map[string]int64{}
	var add func(parent int64, list []*DocPage)
	pr := d.Project.ToProject()
	def, _ := DefaultLocale(pr.Locales)
	add = func(parent int64, list []*DocPage) {
		for i, dp := range list {
			p := dp.ToPage()
			p.ID, p.ParentID, p.Position = int64(len(pages)+1), parent, i
			p.Variants = dp.VariantsIn(def.Tag)
			pages = append(pages, p)
			if dp.Key != "" {
				keys[dp.Key] = p.ID
			}
			add(p.ID, dp.Children)
		}
	}
	add(0, d.Pages)
	links := make([]Link, 0, len(d.Links))
	for i, l := range d.Links {
		links = append(links, Link{ID: int64(i + 1), FromID: keys[l.From], ToID: keys[l.To], Label: l.Label})
	}
	pr.XDefault = keys[d.Project.XDefault]
	return NewTree(pr, pages), links
}

// NewDocument builds the native document of a tree and its links. Page keys
// are "p" + the page ID.
func NewDocument(t *Tree, links []Link) *Document {
	pr := t.Project
	d := &Document{
		Format:  FormatV1,
		Project: DocProjectOf(&pr),
	}
	def, _ := DefaultLocale(pr.Locales)
	tags := map[string]bool{}
	for _, l := range pr.Locales {
		tags[l.Tag] = true
	}
	var build func(id int64) []*DocPage
	build = func(id int64) []*DocPage {
		kids := t.Children(id)
		out := make([]*DocPage, 0, len(kids))
		for _, p := range kids {
			out = append(out, docPage(p, def.Tag, tags, build(p.ID)))
		}
		return out
	}
	d.Pages = build(0)
	for _, l := range links {
		d.Links = append(d.Links, DocLink{From: pageKey(l.FromID), To: pageKey(l.ToID), Label: l.Label})
	}
	return d
}

func pageKey(id int64) string { return "p" + strconv.FormatInt(id, 10) }

// PageKeyID is the page id of a key NewDocument wrote ("p12": 12); 0
// for another key.
func PageKeyID(key string) int64 {
	if rest, ok := strings.CutPrefix(key, "p"); ok {
		if id, err := strconv.ParseInt(rest, 10, 64); err == nil && id > 0 {
			return id
		}
	}
	return 0
}

func docPage(p *Page, def string, tags map[string]bool, children []*DocPage) *DocPage {
	dp := &DocPage{
		Key: pageKey(p.ID), Title: p.Title, Kind: p.Kind, Placement: p.Placement,
		Type: p.Type, Status: p.Status, Assignee: p.Assignee, Notes: p.Notes, NotesPublic: p.NotesPublic,
		InSitemap: &p.InSitemap, InHTMLSitemap: &p.InHTMLSitemap,
		Priority: p.Priority, Changefreq: p.Changefreq, Lastmod: p.Lastmod,
		Children: children,
	}
	if !p.Brief.Empty() {
		b := p.Brief.Clone()
		dp.Brief = &b
	}
	if !p.SlugAuto {
		s := p.Slug
		dp.Slug = &s
	}
	if p.Path != "" {
		s := p.Path
		dp.Path = &s
	}
	if p.ParentID != 0 {
		dp.Placement = ""
	}
	for tag, v := range p.Variants {
		if v.Title == "" && v.Slug == "" && v.Path == "" && v.SEOTitle+v.MetaDescription+v.H1+v.Keyword == "" && v.State == VariantPlanned {
			continue // the default: absent
		}
		if !tags[tag] {
			continue // of a locale the plan no longer has: kept aside, not part of the plan
		}
		if tag == def {
			dp.State = v.State
			continue
		}
		if dp.Variants == nil {
			dp.Variants = map[string]*DocVariant{}
		}
		dv := &DocVariant{Title: v.Title, Slug: v.Slug, Path: v.Path}
		if v.State != VariantPlanned {
			dv.State = v.State // planned: the default, absent
		}
		if v.SEOTitle+v.MetaDescription+v.H1+v.Keyword != "" {
			dv.Brief = &VariantText{v.SEOTitle, v.MetaDescription, v.H1, v.Keyword}
		}
		dp.Variants[tag] = dv
	}
	return dp
}

// Encode writes the document as JSON, a page at a time: compact, with a
// line break before each page and link, so its size grows with the pages
// and not with their depth, and nothing but one page is held as text.
func (d *Document) Encode(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	put := func(v any) []byte {
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			panic(err) // plain structs of strings and numbers always encode
		}
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
	bw.WriteString(`{"format":`)
	bw.Write(put(d.Format))
	bw.WriteString(`,"project":`)
	bw.Write(put(d.Project))
	var own DocPage // one copy for every page: put holds it only while encoding
	var pages func(list []*DocPage)
	pages = func(list []*DocPage) {
		for i, p := range list {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteByte('\n')
			own = *p
			own.Children = nil
			b := put(&own)
			if len(p.Children) == 0 {
				bw.Write(b)
				continue
			}
			bw.Write(b[:len(b)-1]) // the page without its closing brace
			bw.WriteString(`,"children":[`)
			pages(p.Children)
			bw.WriteString("]}")
		}
	}
	bw.WriteString(`,"pages":[`)
	pages(d.Pages)
	bw.WriteString("]")
	if len(d.Links) > 0 {
		bw.WriteString(`,"links":[`)
		for i, l := range d.Links {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteByte('\n')
			bw.Write(put(l))
		}
		bw.WriteString("]")
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// Summarize counts the tree's pages by kind, status, page type and
// placement (of their root).
func (t *Tree) Summarize() Summary {
	s := Summary{}
	kinds, statuses, types, places := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	var walk func(id int64, placement string)
	walk = func(id int64, placement string) {
		for _, p := range t.children[id] {
			pl := placement
			if id == 0 {
				pl = p.Placement
			}
			s.Total++
			kinds[p.Kind]++
			statuses[p.Status]++
			ty := p.Type
			if ty == "" {
				ty = "(none)"
			}
			types[ty]++
			places[pl]++
			if p.HasURL() && p.InSitemap {
				s.InSitemap++
			}
			walk(p.ID, pl)
		}
	}
	walk(0, "")
	s.ByKind = ordered(kinds, Kinds)
	s.ByStatus = ordered(statuses, Statuses)
	s.ByPlacement = ordered(places, Placements)
	s.ByType = ordered(types, nil)
	s.HomeNote = t.HomeNote()
	return s
}

// ordered lists counts in the order of known, then the rest by count.
func ordered(m map[string]int, known []string) []Count {
	var out []Count
	for _, k := range known {
		out = append(out, Count{k, m[k]})
		delete(m, k)
	}
	rest := make([]Count, 0, len(m))
	for k, n := range m {
		rest = append(rest, Count{k, n})
	}
	sort.Slice(rest, func(i, j int) bool {
		if rest[i].N != rest[j].N {
			return rest[i].N > rest[j].N
		}
		return rest[i].Name < rest[j].Name
	})
	return append(out, rest...)
}

// PageFieldProblem says what is wrong with a page in a document's terms:
// the JSON name of the first field Page.Validate refused, and why.
func PageFieldProblem(err error) string { return firstField(err, pageFieldNames) }

// lineReader notes where each line of what it reads begins, so that a
// problem the JSON decoder finds at a byte offset is told by line and
// column (4 bytes a line; the decoder holds the whole document anyway).
type lineReader struct {
	r      io.Reader
	n      int64   // bytes read
	starts []int32 // the offset at which each line after the first begins
	head   []byte  // the first bytes read
}

func (l *lineReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if len(l.head) < 64 {
		l.head = append(l.head, p[:min(n, 64-len(l.head))]...)
	}
	for i, c := range p[:n] {
		if c == '\n' {
			l.starts = append(l.starts, int32(l.n)+int32(i)+1)
		}
	}
	l.n += int64(n)
	return n, err
}

// at returns the line and column (from 1, in bytes) of an offset.
func (l *lineReader) at(offset int64) (line, col int) {
	i := sort.Search(len(l.starts), func(i int) bool { return int64(l.starts[i]) > offset })
	start := int64(0)
	if i > 0 {
		start = int64(l.starts[i-1])
	}
	return i + 1, int(offset-start) + 1
}

// jsonProblem says in words what the JSON decoder found wrong with a
// document, where: the line and column, the field by its path of keys,
// and what the field takes.
func jsonProblem(err error, lines *lineReader, offset int64) string {
	where := func(off int64) string {
		line, col := lines.at(off)
		return fmt.Sprintf("Line %d, column %d", line, col)
	}
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == io.EOF:
		return "The document is empty: expected a siteplan/1 JSON object such as {\"format\": \"siteplan/1\", \"project\": {...}, \"pages\": [...]}."
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "The document ends too early: a closing } or ], or a closing quote, is missing (the document may have been cut off)."
	case errors.As(err, &syntax) && strings.HasSuffix(syntax.Error(), "looking for beginning of value") && isSpace(lines.head[:min(len(lines.head), int(syntax.Offset)-1)]):
		return fmt.Sprintf("%s: this is not JSON: a siteplan/1 document begins with {\"format\": \"siteplan/1\", ...}.", where(syntax.Offset-1))
	case errors.As(err, &syntax):
		msg := strings.TrimPrefix(syntax.Error(), "json: ")
		hint := ""
		switch {
		case strings.Contains(msg, "looking for beginning of object key string"):
			hint = "expected a key in double quotes: a comma before } or a key without quotes?"
		case strings.Contains(msg, "looking for beginning of value"):
			hint = "expected a value: a comma before ], a missing value, or text without double quotes?"
		case strings.Contains(msg, "after object key:value pair"):
			hint = "expected a comma or } after a value: a comma missing between two fields?"
		case strings.Contains(msg, "after array element"):
			hint = "expected a comma or ] after a list item: a comma missing between two items?"
		case strings.Contains(msg, "after object key"):
			hint = "expected a colon after the key"
		case strings.Contains(msg, "in string literal"):
			hint = "a line break or control character inside a text: write it as \\n"
		}
		if hint != "" {
			msg = hint + " (" + msg + ")"
		}
		return fmt.Sprintf("%s: the JSON is broken: %s.", where(syntax.Offset-1), msg) // Offset is past the byte at fault
	case errors.As(err, &typ):
		if typ.Field == "" {
			return fmt.Sprintf("The document must be a JSON object such as {\"format\": \"siteplan/1\", \"project\": {...}, \"pages\": [...]}, not %s.", jsonValueName(typ.Value))
		}
		return fmt.Sprintf("%s: %q must be %s, not %s.", where(typ.Offset-1), strings.ReplaceAll(typ.Field, ".", " › "), jsonTypeName(typ.Type), jsonValueName(typ.Value))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Sprintf("%s: unknown field %s: check its spelling against the siteplan/1 format (docs/cli.md, The native format).", where(offset), strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return fmt.Sprintf("%s: the document is not valid siteplan JSON: %s.", where(offset), strings.TrimPrefix(err.Error(), "json: "))
}

// isSpace reports whether b is JSON's white space alone.
func isSpace(b []byte) bool {
	return len(bytes.TrimLeft(b, " \t\r\n")) == 0
}

// jsonTypeName is what a Go type takes, in JSON's words.
func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "text in double quotes"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list in [ ]"
	}
	return "an object in { }"
}

// jsonValueName names a JSON value's kind as the decoder reports it.
func jsonValueName(v string) string {
	switch v {
	case "string":
		return "text"
	case "number":
		return "a number"
	case "bool":
		return "true or false"
	case "array":
		return "a list"
	case "object":
		return "an object"
	}
	return v
}
