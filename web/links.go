package web

import (
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

// findPages returns pages whose title or URL contains q (case-insensitive),
// in outline order, skipping except.
func findPages(t *site.Tree, q string, except int64) []views.SearchHit {
	q = strings.ToLower(strings.TrimSpace(q))
	var hits []views.SearchHit
	t.Walk(func(p *site.Page, _ int) bool {
		if len(hits) >= maxHits {
			return false
		}
		if p.ID == except {
			return true
		}
		where := t.Location(p.ID)
		if q == "" || strings.Contains(strings.ToLower(p.Title), q) || strings.Contains(strings.ToLower(where), q) {
			if where == "" {
				where = p.Kind
			}
			hits = append(hits, views.SearchHit{Page: *p, Where: where})
		}
		return true
	})
	return hits
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
	t, err := s.store.pages.Tree(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.SearchResults(findPages(t, q, 0), q))
}

func (s *Server) summary(c echo.Context) error {
	t, err := s.projectTree(c, s.store.pages.Tree)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.SummaryPanel(t.Project, t.Summarize()))
}

func (s *Server) linkPicker(c echo.Context) error {
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	t, err := s.store.pages.Tree(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.LinkPicker(pg, findPages(t, c.QueryParam("q"), pg.ID)))
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
