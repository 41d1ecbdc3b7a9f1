package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/sitemap"
	"siteplan/treetest"
)

// A plan's cross-links, comments and share links through the API, each
// through the store path the editor's use.

// apiLink is a cross-link between two pages.
type apiLink struct {
	ID    int64  `json:"id"`
	From  int64  `json:"from"`
	To    int64  `json:"to"`
	Label string `json:"label"`
}

// apiLinks lists the plan's cross-links.
func (s *Server) apiLinks(c echo.Context) error {
	ls, err := s.store.links.Links(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	out := make([]apiLink, 0, len(ls))
	for _, l := range ls {
		out = append(out, apiLink{l.ID, l.FromID, l.ToID, l.Label})
	}
	pg, err := paginate(c, out, func(l apiLink) int64 { return l.ID })
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pg)
}

// apiAddLink adds a cross-link {"from", "to", "label"}.
func (s *Server) apiAddLink(c echo.Context) error {
	var in struct {
		From  int64  `json:"from"`
		To    int64  `json:"to"`
		Label string `json:"label"`
	}
	if err := readJSON(c, &in); err != nil {
		return err
	}
	l := site.Link{ProjectID: currentProject(c).ID, FromID: in.From, ToID: in.To, Label: in.Label}
	if err := s.store.links.AddLink(c.Request().Context(), &l); err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, apiLink{l.ID, l.FromID, l.ToID, l.Label})
}

// apiDeleteLink removes a cross-link.
func (s *Server) apiDeleteLink(c echo.Context) error {
	id, err := idParam(c, "lid")
	if err != nil {
		return err
	}
	if err := s.store.links.DeleteLink(c.Request().Context(), currentProject(c).ID, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// apiComment is a comment thread's message.
type apiComment struct {
	ID       int64        `json:"id"`
	PageID   int64        `json:"page_id"`
	Page     string       `json:"page,omitempty"`
	Author   string       `json:"author"`
	Guest    bool         `json:"guest"`
	Body     string       `json:"body"`
	At       string       `json:"created_at"`
	Resolved bool         `json:"resolved"`
	Replies  []apiComment `json:"replies,omitempty"`
}

func apiCommentOf(cm site.Comment) apiComment {
	out := apiComment{ID: cm.ID, PageID: cm.PageID, Page: cm.PageTitle, Author: cm.Author, Guest: cm.Guest(), Body: cm.Body,
		At: cm.CreatedAt.UTC().Format(time.RFC3339), Resolved: !cm.ResolvedAt.IsZero()}
	for _, r := range cm.Replies {
		out.Replies = append(out.Replies, apiCommentOf(r))
	}
	return out
}

// apiComments lists the plan's open comment threads, newest first.
func (s *Server) apiComments(c echo.Context) error {
	cs, err := s.store.comments.OpenComments(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	out := make([]apiComment, 0, len(cs))
	for _, cm := range cs {
		out = append(out, apiCommentOf(cm))
	}
	pg, err := paginate(c, out, func(cm apiComment) int64 { return cm.ID })
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pg)
}

// apiAddComment comments on a page, or replies ({"body", "parent"}),
// under the token's name.
func (s *Server) apiAddComment(c echo.Context) error {
	var in struct {
		Body   string `json:"body"`
		Parent int64  `json:"parent"`
	}
	if err := readJSON(c, &in); err != nil {
		return err
	}
	p, pg, err := s.page(c)
	if err != nil {
		return err
	}
	if err := s.commentTurn(c); err != nil {
		return err
	}
	v := viewer(c)
	cm := site.Comment{ProjectID: p.ID, PageID: pg.ID, ParentID: in.Parent, UserID: v.UserID, Author: v.Name, Body: in.Body}
	if err := s.store.comments.AddComment(c.Request().Context(), &cm, 0); err != nil {
		return err
	}
	setChange(c, change{Kind: "comment", Page: pg.ID})
	return c.JSON(http.StatusCreated, apiCommentOf(cm))
}

// apiShareLink is a share link as its team sees it (never its token).
type apiShareLink struct {
	ID        int64    `json:"id"`
	Role      string   `json:"role"`
	Label     string   `json:"label"`
	CreatedAt string   `json:"created_at"`
	ExpiresAt string   `json:"expires_at,omitempty"`
	Active    bool     `json:"active"`
	Downloads []string `json:"downloads"`
	URL       string   `json:"url,omitempty"` // only when made: shown once
}

func (s *Server) apiShareLinkOf(l site.ShareLink) apiShareLink {
	out := apiShareLink{ID: l.ID, Role: l.Role, Label: l.Label, CreatedAt: l.CreatedAt.UTC().Format(time.RFC3339), Active: l.Active(s.now()),
		Downloads: l.Downloads}
	if !l.ExpiresAt.IsZero() {
		out.ExpiresAt = l.ExpiresAt.UTC().Format(time.RFC3339)
	}
	if out.Downloads == nil {
		out.Downloads = []string{}
	}
	return out
}

// apiShareLinks lists the plan's share links (admin scope).
func (s *Server) apiShareLinks(c echo.Context) error {
	ls, err := s.store.shares.ShareLinks(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	out := make([]apiShareLink, 0, len(ls))
	for _, l := range ls {
		out = append(out, s.apiShareLinkOf(l))
	}
	pg, err := paginate(c, out, func(l apiShareLink) int64 { return l.ID })
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pg)
}

// apiCreateShareLink makes a share link ({"role": "view"|"comment",
// "label", "expires": "30d"}) and gives its address, once.
func (s *Server) apiCreateShareLink(c echo.Context) error {
	var in struct {
		Role    string `json:"role"`
		Label   string `json:"label"`
		Expires string `json:"expires"`
	}
	if err := readJSON(c, &in); err != nil {
		return err
	}
	l := site.ShareLink{ProjectID: currentProject(c).ID, Role: in.Role, Label: in.Label}
	if in.Expires != "" {
		d, err := site.ParseDuration(in.Expires)
		if err != nil {
			return onField(err, "expires")
		}
		l.ExpiresAt = s.now().Add(d)
	}
	token, err := s.store.shares.CreateShareLink(c.Request().Context(), &l)
	if err != nil {
		return err
	}
	out := s.apiShareLinkOf(l)
	out.URL = absURL(c, "/s/"+token)
	return c.JSON(http.StatusCreated, out)
}

// apiRevokeShareLink revokes a share link.
func (s *Server) apiRevokeShareLink(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("sid"), 10, 64)
	if err != nil {
		return site.Errorf(site.ENotFound, "No such share link.")
	}
	if err := s.store.shares.RevokeShareLink(c.Request().Context(), currentProject(c).ID, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// apiStudy is a tree test as the API lists it.
type apiStudy struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Version int    `json:"version"`
	Tasks   int    `json:"tasks"`
	State   string `json:"state"`
	Link    string `json:"link,omitempty"` // the participant link, in the answer that made it only
}

// apiStudies lists the plan's tree tests, newest first.
func (s *Server) apiStudies(c echo.Context) error {
	list, err := s.store.research.Studies(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	out := make([]apiStudy, 0, len(list))
	for _, st := range list {
		state, _ := s.studyState(st)
		out = append(out, apiStudy{ID: st.ID, Name: st.Name, Version: st.Version, Tasks: len(st.Tasks), State: state})
	}
	pg, err := paginate(c, out, func(st apiStudy) int64 { return st.ID })
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pg)
}

// apiCreateStudy makes a tree test (siteplan treetest create), its tasks'
// correct pages named by their ids in the version, and gives its
// participant link once.
func (s *Server) apiCreateStudy(c echo.Context) error {
	var in struct {
		Name            string `json:"name"`
		Version         int    `json:"version"`
		Root            int64  `json:"root"`
		AllNavigation   bool   `json:"all_navigation"`
		PerParticipant  int    `json:"per_participant"`
		Random          bool   `json:"random"`
		NoSkip          bool   `json:"no_skip"`
		Intro           string `json:"intro"`
		Thanks          string `json:"thanks"`
		MaxParticipants int    `json:"max_participants"`
		Expires         string `json:"expires"`
		SpeederSeconds  int64  `json:"speeder_seconds"`
		Tasks           []struct {
			Text       string  `json:"text"`
			Correct    []int64 `json:"correct"`
			TimeLimit  int     `json:"time_limit"`
			Confidence bool    `json:"confidence"`
		} `json:"tasks"`
	}
	if err := readJSON(c, &in); err != nil {
		return err
	}
	st := site.Study{ProjectID: currentProject(c).ID, Version: in.Version, Name: in.Name, Root: in.Root, AllNavigation: in.AllNavigation,
		PerParticipant: in.PerParticipant, Random: in.Random, NoSkip: in.NoSkip, Intro: in.Intro, Thanks: in.Thanks,
		MaxParticipants: in.MaxParticipants, SpeederMillis: in.SpeederSeconds * 1000}
	for _, t := range in.Tasks {
		st.Tasks = append(st.Tasks, site.TreeTask{Text: t.Text, Correct: t.Correct, TimeLimit: t.TimeLimit, Confidence: t.Confidence})
	}
	if in.Expires != "" {
		d, err := site.ParseDuration(in.Expires)
		if err != nil {
			return onField(err, "expires")
		}
		st.ExpiresAt = s.now().Add(d)
	}
	token, err := s.store.research.CreateStudy(c.Request().Context(), &st)
	if err != nil {
		return err
	}
	state, _ := s.studyState(st)
	return c.JSON(http.StatusCreated, apiStudy{ID: st.ID, Name: st.Name, Version: st.Version, Tasks: len(st.Tasks), State: state,
		Link: absURL(c, "/t/"+token)})
}

// apiStudyResults gives a tree test's results as siteplan treetest
// results --json prints them (?segment=key%3Dvalue narrows them).
func (s *Server) apiStudyResults(c echo.Context) error {
	l, err := s.loadResults(c)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	c.Response().WriteHeader(http.StatusOK)
	return treetest.WriteResultsJSON(c.Response(), l.results, l.name)
}

// apiProjectSettings changes the project's settings sent: name,
// base_url, trailing_slash, default_changefreq, default_priority,
// lastmod, sitemap_location. With If-Match (the project's ETag) a
// change since is refused (412).
func (s *Server) apiProjectSettings(c echo.Context) error {
	var in struct {
		Name              *string  `json:"name"`
		BaseURL           *string  `json:"base_url"`
		TrailingSlash     *bool    `json:"trailing_slash"`
		DefaultChangefreq *string  `json:"default_changefreq"`
		DefaultPriority   *float64 `json:"default_priority"`
		Lastmod           *string  `json:"lastmod"`
		SitemapLocation   *string  `json:"sitemap_location"`
	}
	if err := readJSON(c, &in); err != nil {
		return err
	}
	p := currentProject(c)
	if h := c.Request().Header.Get("If-Match"); h != "" && h != "*" && h != etag(p) {
		return site.Errorf(site.EStale, "Project %d has changed since %s (it is at %s now): read it again, then send your change.", p.ID, h, etag(p))
	}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.Name, in.Name)
	if in.BaseURL != nil {
		p.BaseURL = site.WithScheme(*in.BaseURL)
	}
	set(&p.DefaultChangefreq, in.DefaultChangefreq)
	set(&p.Lastmod, in.Lastmod)
	set(&p.SitemapLocation, in.SitemapLocation)
	if in.TrailingSlash != nil {
		p.TrailingSlash = *in.TrailingSlash
	}
	if in.DefaultPriority != nil {
		p.DefaultPriority = in.DefaultPriority
	}
	if err := s.store.projects.UpdateProject(c.Request().Context(), &p); err != nil {
		return stale(c, err)
	}
	setChange(c, change{Kind: "project"})
	fresh, err := s.store.projects.Project(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(fresh))
	return c.JSON(http.StatusOK, apiProjectOf(fresh))
}

// apiWebhook is a team's webhook (its secret only in the answer that
// made it).
type apiWebhook struct {
	ID        int64    `json:"id"`
	URL       string   `json:"url"`
	Format    string   `json:"format"`
	Events    []string `json:"events"`
	Secret    string   `json:"secret,omitempty"`
	LastCode  int      `json:"last_code"`
	LastError string   `json:"last_error"`
	Pending   int      `json:"pending"`
}

func apiWebhookOf(w site.Webhook) apiWebhook {
	ev := w.Events
	if ev == nil {
		ev = []string{}
	}
	return apiWebhook{ID: w.ID, URL: w.URL, Format: w.Format, Events: ev, LastCode: w.LastCode, LastError: w.LastError, Pending: w.Pending}
}

// apiWebhooks lists the team's webhooks (admin scope).
func (s *Server) apiWebhooks(c echo.Context) error {
	ws, err := s.store.webhooks.Webhooks(c.Request().Context(), viewer(c).Team.ID)
	if err != nil {
		return err
	}
	out := make([]apiWebhook, 0, len(ws))
	for _, w := range ws {
		out = append(out, apiWebhookOf(w))
	}
	pg, err := paginate(c, out, func(w apiWebhook) int64 { return w.ID })
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pg)
}

// apiAddWebhook adds a webhook {"url", "format": "json"|"slack",
// "events": [...], "secret"} and answers with its secret, once.
func (s *Server) apiAddWebhook(c echo.Context) error {
	var in struct {
		URL    string   `json:"url"`
		Format string   `json:"format"`
		Events []string `json:"events"`
		Secret string   `json:"secret"`
	}
	if err := readJSON(c, &in); err != nil {
		return err
	}
	if in.Format == "" {
		in.Format = site.WebhookJSON
	}
	w := site.Webhook{TeamID: viewer(c).Team.ID, URL: in.URL, Format: in.Format, Events: in.Events, Secret: in.Secret}
	if err := s.store.webhooks.AddWebhook(c.Request().Context(), &w); err != nil {
		return err
	}
	out := apiWebhookOf(w)
	out.Secret = w.Secret
	return c.JSON(http.StatusCreated, out)
}

// apiDeleteWebhook removes one of the team's webhooks.
func (s *Server) apiDeleteWebhook(c echo.Context) error {
	id, err := idParam(c, "wid")
	if err != nil {
		return err
	}
	if err := s.store.webhooks.DeleteWebhook(c.Request().Context(), viewer(c).Team.ID, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// apiRedirect is one old URL of the redirect map and where it goes.
type apiRedirect struct {
	ID          int64   `json:"id"`
	From        string  `json:"from"`
	Title       string  `json:"title"`
	Clicks      int     `json:"clicks"`
	Disposition string  `json:"disposition"`
	PageID      int64   `json:"page_id"`
	To          string  `json:"to"`
	Status      int     `json:"status"`
	Confidence  float64 `json:"confidence"`
	Reason      string  `json:"reason"`
	Accepted    bool    `json:"accepted"`
}

// apiRedirects is the redirect map as JSON: each old URL, where it goes
// in the plan as it is now, whether it is accepted (?show=awaiting,
// unmatched, retired... as the Redirects view filters).
func (s *Server) apiRedirects(c echo.Context) error {
	ctx, p := c.Request().Context(), currentProject(c)
	f := site.OldFilter{Show: c.QueryParam("show")}
	if err := f.Validate(); err != nil {
		return err
	}
	olds, _, err := s.store.redirects.OldURLs(ctx, p.ID, f)
	if err != nil {
		return err
	}
	t, err := s.store.pages.Tree(ctx, p.ID)
	if err != nil {
		return err
	}
	maps := t.Mappings(olds)
	out := make([]apiRedirect, 0, len(olds))
	for i, o := range olds {
		m := maps[i]
		out = append(out, apiRedirect{ID: o.ID, From: o.URL, Title: o.Title, Clicks: o.Clicks, Disposition: m.Disposition, PageID: m.PageID, To: m.To,
			Status: m.Status, Confidence: m.Confidence, Reason: m.Reason, Accepted: m.Accepted})
	}
	pg, err := paginate(c, out, func(r apiRedirect) int64 { return r.ID })
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pg)
}

// apiAttachOldSite attaches the old site's URLs of the request's body
// (a sitemap, a text list or a crawl CSV, as siteplan redirects match
// reads a file; ?name= its file name, which says its kind) and matches
// them to the plan, as one change.
func (s *Server) apiAttachOldSite(c echo.Context) error {
	p := currentProject(c)
	if strings.HasPrefix(c.Request().Header.Get(echo.HeaderContentType), echo.MIMEApplicationJSON) {
		return s.apiAttachFromSite(c, p)
	}
	ctx, done, err := s.heavyTurn(c, attachBudget)
	if err != nil {
		return err
	}
	defer done()
	name := c.QueryParam("name")
	if name == "" {
		name = "old-site.txt"
	}
	olds, rep, err := (&sitemap.Reader{Web: s.fetch.Open}).ReadOldUpload(ctx, name, c.Request().Body, site.MaxOldURLs)
	if err != nil {
		msg := site.ErrorMessage(err)
		if rep != nil && len(rep.Files) > 0 && rep.Files[0].Err != "" {
			msg = rep.Files[0].Err
		}
		return site.Errorf(site.EInvalid, "%s: %s", name, msg)
	}
	t, err := s.store.pages.Tree(ctx, p.ID)
	if err != nil {
		return err
	}
	got, err := s.store.redirects.AttachOldSite(ctx, p.ID, olds, sitemap.Match(t, olds))
	if err != nil {
		return err
	}
	setChange(c, change{Kind: "redirects"})
	return c.JSON(http.StatusOK, map[string]int{"added": got.Added, "removed": got.Removed, "kept": got.Kept, "kept_decided": got.KeptDecided})
}

// apiTraffic reads a traffic export's clicks (Search Console's Pages
// export or an Analytics CSV, the request's body) onto the old URLs.
func (s *Server) apiTraffic(c echo.Context) error {
	p := currentProject(c)
	ctx, done, err := s.heavyTurn(c, attachBudget)
	if err != nil {
		return err
	}
	defer done()
	first, _, err := s.store.redirects.OldURLs(ctx, p.ID, site.OldFilter{Limit: 1})
	if err != nil {
		return err
	}
	if len(first) == 0 {
		return site.Errorf(site.EInvalid, "Attach the old site first: clicks go to its URLs.")
	}
	clicks, err := sitemap.ReadClicks(c.Request().Body, site.Origin(first[0].URL)+"/")
	if err != nil {
		return site.Errorf(site.EInvalid, "The traffic file: %s", site.ErrorMessage(err))
	}
	matched, unknown, nUnknown, err := s.store.redirects.SetClicks(ctx, p.ID, clicks)
	if err != nil {
		return err
	}
	out := map[string]any{"matched": matched, "of": matched + nUnknown}
	if len(unknown) > 0 {
		out["not_found_example"] = unknown[0]
	}
	setChange(c, change{Kind: "redirects"})
	return c.JSON(http.StatusOK, out)
}

// apiAttachFromSite reads the old site from its address ({"site":
// "https://old.example/"}: its robots.txt, then its sitemaps) as the
// editor does, in the background, and answers 202 with the job to
// follow.
func (s *Server) apiAttachFromSite(c echo.Context, p site.Project) error {
	var in struct {
		Site string `json:"site"`
	}
	if err := readJSON(c, &in); err != nil {
		return err
	}
	if strings.TrimSpace(in.Site) == "" {
		return onField(site.Errorf(site.EInvalid, "Name the old site: its address, or one of its sitemaps."), "site")
	}
	j, err := s.createSiteJob(c, site.Job{Kind: site.JobAttach, Source: strings.TrimSpace(in.Site), ProjectID: p.ID}, nil)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, apiPrefix+"projects/"+strconv.FormatInt(p.ID, 10)+"/jobs/"+j.ID)
	return c.JSON(http.StatusAccepted, apiJobOf(j))
}

// apiJob is a background job of the API's caller: an old site being
// read and attached (a launch check has its own routes).
type apiJob struct {
	ID       string       `json:"id"`
	Kind     string       `json:"kind"`
	Source   string       `json:"source"`
	State    string       `json:"state"`
	Error    string       `json:"error,omitempty"`
	Attached *apiAttached `json:"attached,omitempty"` // once done: what changed in the redirect map
}

// apiAttached is what an old site attached did.
type apiAttached struct {
	URLs        int `json:"urls"`
	Added       int `json:"added"`
	Removed     int `json:"removed"`
	Kept        int `json:"kept"`
	KeptDecided int `json:"kept_decided"`
	Accepted    int `json:"accepted"`
}

func apiJobOf(j site.Job) apiJob {
	out := apiJob{ID: j.ID, Kind: j.Kind, Source: j.Source, State: j.State, Error: j.Error}
	var pr sitemap.JobProgress
	if len(j.Progress) > 0 && json.Unmarshal(j.Progress, &pr) == nil && pr.Attached != nil {
		a := pr.Attached
		out.Attached = &apiAttached{URLs: a.URLs, Added: a.Added, Removed: a.Removed, Kept: a.Kept, KeptDecided: a.KeptDecided, Accepted: a.Accepted}
	}
	return out
}

// apiJobState is the state of a job the caller started on this plan.
func (s *Server) apiJobState(c echo.Context) error {
	j, err := s.siteJob(c, false)
	if err == nil && j.ProjectID != currentProject(c).ID {
		err = site.Errorf(site.ENotFound, "No such job of this plan: its state is kept for an hour.")
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, apiJobOf(j))
}
