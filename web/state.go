package web

import (
	"context"

	"github.com/labstack/echo/v4"

	"siteplan/site"
)

// Request state travels one way: in the request's context, under a typed
// key, with one accessor per value. The viewer and the team's palette are
// the domain's (site.WithViewer, site.WithPalette), as the views read
// them too; the
// project in view and the change a handler made are the server's.

type stateKey int

const (
	projectKey stateKey = iota
	changeKey
)

func withState(c echo.Context, key stateKey, v any) {
	c.SetRequest(c.Request().WithContext(context.WithValue(c.Request().Context(), key, v)))
}

// viewer is who makes the request.
func viewer(c echo.Context) site.Viewer { return site.ViewerFrom(c.Request().Context()) }

// setViewer records who makes the request.
func setViewer(c echo.Context, v site.Viewer) {
	c.SetRequest(c.Request().WithContext(site.WithViewer(c.Request().Context(), v)))
}

// setPalette records the page-type colours of the team whose project is
// in view (site.PaletteFrom reads them).
func setPalette(c echo.Context, p site.Palette) {
	c.SetRequest(c.Request().WithContext(site.WithPalette(c.Request().Context(), p)))
}

// currentProject is the project the access guard loaded for this request
// (the zero Project on routes without one).
func currentProject(c echo.Context) site.Project {
	p, _ := c.Request().Context().Value(projectKey).(site.Project)
	return p
}

// setProject records the project in view.
func setProject(c echo.Context, p site.Project) { withState(c, projectKey, p) }

// changeOf is the change the handler made, for live updates ("tree" if it
// said nothing).
func changeOf(c echo.Context) change {
	ch, _ := c.Request().Context().Value(changeKey).(change)
	if ch.Kind == "" {
		ch.Kind = "tree"
	}
	return ch
}

// setChange describes the change a handler made, for live updates.
func setChange(c echo.Context, ch change) { withState(c, changeKey, ch) }
