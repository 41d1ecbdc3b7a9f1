package web

import (
	"context"
	"io"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/site"
)

// Reading a live site is work in the background (package jobs runs it):
// the sitemaps of a large site take minutes. A visitor starts a job (a
// row of the database, which a server's runner claims), watches its
// progress (a stream of server-sent events) and may cancel it.

const (
	// siteUploadBytes bounds an uploaded sitemap (gzipped or not).
	siteUploadBytes = 64 << 20
	// A job's progress is sent at most every jobFrame, to at most
	// jobWatchers streams (tabs) of a server at once. A stream looks for
	// a change of a job another server runs every jobPoll.
	jobFrame    = 200 * time.Millisecond
	jobPoll     = time.Second
	jobWatchers = 8
)

// jobStore is what the pages of live-site jobs read and write.
type jobStore interface {
	CreateJob(ctx context.Context, j site.Job, upload io.Reader) (site.Job, error)
	CancelJob(ctx context.Context, id string, userID int64) (site.Job, error)
	Job(ctx context.Context, id string, withReport bool) (site.Job, error)
	NewestLaunchJob(ctx context.Context, userID, projectID int64) (site.Job, bool, error)
	Changed() <-chan struct{}
}

// startSiteJob keeps job j of the viewer, with its upload if not nil,
// for a server to claim, and sends the visitor to its page. A check of
// a plan takes its team's turn, whoever starts it and whichever team
// they work in now: accounts cannot add turns. Errors: ETooMany (an
// unfinished job of theirs).
func (s *Server) startSiteJob(c echo.Context, j site.Job, upload io.Reader) error {
	j, err := s.createSiteJob(c, j, upload)
	if err != nil {
		return err
	}
	return redirect(c, jobPage(j))
}

// createSiteJob keeps job j of the viewer (its team's, for a plan's
// check), with its upload if not nil, for a server to claim. Errors:
// ETooMany (an unfinished job of theirs).
func (s *Server) createSiteJob(c echo.Context, j site.Job, upload io.Reader) (site.Job, error) {
	v := viewer(c)
	if err := jobOwner(v); err != nil {
		return j, err
	}
	j.UserID, j.TokenID, j.TeamID, j.By = v.UserID, jobToken(v), v.Team.ID, v.Name
	if p := currentProject(c); p.ID != 0 {
		j.TeamID = p.TeamID
	}
	return s.store.jobs.CreateJob(c.Request().Context(), j, upload)
}

// siteJob returns the viewer's job the path names, with its report if
// withReport. Errors: ENotFound.
func (s *Server) siteJob(c echo.Context, withReport bool) (site.Job, error) {
	j, err := s.store.jobs.Job(c.Request().Context(), c.Param("jid"), withReport)
	if v := viewer(c); err == nil && (j.UserID != v.UserID || j.TokenID != jobToken(v)) {
		return site.Job{}, site.Errorf(site.ENotFound, "No such reading: its report is kept for an hour.")
	}
	return j, err
}

// jobOwner refuses a job to a viewer who is neither a person nor a team
// token: a job runs as its person or its team token, one at a time
// each. Errors: EForbidden.
func jobOwner(v site.Viewer) error {
	if v.UserID == 0 && v.TokenID == 0 {
		return site.Errorf(site.EForbidden, "A launch check or reading runs as a person or a team token: log in, or send a token.")
	}
	return nil
}

// jobToken is the team token a viewer's jobs are, 0 for a person's.
func jobToken(v site.Viewer) int64 {
	if v.UserID != 0 {
		return 0
	}
	return v.TokenID
}

// jobPage is where a job is shown.
func jobPage(j site.Job) string {
	if j.Kind == site.JobLaunch {
		return projectPath(j.ProjectID, "launch")
	}
	return "/sites/jobs/" + j.ID
}

// watchers counts the streams open on this server, by job.
type watchers struct {
	mu sync.Mutex
	n  map[string]int
}

// watch counts a stream of job id in (+1) or out (-1); it refuses one
// past jobWatchers.
func (w *watchers) watch(id string, d int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n == nil {
		w.n = map[string]int{}
	}
	if d > 0 && w.n[id] >= jobWatchers {
		return false
	}
	if w.n[id] += d; w.n[id] == 0 {
		delete(w.n, id)
	}
	return true
}
