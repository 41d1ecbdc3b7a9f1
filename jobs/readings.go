package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"strings"

	"siteplan/fetch"
	"siteplan/site"
	"siteplan/sitemap"
	"siteplan/verify"
)

// What the live-site jobs do: check a site, import it into a new plan,
// read a relaunch's old site into its plan's redirect map, check the
// built site against its plan (the launch check).

// The stores the jobs' work reads and writes.
type (
	importStore interface {
		ImportPages(ctx context.Context, teamID int64, p site.Project, pages iter.Seq2[int, site.Page]) (int64, error)
	}
	treeStore interface {
		Tree(ctx context.Context, projectID int64) (*site.Tree, error)
	}
	attachStore interface {
		AttachOldSite(ctx context.Context, projectID int64, olds []site.OldPage, proposed []site.Mapping) (site.AttachReport, error)
	}
	launchStore interface {
		PlanAt(ctx context.Context, projectID int64, number int) (site.Version, *site.Tree, []site.OldURL, error)
		SaveLaunchCheck(ctx context.Context, c site.LaunchCheck) (site.LaunchCheck, error)
	}
)

const (
	// launchConcurrency is the requests a check makes at once, on a
	// client of its own with room for every reader's check: a polite
	// load on the site, and no check waits on another's requests.
	launchConcurrency = 4
	// launchProblemsKept is how many problems a kept check lists (its
	// counts stay whole): a report of some 2 MB at most.
	launchProblemsKept = 5_000
)

// work is what a live-site job does, with what it reads and writes.
type work struct {
	uploads interface {
		JobUpload(ctx context.Context, id string) io.Reader
	}
	projects  importStore
	pages     treeStore
	redirects attachStore
	history   launchStore
	reads     *fetch.Client // sites read
	checks    *fetch.Client // sites checked at launch
	published func(projectID int64, kind, by string)
}

// run runs a job of any kind, on whichever server claimed it.
func (w work) run(ctx context.Context, j *siteJob) error {
	switch j.Kind {
	case site.JobCheck:
		rep, err := w.reader(j, siteCheckURLs).Read(ctx, j.Source, nil)
		j.set(func() { j.report.Reading = rep })
		return err
	case site.JobImport:
		return w.importSite(ctx, j)
	case site.JobLaunch:
		return w.launchCheck(ctx, j)
	case site.JobAttach:
		return w.attach(ctx, j)
	}
	return fmt.Errorf("a live-site job of kind %q", j.Kind)
}

// importSite reads a site, its sitemap or an uploaded file into a new
// project.
func (w work) importSite(ctx context.Context, j *siteJob) error {
	var file io.Reader
	if j.Upload {
		file = w.uploads.JobUpload(ctx, j.ID)
	}
	rep, plan, warns, err := w.reader(j, siteImportURLs).ReadPlan(ctx, j.Source, file, j.Name)
	if j.Upload {
		j.keepExcerpts(w.uploads.JobUpload(ctx, j.ID), rep)
	}
	j.set(func() { j.report.Reading = rep })
	if err != nil {
		return err
	}
	j.set(func() { j.State, j.report.Warns = site.JobWriting, warns })
	sum := site.PlanSummary{Name: plan.Project.Name, BaseURL: plan.Project.BaseURL}
	id, err := w.projects.ImportPages(ctx, j.TeamID, plan.Project, counted(plan.Pages(), &sum))
	if err != nil {
		return err
	}
	sum.ProjectID = id
	j.set(func() { j.progress.Plan = &sum })
	return nil
}

// counted passes pages on, counting them into sum as they go.
func counted(pages iter.Seq2[int, site.Page], sum *site.PlanSummary) iter.Seq2[int, site.Page] {
	return func(yield func(int, site.Page) bool) {
		for depth, p := range pages {
			sum.Count(depth, p)
			if !yield(depth, p) {
				return
			}
		}
	}
}

// keepExcerpts keeps the lines around the problems of an uploaded file,
// file 0 of the reading, for the report's line links: the file itself
// goes when its reading ends.
func (j *siteJob) keepExcerpts(file io.Reader, rep *sitemap.Reading) {
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
	ex, _ := sitemap.Excerpts(file, lines, sitemap.LinesAround) // what was read before an error is still worth showing
	j.set(func() { j.report.Excerpts = ex })
}

// reader reads for job j from the web, never from this machine's files,
// up to maxURLs, holds every URL to the protocol's rules and reports its
// progress to j.
func (w work) reader(j *siteJob, maxURLs int) *sitemap.Reader {
	return &sitemap.Reader{Web: w.reads.Open, Check: true, MaxURLs: maxURLs, Progress: func(p sitemap.Progress) {
		j.set(func() { j.progress.Progress = p })
	}}
}

// launchCheck checks the site at the job's base against the plan, or a
// version of it, and keeps the report.
func (w work) launchCheck(ctx context.Context, j *siteJob) error {
	v, t, olds, err := w.history.PlanAt(ctx, j.ProjectID, j.Version)
	if err != nil {
		return err
	}
	what := "The plan"
	if j.Version > 0 {
		what = v.Label()
		j.set(func() { j.progress.What = what })
	}
	ctx = fetch.WithCredentials(ctx, launchCredentials(j.Source, j.Credentials))
	rep, err := verify.Check(ctx, verify.Config{Base: j.Source, Concurrency: launchConcurrency, Open: w.checks.Open,
		MaxProblems: launchProblemsKept,
		Hop: func(ctx context.Context, method, url string, maxBody int64) (verify.Answer, error) {
			a, err := w.checks.Hop(ctx, method, url, maxBody)
			return verify.Answer(a), err
		},
		Progress: func(done, total int) { j.set(func() { j.progress.Done, j.progress.Total = done, total }) },
	}, t, olds)
	if err != nil {
		return err
	}
	j.set(func() { j.State = site.JobWriting })
	blob, err := json.Marshal(verify.Keep(rep, what))
	if err != nil {
		return err
	}
	kept, err := w.history.SaveLaunchCheck(ctx, site.LaunchCheck{ProjectID: j.ProjectID, By: j.By, Base: rep.Base,
		Version: j.Version, Errors: rep.Errors, Warnings: rep.Warnings, Report: blob})
	j.set(func() { j.report.LaunchCheck = kept.ID }) // where the API finds the report of the check it started
	return err
}

// attach reads a relaunch's old site from the web and attaches it to
// its plan, as the one who started it (their name on the change).
func (w work) attach(ctx context.Context, j *siteJob) error {
	olds, reps, err := w.reader(j, site.MaxOldURLs).ReadOld(ctx, []string{j.Source}, site.MaxOldURLs)
	if len(reps) > 0 {
		j.set(func() { j.report.Reading = reps[0] })
	}
	if err != nil {
		return err
	}
	j.set(func() { j.State = site.JobWriting })
	ctx = site.WithViewer(ctx, site.Viewer{UserID: j.UserID, Name: j.By})
	t, err := w.pages.Tree(ctx, j.ProjectID)
	if err != nil {
		return err
	}
	got, err := w.redirects.AttachOldSite(ctx, j.ProjectID, olds, sitemap.Match(t, olds))
	if err != nil {
		return err
	}
	if w.published != nil {
		w.published(j.ProjectID, "redirects", j.By)
	}
	j.set(func() { j.progress.Attached = &sitemap.Attached{AttachReport: got, URLs: len(olds)} })
	return nil
}

// launchCredentials are the credentials a check kept apart from its
// base (site.Job.Credentials), for the fetch client to send to the
// base's host.
func launchCredentials(base, userinfo string) fetch.Credentials {
	if userinfo == "" {
		return fetch.Credentials{}
	}
	_, c := fetch.SplitCredentials(strings.Replace(base, "://", "://"+userinfo+"@", 1))
	return c
}
