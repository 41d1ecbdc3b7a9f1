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

// saveTheme replaces the project's theme from the theme form.
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
	t := site.Theme{ClientName: c.FormValue("client_name")}
	props := views.ThemeProps{Project: p, DefaultAccent: diagram.DefaultAccent}
	props.Errors, err = saveThemeForm(c, &t, old, func(ctx context.Context) ([]byte, error) { return s.store.themes.Logo(ctx, p.ID) },
		func(ctx context.Context, t site.Theme) error { return s.store.themes.SetTheme(ctx, p.ID, t) })
	if props.Errors != nil {
		props.Theme = t
		return rerender(c, err, views.ThemeForm(props))
	} else if err != nil {
		return err
	}
	props.Saved = true
	if props.Theme, err = s.store.themes.Theme(ctx, p.ID); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ThemeForm(props))
}

// saveThemeForm reads a theme form's accent and agency into t, and its
// logo: the one sent, else the one kept (kept) unless the form removes
// it; then saves t with set. A theme the form got wrong comes back as
// the messages to show beside its fields, with its error (EInvalid,
// ETooLarge), t keeping old's logo sum (the logo shown stays the one
// saved); any other error alone.
func saveThemeForm(c echo.Context, t *site.Theme, old site.Theme, kept func(context.Context) ([]byte, error),
	set func(context.Context, site.Theme) error) (map[string]string, error) {
	ctx := c.Request().Context()
	t.Accent, t.Agency = c.FormValue("accent"), c.FormValue("agency")
	var err error
	t.Logo, err = uploadedLogo(c)
	if err == nil && t.Logo == nil && c.FormValue("remove_logo") != "1" {
		t.Logo, err = kept(ctx)
	}
	if err == nil {
		err = set(ctx, *t)
	}
	switch site.ErrorCode(err) {
	case "":
		return nil, nil
	case site.EInvalid, site.ETooLarge:
		t.LogoSum = old.LogoSum
		errs := site.ErrorFields(err)
		if len(errs) == 0 {
			errs = map[string]string{"logo": site.ErrorMessage(err)}
		}
		return errs, err
	}
	return nil, err
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
	return diagram.LogoPNG(c.Request().Context(), b)
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

// brandLogo serves the logo the project's review carries: its own, else
// its team's. Errors: ENotFound when neither has one.
func (s *Server) brandLogo(c echo.Context) error {
	logo, err := s.store.themes.BrandLogo(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	if len(logo) == 0 {
		return site.Errorf(site.ENotFound, "This project has no logo.")
	}
	return c.Blob(http.StatusOK, "image/png", logo)
}

// brandCSS is the style sheet of the brand's accent, which the review
// view links (the content security policy allows no inline style).
func (s *Server) brandCSS(c echo.Context) error {
	t, err := s.store.themes.Brand(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	css := ""
	if t.Accent != "" { // #rrggbb: Theme.Validate let nothing else in
		css = ":root { --accent: " + t.Accent + "; }\n"
	}
	return c.Blob(http.StatusOK, "text/css; charset=utf-8", []byte(css))
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
	team := viewer(c).Team.ID
	props, err := s.teamThemeProps(c)
	if err != nil {
		return err
	}
	var t site.Theme
	props.Errors, err = saveThemeForm(c, &t, props.Theme, func(ctx context.Context) ([]byte, error) { return s.store.themes.TeamLogo(ctx, team) },
		func(ctx context.Context, t site.Theme) error { return s.store.themes.SetTeamTheme(ctx, team, t) })
	if props.Errors != nil {
		props.Theme = t
		return rerender(c, err, views.TeamThemeForm(props))
	} else if err != nil {
		return err
	}
	props.Saved = true
	if props.Theme, err = s.store.themes.TeamTheme(c.Request().Context(), team); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.TeamThemeForm(props))
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
