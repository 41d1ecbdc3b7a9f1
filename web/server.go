// Package web is siteplan's HTTP server: echo v4 routes, middleware and
// handlers that render views and call the store through the Store
// interface declared here.
package web

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"siteplan/site"
	"siteplan/views"
)

// Store is what the web server needs from persistence; *store.DB has it.
type Store interface {
	DefaultTeam(ctx context.Context) (site.Team, error)
	Projects(ctx context.Context, teamID int64) ([]site.Project, error)
	Project(ctx context.Context, id int64) (site.Project, error)
	CreateProject(ctx context.Context, p *site.Project) error
	UpdateProject(ctx context.Context, p *site.Project) error
	RenameProject(ctx context.Context, id int64, name string) error
	DeleteProject(ctx context.Context, id int64) error

	Page(ctx context.Context, id int64) (site.Page, error)
	Tree(ctx context.Context, projectID int64) (*site.Tree, error)
	ExportTree(ctx context.Context, projectID int64) (*site.Tree, error)
	Children(ctx context.Context, projectID, parentID int64) ([]site.Page, error)
	PagesToDepth(ctx context.Context, projectID int64, depth int) ([]site.Page, error)
	Ancestors(ctx context.Context, id int64) ([]site.Page, error)
	URLCandidates(ctx context.Context, projectID int64, slug string) ([]site.Page, error)
	DescendantCount(ctx context.Context, id int64) (int, error)
	CreatePage(ctx context.Context, p *site.Page) error
	UpdatePage(ctx context.Context, p *site.Page) error
	RenamePage(ctx context.Context, id int64, title string, version int64) (site.Page, error)
	MovePage(ctx context.Context, id, parentID int64, placement string, position int) error
	DeletePage(ctx context.Context, id int64) (int, error)
	DuplicatePage(ctx context.Context, id int64) (int64, error)
	InsertOutline(ctx context.Context, projectID, parentID int64, items []*site.OutlineItem) ([]int64, error)

	Links(ctx context.Context, projectID int64) ([]site.Link, error)
	PageLinks(ctx context.Context, pageID int64) (out, in []site.Link, err error)
	AddLink(ctx context.Context, l *site.Link) error
	DeleteLink(ctx context.Context, projectID, id int64) error

	ImportDocument(ctx context.Context, teamID int64, d *site.Document) (int64, error)
	Document(ctx context.Context, projectID int64) (*site.Document, error)
}

// Body limits: forms are small; documents may hold 100,000 pages.
const (
	MaxBody       = "1M"
	MaxImportBody = 64 << 20
)

// Server serves the editor.
type Server struct {
	Echo     *echo.Echo
	store    Store
	log      *slog.Logger
	diagrams *renderCache
}

// DiagramCacheBytes is the memory kept for rendered diagrams.
const DiagramCacheBytes = 64 << 20

// New builds the server with its middleware and routes. static holds the
// embedded assets.
func New(st Store, static fs.FS, log *slog.Logger) *Server {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	s := &Server{Echo: e, store: st, log: log, diagrams: newRenderCache(DiagramCacheBytes)}
	e.HTTPErrorHandler = s.handleError
	e.Use(middleware.Recover())
	e.Use(middleware.SecureWithConfig(middleware.SecureConfig{
		XSSProtection:         "0",
		ContentTypeNosniff:    "nosniff",
		XFrameOptions:         "DENY",
		ReferrerPolicy:        "same-origin",
		ContentSecurityPolicy: "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
	}))
	e.Use(middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{
		Limit:   MaxBody,
		Skipper: func(c echo.Context) bool { return c.Path() == "/projects/import" },
	}))
	e.Use(middleware.CSRFWithConfig(middleware.CSRFConfig{
		TokenLookup:    "header:X-CSRF-Token,form:_csrf",
		CookieName:     "_csrf",
		CookiePath:     "/",
		CookieHTTPOnly: true,
		CookieSameSite: http.SameSiteStrictMode,
		Skipper:        func(c echo.Context) bool { return strings.HasPrefix(c.Request().URL.Path, "/static/") },
		ErrorHandler: func(error, echo.Context) error {
			return site.Errorf(site.EForbidden, "The form's security token is missing or stale: reload the page and try again.")
		},
	}))
	e.StaticFS("/static", static)
	s.routes()
	return s
}

func (s *Server) routes() {
	e := s.Echo
	e.GET("/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok") })
	e.GET("/", s.listProjects)
	e.POST("/projects", s.createProject)
	e.POST("/projects/import", s.importProject, middleware.BodyLimit("64M"))
	e.GET("/projects/:id", s.editor)
	e.PATCH("/projects/:id", s.renameProject)
	e.GET("/projects/:id/rename", s.renameProjectForm)
	e.GET("/projects/:id/delete", s.confirmDeleteProject)
	e.DELETE("/projects/:id", s.deleteProject)
	e.GET("/projects/:id/settings", s.settings)
	e.PUT("/projects/:id/settings", s.saveSettings)
	e.GET("/projects/:id/document.json", s.downloadDocument)
	e.GET("/projects/:id/summary", s.summary)
	e.GET("/projects/:id/search", s.search)
	e.GET("/projects/:id/outline", s.outline)
	e.GET("/projects/:id/paste", s.pasteForm)
	e.POST("/projects/:id/paste", s.paste)
	e.POST("/projects/:id/pages", s.createPage)
	e.GET("/projects/:id/pages/:pid", s.pageDetails)
	e.PUT("/projects/:id/pages/:pid", s.savePage)
	e.DELETE("/projects/:id/pages/:pid", s.deletePage)
	e.GET("/projects/:id/pages/:pid/delete", s.confirmDeletePage)
	e.GET("/projects/:id/pages/:pid/children", s.children)
	e.GET("/projects/:id/pages/:pid/rename", s.renameForm)
	e.GET("/projects/:id/pages/:pid/title", s.title)
	e.PATCH("/projects/:id/pages/:pid/title", s.rename)
	e.POST("/projects/:id/pages/:pid/move", s.movePage)
	e.POST("/projects/:id/pages/:pid/duplicate", s.duplicatePage)
	e.GET("/projects/:id/pages/:pid/paste", s.pasteForm)
	e.GET("/projects/:id/pages/:pid/links/picker", s.linkPicker)
	e.POST("/projects/:id/pages/:pid/links", s.addLink)
	e.DELETE("/projects/:id/links/:lid", s.deleteLink)
	e.GET("/projects/:id/diagram", s.diagram)
	e.GET("/projects/:id/diagram/:format", s.downloadDiagram)
	e.GET("/projects/:id/export", s.exportPage)
	e.GET("/projects/:id/export.zip", s.exportZip)
	e.GET("/projects/:id/sitemap.html", s.footerPreview)
	e.GET("/projects/:id/:file", s.exportFile) // sitemap.xml, sitemap-N.xml[.gz], sitemap.txt, robots.txt, footer.html
}

// statusOf is the one table from error codes to HTTP status.
var statusOf = map[string]int{
	site.EInvalid:      http.StatusUnprocessableEntity,
	site.ENotFound:     http.StatusNotFound,
	site.EConflict:     http.StatusConflict,
	site.EForbidden:    http.StatusForbidden,
	site.EUnauthorized: http.StatusUnauthorized,
	site.ETooLarge:     http.StatusRequestEntityTooLarge,
}

// codeOf is the reverse, for errors that echo itself raises.
var codeOf = map[int]string{
	http.StatusBadRequest:            site.EInvalid,
	http.StatusUnprocessableEntity:   site.EInvalid,
	http.StatusNotFound:              site.ENotFound,
	http.StatusMethodNotAllowed:      site.ENotFound,
	http.StatusForbidden:             site.EForbidden,
	http.StatusUnauthorized:          site.EUnauthorized,
	http.StatusRequestEntityTooLarge: site.ETooLarge,
}

// handleError maps an error to a status and answers in the form the
// request wants: an htmx fragment, JSON for .json routes, or a page.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		msg := http.StatusText(he.Code) + "."
		if he.Code == http.StatusRequestEntityTooLarge {
			msg = "The request is too large (forms up to 1 MB, imports up to 64 MB)."
		}
		code, ok := codeOf[he.Code]
		if !ok {
			code = site.EInternal
		}
		err = &site.Error{Code: code, Message: msg}
	}
	code := site.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
		s.log.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	}
	msg := site.ErrorMessage(err)
	switch {
	case strings.HasSuffix(c.Request().URL.Path, ".json"):
		_ = c.JSON(status, map[string]any{"error": map[string]string{"code": code, "message": msg}})
	case isHTMX(c):
		c.Response().Header().Set("HX-Retarget", "#flash")
		c.Response().Header().Set("HX-Reswap", "innerHTML")
		_ = render(c, status, views.ErrorFragment(msg))
	default:
		_ = render(c, status, views.ErrorPage(s.layout(c, "Error"), status, msg))
	}
}

func isHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// render writes a component with an explicit status after rendering it
// into a buffer, so a failed render never sends half a page.
func render(c echo.Context, status int, comps ...templ.Component) error {
	var buf bytes.Buffer
	for _, comp := range comps {
		if err := comp.Render(c.Request().Context(), &buf); err != nil {
			return err
		}
	}
	return c.HTMLBlob(status, buf.Bytes())
}

func (s *Server) layout(c echo.Context, title string) views.LayoutProps {
	token, _ := c.Get(middleware.DefaultCSRFConfig.ContextKey).(string)
	return views.LayoutProps{Title: title, CSRF: token}
}
