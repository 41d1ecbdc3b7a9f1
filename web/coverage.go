package web

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// coverageLimit is how many pages the coverage page shows at a time.
const coverageLimit = 200

// coverage shows a localized plan's pages × locales, each cell the
// page's state there, filtered by a locale and a state ("what is still
// missing in sv"), a stretch of rows at a time.
func (s *Server) coverage(c echo.Context) error {
	p := currentProject(c)
	props := views.CoverageProps{Layout: s.layout(c, "Locales of "+p.Name), Project: p, Limit: coverageLimit,
		Locale: c.QueryParam("locale"), State: c.QueryParam("state")}
	props.Offset, _ = strconv.Atoi(c.QueryParam("offset"))
	props.Offset = max(0, props.Offset)
	if len(p.Locales) == 0 {
		return render(c, http.StatusOK, views.Coverage(props))
	}
	t, err := s.store.pages.Tree(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	def, _ := site.DefaultLocale(p.Locales)
	if n := c.QueryParam("set"); n != "" {
		props.Notice = "Set " + n + " " + map[bool]string{true: "page", false: "pages"}[n == "1"] + "; undo takes it back."
	}
	t.Walk(func(pg *site.Page, depth int) bool {
		row := views.CoverageRow{PageID: pg.ID, Title: pg.Title, Depth: depth}
		if depth <= 2 && pg.Placement == site.PlacementMain {
			props.Branches = append(props.Branches, views.CoverageRow{PageID: pg.ID, Title: pg.Title, Depth: depth})
		}
		keep := props.Locale == "" && props.State == ""
		for _, l := range p.Locales {
			v := t.Variant(pg, l.Tag)
			cell := views.CoverageCell{State: v.State}
			if l.Tag != def.Tag {
				cell.Title = v.Title
			}
			if props.Locale == "" || props.Locale == l.Tag {
				keep = keep || matchesState(cell.State, props.State)
			}
			row.Cells = append(row.Cells, cell)
		}
		if keep {
			if props.Total >= props.Offset && len(props.Rows) < coverageLimit {
				props.Rows = append(props.Rows, row)
			}
			props.Total++
		}
		return true
	})
	return render(c, http.StatusOK, views.Coverage(props))
}

// matchesState reports whether a state is what the filter asks for
// ("" any, views.CoverageMissing planned or translating).
func matchesState(state, want string) bool {
	switch want {
	case "":
		return true
	case views.CoverageMissing:
		return state == site.VariantPlanned || state == site.VariantTranslating
	}
	return state == want
}

// setBranchState sets a branch's state in a locale at once ("not offered
// in sv for this branch") and shows the locales page again, filtered to
// that locale, saying how many pages it set.
func (s *Server) setBranchState(c echo.Context) error {
	p := currentProject(c)
	tag := c.FormValue("locale")
	n, err := s.store.pages.SetBranchState(c.Request().Context(), p.ID, formID(c, "page"), tag, c.FormValue("state"))
	if err != nil {
		return err
	}
	setChange(c, change{Kind: "tree"})
	return c.Redirect(http.StatusSeeOther, projectPath(p.ID, "locales")+"?locale="+url.QueryEscape(tag)+"&set="+strconv.Itoa(n))
}
