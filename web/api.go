package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
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
func isAPI(c echo.Context) bool {
	return strings.HasPrefix(c.Request().URL.Path, apiPrefix) || c.Request().URL.Path == "/mcp"
}

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

// apiVersion is a named version of a plan.
type apiVersion struct {
	Number    int    `json:"number"`
	Name      string `json:"name"`
	Author    string `json:"author"`
	CreatedAt string `json:"created_at"`
	Pages     int    `json:"pages"`
	Launched  bool   `json:"launched"`
	Approvals int    `json:"approvals"`
}

func apiVersionOf(v site.Version) apiVersion {
	return apiVersion{Number: v.Number, Name: v.Name, Author: v.Author, CreatedAt: v.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"),
		Pages: v.PageCount, Launched: v.Launched, Approvals: len(v.Approvals)}
}

// apiVersions lists the plan's versions, newest first.
func (s *Server) apiVersions(c echo.Context) error {
	vs, err := s.store.history.Versions(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	out := make([]apiVersion, 0, len(vs))
	for _, v := range vs {
		out = append(out, apiVersionOf(v))
	}
	pg, err := paginate(c, out, func(v apiVersion) int64 { return int64(v.Number) })
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pg)
}

// apiCreateVersion names the plan as it is now: {"name": "...",
// "launched": true} when the site went live with it (siteplan version
// create). Errors: EInvalid naming the field.
func (s *Server) apiCreateVersion(c echo.Context) error {
	var in struct {
		Name     string `json:"name"`
		Launched bool   `json:"launched"`
	}
	if err := readJSON(c, &in); err != nil {
		return err
	}
	p := currentProject(c)
	ctx, done, err := s.largeTurn(c)
	if err != nil {
		return err
	}
	defer done()
	create := s.store.history.CreateVersion
	if in.Launched {
		create = s.store.history.LaunchVersion
	}
	v, err := create(ctx, p.ID, in.Name)
	if site.ErrorCode(err) == site.EInvalid {
		return onField(err, "name")
	} else if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, apiPrefix+"projects/"+strconv.FormatInt(p.ID, 10)+"/versions")
	return c.JSON(http.StatusCreated, apiVersionOf(v))
}

// readJSON reads a request's JSON body into v. Errors: EInvalid saying
// what does not read.
func readJSON(c echo.Context, v any) error {
	if ct := c.Request().Header.Get(echo.HeaderContentType); !strings.HasPrefix(ct, echo.MIMEApplicationJSON) {
		return site.Errorf(site.EInvalid, "Send the body as JSON (Content-Type: application/json), not %q.", ct)
	}
	dec := json.NewDecoder(c.Request().Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return site.Errorf(site.EInvalid, "The body is not the JSON this route reads: %v.", err)
	}
	return nil
}

// apiDiff compares version ?from=N with version ?to=M (or the plan now:
// to=now or none), as siteplan diff --json prints it.
func (s *Server) apiDiff(c echo.Context) error {
	props, _, _, _, err := s.comparison(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, props.Diff)
}

// apiRedirectStatus counts the redirect map's old URLs by state, as
// siteplan redirects status --json prints them.
func (s *Server) apiRedirectStatus(c echo.Context) error {
	st, err := s.store.redirects.RedirectStatus(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

// onField is a refused write's error naming the field it is about, as
// the editor's forms show it beside that field.
func onField(err error, field string) error {
	return &site.Error{Code: site.ErrorCode(err), Message: site.ErrorMessage(err), Fields: map[string]string{field: site.ErrorMessage(err)}}
}

// idempotencyStore keeps the answers of the API's POSTs by their
// Idempotency-Key.
type idempotencyStore interface {
	ClaimKey(ctx context.Context, sender, key, request string) (site.KeptAnswer, bool, error)
	KeepAnswer(ctx context.Context, sender, key string, a site.KeptAnswer) error
	ReleaseKey(ctx context.Context, sender, key string) error
}

// maxKeptAnswer bounds an answer kept for a key.
const maxKeptAnswer = 1 << 20

// idempotent answers a POST sent again with its Idempotency-Key with the
// first one's answer instead of doing it twice: a CI job that retries
// after a lost connection makes one version, one page. The key is the
// sender's (its token, else its account); an answer that failed (5xx)
// is not kept, so the request may be tried again. Errors: EInvalid (a
// key sent with another request, or longer than 255 characters),
// EConflict (the first is still being answered).
func (s *Server) idempotent(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		key := c.Request().Header.Get("Idempotency-Key")
		if key == "" {
			return next(c)
		}
		if len(key) > 255 {
			return site.Errorf(site.EInvalid, "An Idempotency-Key is at most 255 characters.")
		}
		v := viewer(c)
		sender := "u" + strconv.FormatInt(v.UserID, 10)
		if v.TokenID != 0 {
			sender = "t" + strconv.FormatInt(v.TokenID, 10)
		}
		body, err := io.ReadAll(c.Request().Body)
		if err != nil {
			return err
		}
		c.Request().Body = io.NopCloser(bytes.NewReader(body))
		h := sha256.New()
		fmt.Fprintf(h, "%s %s\n", c.Request().Method, c.Request().URL.RequestURI())
		h.Write(body)
		ctx := c.Request().Context()
		kept, claimed, err := s.store.limits.ClaimKey(ctx, sender, key, hex.EncodeToString(h.Sum(nil)))
		if err != nil {
			return err
		}
		if !claimed {
			if kept.Location != "" {
				c.Response().Header().Set(echo.HeaderLocation, kept.Location)
			}
			c.Response().Header().Set("Idempotent-Replayed", "true")
			return c.Blob(kept.Status, kept.ContentType, kept.Body)
		}
		tee := &teeWriter{ResponseWriter: c.Response().Writer}
		c.Response().Writer = tee
		err = next(c)
		if err != nil {
			s.handleError(err, c) // answered here, so that the answer is the one kept
		}
		st := c.Response().Status
		done := context.WithoutCancel(ctx)
		if st >= 500 || tee.over {
			return s.store.limits.ReleaseKey(done, sender, key)
		}
		return s.store.limits.KeepAnswer(done, sender, key, site.KeptAnswer{Status: st, ContentType: c.Response().Header().Get(echo.HeaderContentType),
			Location: c.Response().Header().Get(echo.HeaderLocation), Body: tee.buf.Bytes()})
	}
}

// teeWriter keeps a copy of what an answer writes, up to maxKeptAnswer.
type teeWriter struct {
	http.ResponseWriter
	buf  bytes.Buffer
	over bool
}

func (w *teeWriter) Write(b []byte) (int, error) {
	if w.buf.Len()+len(b) > maxKeptAnswer {
		w.over = true
	} else {
		w.buf.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// apiRestore makes the plan what version :n was, as one change.
func (s *Server) apiRestore(c echo.Context) error {
	n, err := versionParam(c)
	if err != nil {
		return err
	}
	ch, err := s.store.history.RestoreVersion(c.Request().Context(), currentProject(c).ID, n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]string{"summary": ch.Summary})
}

// apiImport makes a project of a siteplan/1 document in the viewer's
// team (siteplan import of a document).
func (s *Server) apiImport(c echo.Context) error {
	if ct := c.Request().Header.Get(echo.HeaderContentType); !strings.HasPrefix(ct, echo.MIMEApplicationJSON) {
		return site.Errorf(site.EInvalid, "Send the siteplan/1 document as JSON (Content-Type: application/json), not %q.", ct)
	}
	d, err := site.ParseDocument(c.Request().Body)
	if err != nil {
		return err
	}
	ctx, done, err := s.largeTurn(c)
	if err != nil {
		return err
	}
	defer done()
	id, err := s.store.projects.ImportDocument(ctx, viewer(c).Team.ID, d)
	if err != nil {
		return err
	}
	p, err := s.store.projects.Project(ctx, id)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, apiPrefix+"projects/"+strconv.FormatInt(id, 10))
	return c.JSON(http.StatusCreated, apiProjectOf(p))
}
