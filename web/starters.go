package web

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// starterStore keeps a team's starter plans.
type starterStore interface {
	SaveStarter(ctx context.Context, projectID int64, name, by string) (site.Starter, error)
	Starters(ctx context.Context, teamID int64) ([]site.Starter, error)
	StarterDocument(ctx context.Context, teamID, id int64) (*site.Document, error)
	DeleteStarter(ctx context.Context, teamID, id int64) error
}

// saveStarter keeps the plan as a starter plan of its team.
func (s *Server) saveStarter(c echo.Context) error {
	p := currentProject(c)
	f := views.StarterForm{ProjectID: p.ID, Name: c.FormValue("name")}
	st, err := s.store.starters.SaveStarter(c.Request().Context(), p.ID, f.Name, author(c))
	switch code := site.ErrorCode(err); code {
	case "":
		f.Saved, f.Name = &st, ""
		return render(c, http.StatusCreated, views.SaveStarterForm(f))
	case site.EInvalid, site.EConflict, site.ETooLarge:
		f.Error = site.ErrorMessage(err)
		if msg := site.ErrorFields(err)["name"]; msg != "" {
			f.Error = msg
		}
		return render(c, statusOf[code], views.SaveStarterForm(f))
	}
	return err
}

// deleteStarter deletes one of the team's starter plans.
func (s *Server) deleteStarter(c echo.Context) error {
	ctx := c.Request().Context()
	team := viewer(c).Team.ID
	id, _ := strconv.ParseInt(c.Param("sid"), 10, 64)
	if err := s.store.starters.DeleteStarter(ctx, team, id); err != nil {
		return err
	}
	list, err := s.store.starters.Starters(ctx, team)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.Starters(list, true))
}

// fromStarter creates project p of the viewer's team from the starter
// plan the form chose: its pages, briefs and links, under p's name and
// base URL. Errors: EInvalid (p's fields), ENotFound (no such starter).
func (s *Server) fromStarter(c echo.Context, p *site.Project, starter int64) error {
	ctx := c.Request().Context()
	if err := p.Validate(); err != nil {
		return err
	}
	doc, err := s.store.starters.StarterDocument(ctx, p.TeamID, starter)
	if err != nil {
		return err
	}
	doc.Project.Name, doc.Project.BaseURL = p.Name, p.BaseURL
	p.ID, err = s.store.projects.ImportDocument(ctx, p.TeamID, doc)
	return err
}
