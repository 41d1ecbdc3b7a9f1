package export

import (
	"cmp"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"siteplan/site"
)

// The handoff to the CMS: the plan's pages with their briefs, as a
// WordPress export file (WXR 1.2, which Tools → Import → WordPress and
// wp import read) or as the routes a static-site generator loops over.

// Handoff formats.
const (
	HandoffWXR    = "wxr"
	HandoffRoutes = "routes"
)

// HandoffFormats lists the handoff formats.
var HandoffFormats = []string{HandoffWXR, HandoffRoutes}

// wxr is WXR 1.2's document: an RSS channel of items.
type wxr struct {
	XMLName xml.Name   `xml:"rss"`
	Version string     `xml:"version,attr"`
	Excerpt string     `xml:"xmlns:excerpt,attr"`
	Content string     `xml:"xmlns:content,attr"`
	WFW     string     `xml:"xmlns:wfw,attr"`
	DC      string     `xml:"xmlns:dc,attr"`
	WP      string     `xml:"xmlns:wp,attr"`
	Channel wxrChannel `xml:"channel"`
}

type wxrChannel struct {
	Title       string    `xml:"title"`
	Link        string    `xml:"link"`
	Description string    `xml:"description"`
	PubDate     string    `xml:"pubDate"`
	Language    string    `xml:"language"`
	WXRVersion  string    `xml:"wp:wxr_version"`
	BaseSiteURL string    `xml:"wp:base_site_url"`
	BaseBlogURL string    `xml:"wp:base_blog_url"`
	Terms       []wxrTerm `xml:"wp:term"`
	Generator   string    `xml:"generator"`
	Items       []wxrItem `xml:"item"`
}

type wxrTerm struct {
	ID       int64  `xml:"wp:term_id"`
	Taxonomy cdata  `xml:"wp:term_taxonomy"`
	Slug     cdata  `xml:"wp:term_slug"`
	Parent   string `xml:"wp:term_parent"`
	Name     cdata  `xml:"wp:term_name"`
}

type wxrItem struct {
	Title       cdata         `xml:"title"`
	Link        string        `xml:"link"`
	PubDate     string        `xml:"pubDate"`
	Creator     cdata         `xml:"dc:creator"`
	GUID        wxrGUID       `xml:"guid"`
	Description string        `xml:"description"`
	Content     cdata         `xml:"content:encoded"`
	Excerpt     cdata         `xml:"excerpt:encoded"`
	PostID      int64         `xml:"wp:post_id"`
	Date        cdata         `xml:"wp:post_date"`
	DateGMT     cdata         `xml:"wp:post_date_gmt"`
	Comments    cdata         `xml:"wp:comment_status"`
	Pings       cdata         `xml:"wp:ping_status"`
	Name        cdata         `xml:"wp:post_name"`
	Status      cdata         `xml:"wp:status"`
	Parent      int64         `xml:"wp:post_parent"`
	MenuOrder   int           `xml:"wp:menu_order"`
	Type        cdata         `xml:"wp:post_type"`
	Password    cdata         `xml:"wp:post_password"`
	Sticky      int           `xml:"wp:is_sticky"`
	Categories  []wxrCategory `xml:"category"`
	Meta        []wxrPostMeta `xml:"wp:postmeta"`
}

type wxrGUID struct {
	IsPermaLink string `xml:"isPermaLink,attr"`
	Value       string `xml:",chardata"`
}

type wxrCategory struct {
	Domain   string `xml:"domain,attr"`
	Nicename string `xml:"nicename,attr"`
	Name     string `xml:",cdata"`
}

type wxrPostMeta struct {
	Key   cdata `xml:"wp:meta_key"`
	Value cdata `xml:"wp:meta_value"`
}

// cdata is text written as a CDATA section, as WordPress writes it.
type cdata struct {
	Text string `xml:",cdata"`
}

// wxrMenus are the navigation menus a handoff makes: the main tree's
// first two levels below the home page, and the utility and footer
// navigation.
var wxrMenus = []struct{ placement, slug, name string }{
	{site.PlacementMain, "main-navigation", "Main navigation"},
	{site.PlacementUtility, "utility-navigation", "Utility navigation"},
	{site.PlacementFooter, "footer-navigation", "Footer navigation"},
}

// WriteWXR writes the plan as a WordPress export file (WXR 1.2), dated
// at, for WordPress's importer with `/%postname%/` permalinks (or
// `/%postname%` for a plan without trailing slashes) and the home page
// made the static front page after the import (docs/cli.md):
//
//   - every page (kind page or placeholder) a draft `page` item with its
//     title, slug, parent and order, its brief's blocks as Gutenberg
//     block comments holding their notes (its H1 a heading first) and
//     its SEO fields as post meta in the keys Yoast SEO reads;
//   - the home page's children at the top (a child of the front page
//     would be /home/child/ in WordPress), a group with a slug a draft
//     page of its own, since WordPress makes a page's address from its
//     parents' slugs;
//   - each item a date of its own, a second apart (the importer takes
//     two pages with one title and one date for one), titles and
//     content as CDATA, non-ASCII slugs percent-encoded as WordPress
//     keeps them;
//   - the navigation as menus of `nav_menu_item`s: the main tree's top
//     two levels, the utility and the footer navigation, external pages
//     custom links, groups menu headings (custom links to "#").
//
// It returns a warning for each page WordPress would give another
// address than the plan's (a path override outside the page tree, a
// slug WordPress rewrites), before anyone imports.
//
// A page's cross-links end its content: a list of links to their pages
// at their planned URLs, labelled as the plan labels them. A page whose
// type the team hands off as another post type (site.NormalizePostType:
// "post", WooCommerce's "product") is an item of that type, at the top:
// only pages nest in WordPress.
func WriteWXR(w io.Writer, t *site.Tree, opt WXROptions) ([]string, error) {
	at := opt.At
	from := map[int64][]site.Link{}
	for _, l := range opt.Links {
		from[l.FromID] = append(from[l.FromID], l)
	}
	base := strings.TrimSuffix(t.Project.BaseURL, "/")
	pub := at.UTC().Format(time.RFC1123Z)
	doc := wxr{Version: "2.0", Excerpt: "http://wordpress.org/export/1.2/excerpt/", Content: "http://purl.org/rss/1.0/modules/content/",
		WFW: "http://wellformedweb.org/CommentAPI/", DC: "http://purl.org/dc/elements/1.1/", WP: "http://wordpress.org/export/1.2/",
		Channel: wxrChannel{Title: t.Project.Name, Link: base, PubDate: pub, Language: "en", WXRVersion: "1.2",
			BaseSiteURL: base, BaseBlogURL: base, Generator: "siteplan"}}
	n := 0
	item := func(title string, id int64) wxrItem {
		d := at.Add(time.Duration(n) * time.Second) // a date each: the importer's post_exists matches title and date
		n++
		return wxrItem{Title: cdata{title}, PubDate: pub, Creator: cdata{"siteplan"}, GUID: wxrGUID{"false", wxrGUIDOf(base, id)},
			PostID: id, Date: cdata{d.Format(time.DateTime)}, DateGMT: cdata{d.UTC().Format(time.DateTime)}, Comments: cdata{"closed"}, Pings: cdata{"closed"}}
	}
	// Pages, in outline order; a page's parent is its nearest ancestor
	// that is an item, and wpPath is the address WordPress makes of the
	// slugs from the top: what the plan's must be.
	var warnings []string
	var maxID int64
	order := map[int64]int{} // the next menu_order under each page parent
	var walk func(parent, pageParent int64, wpPath string)
	walk = func(parent, pageParent int64, wpPath string) {
		for _, p := range t.Children(parent) {
			maxID = max(maxID, p.ID)
			if !wxrItemIn(t, p, "") {
				walk(p.ID, pageParent, wpPath)
				continue
			}
			name := wpSlug(p.Slug)
			path := wpPath + "/" + name
			if p.IsHome() {
				path = ""
			}
			postType := cmp.Or(opt.PostTypes[p.Type], "page")
			parent := pageParent
			if postType != "page" {
				path, parent = "/"+name, 0 // posts with /%postname% permalinks; other types by their own rewrite, said below
			}
			it := item(p.Title, p.ID)
			it.Link, it.Name, it.Status, it.Parent, it.MenuOrder, it.Type = t.URL(p.ID), cdata{name}, cdata{"draft"}, parent, order[pageParent], cdata{postType}
			it.Content = cdata{strings.TrimPrefix(gutenberg(&p.Brief)+crossLinks(t, from[p.ID]), "\n\n")}
			it.Meta = briefMeta(&p.Brief)
			doc.Channel.Items = append(doc.Channel.Items, it)
			order[pageParent]++
			if p.Kind != site.KindGroup {
				if w := wpAddressWarning(t, p, path, postType); w != "" {
					warnings = append(warnings, w)
				}
			}
			switch {
			case p.IsHome():
				walk(p.ID, 0, "") // the front page's children are at the top
			case postType != "page":
				walk(p.ID, pageParent, wpPath) // only pages are parents
			default:
				walk(p.ID, p.ID, path)
			}
		}
	}
	walk(0, 0, "")
	next := localeItems(&doc, t, item, maxID)
	// Menus: a term each, then their items, nested as the plan is.
	for i, m := range wxrMenus {
		doc.Channel.Terms = append(doc.Channel.Terms, wxrTerm{ID: int64(i + 1), Taxonomy: cdata{"nav_menu"}, Slug: cdata{m.slug}, Name: cdata{m.name}})
		roots := t.Roots(m.placement)
		if m.placement == site.PlacementMain && len(roots) == 1 && roots[0].IsHome() {
			roots = t.Children(roots[0].ID) // the home page's children are the main menu
		}
		const depth = 2 // levels a menu holds
		order := 0
		var add func(ps []*site.Page, parent int64, level int)
		add = func(ps []*site.Page, parent int64, level int) {
			for _, p := range ps {
				next++
				order++
				it := item(p.Title, next)
				it.Status, it.Parent, it.MenuOrder, it.Type = cdata{"publish"}, 0, order, cdata{"nav_menu_item"}
				it.Categories = []wxrCategory{{Domain: "nav_menu", Nicename: m.slug, Name: m.name}}
				kind, object, objectID, url := "post_type", cmp.Or(opt.PostTypes[p.Type], "page"), strconv.FormatInt(p.ID, 10), ""
				switch {
				case p.Kind == site.KindExternal:
					kind, object, objectID, url = "custom", "custom", strconv.FormatInt(next, 10), t.Location(p.ID)
				case p.Kind == site.KindGroup:
					kind, object, objectID, url = "custom", "custom", strconv.FormatInt(next, 10), "#"
				}
				it.Meta = []wxrPostMeta{
					{cdata{"_menu_item_type"}, cdata{kind}},
					{cdata{"_menu_item_menu_item_parent"}, cdata{strconv.FormatInt(parent, 10)}},
					{cdata{"_menu_item_object_id"}, cdata{objectID}},
					{cdata{"_menu_item_object"}, cdata{object}},
					{cdata{"_menu_item_target"}, cdata{""}},
					{cdata{"_menu_item_classes"}, cdata{`a:1:{i:0;s:0:"";}`}},
					{cdata{"_menu_item_xfn"}, cdata{""}},
					{cdata{"_menu_item_url"}, cdata{url}},
				}
				doc.Channel.Items = append(doc.Channel.Items, it)
				if level < depth {
					add(t.Children(p.ID), next, level+1)
				}
			}
		}
		add(roots, 0, 1)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return warnings, err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "\t")
	if err := enc.Encode(doc); err != nil {
		return warnings, err
	}
	_, err := io.WriteString(w, "\n")
	return warnings, err
}

// wxrItemIn reports whether a page is an item of the WXR in the locale
// tagged tag ("": the default locale's, or a plan without locales): a
// page, a placeholder or a group with a slug, offered there.
func wxrItemIn(t *site.Tree, p *site.Page, tag string) bool {
	if def, ok := site.DefaultLocale(t.Project.Locales); ok && tag == "" {
		tag = def.Tag
	}
	if tag != "" && !t.Offered(p, tag) {
		return false // a page of other markets: localeItems writes it
	}
	return p.Kind == site.KindPage || p.Kind == site.KindPlaceholder || p.Kind == site.KindGroup && p.Slug != ""
}

// localeItems adds a localized plan's pages in its other locales, as
// WPML's and Polylang's importers read them, and marks the default
// locale's items likewise: each item its language (WPML's
// _wpml_import_language_code; Polylang's "language" term) and its
// translation group, the page's id (_wpml_import_translation_group;
// Polylang's "post_translations" term pll_pID), and a translation the
// language it was made from (_wpml_import_source_language_code). A
// locale's item hangs under its nearest ancestor offered there, with the
// slugs and title of that locale. It returns the last post id used.
func localeItems(doc *wxr, t *site.Tree, item func(title string, id int64) wxrItem, next int64) int64 {
	def, ok := site.DefaultLocale(t.Project.Locales)
	if !ok {
		return next
	}
	tag := func(l string) string { return strings.ToLower(l) }
	mark := func(it *wxrItem, l string, group int64, source string) {
		g := strconv.FormatInt(group, 10)
		it.Meta = append(it.Meta, wxrPostMeta{cdata{"_wpml_import_language_code"}, cdata{tag(l)}},
			wxrPostMeta{cdata{"_wpml_import_translation_group"}, cdata{g}})
		if source != "" {
			it.Meta = append(it.Meta, wxrPostMeta{cdata{"_wpml_import_source_language_code"}, cdata{tag(source)}})
		}
		it.Categories = append(it.Categories, wxrCategory{Domain: "language", Nicename: tag(l), Name: l},
			wxrCategory{Domain: "post_translations", Nicename: "pll_" + g, Name: "pll_" + g})
	}
	for i := range doc.Channel.Items {
		it := &doc.Channel.Items[i]
		mark(it, def.Tag, it.PostID, "")
	}
	for _, l := range t.Project.Locales {
		if l.Tag == def.Tag {
			continue
		}
		lt := t.InLocale(l.Tag)
		ids := map[int64]int64{} // page id: its item in this locale
		order := map[int64]int{}
		var walk func(parent, itemParent int64)
		walk = func(parent, itemParent int64) {
			for _, p := range lt.Children(parent) {
				if !wxrItemIn(t, t.Page(p.ID), l.Tag) {
					walk(p.ID, itemParent)
					continue
				}
				next++
				ids[p.ID] = next
				it := item(p.Title, next)
				name := wpSlug(p.Slug)
				it.Link, it.Name, it.Status, it.Parent, it.MenuOrder, it.Type = lt.URL(p.ID), cdata{name}, cdata{"draft"}, itemParent, order[itemParent], cdata{"page"}
				order[itemParent]++
				v := t.Page(p.ID).Variant(l.Tag)
				b := p.Brief.Clone()
				b.SEOTitle, b.MetaDescription, b.H1, b.Keyword = v.SEOTitle, v.MetaDescription, v.H1, v.Keyword
				it.Content = cdata{strings.TrimPrefix(gutenberg(&b), "\n\n")}
				it.Meta = briefMeta(&b)
				mark(&it, l.Tag, p.ID, def.Tag)
				doc.Channel.Items = append(doc.Channel.Items, it)
				under := next
				if p.IsHome() {
					under = 0 // the front page's children are at the top
				}
				walk(p.ID, under)
			}
		}
		walk(0, 0)
	}
	return next
}

// WXROptions are what a WordPress handoff writes besides the plan: its
// cross-links, the post type each page type hands off as (a page when
// not said), and the date of its items.
type WXROptions struct {
	Links     []site.Link
	PostTypes map[string]string
	At        time.Time
}

// wxrGUIDOf is an item's GUID: a URL, as WordPress keeps a GUID (it
// made "http://siteplan-1" of a bare word), unique to the plan's item.
func wxrGUIDOf(base string, id int64) string {
	return base + "/?siteplan_item=" + strconv.FormatInt(id, 10)
}

// wpSlug is a slug as WordPress keeps it in post_name: lower case, and
// every byte but ASCII letters, digits, - and _ percent-encoded in lower
// case, as its sanitize_title keeps a non-ASCII title.
func wpSlug(s string) string {
	return escapeBytes(strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s), func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' }, "%", lowerHexDigits)
}

// pctUpper writes a path's percent-encodings in upper case, as the plan
// does, to hold it against WordPress's lower-case ones.
func pctUpper(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = upperHex(b[i+1]), upperHex(b[i+2])
		}
	}
	return string(b)
}

func upperHex(c byte) byte {
	if c >= 'a' && c <= 'f' {
		return c - 'a' + 'A'
	}
	return c
}

// wpAddressWarning says where WordPress would put page p of t, at path
// with the permalinks the plan asks for (/%postname%/ with trailing
// slashes, /%postname% without), when that is not its planned address;
// "" when it is.
func wpAddressWarning(t *site.Tree, p *site.Page, path, postType string) string {
	got := path
	if t.Project.TrailingSlash || path == "" {
		got += "/"
	}
	want := strings.TrimPrefix(t.Location(p.ID), site.Origin(t.Project.BaseURL))
	switch {
	case postType != "page" && postType != "post":
		return fmt.Sprintf("“%s” is handed off as a %s: WordPress gives it the address its post type's permalinks say, which siteplan cannot check against %s.", p.Title, postType, want)
	case pctUpper(got) == pctUpper(want):
		return ""
	case postType == "post":
		return fmt.Sprintf("“%s”: WordPress would put it at %s, not %s (a post has no parent in WordPress).", p.Title, got, want)
	}
	return fmt.Sprintf("“%s”: WordPress would put it at %s, not %s (%s).", p.Title, got, want, wpWhy(p))
}

// wpWhy says why WordPress cannot give a page its planned address.
func wpWhy(p *site.Page) string {
	switch {
	case p.Path != "":
		return "its path override is not where the page sits in the tree, or not in the plan's trailing-slash form; WordPress makes a page's address from its parents' slugs"
	case strings.ToLower(p.Slug) != p.Slug:
		return "WordPress writes slugs in lower case"
	}
	return "WordPress rewrites its slug"
}

// gutenberg is a brief as a page's first content: its H1 a heading, each
// block a named group holding its note (or a placeholder paragraph), as
// the block editor saves them.
func gutenberg(b *site.Brief) string {
	var s strings.Builder
	if b.H1 != "" {
		s.WriteString("<!-- wp:heading {\"level\":1} -->\n<h1 class=\"wp-block-heading\">" + htmlText(b.H1) + "</h1>\n<!-- /wp:heading -->\n\n")
	}
	for _, bl := range b.Blocks {
		name, _ := json.Marshal(map[string]any{"metadata": map[string]string{"name": site.BlockLabels[bl.Kind]}, "layout": map[string]string{"type": "constrained"}})
		note := bl.Note
		if note == "" {
			note = site.BlockLabels[bl.Kind]
		}
		s.WriteString("<!-- wp:group " + string(name) + " -->\n<div class=\"wp-block-group\"><!-- wp:paragraph -->\n<p>" + htmlText(note) +
			"</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:group -->\n\n")
	}
	return strings.TrimSuffix(s.String(), "\n\n")
}

// crossLinks are a page's cross-links as a list block of links, each to
// its page's planned URL (where it points, for an external page) and
// named by its label, else the page's title.
func crossLinks(t *site.Tree, links []site.Link) string {
	var items []string
	for _, l := range links {
		to := t.Page(l.ToID)
		if to == nil {
			continue
		}
		href := t.Location(to.ID)
		if href == "" {
			continue // a group: nowhere to go
		}
		text := cmp.Or(l.Label, to.Title)
		items = append(items, "<!-- wp:list-item -->\n<li><a href=\""+strings.ReplaceAll(htmlText(href), `"`, "&quot;")+"\">"+htmlText(text)+"</a></li>\n<!-- /wp:list-item -->")
	}
	if len(items) == 0 {
		return ""
	}
	return "\n\n<!-- wp:list {\"className\":\"siteplan-links\"} -->\n<ul class=\"siteplan-links\">" + strings.Join(items, "\n") + "</ul>\n<!-- /wp:list -->"
}

// htmlText escapes text for HTML, as the block editor saves it.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// briefMeta are a brief's post meta: its SEO fields in Yoast SEO's keys,
// the rest in siteplan's.
func briefMeta(b *site.Brief) []wxrPostMeta {
	var out []wxrPostMeta
	for _, kv := range [][2]string{
		{"_yoast_wpseo_title", b.SEOTitle}, {"_yoast_wpseo_metadesc", b.MetaDescription}, {"_yoast_wpseo_focuskw", b.Keyword},
		{"_siteplan_intent", b.Intent}, {"_siteplan_word_target", wordTarget(b.WordTarget)}, {"_siteplan_content_owner", b.Owner}, {"_siteplan_due", b.Due},
	} {
		if kv[1] != "" {
			out = append(out, wxrPostMeta{cdata{kv[0]}, cdata{kv[1]}})
		}
	}
	return out
}

func wordTarget(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// Route is one route of the routes handoff: a page with its place in
// the site and its brief; in a localized plan, a page in one locale with
// its alternates.
type Route struct {
	Path      string      `json:"path"` // "/about-us"; "" for a group or an external page
	URL       string      `json:"url,omitempty"`
	Title     string      `json:"title"`
	Parent    string      `json:"parent"` // the parent route's key; "" at the top
	Key       string      `json:"key"`    // "p12", unique ("p12-de" in a localized plan)
	Order     int         `json:"order"`  // among its siblings, from 0
	Depth     int         `json:"depth"`  // from 1
	Kind      string      `json:"kind"`
	Placement string      `json:"placement"`
	Type      string      `json:"type,omitempty"`
	Status    string      `json:"status"`
	Sitemap   bool        `json:"in_sitemap"`
	Brief     *site.Brief `json:"brief,omitempty"`
	// A localized plan's: the route's locale, its translation group (the
	// page's key), its state there, and its alternates as Next.js's
	// metadata takes them (Nuxt's and Astro's i18n read the same map).
	Locale     string           `json:"locale,omitempty"`
	Group      string           `json:"group,omitempty"`
	State      string           `json:"state,omitempty"`
	Alternates *RouteAlternates `json:"alternates,omitempty"`
}

// RouteAlternates are a route's canonical URL and its URL in each
// locale it is offered in, by tag, with x-default.
type RouteAlternates struct {
	Canonical string            `json:"canonical"`
	Languages map[string]string `json:"languages"`
}

// Routes is the routes handoff's document.
type Routes struct {
	Format  string   `json:"format"` // "siteplan-routes/1"
	Site    string   `json:"site"`
	BaseURL string   `json:"base_url"`
	Locales []string `json:"locales,omitempty"` // a localized plan's, in its order
	Routes  []Route  `json:"routes"`
}

// WriteRoutes writes every page of the plan, in outline order, as the
// JSON a static-site generator loops over (Routes): its path, title,
// place and brief. A localized plan's routes are each page in each
// locale it is offered in, locale by locale, in that locale's title,
// URL and brief words, with its alternates (site.Tree.Hreflang).
func WriteRoutes(w io.Writer, t *site.Tree) error {
	r := Routes{Format: "siteplan-routes/1", Site: t.Project.Name, BaseURL: t.Project.BaseURL, Routes: []Route{}}
	if len(t.Project.Locales) == 0 {
		r.Routes = routesOf(t, "", nil, r.Routes)
	}
	for _, l := range t.Project.Locales {
		r.Locales = append(r.Locales, l.Tag)
		r.Routes = routesOf(t.InLocale(l.Tag), l.Tag, t, r.Routes)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// routesOf appends the routes of a plan (t), or of a localized plan
// (whole) as the locale tagged tag sees it (t its InLocale): only the
// pages offered there, each under its nearest offered ancestor.
func routesOf(t *site.Tree, tag string, whole *site.Tree, out []Route) []Route {
	origin := site.Origin(t.Project.BaseURL)
	suffix := ""
	if tag != "" {
		suffix = "-" + tag
	}
	order := map[string]int{}
	placed := map[int64]string{} // a page's navigation is its root's, as inventory.csv says
	parent := map[int64]string{} // the route key a page's children hang from
	t.Walk(func(p *site.Page, depth int) bool {
		placed[p.ID] = p.Placement
		if p.ParentID != 0 {
			placed[p.ID] = placed[p.ParentID]
		}
		key := "p" + strconv.FormatInt(p.ID, 10)
		up := parent[p.ParentID]
		if whole != nil && !whole.Offered(whole.Page(p.ID), tag) {
			parent[p.ID] = up // its children hang from its parent's route
			return true
		}
		parent[p.ID] = key + suffix
		rt := Route{Title: p.Title, Key: key + suffix, Parent: up, Order: order[up], Depth: depth, Kind: p.Kind,
			Placement: placed[p.ID], Type: p.Type, Status: p.Status, Sitemap: p.InSitemap && p.HasURL()}
		order[up]++
		switch p.Kind {
		case site.KindPage:
			rt.URL = t.URL(p.ID)
			rt.Path = strings.TrimPrefix(rt.URL, origin)
		case site.KindPlaceholder: // planned, not built: where it will be
			rt.Path = strings.TrimPrefix(t.Location(p.ID), origin)
		case site.KindExternal:
			rt.URL = t.Location(p.ID)
		}
		b := p.Brief.Clone()
		if whole != nil {
			v := whole.Variant(whole.Page(p.ID), tag)
			rt.Locale, rt.Group, rt.State = tag, key, v.State
			b.SEOTitle, b.MetaDescription = cmp.Or(v.SEOTitle, b.SEOTitle), cmp.Or(v.MetaDescription, b.MetaDescription)
			b.H1, b.Keyword = cmp.Or(v.H1, b.H1), cmp.Or(v.Keyword, b.Keyword)
			if hs := whole.Hreflang(p.ID); len(hs) > 0 && rt.URL != "" {
				rt.Alternates = &RouteAlternates{Canonical: rt.URL, Languages: map[string]string{}}
				for _, h := range hs {
					rt.Alternates.Languages[h.Tag] = h.URL
				}
			}
		}
		if !b.Empty() {
			rt.Brief = &b
		}
		out = append(out, rt)
		return true
	})
	return out
}
