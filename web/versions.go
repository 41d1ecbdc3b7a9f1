package web

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/diagram"
	"siteplan/site"
	"siteplan/views"
)

// versions lists the project's versions with their sign-offs.
func (s *Server) versions(c echo.Context) error {
	return s.renderVersions(c, http.StatusOK, "", "")
}

func (s *Server) renderVersions(c echo.Context, status int, name, problem string) error {
	p := currentProject(c)
	vs, err := s.markedVersions(c)
	if err != nil {
		return err
	}
	approved, _ := strconv.Atoi(c.QueryParam("approved"))
	return render(c, status, views.Versions(views.VersionsProps{Layout: s.layout(c, "Versions of "+p.Name), Project: p,
		Versions: vs, Name: name, Error: problem, Approved: approved, Signer: author(c)}))
}

// createVersion names the plan as it is now.
func (s *Server) createVersion(c echo.Context) error {
	p := currentProject(c)
	name := c.FormValue("name")
	ctx, done, err := s.largeTurn(c)
	if err != nil {
		return err
	}
	create := s.store.history.CreateVersion
	if c.FormValue("launched") != "" { // the site went live with it: moved URLs redirect from now on
		create = s.store.history.LaunchVersion
	}
	_, err = create(ctx, p.ID, name)
	done()
	if site.ErrorCode(err) == site.EInvalid {
		return s.renderVersions(c, statusOf[site.ErrorCode(err)], name, site.ErrorMessage(err))
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, projectPath(p.ID, "versions"))
}

func projectPath(id int64, parts ...string) string {
	s := "/projects/" + strconv.FormatInt(id, 10)
	for _, p := range parts {
		s += "/" + p
	}
	return s
}

// versionParam reads :n. Errors: ENotFound.
func versionParam(c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n <= 0 {
		return 0, site.Errorf(site.ENotFound, "No such version.")
	}
	return n, nil
}

// loadVersion loads the :n version of the project with its sign-offs
// marked changed or not (a large plan's at the gate).
func (s *Server) loadVersion(c echo.Context) (site.Version, *site.Tree, []site.Link, error) {
	p := currentProject(c)
	n, err := versionParam(c)
	if err != nil {
		return site.Version{}, nil, nil, err
	}
	ctx, done, err := s.largeTurn(c)
	if err != nil {
		return site.Version{}, nil, nil, err
	}
	defer done()
	v, t, links, err := s.store.history.Version(ctx, p.ID, n)
	if err != nil {
		return v, nil, nil, err
	}
	vs := []site.Version{v}
	err = s.store.history.MarkChanged(ctx, p.ID, vs)
	return vs[0], t, links, err
}

// versionNotes are the lines a version's PDF prints under its title.
func versionNotes(v site.Version) []string {
	notes := []string{v.Label() + " · saved " + v.CreatedAt.UTC().Format("2 January 2006") + " by " + v.Author}
	for _, a := range v.Approvals {
		if a.Voided() {
			continue
		}
		n := "Approved by " + a.By() + " on " + a.At.UTC().Format("2 January 2006") + ": " + a.What()
		if a.ChangedSince {
			n += " (changed since approval)"
		}
		notes = append(notes, n)
	}
	return notes
}

// drawVersion draws a version in format, its sign-offs in a PDF's
// title block; a version never changes, so its drawing is cached for good.
func (s *Server) drawVersion(c echo.Context, v site.Version, t *site.Tree, links []site.Link, format string) ([]byte, error) {
	notes := versionNotes(v) // its sign-offs change, and the drawing with them
	h := fnv.New64a()
	h.Write([]byte(strings.Join(notes, "\n")))
	opt := diagram.Options{Format: format, Links: true, Notes: notes, Approved: approvedBranches(v)}
	if format == diagram.FormatPDF && c.QueryParam("estimate") != "0" { // the proposal's price after its diagram, unless asked not
		e, err := s.versionPriced(c, v.Number)
		if err != nil {
			return nil, err
		}
		opt.Estimate, opt.EstimateTotalOnly = e, viewer(c).Share
	}
	return s.drawCached(c, v.ProjectID, fmt.Sprintf("v|%d|%d|%x", v.ProjectID, v.Number, h.Sum64()), opt, loaded(t, links))
}

// approvedBranches are the branches of a version signed off and in
// force, for the marks on their cards: page -> who.
func approvedBranches(v site.Version) map[int64]string {
	out := map[int64]string{}
	for _, a := range v.Approvals {
		if !a.Voided() && a.PageID != 0 {
			if out[a.PageID] != "" {
				out[a.PageID] += ", "
			}
			out[a.PageID] += a.Name
		}
	}
	return out
}

// loaded is a drawCached loader for a tree already read.
func loaded(t *site.Tree, links []site.Link) func(context.Context) (*site.Tree, []site.Link, error) {
	return func(context.Context) (*site.Tree, []site.Link, error) { return t, links, nil }
}

// version shows one version read only, with its sign-off form.
func (s *Server) version(c echo.Context) error {
	v, t, links, err := s.loadVersion(c)
	if err != nil {
		return err
	}
	return s.renderVersion(c, http.StatusOK, views.VersionProps{Version: v, Tree: t, Approved: c.QueryParam("approved") == "1", Name: author(c)}, links)
}

// renderVersion renders the page of the version in props, with its
// diagram and the branches a client may approve.
func (s *Server) renderVersion(c echo.Context, status int, props views.VersionProps, links []site.Link) error {
	p := currentProject(c)
	props.Layout, props.Project, props.Branches = s.layout(c, props.Version.Label()+" of "+p.Name), p, branches(props.Tree)
	var err error
	if props.Estimate, err = s.versionEstimate(c, props.Version.Number); err != nil {
		return err
	}
	svg, err := s.drawVersion(c, props.Version, props.Tree, links, diagram.FormatSVG)
	if err != nil {
		props.Error = site.ErrorMessage(err)
	}
	props.SVG = string(svg)
	return render(c, status, views.VersionPage(props))
}

// maxBranches bounds the pages the sign-off form lists: past it, the
// levels below the third are left out of the list (a branch of theirs
// is approved through its section).
const maxBranches = 2000

// branches are the pages a client may approve with the pages below
// them: any page of the plan, in outline order, with its depth.
func branches(t *site.Tree) []views.Branch {
	most := 100
	if t.Len() > maxBranches {
		most = 3
	}
	var out []views.Branch
	t.Walk(func(p *site.Page, depth int) bool {
		if depth > most || len(out) >= maxBranches {
			return false
		}
		out = append(out, views.Branch{ID: p.ID, Title: p.Title, Depth: depth})
		return true
	})
	return out
}

// versionDiagram downloads a version's diagram, its sign-offs in the
// PDF's title block.
func (s *Server) versionDiagram(c echo.Context) error {
	format, typ, err := downloadFormat(c)
	if err != nil {
		return err
	}
	p := currentProject(c)
	v, t, links, err := s.loadVersion(c)
	if err != nil {
		return err
	}
	b, err := s.drawVersion(c, v, t, links, format)
	if err != nil {
		return err
	}
	attach(c, p, "-version-"+strconv.Itoa(v.Number)+"."+diagram.Ext(format))
	return c.Blob(http.StatusOK, typ, b)
}

// downloadFormat reads :format for a diagram download (svg, png, pdf).
// Errors: ENotFound.
func downloadFormat(c echo.Context) (string, string, error) {
	f := c.Param("format")
	typ, ok := diagramTypes[f]
	if !ok || (f != diagram.FormatSVG && f != diagram.FormatPNG && f != diagram.FormatPDF) {
		return "", "", site.Errorf(site.ENotFound, "No diagram format %q: use svg, png or pdf.", f)
	}
	return f, typ, nil
}

// restoreVersion makes the plan what a version was, as one change.
func (s *Server) restoreVersion(c echo.Context) error {
	p := currentProject(c)
	n, err := versionParam(c)
	if err != nil {
		return err
	}
	if _, err := s.store.history.RestoreVersion(c.Request().Context(), p.ID, n); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, projectPath(p.ID))
}

// approve records a sign-off of a version, whole or one branch.
func (s *Server) approve(c echo.Context) error {
	p := currentProject(c)
	n, err := versionParam(c)
	if err != nil {
		return err
	}
	// page: 0 (the whole plan) or the page whose branch is approved.
	page, err := strconv.ParseInt(cmp.Or(c.FormValue("page"), "0"), 10, 64)
	if err != nil || page < 0 {
		return site.Errorf(site.EInvalid, "Choose what to approve: the whole plan or a branch.")
	}
	_, err = s.store.history.Approve(c.Request().Context(), p.ID, n, page, c.FormValue("name"))
	if site.ErrorCode(err) == site.EInvalid {
		v, t, links, lerr := s.loadVersion(c)
		if lerr != nil {
			return lerr
		}
		return s.renderVersion(c, statusOf[site.ErrorCode(err)],
			views.VersionProps{Version: v, Tree: t, Name: c.FormValue("name"), SignError: site.ErrorMessage(err)}, links)
	} else if err != nil {
		return err
	}
	if viewer(c).UserID == 0 { // a visitor's name, as comments remember it
		s.setCookie(c, nameCookie, url.QueryEscape(strings.TrimSpace(c.FormValue("name"))), 365*24*time.Hour)
	}
	back := projectPath(p.ID, "versions", strconv.Itoa(n)) + "?approved=1"
	switch c.FormValue("from") { // back where the approval was given
	case "list":
		back = projectPath(p.ID, "versions") + "?approved=" + strconv.Itoa(n)
	case "review":
		back = projectPath(p.ID) + "?approved=" + strconv.Itoa(n)
	}
	return c.Redirect(http.StatusSeeOther, views.KeepLocale(c.Request().Context(), back)) // in the locale signed off
}

// voidApproval voids a sign-off of a version; it stays listed, voided.
func (s *Server) voidApproval(c echo.Context) error {
	p := currentProject(c)
	n, err := versionParam(c)
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(c.Param("aid"), 10, 64)
	if err != nil {
		return site.Errorf(site.ENotFound, "No such sign-off.")
	}
	if err := s.store.history.VoidApproval(c.Request().Context(), p.ID, n, id); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, projectPath(p.ID, "versions", strconv.Itoa(n)))
}

// comparison reads ?from=N&to=M|now and compares: the diagram's tree (the
// pages of to with those removed put back) and marks.
func (s *Server) comparison(c echo.Context) (views.CompareProps, *site.Tree, []site.Link, string, error) {
	p := currentProject(c)
	ctx, done, err := s.largeTurn(c)
	if err != nil {
		return views.CompareProps{}, nil, nil, "", err
	}
	defer done()
	props := views.CompareProps{Project: p}
	from, err := strconv.Atoi(c.QueryParam("from"))
	if err != nil || from <= 0 {
		return props, nil, nil, "", site.Errorf(site.EInvalid, "Say which version to compare from (?from=1).")
	}
	fv, ft, fl, err := s.store.history.Version(ctx, p.ID, from)
	if err != nil {
		return props, nil, nil, "", err
	}
	props.From = fv
	to := c.QueryParam("to")
	var tt *site.Tree
	var tl []site.Link
	key := fmt.Sprintf("cmp|%d|%d|", p.ID, from)
	if to == "" || to == "now" {
		if tt, err = s.store.pages.Tree(ctx, p.ID); err != nil {
			return props, nil, nil, "", err
		}
		if tl, err = s.store.links.Links(ctx, p.ID); err != nil {
			return props, nil, nil, "", err
		}
		key += "now@" + strconv.FormatInt(p.Version, 10)
		to = "now"
	} else {
		n, err := strconv.Atoi(to)
		if err != nil || n <= 0 {
			return props, nil, nil, "", site.Errorf(site.EInvalid, "Compare to a version number or “now”, got %q.", to)
		}
		tv, t2, l2, err := s.store.history.Version(ctx, p.ID, n)
		if err != nil {
			return props, nil, nil, "", err
		}
		props.To, tt, tl = &tv, t2, l2
		key += to
	}
	props.Diff = site.Compare(ft, tt, fl, tl)
	// The redirect map is part of the plan: what changed in it too.
	fo, err := s.store.redirects.VersionOldURLs(ctx, p.ID, from)
	if err != nil {
		return props, nil, nil, "", err
	}
	var to2 []site.OldURL
	if props.To != nil {
		to2, err = s.store.redirects.VersionOldURLs(ctx, p.ID, props.To.Number)
	} else {
		to2, _, err = s.store.redirects.OldURLs(ctx, p.ID, site.OldFilter{})
	}
	if err != nil {
		return props, nil, nil, "", err
	}
	props.Redirects = site.CompareRedirects(ft, tt, fo, to2)
	toN := 0
	if props.To != nil {
		toN = props.To.Number
	}
	if props.Estimate, err = s.compareEstimates(c, from, toN, ft, tt, fo, to2); err != nil {
		return props, nil, nil, "", err
	}
	props.Versions, err = s.store.history.Versions(ctx, p.ID)
	props.Query = "from=" + strconv.Itoa(from) + "&to=" + to
	if props.Whole = c.QueryParam("whole") == "1"; props.Whole {
		key += "|whole"
	}
	return props, site.Union(ft, tt), tl, key, err
}

func compareOptions(props views.CompareProps, format string) diagram.Options {
	to := "the plan now"
	if props.To != nil {
		to = props.To.Label()
	}
	opt := diagram.Options{Format: format, Links: true, ColorBy: diagram.ColorByChange, Marks: props.Diff.Marks(),
		Notes: []string{"What changed from " + props.From.Label() + " to " + to}}
	if !props.Whole && len(opt.Marks) > 0 { // the changed branches, not the whole plan
		opt.Focus = make(map[int64]bool, len(opt.Marks))
		for id := range opt.Marks {
			opt.Focus[id] = true
		}
	}
	return opt
}

// compare lists and draws what changed between two versions, or a
// version and now.
func (s *Server) compare(c echo.Context) error {
	props, t, links, key, err := s.comparison(c)
	if err != nil {
		return err
	}
	p := currentProject(c)
	props.Layout = s.layout(c, "Changes in "+p.Name)
	svg, err := s.drawCached(c, props.Project.ID, key, compareOptions(props, diagram.FormatSVG), loaded(t, links))
	if err != nil {
		props.Error = site.ErrorMessage(err)
	}
	props.SVG = string(svg)
	return render(c, http.StatusOK, views.Compare(props))
}

// compareDiagram downloads the diagram of a comparison.
func (s *Server) compareDiagram(c echo.Context) error {
	format, typ, err := downloadFormat(c)
	if err != nil {
		return err
	}
	props, t, links, key, err := s.comparison(c)
	if err != nil {
		return err
	}
	b, err := s.drawCached(c, props.Project.ID, key, compareOptions(props, format), loaded(t, links))
	if err != nil {
		return err
	}
	attach(c, currentProject(c), "-changes."+format)
	return c.Blob(http.StatusOK, typ, b)
}
