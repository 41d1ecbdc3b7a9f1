package web

import (
	"net/http"
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
	t.Walk(func(pg *site.Page, depth int) bool {
		row := views.CoverageRow{PageID: pg.ID, Title: pg.Title, Depth: depth}
		keep := props.Locale == "" && props.State == ""
		for _, l := range p.Locales {
			cell := views.CoverageCell{State: pg.Variant(l.Tag).State}
			if !t.Offered(pg, l.Tag) {
				cell.State = site.VariantNotOffered
			}
			if l.Tag != def.Tag {
				cell.Title = pg.Variant(l.Tag).Title
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
