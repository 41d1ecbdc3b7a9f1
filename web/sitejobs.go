package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/internal/loop"
	"siteplan/site"
	"siteplan/sitemap"
	"siteplan/verify"
	"siteplan/views"
)

// Reading a live site is work in the background: the sitemaps of a large
// site take minutes. A visitor starts a job, watches its progress (a
// stream of server-sent events) and may cancel it.
//
// A job is a row of the database (site.Job), so that any server on it
// may run it, and exactly one does: each server claims waiting jobs for
// its siteReaders readers (the store's ClaimJob), and says as the job
// runs that it is alive, with its progress (a beat, every jobBeat while
// it changes, every jobBeatIdle while it does not). A job whose server
// stops beating for jobStale is failed by another server's sweep, not
// lost. A team reads one site at a time and each visitor has one job
// unfinished at most, across servers, so one account cannot take every
// reader; a free reader goes to the waiting job of the team that was
// served longest ago (the order they came breaks ties), so a team with
// many jobs waiting does not hold back one with a single job. A job
// waits at most siteJobWait for its turn and then reads for at most
// siteJobBudget, counted from its turn.
//
// A finished job's report is kept for siteJobKept, within a bound on the
// bytes a team's reports and all reports take (reportTeamBytes,
// reportAllBytes): past either, the oldest reports are let go first.
const (
	siteReaders   = 3
	siteJobWait   = 30 * time.Minute
	siteJobBudget = 10 * time.Minute
	siteJobKept   = time.Hour
	// The most URLs a job reads: a plan takes memory while it is made
	// (docs/benchmarks.md); the siteplan import command has no such
	// bound. A check keeps 8 bytes a URL.
	siteImportURLs = 250_000
	siteCheckURLs  = 2_000_000
	// siteUploadBytes bounds an uploaded sitemap (gzipped or not).
	siteUploadBytes = 64 << 20
	// A job's progress is sent at most every jobFrame, to at most
	// jobWatchers streams (tabs) of a server at once. A stream looks for
	// a change of a job another server runs every jobPoll.
	jobFrame    = 200 * time.Millisecond
	jobPoll     = time.Second
	jobWatchers = 8
	// What the reports kept may take; a report takes 10 MB at most
	// (sitemap.Reading keeps 1,000 rows of clipped strings).
	reportTeamBytes = 16 << 20
	reportAllBytes  = 128 << 20 // of every team, in the database all servers share
	// How often a running job beats, and how long its server may be
	// silent before its job is failed; how often a server sweeps.
	jobBeat     = 500 * time.Millisecond
	jobBeatIdle = 5 * time.Second
	jobStale    = 30 * time.Second
	jobSweep    = 10 * time.Second
	jobEnd      = time.Minute // to write how a job ended
)

// jobStore is what the live-site jobs keep in the database.
type jobStore interface {
	CreateJob(ctx context.Context, j site.Job, upload io.Reader) (site.Job, error)
	ClaimJob(ctx context.Context) (site.Job, bool, error)
	BeatJob(ctx context.Context, id, state string, progress []byte) (cancel bool, err error)
	EndJob(ctx context.Context, id, state, errMsg string, progress, report []byte, teamBytes, allBytes int64) error
	CancelJob(ctx context.Context, id string, userID int64) (site.Job, error)
	Job(ctx context.Context, id string, withReport bool) (site.Job, error)
	NewestLaunchJob(ctx context.Context, userID, projectID int64) (site.Job, bool, error)
	JobUpload(ctx context.Context, id string) io.Reader
	SweepJobs(ctx context.Context, lim site.JobLimits) (failed int64, err error)
}

// jobStaleMsg is what a job says whose server stopped beating: failed
// by another server's sweep, or by its own server once it hears so.
const jobStaleMsg = "The server reading it stopped: start it again."

// errStopping ends the jobs a server runs when it shuts down; errLost a
// job another server failed (this one was silent too long) or that was
// deleted with its account.
var (
	errStopping = errors.New("the server is shutting down")
	errLost     = errors.New("the job is no longer this server's")
)

// siteJobs runs this server's share of the live-site jobs.
type siteJobs struct {
	log       *slog.Logger
	store     jobStore
	run       func(ctx context.Context, j *siteJob) error // a job of any kind
	wait      time.Duration
	budget    time.Duration
	stale     time.Duration // how long a running job's server may be silent
	teamBytes int64         // bounds on the reports kept
	allBytes  int64

	mu      sync.Mutex
	free    int                 // readers free
	here    map[string]*siteJob // the jobs this server runs
	bell    chan struct{}       // closed, and replaced, when a job of this server changes
	watch   map[string]int      // streams open on this server, by job
	closed  bool
	ctx     context.Context // ended when the server stops, and the jobs it runs with it
	stop    context.CancelCauseFunc
	claims  loop.Loop
	sweeps  loop.Loop
	running sync.WaitGroup
}

func newSiteJobs(log *slog.Logger, st jobStore) *siteJobs {
	js := &siteJobs{log: log, store: st, free: siteReaders, wait: siteJobWait, budget: siteJobBudget, stale: jobStale,
		teamBytes: reportTeamBytes, allBytes: reportAllBytes,
		here: map[string]*siteJob{}, bell: make(chan struct{}), watch: map[string]int{}, claims: loop.New(), sweeps: loop.New()}
	js.ctx, js.stop = context.WithCancelCause(context.Background())
	return js
}

// start starts claiming and sweeping jobs, with run to run them.
func (js *siteJobs) start(run func(ctx context.Context, j *siteJob) error) {
	js.run = run
	js.claims.Start(context.Background(), jobPoll, nil, js.claim)
	js.sweeps.Start(context.Background(), jobSweep, nil, js.sweep)
}

// siteJob is a job this server runs: its row, and what the reading has
// found so far, which goes to the database as its progress at each beat
// and as its report at its end.
type siteJob struct {
	site.Job
	cancel context.CancelCauseFunc
	budget time.Duration // how long it may read

	mu       sync.Mutex // guards State and what follows
	progress jobProgress
	report   jobReport
	changed  bool // since the last beat
}

// jobProgress is a running job's progress as the database keeps it, with
// what its page shows of it after its report is let go.
type jobProgress struct {
	sitemap.Progress
	What        string            `json:"what,omitempty"`     // a launch check: the plan or version checked, in words
	Done, Total int               `json:",omitempty"`         // a launch check: pages and old URLs checked, of all
	Plan        *views.SitePlan   `json:"plan,omitempty"`     // an import: the new plan
	Attached    *views.SiteAttach `json:"attached,omitempty"` // an old site attached: what changed in the map
}

// jobReport is an ended job's report as the database keeps it.
type jobReport struct {
	Reading  *sitemap.Reading  `json:"reading,omitempty"`
	Excerpts []sitemap.Excerpt `json:"excerpts,omitempty"` // an uploaded file's lines around its problems
	Warns    []site.Warning    `json:"warnings,omitempty"`
}

// create keeps a new job of the viewer of c, with the upload if not nil,
// and wakes the readers. Errors: ETooMany (an unfinished job of theirs,
// or the server is shutting down).
func (js *siteJobs) create(c echo.Context, j site.Job, upload io.Reader) (site.Job, error) {
	js.mu.Lock()
	closed := js.closed
	js.mu.Unlock()
	if closed {
		return j, site.Errorf(site.ETooMany, "The server is shutting down: try again in a moment.")
	}
	v := viewer(c)
	j.UserID, j.TeamID, j.By = v.UserID, v.Team.ID, v.Name
	if p := currentProject(c); p.ID != 0 {
		// A check of a plan takes its team's turn, whoever starts it and
		// whichever team they work in now: accounts cannot add turns.
		j.TeamID = p.TeamID
	}
	j, err := js.store.CreateJob(c.Request().Context(), j, upload)
	if err == nil {
		js.claims.Poke()
	}
	return j, err
}

// claim gives this server's free readers to waiting jobs: a round of
// the claims loop.
func (js *siteJobs) claim(ctx context.Context) bool {
	for {
		js.mu.Lock()
		free := js.free > 0 && !js.closed
		js.mu.Unlock()
		if !free {
			return false
		}
		row, ok, err := js.store.ClaimJob(ctx)
		if err != nil {
			if ctx.Err() == nil {
				js.log.Error("claiming a live-site job", "err", err)
			}
			return false
		}
		if !ok {
			return false
		}
		j := &siteJob{Job: row} // reading
		jctx, cancel := context.WithCancelCause(js.ctx)
		j.cancel = cancel
		js.mu.Lock()
		j.budget = js.budget
		js.free--
		js.here[j.ID] = j
		js.running.Add(1)
		js.mu.Unlock()
		go js.runJob(jctx, j)
	}
}

// sweep fails the jobs whose servers stopped and those that waited too
// long, and deletes those kept long enough: a round of the sweeps loop.
func (js *siteJobs) sweep(ctx context.Context) bool {
	js.mu.Lock()
	stale := js.stale
	js.mu.Unlock()
	n, err := js.store.SweepJobs(ctx, site.JobLimits{Stale: stale, Wait: js.wait, Kept: siteJobKept,
		StaleMsg: jobStaleMsg,
		WaitMsg:  "The server was busy reading other sites for " + js.wait.String() + ": try again later."})
	if err != nil && ctx.Err() == nil {
		js.log.Error("sweeping live-site jobs", "err", err)
	}
	if n > 0 {
		js.ring()
	}
	return false
}

// runJob runs j within its budget, beating as it goes, and records how
// it ended; however it ends, its reader is freed. j.cancel ends ctx.
func (js *siteJobs) runJob(ctx context.Context, j *siteJob) {
	defer js.running.Done()
	defer j.cancel(nil)
	read, stop := context.WithTimeout(ctx, j.budget)
	defer stop()
	beats := make(chan struct{})
	go func() {
		defer close(beats)
		js.beat(ctx, j)
	}()
	state, msg := j.outcome(read, safely(read, j, js.run), js.log)
	j.cancel(nil) // the beats
	<-beats
	_, progress, _ := j.beatNow()
	report, jerr := json.Marshal(j.reportNow())
	if jerr != nil {
		js.log.Error("live-site report", "err", jerr)
		report = nil
	}
	end, done := context.WithTimeout(context.WithoutCancel(ctx), jobEnd)
	defer done()
	if err := js.store.EndJob(end, j.ID, state, msg, progress, report, js.teamBytes, js.allBytes); err != nil && site.ErrorCode(err) != site.ENotFound {
		js.log.Error("ending a live-site job", "job", j.ID, "err", err) // not found: failed as stale by another server
	}
	js.mu.Lock()
	delete(js.here, j.ID)
	js.free++
	js.mu.Unlock()
	js.ring()
	js.claims.Poke()
}

// beat says j still runs, with its progress, until ctx ends: every
// jobBeat while it changes, every jobBeatIdle while it does not. A
// cancel asked on another server, or the job gone from this one, ends
// the job.
func (js *siteJobs) beat(ctx context.Context, j *siteJob) {
	tick := time.NewTicker(jobBeat)
	defer tick.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		state, progress, changed := j.beatNow()
		if !changed && time.Since(last) < jobBeatIdle {
			continue
		}
		last = time.Now()
		stopped, err := js.store.BeatJob(ctx, j.ID, state, progress)
		switch {
		case site.ErrorCode(err) == site.ENotFound:
			j.cancel(errLost)
		case err != nil && ctx.Err() == nil:
			js.log.Warn("a live-site job's beat", "job", j.ID, "err", err)
		case stopped:
			j.cancel(context.Canceled)
		}
		js.ring()
	}
}

// ring wakes the streams of this server.
func (js *siteJobs) ring() {
	js.mu.Lock()
	defer js.mu.Unlock()
	close(js.bell)
	js.bell = make(chan struct{})
}

// bellNow returns a channel closed at the next change of a job this
// server runs.
func (js *siteJobs) bellNow() <-chan struct{} {
	js.mu.Lock()
	defer js.mu.Unlock()
	return js.bell
}

// safely runs a job, a panic in it an error: no request is there to
// recover it, and the server goes on.
func safely(ctx context.Context, j *siteJob, run func(ctx context.Context, j *siteJob) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return run(ctx, j)
}

// close stops claiming, ends the jobs this server runs (failed, saying
// the server stopped) and waits until they have ended. Jobs waiting stay
// for the other servers, or for this one when it starts again.
func (js *siteJobs) close() {
	js.mu.Lock()
	js.closed = true
	js.mu.Unlock()
	js.claims.StopAndWait()
	js.sweeps.StopAndWait()
	js.stop(errStopping)
	js.running.Wait()
}

// get returns the viewer's job the path names, with its report if
// withReport. Errors: ENotFound.
func (js *siteJobs) get(c echo.Context, withReport bool) (site.Job, error) {
	j, err := js.store.Job(c.Request().Context(), c.Param("jid"), withReport)
	if err == nil && j.UserID != viewer(c).UserID {
		return site.Job{}, site.Errorf(site.ENotFound, "No such reading: its report is kept for an hour.")
	}
	return j, err
}

// cancelHere cancels job id at once if this server runs it; another
// server's hears of the cancel at its next beat.
func (js *siteJobs) cancelHere(id string) {
	js.mu.Lock()
	j := js.here[id]
	js.mu.Unlock()
	if j != nil {
		j.cancel(context.Canceled)
	}
}

// watching counts a stream of job id on this server in (+1) or out (-1);
// it refuses one past jobWatchers.
func (js *siteJobs) watching(id string, d int) bool {
	js.mu.Lock()
	defer js.mu.Unlock()
	if d > 0 && js.watch[id] >= jobWatchers {
		return false
	}
	if js.watch[id] += d; js.watch[id] == 0 {
		delete(js.watch, id)
	}
	return true
}

// jobPage is where a job is shown.
func jobPage(j site.Job) string {
	if j.Kind == site.JobLaunch {
		return projectPath(j.ProjectID, "launch")
	}
	return "/sites/jobs/" + j.ID
}

// set changes the job's progress or report under its lock; the next beat
// takes the change to the database.
func (j *siteJob) set(fn func()) {
	j.mu.Lock()
	defer j.mu.Unlock()
	fn()
	j.changed = true
}

// beatNow is what the next beat says: the state and progress, and
// whether they changed since the last.
func (j *siteJob) beatNow() (state string, progress []byte, changed bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	progress, _ = json.Marshal(j.progress)
	changed, j.changed = j.changed, false
	return j.State, progress, changed
}

func (j *siteJob) reportNow() jobReport {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.report
}

// outcome is how the job ended: ctx is the one it read with, whose
// deadline is the reading's budget.
func (j *siteJob) outcome(ctx context.Context, err error, log *slog.Logger) (state, msg string) {
	var ue *sitemap.UnreadableError
	var unreached *verify.UnreachableError
	state = site.JobFailed
	switch {
	case err == nil:
		return site.JobDone, ""
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		msg = "The reading took longer than " + j.budget.String() + " and was stopped; the siteplan check and import commands have no such limit."
		if j.Kind == site.JobLaunch {
			msg = "The check took longer than " + j.budget.String() + " and was stopped; the siteplan verify command has no such limit."
		}
	case errors.Is(context.Cause(ctx), errStopping):
		msg = "The server stopped during the reading: start it again."
	case errors.Is(context.Cause(ctx), errLost):
		msg = jobStaleMsg
	case context.Cause(ctx) == context.Canceled:
		state, msg = site.JobCancelled, "Cancelled."
	case errors.As(err, &ue) || errors.As(err, &unreached) || site.ErrorCode(err) != site.EInternal:
		msg = err.Error()
	default:
		msg = site.ErrorMessage(err)
		log.Error("live-site reading failed", "source", j.Source, "err", err)
	}
	switch j.Kind {
	case site.JobImport:
		msg += " Nothing was imported."
	case site.JobAttach:
		msg += " Nothing was attached."
	}
	return state, msg
}
