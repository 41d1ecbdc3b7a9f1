package web

import (
	"cmp"
	"context"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// linkStore is what cross-links need.
type linkStore interface {
	Links(ctx context.Context, projectID int64) ([]site.Link, error)
	PageLinks(ctx context.Context, pageID int64) (out, in []site.Link, err error)
	AddLink(ctx context.Context, l *site.Link) error
	DeleteLink(ctx context.Context, projectID, id int64) error
}

// maxHits bounds search and picker results.
const maxHits = 30

// findPages returns the pages of project pid that match q, but not
// page except, as search shows them (Pages.Search: titles that start
// with q first; a blank q, the first pages by title).
func (s *Server) findPages(c echo.Context, pid int64, q string, except int64) ([]views.SearchHit, error) {
	found, err := s.store.pages.Search(c.Request().Context(), pid, q, except, maxHits)
	hits := make([]views.SearchHit, len(found))
	for i, f := range found {
		hits[i] = views.SearchHit{Page: f.Page, Where: cmp.Or(f.URL, f.Page.Kind)}
	}
	return hits, err
}

func (s *Server) search(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	q := c.QueryParam("q")
	if strings.TrimSpace(q) == "" {
		return render(c, http.StatusOK, views.SearchResults(nil, ""))
	}
	hits, err := s.findPages(c, p.ID, q, 0)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.SearchResults(hits, q))
}

func (s *Server) summary(c echo.Context) error {
	t, err := s.projectTree(c, s.store.pages.Tree)
	if err != nil {
		return err
	}
	est, err := s.estimateProps(c, t)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.SummaryPanel(t.Project, t.Summarize(), est))
}

func (s *Server) linkPicker(c echo.Context) error {
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	hits, err := s.findPages(c, p.ID, c.QueryParam("q"), pg.ID)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.LinkPicker(pg, hits))
}

func (s *Server) addLink(c echo.Context) error {
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	l := site.Link{ProjectID: p.ID, FromID: pg.ID, ToID: formID(c, "to"), Label: strings.TrimSpace(c.FormValue("label"))}
	err = s.store.links.AddLink(c.Request().Context(), &l)
	if code := site.ErrorCode(err); code != "" && code != site.EInternal {
		return s.renderLinks(c, statusOf[code], pg, site.ErrorMessage(err))
	} else if err != nil {
		return err
	}
	return s.renderLinks(c, http.StatusOK, pg, "")
}

func (s *Server) deleteLink(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	lid, err := idParam(c, "lid")
	if err != nil {
		return err
	}
	pg, err := s.store.pages.Page(c.Request().Context(), formID(c, "page"))
	if err != nil || pg.ProjectID != p.ID {
		return site.Errorf(site.ENotFound, "That page no longer exists.")
	}
	if err := s.store.links.DeleteLink(c.Request().Context(), p.ID, lid); err != nil {
		return err
	}
	return s.renderLinks(c, http.StatusOK, pg, "")
}

func (s *Server) renderLinks(c echo.Context, status int, pg site.Page, msg string) error {
	out, in, err := s.store.links.PageLinks(c.Request().Context(), pg.ID)
	if err != nil {
		return err
	}
	return render(c, status, views.Links(views.LinksProps{Page: pg, Out: out, In: in, Error: msg}))
}
