package web

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"

	"siteplan/site"
)

// The REST API (/api/v1): the routes of the route table whose path
// starts with apiPrefix. A request authenticates with an API token
// (Authorization: Bearer, tokens.go) or, from a page of siteplan, with
// the browser's session; the same guard as the editor's decides what it
// may see and do, capped by the token's scope. Errors are problem
// details (RFC 9457). openapi.yaml is the contract: the API's test
// checks every route against it and every answer against its schema.

const apiPrefix = "/api/v1/"

//go:embed openapi.yaml
var openapiYAML []byte

// isAPI reports whether a request is to the API.
func isAPI(c echo.Context) bool { return strings.HasPrefix(c.Request().URL.Path, apiPrefix) }

// problem is an error as the API answers it (RFC 9457, problem details):
// the HTTP status, its words, what went wrong in words a person reads,
// siteplan's error code and, for a refused write, the fields to fix.
type problem struct {
	Type   string            `json:"type"`
	Title  string            `json:"title"`
	Status int               `json:"status"`
	Detail string            `json:"detail"`
	Code   string            `json:"code"`
	Fields map[string]string `json:"errors,omitempty"`
}

// writeProblem answers an API request's error as problem details.
func writeProblem(c echo.Context, status int, code, msg string, fields map[string]string) {
	if status == http.StatusUnauthorized {
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="siteplan"`)
	}
	b, _ := json.Marshal(problem{Type: "about:blank", Title: http.StatusText(status), Status: status, Detail: msg, Code: code, Fields: fields})
	_ = c.Blob(status, "application/problem+json", b)
}

// openapiDoc is the contract as JSON, converted once.
var openapiDoc = sync.OnceValues(func() ([]byte, error) {
	doc, err := openapi3.NewLoader().LoadFromData(openapiYAML)
	if err != nil {
		return nil, err
	}
	return json.MarshalIndent(doc, "", "  ")
})

// openAPI serves the contract (GET /api/v1/openapi.json).
func (s *Server) openAPI(c echo.Context) error {
	b, err := openapiDoc()
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=300")
	return c.JSONBlob(http.StatusOK, b)
}

// apiProject is a project as the API shows it.
type apiProject struct {
	ID            int64       `json:"id"`
	Name          string      `json:"name"`
	BaseURL       string      `json:"base_url"`
	TrailingSlash bool        `json:"trailing_slash"`
	Version       int64       `json:"version"`
	Pages         int         `json:"pages"`
	UpdatedAt     string      `json:"updated_at"`
	Locales       []apiLocale `json:"locales"`
}

// apiLocale is a market of a localized plan.
type apiLocale struct {
	Tag     string `json:"tag"`
	Default bool   `json:"default,omitempty"`
	Prefix  string `json:"prefix,omitempty"`
	BaseURL string `json:"base_url,omitempty"`
}

func apiProjectOf(p site.Project) apiProject {
	locales := []apiLocale{}
	for _, l := range p.Locales {
		locales = append(locales, apiLocale{l.Tag, l.Default, l.Prefix, l.BaseURL})
	}
	return apiProject{ID: p.ID, Name: p.Name, BaseURL: p.BaseURL, TrailingSlash: p.TrailingSlash, Version: p.Version, Pages: p.PageCount,
		UpdatedAt: p.UpdatedAt.UTC().Format("2006-01-02T15:04:05Z"), Locales: locales}
}

// listPage is one page of a list and where the next begins.
type listPage[T any] struct {
	Items      []T    `json:"items"`
	NextCursor string `json:"next_cursor"`
}

// maxPageSize bounds a list's page.
const maxPageSize = 200

// paginate is the page of items after the cursor (?cursor=, an item's
// id) of at most ?limit= (default 50) items, in their order. Errors:
// EInvalid (a cursor or limit that does not read).
func paginate[T any](c echo.Context, items []T, id func(T) int64) (listPage[T], error) {
	limit := 50
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxPageSize {
			return listPage[T]{}, site.Errorf(site.EInvalid, "limit is 1 to %d, not %q.", maxPageSize, v)
		}
		limit = n
	}
	start := 0
	if v := c.QueryParam("cursor"); v != "" {
		after, err := strconv.ParseInt(v, 10, 64)
		i := slices.IndexFunc(items, func(t T) bool { return id(t) == after })
		if err != nil || i < 0 {
			return listPage[T]{}, site.Errorf(site.EInvalid, "The cursor %q is not one this list gave: start again without it.", v)
		}
		start = i + 1
	}
	out := listPage[T]{Items: items[start:min(len(items), start+limit)]}
	if out.Items == nil {
		out.Items = []T{}
	}
	if end := start + len(out.Items); end < len(items) {
		out.NextCursor = strconv.FormatInt(id(items[end-1]), 10)
	}
	return out, nil
}

// apiProjects lists the projects of the viewer's team the viewer may
// see (a token of one project: that one), most recently changed first.
func (s *Server) apiProjects(c echo.Context) error {
	v := viewer(c)
	list, err := s.store.projects.Projects(c.Request().Context(), v.Team.ID)
	if err != nil {
		return err
	}
	var out []apiProject
	for _, p := range list {
		if v.Capped(p.ID, site.RoleAccess(v.TeamRole)) > site.AccessNone {
			out = append(out, apiProjectOf(p))
		}
	}
	pg, err := paginate(c, out, func(p apiProject) int64 { return p.ID })
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pg)
}

// etag is the entity tag of a project's plan at its version.
func etag(p site.Project) string { return `"v` + strconv.FormatInt(p.Version, 10) + `"` }

// apiProject shows one project.
func (s *Server) apiProject(c echo.Context) error {
	p := currentProject(c)
	c.Response().Header().Set("ETag", etag(p))
	return c.JSON(http.StatusOK, apiProjectOf(p))
}

// apiPlan gives the plan as siteplan/1, with its version as its ETag.
func (s *Server) apiPlan(c echo.Context) error {
	p := currentProject(c)
	d, err := s.store.projects.Document(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(p))
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	c.Response().WriteHeader(http.StatusOK)
	return d.Encode(c.Response())
}
