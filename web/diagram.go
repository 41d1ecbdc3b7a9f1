package web

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/diagram"
	"siteplan/site"
	"siteplan/views"
)

// RenderTimeout bounds how long a request waits for a diagram.
const RenderTimeout = 20 * time.Second

// diagramTypes are the download content types.
var diagramTypes = map[string]string{
	diagram.FormatSVG:     "image/svg+xml",
	diagram.FormatPNG:     "image/png",
	diagram.FormatPDF:     "application/pdf",
	diagram.FormatDOT:     "text/vnd.graphviz; charset=utf-8",
	diagram.FormatGraphML: "application/graphml+xml",
	diagram.FormatMermaid: "text/vnd.mermaid; charset=utf-8",
}

// diagramLinkQuery is the request's diagram options as a query string,
// for the links of the picture it answers with (downloads, the canvas's
// scene): with the locale the viewer reads the plan in, which the
// editor's requests name in a header a link does not carry.
func diagramLinkQuery(c echo.Context) string {
	q := maps.Clone(c.QueryParams())
	if tag := viewer(c).Locale; tag != "" && !q.Has("locale") {
		q.Set("locale", tag)
	}
	return q.Encode()
}

// diagramQuery reads the diagram options of a request; Render checks
// their values. Errors: EInvalid.
func diagramQuery(c echo.Context, format string) (diagram.Options, error) {
	q := c.QueryParams()
	// A form sends links=0 from a hidden field and links=1 from the ticked
	// box; without either, links are drawn.
	links := q["links"]
	o := diagram.Options{Format: format, Layout: q.Get("layout"), ColorBy: q.Get("color"), Paper: q.Get("paper"),
		Orientation: q.Get("orientation"), OneSheet: q.Get("fit") == "one", Cover: q.Get("cover") == "1", Client: q.Get("client") == "1", Content: q.Get("content") == "1",
		Links: len(links) == 0 || slices.Contains(links, "1"), Collapsed: map[int64]bool{}, Locale: cmp.Or(q.Get("locale"), viewer(c).Locale)}
	var err error
	if o.Root, err = queryID(c, "root"); err != nil {
		return o, err
	}

	depth, err := queryID(c, "depth")
	if err != nil {
		return o, err
	}
	scale, err := queryID(c, "scale")
	if err != nil {
		return o, err
	}
	o.Scale = int(min(scale, 10)) // Normalize refuses more than 3
	if viewer(c).Share {
		o.Scale = 0 // a client's PNG has the default scale; the client version is drawCached's
	}
	o.Depth = int(min(depth, 1000)) // Normalize refuses more than 100
	for _, f := range strings.Split(q.Get("collapsed"), ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return o, site.Errorf(site.EInvalid, "collapsed must list page numbers separated by commas.")
		}
		o.Collapsed[id] = true
	}
	return o, nil
}

// renderDiagram returns the project's diagram in format with the
// request's options (normalised), from the cache when the project has not
// changed since it was drawn with them.
func (s *Server) renderDiagram(c echo.Context, format string) (p site.Project, opt diagram.Options, b []byte, res diagram.Result, err error) {
	if p, err = s.project(c); err != nil {
		return
	}
	if opt, err = diagramQuery(c, format); err != nil {
		return
	}
	if opt.Comments, err = s.store.comments.OpenCommentCounts(c.Request().Context(), p.ID); err != nil {
		return
	}
	if opt.Landings, err = s.store.redirects.Landings(c.Request().Context(), p.ID); err != nil {
		return
	}
	opt.SetDefaults()
	// The version is read before the tree: if an edit lands in between,
	// the drawing is filed under the older version and never served for
	// the new.
	b, res, err = s.drawCachedResult(c, p.ID, fmt.Sprintf("%d|%d", p.ID, p.Version), opt, func(ctx context.Context) (*site.Tree, []site.Link, error) {
		t, err := s.store.pages.Tree(ctx, p.ID)
		if err != nil {
			return nil, nil, err
		}
		links, err := s.store.links.Links(ctx, p.ID)
		return t, links, err
	})
	return
}

// drawCached serves the drawing opt makes of what key names, branded with
// the project's theme, from the cache; else it takes a turn at the gate,
// loads the tree, its links and the logo, draws them and keeps the
// drawing. The theme is read on every request, the logo (keyed by its
// sum) only to draw. Errors: those of load and diagram.Render, ETooMany.
func (s *Server) drawCached(c echo.Context, projectID int64, key string, opt diagram.Options, load func(context.Context) (*site.Tree, []site.Link, error)) ([]byte, error) {
	b, _, err := s.drawCachedResult(c, projectID, key, opt, load)
	return b, err
}

// drawCachedResult is drawCached with what the drawing's Render said of
// it (a PDF's sheets and the size its smallest words print at), kept in
// the cache beside it.
func (s *Server) drawCachedResult(c echo.Context, projectID int64, key string, opt diagram.Options, load func(context.Context) (*site.Tree, []site.Link, error)) ([]byte, diagram.Result, error) {
	var res diagram.Result
	theme, err := s.store.themes.Brand(c.Request().Context(), projectID) // the project's, else its team's
	if err != nil {
		return nil, res, err
	}
	opt.Accent, opt.Agency, opt.ClientName = theme.Accent, theme.Agency, theme.ClientName
	opt.Palette = site.PaletteFrom(c.Request().Context())
	// Whatever a client on a share link is drawn, it is the client
	// version: no assignees, statuses, paths or comment counts.
	opt.Client = opt.Client || viewer(c).Share
	opt.SetDefaults()
	key += "|" + theme.LogoSum + "|" + opt.Key() + "|" + viewer(c).Projection().Key() // a client's is drawn from a projected plan
	if b, ok := s.diagrams.get(key); ok {
		if m, ok := s.diagrams.get(key + "|result"); ok {
			fmt.Sscan(string(m), &res.Pages, &res.Sheets, &res.TextPt)
		}
		return b, res, nil
	}
	rctx, done, err := s.heavyTurn(c, RenderTimeout)
	if err != nil {
		return nil, res, err
	}
	defer done()
	if theme.LogoSum != "" {
		if opt.Logo, err = s.store.themes.BrandLogo(rctx, projectID); err != nil {
			return nil, res, err
		}
	}
	t, links, err := load(rctx)
	if err != nil {
		return nil, res, err
	}
	if err := opt.Normalize(t); err != nil {
		return nil, res, err
	}
	var buf bytes.Buffer
	if res, err = s.draw(rctx, &buf, t, links, opt); err != nil {
		return nil, res, err
	}
	s.diagrams.put(key, buf.Bytes())
	s.diagrams.put(key+"|result", fmt.Appendf(nil, "%d %d %g", res.Pages, res.Sheets, res.TextPt))
	return buf.Bytes(), res, nil
}

// paints are the drawings the diagram pane can ask for: by default the
// SVG for a small plan and a scene for a big one.
var paints = map[string]string{"": diagram.FormatView, "svg": diagram.FormatSVG, "scene": diagram.FormatScene}

// paintFormat is the format the request's paint asks the pane's drawing
// in. Errors: EInvalid.
func paintFormat(c echo.Context) (string, error) {
	format, ok := paints[c.QueryParam("paint")]
	if !ok {
		return "", site.Errorf(site.EInvalid, "paint must be svg or scene.")
	}
	return format, nil
}

// diagram is the diagram pane: its controls and the drawing inline.
func (s *Server) diagram(c echo.Context) error {
	format, err := paintFormat(c)
	if err != nil {
		return err
	}
	p, opt, b, _, err := s.renderDiagram(c, format)
	if err != nil && site.ErrorCode(err) != site.ETooLarge {
		return err
	}
	props := views.DiagramProps{Project: p, Layout: opt.Layout, ColorBy: opt.ColorBy, Depth: opt.Depth, Links: opt.Links, Root: opt.Root,
		Paper: opt.Paper, Orientation: opt.Orientation, OneSheet: opt.OneSheet, Cover: opt.Cover, Client: opt.Client, Content: opt.Content, Papers: diagram.Papers,
		Scale: opt.Scale, Paint: c.QueryParam("paint"), Query: diagramLinkQuery(c), Layouts: diagram.Layouts, Formats: diagram.Formats, Share: viewer(c).Share}
	if props.Share {
		props.Formats = viewer(c).Pictures() // the pictures for people, as far as the link allows
	}
	if diagram.IsScene(b) { // fetched by the script from the cache
		props.Scene = projectPath(p.ID, "diagram", "scene") + "?" + props.Query
	} else {
		props.SVG = string(b)
	}
	if err != nil {
		props.Error = site.ErrorMessage(err)
	}
	if isHTMX(c) {
		return render(c, http.StatusOK, views.DiagramPane(props))
	}
	return render(c, http.StatusOK, views.DiagramPage(s.layout(c, p.Name+" diagram"), props))
}

// diagramScene serves the pane's drawing of a big plan as a scene, the
// JSON the script paints (diagram/scene.go): the pane drew it and left
// it in the cache. Errors: EInvalid, ENotFound when the plan is drawn as
// an SVG.
func (s *Server) diagramScene(c echo.Context) error {
	format, err := paintFormat(c)
	if err != nil {
		return err
	}
	_, _, b, _, err := s.renderDiagram(c, format)
	if err != nil {
		return err
	}
	if !diagram.IsScene(b) {
		return site.Errorf(site.ENotFound, "This diagram is drawn as an SVG: get it from the diagram pane.")
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
}

// downloadDiagram serves the diagram as a file.
func (s *Server) downloadDiagram(c echo.Context) error {
	format := c.Param("format")
	typ, ok := diagramTypes[format]
	if !ok {
		return site.Errorf(site.ENotFound, "No diagram format %q: use svg, png, pdf, dot or graphml.", format)
	}
	p, opt, b, res, err := s.renderDiagram(c, format)
	if site.ErrorCode(err) == site.ETooLarge && format == diagram.FormatPNG && !wantsJSON(c) {
		return s.pngTooLarge(c, p, opt, err)
	}
	if err != nil {
		return err
	}
	if isHTMX(c) { // the pane's link asks first: a PDF nobody can use is said beside it
		if words := pdfWarning(format, opt, res); words != "" {
			return render(c, http.StatusOK, views.DownloadWarning(words, c.Request().URL.RequestURI()))
		}
		return downloadNow(c)
	}
	attach(c, p, "-sitemap."+diagram.Ext(format))
	return c.Blob(http.StatusOK, typ, b)
}

// downloadNow answers a download's link that asked first (htmx): the
// file can be made, so the page fetches it as a download (the download
// event, downloads.js), clearing what was said beside the link.
func downloadNow(c echo.Context) error {
	triggerWith(c, "download", map[string]any{"url": c.Request().URL.RequestURI()})
	return c.NoContent(http.StatusOK)
}

// PDFManySheets is how many sheets a PDF may take before its download
// warns: past it, a book nobody prints or pages through.
const PDFManySheets = 40

// pdfWarning says why a PDF would be of little use, or "": its words
// would print below legible size (one sheet), or it would take more
// than PDFManySheets sheets.
func pdfWarning(format string, opt diagram.Options, res diagram.Result) string {
	switch {
	case format != diagram.FormatPDF || res.Sheets == 0:
		return ""
	case opt.OneSheet && res.TextPt < diagram.MinTextPt:
		return fmt.Sprintf("On one %s sheet its smallest words would print %.1f pt high, below the %g pt people read: untick “PDF on one sheet” (the fewest sheets on which every word stays readable), or draw fewer levels or one section.",
			strings.ToUpper(opt.Paper[:1])+opt.Paper[1:], res.TextPt, diagram.MinTextPt)
	case res.Sheets > PDFManySheets:
		return fmt.Sprintf("This PDF would be %s sheets: draw fewer levels (Levels above) or one section (“Draw this branch” in a page's menu), or a larger paper.", site.Thousands(res.Sheets))
	}
	return ""
}

// pngTooLarge answers a PNG too large to draw with a page of other ways
// to get the picture: the SVG, the PDF, a smaller PNG, fewer levels, one
// branch.
func (s *Server) pngTooLarge(c echo.Context, p site.Project, opt diagram.Options, cause error) error {
	t, err := s.store.pages.Tree(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	link := func(format string, set ...string) string {
		q := c.QueryParams()
		v := make(url.Values, len(q))
		for k, vs := range q {
			v[k] = slices.Clone(vs)
		}
		for i := 0; i+1 < len(set); i += 2 {
			v.Set(set[i], set[i+1])
		}
		return projectPath(p.ID, "diagram", format) + "?" + v.Encode()
	}
	props := views.TooLargeProps{Project: p, Message: site.ErrorMessage(cause), SVG: link(diagram.FormatSVG), PDF: link(diagram.FormatPDF)}
	if opt.Scale > 1 {
		props.Smaller = link(diagram.FormatPNG, "scale", "1")
	}
	if opt.Depth == 0 || opt.Depth > 2 {
		props.Fewer = link(diagram.FormatPNG, "depth", "2")
	}
	// The branches one level below what was drawn: the root's children,
	// or the home page's and the other top-level pages'.
	var tops []*site.Page
	if opt.Root != 0 {
		tops = t.Children(opt.Root)
	} else {
		for _, r := range t.Children(0) {
			if kids := t.Children(r.ID); r.IsHome() && len(kids) > 0 {
				tops = append(tops, kids...)
			} else {
				tops = append(tops, r)
			}
		}
	}
	// One branch that is the whole drawing is no smaller: offer the
	// sections below it.
	for len(tops) == 1 && len(t.Children(tops[0].ID)) > 0 {
		tops = t.Children(tops[0].ID)
	}
	for _, b := range tops {
		if n := 1 + t.Descendants(b.ID); n > 1 {
			props.Branches = append(props.Branches, views.BranchLink{Title: b.Title, Pages: n, URL: link(diagram.FormatPNG, "root", strconv.FormatInt(b.ID, 10))})
		}
	}
	return render(c, http.StatusRequestEntityTooLarge, views.PNGTooLarge(s.layout(c, "Diagram too large for a PNG"), props))
}
