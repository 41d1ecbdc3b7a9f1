package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/internal/proc"
	"siteplan/site"
	"siteplan/sitemap"
	"siteplan/views"
)

// Reading a live site is work in the background: the sitemaps of a large
// site take minutes. A visitor starts a job, watches its progress (a
// stream of server-sent events) and may cancel it.
//
// The jobs share siteReaders readers. A team reads one site at a time
// and each visitor has one job unfinished at most, so one account cannot
// take every reader; a free reader goes to the waiting job of the team
// that was served longest ago (the order they came breaks ties), so a
// team with many jobs waiting does not hold back one with a single job.
// A job waits at most siteJobWait for its turn and then reads for at
// most siteJobBudget, counted from its turn.
//
// A finished job's report is kept for siteJobKept, within a bound on
// the bytes a team's reports and all reports take (reportTeamBytes,
// reportServerBytes): past either, the oldest reports are let go first.
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
	// jobWatchers streams (tabs) at once.
	jobFrame    = 200 * time.Millisecond
	jobWatchers = 8
	// What the reports kept may take; a report takes 10 MB at most
	// (sitemap.Reading keeps 1,000 rows of clipped strings).
	reportTeamBytes   = 16 << 20
	reportServerBytes = 128 << 20
)

// The states of a live-site job, in the order they come; a job ends
// done, failed or cancelled.
const (
	jobWaiting   = "waiting"
	jobReading   = "reading"
	jobWriting   = "writing"
	jobDone      = "done"
	jobFailed    = "failed"
	jobCancelled = "cancelled"
)

// siteJobs are the live-site jobs of every visitor.
type siteJobs struct {
	log       *slog.Logger
	uploads   string // this server's directory of uploaded files
	readers   int    // how many jobs read at once (set before the first starts)
	wait      time.Duration
	budget    time.Duration
	teamBytes int64 // bounds on the reports kept
	allBytes  int64

	mu      sync.Mutex
	byID    map[string]*siteJob
	queue   []*siteJob      // waiting for a reader, in the order they came
	reading map[int64]bool  // teams reading now
	served  map[int64]int64 // when each team last had a turn (a count of turns)
	turns   int64
	free    int        // readers free
	kept    []*siteJob // finished jobs whose reports are kept, oldest first
	running sync.WaitGroup
	closed  bool
}

func newSiteJobs(log *slog.Logger) *siteJobs {
	js := &siteJobs{log: log, readers: siteReaders, free: siteReaders, wait: siteJobWait, budget: siteJobBudget,
		teamBytes: reportTeamBytes, allBytes: reportServerBytes,
		byID: map[string]*siteJob{}, reading: map[int64]bool{}, served: map[int64]int64{}}
	js.uploads = uploadDir(log)
	return js
}

// siteJob is one reading of a site: a check, or an import into a new
// project as well.
type siteJob struct {
	id     string
	userID int64
	teamID int64
	source string
	upload *upload // the source is a file the visitor sent, removed when the job ends
	isImp  bool
	launch *launchCheck    // a launch check of a plan, not a reading of a site
	budget time.Duration   // how long it may read
	ctx    context.Context // ended by cancel
	cancel context.CancelFunc
	turn   chan struct{} // closed when the job may read

	mu       sync.Mutex
	changed  chan struct{} // closed, and replaced, on each change
	watchers int           // streams open
	state    string        // job* states
	progress sitemap.Progress
	reading  *sitemap.Reading
	excerpts []sitemap.Excerpt // an uploaded file's lines around its problems
	warns    []site.Warning
	plan     views.SitePlan
	err      string
	started  time.Time
	ended    time.Time
	size     int64 // bytes its report keeps, once ended
	dropped  bool  // its report was let go to make room
}

// start registers a job for the viewer of c and runs it in the
// background when its turn comes. Errors: ETooMany (an unfinished job
// of theirs, or the server is shutting down).
func (js *siteJobs) start(c echo.Context, j *siteJob, run func(ctx context.Context, j *siteJob) error) error {
	b := make([]byte, 16)
	rand.Read(b)
	j.id, j.userID, j.teamID, j.state = hex.EncodeToString(b), viewer(c).UserID, viewer(c).Team.ID, jobWaiting
	j.changed, j.turn, j.started = make(chan struct{}), make(chan struct{}), time.Now()
	js.mu.Lock()
	j.budget = js.budget
	for id, o := range js.byID {
		if o.expired() {
			delete(js.byID, id)
		} else if o.userID == j.userID && o.running() {
			js.mu.Unlock()
			return site.Errorf(site.ETooMany, "You are already reading a site or checking one: wait for it to finish, or cancel it, then try again.")
		}
	}
	if js.closed {
		js.mu.Unlock()
		return site.Errorf(site.ETooMany, "The server is shutting down: try again in a moment.")
	}
	j.ctx, j.cancel = context.WithCancel(context.Background())
	js.byID[j.id] = j
	js.queue = append(js.queue, j)
	js.running.Add(1)
	js.dispatch()
	js.mu.Unlock()
	go js.runJob(j, run)
	return nil
}

// runJob waits for j's turn, runs it within its budget and records how
// it ended; however it ends, its upload is removed and its reader freed.
func (js *siteJobs) runJob(j *siteJob, run func(ctx context.Context, j *siteJob) error) {
	defer js.running.Done()
	defer j.cancel()
	if j.upload != nil {
		defer j.upload.remove()
	}
	defer js.leave(j)
	waited := time.NewTimer(js.wait)
	defer waited.Stop()
	select {
	case <-j.turn:
	case <-j.ctx.Done():
		j.finish(j.ctx, j.ctx.Err(), js.log)
		return
	case <-waited.C:
		j.finish(j.ctx, site.Errorf(site.ETooMany, "The server was busy reading other sites for %s: try again later.", js.wait), js.log)
		return
	}
	j.set(func() { j.state = jobReading })
	ctx, cancel := context.WithTimeout(j.ctx, j.budget)
	defer cancel()
	j.finish(ctx, safely(ctx, j, run), js.log)
}

// dispatch gives free readers to waiting jobs: to the job of the team
// served longest ago among the teams not reading now. js.mu is held.
func (js *siteJobs) dispatch() {
	for js.free > 0 {
		at := -1
		for i, j := range js.queue {
			if js.reading[j.teamID] {
				continue
			}
			if at < 0 || js.served[j.teamID] < js.served[js.queue[at].teamID] {
				at = i
			}
		}
		if at < 0 {
			return
		}
		j := js.queue[at]
		js.queue = slices.Delete(js.queue, at, at+1)
		js.free--
		js.turns++
		js.reading[j.teamID], js.served[j.teamID] = true, js.turns
		close(j.turn)
	}
}

// leave takes an ended job out of the queue, or gives its reader to the
// next, and keeps its report within the bounds.
func (js *siteJobs) leave(j *siteJob) {
	js.mu.Lock()
	defer js.mu.Unlock()
	if i := slices.Index(js.queue, j); i >= 0 {
		js.queue = slices.Delete(js.queue, i, i+1)
	} else {
		js.free++
		delete(js.reading, j.teamID)
		js.dispatch()
	}
	if len(js.queue) == 0 && js.free == js.readers {
		clear(js.served) // nobody waits: no turn to be fair about
	}
	js.keep(j)
}

// keep counts j's report among those kept and lets go of older ones,
// oldest first: a team's while its reports take more than teamBytes, and
// anyone's while all take more than allBytes; and those past siteJobKept.
// A job let go of keeps its state and new plan. js.mu is held.
func (js *siteJobs) keep(j *siteJob) {
	j.mu.Lock()
	j.size = reportSize(j)
	j.mu.Unlock()
	kept := append(js.kept, j)
	var all int64
	team := map[int64]int64{}
	for _, k := range kept {
		all += k.size
		team[k.teamID] += k.size
	}
	js.kept = js.kept[:0]
	for _, k := range kept {
		over := team[k.teamID] > js.teamBytes || all > js.allBytes
		if k != j && (over || k.expired()) {
			all -= k.size
			team[k.teamID] -= k.size
			k.set(func() { k.reading, k.excerpts, k.warns, k.size, k.dropped = nil, nil, nil, 0, true })
			continue
		}
		js.kept = append(js.kept, k)
	}
}

// reportSize is what a job's report keeps, in bytes, roughly. j.mu is
// held.
func reportSize(j *siteJob) int64 {
	n := int64(1024)
	if j.reading != nil {
		n += j.reading.Size()
	}
	for _, e := range j.excerpts {
		for _, l := range e.Lines {
			n += int64(len(l)) + 16
		}
	}
	for _, w := range j.warns {
		n += int64(len(w.Reason)) + 32
	}
	return n
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

// stop cancels every job and waits until they have ended, then removes
// the server's uploads.
func (js *siteJobs) stop() {
	js.mu.Lock()
	js.closed = true
	for _, j := range js.byID {
		j.cancel()
	}
	js.mu.Unlock()
	js.running.Wait()
	os.RemoveAll(js.uploads)
}

// get returns the viewer's job the path names. Errors: ENotFound.
func (js *siteJobs) get(c echo.Context) (*siteJob, error) {
	js.mu.Lock()
	defer js.mu.Unlock()
	j := js.byID[c.Param("jid")]
	if j == nil || j.userID != viewer(c).UserID || j.expired() {
		return nil, site.Errorf(site.ENotFound, "No such reading: its report is kept for an hour.")
	}
	return j, nil
}

// launchOf returns the newest launch check of project projectID the
// user started, while it is kept; nil if none.
func (js *siteJobs) launchOf(userID, projectID int64) *siteJob {
	js.mu.Lock()
	defer js.mu.Unlock()
	var newest *siteJob
	for _, j := range js.byID {
		if j.launch != nil && j.userID == userID && j.launch.projectID == projectID && !j.expired() && (newest == nil || j.started.After(newest.started)) {
			newest = j
		}
	}
	return newest
}

// endedAfter reports whether the job ended after t.
func (j *siteJob) endedAfter(t time.Time) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.ended.After(t)
}

// page is where the job is shown.
func (j *siteJob) page() string {
	if j.launch != nil {
		return projectPath(j.launch.projectID, "launch")
	}
	return "/sites/jobs/" + j.id
}

// running reports whether the job has not ended.
func (j *siteJob) running() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.ended.IsZero()
}

// expired reports whether the job ended more than siteJobKept ago.
func (j *siteJob) expired() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return !j.ended.IsZero() && time.Since(j.ended) > siteJobKept
}

// set changes the job under its lock and wakes its streams.
func (j *siteJob) set(fn func()) {
	j.mu.Lock()
	defer j.mu.Unlock()
	fn()
	close(j.changed)
	j.changed = make(chan struct{})
}

// changes returns a channel closed at the job's next change.
func (j *siteJob) changes() <-chan struct{} {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.changed
}

// watch counts a stream in (+1) or out (-1); it refuses one past
// jobWatchers.
func (j *siteJob) watch(d int) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	if d > 0 && j.watchers >= jobWatchers {
		return false
	}
	j.watchers += d
	return true
}

// finish records how the job ended: ctx is the one it read with, whose
// deadline is the reading's budget.
func (j *siteJob) finish(ctx context.Context, err error, log *slog.Logger) {
	var ue *sitemap.UnreadableError
	state, msg := jobFailed, ""
	switch {
	case err == nil:
		state = jobDone
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		msg = "The reading took longer than " + j.budget.String() + " and was stopped; the siteplan check and import commands have no such limit."
		if j.launch != nil {
			msg = "The check took longer than " + j.budget.String() + " and was stopped; the siteplan verify command has no such limit."
		}
	case errors.Is(err, context.Canceled):
		state, msg = jobCancelled, "Cancelled."
	case errors.As(err, &ue) || site.ErrorCode(err) != site.EInternal:
		msg = err.Error()
	default:
		msg = site.ErrorMessage(err)
		log.Error("live-site reading failed", "source", j.source, "err", err)
	}
	if err != nil && j.isImp {
		msg += " Nothing was imported."
	}
	j.set(func() { j.state, j.err, j.ended = state, msg, time.Now() })
}

// upload is a sitemap file a visitor sent, kept in a file of the
// server's upload directory until its job ends, however it ends: a
// waiting job holds no upload in memory.
type upload struct {
	name string // the file's own name, without a path
	f    *os.File
}

func (u *upload) remove() {
	u.f.Close()
	os.Remove(u.f.Name())
}

// uploadsRoot holds a directory of uploads for each server running,
// named after its process ("PID-random").
func uploadsRoot() string { return filepath.Join(os.TempDir(), "siteplan-uploads") }

// uploadDir names this server's directory of uploads, after removing
// those that servers no longer running left behind (a crash, a kill),
// and the files of versions that kept uploads in the temporary directory
// itself.
func uploadDir(log *slog.Logger) string {
	root := uploadsRoot()
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if n := proc.TagPID(e.Name()); n == 0 || n != os.Getpid() && !proc.Alive(n) {
			if err := os.RemoveAll(filepath.Join(root, e.Name())); err != nil {
				log.Warn("could not remove an old upload", "path", e.Name(), "err", err)
			}
		}
	}
	old, _ := filepath.Glob(filepath.Join(os.TempDir(), "siteplan-upload-*"))
	for _, f := range old {
		os.Remove(f)
	}
	return filepath.Join(root, proc.Tag()) // made by the first upload (keepUpload)
}
