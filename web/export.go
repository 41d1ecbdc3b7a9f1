package web

import (
	"archive/zip"
	"bytes"
	"mime"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"siteplan/export"
	"siteplan/site"
	"siteplan/views"
)

// previewLines is how much of sitemap.xml the export page shows.
const previewLines = 22

// exportConfig reads the export options from the query string.
func exportConfig(c echo.Context) (export.Config, views.ExportForm, error) {
	f := views.ExportForm{
		LeavesOnly: c.QueryParam("leaves") == "1",
		Gzip:       c.QueryParam("gzip") == "1",
		BySection:  c.QueryParam("split") == "1",
		MaxURLs:    c.QueryParam("max_urls"),
		Location:   strings.TrimSpace(c.QueryParam("location")),
	}
	f.Section, _ = strconv.ParseInt(c.QueryParam("section"), 10, 64)
	f.FooterDepth, _ = strconv.Atoi(c.QueryParam("depth"))
	cfg := export.Config{
		Options: export.Options{LeavesOnly: f.LeavesOnly, Section: f.Section, Location: f.Location},
		Gzip:    f.Gzip, BySection: f.BySection, FooterDepth: f.FooterDepth, MaxURLs: site.MaxSitemapURLs,
	}
	if f.MaxURLs != "" {
		n, err := strconv.Atoi(f.MaxURLs)
		if err != nil {
			return cfg, f, site.Errorf(site.EInvalid, "URLs per file must be a number from 1 to 50,000.")
		}
		if err := site.CheckMaxURLs(n); err != nil {
			return cfg, f, err
		}
		cfg.MaxURLs = n
	}
	return cfg, f, nil
}

// maxSections is how many of the top two levels' pages the export page
// offers as sections.
const maxSections = 2_000

// plan is the request's project, read page by page (the whole plan is
// never loaded for an export). Errors: ENotFound.
func (s *Server) plan(c echo.Context) (site.Project, site.PlanReader, error) {
	p, err := s.project(c)
	if err != nil {
		return p, nil, err
	}
	plan, err := s.store.pages.Outline(c.Request().Context(), p.ID)
	return p, plan, err
}

func (s *Server) exportPage(c echo.Context) error {
	p, plan, err := s.plan(c)
	if err != nil {
		return err
	}
	props := views.ExportProps{Layout: s.layout(c, p.Name+" export"), Project: p, Query: c.QueryString()}
	top, _, err := s.store.pages.PagesToDepth(c.Request().Context(), p.ID, 2, maxSections)
	if err != nil {
		return err
	}
	t := site.NewTree(p, top)
	for _, r := range t.Roots(site.PlacementMain) {
		props.Sections = append(props.Sections, *r)
		for _, c := range t.Children(r.ID) {
			props.Sections = append(props.Sections, *c)
		}
	}
	cfg, form, err := exportConfig(c)
	props.Form = form
	status := http.StatusOK
	var rep export.Report
	files := &export.Memory{}
	if err == nil {
		rep, err = export.Export(files, plan, cfg)
	}
	if code := site.ErrorCode(err); code != "" {
		if code != site.EInvalid && code != site.ENotFound {
			return err
		}
		props.Error, status = site.ErrorMessage(err), statusOf[code]
	}
	for _, w := range rep.Warnings {
		props.Warnings = append(props.Warnings, views.ExportWarning{PageID: w.PageID, Title: w.Title, Reason: w.Reason, Info: w.Info})
	}
	for _, f := range rep.Files {
		props.Files = append(props.Files, views.ExportFile{Name: f.Name, URLs: f.URLs, Size: f.Size})
	}
	props.URLs = rep.URLs
	if b := files.Files["sitemap.xml"]; b != nil {
		lines := strings.SplitAfterN(b.String(), "\n", previewLines+1)
		if len(lines) > previewLines {
			lines[previewLines] = "…\n"
		}
		props.Preview = strings.Join(lines, "")
	}
	return render(c, status, views.Export(props))
}

// exportFiles runs the export for the request's options.
func (s *Server) exportFiles(c echo.Context) (site.Project, *export.Memory, error) {
	p, plan, err := s.plan(c)
	if err != nil {
		return p, nil, err
	}
	cfg, _, err := exportConfig(c)
	if err != nil {
		return p, nil, err
	}
	files := &export.Memory{}
	_, err = export.Export(files, plan, cfg)
	return p, files, err
}

// exportFile serves one file of the export at a stable URL, so a staging
// site can point its sitemap (and the index's children) at siteplan.
func (s *Server) exportFile(c echo.Context) error {
	_, files, err := s.exportFiles(c)
	if err != nil {
		return err
	}
	name := c.Param("file")
	b, ok := files.Files[name]
	if !ok {
		return site.Errorf(site.ENotFound, "This export has no file %q.", name)
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	switch {
	case strings.HasSuffix(name, ".gz"):
		ctype = "application/gzip"
	case strings.HasSuffix(name, ".xml"):
		ctype = "application/xml; charset=utf-8"
	case strings.HasSuffix(name, ".txt"):
		ctype = "text/plain; charset=utf-8"
	}
	return c.Blob(http.StatusOK, ctype, b.Bytes())
}

// exportZip serves every file of the export in one zip, dated when the
// plan last changed.
func (s *Server) exportZip(c echo.Context) error {
	p, plan, err := s.plan(c)
	if err != nil {
		return err
	}
	cfg, _, err := exportConfig(c)
	if err != nil {
		return err
	}
	modified := p.UpdatedAt
	if modified.IsZero() {
		modified = s.now()
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	if _, err := export.Export(export.ZipOutput{Z: zw, Modified: modified}, plan, cfg); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	attach(c, p, "-sitemap.zip")
	return c.Blob(http.StatusOK, "application/zip", buf.Bytes())
}

// footerPreview shows the HTML footer sitemap inside the app.
func (s *Server) footerPreview(c echo.Context) error {
	p, plan, err := s.plan(c)
	if err != nil {
		return err
	}
	depth, _ := strconv.Atoi(c.QueryParam("depth"))
	var nav bytes.Buffer
	if err := export.WriteFooter(&nav, plan, depth); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.FooterPreview(s.layout(c, p.Name+" footer sitemap"), p, nav.String()))
}

// handoff downloads the plan with its briefs for the CMS (GET
// /projects/ID/handoff/FORMAT): a WordPress WXR to import, or the routes
// JSON a static-site generator loops over, as siteplan handoff writes
// them; GET /projects/ID/handoff/wordpress-check says, page by page,
// where WordPress would not put a page at its planned URL, before anyone
// imports. Errors: ENotFound (no such format).
func (s *Server) handoff(c echo.Context) error {
	const check = "wordpress-check"
	format := c.Param("format")
	if !slices.Contains(export.HandoffFormats, format) && format != check {
		return site.Errorf(site.ENotFound, "No handoff format %q: use %s.", format, strings.Join(export.HandoffFormats, " or "))
	}
	ctx := c.Request().Context()
	p, err := s.project(c)
	if err != nil {
		return err
	}
	t, err := s.store.pages.Tree(ctx, p.ID)
	if err != nil {
		return err
	}
	if format == export.HandoffRoutes {
		var buf bytes.Buffer
		if err := export.WriteRoutes(&buf, t); err != nil {
			return err
		}
		attach(c, p, "-routes.json")
		return c.Blob(http.StatusOK, "application/json", buf.Bytes())
	}
	links, err := s.store.links.Links(ctx, p.ID)
	if err != nil {
		return err
	}
	postTypes, err := s.store.templates.PostTypes(ctx, p.ID)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	warnings, err := export.WriteWXR(&buf, t, export.WXROptions{Links: links, PostTypes: postTypes, At: s.now()})
	if err != nil {
		return err
	}
	if format == check {
		return render(c, http.StatusOK, views.HandoffCheck(warnings))
	}
	attach(c, p, "-wordpress.xml")
	return c.Blob(http.StatusOK, "application/rss+xml; charset=utf-8", buf.Bytes())
}
