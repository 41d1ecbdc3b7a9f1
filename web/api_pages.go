package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"siteplan/site"
)

// A plan's pages through the API: read, made, changed, moved and
// deleted through the store's write path as the editor's are (undo,
// history, the URL rules, redirects after launch). A write may name the
// version it was made from (If-Match: the page's ETag); a stale one is
// refused with 412.

// apiPage is a page as the API shows it and reads it: the fields of
// siteplan/1, its place in the tree, its URL and its version.
type apiPage struct {
	ID            int64    `json:"id"`
	ParentID      int64    `json:"parent_id"`
	Position      int      `json:"position"`
	Placement     string   `json:"placement"`
	Title         string   `json:"title"`
	Slug          string   `json:"slug"`
	Path          string   `json:"path"`
	Kind          string   `json:"kind"`
	Type          string   `json:"type"`
	Status        string   `json:"status"`
	Assignee      string   `json:"assignee"`
	Notes         string   `json:"notes"`
	InSitemap     bool     `json:"in_sitemap"`
	InHTMLSitemap bool     `json:"in_html_sitemap"`
	Priority      *float64 `json:"priority"`
	Changefreq    string   `json:"changefreq"`
	Lastmod       string   `json:"lastmod"`
	URL           string   `json:"url"`
	Version       int64    `json:"version"`
}

func apiPageOf(p site.Page, url string) apiPage {
	return apiPage{ID: p.ID, ParentID: p.ParentID, Position: p.Position, Placement: p.Placement, Title: p.Title, Slug: p.Slug, Path: p.Path,
		Kind: p.Kind, Type: p.Type, Status: p.Status, Assignee: p.Assignee, Notes: p.Notes, InSitemap: p.InSitemap, InHTMLSitemap: p.InHTMLSitemap,
		Priority: p.Priority, Changefreq: p.Changefreq, Lastmod: p.Lastmod, URL: url, Version: p.Version}
}

// pageEdit is a write's fields: each one sent is set, the others kept.
type pageEdit struct {
	ParentID      *int64   `json:"parent_id"`
	Position      *int     `json:"position"`
	Placement     *string  `json:"placement"`
	Title         *string  `json:"title"`
	Slug          *string  `json:"slug"`
	Path          *string  `json:"path"`
	Kind          *string  `json:"kind"`
	Type          *string  `json:"type"`
	Status        *string  `json:"status"`
	Assignee      *string  `json:"assignee"`
	Notes         *string  `json:"notes"`
	InSitemap     *bool    `json:"in_sitemap"`
	InHTMLSitemap *bool    `json:"in_html_sitemap"`
	Priority      *float64 `json:"priority"`
	Changefreq    *string  `json:"changefreq"`
	Lastmod       *string  `json:"lastmod"`
}

// apply sets the fields e sends on p; a slug sent is typed, no longer
// derived from the title.
func (e pageEdit) apply(p *site.Page) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.Title, e.Title)
	set(&p.Path, e.Path)
	set(&p.Kind, e.Kind)
	set(&p.Type, e.Type)
	set(&p.Status, e.Status)
	set(&p.Assignee, e.Assignee)
	set(&p.Notes, e.Notes)
	set(&p.Changefreq, e.Changefreq)
	set(&p.Lastmod, e.Lastmod)
	set(&p.Placement, e.Placement)
	if e.Slug != nil {
		p.Slug, p.SlugAuto = *e.Slug, false
	}
	if e.InSitemap != nil {
		p.InSitemap = *e.InSitemap
	}
	if e.InHTMLSitemap != nil {
		p.InHTMLSitemap = *e.InHTMLSitemap
	}
	if e.Priority != nil {
		p.Priority = e.Priority
	}
}

// pageETag is a page's entity tag: its version.
func pageETag(p site.Page) string { return `"p` + strconv.FormatInt(p.Version, 10) + `"` }

// ifMatch checks a write's If-Match against page p's version: absent or
// "*" passes; another tag is stale. Errors: EStale.
func ifMatch(c echo.Context, p site.Page) error {
	h := strings.TrimSpace(c.Request().Header.Get("If-Match"))
	if h == "" || h == "*" || h == pageETag(p) {
		return nil
	}
	return site.Errorf(site.EStale, "Page %d has changed since %s (it is at %s now): read it again, then send your change.", p.ID, h, pageETag(p))
}

// stale turns a version conflict of a write that named its version into
// the API's 412.
func stale(c echo.Context, err error) error {
	if site.ErrorCode(err) == site.EConflict && c.Request().Header.Get("If-Match") != "" {
		return &site.Error{Code: site.EStale, Message: site.ErrorMessage(err), Fields: site.ErrorFields(err)}
	}
	return err
}

// answerPage answers with page id as it is now, its ETag its version.
func (s *Server) answerPage(c echo.Context, status int, id int64) error {
	t, err := s.store.pages.Tree(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	p := t.Page(id)
	if p == nil {
		return site.Errorf(site.ENotFound, "Page %d does not exist.", id)
	}
	c.Response().Header().Set("ETag", pageETag(*p))
	return c.JSON(status, apiPageOf(*p, t.URL(id)))
}

// apiPages lists the plan's pages in outline order (main, utility,
// footer navigation), each with its URL.
func (s *Server) apiPages(c echo.Context) error {
	t, err := s.store.pages.Tree(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	var out []apiPage
	t.WalkURLs(0, func(p *site.Page, url string) bool {
		out = append(out, apiPageOf(*p, url))
		return true
	})
	pg, err := paginate(c, out, func(p apiPage) int64 { return p.ID })
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pg)
}

// apiPageGet shows one page.
func (s *Server) apiPageGet(c echo.Context) error {
	_, p, err := s.page(c)
	if err != nil {
		return err
	}
	return s.answerPage(c, http.StatusOK, p.ID)
}

// apiPageCreate makes a page: at least its title; under parent_id (0: a
// root of its placement), at position (default: last).
func (s *Server) apiPageCreate(c echo.Context) error {
	var in pageEdit
	if err := readJSON(c, &in); err != nil {
		return err
	}
	p := site.Page{ProjectID: currentProject(c).ID, Kind: site.KindPage, Placement: site.PlacementMain, Status: site.Statuses[0],
		InSitemap: true, InHTMLSitemap: true, SlugAuto: true, Position: -1}
	in.apply(&p)
	if in.ParentID != nil {
		p.ParentID = *in.ParentID
	}
	if in.Position != nil {
		p.Position = *in.Position
	}
	if err := s.store.pages.CreatePage(c.Request().Context(), &p); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, apiPrefix+"projects/"+strconv.FormatInt(p.ProjectID, 10)+"/pages/"+strconv.FormatInt(p.ID, 10))
	return s.answerPage(c, http.StatusCreated, p.ID)
}

// apiPageUpdate changes the fields the body sends; a move (parent_id,
// position, placement) goes through the move's own path after them.
func (s *Server) apiPageUpdate(c echo.Context) error {
	var in pageEdit
	if err := readJSON(c, &in); err != nil {
		return err
	}
	_, p, err := s.page(c)
	if err != nil {
		return err
	}
	if err := ifMatch(c, p); err != nil {
		return err
	}
	ctx := c.Request().Context()
	moving := in.ParentID != nil || in.Position != nil
	place := in.Placement
	if moving {
		in.Placement = nil // the move sets it, with the parent
	}
	in.apply(&p)
	if _, err := s.store.pages.EditPage(ctx, &p); err != nil {
		return stale(c, err)
	}
	if moving {
		parent, pos, placement := p.ParentID, p.Position, p.Placement
		if in.ParentID != nil {
			parent = *in.ParentID
		}
		if in.Position != nil {
			pos = *in.Position
		}
		if place != nil {
			placement = *place
		}
		if _, err := s.store.pages.Move(ctx, p.ID, parent, placement, pos); err != nil {
			return err
		}
	}
	return s.answerPage(c, http.StatusOK, p.ID)
}

// apiPageDelete deletes a page with the pages below it (a branch with
// launched URLs is refused: decide their redirects in the editor).
func (s *Server) apiPageDelete(c echo.Context) error {
	_, p, err := s.page(c)
	if err != nil {
		return err
	}
	if err := ifMatch(c, p); err != nil {
		return err
	}
	n, err := s.store.pages.DeletePage(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]int{"deleted": n})
}
