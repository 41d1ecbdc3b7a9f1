// Package web is siteplan's HTTP server: echo v4 routes, middleware and
// handlers that render views and call the store through the Store
// interface declared here.
package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"mime"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"siteplan/diagram"
	"siteplan/fetch"
	"siteplan/site"
	"siteplan/views"
)

// Stores are the parts of the store the server uses, one a concept of
// the store (*store.Store's fields). Each field's interface lists what
// the handlers use of that part and is declared beside them, so that a
// test may fake one part.
type Stores struct {
	Accounts accountStore
	Teams    teamStore
	Sharing  shareStore
	Projects interface {
		projectStore
		starterStore
	}
	Pages   pageStore
	Links   linkStore
	History interface {
		historyStore
		launchStore
	}
	Redirects     redirectStore
	Comments      commentStore
	Notifications interface {
		inboxStore
		mailStore
	}
	Webhooks webhookStore
	Jobs     jobStore
	Live     liveStore
	Limits   limitStore
	Studies  interface {
		studyStore
		researchStore
	}
	Tokens    tokenStore
	Proposals proposalStore
	RateCards rateCardStore
	Themes    interface {
		themeStore
		paletteStore
		templateStore
		lintStore
	}
	// Ping reaches the database (the health check).
	Ping func(ctx context.Context) error
}

// stores are the Stores again, a field for each group of handlers, so
// that a call names the part it needs: s.store.pages.MovePage.
type stores struct {
	accounts  accountStore
	teams     teamStore
	shares    shareStore
	comments  commentStore
	projects  projectStore
	pages     pageStore
	links     linkStore
	history   historyStore
	themes    themeStore
	palettes  paletteStore
	redirects redirectStore
	launch    launchStore
	lint      lintStore
	templates templateStore
	starters  starterStore
	webhooks  webhookStore
	inbox     inboxStore
	mail      mailStore
	limits    limitStore
	jobs      jobStore
	studies   studyStore
	research  researchStore
	tokens    tokenStore
	proposals proposalStore
	ratecards rateCardStore
}

func storesOf(st Stores) stores {
	return stores{accounts: st.Accounts, teams: st.Teams, shares: st.Sharing, comments: st.Comments, projects: st.Projects, pages: st.Pages,
		links: st.Links, history: st.History, themes: st.Themes, palettes: st.Themes, redirects: st.Redirects,
		launch: st.History, lint: st.Themes, templates: st.Themes, starters: st.Projects, webhooks: st.Webhooks, inbox: st.Notifications,
		mail: st.Notifications, limits: st.Limits, jobs: st.Jobs, studies: st.Studies, research: st.Studies, tokens: st.Tokens, proposals: st.Proposals, ratecards: st.RateCards}
}

// MaxBody bounds a form; an import may send a whole document
// (site.MaxDocumentBytes).
const MaxBody = "1M"

// Server serves the editor.
type Server struct {
	Echo     *echo.Echo
	store    stores
	log      *slog.Logger
	static   fs.FS
	diagrams *renderCache
	outlines *renderCache // rendered outlines, by outlineKey
	gate     *gate        // heavy work: renders and large reads
	draw     func(context.Context, io.Writer, *site.Tree, []site.Link, diagram.Options) (diagram.Result, error)
	hub      *hub
	live     liveStore  // carries the hub's events to the other servers (Start)
	trees    studyTrees // the tree of each tree test a participant took lately
	relay    *relay     // nil on SQLite, or until Start
	logins   *loginLimiter
	fetch    *fetch.Client               // reads an old site for its plan's redirect map
	lines    *fetch.Client               // reads a file of a report again for the lines around a problem
	mailing  bool                        // the notifications are e-mailed too (serve --smtp)
	linesIn  *gate                       // a place for each such reading
	ping     func(context.Context) error // reaches the database (health)
	sessions *sessionChecks              // the live streams' sessions, looked up together
	watchers watchers                    // the streams of live-site jobs
	now      func() time.Time
	mcp      http.Handler // the MCP server's streamable HTTP transport (mcp.go)
}

// health answers a load balancer's health check: 200 when this server
// reaches its database within healthBudget, else 503, so that traffic
// goes to the servers that can answer it.
func (s *Server) health(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), healthBudget)
	defer cancel()
	if err := s.ping(ctx); err != nil {
		s.log.Warn("health check: the database is unreachable", "err", err)
		c.Response().Header().Set("Retry-After", "5")
		return c.String(http.StatusServiceUnavailable, "the database is unreachable")
	}
	return c.String(http.StatusOK, "ok")
}

// healthBudget bounds a health check's look at the database.
const healthBudget = 2 * time.Second

// databaseDown reports whether the database does not answer within
// healthBudget: asked when a request failed for a reason of its own
// (an internal error), to tell a lost database (503) from a bug (500).
func (s *Server) databaseDown() bool {
	if s.ping == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), healthBudget)
	defer cancel()
	return s.ping(ctx) != nil
}

// OutlineCacheBytes is the memory kept for rendered outlines: an edit
// makes every other editor of the plan reload theirs, most of them the
// same outline (a 2,000-page plan's two levels are some 60 KB).
const OutlineCacheBytes = 16 << 20

// DiagramCacheBytes is the memory kept for rendered diagrams.
const DiagramCacheBytes = 64 << 20

// fetchers returns the clients that read the web for visitors (the
// live-site jobs have their own): one for the sitemaps an uploaded old
// site's index names, read at the heavy-work gate; and one for reading
// a file again for the lines around a problem, with a short time limit,
// so that it is neither heavy work nor a wait on the jobs.
func fetchers(allowPrivate bool) (uploads, lines *fetch.Client) {
	uploads = fetch.New(fetch.Options{AllowPrivate: allowPrivate, Allow: serveAllowFlag, Parallel: 4})
	lines = fetch.New(fetch.Options{AllowPrivate: allowPrivate, Allow: serveAllowFlag, Parallel: linesReaders, Timeout: linesBudget})
	return uploads, lines
}

// serveAllowFlag is how an operator lets the server read private
// addresses, as a refusal tells visitors.
const serveAllowFlag = "siteplan serve --allow-private-fetch"

// Config says how the server serves.
type Config struct {
	// AllowPrivateFetch lets visitors read sites on loopback, private
	// and link-local addresses (serve --allow-private-fetch).
	AllowPrivateFetch bool
	// TrustedProxies are the load balancers whose forwarded headers are
	// believed (serve --trusted-proxies).
	TrustedProxies []*net.IPNet
	// Mailing says the notifications are e-mailed too (serve --smtp),
	// which the inbox's settings offer.
	Mailing bool
}

// New builds the server with its middleware and routes. static holds the
// embedded assets. It starts nothing: Start links its live hub to the
// other servers (PostgreSQL), and the background jobs (package jobs) run
// beside it.
func New(st Stores, static fs.FS, log *slog.Logger, cfg Config) *Server {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	s := &Server{Echo: e, store: storesOf(st), log: log, static: static, diagrams: newRenderCache(DiagramCacheBytes), outlines: newRenderCache(OutlineCacheBytes), draw: diagram.Render,
		gate: newGate(1, 2),
		hub:  newHub(), logins: &loginLimiter{st: st.Limits, now: time.Now}, now: time.Now,
		linesIn: newGate(linesReaders, 1)}
	s.fetch, s.lines = fetchers(cfg.AllowPrivateFetch)
	s.mcp = s.mcpHandler()
	s.mailing = cfg.Mailing
	if st.Ping != nil { // a server built only for its route table has no store
		s.ping = st.Ping
		s.sessions = newSessionChecks(st.Accounts.LiveSessions)
		s.live = st.Live
	}
	e.HTTPErrorHandler = s.handleError
	// The address and scheme are the connection's until the operator names
	// the proxies to believe (proxies.go), so the login limiter cannot be
	// dodged by a made-up header.
	s.trustProxies(cfg.TrustedProxies)
	e.Use(middleware.Recover())
	e.Use(middleware.SecureWithConfig(middleware.SecureConfig{
		XSSProtection:         "0",
		ContentTypeNosniff:    "nosniff",
		XFrameOptions:         "DENY",
		ReferrerPolicy:        "same-origin",
		ContentSecurityPolicy: "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
	}))
	// A form is small; an import sends a whole document, and may take its
	// time sending it.
	isImport := func(c echo.Context) bool {
		switch c.Path() {
		case "/projects/import", "/sites/import", "/projects/:id/redirects/attach", "/projects/:id/redirects/traffic", "/api/v1/projects",
			"/api/v1/projects/:id/redirects/attach", "/api/v1/projects/:id/redirects/traffic", "/projects/:id/proposals",
			"/api/v1/projects/:id/plan", "/api/v1/projects/:id/proposals", "/api/v1/projects/:id/redirects/import":
			return true
		}
		return false
	}
	e.Use(middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: MaxBody, Skipper: isImport}))
	e.Use(middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{
		Limit:   strconv.Itoa(site.MaxDocumentBytes>>20) + "M",
		Skipper: func(c echo.Context) bool { return !isImport(c) },
	}))
	e.Use(readLonger(isImport, importReadTimeout), noStore, readForm, secureCookies)
	e.Use(middleware.CSRFWithConfig(middleware.CSRFConfig{
		TokenLookup:    "header:X-CSRF-Token,form:_csrf",
		CookieName:     "_csrf",
		CookiePath:     "/",
		CookieHTTPOnly: true,
		CookieSameSite: http.SameSiteStrictMode,
		// An unsubscribe link's POST may come from a mail client in one
		// click (RFC 8058): its signed token is its proof, not a form's.
		// An API request with a token is proven by the token, and one
		// without a session cookie acts as nobody a forged form could
		// borrow (it is then refused as unauthorized, not forbidden).
		Skipper: func(c echo.Context) bool {
			_, noSession := c.Cookie(sessionCookie)
			return strings.HasPrefix(c.Request().URL.Path, "/static/") || c.Request().URL.Path == "/unsubscribe" || isAPI(c) && (bearer(c) != "" || noSession != nil)
		},
		ErrorHandler: func(error, echo.Context) error {
			return site.Errorf(site.EForbidden, "The form's security token is missing or stale: reload the page and try again.")
		},
	}))
	e.Use(s.identify)
	e.StaticFS("/static", static)
	s.routes()
	return s
}

// route is one route with who may use it and, for a download, which
// (site.ShareDownloads): a guest gets it only where the link allows it.
type route struct {
	method, path string
	handler      echo.HandlerFunc
	need         need
	download     func(echo.Context) string
}

// routeTable lists every route; routes registers each behind the guard
// its need asks for, and the access test walks it with every actor.
func (s *Server) routeTable() []route {
	return slices.Concat(s.accountRoutes(), s.projectRoutes(), s.versionRoutes(), s.studyRoutes(), s.apiRoutes())
}

// apiRoutes are the API's (api.go, api_pages.go, api_launch.go): its
// contract, then the routes it describes. A token authenticates them
// (routes puts withToken before the guard).
func (s *Server) apiRoutes() []route {
	const get, post, put, patch, del = http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete
	return []route{
		{get, "/api/v1/openapi.json", s.openAPI, public, nil},
		{get, "/api/v1/projects", s.apiProjects, account, nil},
		{post, "/api/v1/projects", s.apiImport, teamEdit, nil},
		{get, "/api/v1/projects/:id", s.apiProject, projectRead, nil},
		{patch, "/api/v1/projects/:id", s.apiProjectSettings, projectEdit, nil},
		{get, "/api/v1/webhooks", s.apiWebhooks, teamOwner, nil},
		{post, "/api/v1/webhooks", s.apiAddWebhook, teamOwner, nil},
		{del, "/api/v1/webhooks/:wid", s.apiDeleteWebhook, teamOwner, nil},
		{get, "/api/v1/projects/:id/plan", s.apiPlan, projectRead, nil},
		{put, "/api/v1/projects/:id/plan", s.apiReplacePlan, projectEdit, nil},
		{get, "/api/v1/projects/:id/estimate", s.heavy(s.apiEstimate), projectTeam, nil},
		{get, "/api/v1/projects/:id/ratecard", s.apiRateCard, projectTeam, nil},
		{put, "/api/v1/projects/:id/ratecard", s.apiSetRateCard, projectManage, nil},
		{del, "/api/v1/projects/:id/ratecard", s.apiClearRateCard, projectManage, nil},
		{get, "/api/v1/ratecard", s.apiRateCard, teamOwner, nil},
		{put, "/api/v1/ratecard", s.apiSetRateCard, teamOwner, nil},
		{get, "/api/v1/projects/:id/proposals", s.apiProposals, projectTeam, nil},
		{post, "/api/v1/projects/:id/proposals", s.apiPropose, projectResolve, nil},
		{get, "/api/v1/projects/:id/proposals/:n", s.apiProposal, projectTeam, nil},
		{post, "/api/v1/projects/:id/proposals/:n/accept", s.apiAcceptProposal, projectEdit, nil},
		{post, "/api/v1/projects/:id/proposals/:n/reject", s.apiRejectProposal, projectEdit, nil},
		{post, "/api/v1/projects/:id/proposals/:n/comments", s.apiCommentOnProposal, projectResolve, nil},
		{get, "/api/v1/projects/:id/versions", s.apiVersions, projectRead, nil},
		{post, "/api/v1/projects/:id/versions", s.apiCreateVersion, projectEdit, nil},
		{post, "/api/v1/projects/:id/versions/:n/restore", s.apiRestore, projectEdit, nil},
		{get, "/api/v1/projects/:id/diff", s.apiDiff, projectRead, nil}, // the comparison takes its own turn
		{get, "/api/v1/projects/:id/exports/:file", s.heavy(s.exportFile), projectRead, nil},
		{get, "/api/v1/projects/:id/export.zip", s.heavy(s.exportZip), projectRead, nil},
		{get, "/api/v1/projects/:id/redirects/export", s.heavy(s.exportRedirects), projectRead, nil},
		{get, "/api/v1/projects/:id/redirects/status", s.apiRedirectStatus, projectRead, nil},
		{get, "/api/v1/projects/:id/redirects", s.heavy(s.apiRedirects), projectRead, nil},
		{post, "/api/v1/projects/:id/redirects/attach", s.apiAttachOldSite, projectEdit, nil},
		{get, "/api/v1/projects/:id/jobs/:jid", s.apiJobState, projectRead, nil},
		{post, "/api/v1/projects/:id/redirects/traffic", s.apiTraffic, projectEdit, nil},
		{get, "/api/v1/projects/:id/handoff/:format", s.heavy(s.handoff), projectRead, nil},
		{post, "/api/v1/projects/:id/launch-checks", s.apiStartLaunchCheck, projectEdit, nil},
		{get, "/api/v1/projects/:id/pages", s.apiPages, projectRead, nil},
		{post, "/api/v1/projects/:id/pages", s.apiPageCreate, projectEdit, nil},
		{get, "/api/v1/projects/:id/pages/:pid", s.apiPageGet, projectRead, nil},
		{patch, "/api/v1/projects/:id/pages/:pid", s.apiPageUpdate, projectEdit, nil},
		{del, "/api/v1/projects/:id/pages/:pid", s.apiPageDelete, projectEdit, nil},
		{post, "/api/v1/projects/:id/pages/:pid/comments", s.apiAddComment, projectComment, nil},
		{get, "/api/v1/projects/:id/links", s.apiLinks, projectRead, nil},
		{post, "/api/v1/projects/:id/links", s.apiAddLink, projectEdit, nil},
		{del, "/api/v1/projects/:id/links/:lid", s.apiDeleteLink, projectEdit, nil},
		{get, "/api/v1/projects/:id/comments", s.apiComments, projectRead, nil},
		{get, "/api/v1/projects/:id/share-links", s.apiShareLinks, projectManage, nil},
		{post, "/api/v1/projects/:id/share-links", s.apiCreateShareLink, projectManage, nil},
		{del, "/api/v1/projects/:id/share-links/:sid", s.apiRevokeShareLink, projectManage, nil},
		{get, "/api/v1/projects/:id/treetests", s.apiStudies, projectTeam, nil},
		{post, "/api/v1/projects/:id/treetests", s.apiCreateStudy, projectEdit, nil},
		{get, "/api/v1/projects/:id/treetests/:sid/results", s.heavy(s.apiStudyResults), projectTeam, nil},
		{get, "/api/v1/projects/:id/treetests/:sid/files/:file", s.heavy(s.studyFile), projectTeam, nil},
		{post, "/api/v1/projects/:id/treetests/:sid/correct", s.apiStudyCorrect, projectEdit, nil},
		{get, "/api/v1/projects/:id/diagram/:format", s.downloadDiagram, projectRead, nil},
		{get, "/api/v1/projects/:id/lint", s.heavy(s.apiLint), projectTeam, nil},
		{post, "/api/v1/projects/:id/redirects/import", s.apiRedirectsImport, projectEdit, nil},
		{post, "/api/v1/checks", s.apiCheck, account, nil},
		{get, "/api/v1/checks/:jid", s.apiCheckState, account, nil},
		{get, "/api/v1/projects/:id/launch-checks/:jid", s.apiLaunchState, projectRead, nil},
		{get, "/api/v1/projects/:id/launch-checks/:jid/report", s.apiLaunchReport, projectRead, nil},
		// The MCP server (mcp.go), with the API's tokens.
		{post, "/mcp", s.serveMCP, account, nil},
		{get, "/mcp", s.serveMCP, account, nil}, // stateless: the transport answers 405, which clients read as "no stream"
		{del, "/mcp", s.serveMCP, account, nil},
	}
}

// versionRoutes are a project's versions, comparisons, pitch mode,
// estimates and proposals (versions.go, pitch.go, estimates.go,
// proposals.go).
func (s *Server) versionRoutes() []route {
	const get, post = http.MethodGet, http.MethodPost
	return []route{
		{get, "/projects/:id/versions", s.versions, projectRead, nil},
		{get, "/projects/:id/versions/:n", s.version, projectRead, nil},
		{get, "/projects/:id/versions/:n/diagram/:format", s.versionDiagram, projectRead, byFormat},
		{get, "/projects/:id/versions/:n/pitch", s.pitch, projectRead, nil},
		{get, "/projects/:id/versions/:n/pitch/notes", s.pitchNotes, projectTeam, nil},
		{get, "/projects/:id/compare", s.compare, projectRead, nil},
		{get, "/projects/:id/compare/diagram/:format", s.compareDiagram, projectRead, byFormat},
		{get, "/projects/:id/estimate/:type", s.heavy(s.estimateFile), projectTeam, nil},
		{post, "/projects/:id/ratecard", s.setRateCard, projectManage, nil},
		{post, "/projects/:id/ratecard/clear", s.clearRateCard, projectManage, nil},
		{get, "/projects/:id/proposals", s.proposalsPage, projectTeam, nil},
		{get, "/projects/:id/proposals/:n", s.proposal, projectTeam, nil},
		{get, "/projects/:id/proposals/:n/diagram/:format", s.proposalDiagram, projectTeam, byFormat},
		{post, "/projects/:id/proposals", s.proposeFile, projectEdit, nil},
		{post, "/projects/:id/proposals/:n/accept", s.acceptProposal, projectEdit, nil},
		{post, "/projects/:id/proposals/:n/reject", s.rejectProposal, projectEdit, nil},
		{post, "/projects/:id/proposals/:n/comments", s.commentOnProposal, projectResolve, nil},
	}
}

// studyRoutes are a project's tree tests in the editor (studies.go):
// the team's research, which no share link reaches.
func (s *Server) studyRoutes() []route {
	const get, post = http.MethodGet, http.MethodPost
	return []route{
		{get, "/projects/:id/treetests", s.studiesPage, projectTeam, nil},
		{get, "/projects/:id/treetests/compare", s.heavy(s.studyCompare), projectTeam, nil},
		{get, "/projects/:id/treetests/:sid", s.heavy(s.studyResults), projectTeam, nil},
		{get, "/projects/:id/treetests/:sid/diagram/:format", s.studyDiagram, projectTeam, nil},
		{get, "/projects/:id/treetests/:sid/:file", s.heavy(s.studyFile), projectTeam, nil},
		{get, "/projects/:id/treetests/new", s.newStudyPage, projectEdit, nil},
		{post, "/projects/:id/treetests", s.createStudy, projectEdit, nil},
		{post, "/projects/:id/treetests/:sid/correct", s.setStudyCorrect, projectEdit, nil},
		{post, "/projects/:id/treetests/:sid/speeders", s.setStudySpeeder, projectEdit, nil},
		{post, "/projects/:id/treetests/:sid/revoke", s.revokeStudy, projectEdit, nil},
		{post, "/projects/:id/treetests/:sid/link", s.newStudyLink, projectEdit, nil},
	}
}

// accountRoutes are the routes outside any one project: signing in, the
// projects list, reading live sites, the inbox and the team.
func (s *Server) accountRoutes() []route {
	const get, post, put, del = http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete
	return []route{
		{get, "/healthz", s.health, public, nil},
		{get, "/favicon.ico", s.favicon, public, nil},
		{get, "/login", s.loginPage, public, nil},
		{post, "/login", s.login, public, nil},
		{get, "/signup", s.signUpPage, public, nil},
		{post, "/signup", s.signUp, public, nil},
		{get, "/invite/:token", s.invitePage, public, nil},
		{post, "/invite/:token", s.acceptInvite, public, nil},
		{get, "/s/:token", s.openShareLink, public, nil},
		// A tree test's participant page (treetests.go).
		{get, "/t/:token", s.studyPage, public, nil},
		{post, "/t/:token/start", s.startStudy, public, nil},
		{post, "/t/:token/step", s.studyStep, public, nil},
		{post, "/logout", s.logout, account, nil},

		{get, "/", s.listProjects, account, nil},
		{post, "/projects", s.createProject, teamEdit, nil},
		{post, "/projects/import", s.importProject, teamEdit, nil},
		{get, "/sites", s.sitesPage, account, nil},
		{post, "/sites/check", s.checkSite, account, nil},
		{post, "/sites/import", s.importSite, teamEdit, nil},
		{get, "/sites/jobs/:jid", s.siteJobPage, account, nil},
		{get, "/sites/jobs/:jid/events", s.siteJobEvents, account, nil},
		{post, "/sites/jobs/:jid/cancel", s.cancelSiteJob, account, nil},
		{get, "/sites/jobs/:jid/files/:n", s.siteFileLines, account, nil},
		{get, "/team", s.teamPage, account, nil},
		{get, "/account", s.accountPage, account, nil},
		{post, "/account/tokens", s.createToken(false), account, nil},
		{del, "/account/tokens/:tid", s.revokeToken(false), account, nil},
		{post, "/team/tokens", s.createToken(true), teamOwner, nil},
		{del, "/team/tokens/:tid", s.revokeToken(true), teamOwner, nil},
		{get, "/inbox", s.inbox, account, nil},
		{get, "/inbox/:nid", s.openNotification, account, nil},
		{post, "/inbox/read", s.readAll, account, nil},
		{post, "/inbox/mail", s.setMailMode, account, nil},
		{get, "/unsubscribe", s.unsubscribePage, public, nil},
		{post, "/unsubscribe", s.unsubscribe, public, nil},
		{post, "/team/leave", s.leaveTeam, account, nil},
		{post, "/team/type-colors", s.saveTypeColors, teamEdit, nil},
		{post, "/team/type-templates", s.saveTypeTemplate, teamEdit, nil},
		{post, "/team/theme", s.heavy(s.saveTeamTheme), teamEdit, nil},
		{get, "/team/logo.png", s.teamLogo, account, nil},
		{del, "/team/starters/:sid", s.deleteStarter, teamEdit, nil},
		{post, "/team/ratecard", s.setRateCard, teamOwner, nil},
		{post, "/team/webhooks", s.addWebhook, teamOwner, nil},
		{del, "/team/webhooks/:wid", s.deleteWebhook, teamOwner, nil},
		{post, "/team/invites", s.createInvite, teamOwner, nil},
		{del, "/team/invites/:iid", s.deleteInvite, teamOwner, nil},
		{put, "/team/members/:uid", s.setRole, teamOwner, nil},
		{del, "/team/members/:uid", s.removeMember, teamOwner, nil},
		{post, "/teams", s.createTeam, account, nil},
		{post, "/teams/:tid/switch", s.switchTeam, account, nil},
	}
}

// projectRoutes are the routes of one project: what any viewer of it
// reads, then what commenting, editing and managing it take.
func (s *Server) projectRoutes() []route {
	const get, post, put, patch, del = http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete
	return []route{
		{get, "/projects/:id", s.editor, projectRead, nil},
		{get, "/projects/:id/events", s.events, projectRead, nil},
		{get, "/projects/:id/document.json", s.heavy(s.downloadDocument), projectRead, fixed(site.DownloadDocument)},
		{get, "/projects/:id/summary", s.summary, projectRead, nil},
		{get, "/projects/:id/types", s.pageTypes, projectEdit, nil},
		{get, "/projects/:id/search", s.heavy(s.search), projectRead, nil},
		{get, "/projects/:id/outline", s.outline, projectRead, nil},
		{get, "/projects/:id/outline/more", s.moreRows, projectRead, nil},
		{get, "/projects/:id/comments", s.openComments, projectRead, nil},
		{get, "/projects/:id/pages/:pid", s.pageDetails, projectRead, nil},
		{get, "/projects/:id/pages/:pid/children", s.children, projectRead, nil},
		{get, "/projects/:id/pages/:pid/comments", s.pageComments, projectRead, nil},
		{get, "/projects/:id/diagram", s.diagram, projectRead, nil},
		{get, "/projects/:id/diagram/scene", s.diagramScene, projectRead, nil},
		{get, "/projects/:id/diagram/:format", s.downloadDiagram, projectRead, byFormat},
		{get, "/projects/:id/export", s.heavy(s.exportPage), projectRead, fixed(site.DownloadSitemaps)},
		{get, "/projects/:id/export.zip", s.heavy(s.exportZip), projectRead, fixed(site.DownloadZip)},
		{get, "/projects/:id/handoff/:format", s.heavy(s.handoff), projectRead, fixed(site.DownloadHandoff)},
		{get, "/projects/:id/sitemap.html", s.heavy(s.footerPreview), projectRead, fixed(site.DownloadSitemaps)},
		{get, "/projects/:id/:file", s.heavy(s.exportFile), projectRead, byFile}, // sitemap.xml, sitemap-N.xml[.gz], sitemap.txt, robots.txt, footer.html

		{get, "/projects/:id/redirects", s.redirects, projectRead, fixed(site.DownloadRedirects)},
		{get, "/projects/:id/redirects/export", s.heavy(s.exportRedirects), projectRead, fixed(site.DownloadRedirects)},
		{get, "/projects/:id/redirects/picker", s.redirectPicker, projectEdit, nil},
		{post, "/projects/:id/redirects/decide", s.decide, projectEdit, nil},
		{post, "/projects/:id/redirects/attach", s.attachOldSite, projectEdit, nil},
		{post, "/projects/:id/redirects/traffic", s.attachTraffic, projectEdit, nil},

		{get, "/projects/:id/history", s.history, projectTeam, nil},
		{get, "/projects/:id/lint", s.heavy(s.lintPage), projectTeam, nil},
		{get, "/projects/:id/locales", s.heavy(s.coverage), projectTeam, nil},
		{post, "/projects/:id/watch", s.watch, projectTeam, nil},
		{get, "/projects/:id/launch", s.launchPage, projectRead, nil},
		{post, "/projects/:id/launch", s.startLaunchCheck, projectEdit, nil},
		{get, "/projects/:id/launch/diagram/:format", s.launchDiagram, projectRead, byFormat},
		{get, "/projects/:id/launch/report.json", s.launchJSON, projectRead, nil},

		{post, "/projects/:id/pages/:pid/comments", s.addComment, projectComment, nil},
		{post, "/projects/:id/versions/:n/approve", s.approve, projectComment, nil},
		{post, "/projects/:id/comments/:cid/resolve", s.resolveComment, projectResolve, nil},
		{post, "/projects/:id/comments/:cid/reopen", s.reopenComment, projectResolve, nil},

		{patch, "/projects/:id", s.renameProject, projectEdit, nil},
		{get, "/projects/:id/rename", s.renameProjectForm, projectEdit, nil},
		{get, "/projects/:id/settings", s.settings, projectEdit, nil},
		{post, "/projects/:id/starter", s.saveStarter, projectEdit, nil},
		{put, "/projects/:id/settings", s.saveSettings, projectEdit, nil},
		{post, "/projects/:id/theme", s.heavy(s.saveTheme), projectEdit, nil},
		{get, "/projects/:id/logo.png", s.logo, projectRead, nil},
		{get, "/projects/:id/brand.png", s.brandLogo, projectRead, nil},
		{get, "/projects/:id/brand.css", s.brandCSS, projectRead, nil},
		{get, "/projects/:id/paste", s.pasteForm, projectEdit, nil},
		{post, "/projects/:id/paste", s.paste, projectEdit, nil},
		{post, "/projects/:id/pages", s.createPage, projectEdit, nil},
		{post, "/projects/:id/undo", s.undo, projectEdit, nil},
		{post, "/projects/:id/redo", s.redo, projectEdit, nil},
		{post, "/projects/:id/history/:cid/restore", s.restoreDeleted, projectEdit, nil},
		{post, "/projects/:id/versions", s.createVersion, projectEdit, nil},
		{post, "/projects/:id/versions/:n/restore", s.restoreVersion, projectEdit, nil},
		{post, "/projects/:id/versions/:n/approvals/:aid/void", s.voidApproval, projectEdit, nil},
		{put, "/projects/:id/pages/:pid", s.savePage, projectEdit, nil},
		{del, "/projects/:id/pages/:pid", s.deletePage, projectEdit, nil},
		{get, "/projects/:id/pages/:pid/delete", s.confirmDeletePage, projectEdit, nil},
		{patch, "/projects/:id/pages/:pid/title", s.rename, projectEdit, nil},
		{post, "/projects/:id/pages/:pid/keep-url", s.keepURL, projectEdit, nil},
		{post, "/projects/:id/pages/:pid/move", s.movePage, projectEdit, nil},
		{post, "/projects/:id/pages/:pid/duplicate", s.duplicatePage, projectEdit, nil},
		{get, "/projects/:id/pages/:pid/paste", s.pasteForm, projectEdit, nil},
		{get, "/projects/:id/pages/:pid/links/picker", s.linkPicker, projectEdit, nil},
		{post, "/projects/:id/pages/:pid/links", s.addLink, projectEdit, nil},
		{put, "/projects/:id/pages/:pid/variants/:tag", s.saveVariant, projectEdit, nil},
		{patch, "/projects/:id/pages/:pid/variants/:tag/title", s.renameVariant, projectEdit, nil},
		{post, "/projects/:id/locales/branch", s.setBranchState, projectEdit, nil},
		{del, "/projects/:id/links/:lid", s.deleteLink, projectEdit, nil},

		{get, "/projects/:id/delete", s.confirmDeleteProject, projectManage, nil},
		{del, "/projects/:id", s.deleteProject, projectManage, nil},
		{get, "/projects/:id/sharing", s.sharing, projectManage, nil},
		{post, "/projects/:id/sharing", s.createShareLink, projectManage, nil},
		{del, "/projects/:id/sharing/:sid", s.revokeShareLink, projectManage, nil},
	}
}

func (s *Server) routes() {
	for _, r := range s.routeTable() {
		mw := s.guard(r.need)
		if strings.HasPrefix(r.path, apiPrefix) || r.path == "/mcp" { // a script's or agent's token, before the guard
			mw = append([]echo.MiddlewareFunc{s.withToken}, mw...)
			if r.method == http.MethodPost {
				mw = append(mw, s.idempotent)
			}
		}
		if r.download != nil {
			mw = append(mw, mayDownload(r.download))
		}
		s.Echo.Add(r.method, r.path, r.handler, mw...)
	}
}

// mayDownload lets a guest have a download only where the link allows it
// (site.Viewer.MayDownload); to anyone else the download does not exist.
// Errors: ENotFound.
func mayDownload(which func(echo.Context) string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if d := which(c); !viewer(c).MayDownload(d) {
				return site.Errorf(site.ENotFound, "This share link does not include this download: ask the agency for it.")
			}
			return next(c)
		}
	}
}

// fixed names the download of a route.
func fixed(d string) func(echo.Context) string { return func(echo.Context) string { return d } }

// byFormat names a diagram download by its :format (dot and GraphML are
// never a guest's).
func byFormat(c echo.Context) string { return c.Param("format") }

// byFile names an export file's download: inventory.csv is the
// inventory, the rest are the sitemap files.
func byFile(c echo.Context) string {
	if c.Param("file") == "inventory.csv" {
		return site.DownloadInventory
	}
	return site.DownloadSitemaps
}

// statusOf is the one table from error codes to HTTP status.
var statusOf = map[string]int{
	site.EInvalid:      http.StatusUnprocessableEntity,
	site.ENotFound:     http.StatusNotFound,
	site.EConflict:     http.StatusConflict,
	site.EStale:        http.StatusPreconditionFailed,
	site.EForbidden:    http.StatusForbidden,
	site.EUnauthorized: http.StatusUnauthorized,
	site.ETooLarge:     http.StatusRequestEntityTooLarge,
	site.ETooMany:      http.StatusTooManyRequests,
	site.EUnavailable:  http.StatusServiceUnavailable,
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
// request wants: an htmx fragment, JSON for .json routes and for requests
// that accept JSON first (the editor's downloads), or a page.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		msg := http.StatusText(he.Code) + "."
		if he.Code == http.StatusRequestEntityTooLarge {
			msg = fmt.Sprintf("The request is too large (forms up to %s, imports up to %d MB).", MaxBody+"B", site.MaxDocumentBytes>>20)
		}
		code, ok := codeOf[he.Code]
		if !ok {
			code = site.EInternal
		}
		err = &site.Error{Code: code, Message: msg}
	}
	if site.ErrorCode(err) == site.EInternal && errors.Is(err, context.DeadlineExceeded) {
		// Heavy work that got its turn just before its deadline: the
		// server was busy, nothing broke.
		err = site.Errorf(site.EUnavailable, "The server is busy and this took too long: try again in a few seconds.")
	}
	if site.ErrorCode(err) == site.EInternal && s.databaseDown() {
		// Not this request's fault, nor for long: a balancer that sees
		// 503 sends the traffic to a server that can answer it.
		err = site.Errorf(site.EUnavailable, "The database does not answer: try again in a moment.")
	}
	code := site.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
		s.log.Error("request failed", "method", c.Request().Method, "route", c.Path(), "err", err) // the route, not the path: a path may hold a link's token
	}
	msg := site.ErrorMessage(err)
	if fields := site.ErrorFields(err); len(fields) > 0 {
		// No form shows these fields beside this answer: it says them.
		msg = strings.Join(slices.Sorted(maps.Values(fields)), " ")
	}
	if (code == site.ETooMany || code == site.EUnavailable) && c.Response().Header().Get("Retry-After") == "" {
		c.Response().Header().Set("Retry-After", "5")
	}
	switch {
	case isAPI(c):
		writeProblem(c, status, code, site.ErrorMessage(err), site.ErrorFields(err))
	case wantsJSON(c):
		_ = c.JSON(status, map[string]any{"error": map[string]string{"code": code, "message": msg}})
	case isHTMX(c):
		c.Response().Header().Set("HX-Retarget", "#flash")
		c.Response().Header().Set("HX-Reswap", "innerHTML")
		_ = render(c, status, views.ErrorFragment(msg))
	default:
		_ = render(c, status, views.ErrorPage(s.layout(c, "Error"), status, msg))
	}
}

// wantsJSON reports whether a request wants its answer, errors included,
// as JSON: a .json route, or a fetch that asks for it.
func wantsJSON(c echo.Context) bool {
	return strings.HasSuffix(c.Request().URL.Path, ".json") || strings.HasPrefix(c.Request().Header.Get("Accept"), "application/json")
}

// attach names the file a response downloads as after the project:
// "acme-relaunch" + suffix.
func attach(c echo.Context, p site.Project, suffix string) {
	name := site.Slugify(p.Name)
	if name == "" {
		name = "project"
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": name + suffix}))
}

// favicon answers the browsers that ask for /favicon.ico whatever the
// page links to.
func (s *Server) favicon(c echo.Context) error {
	b, err := fs.ReadFile(s.static, "favicon.svg")
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=86400")
	return c.Blob(http.StatusOK, "image/svg+xml", b)
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

// noStore keeps every answer but the static files out of shared and
// browser caches: pages and downloads hold a team's plans.
func noStore(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !strings.HasPrefix(c.Request().URL.Path, "/static/") {
			c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
		}
		return next(c)
	}
}

// secureCookies marks every cookie of an answer over HTTPS Secure,
// the CSRF middleware's too (its configuration has one setting for all
// requests): behind a TLS proxy the scheme is the one the trusted proxy
// says (Config.TrustedProxies).
func secureCookies(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Scheme() == "https" {
			c.Response().Before(func() {
				h := c.Response().Header()
				cookies := h.Values("Set-Cookie")
				for i, v := range cookies {
					if !strings.Contains(strings.ToLower(v), "; secure") {
						cookies[i] = v + "; Secure"
					}
				}
			})
		}
		return next(c)
	}
}

// readForm reads a form body before the handler does, so that a body
// over the limit answers 413 (and a broken one 422) instead of reaching
// the handler as a form whose every field reads as empty: the body limit
// can only cut a body sent in chunks, without a length, as it is read.
func readForm(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Body == nil || r.Body == http.NoBody {
			return next(c)
		}
		var err error
		switch ct := r.Header.Get(echo.HeaderContentType); {
		case strings.HasPrefix(ct, echo.MIMEApplicationForm):
			err = r.ParseForm()
		case strings.HasPrefix(ct, echo.MIMEMultipartForm):
			err = r.ParseMultipartForm(32 << 20) // echo's own memory bound; the rest goes to temporary files
		}
		var tooLarge *http.MaxBytesError
		switch {
		case errors.Is(err, echo.ErrStatusRequestEntityTooLarge) || errors.As(err, &tooLarge):
			return echo.ErrStatusRequestEntityTooLarge
		case err != nil:
			return site.Errorf(site.EInvalid, "The form could not be read: send it again.")
		}
		return next(c)
	}
}

// Timeouts of the HTTP server: a request's headers must arrive within
// readHeaderTimeout and the whole request within readTimeout (an import
// handler allows itself longer), so that a body trickled a byte at a time
// cannot hold a connection forever; an idle keep-alive connection closes
// after idleTimeout. Responses have no write timeout: live updates stream.
const (
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = 2 * time.Minute
)

// readTimeout bounds the reading of one request, body included;
// importReadTimeout that of an import.
var readTimeout = time.Minute

const importReadTimeout = 10 * time.Minute

// readLonger gives the requests that match the longer read deadline d.
func readLonger(match func(echo.Context) bool, d time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if match(c) {
				// Not every writer can (a test recorder cannot): then
				// there is no deadline to move.
				_ = http.NewResponseController(c.Response()).SetReadDeadline(time.Now().Add(d))
			}
			return next(c)
		}
	}
}

// HTTPServer returns the server to listen with, its timeouts set.
func (s *Server) HTTPServer(addr string) *http.Server {
	hs := &http.Server{Addr: addr, Handler: s.Echo, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout, IdleTimeout: idleTimeout}
	hs.RegisterOnShutdown(s.Close) // end live-update streams
	return hs
}

// rerender answers a request that err refused (invalid input, a stale
// version) by showing the form again with its message: comps, with the
// status the error table gives err.
func rerender(c echo.Context, err error, comps ...templ.Component) error {
	return render(c, statusOf[site.ErrorCode(err)], comps...)
}

func (s *Server) layout(c echo.Context, title string) views.LayoutProps {
	return views.LayoutProps{Title: title, CSRF: formToken(c), Unread: s.unread(c)}
}

// formToken is the request's CSRF token, for a form.
func formToken(c echo.Context) string {
	token, _ := c.Get(middleware.DefaultCSRFConfig.ContextKey).(string)
	return token
}
