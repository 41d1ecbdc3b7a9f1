package web

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"os"
	"path"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/sitemap"
	"siteplan/views"
)

// siteStore is what a new project from a live site needs.
type siteStore interface {
	ImportPages(ctx context.Context, teamID int64, p site.Project, pages iter.Seq2[int, site.Page]) (int64, error)
}

// Reading a live site is work in the background: the sitemaps of a large
// site take minutes. A visitor starts a job, watches its progress (a
// stream of server-sent events) and may cancel it. Jobs take their turn
// one at a time, each within siteJobBudget, a visitor has one unfinished
// at most, and a finished job's report is kept for siteJobKept.
const (
	siteJobBudget = 10 * time.Minute
	siteJobKept   = time.Hour
	// The most URLs a job reads: a plan of 250,000 pages takes some
	// 100 MB while it is made; the siteplan import command has no such
	// bound. A check keeps 8 bytes a URL.
	siteImportURLs = 250_000
	siteCheckURLs  = 2_000_000
	// siteUploadBytes bounds an uploaded sitemap (gzipped or not).
	siteUploadBytes = 64 << 20
	// A job's progress is sent at most every jobFrame, to at most
	// jobWatchers streams (tabs) at once.
	jobFrame    = 200 * time.Millisecond
	jobWatchers = 8
)

// siteJobs are the live-site jobs of every visitor.
type siteJobs struct {
	log     *slog.Logger
	mu      sync.Mutex
	byID    map[string]*siteJob
	turn    chan struct{} // a token for the job reading
	running sync.WaitGroup
	closed  bool
}

func newSiteJobs(log *slog.Logger) *siteJobs {
	return &siteJobs{log: log, byID: map[string]*siteJob{}, turn: make(chan struct{}, 1)}
}

// siteJob is one reading of a site: a check, or an import into a new
// project as well.
type siteJob struct {
	id     string
	userID int64
	teamID int64
	source string
	upload bool // the source is a file the visitor sent
	isImp  bool
	cancel context.CancelFunc

	mu       sync.Mutex
	changed  chan struct{} // closed, and replaced, on each change
	watchers int           // streams open
	state    string        // views.Job* states
	progress sitemap.Progress
	reading  *sitemap.Reading
	excerpts []sitemap.Excerpt // an uploaded file's lines around its problems
	warns    []sitemap.Warning
	plan     views.SitePlan
	err      string
	ended    time.Time
}

// start registers a job for the viewer of c and runs it in the
// background. Errors: ETooMany (an unfinished job of theirs).
func (js *siteJobs) start(c echo.Context, j *siteJob, run func(ctx context.Context, j *siteJob) error) error {
	b := make([]byte, 16)
	rand.Read(b)
	j.id, j.userID, j.teamID, j.state = hex.EncodeToString(b), viewer(c).UserID, viewer(c).Team.ID, views.JobWaiting
	j.changed = make(chan struct{})
	js.mu.Lock()
	for id, o := range js.byID {
		if o.expired() {
			delete(js.byID, id)
		} else if o.userID == j.userID && o.running() {
			js.mu.Unlock()
			return site.Errorf(site.ETooMany, "You are already reading a site: wait for it to finish, or cancel it, then try again.")
		}
	}
	if js.closed {
		js.mu.Unlock()
		return site.Errorf(site.ETooMany, "The server is shutting down: try again in a moment.")
	}
	ctx, cancel := context.WithTimeout(context.Background(), siteJobBudget)
	j.cancel = cancel
	js.byID[j.id] = j
	js.running.Add(1)
	js.mu.Unlock()
	go func() {
		defer js.running.Done()
		defer cancel()
		err := js.wait(ctx, j)
		if err == nil {
			err = safely(ctx, j, run)
			<-js.turn
		}
		j.finish(ctx, err, js.log)
	}()
	return nil
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

// stop cancels every job and waits until they have ended.
func (js *siteJobs) stop() {
	js.mu.Lock()
	js.closed = true
	for _, j := range js.byID {
		j.cancel()
	}
	js.mu.Unlock()
	js.running.Wait()
}

// wait waits for the job's turn.
func (js *siteJobs) wait(ctx context.Context, j *siteJob) error {
	select {
	case js.turn <- struct{}{}:
		j.set(func() { j.state = views.JobReading })
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
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

// onWeb reports whether file n of the job's reading is on the web, to be
// read again: all but an uploaded file, the first, whose lines around
// its problems are kept instead (keepExcerpts).
func (j *siteJob) onWeb(n int) bool { return !j.upload || n > 0 }

// linesAround is how many lines before and after a problem's line its
// page shows.
const linesAround = 6

// keepExcerpts keeps the lines around the problems of an uploaded file,
// file 0 of the reading, for the report's line links: the file itself
// goes when its reading ends.
func (j *siteJob) keepExcerpts(f *os.File, rep *sitemap.Reading) {
	if rep == nil || len(rep.Files) == 0 {
		return
	}
	var lines []int
	for _, p := range rep.Files[0].Problems {
		if p.Line > 0 {
			lines = append(lines, p.Line)
		}
	}
	if len(lines) == 0 {
		return
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return
	}
	ex, _ := sitemap.Excerpts(f, lines, linesAround) // what was read before an error is still worth showing
	j.set(func() { j.excerpts = ex })
}

// excerpt returns the lines of file n around line: read again from the
// web, within the heavy-work budget, or kept from an upload. Errors:
// ENotFound, EInvalid (the file cannot be read again).
func (s *Server) excerpt(c echo.Context, j *siteJob, n, line int) (loc string, ex sitemap.Excerpt, err error) {
	j.mu.Lock()
	rep, kept := j.reading, j.excerpts
	j.mu.Unlock()
	if rep == nil || n < 0 || n >= len(rep.Files) {
		return "", ex, site.Errorf(site.ENotFound, "No such file in this reading.")
	}
	loc = cmp.Or(rep.Files[n].Final, rep.Files[n].Loc)
	if !j.onWeb(n) {
		for _, e := range kept {
			if e.Line == line {
				return loc, e, nil
			}
		}
		return "", ex, site.Errorf(site.ENotFound, "Only the lines of the problems in an uploaded file are kept.")
	}
	ctx, done, err := s.heavyTurn(c, readBudget)
	if err != nil {
		return "", ex, err
	}
	defer done()
	body, _, err := s.fetch.Open(ctx, loc)
	if err != nil {
		return "", ex, site.Errorf(site.EInvalid, "%s could not be read again: %s", loc, err.Error())
	}
	defer body.Close()
	exs, err := sitemap.Excerpts(body, []int{line}, linesAround)
	if err != nil {
		return "", ex, site.Errorf(site.EInvalid, "%s could not be read again: %s", loc, err.Error())
	}
	return loc, exs[0], nil
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

// finish records how the job ended.
func (j *siteJob) finish(ctx context.Context, err error, log *slog.Logger) {
	var ue *sitemap.UnreadableError
	state, msg := views.JobFailed, ""
	switch {
	case err == nil:
		state = views.JobDone
	case errors.Is(err, context.Canceled):
		state, msg = views.JobCancelled, "Cancelled."
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		msg = "The reading took longer than " + siteJobBudget.String() + " and was stopped; the siteplan check and import commands have no such limit."
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

// view is the job as the page shows it.
func (j *siteJob) view() views.SiteJob {
	j.mu.Lock()
	defer j.mu.Unlock()
	v := views.SiteJob{ID: j.id, Source: j.source, Import: j.isImp, State: j.state, Error: j.err,
		Files: j.progress.Files, Listed: j.progress.Listed, URLs: j.progress.URLs, Plan: j.plan}
	for _, w := range j.warns {
		v.Notes = append(v.Notes, w.Reason)
	}
	if j.reading != nil && j.state != views.JobReading && j.state != views.JobWaiting {
		v.Report = reportView(j.reading, j.onWeb)
	}
	return v
}

// reportView turns a reading into the report the page shows.
func reportView(r *sitemap.Reading, onWeb func(file int) bool) *views.SiteReport {
	rep := &views.SiteReport{Robots: r.Robots, URLs: r.URLs, Errors: r.Errors(), Warnings: r.Warnings()}
	for i, f := range r.Files {
		vf := views.SiteFile{N: i, Loc: f.Loc, Final: f.Final, From: f.From, Kind: f.Kind, Gzip: f.Gzip,
			Bytes: f.Bytes, URLs: f.URLs, Error: f.Err, OnWeb: onWeb(i)}
		for _, p := range f.Problems {
			vf.Problems = append(vf.Problems, views.SiteProblem{Rule: p.Rule, Error: p.Error, Line: p.Line, Count: p.Count, Msg: p.Msg})
		}
		rep.Files = append(rep.Files, vf)
	}
	return rep
}

func (s *Server) sitesPage(c echo.Context) error {
	return render(c, http.StatusOK, views.SitesPage(views.SitesProps{Layout: s.layout(c, "Live sites")}))
}

// checkSite starts a check of the site or sitemap URL the form names.
func (s *Server) checkSite(c echo.Context) error {
	src := strings.TrimSpace(c.FormValue("source"))
	if src == "" {
		return site.Errorf(site.EInvalid, "Enter a site (example.com) or the URL of a sitemap to check.")
	}
	j := &siteJob{source: src}
	return s.startSiteJob(c, j, func(ctx context.Context, j *siteJob) error {
		rep, err := s.siteReader(j, siteCheckURLs).Read(ctx, src, nil)
		j.set(func() { j.reading = rep })
		return err
	})
}

// importSite starts reading a site, its sitemap or an uploaded file into
// a new project of the viewer's team.
func (s *Server) importSite(c echo.Context) error {
	src := strings.TrimSpace(c.FormValue("source"))
	upload, err := keepUpload(c)
	if err != nil {
		return err
	}
	if upload != nil {
		src = upload.name
	}
	if src == "" {
		return site.Errorf(site.EInvalid, "Enter the site (example.com) or a sitemap URL, or choose a sitemap file (.xml, .xml.gz, .txt, .csv).")
	}
	name := strings.TrimSpace(c.FormValue("name"))
	j := &siteJob{source: src, upload: upload != nil, isImp: true}
	err = s.startSiteJob(c, j, func(ctx context.Context, j *siteJob) error {
		pl := sitemap.NewPlanner()
		found := func(_ *sitemap.SourceFile, u *sitemap.Found) error { return pl.Add(u) }
		rd := s.siteReader(j, siteImportURLs)
		var rep *sitemap.Reading
		var err error
		if upload != nil {
			defer upload.remove()
			rep, err = rd.ReadUpload(ctx, src, upload.f, found)
			j.keepExcerpts(upload.f, rep)
		} else {
			rep, err = rd.Read(ctx, src, found)
		}
		j.set(func() { j.reading = rep })
		if err != nil {
			return err
		}
		plan, warns, err := pl.Plan(name)
		if err != nil {
			return err
		}
		j.set(func() { j.state, j.warns = views.JobWriting, warns })
		sp := views.SitePlan{Name: plan.Project.Name, BaseURL: plan.Project.BaseURL}
		id, err := s.store.ImportPages(ctx, j.teamID, plan.Project, countPages(plan.Pages(), &sp))
		if err != nil {
			return err
		}
		sp.ProjectID = id
		j.set(func() { j.plan = sp })
		return nil
	})
	if err != nil && upload != nil { // the job did not start
		upload.remove()
	}
	return err
}

// upload is a sitemap file a visitor sent, kept in a temporary file
// until its reading is over: a queued reading holds no upload in memory.
type upload struct {
	name string // the file's own name, without a path
	f    *os.File
}

// keepUpload keeps the form's file, if any. Errors: ETooLarge.
func keepUpload(c echo.Context) (*upload, error) {
	fh, err := c.FormFile("file")
	if err != nil || fh.Size == 0 {
		return nil, nil
	}
	in, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer in.Close()
	f, err := os.CreateTemp("", "siteplan-upload-*")
	if err != nil {
		return nil, err
	}
	u := &upload{name: path.Base(fh.Filename), f: f}
	n, err := io.Copy(f, io.LimitReader(in, siteUploadBytes+1))
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err == nil && n > siteUploadBytes {
		err = site.Errorf(site.ETooLarge, "The file is larger than %d MB: gzip it, or import it with the siteplan import command.", siteUploadBytes>>20)
	}
	if err != nil {
		u.remove()
		return nil, err
	}
	return u, nil
}

func (u *upload) remove() {
	u.f.Close()
	os.Remove(u.f.Name())
}

// countPages passes pages on, counting them and the sections below the
// home page into sp as they go.
func countPages(pages iter.Seq2[int, site.Page], sp *views.SitePlan) iter.Seq2[int, site.Page] {
	return func(yield func(int, site.Page) bool) {
		for depth, p := range pages {
			sp.Pages++
			if p.Kind == site.KindGroup {
				sp.Groups++
			}
			if depth == 2 {
				sp.Sections = append(sp.Sections, views.SiteSection{Title: p.Title})
			}
			if depth > 2 && len(sp.Sections) > 0 {
				sp.Sections[len(sp.Sections)-1].Pages++
			}
			if !yield(depth, p) {
				return
			}
		}
	}
}

// siteReader reads for job j from the web, never from this machine's
// files, up to maxURLs, holds every URL to the protocol's rules and
// reports its progress to j.
func (s *Server) siteReader(j *siteJob, maxURLs int) *sitemap.Reader {
	return &sitemap.Reader{Web: s.fetch.Open, Check: true, MaxURLs: maxURLs, Progress: func(p sitemap.Progress) {
		j.set(func() { j.progress = p })
	}}
}

// startSiteJob starts j and sends the visitor to its page.
func (s *Server) startSiteJob(c echo.Context, j *siteJob, run func(ctx context.Context, j *siteJob) error) error {
	if err := s.siteJobs.start(c, j, run); err != nil {
		return err
	}
	return redirect(c, "/sites/jobs/"+j.id)
}

func (s *Server) siteJobPage(c echo.Context) error {
	j, err := s.siteJobs.get(c)
	if err != nil {
		return err
	}
	v := j.view()
	title := "Check of " + v.Source
	if v.Import {
		title = "Import of " + v.Source
	}
	return render(c, http.StatusOK, views.SiteJobPage(s.layout(c, title), v))
}

// siteJobEvents streams the job's status as its page shows it
// (server-sent events): at once, then as it changes, at most every
// jobFrame; a "status" event while the job runs, an "end" event when it
// has ended, and the stream with it. It ends too when the visitor's
// session does.
func (s *Server) siteJobEvents(c echo.Context) error {
	j, err := s.siteJobs.get(c)
	if err != nil {
		return err
	}
	if !j.watch(1) {
		return site.Errorf(site.ETooMany, "This reading is open in too many tabs of your browser: close some and reload.")
	}
	defer j.watch(-1)
	sub := &subscriber{}
	if ck, err := c.Cookie(sessionCookie); err == nil {
		sub.session = ck.Value
	}
	w := openStream(c)
	ctx := c.Request().Context()
	var buf bytes.Buffer
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		changed := j.changes()
		v := j.view()
		event, frame := "status", views.SiteJobProgress(v)
		if !v.Running() {
			event, frame = "end", views.SiteJobStatus(v)
		}
		buf.Reset()
		if err := frame.Render(ctx, &buf); err != nil {
			return nil
		}
		if _, err := w.Write(htmlEvent(event, buf.Bytes())); err != nil || event == "end" {
			return nil
		}
		w.Flush()
		select { // the next frame no sooner than jobFrame from now
		case <-ctx.Done():
			return nil
		case <-time.After(jobFrame):
		}
	wait:
		for {
			select {
			case <-ctx.Done():
				return nil
			case <-changed:
				break wait
			case <-tick.C:
				if !s.beat(ctx, w, sub) {
					return nil
				}
			}
		}
		if !s.stillAllowed(ctx, sub) {
			return nil
		}
	}
}

// htmlEvent is a server-sent event whose data is an HTML fragment, a
// data line for each of its lines. A carriage return, which would end a
// line too, is sent as the character reference it may be written as in
// text and attribute values alike.
func htmlEvent(event string, html []byte) []byte {
	b := append([]byte("event: "+event+"\n"), "data: "...)
	for _, c := range html {
		switch c {
		case '\n':
			b = append(b, "\ndata: "...)
		case '\r':
			b = append(b, "&#13;"...)
		default:
			b = append(b, c)
		}
	}
	return append(b, "\n\n"...)
}

func (s *Server) cancelSiteJob(c echo.Context) error {
	j, err := s.siteJobs.get(c)
	if err != nil {
		return err
	}
	j.cancel()
	return redirect(c, "/sites/jobs/"+j.id)
}

// siteFileLines shows the lines of a file of a job's reading around the
// line a problem is on.
func (s *Server) siteFileLines(c echo.Context) error {
	j, err := s.siteJobs.get(c)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil {
		return site.Errorf(site.ENotFound, "No such file in this reading.")
	}
	line, _ := strconv.Atoi(c.QueryParam("line"))
	loc, ex, err := s.excerpt(c, j, n, line)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.SiteLinesPage(s.layout(c, "Line "+strconv.Itoa(line)), views.SiteLines{
		JobID: j.id, Loc: loc, OnWeb: j.onWeb(n), Line: line, First: ex.First, Lines: ex.Lines}))
}
