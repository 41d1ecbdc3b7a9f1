package web

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"iter"
	"net/http"
	"os"
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

// siteStore is what a new project from a live site needs.
type siteStore interface {
	ImportPages(ctx context.Context, teamID int64, p site.Project, pages iter.Seq2[int, site.Page]) (int64, error)
}

// onWeb reports whether file n of the job's reading is on the web, to be
// read again: all but an uploaded file, the first, whose lines around
// its problems are kept instead (keepExcerpts).
func (j *siteJob) onWeb(n int) bool { return j.upload == nil || n > 0 }

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
	exs, err := sitemap.Excerpts(body, []int{line}, linesAround)
	if err != nil {
		return "", ex, site.Errorf(site.EInvalid, "%s could not be read again: %s", loc, err.Error())
	}
	return loc, exs[0], nil
}

// view is the job as the page shows it, with page (from 1) of its
// report.
func (j *siteJob) view(page int) views.SiteJob {
	j.mu.Lock()
	defer j.mu.Unlock()
	v := views.SiteJob{ID: j.id, Source: j.source, Import: j.isImp, State: j.state, Error: j.err,
		Running: j.state == jobWaiting || j.state == jobReading || j.state == jobWriting,
		Waiting: j.state == jobWaiting, Writing: j.state == jobWriting, Done: j.state == jobDone,
		Files: j.progress.Files, Listed: j.progress.Listed, URLs: j.progress.URLs, Plan: j.plan, Dropped: j.dropped}
	for _, w := range j.warns {
		v.Notes = append(v.Notes, w.Reason)
	}
	if j.reading != nil && j.state != jobReading && j.state != jobWaiting {
		v.Report = reportView(j.reading, j.onWeb, page)
	}
	return v
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
	name := strings.TrimSpace(c.FormValue("name"))
	if msg := site.ProjectNameProblem("The project name", name); name != "" && msg != "" { // before a reading of minutes, not after
		return &site.Error{Code: site.EInvalid, Message: msg, Fields: map[string]string{"name": msg}}
	}
	upload, err := keepUpload(c, s.siteJobs.uploads)
	if err != nil {
		return err
	}
	if upload != nil {
		src = upload.name
	}
	if src == "" {
		return site.Errorf(site.EInvalid, "Enter the site (example.com) or a sitemap URL, or choose a sitemap file (.xml, .xml.gz, .txt, .csv).")
	}
	j := &siteJob{source: src, upload: upload, isImp: true}
	err = s.startSiteJob(c, j, func(ctx context.Context, j *siteJob) error {
		var file io.Reader
		if upload != nil {
			file = upload.f
		}
		rep, plan, warns, err := s.siteReader(j, siteImportURLs).ReadPlan(ctx, src, file, name)
		if upload != nil {
			j.keepExcerpts(upload.f, rep)
		}
		j.set(func() { j.reading = rep })
		if err != nil {
			return err
		}
		j.set(func() { j.state, j.warns = jobWriting, warns })
		sp := views.SitePlan{Name: plan.Project.Name, BaseURL: plan.Project.BaseURL}
		id, err := s.store.sites.ImportPages(ctx, j.teamID, plan.Project, countPages(plan.Pages(), &sp))
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

// keepUpload keeps the form's file, if any, in dir. Errors: ETooLarge.
func keepUpload(c echo.Context, dir string) (*upload, error) {
	fh, err := c.FormFile("file")
	if err != nil || fh.Size == 0 {
		return nil, nil
	}
	in, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer in.Close()
	if err := os.MkdirAll(dir, 0o700); err != nil { // a cleaner of the temporary directory may have removed it
		return nil, err
	}
	f, err := os.CreateTemp(dir, "upload-*")
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

// countPages passes pages on, counting them and the sections below the
// home page into sp as they go.
func countPages(pages iter.Seq2[int, site.Page], sp *views.SitePlan) iter.Seq2[int, site.Page] {
	return func(yield func(int, site.Page) bool) {
		for depth, p := range pages {
			sp.Pages++
			if p.Kind == site.KindGroup {
				sp.Groups++
			}
			switch {
			case depth == 2 && len(sp.Sections) < views.MaxSections:
				sp.Sections = append(sp.Sections, views.SiteSection{Title: p.Title})
			case depth == 2:
				sp.More++
			case depth > 2 && sp.More == 0 && len(sp.Sections) > 0:
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
	if j.launch != nil {
		return redirect(c, j.page())
	}
	page, _ := strconv.Atoi(c.QueryParam("page"))
	v := j.view(page)
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
		event, frame := j.frame()
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

// frame is the job's state as its stream sends it: a "status" event
// while it runs, an "end" event once it has ended.
func (j *siteJob) frame() (string, templ.Component) {
	if j.launch != nil {
		v := j.launchView()
		if v.Running {
			return "status", views.LaunchProgress(v)
		}
		return "end", views.LaunchEnd(j.launch.projectID, v)
	}
	v := j.view(1)
	if v.Running {
		return "status", views.SiteJobProgress(v)
	}
	return "end", views.SiteJobStatus(v)
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
	return redirect(c, j.page())
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
