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

// templateStore keeps each team's page-type templates.
type templateStore interface {
	TypeTemplates(ctx context.Context, teamID int64) (map[string][]site.Block, error)
	SetTypeTemplate(ctx context.Context, teamID int64, typ string, blocks []site.Block, postType string) error
	TeamPostTypes(ctx context.Context, teamID int64) (map[string]string, error)
	PostTypes(ctx context.Context, projectID int64) (map[string]string, error)
}

// typeTemplates is the team page's templates section.
func (s *Server) typeTemplates(c echo.Context) (views.TypeTemplatesProps, error) {
	v := viewer(c)
	ctx := c.Request().Context()
	pal, err := s.store.palettes.TeamPalette(ctx, v.Team.ID)
	if err != nil {
		return views.TypeTemplatesProps{}, err
	}
	tmpl, err := s.store.templates.TypeTemplates(ctx, v.Team.ID)
	if err != nil {
		return views.TypeTemplatesProps{}, err
	}
	post, err := s.store.templates.TeamPostTypes(ctx, v.Team.ID)
	return views.TypeTemplatesProps{Palette: pal, Templates: tmpl, PostTypes: post, CanEdit: site.RoleAccess(v.TeamRole) >= site.AccessEdit}, err
}

// saveTypeTemplate sets the blocks a page of the form's type starts
// with, a line each (site.ParseBlockLines).
func (s *Server) saveTypeTemplate(c echo.Context) error {
	typ, text := c.FormValue("type"), c.FormValue("blocks")
	err := s.store.templates.SetTypeTemplate(c.Request().Context(), viewer(c).Team.ID, typ, site.ParseBlockLines(text), c.FormValue("post_type"))
	if err != nil && site.ErrorCode(err) != site.EInvalid {
		return err
	}
	props, perr := s.typeTemplates(c)
	if perr != nil {
		return perr
	}
	if err != nil {
		props.ErrorType, props.Error, props.Typed = typ, site.ErrorMessage(err), text
		return render(c, statusOf[site.EInvalid], views.TypeTemplates(props))
	}
	props.Saved = typ
	return render(c, http.StatusOK, views.TypeTemplates(props))
}
