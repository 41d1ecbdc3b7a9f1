package web

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// paletteStore keeps each team's page-type colours.
type paletteStore interface {
	TeamPalette(ctx context.Context, teamID int64) (site.Palette, error)
	SetTypeColors(ctx context.Context, teamID int64, colors map[string]string) error
}

// typeColors is the team page's colours section.
func (s *Server) typeColors(c echo.Context) (views.TypeColorsProps, error) {
	v := viewer(c)
	pal, err := s.store.palettes.TeamPalette(c.Request().Context(), v.Team.ID)
	return views.TypeColorsProps{Palette: pal, CanEdit: site.RoleAccess(v.TeamRole) >= site.AccessEdit}, err
}

// saveTypeColors sets the colours the form chose for the team's page
// types (those it changed), or puts them all back to their defaults.
func (s *Server) saveTypeColors(c echo.Context) error {
	ctx := c.Request().Context()
	props, err := s.typeColors(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	types, colors := form["type"], form["color"]
	if len(types) != len(colors) {
		return site.Errorf(site.EInvalid, "The colours form came incomplete: reload the page and save again.")
	}
	changes := map[string]string{}
	for i, t := range types {
		switch c, _ := site.ValidColor(colors[i]); {
		case form.Get("reset") == "1":
			changes[t] = ""
		case c != props.Palette.Of(t).Color:
			changes[t] = colors[i]
		}
	}
	status := http.StatusOK
	switch err := s.store.palettes.SetTypeColors(ctx, viewer(c).Team.ID, changes); site.ErrorCode(err) {
	case "":
		props.Saved = true
	case site.EInvalid:
		props.Error, status = site.ErrorMessage(err), statusOf[site.EInvalid]
	default:
		return err
	}
	if props.Palette, err = s.store.palettes.TeamPalette(ctx, viewer(c).Team.ID); err != nil {
		return err
	}
	return render(c, status, views.TypeColors(props))
}
