package web

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// accountStore is what logging in, signing up and the access guard need.
type accountStore interface {
	HasUsers(ctx context.Context) (bool, error)
	SignUpFirst(ctx context.Context, email, name, password, team string) (site.User, site.Team, error)
	Authenticate(ctx context.Context, email, password string) (site.User, error)
	CreateSession(ctx context.Context, userID, teamID int64) (string, error)
	Session(ctx context.Context, token string) (site.Session, site.User, error)
	LiveSessions(ctx context.Context, tokens []string) (map[string]bool, error)
	SwitchTeam(ctx context.Context, token string, teamID int64) error
	DeleteSession(ctx context.Context, token string) error
	User(ctx context.Context, id int64) (site.User, error)
}

// Cookies. The session and share cookies hold tokens whose hashes the
// store keeps; both are HttpOnly and SameSite=Lax, Secure behind TLS.
const (
	sessionCookie = "siteplan_session"
	shareCookie   = "siteplan_share"
	nameCookie    = "siteplan_name" // the name a share-link visitor comments under
)

// need is who may use a route.
type need int

const (
	public         need = iota // anyone
	account                    // a logged-in account
	teamEdit                   // an owner or editor of the account's current team
	teamOwner                  // an owner of the account's current team
	projectRead                // anyone who can see the :id project, share links included
	projectTeam                // ... on the agency's team: the change history is theirs
	projectComment             // ... and may comment
	projectResolve             // ... and is on the team: resolves threads
	projectEdit                // ... and may change it
	projectManage              // ... and may share or delete it
)

// projectAccess is the access each project need asks for.
var projectAccess = map[need]site.Access{
	projectRead: site.AccessRead, projectTeam: site.AccessRead, projectComment: site.AccessComment, projectResolve: site.AccessComment,
	projectEdit: site.AccessEdit, projectManage: site.AccessManage,
}

// guard returns the middleware that lets only those with n through.
func (s *Server) guard(n need) []echo.MiddlewareFunc {
	switch n {
	case account:
		return []echo.MiddlewareFunc{s.requireUser}
	case teamEdit:
		return []echo.MiddlewareFunc{s.requireUser, requireTeamRole(site.AccessEdit)}
	case teamOwner:
		return []echo.MiddlewareFunc{s.requireUser, requireTeamRole(site.AccessManage)}
	case public:
		return nil
	case projectResolve:
		return []echo.MiddlewareFunc{s.inProject(projectAccess[n]), requireResolver, s.publishChanges}
	case projectTeam:
		return []echo.MiddlewareFunc{s.inProject(projectAccess[n]), requireTeam}
	}
	return []echo.MiddlewareFunc{s.inProject(projectAccess[n]), s.publishChanges}
}

// requireResolver lets only the team resolve or reopen threads.
func requireResolver(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !viewer(c).CanResolve() {
			return site.Errorf(site.EForbidden, "Only the agency's team resolves threads: reply to say what is settled.")
		}
		return next(c)
	}
}

// requireTeam keeps the change history to the agency's team: a client
// sees versions and signs off, not every edit.
func requireTeam(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if viewer(c).Share {
			return site.Errorf(site.EForbidden, "The change history is for the agency's team; the versions page shows what was agreed.")
		}
		return next(c)
	}
}

// identify finds the account of the session cookie, with its teams. A
// request without a live session goes on as anonymous.
func (s *Server) identify(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ck, err := c.Cookie(sessionCookie)
		if err != nil || ck.Value == "" {
			return next(c)
		}
		ctx := c.Request().Context()
		sess, u, err := s.store.accounts.Session(ctx, ck.Value)
		if site.ErrorCode(err) == site.EUnauthorized {
			s.clearCookie(c, sessionCookie)
			return next(c)
		} else if err != nil {
			return err
		}
		v := site.Viewer{UserID: u.ID, Name: u.Name, Teams: sess.Teams}
		for _, m := range sess.Teams {
			if m.ID == sess.TeamID || v.Team.ID == 0 { // the session's team, else the first
				v.Team, v.TeamRole = m.Team, m.Role
			}
		}
		setViewer(c, v)
		return next(c)
	}
}

// needLogin sends a page request to the login form and refuses others.
func needLogin(c echo.Context) error {
	if isAPI(c) {
		return site.Errorf(site.EUnauthorized, "Send an API token: Authorization: Bearer TOKEN (make one on your account page, or with siteplan token create).")
	}
	if isHTMX(c) || c.Request().Method != http.MethodGet {
		return site.Errorf(site.EUnauthorized, "Log in first: your session has ended.")
	}
	return c.Redirect(http.StatusSeeOther, "/login?next="+url.QueryEscape(c.Request().URL.RequestURI()))
}

func (s *Server) requireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if v := viewer(c); v.UserID == 0 && v.TokenID == 0 { // a team token has no person
			return needLogin(c)
		}
		return next(c)
	}
}

func requireTeamRole(min site.Access) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			v := viewer(c)
			switch a := v.Capped(0, site.RoleAccess(v.TeamRole)); {
			case v.Team.ID == 0:
				return site.Errorf(site.EForbidden, "You are not in a team: create one or open an invite link.")
			case a < min && min == site.AccessManage:
				return site.Errorf(site.EForbidden, "Only the team's owners can do this.")
			case a < min:
				return site.Errorf(site.EForbidden, "Viewers cannot create or import projects: ask an owner of %s.", v.Team.Name)
			}
			return next(c)
		}
	}
}

// inProject loads the :id project and lets through only those with at
// least min access to it: members of its team by their role, visitors
// with its share link by the link's role. To everyone else the project
// does not exist.
func (s *Server) inProject(min site.Access) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			v := viewer(c)
			id, err := idParam(c, "id")
			if err != nil {
				return site.Errorf(site.ENotFound, "No such project.")
			}
			ctx := c.Request().Context()
			p, pal, err := s.store.projects.ProjectWithPalette(ctx, id) // the views and drawings colour types by the palette
			if err != nil && site.ErrorCode(err) != site.ENotFound {
				return err
			}
			access := memberAccess(v, p)
			var shareErr error
			if ck, cerr := c.Cookie(shareCookie); access == site.AccessNone && cerr == nil && ck.Value != "" && !isAPI(c) { // the API is for accounts and tokens
				l, err := s.store.shares.UseShareLink(ctx, ck.Value)
				switch {
				case site.ErrorCode(err) == site.ENotFound:
					shareErr = err
				case err != nil:
					return err
				case l.ProjectID == p.ID:
					access, v.Share, v.ShareLinkID = site.ShareAccess(l.Role), true, l.ID
					v.Downloads, v.Statuses = l.Downloads, l.Statuses
				}
			}
			switch {
			case access == site.AccessNone && shareErr != nil:
				return shareErr
			case access == site.AccessNone && v.UserID == 0 && v.TokenID == 0:
				return needLogin(c)
			case access == site.AccessNone:
				return site.Errorf(site.ENotFound, "Project %d does not exist.", id)
			case access < min:
				return refused(min, v.Share)
			}
			v.Access = access
			v.Locale = p.ShownLocale(cmp.Or(c.QueryParam("locale"), c.Request().Header.Get("X-Locale")))
			setViewer(c, v)
			setProject(c, p)
			setPalette(c, pal)
			return next(c)
		}
	}
}

// memberAccess is the access viewer v has to project p as a member of
// its team (identify loaded the account's teams and roles), capped by
// an API token's scope and project; none for a missing project (no
// team has id 0).
func memberAccess(v site.Viewer, p site.Project) site.Access {
	for _, m := range v.Teams {
		if m.ID == p.TeamID {
			return v.Capped(p.ID, site.RoleAccess(m.Role))
		}
	}
	return site.AccessNone
}

func refused(min site.Access, share bool) error {
	switch {
	case min == site.AccessComment:
		return site.Errorf(site.EForbidden, "This share link is read-only: it cannot add comments.")
	case share:
		return site.Errorf(site.EForbidden, "A share link cannot change the plan: ask the agency.")
	case min == site.AccessEdit:
		return site.Errorf(site.EForbidden, "Viewers can read and comment but not change the plan: ask an owner or editor.")
	}
	return site.Errorf(site.EForbidden, "Only the team's owners can share or delete a project.")
}

func (s *Server) setCookie(c echo.Context, name, value string, maxAge time.Duration) {
	c.SetCookie(&http.Cookie{Name: name, Value: value, Path: "/", MaxAge: int(maxAge.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: c.Scheme() == "https"})
}

func (s *Server) clearCookie(c echo.Context, name string) {
	c.SetCookie(&http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: c.Scheme() == "https"})
}

// safeNext returns where to go after logging in: next if it is a path
// on this site, else "/". A browser drops tabs and line breaks from a
// URL and reads a backslash as a slash, so "/<TAB>/evil.example" would take
// it to another host: next may hold no control or white space character
// and no backslash, and must parse as a path with no scheme or host.
func safeNext(next string) string {
	if next == "" || strings.ContainsFunc(next, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '\\' || unicode.IsSpace(r) }) {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" || !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(next, "//") {
		return "/"
	}
	return next
}

func (s *Server) loginPage(c echo.Context) error {
	if ok, err := s.store.accounts.HasUsers(c.Request().Context()); err != nil {
		return err
	} else if !ok {
		return c.Redirect(http.StatusSeeOther, "/signup")
	}
	if viewer(c).UserID != 0 {
		return c.Redirect(http.StatusSeeOther, safeNext(c.QueryParam("next")))
	}
	return render(c, http.StatusOK, views.Login(views.LoginProps{Layout: s.layout(c, "Log in"), Form: views.AuthForm{Next: safeNext(c.QueryParam("next"))}}))
}

func (s *Server) login(c echo.Context) error {
	ctx := c.Request().Context()
	email, next := strings.ToLower(strings.TrimSpace(c.FormValue("email"))), safeNext(c.FormValue("next"))
	form := views.AuthForm{Email: email, Next: next}
	try, err := s.logins.take(ctx, email, c.RealIP())
	if site.ErrorCode(err) == site.ETooMany {
		form.Message = site.ErrorMessage(err)
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(loginRetry.Seconds())))
		return rerender(c, err, views.Login(views.LoginProps{Layout: s.layout(c, "Log in"), Form: form}))
	} else if err != nil {
		return err
	}
	u, err := s.store.accounts.Authenticate(ctx, email, c.FormValue("password"))
	if site.ErrorCode(err) == site.EUnauthorized {
		if err := try.failed(ctx); err != nil {
			return err
		}
		form.Message = site.ErrorMessage(err)
		return render(c, http.StatusUnauthorized, views.Login(views.LoginProps{Layout: s.layout(c, "Log in"), Form: form}))
	} else if err != nil {
		return err
	}
	if err := try.succeeded(ctx); err != nil {
		return err
	}
	if err := s.startSession(c, u.ID, 0); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, next)
}

// startSession logs the user in to team (0: their first) with a new
// session id, ending the session the request came with.
func (s *Server) startSession(c echo.Context, userID, team int64) error {
	ctx := c.Request().Context()
	if ck, err := c.Cookie(sessionCookie); err == nil && ck.Value != "" {
		if err := s.store.accounts.DeleteSession(ctx, ck.Value); err != nil {
			return err
		}
		s.hub.logout(ck.Value)
	}
	if team == 0 {
		teams, err := s.store.teams.Memberships(ctx, userID)
		if err != nil {
			return err
		}
		if len(teams) > 0 {
			team = teams[0].ID
		}
	}
	token, err := s.store.accounts.CreateSession(ctx, userID, team)
	if err != nil {
		return err
	}
	s.setCookie(c, sessionCookie, token, site.SessionTTL)
	return nil
}

func (s *Server) logout(c echo.Context) error {
	if ck, err := c.Cookie(sessionCookie); err == nil {
		if err := s.store.accounts.DeleteSession(c.Request().Context(), ck.Value); err != nil {
			return err
		}
		s.hub.logout(ck.Value)
	}
	s.clearCookie(c, sessionCookie)
	return redirect(c, "/login")
}

func (s *Server) signUpPage(c echo.Context) error {
	if ok, err := s.store.accounts.HasUsers(c.Request().Context()); err != nil {
		return err
	} else if ok {
		return c.Redirect(http.StatusSeeOther, "/login")
	}
	return render(c, http.StatusOK, views.SignUp(views.SignUpProps{Layout: s.layout(c, "Set up siteplan")}))
}

// signUpFailed shows the form again with what was wrong; other errors
// go to the error handler.
func (s *Server) signUpFailed(c echo.Context, props views.SignUpProps, err error) error {
	code := site.ErrorCode(err)
	if code != site.EInvalid && code != site.EConflict {
		return err
	}
	props.Form.Errors, props.Form.Message = site.ErrorFields(err), site.ErrorMessage(err)
	return render(c, statusOf[code], views.SignUp(props))
}

func (s *Server) signUp(c echo.Context) error {
	f := views.AuthForm{Email: c.FormValue("email"), Name: c.FormValue("name"), Team: c.FormValue("team")}
	u, t, err := s.store.accounts.SignUpFirst(c.Request().Context(), f.Email, f.Name, c.FormValue("password"), f.Team)
	if err != nil {
		return s.signUpFailed(c, views.SignUpProps{Layout: s.layout(c, "Set up siteplan"), Form: f}, err)
	}
	if err := s.startSession(c, u.ID, t.ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/")
}

func (s *Server) invitePage(c echo.Context) error {
	inv, t, err := s.store.shares.Invite(c.Request().Context(), c.Param("token"))
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.SignUp(views.SignUpProps{Layout: s.layout(c, "Join "+t.Name),
		Invite: c.Param("token"), TeamName: t.Name, Role: inv.Role, LoggedIn: viewer(c).UserID != 0}))
}

func (s *Server) acceptInvite(c echo.Context) error {
	ctx := c.Request().Context()
	token := c.Param("token")
	if v := viewer(c); v.UserID != 0 {
		team, err := s.store.shares.AcceptInvite(ctx, token, v.UserID)
		if err != nil {
			return err
		}
		if ck, err := c.Cookie(sessionCookie); err == nil {
			if err := s.store.accounts.SwitchTeam(ctx, ck.Value, team); err != nil {
				return err
			}
		}
		return c.Redirect(http.StatusSeeOther, "/")
	}
	f := views.AuthForm{Email: c.FormValue("email"), Name: c.FormValue("name")}
	u, team, err := s.store.shares.SignUpWithInvite(ctx, token, f.Email, f.Name, c.FormValue("password"))
	if err != nil {
		inv, t, ierr := s.store.shares.Invite(ctx, token)
		if ierr != nil {
			return ierr
		}
		return s.signUpFailed(c, views.SignUpProps{Layout: s.layout(c, "Join "+t.Name), Form: f, Invite: token, TeamName: t.Name, Role: inv.Role}, err)
	}
	if err := s.startSession(c, u.ID, team); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/")
}
