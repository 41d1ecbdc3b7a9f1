package web

import (
	"context"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// lintStore is what the Brief check reads besides the plan.
type lintStore interface {
	ProjectTemplates(ctx context.Context, projectID int64) (map[string][]site.Block, error)
}

// lintPage shows the Brief check: site.Lint's problems, grouped by rule
// in the order of their first page, each linking to its page.
func (s *Server) lintPage(c echo.Context) error {
	p := currentProject(c)
	rep, err := s.lint(c)
	if err != nil {
		return err
	}
	props := views.LintProps{Layout: s.layout(c, "Brief check of "+p.Name), Project: p, Pages: rep.Pages}
	for _, pr := range rep.Problems {
		i := slices.IndexFunc(props.Groups, func(g views.LintGroup) bool { return g.Rule == pr.Rule })
		if i < 0 {
			i = len(props.Groups)
			props.Groups = append(props.Groups, views.LintGroup{Rule: pr.Rule, Title: views.LintTitles[pr.Rule]})
		}
		props.Groups[i].Problems = append(props.Groups[i].Problems, pr)
	}
	return render(c, http.StatusOK, views.Lint(props))
}

// lint checks the route's plan's briefs against its types' templates.
func (s *Server) lint(c echo.Context) (*site.LintReport, error) {
	ctx, p := c.Request().Context(), currentProject(c)
	t, err := s.store.pages.Tree(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	templates, err := s.store.lint.ProjectTemplates(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	return site.Lint(t, templates), nil
}
