package web

import (
	"bytes"
	"cmp"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/export"
	"siteplan/site"
	"siteplan/sitemap"
	"siteplan/views"
)

// attachBudget is how long reading and matching an uploaded old site may
// take, waiting for a turn included: 200,000 URLs take a few seconds.
const attachBudget = 60 * time.Second

// redirectStore is a plan's old site and its redirect map.
type redirectStore interface {
	SetMappings(ctx context.Context, projectID int64, maps []site.Mapping) (added, changed int, err error)
	OldURLs(ctx context.Context, projectID int64, f site.OldFilter) ([]site.OldURL, int, error)
	OldURL(ctx context.Context, projectID, id int64) (site.OldURL, error)
	RedirectView(ctx context.Context, projectID int64, f site.OldFilter) (site.RedirectStatus, []site.OldURL, int, error)
	OldSections(ctx context.Context, projectID int64) ([]site.Count, error)
	RedirectStatus(ctx context.Context, projectID int64) (site.RedirectStatus, error)
	Decide(ctx context.Context, projectID int64, ids []int64, f *site.OldFilter, d site.Decision) (int, error)
	Proposals(ctx context.Context, projectID int64, f site.OldFilter) (int, error)
	AttachOldSite(ctx context.Context, projectID int64, olds []site.OldPage, proposed []site.Mapping) (site.AttachReport, error)
	SetClicks(ctx context.Context, projectID int64, clicks map[string]int) (int, []string, int, error)
	TreeOf(ctx context.Context, projectID int64, ids []int64) (*site.Tree, error)
	Landings(ctx context.Context, projectID int64) (map[int64]int, error)
	VersionOldURLs(ctx context.Context, projectID int64, number int) ([]site.OldURL, error)
}

// redirectFilter reads the view's filter from the request (query or
// form): show, section, clicks, q, offset.
func redirectFilter(c echo.Context) site.OldFilter {
	f := site.OldFilter{Show: c.FormValue("show"), Section: c.FormValue("section"), Search: strings.TrimSpace(c.FormValue("q")),
		Limit: views.RedirectsPerPage}
	f.MinClicks, _ = strconv.Atoi(c.FormValue("clicks"))
	f.Offset, _ = strconv.Atoi(c.FormValue("offset"))
	f.MinClicks, f.Offset = max(f.MinClicks, 0), max(f.Offset, 0)
	return f
}

// redirects is the Redirects view (GET /projects/ID/redirects); an htmx
// request gets the table alone.
func (s *Server) redirects(c echo.Context) error {
	props, err := s.redirectProps(c, redirectFilter(c))
	if err != nil {
		return err
	}
	if isHTMX(c) {
		return render(c, http.StatusOK, views.RedirectTable(props, false))
	}
	props.Notice = cmp.Or(attachedWords(c), trafficWords(c))
	return s.renderRedirects(c, http.StatusOK, props)
}

func (s *Server) renderRedirects(c echo.Context, status int, props views.RedirectsProps) error {
	var err error
	if props.Sections, err = s.store.redirects.OldSections(c.Request().Context(), props.Project.ID); err != nil {
		return err
	}
	props.Layout, props.Formats = s.layout(c, "Redirects of "+props.Project.Name), export.RedirectFormats
	return render(c, status, views.Redirects(props))
}

// redirectProps reads the figures and a page of the table for f (a page
// past the end shows the last one).
func (s *Server) redirectProps(c echo.Context, f site.OldFilter) (views.RedirectsProps, error) {
	ctx, p := c.Request().Context(), currentProject(c)
	props := views.RedirectsProps{Project: p, Filter: f}
	st, olds, total, err := s.store.redirects.RedirectView(ctx, p.ID, f)
	if err != nil {
		return props, err
	}
	props.Status = st
	if len(olds) == 0 && f.Offset > 0 && total > 0 {
		f.Offset = (total - 1) / views.RedirectsPerPage * views.RedirectsPerPage
		return s.redirectProps(c, f)
	}
	props.Total = total
	if site.ViewerFrom(ctx).Access >= site.AccessEdit && total > 0 { // what "accept all proposals shown" would accept
		var ok bool
		if props.Proposals, ok = st.ProposalsShown(f); !ok {
			all := f
			all.Offset, all.Limit = 0, 0
			if props.Proposals, err = s.store.redirects.Proposals(ctx, p.ID, all); err != nil {
				return props, err
			}
		}
	}
	var ids []int64
	for _, o := range olds {
		if o.PageID != 0 {
			ids = append(ids, o.PageID)
		}
	}
	t, err := s.store.redirects.TreeOf(ctx, p.ID, ids)
	if err != nil {
		return props, err
	}
	maps := t.Mappings(olds)
	for i, o := range olds {
		o.Mapping = maps[i]
		r := views.RedirectRow{Old: o}
		if pg := t.Page(o.PageID); pg != nil && o.To != "" {
			r.Target = pg.Title
		}
		props.Rows = append(props.Rows, r)
	}
	return props, nil
}

// decide applies a decision to old URLs (POST /projects/ID/redirects/
// decide): the rows ticked or named (id), or every row the filter shows
// (verb accept-all); answers with the table, the figures and a notice
// with its undo. A choice made in the page picker (picked) closes it.
func (s *Server) decide(c echo.Context) error {
	p := currentProject(c)
	f := redirectFilter(c)
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	var ids []int64
	for _, v := range form["id"] {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return site.Errorf(site.EInvalid, "%q is not an old URL's id.", v)
		}
		ids = append(ids, id)
	}
	d := site.Decision{Verb: c.FormValue("verb"), PageID: formID(c, "page")}
	d.Status, _ = strconv.Atoi(c.FormValue("status"))
	// Every row the filter shows, on every page of it: "accept all
	// proposals shown", or the selected verb with "all shown" ticked.
	var filter *site.OldFilter
	if d.Verb == "accept-all" {
		d.Verb = site.DecideAccept
		form.Set("all", "1")
	}
	if form.Get("all") != "" && (d.Verb == site.DecideAccept || d.Verb == site.DecideRetire) {
		ids = nil
		all := f
		all.Offset, all.Limit = 0, 0
		filter = &all
	} else if len(ids) == 0 {
		return site.Errorf(site.EInvalid, "Tick the old URLs to decide first, or “all shown”.")
	}
	n, err := s.store.redirects.Decide(c.Request().Context(), p.ID, ids, filter, d)
	if err != nil {
		return err
	}
	setChange(c, change{Kind: "redirects"})
	props, err := s.redirectProps(c, f)
	if err != nil {
		return err
	}
	// A choice in the picker is answered with nothing in its place, which
	// closes it, and the table out of band.
	picked := c.FormValue("picked") != ""
	return render(c, http.StatusOK, views.RedirectTable(props, picked), views.RedirectFigures(props.Status, true),
		views.RedirectsFlash(p.ID, decisionWords(d.Verb, n), n > 0))
}

// decisionWords is the notice after a decision.
func decisionWords(verb string, n int) string {
	what := site.Plural(n, "old URL", "old URLs")
	switch verb {
	case site.DecideAccept:
		if n == 0 {
			return "Nothing to accept: these rows have no proposal yet. Choose a page for them, or retire them."
		}
		return "Accepted " + what + "."
	case site.DecideRedirect:
		return "Redirected " + what + "."
	case site.DecideRetire:
		return "Retired " + what + " (410)."
	}
	return "Reopened " + what + " for review."
}

// redirectPicker is the page picker of an old URL (GET
// /projects/ID/redirects/picker?id=OLD&q=...): pages with a URL; with
// results=1 the list alone.
func (s *Server) redirectPicker(c echo.Context) error {
	ctx, p := c.Request().Context(), currentProject(c)
	id, err := queryID(c, "id")
	if err != nil {
		return err
	}
	old, err := s.store.redirects.OldURL(ctx, p.ID, id)
	if err != nil {
		return err
	}
	withURL := func(q string) ([]views.SearchHit, error) { // a redirect's targets
		found, err := s.findPages(c, p.ID, q, 0)
		return slices.DeleteFunc(found, func(h views.SearchHit) bool { return !h.Page.HasURL() }), err
	}
	q := c.QueryParam("q")
	if q == "" && c.QueryParam("results") == "" {
		q = lastSegment(old.URL) // start from what the old URL was called
	}
	hits, err := withURL(q)
	if len(hits) == 0 && err == nil && c.QueryParam("q") == "" {
		hits, err = withURL("")
	}
	if err != nil {
		return err
	}
	if c.QueryParam("results") != "" {
		return render(c, http.StatusOK, views.RedirectPickerResults(p.ID, old, hits))
	}
	return render(c, http.StatusOK, views.RedirectPicker(p.ID, old, hits))
}

// lastSegment is an old URL's last path segment without its extension,
// its words apart: what a picker searches for first.
func lastSegment(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	u = strings.TrimSuffix(u, "/")
	u = u[strings.LastIndexByte(u, '/')+1:]
	if i := strings.LastIndexByte(u, '.'); i > 0 {
		u = u[:i]
	}
	return strings.NewReplacer("-", " ", "_", " ").Replace(u)
}

// attachOldSite reads the old site, from an uploaded crawl, sitemap or
// list, or from its address (robots.txt, then its sitemaps), matches it
// to the plan and attaches it (POST /projects/ID/redirects/attach); the
// view then says what changed.
//
// An old site named by its address is read from the web as a live-site
// job (package jobs): with the readers' turns, a team's one at a time, and
// their budget, never holding the heavy-work gate while another site
// answers slowly. An uploaded file is read here, at the gate.
func (s *Server) attachOldSite(c echo.Context) error {
	p := currentProject(c)
	if _, ferr := c.FormFile("file"); ferr != nil {
		if name := strings.TrimSpace(c.FormValue("site")); name != "" {
			return s.startSiteJob(c, site.Job{Kind: site.JobAttach, Source: name, ProjectID: p.ID}, nil)
		}
	}
	ctx, done, err := s.heavyTurn(c, attachBudget)
	if err != nil {
		return err
	}
	defer done()
	olds, problem, err := s.readOldSite(c, ctx)
	if err != nil {
		return err
	} else if problem != "" {
		return s.redirectsError(c, site.Errorf(site.EInvalid, "%s", problem))
	}
	t, err := s.store.pages.Tree(ctx, p.ID)
	if err != nil {
		return err
	}
	got, err := s.store.redirects.AttachOldSite(ctx, p.ID, olds, sitemap.Match(t, olds))
	if site.ErrorCode(err) == site.EInvalid {
		return s.redirectsError(c, err)
	} else if err != nil {
		return err
	}
	setChange(c, change{Kind: "redirects"})
	return c.Redirect(http.StatusSeeOther, attachedPath(p.ID, got))
}

// attachedPath is the Redirects view saying what an attach changed.
func attachedPath(projectID int64, got site.AttachReport) string {
	q := url.Values{"added": {strconv.Itoa(got.Added)}, "gone": {strconv.Itoa(got.Removed)}, "kept": {strconv.Itoa(got.Kept)},
		"decided": {strconv.Itoa(got.KeptDecided)}}
	return projectPath(projectID, "redirects") + "?" + q.Encode()
}

// readOldSite reads the old site the attach form names: its file, else
// its address. A source that cannot be read is a problem to show, in
// words, not an error.
func (s *Server) readOldSite(c echo.Context, ctx context.Context) ([]site.OldPage, string, error) {
	reader := &sitemap.Reader{Web: s.fetch.Open}
	fh, ferr := c.FormFile("file")
	name := strings.TrimSpace(c.FormValue("site"))
	var olds []site.OldPage
	var reps []*sitemap.Reading
	var err error
	switch {
	case ferr == nil:
		in, oerr := fh.Open()
		if oerr != nil {
			return nil, "", oerr
		}
		defer in.Close()
		name = fh.Filename
		var rep *sitemap.Reading
		olds, rep, err = reader.ReadOldUpload(ctx, name, in, site.MaxOldURLs)
		reps = append(reps, rep)
	case name != "":
		olds, reps, err = reader.ReadOld(ctx, []string{name}, site.MaxOldURLs)
	default:
		return nil, "Choose the file of the old site's URLs, or give its address.", nil
	}
	if err == nil {
		return olds, "", nil
	}
	if len(reps) > 0 && reps[0] != nil && len(reps[0].Files) > 0 && reps[0].Files[0].Err != "" {
		return nil, name + ": " + reps[0].Files[0].Err, nil
	}
	return nil, site.ErrorMessage(err), nil
}

// attachedWords is what the view says after an attach redirected to it
// (?added=&gone=&kept=&decided=), "" otherwise.
func attachedWords(c echo.Context) string {
	if c.QueryParam("added") == "" {
		return ""
	}
	n := func(k string) int { v, _ := strconv.Atoi(c.QueryParam(k)); return max(v, 0) }
	return "Attached the old site: " + site.Thousands(n("added")) + " new URLs matched, " + site.Thousands(n("gone")) + " gone, " +
		site.Thousands(n("kept")) + " kept (" + site.Thousands(n("decided")) + " decided by a person, left as they were)."
}

// attachTraffic reads a traffic export's clicks onto the old URLs (POST
// /projects/ID/redirects/traffic).
func (s *Server) attachTraffic(c echo.Context) error {
	p := currentProject(c)
	fh, err := c.FormFile("file")
	if err != nil {
		return s.redirectsError(c, site.Errorf(site.EInvalid, "Choose the traffic file: Search Console's Pages export, or an Analytics CSV."))
	}
	in, err := fh.Open()
	if err != nil {
		return err
	}
	defer in.Close()
	// A file of 200,000 pages is heavy work: a turn at the gate.
	ctx, done, err := s.heavyTurn(c, attachBudget)
	if err != nil {
		return err
	}
	defer done()
	first, _, err := s.store.redirects.OldURLs(ctx, p.ID, site.OldFilter{Limit: 1})
	if err != nil {
		return err
	}
	if len(first) == 0 {
		return s.redirectsError(c, site.Errorf(site.EInvalid, "Attach the old site first: clicks go to its URLs."))
	}
	clicks, err := sitemap.ReadClicks(in, site.Origin(first[0].URL)+"/")
	if err != nil {
		return s.redirectsError(c, site.Errorf(site.EInvalid, "%s: %s", fh.Filename, site.ErrorMessage(err)))
	}
	matched, unknown, nUnknown, err := s.store.redirects.SetClicks(ctx, p.ID, clicks)
	if site.ErrorCode(err) == site.EInvalid {
		return s.redirectsError(c, site.Errorf(site.EInvalid, "%s: %s", fh.Filename, site.ErrorMessage(err)))
	}
	if err != nil {
		return err
	}
	q := url.Values{"clicks": {strconv.Itoa(matched)}, "of": {strconv.Itoa(matched + nUnknown)}}
	if len(unknown) > 0 {
		q.Set("e.g.", site.Clip(unknown[0], 200))
	}
	return c.Redirect(http.StatusSeeOther, projectPath(p.ID, "redirects")+"?"+q.Encode())
}

// trafficWords is what the view says after clicks were attached
// (?clicks=&of=&e.g.=), "" otherwise.
func trafficWords(c echo.Context) string {
	if c.QueryParam("clicks") == "" {
		return ""
	}
	n := func(k string) int { v, _ := strconv.Atoi(c.QueryParam(k)); return max(v, 0) }
	matched, of := n("clicks"), n("of")
	msg := "Clicks attached: " + site.Thousands(matched) + " of the file's " + site.Counted(of, "page", "pages") + " matched old URLs"
	if of > matched {
		msg += "; " + site.Thousands(of-matched) + " not found among them"
		if e := c.QueryParam("e.g."); e != "" {
			msg += ", such as " + e
		}
	}
	return msg + "."
}

// redirectsError shows the Redirects view again with what went wrong,
// with the status the error table gives it.
func (s *Server) redirectsError(c echo.Context, problem error) error {
	props, err := s.redirectProps(c, site.OldFilter{Limit: views.RedirectsPerPage})
	if err != nil {
		return err
	}
	props.Error = site.ErrorMessage(problem)
	return s.renderRedirects(c, statusOf[site.ErrorCode(problem)], props)
}

// exportRedirects downloads the map for a platform (GET
// /projects/ID/redirects/export?format=F), whole or not at all.
func (s *Server) exportRedirects(c echo.Context) error {
	ctx, p := c.Request().Context(), currentProject(c)
	format := c.QueryParam("format")
	name, ok := export.RedirectFileNames[format]
	if !ok {
		return site.Errorf(site.ENotFound, "Redirect format %q is not one of %s.", format, strings.Join(export.RedirectFormats, ", "))
	}
	t, err := s.store.pages.Tree(ctx, p.ID)
	if err != nil {
		return err
	}
	olds, _, err := s.store.redirects.OldURLs(ctx, p.ID, site.OldFilter{})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := export.WriteRedirects(&buf, format, t.Mappings(olds)); err != nil {
		if isHTMX(c) && site.ErrorCode(err) == site.EInvalid { // a platform's limit: said beside its link
			return render(c, http.StatusUnprocessableEntity, views.DownloadRefused(site.ErrorMessage(err)))
		}
		return err
	}
	if isHTMX(c) { // the link asked first: the file can be made
		return downloadNow(c)
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	return c.Blob(http.StatusOK, export.RedirectContentTypes[format], buf.Bytes())
}
