package web

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/sitemap"
	"siteplan/views"
)

// onWeb reports whether file n of job j's reading is on the web, to be
// read again: all but an uploaded file, the first, whose lines around
// its problems are kept instead (package jobs keeps them).
func onWeb(j site.Job) func(n int) bool { return func(n int) bool { return !j.Upload || n > 0 } }

// Reading a file again for the lines around a problem takes one of
// linesReaders places, one a visitor, for at most linesBudget: outside
// the heavy-work gate, which a slow site would otherwise hold for other
// teams' downloads.
const (
	linesReaders = 4
	linesBudget  = 10 * time.Second
)

// excerpt returns the lines of file n around line: read again from the
// web, or kept from an upload. Errors: ENotFound, ETooMany, EInvalid (the
// file cannot be read again).
func (s *Server) excerpt(c echo.Context, j site.Job, n, line int) (loc string, ex sitemap.Excerpt, err error) {
	var r sitemap.JobReport
	if err := unmarshalIf(j.Report, &r); err != nil {
		return "", ex, err
	}
	rep := r.Reading
	if rep == nil || n < 0 || n >= len(rep.Files) {
		return "", ex, site.Errorf(site.ENotFound, "No such file in this reading.")
	}
	loc = cmp.Or(rep.Files[n].Final, rep.Files[n].Loc)
	if !onWeb(j)(n) {
		for _, e := range r.Excerpts {
			if e.Line == line {
				return loc, e, nil
			}
		}
		return "", ex, site.Errorf(site.ENotFound, "Only the lines of the problems in an uploaded file are kept.")
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), linesBudget)
	defer cancel()
	done, err := s.linesIn.enter(ctx, who(c))
	if err != nil {
		return "", ex, site.Errorf(site.ETooMany, "Lines of your other files are being read: wait for them, then try again.")
	}
	defer done()
	body, _, err := s.lines.Open(ctx, loc)
	if err != nil {
		return "", ex, site.Errorf(site.EInvalid, "%s could not be read again: %s", loc, err.Error())
	}
	defer body.Close()
	exs, err := sitemap.Excerpts(body, []int{line}, sitemap.LinesAround)
	if err != nil {
		return "", ex, site.Errorf(site.EInvalid, "%s could not be read again: %s", loc, err.Error())
	}
	return loc, exs[0], nil
}

// jobView is job j as the page shows it, with page (from 1) of its
// report if it was read with it. Errors: EInternal (what the database
// keeps does not decode).
func jobView(j site.Job, page int) (views.SiteJob, error) {
	var pr sitemap.JobProgress
	var r sitemap.JobReport
	if err := unmarshalIf(j.Progress, &pr); err != nil {
		return views.SiteJob{}, err
	}
	if err := unmarshalIf(j.Report, &r); err != nil {
		return views.SiteJob{}, err
	}
	v := views.SiteJob{ID: j.ID, Source: j.Source, Import: j.Kind == site.JobImport, Attach: j.Kind == site.JobAttach, State: j.State, Error: j.Error,
		Running: j.Running(), Waiting: j.State == site.JobWaiting, Writing: j.State == site.JobWriting, Done: j.State == site.JobDone,
		Files: pr.Files, Listed: pr.Listed, URLs: pr.URLs, Dropped: j.Dropped}
	if pr.Plan != nil {
		v.Plan = *pr.Plan
	}
	if a := pr.Attached; a != nil {
		v.Attached = &views.SiteAttach{Path: attachedPath(j.ProjectID, a.AttachReport), URLs: a.URLs}
	}
	for _, w := range r.Warns {
		v.Notes = append(v.Notes, w.Reason)
	}
	if r.Reading != nil && !j.Running() {
		v.Report = reportView(r.Reading, onWeb(j), page)
	}
	return v, nil
}

// unmarshalIf decodes b into v, if there is b.
func unmarshalIf(b []byte, v any) error {
	if len(b) == 0 {
		return nil
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("a live-site job's record: %w", err)
	}
	return nil
}

// reportView turns a reading into page (from 1) of the report the page
// shows: its counts, and the rows of ReportRows files.
func reportView(r *sitemap.Reading, onWeb func(file int) bool, page int) *views.SiteReport {
	rep := &views.SiteReport{Robots: r.Robots, RobotsNote: r.RobotsNote, URLs: r.URLs, Errors: r.Errors(), Warnings: r.Warnings(),
		Rows: len(r.Files), Unread: r.Unread, Pages: max(1, (len(r.Files)+views.ReportRows-1)/views.ReportRows)}
	rep.Page = min(max(page, 1), rep.Pages)
	from := (rep.Page - 1) * views.ReportRows
	for i, f := range r.Files[from:min(from+views.ReportRows, len(r.Files))] {
		vf := views.SiteFile{N: from + i, Loc: f.Loc, Final: f.Final, From: f.From, Kind: f.Kind, Gzip: f.Gzip,
			Bytes: f.Bytes, URLs: f.URLs, Error: f.Err, OnWeb: onWeb(from + i)}
		for _, p := range f.Problems {
			vf.Problems = append(vf.Problems, views.SiteProblem{Rule: p.Rule, Error: p.Error, Line: p.Line, Count: p.Count, Msg: p.Msg, Also: p.Also})
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
	return s.startSiteJob(c, site.Job{Kind: site.JobCheck, Source: src}, nil)
}

// importSite starts reading a site, its sitemap or an uploaded file into
// a new project of the viewer's team.
func (s *Server) importSite(c echo.Context) error {
	src := strings.TrimSpace(c.FormValue("source"))
	name := strings.TrimSpace(c.FormValue("name"))
	if msg := site.ProjectNameProblem("The project name", name); name != "" && msg != "" { // before a reading of minutes, not after
		return &site.Error{Code: site.EInvalid, Message: msg, Fields: map[string]string{"name": msg}}
	}
	file, fileName, err := formUpload(c)
	if err != nil {
		return err
	}
	if file != nil {
		defer file.Close()
		src = fileName
	}
	if src == "" {
		return site.Errorf(site.EInvalid, "Enter the site (example.com) or a sitemap URL, or choose a sitemap file (.xml, .xml.gz, .txt, .csv).")
	}
	return s.startSiteJob(c, site.Job{Kind: site.JobImport, Source: src, Name: name}, file)
}

// formUpload opens the form's file, if any, and names it. Errors:
// ETooLarge.
func formUpload(c echo.Context) (io.ReadCloser, string, error) {
	fh, err := c.FormFile("file")
	if err != nil || fh.Size == 0 {
		return nil, "", nil
	}
	if fh.Size > siteUploadBytes {
		return nil, "", site.Errorf(site.ETooLarge, "The file is larger than %d MB: gzip it, or import it with the siteplan import command.", siteUploadBytes>>20)
	}
	f, err := fh.Open()
	return f, path.Base(fh.Filename), err
}

func (s *Server) siteJobPage(c echo.Context) error {
	j, err := s.siteJob(c, true)
	if err != nil {
		return err
	}
	if j.Kind == site.JobLaunch {
		return redirect(c, jobPage(j))
	}
	page, _ := strconv.Atoi(c.QueryParam("page"))
	v, err := jobView(j, page)
	if err != nil {
		return err
	}
	title := "Check of " + v.Source
	switch {
	case v.Import:
		title = "Import of " + v.Source
	case v.Attach:
		title = "Old site from " + v.Source
	}
	return render(c, http.StatusOK, views.SiteJobPage(s.layout(c, title), v))
}

// siteJobEvents streams the job's status as its page shows it
// (server-sent events): at once, then as it changes, at most every
// jobFrame; a "status" event while the job runs, an "end" event when it
// has ended, and the stream with it. It looks at the job when a job of
// this server changes, and every jobPoll for one another server runs.
// It ends too when the visitor's session does.
func (s *Server) siteJobEvents(c echo.Context) error {
	j, err := s.siteJob(c, false)
	if err != nil {
		return err
	}
	if !s.watchers.watch(j.ID, 1) {
		return site.Errorf(site.ETooMany, "This reading is open in too many tabs of your browser: close some and reload.")
	}
	defer s.watchers.watch(j.ID, -1)
	sub := &subscriber{}
	if ck, err := c.Cookie(sessionCookie); err == nil {
		sub.session = ck.Value
	}
	w := openStream(c)
	ctx := c.Request().Context()
	var buf bytes.Buffer
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	poll := time.NewTicker(jobPoll)
	defer poll.Stop()
	sent := ""
	for {
		bell := s.store.jobs.Changed()
		if j, err = s.store.jobs.Job(ctx, j.ID, false); err != nil {
			return nil // deleted, or the stream has ended
		}
		if now := j.State + j.Error + string(j.Progress); now != sent {
			sent = now
			event, frame, err := s.jobFrame(ctx, j)
			buf.Reset()
			if err != nil || frame.Render(ctx, &buf) != nil {
				return nil
			}
			if _, err := w.Write(sseFrame(event, buf.Bytes())); err != nil || event == "end" {
				return nil
			}
			w.Flush()
			select { // the next frame no sooner than jobFrame from now
			case <-ctx.Done():
				return nil
			case <-time.After(jobFrame):
			}
		}
	wait:
		for {
			select {
			case <-ctx.Done():
				return nil
			case <-bell:
				break wait
			case <-poll.C:
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

// jobFrame is job j's state as its stream sends it: a "status" event
// while it runs, an "end" event once it has ended.
func (s *Server) jobFrame(ctx context.Context, j site.Job) (string, templ.Component, error) {
	if j.Kind == site.JobLaunch {
		v, err := launchView(j)
		if err != nil || v.Running {
			return "status", views.LaunchProgress(v), err
		}
		return "end", views.LaunchEnd(j.ProjectID, v), nil
	}
	if !j.Running() { // with its report
		var err error
		if j, err = s.store.jobs.Job(ctx, j.ID, true); err != nil {
			return "", nil, err
		}
	}
	v, err := jobView(j, 1)
	if err != nil || v.Running {
		return "status", views.SiteJobProgress(v), err
	}
	return "end", views.SiteJobStatus(v), nil
}

func (s *Server) cancelSiteJob(c echo.Context) error {
	j, err := s.siteJob(c, false)
	if err != nil {
		return err
	}
	if _, err := s.store.jobs.CancelJob(c.Request().Context(), j.ID, j.UserID); err != nil {
		return err
	}
	return redirect(c, jobPage(j))
}

// siteFileLines shows the lines of a file of a job's reading around the
// line a problem is on.
func (s *Server) siteFileLines(c echo.Context) error {
	j, err := s.siteJob(c, true)
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
		JobID: j.ID, Loc: loc, OnWeb: onWeb(j)(n), Line: line, First: ex.First, Lines: ex.Lines}))
}
