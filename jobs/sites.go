package jobs

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

	"siteplan/fetch"
	"siteplan/internal/loop"
	"siteplan/site"
	"siteplan/sitemap"
	"siteplan/verify"
)

// Reading a live site is work in the background: the sitemaps of a large
// site take minutes. A visitor starts a job (a row the web server keeps),
// watches its progress and may cancel it; this runner runs it.
//
// A job is a row of the database (site.Job), so that any server on it
// may run it, and exactly one does: each server claims waiting jobs for
// its readers (the store's ClaimJob), and says as the job runs that it
// is alive, with its progress (a beat, every jobBeat while it changes,
// every jobBeatIdle while it does not). A job whose server stops beating
// for Readings.Stale is failed by another server's sweep, not lost. A
// team reads one site at a time and each visitor has one job unfinished
// at most, across servers, so one account cannot take every reader; a
// free reader goes to the waiting job of the team that was served
// longest ago (the order they came breaks ties), so a team with many
// jobs waiting does not hold back one with a single job. A job waits at
// most Readings.Wait for its turn and then reads for at most
// Readings.Budget, counted from its turn.
//
// A finished job's report is kept for jobKept, within a bound on the
// bytes a team's reports and all reports take (Readings.TeamBytes,
// AllBytes): past either, the oldest reports are let go first.

// Readings bounds the live-site jobs of a server; a zero field takes
// its default.
type Readings struct {
	Readers int           // jobs this server runs at once; 3
	Wait    time.Duration // the longest a job waits for its turn; 30 minutes
	Budget  time.Duration // the longest a job reads, from its turn; 10 minutes
	Stale   time.Duration // the longest a running job's server may be silent; 30 s
	// What the reports kept may take, of a team and of all teams in the
	// database the servers share; a report takes 10 MB at most
	// (sitemap.Reading keeps 1,000 rows of clipped strings). 16 MB and
	// 128 MB.
	TeamBytes, AllBytes int64
}

func (r Readings) orDefaults() Readings {
	or := func(v, d time.Duration) time.Duration {
		if v == 0 {
			return d
		}
		return v
	}
	r.Wait, r.Budget, r.Stale = or(r.Wait, 30*time.Minute), or(r.Budget, 10*time.Minute), or(r.Stale, 30*time.Second)
	if r.Readers == 0 {
		r.Readers = 3
	}
	if r.TeamBytes == 0 {
		r.TeamBytes = 16 << 20
	}
	if r.AllBytes == 0 {
		r.AllBytes = 128 << 20
	}
	return r
}

const (
	// The most URLs a job reads: a plan takes memory while it is made
	// (docs/benchmarks.md); the siteplan import command has no such
	// bound. A check keeps 8 bytes a URL.
	siteImportURLs = 250_000
	siteCheckURLs  = 2_000_000
	jobKept        = time.Hour // an ended job and its report
	jobPoll        = time.Second
	// How often a running job beats while its progress changes, and
	// while it does not; how often a server sweeps, at most.
	jobBeat     = 500 * time.Millisecond
	jobBeatIdle = 5 * time.Second
	jobSweep    = 10 * time.Second
	jobEnd      = time.Minute // to write how a job ended
)

// siteJobStore is what the runner keeps of its jobs in the database.
type siteJobStore interface {
	ClaimJob(ctx context.Context) (site.Job, bool, error)
	BeatJob(ctx context.Context, id, state string, progress []byte) (cancel bool, err error)
	EndJob(ctx context.Context, id, state, errMsg string, progress, report []byte, teamBytes, allBytes int64) error
	SweepJobs(ctx context.Context, lim site.JobLimits) (failed int64, err error)
	JobUpload(ctx context.Context, id string) io.Reader
	Changed() <-chan struct{}
	Cancelled() <-chan struct{}
}

// staleMsg is what a job says whose server stopped beating: failed by
// another server's sweep, or by its own server once it hears so.
const staleMsg = "The server reading it stopped: start it again."

// errStopping ends the jobs a server runs when it shuts down; errLost a
// job another server failed (this one was silent too long) or that was
// deleted with its account.
var (
	errStopping = errors.New("the server is shutting down")
	errLost     = errors.New("the job is no longer this server's")
)

// siteJobs runs this server's share of the live-site jobs.
type siteJobs struct {
	log   *slog.Logger
	store siteJobStore
	work  work // what the jobs read and write
	lim   Readings

	mu      sync.Mutex
	free    int                 // readers free
	here    map[string]*siteJob // the jobs this server runs
	closed  bool
	ctx     context.Context // ended when the server stops, and the jobs it runs with it
	stop    context.CancelCauseFunc
	claims  loop.Loop
	sweeps  loop.Loop
	cancels loop.Loop
	running sync.WaitGroup
}

func startSiteJobs(st siteJobStore, w work, lim Readings, log *slog.Logger) *siteJobs {
	lim = lim.orDefaults()
	js := &siteJobs{log: log, store: st, work: w, lim: lim, free: lim.Readers, here: map[string]*siteJob{},
		claims: loop.New(), sweeps: loop.New(), cancels: loop.New()}
	js.ctx, js.stop = context.WithCancelCause(context.Background())
	js.claims.Start(context.Background(), jobPoll, st.Changed, js.claim)
	js.sweeps.Start(context.Background(), min(jobSweep, lim.Stale/2), nil, js.sweep)
	js.cancels.Start(context.Background(), time.Hour, st.Cancelled, js.beatAll)
	return js
}

// siteJob is a job this server runs: its row, and what the reading has
// found so far, which goes to the database as its progress at each beat
// and as its report at its end.
type siteJob struct {
	site.Job
	cancel context.CancelCauseFunc
	budget time.Duration // how long it may read
	beat   chan struct{} // a beat now, whatever changed

	mu       sync.Mutex // guards State and what follows
	progress sitemap.JobProgress
	report   sitemap.JobReport
	changed  bool // since the last beat
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
		j := &siteJob{Job: row, budget: js.lim.Budget, beat: make(chan struct{}, 1)} // reading
		jctx, cancel := context.WithCancelCause(js.ctx)
		j.cancel = cancel
		js.mu.Lock()
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
	_, err := js.store.SweepJobs(ctx, site.JobLimits{Stale: js.lim.Stale, Wait: js.lim.Wait, Kept: jobKept,
		StaleMsg: staleMsg,
		WaitMsg:  "The server was busy reading other sites for " + js.lim.Wait.String() + ": try again later."})
	if err != nil && ctx.Err() == nil {
		js.log.Error("sweeping live-site jobs", "err", err)
	}
	return false
}

// beatAll has every job this server runs beat now: one of them may have
// been asked to stop. A round of the cancels loop.
func (js *siteJobs) beatAll(context.Context) bool {
	js.mu.Lock()
	defer js.mu.Unlock()
	for _, j := range js.here {
		select {
		case j.beat <- struct{}{}:
		default:
		}
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
	state, msg := j.outcome(read, safely(read, j, js.work.run), js.log)
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
	if err := js.store.EndJob(end, j.ID, state, msg, progress, report, js.lim.TeamBytes, js.lim.AllBytes); err != nil && site.ErrorCode(err) != site.ENotFound {
		js.log.Error("ending a live-site job", "job", j.ID, "err", err) // not found: failed as stale by another server
	}
	js.mu.Lock()
	delete(js.here, j.ID)
	js.free++
	js.mu.Unlock()
	js.claims.Poke()
}

// beat says j still runs, with its progress, until ctx ends: every
// jobBeat while it changes, every jobBeatIdle while it does not, and at
// once when asked (beatAll). A cancel, or the job gone from this server,
// ends the job.
func (js *siteJobs) beat(ctx context.Context, j *siteJob) {
	tick := time.NewTicker(jobBeat)
	defer tick.Stop()
	last := time.Now()
	for {
		asked := false
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-j.beat:
			asked = true
		}
		state, progress, changed := j.beatNow()
		if !changed && !asked && time.Since(last) < jobBeatIdle {
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
	}
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
	js.cancels.StopAndWait()
	js.stop(errStopping)
	js.running.Wait()
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

func (j *siteJob) reportNow() sitemap.JobReport {
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
		msg = staleMsg
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

// readersClients are the clients the live-site jobs read the web with:
// reads has two requests for each reader (its file and the next, read
// ahead), so that slow sites of other teams cannot take a reader's
// requests; checks has room for each reader's launch check's requests.
func readersClients(readers int, allowPrivate bool) (reads, checks *fetch.Client) {
	reads = fetch.New(fetch.Options{AllowPrivate: allowPrivate, Allow: allowFlag, Parallel: 2 * readers})
	checks = fetch.New(fetch.Options{AllowPrivate: allowPrivate, Allow: allowFlag, Parallel: launchConcurrency * readers})
	return reads, checks
}
