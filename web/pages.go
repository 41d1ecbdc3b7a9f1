package web

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// pageStore is what the outline, the details panel, the diagram and the export read and write.
type pageStore interface {
	Page(ctx context.Context, id int64) (site.Page, error)
	Tree(ctx context.Context, projectID int64) (*site.Tree, error)
	Outline(ctx context.Context, projectID int64) (site.PlanReader, error)
	OutlineRows(ctx context.Context, projectID int64, from site.OutlineFrom, open func(*site.Page, int) bool, limit int) ([]site.Page, []site.OutlineFrom, error)
	PagesToDepth(ctx context.Context, projectID int64, depth, limit int) ([]site.Page, int, error)
	Ancestors(ctx context.Context, id int64) ([]site.Page, error)
	DescendantCount(ctx context.Context, id int64) (int, error)
	PageTypes(ctx context.Context, projectID int64, limit int) ([]string, error)
	CreatePage(ctx context.Context, p *site.Page) error
	UpdatePage(ctx context.Context, p *site.Page) error
	EditPage(ctx context.Context, p *site.Page) (site.PageEdit, error)
	Rename(ctx context.Context, projectID, id int64, title string, version int64) (site.PageEdit, error)
	Move(ctx context.Context, id, parentID int64, placement string, position int) (site.PageEdit, error)
	DeletePage(ctx context.Context, id int64) (int, error)
	DeletePageTo(ctx context.Context, id int64, gone *site.Decision) (int, error)
	LaunchedCount(ctx context.Context, projectID, id int64) (int, error)
	DuplicatePage(ctx context.Context, id int64) (int64, error)
	InsertOutline(ctx context.Context, projectID, parentID int64, items []*site.OutlineItem) ([]int64, error)
	Search(ctx context.Context, projectID int64, q string, except int64, limit int) ([]site.Found, error)
	Variants(ctx context.Context, id int64) (map[string]site.Variant, error)
	VariantsOf(ctx context.Context, projectID int64, ids []int64, tags ...string) (map[string]map[int64]site.Variant, error)
	RetitleVariant(ctx context.Context, projectID, id int64, tag, title string) error
	NameVariant(ctx context.Context, projectID, id int64, tag, title, slug, state string) error
	SetBranchState(ctx context.Context, projectID, root int64, tag, state string) (int, error)
}

// page loads the :pid page and checks it belongs to the :id project.
// Errors: ENotFound.
func (s *Server) page(c echo.Context) (site.Project, site.Page, error) {
	p, err := s.project(c)
	if err != nil {
		return p, site.Page{}, err
	}
	pid, err := idParam(c, "pid")
	if err != nil {
		return p, site.Page{}, err
	}
	pg, err := s.pageIn(c.Request().Context(), pid)
	if err == nil && pg.ProjectID != p.ID {
		err = site.Errorf(site.ENotFound, "Page %d does not exist.", pid)
	}
	return p, pg, err
}

// pageIn is page id, with its variants for a viewer who reads the plan
// in another locale than the default, so that its title, URL and state
// show as the viewer's outline shows them. Errors: ENotFound.
func (s *Server) pageIn(ctx context.Context, id int64) (site.Page, error) {
	pg, err := s.store.pages.Page(ctx, id)
	if err == nil && site.ViewerFrom(ctx).Locale != "" {
		pg.Variants, err = s.store.pages.Variants(ctx, id)
	}
	return pg, err
}

// largeTree is the page count above which the editor opens collapsed
// below level 2.
const largeTree = 300

func outlineLevel(c echo.Context, p site.Project) int {
	if n, err := strconv.Atoi(c.QueryParam("level")); err == nil && n > 0 {
		return min(n, 99)
	}
	if p.PageCount > largeTree {
		return 2
	}
	return 99
}

func (s *Server) editor(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	return s.renderEditor(c, p, nil)
}

// renderEditor renders the editor page; with a selected page, the outline
// also opens the branches down to it, and shows as many rows as it takes
// to show it.
// A client on a share link gets the review view instead.
func (s *Server) renderEditor(c echo.Context, p site.Project, selected *site.Page) error {
	ctx := c.Request().Context()
	var open []int64
	if selected != nil {
		anc, err := s.store.pages.Ancestors(ctx, selected.ID)
		if err != nil {
			return err
		}
		open = append(open, selected.ID)
		for _, a := range anc {
			open = append(open, a.ID)
		}
	}
	level := outlineLevel(c, p)
	outline, err := s.outlineProps(c, p, level, open, outlineRowsAsked(c))
	if err == nil && selected != nil && outline.Tree.Page(selected.ID) == nil {
		// The page asked for is past the first rows: as many as it takes.
		outline, err = s.outlineProps(c, p, level, open, maxOutlineRows)
	}
	if err != nil {
		return err
	}
	if viewer(c).Share {
		props := views.ReviewProps{Layout: s.layout(c, p.Name), Project: p, Pages: p.PageCount, Outline: outline,
			Approved: c.QueryParam("approved") != "", Signer: author(c)}
		if props.Brand, err = s.store.themes.Brand(ctx, p.ID); err != nil { // the agency's look: the project's, else its team's
			return err
		}
		if vs, err := s.store.history.Versions(ctx, p.ID); err != nil {
			return err
		} else if len(vs) > 0 {
			props.Newest = &vs[0]
		}
		if props.Signer != "" {
			open, err := s.store.comments.OpenComments(ctx, p.ID)
			if err != nil {
				return err
			}
			props.Mentions = site.ThreadsMentioning(open, props.Signer)
		}
		if viewer(c).MayDownload(site.DownloadRedirects) { // the relaunch's map is the team's unless the link shares it
			if st, err := s.store.redirects.RedirectStatus(ctx, p.ID); err != nil {
				return err
			} else if st.OldURLs > 0 {
				props.Redirects = &st
			}
		}
		if selected != nil {
			card, err := s.pageCard(c, p, *selected)
			if err != nil {
				return err
			}
			props.Card = &card
		}
		return render(c, http.StatusOK, views.Review(props))
	}
	props := views.EditorProps{Layout: s.layout(c, p.Name), Project: p, Outline: outline}
	props.Layout.SkipTo, props.Layout.SkipLabel = skipTo(outline, selected), "Skip to the outline"
	if props.Watching, err = s.store.inbox.Watching(ctx, viewer(c).UserID, p.ID); err != nil {
		return err
	}
	if props.OpenProposals, err = s.store.proposals.OpenProposals(ctx, p.ID); err != nil {
		return err
	}
	if selected != nil {
		d, err := s.details(c, p, *selected)
		if err != nil {
			return err
		}
		props.Details = &d
	}
	return render(c, http.StatusOK, views.Editor(props))
}

// skipTo is the outline row the editor's skip link goes to: the selected
// page's title, else the first page's; "" in a plan with no pages. A
// link to it focuses it, which selects it, as a click would.
func skipTo(o views.Rows, selected *site.Page) string {
	if selected != nil {
		return "title-" + strconv.FormatInt(selected.ID, 10)
	}
	for _, pl := range site.Placements {
		if roots := o.Tree.Roots(pl); len(roots) > 0 {
			return "title-" + strconv.FormatInt(roots[0].ID, 10)
		}
	}
	return ""
}

// outlineChunk is how many rows of a list the outline is sent at once
// in each navigation area: the rest of a list shown in part follows as it
// comes into view (views.Rows), so expanding a 10,000-page plan whole
// paints as soon as a 1,000-page one. maxOutlineRows bounds a reload that
// asks for as many rows as its viewer had loaded.
const (
	outlineChunk   = 200
	maxOutlineRows = 12000
)

// outlineProps loads the outline to level (outlineLevel), with the
// branches in open opened too: the first rows rows of each navigation
// area, in outline order.
func (s *Server) outlineProps(c echo.Context, p site.Project, level int, open []int64, rows int) (views.Rows, error) {
	ctx := c.Request().Context()
	if heavyOutline(rows, p) {
		var done func()
		var err error
		if ctx, done, err = s.heavyTurn(c, readBudget); err != nil {
			return views.Rows{}, err
		}
		defer done()
	}
	opened := make(map[int64]bool, len(open))
	for _, id := range open {
		opened[id] = true
	}
	within := func(pg *site.Page, depth int) bool { return depth < level || opened[pg.ID] }
	var pages []site.Page
	var cut []site.OutlineFrom
	for _, pl := range site.Placements {
		got, more, err := s.store.pages.OutlineRows(ctx, p.ID, site.OutlineFrom{Placement: pl, Depth: 1}, within, rows)
		if err != nil {
			return views.Rows{}, err
		}
		pages, cut = append(pages, got...), append(cut, more...)
	}
	return s.rows(ctx, p, pages, level, cut)
}

// rows makes loaded pages the outline's rows: their tree, and, for a
// viewer reading the plan in another locale than the default, each
// row's variant there as the plan has it (site.VariantOf: a page of
// other markets is not offered where it lists no variant). The rows'
// variants come in one map, not a map a page: 10,000 rows' were 12 MB.
func (s *Server) rows(ctx context.Context, p site.Project, pages []site.Page, level int, more []site.OutlineFrom) (views.Rows, error) {
	r := views.Rows{ProjectID: p.ID, Tree: site.NewTree(p, pages), Level: level, More: more}
	tag := site.ViewerFrom(ctx).Locale
	if tag == "" {
		return r, nil
	}
	ids := make([]int64, len(pages))
	for i := range pages {
		ids[i] = pages[i].ID
	}
	def, _ := site.DefaultLocale(p.Locales)
	vs, err := s.store.pages.VariantsOf(ctx, p.ID, ids, tag, def.Tag)
	if err != nil {
		return r, err
	}
	own, defs := vs[tag], vs[def.Tag]
	for _, id := range ids {
		v, ok := own[id]
		d, dok := defs[id]
		own[id] = site.VariantOf(v, ok, d, dok)
	}
	r.Locale = own
	return r, nil
}

// outlineRowsAsked is how many rows of each navigation area an outline
// answer shows: the query's rows (what the viewer had loaded, when
// reloading), within outlineChunk and maxOutlineRows.
func outlineRowsAsked(c echo.Context) int {
	n, _ := strconv.Atoi(c.QueryParam("rows"))
	return min(max(n, outlineChunk), maxOutlineRows)
}

// heavyOutline reports whether an outline answer of rows rows of p is a
// heavy read: more than a chunk of a large plan is megabytes of HTML, so
// it waits its turn with the other heavy reads, within their budget, and
// is not kept.
func heavyOutline(rows int, p site.Project) bool {
	return rows > outlineChunk && p.PageCount > largePlan
}

// moreRows is the rest of a list the outline showed in part, from where
// its last row says it goes on (views.Rows), a chunk at a time, each row
// opened down to the outline's level.
func (s *Server) moreRows(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	var m site.OutlineFrom
	var level int
	err = echo.QueryParamsBinder(c).Int64("parent", &m.Parent).String("placement", &m.Placement).
		Int64("after", &m.After).Int("depth", &m.Depth).Int("level", &level).BindError()
	if err != nil || !slices.Contains(site.Placements, m.Placement) || m.Depth < 1 {
		return site.Errorf(site.EInvalid, "Which rows to load next is not clear: reload the page.")
	}
	within := func(_ *site.Page, depth int) bool { return depth < level }
	ctx := c.Request().Context()
	pages, more, err := s.store.pages.OutlineRows(ctx, p.ID, m, within, outlineChunk)
	if err != nil {
		return err
	}
	r, err := s.rows(ctx, p, pages, level, more)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.List(r, m.Parent, m.Placement))
}

// childRows is the first chunk of parent's children, each closed, and
// where the list goes on if it does.
func (s *Server) childRows(ctx context.Context, p site.Project, parent int64) (views.Rows, error) {
	never := func(*site.Page, int) bool { return false }
	pages, more, err := s.store.pages.OutlineRows(ctx, p.ID, site.OutlineFrom{Parent: parent, Placement: site.PlacementMain, Depth: 1}, never, outlineChunk)
	if err != nil {
		return views.Rows{}, err
	}
	return s.rows(ctx, p, pages, 0, more)
}

// maxPageTypes is the most page types the details form offers.
const maxPageTypes = 200

// pageTypes lists the plan's page types for the details form to offer,
// asked for when its page type field is first focused: counting them
// reads every page of the plan (docs/benchmarks.md), too much
// for every opening of the editor.
func (s *Server) pageTypes(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	types, err := s.store.pages.PageTypes(c.Request().Context(), p.ID, maxPageTypes)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.PageTypeOptions(types))
}

// details gathers the details panel of a page: its URL (from its
// ancestors only) and its links.
func (s *Server) details(c echo.Context, p site.Project, pg site.Page) (views.DetailsProps, error) {
	ctx := c.Request().Context()
	t, _, err := s.placed(ctx, p, pg)
	if err != nil {
		return views.DetailsProps{}, err
	}
	out, in, err := s.store.links.PageLinks(ctx, pg.ID)
	if err != nil {
		return views.DetailsProps{}, err
	}
	comments, err := s.commentsProps(c, pg)
	if err != nil {
		return views.DetailsProps{}, err
	}
	tr, err := s.translations(c, p, pg)
	if err != nil {
		return views.DetailsProps{}, err
	}
	return views.DetailsProps{
		Page: pg, IsRoot: pg.ParentID == 0, URL: shownURL(c, t, pg.ID), Location: t.Location(pg.ID),
		Form:         views.PageForm{Priority: priorityText(pg.Priority)},
		Links:        views.LinksProps{Page: pg, Out: out, In: in},
		Comments:     comments,
		Translations: tr,
	}, nil
}

// translations is a localized plan's page in its locales, for the
// details panel (none for a plan in one language).
func (s *Server) translations(c echo.Context, p site.Project, pg site.Page) (views.TranslationsProps, error) {
	if len(p.Locales) == 0 {
		return views.TranslationsProps{}, nil
	}
	var err error
	if pg.Variants, err = s.store.pages.Variants(c.Request().Context(), pg.ID); err != nil {
		return views.TranslationsProps{}, err
	}
	t := site.NewTree(p, []site.Page{pg})
	states := map[string]string{}
	for _, l := range p.Locales {
		states[l.Tag] = t.Variant(&pg, l.Tag).State
	}
	return views.TranslationsProps{Page: pg, Locales: p.Locales, States: states}, nil
}

// saveVariant saves the page's title, slug and state in one locale, and
// answers with the panel's locales, the error beside them if refused.
func (s *Server) saveVariant(c echo.Context) error {
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	tag := c.Param("tag")
	err = s.store.pages.NameVariant(c.Request().Context(), p.ID, pg.ID, tag, c.FormValue("title"), c.FormValue("slug"), c.FormValue("state"))
	if code := site.ErrorCode(err); code != "" && code != site.EInvalid {
		return err
	}
	props, terr := s.translations(c, p, pg)
	if terr != nil {
		return terr
	}
	if err != nil {
		props.Error = site.ErrorMessage(err)
		return rerender(c, err, views.Translations(props))
	}
	setChange(c, change{Kind: "page", Page: pg.ID})
	props.Saved = tag
	return render(c, http.StatusOK, views.Translations(props))
}

// renameVariant renames a page in one locale, from the outline shown in
// that locale: its variant's title (a slug that followed the title
// follows it), answering with the row's title as the locale shows it.
func (s *Server) renameVariant(c echo.Context) error {
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.store.pages.RetitleVariant(ctx, p.ID, pg.ID, c.Param("tag"), c.FormValue("title")); err != nil {
		return err
	}
	if pg, err = s.pageIn(ctx, pg.ID); err != nil {
		return err
	}
	setChange(c, change{Kind: "page", Page: pg.ID})
	trigger(c, "page-changed", pg.ID)
	return render(c, http.StatusOK, views.Title(&pg, false))
}

func (s *Server) pageDetails(c echo.Context) error {
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	if !isHTMX(c) {
		return s.renderEditor(c, p, &pg)
	}
	if viewer(c).Share {
		card, err := s.pageCard(c, p, pg)
		if err != nil {
			return err
		}
		return render(c, http.StatusOK, views.PageCard(card))
	}
	d, err := s.details(c, p, pg)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.Details(d))
}

// pageCard gathers a page as a client reviews it.
func (s *Server) pageCard(c echo.Context, p site.Project, pg site.Page) (views.PageCardProps, error) {
	t, anc, err := s.placed(c.Request().Context(), p, pg)
	if err != nil {
		return views.PageCardProps{}, err
	}
	comments, err := s.commentsProps(c, pg)
	if err != nil {
		return views.PageCardProps{}, err
	}
	card := views.PageCardProps{Page: pg, URL: shownURL(c, t, pg.ID), Location: t.Location(pg.ID), Comments: comments}
	tag := viewer(c).Locale
	if tag != "" { // the card in the locale the client reads the plan in
		card.Locale, card.State = tag, t.Variant(t.Page(pg.ID), tag).State
		card.Page.Title, _ = t.Page(pg.ID).TitleIn(tag)
	}
	for _, a := range anc {
		title, _ := a.TitleIn(tag)
		card.Trail = append(card.Trail, title)
	}
	return card, nil
}

// placed is page pg with the pages above it (anc), enough for its URL;
// in a localized plan with their variants, for its URL in each locale.
func (s *Server) placed(ctx context.Context, p site.Project, pg site.Page) (t *site.Tree, anc []site.Page, err error) {
	if anc, err = s.store.pages.Ancestors(ctx, pg.ID); err != nil {
		return nil, nil, err
	}
	if len(p.Locales) > 0 {
		for i := range anc {
			if anc[i].Variants, err = s.store.pages.Variants(ctx, anc[i].ID); err != nil {
				return nil, nil, err
			}
		}
		if pg.Variants, err = s.store.pages.Variants(ctx, pg.ID); err != nil {
			return nil, nil, err
		}
	}
	return site.NewTree(p, append(anc, pg)), anc, nil
}

// shownURL is page id's URL as the viewer reads the plan: in a
// localized plan its URL in the viewer's locale, or the default's.
func shownURL(c echo.Context, t *site.Tree, id int64) string {
	if len(t.Project.Locales) == 0 {
		return t.URL(id)
	}
	def, _ := site.DefaultLocale(t.Project.Locales)
	return t.LocaleURL(id, cmp.Or(viewer(c).Locale, def.Tag))
}

func (s *Server) outline(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	// A live update reloads the outline with the branches its viewer
	// had opened.
	var open []int64
	for i, f := range strings.Split(c.QueryParam("open"), ",") {
		if id, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64); err == nil && id > 0 && i < maxOpen {
			open = append(open, id)
		}
	}
	if c.QueryParams().Has("locale") { // the switcher: the address names the locale shown, for a reload
		c.Response().Header().Set("HX-Replace-Url", views.KeepLocale(c.Request().Context(), projectPath(p.ID)))
	}
	level, rows := outlineLevel(c, p), outlineRowsAsked(c)
	key := outlineKey(c, p, level, rows, open)
	keep := !heavyOutline(rows, p)
	if keep {
		if b, ok := s.outlines.get(key); ok {
			return c.HTMLBlob(http.StatusOK, b)
		}
	}
	props, err := s.outlineProps(c, p, level, open, rows)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := views.Outline(props).Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	if keep {
		s.outlines.put(key, buf.Bytes())
	}
	return c.HTMLBlob(http.StatusOK, buf.Bytes())
}

// outlineKey names an outline in the outline cache by all it shows: the
// plan's version and comments, the level, rows and branches asked for, whether
// the viewer may edit, the team's type colours and what of the plan the
// viewer sees (a client's projection), in which locale. An edit on any
// server makes a new key.
func outlineKey(c echo.Context, p site.Project, level, rows int, open []int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%d|%d|%d|%d|%t|%s|%s|%s|", p.ID, p.Version, p.CommentVersion, level, rows,
		viewer(c).Access >= site.AccessEdit, site.PaletteFrom(c.Request().Context()).Key(), viewer(c).Projection().Key(), viewer(c).Locale)
	for _, id := range open {
		b.WriteString(strconv.FormatInt(id, 10) + ",")
	}
	return b.String()
}

// maxOpen bounds the opened branches an outline reload loads.
const maxOpen = 500

func (s *Server) children(c echo.Context) error {
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	r, err := s.childRows(c.Request().Context(), p, pg.ID)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.List(r, pg.ID, site.PlacementMain))
}

// formID reads an optional numeric form value; absent or bad is 0.
func formID(c echo.Context, name string) int64 {
	n, _ := strconv.ParseInt(c.FormValue(name), 10, 64)
	return n
}

func (s *Server) createPage(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	// The outliner sends the title typed into a new row.
	title := c.FormValue("title")
	if title == "" {
		title = "New page"
	}
	pg := site.NewPage(title)
	pg.ProjectID, pg.ParentID, pg.Position = p.ID, formID(c, "parent"), -1
	if n, err := strconv.Atoi(c.FormValue("position")); err == nil && n >= 0 {
		pg.Position = n
	}
	if v := c.FormValue("placement"); v != "" {
		pg.Placement = v
	}
	if after := formID(c, "after"); after != 0 {
		sib, err := s.store.pages.Page(ctx, after)
		if err != nil || sib.ProjectID != p.ID {
			return site.Errorf(site.ENotFound, "The page to add after no longer exists.")
		}
		pg.ParentID, pg.Placement, pg.Position = sib.ParentID, sib.Placement, sib.Position+1
	}
	if err := s.store.pages.CreatePage(ctx, &pg); err != nil {
		return err
	}
	// Adding under a collapsed branch whose children are not on the page:
	// send the whole list so the branch opens complete.
	if pg.ParentID != 0 && c.FormValue("loaded") == "0" {
		r, err := s.childRows(ctx, p, pg.ParentID)
		if err != nil {
			return err
		}
		c.Response().Header().Set("HX-Retarget", "#children-"+strconv.FormatInt(pg.ParentID, 10))
		c.Response().Header().Set("HX-Reswap", "innerHTML")
		return render(c, http.StatusCreated, views.List(r, pg.ParentID, site.PlacementMain))
	}
	r, err := s.rows(ctx, p, []site.Page{pg}, 0, nil)
	if err != nil {
		return err
	}
	return render(c, http.StatusCreated, views.Node(r, &pg))
}

// readPageForm copies the details form onto pg, keeping the raw priority
// text; it returns the messages of fields that do not parse.
func readPageForm(c echo.Context, pg *site.Page) (views.PageForm, site.FieldErrors) {
	f := views.PageForm{Priority: c.FormValue("priority")}
	errs := site.FieldErrors{}
	pg.Version, _ = strconv.ParseInt(c.FormValue("version"), 10, 64)
	pg.Title = c.FormValue("title")
	pg.SlugAuto = c.FormValue("slug_auto") == "1"
	pg.Slug = strings.TrimSpace(c.FormValue("slug"))
	pg.Path = strings.TrimSpace(c.FormValue("path"))
	pg.Kind = c.FormValue("kind")
	if pg.ParentID == 0 {
		pg.Placement = c.FormValue("placement")
	}
	pg.Status = c.FormValue("status")
	pg.Type = strings.TrimSpace(c.FormValue("type"))
	pg.Assignee = strings.TrimSpace(c.FormValue("assignee"))
	pg.Notes = c.FormValue("notes")
	pg.NotesPublic = c.FormValue("notes_public") == "1"
	pg.Changefreq = c.FormValue("changefreq")
	pg.Lastmod = strings.TrimSpace(c.FormValue("lastmod"))
	pg.InSitemap = c.FormValue("in_sitemap") == "1"
	pg.InHTMLSitemap = c.FormValue("in_html_sitemap") == "1"
	readBriefForm(c, &pg.Brief, &f, errs)
	var msg string
	if pg.Priority, msg = site.ParsePriority(f.Priority); msg != "" {
		errs.Add("priority", msg)
	}
	return f, errs
}

// readBriefForm reads the page form's brief into b (Validate trims and
// checks it); a word target that is not a number is kept as typed in f.
func readBriefForm(c echo.Context, b *site.Brief, f *views.PageForm, errs site.FieldErrors) {
	b.SEOTitle, b.MetaDescription, b.H1 = c.FormValue("brief.seo_title"), c.FormValue("brief.meta_description"), c.FormValue("brief.h1")
	b.Keyword, b.Intent = c.FormValue("brief.keyword"), c.FormValue("brief.intent")
	b.Owner, b.Due = c.FormValue("brief.owner"), c.FormValue("brief.due")
	b.WordTarget = 0
	if w := strings.TrimSpace(c.FormValue("brief.word_target")); w != "" {
		n, err := strconv.Atoi(strings.ReplaceAll(strings.ReplaceAll(w, ",", ""), " ", ""))
		if err != nil {
			f.WordTarget = w
			errs.Add("brief.word_target", "Word target must be a whole number of words, such as 600.")
		}
		b.WordTarget = n
	}
	form, _ := c.FormParams()
	kinds, notes := form["block_kind"], form["block_note"]
	b.Blocks = nil
	for i, k := range kinds {
		bl := site.Block{Kind: k}
		if i < len(notes) {
			bl.Note = notes[i]
		}
		b.Blocks = append(b.Blocks, bl)
	}
}

func (s *Server) savePage(c echo.Context) error {
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	form, errs := readPageForm(c, &pg)
	if err := pg.Validate(); err != nil {
		for k, v := range site.ErrorFields(err) {
			errs.Add(k, v)
		}
	}
	err = errs.Err()
	var edit site.PageEdit
	if err == nil {
		edit, err = s.store.pages.EditPage(ctx, &pg)
	}
	switch site.ErrorCode(err) {
	case "":
		d, err := s.details(c, p, pg)
		if err != nil {
			return err
		}
		setChange(c, change{Kind: "page", Page: pg.ID})
		trigger(c, "page-saved", pg.ID)
		d.Saved, d.Message = true, "Saved."
		if edit.URLs == 0 {
			return render(c, http.StatusOK, views.DetailsForm(d), views.TitleOOB(&pg), views.BriefMarkOOB(&pg))
		}
		return render(c, http.StatusOK, views.DetailsForm(d), views.TitleOOB(&pg), views.BriefMarkOOB(&pg), views.URLNoticeOOB(urlNotice(edit)))
	case site.EInvalid: // keep what was typed, with the messages
		d, derr := s.details(c, p, pg)
		if derr != nil {
			return derr
		}
		d.Form, d.Errors, d.Message = form, site.ErrorFields(err), site.ErrorMessage(err)
		return rerender(c, err, views.DetailsForm(d))
	case site.EConflict: // show the page as the other tab saved it
		fresh, ferr := s.pageIn(ctx, pg.ID)
		if ferr != nil {
			return ferr
		}
		d, derr := s.details(c, p, fresh)
		if derr != nil {
			return derr
		}
		d.Message = site.ErrorMessage(err)
		return rerender(c, err, views.DetailsForm(d), views.TitleOOB(&fresh))
	}
	return err
}

// rename renames a page in one trip to the store: the edit comes back
// with what the notice of its new URLs needs.
func (s *Server) rename(c echo.Context) error {
	pid, _ := strconv.ParseInt(c.Param("pid"), 10, 64)
	version, _ := strconv.ParseInt(c.FormValue("version"), 10, 64)
	edit, err := s.store.pages.Rename(c.Request().Context(), currentProject(c).ID, pid, c.FormValue("title"), version)
	if err != nil {
		return err
	}
	renamed := edit.After
	setChange(c, change{Kind: "rename", Page: renamed.ID, Title: renamed.Title})
	trigger(c, "page-changed", renamed.ID)
	if edit.URLs == 0 {
		return render(c, http.StatusOK, views.Title(&renamed, false))
	}
	return render(c, http.StatusOK, views.Title(&renamed, false), urlNotice(edit))
}

// urlNotice says that an edit gave a page and the pages below it new
// URLs, how many, with a way to keep the old one: slugs are never
// rewritten without a word.
func urlNotice(e site.PageEdit) templ.Component {
	return views.URLNotice(views.URLNoticeProps{Before: e.Before, After: e.After, URLs: e.URLs, Launched: e.Launched, From: e.From, To: e.To})
}

// keepURL gives a page its old URL back (POST
// /projects/ID/pages/PID/keep-url, from the notice a rename or a move
// shows): after a rename its old slug and path, typed; after a move
// (path alone) its old URL as a path override, which the pages below it
// extend as they did.
func (s *Server) keepURL(c echo.Context) error {
	_, pg, err := s.page(c)
	if err != nil {
		return err
	}
	form, _ := c.FormParams()
	moved := !form.Has("slug")
	if !moved {
		pg.Slug, pg.SlugAuto = form.Get("slug"), false
	}
	pg.Path = form.Get("path")
	if err := s.store.pages.UpdatePage(c.Request().Context(), &pg); err != nil {
		return err
	}
	setChange(c, change{Kind: "page", Page: pg.ID})
	trigger(c, "page-saved", pg.ID)
	if moved {
		return render(c, http.StatusOK, views.URLKept("Kept the old URLs: “"+pg.Title+"” keeps “"+pg.Path+"” as its path, and the pages below it their URLs."))
	}
	return render(c, http.StatusOK, views.URLKept("Kept the old URL: “"+pg.Title+"” keeps the slug “"+pg.Slug+"”, and the pages below it their URLs."))
}

// trigger sets an HX-Trigger event naming a page, so the client can
// refresh whatever shows it, and the branches to open when it reloads
// the outline.
func trigger(c echo.Context, event string, id int64, open ...int64) {
	detail := map[string]any{"id": id}
	if len(open) > 0 {
		detail["open"] = open
	}
	triggerWith(c, event, detail)
}

// triggerWith sets an HX-Trigger event with its detail.
func triggerWith(c echo.Context, event string, detail map[string]any) {
	b, _ := json.Marshal(map[string]any{event: detail})
	c.Response().Header().Set("HX-Trigger", string(b))
}

func (s *Server) movePage(c echo.Context) error {
	_, pg, err := s.page(c)
	if err != nil {
		return err
	}
	pos, err := strconv.Atoi(c.FormValue("position"))
	if err != nil {
		return site.Errorf(site.EInvalid, "Position must be a number.")
	}
	edit, err := s.store.pages.Move(c.Request().Context(), pg.ID, formID(c, "parent"), c.FormValue("placement"), pos)
	if err != nil {
		return err
	}
	trigger(c, "page-moved", pg.ID)
	if edit.URLs == 0 {
		return c.NoContent(http.StatusNoContent)
	}
	return render(c, http.StatusOK, views.URLNoticeOOB(urlNotice(edit)))
}

func (s *Server) confirmDeletePage(c echo.Context) error {
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	n, err := s.store.pages.DescendantCount(c.Request().Context(), pg.ID)
	if err != nil {
		return err
	}
	if dialog, err := s.deleteLaunched(c, p, pg, ""); err != nil {
		return err
	} else if dialog != nil {
		return render(c, http.StatusOK, dialog)
	}
	msg := "Delete “" + pg.Title + "”"
	if n > 0 {
		msg += " and the " + site.Plural(n, "page", "pages") + " below it"
	}
	msg += "? Their cross-links are removed too. You can undo it (Ctrl+Z), or restore it from the History."
	action := "/projects/" + strconv.FormatInt(p.ID, 10) + "/pages/" + strconv.FormatInt(pg.ID, 10)
	return render(c, http.StatusOK, views.ConfirmDialog(views.ConfirmProps{Title: "Delete page", Message: msg, Action: action, Method: "delete", Confirm: "Delete " + site.Plural(n+1, "page", "pages")}))
}

func (s *Server) deletePage(c echo.Context) error {
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	gone, problem := deleteChoice(c, pg)
	if gone == nil { // a leaf deleted at once, or a choice left half made: ask, if it was launched
		dialog, err := s.deleteLaunched(c, p, pg, problem)
		switch {
		case err != nil:
			return err
		case dialog != nil && problem != "":
			return rerender(c, site.Errorf(site.EInvalid, "%s", problem), dialog)
		case dialog != nil:
			c.Response().Header().Set("HX-Retarget", "#dialog")
			c.Response().Header().Set("HX-Reswap", "innerHTML")
			return render(c, http.StatusOK, dialog)
		case problem != "":
			return site.Errorf(site.EInvalid, "%s", problem)
		}
	}
	n, err := s.store.pages.DeletePageTo(c.Request().Context(), pg.ID, gone)
	if err != nil {
		return err
	}
	trigger(c, "page-deleted", pg.ID)
	msg := "Deleted “" + pg.Title + "”"
	if n > 1 {
		msg += " and " + site.Plural(n-1, "page", "pages") + " below it"
	}
	return render(c, http.StatusOK, views.NodeDeleted(pg.ID), views.FlashOOB(msg+"."))
}

// deleteChoice reads where the launched URLs of a branch to delete go,
// as the launched-delete dialog says it (gone, target): nil when it says
// nothing, with a problem when the choice is half made.
func deleteChoice(c echo.Context, pg site.Page) (*site.Decision, string) {
	switch c.FormValue("gone") {
	case "parent":
		return &site.Decision{Verb: site.DecideRedirect, PageID: pg.ParentID}, ""
	case "page":
		if id := formID(c, "target"); id != 0 {
			return &site.Decision{Verb: site.DecideRedirect, PageID: id}, ""
		}
		return nil, "Choose the page their visitors go to, or retire them."
	case "retire":
		return &site.Decision{Verb: site.DecideRetire}, ""
	}
	return nil, ""
}

// deleteLaunched is the dialog that asks where a branch's launched URLs
// go, when it has some (nil when not), saying problem if there is one.
func (s *Server) deleteLaunched(c echo.Context, p site.Project, pg site.Page, problem string) (templ.Component, error) {
	ctx := c.Request().Context()
	launched, err := s.store.pages.LaunchedCount(ctx, p.ID, pg.ID)
	if err != nil || launched == 0 {
		return nil, err
	}
	t, err := s.store.pages.Tree(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	props := views.DeleteLaunchedProps{Page: pg, Below: t.Descendants(pg.ID), Launched: launched,
		Action: projectPath(p.ID, "pages", strconv.FormatInt(pg.ID, 10)), Error: problem}
	if u := t.URL(pg.ParentID); u != "" {
		props.Parent = &views.SearchHit{Page: *t.Page(pg.ParentID), Where: u}
	}
	inBranch := func(id int64) bool {
		for ; id != 0; id = t.Page(id).ParentID {
			if id == pg.ID {
				return true
			}
		}
		return false
	}
	t.WalkURLs(0, func(q *site.Page, u string) bool {
		if u != "" && !inBranch(q.ID) {
			props.Targets = append(props.Targets, views.SearchHit{Page: *q, Where: u})
		}
		return len(props.Targets) < maxDeleteTargets
	})
	return views.DeleteLaunched(props), nil
}

// maxDeleteTargets is how many pages the launched-delete dialog offers
// as a target, in outline order.
const maxDeleteTargets = 500

func (s *Server) duplicatePage(c echo.Context) error {
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	id, err := s.store.pages.DuplicatePage(ctx, pg.ID)
	if err != nil {
		return err
	}
	cp, err := s.store.pages.Page(ctx, id)
	if err != nil {
		return err
	}
	r, err := s.rows(ctx, p, []site.Page{cp}, 0, nil)
	if err != nil {
		return err
	}
	return render(c, http.StatusCreated, views.Node(r, &cp))
}

func (s *Server) pasteForm(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	var parent site.Page
	if c.Param("pid") != "" {
		if _, parent, err = s.page(c); err != nil {
			return err
		}
	}
	return render(c, http.StatusOK, views.PasteDialog(views.PasteProps{ProjectID: p.ID, ParentID: parent.ID, ParentTitle: parent.Title}))
}

func (s *Server) paste(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	parentID := formID(c, "parent")
	var parent site.Page
	if parentID != 0 {
		if parent, err = s.store.pages.Page(ctx, parentID); err != nil || parent.ProjectID != p.ID {
			return site.Errorf(site.ENotFound, "The page to paste under no longer exists.")
		}
	}
	text := c.FormValue("outline")
	items, err := site.ParseOutline(text)
	if err != nil {
		if site.ErrorCode(err) == site.EInvalid {
			return rerender(c, err, views.PasteDialog(views.PasteProps{ProjectID: p.ID, ParentID: parentID, ParentTitle: parent.Title, Text: text, Error: site.ErrorMessage(err)}))
		}
		return err
	}
	ids, err := s.store.pages.InsertOutline(ctx, p.ID, parentID, items)
	if err != nil {
		return err
	}
	// The outline reloads with the branches it had open, and the parent
	// and the pasted branches opened.
	trigger(c, "page-saved", parentID, append(ids, parentID)...)
	return render(c, http.StatusOK, views.FlashOOB("Added "+site.Plural(len(ids), "page", "pages")+"."))
}
