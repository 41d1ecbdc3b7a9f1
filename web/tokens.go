package web

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// API tokens: made and revoked on the account page (a person's own) and
// the Team page (the team's, by its owners); a request to the API that
// presents one acts as its person or team, capped by its scope
// (site.Viewer.Capped, applied where the guard loads a project).

// tokenStore is what the tokens' pages and the API's guard use.
type tokenStore interface {
	CreateToken(ctx context.Context, t *site.APIToken) (string, error)
	Tokens(ctx context.Context, teamID, userID int64) ([]site.APIToken, error)
	RevokeToken(ctx context.Context, teamID, userID, id int64) error
	UseToken(ctx context.Context, raw string) (site.TokenUse, error)
}

// tokenOwner is whose tokens a route makes: the viewer's own, or (team)
// the team's (user 0).
func tokenOwner(c echo.Context, team bool) int64 {
	if team {
		return 0
	}
	return viewer(c).UserID
}

// tokensProps are the tokens section of the account page (team false)
// or the Team page.
func (s *Server) tokensProps(c echo.Context, team bool) (views.TokensProps, error) {
	v := viewer(c)
	ctx := c.Request().Context()
	p := views.TokensProps{Action: "/account/tokens", Team: team, Now: s.now()}
	if team {
		p.Action = "/team/tokens"
	}
	var err error
	if p.Tokens, err = s.store.tokens.Tokens(ctx, v.Team.ID, tokenOwner(c, team)); err != nil {
		return p, err
	}
	if p.Projects, err = s.store.projects.Projects(ctx, v.Team.ID); err != nil {
		return p, err
	}
	widest := site.ScopeAdmin
	if !team {
		widest = site.RoleScope(v.TeamRole)
	}
	p.Scopes = site.TokenScopes[:slices.Index(site.TokenScopes, widest)+1]
	return p, nil
}

// accountPage shows the person's page: their API tokens in the team
// they work in.
func (s *Server) accountPage(c echo.Context) error {
	v := viewer(c)
	if v.Team.ID == 0 {
		return render(c, http.StatusOK, views.NoTeam(s.layout(c, "No team")))
	}
	u, err := s.store.accounts.User(c.Request().Context(), v.UserID)
	if err != nil {
		return err
	}
	tokens, err := s.tokensProps(c, false)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.Account(views.AccountProps{Layout: s.layout(c, v.Name), User: u, Team: v.Team, Tokens: tokens}))
}

// createToken makes a token: the viewer's own, or the team's.
func (s *Server) createToken(team bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		v := viewer(c)
		t := site.APIToken{TeamID: v.Team.ID, UserID: tokenOwner(c, team), Name: c.FormValue("name"), Scope: c.FormValue("scope"), CreatedBy: v.UserID}
		t.ProjectID, _ = strconv.ParseInt(c.FormValue("project"), 10, 64)
		life, err := site.ParseDuration(c.FormValue("expires"))
		var raw string
		if err == nil {
			t.ExpiresAt = s.now().Add(life)
			raw, err = s.store.tokens.CreateToken(c.Request().Context(), &t)
		}
		props, perr := s.tokensProps(c, team)
		if perr != nil {
			return perr
		}
		switch site.ErrorCode(err) {
		case "":
			props.NewToken = raw
			return render(c, http.StatusCreated, views.Tokens(props))
		case site.EInvalid:
			props.Error = site.ErrorMessage(err)
			return rerender(c, err, views.Tokens(props))
		}
		return err
	}
}

// revokeToken revokes a token: the viewer's own, or the team's.
func (s *Server) revokeToken(team bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := idParam(c, "tid")
		if err != nil {
			return err
		}
		if err := s.store.tokens.RevokeToken(c.Request().Context(), viewer(c).Team.ID, tokenOwner(c, team), id); err != nil {
			return err
		}
		props, err := s.tokensProps(c, team)
		if err != nil {
			return err
		}
		return render(c, http.StatusOK, views.Tokens(props))
	}
}

// bearer is the API token a request presents (Authorization: Bearer),
// "" for none.
func bearer(c echo.Context) string {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	if scheme, tok, ok := strings.Cut(h, " "); ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(tok)
	}
	return ""
}

// withToken authenticates an API request by its token: the viewer is
// the token's person or team, capped by its scope and project; each use
// is counted against the token's rate limit, whose state the response's
// RateLimit-* headers give. A request without a token goes on as the
// browser's session, if any. Errors: EUnauthorized, ETooMany.
func (s *Server) withToken(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		raw := bearer(c)
		if raw == "" {
			return next(c)
		}
		use, err := s.store.tokens.UseToken(c.Request().Context(), raw)
		if err != nil {
			return err
		}
		b := site.TokenBucket(use.Token.ID)
		h := c.Response().Header()
		h.Set("RateLimit-Limit", strconv.Itoa(b.Burst))
		h.Set("RateLimit-Remaining", strconv.Itoa(use.Remaining))
		h.Set("RateLimit-Reset", strconv.Itoa(int(max(0, use.Full.Sub(s.now())+time.Second-1)/time.Second)))
		if !use.Allowed {
			h.Set("Retry-After", strconv.Itoa(int((b.Every+time.Second-1)/time.Second)))
			return site.Errorf(site.ETooMany, "This token made too many requests: at most %d at once, then %d a minute. Wait a moment.", b.Burst, int(time.Minute/b.Every))
		}
		v := use.Viewer()
		setViewer(c, v)
		return next(c)
	}
}
