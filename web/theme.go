package web

import (
	"context"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"siteplan/diagram"
	"siteplan/site"
	"siteplan/views"
)

// themeStore is what the theme form and the themed diagrams need.
type themeStore interface {
	Theme(ctx context.Context, projectID int64) (site.Theme, error)
	Logo(ctx context.Context, projectID int64) ([]byte, error)
	SetTheme(ctx context.Context, projectID int64, t site.Theme) error
	Brand(ctx context.Context, projectID int64) (site.Theme, error)
	BrandLogo(ctx context.Context, projectID int64) ([]byte, error)
	TeamTheme(ctx context.Context, teamID int64) (site.Theme, error)
	TeamLogo(ctx context.Context, teamID int64) ([]byte, error)
	SetTeamTheme(ctx context.Context, teamID int64, t site.Theme) error
}

// saveTheme replaces the project's theme from the theme form: a new logo
// if one was sent, else the one it has unless told to remove it.
func (s *Server) saveTheme(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	old, err := s.store.themes.Theme(ctx, p.ID)
	if err != nil {
		return err
	}
	t := site.Theme{Accent: c.FormValue("accent"), Agency: c.FormValue("agency"), ClientName: c.FormValue("client_name")}
	t.Logo, err = uploadedLogo(c)
	if err == nil && t.Logo == nil && c.FormValue("remove_logo") != "1" {
		t.Logo, err = s.store.themes.Logo(ctx, p.ID)
	}
	if err == nil {
		err = s.store.themes.SetTheme(ctx, p.ID, t)
	}
	props := views.ThemeProps{Project: p, Theme: t, DefaultAccent: diagram.DefaultAccent}
	switch site.ErrorCode(err) {
	case "":
		props.Saved = true
		if props.Theme, err = s.store.themes.Theme(ctx, p.ID); err != nil {
			return err
		}
		return render(c, http.StatusOK, views.ThemeForm(props))
	case site.EInvalid, site.ETooLarge:
		props.Theme.LogoSum = old.LogoSum
		props.Errors = site.ErrorFields(err)
		if len(props.Errors) == 0 {
			props.Errors = map[string]string{"logo": site.ErrorMessage(err)}
		}
		return rerender(c, err, views.ThemeForm(props))
	}
	return err
}

// uploadedLogo returns the logo the form sent, normalised; nil when it
// sent none. Errors: EInvalid, ETooLarge.
func uploadedLogo(c echo.Context) ([]byte, error) {
	fh, err := c.FormFile("logo")
	if err != nil || fh.Size == 0 {
		return nil, nil
	}
	f, err := fh.Open()
	if err != nil {
		return nil, site.Errorf(site.EInvalid, "The logo could not be read: send it again.")
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, site.MaxLogoBytes+1))
	if err != nil {
		return nil, site.Errorf(site.EInvalid, "The logo could not be read: send it again.")
	}
	return diagram.LogoPNG(b)
}

// logo serves the project's logo. Errors: ENotFound when it has none.
func (s *Server) logo(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	logo, err := s.store.themes.Logo(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	if len(logo) == 0 {
		return site.Errorf(site.ENotFound, "This project has no logo.")
	}
	return c.Blob(http.StatusOK, "image/png", logo)
}

// teamThemeProps is the team page's brand section.
func (s *Server) teamThemeProps(c echo.Context) (views.TeamThemeProps, error) {
	v := viewer(c)
	t, err := s.store.themes.TeamTheme(c.Request().Context(), v.Team.ID)
	return views.TeamThemeProps{Theme: t, DefaultAccent: diagram.DefaultAccent, CanEdit: site.RoleAccess(v.TeamRole) >= site.AccessEdit}, err
}

// saveTeamTheme replaces the team's brand from its form, as saveTheme a
// project's.
func (s *Server) saveTeamTheme(c echo.Context) error {
	ctx := c.Request().Context()
	team := viewer(c).Team.ID
	props, err := s.teamThemeProps(c)
	if err != nil {
		return err
	}
	old := props.Theme
	t := site.Theme{Accent: c.FormValue("accent"), Agency: c.FormValue("agency")}
	t.Logo, err = uploadedLogo(c)
	if err == nil && t.Logo == nil && c.FormValue("remove_logo") != "1" {
		t.Logo, err = s.store.themes.TeamLogo(ctx, team)
	}
	if err == nil {
		err = s.store.themes.SetTeamTheme(ctx, team, t)
	}
	switch site.ErrorCode(err) {
	case "":
		props.Saved = true
		if props.Theme, err = s.store.themes.TeamTheme(ctx, team); err != nil {
			return err
		}
		return render(c, http.StatusOK, views.TeamThemeForm(props))
	case site.EInvalid, site.ETooLarge:
		props.Theme, props.Theme.LogoSum = t, old.LogoSum
		props.Errors = site.ErrorFields(err)
		if len(props.Errors) == 0 {
			props.Errors = map[string]string{"logo": site.ErrorMessage(err)}
		}
		return rerender(c, err, views.TeamThemeForm(props))
	}
	return err
}

// teamLogo serves the viewer's team's logo. Errors: ENotFound.
func (s *Server) teamLogo(c echo.Context) error {
	logo, err := s.store.themes.TeamLogo(c.Request().Context(), viewer(c).Team.ID)
	if err != nil {
		return err
	}
	if len(logo) == 0 {
		return site.Errorf(site.ENotFound, "This team has no logo.")
	}
	return c.Blob(http.StatusOK, "image/png", logo)
}
