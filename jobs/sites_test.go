package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"siteplan/site"
	"siteplan/sitemap"
)

// TestSiteJobPanic: a panic in a reading ends that job as failed with
// the internal error's safe message, logged with its stack; the server
// goes on.
func TestSiteJobPanic(t *testing.T) {
	var logged bytes.Buffer
	j := &siteJob{Job: site.Job{Kind: site.JobImport}}
	ctx := context.Background()
	err := safely(ctx, j, func(context.Context, *siteJob) error { panic("a bug in a reader") })
	if err == nil || !strings.Contains(err.Error(), "a bug in a reader") {
		t.Fatalf("safely returned %v, want the panic as an error", err)
	}
	if state, msg := j.outcome(ctx, err, slog.New(slog.NewTextHandler(&logged, nil))); state != site.JobFailed || msg != "Internal error. Nothing was imported." {
		t.Errorf("the job is %q with %q, want failed with the internal error's message", state, msg)
	}
	if !strings.Contains(logged.String(), "a bug in a reader") || !strings.Contains(logged.String(), "sites_test.go") {
		t.Errorf("the log has not the panic and its stack: %.500s", logged.String())
	}
}

// ended waits, through the store's bell, until job id has ended, and
// returns it.
func (f *fixture) ended(id string) site.Job {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		bell := f.db.Jobs.Changed()
		j, err := f.db.Jobs.Job(ctx, id, true)
		if err != nil {
			f.t.Fatal(err)
		}
		if !j.Running() {
			return j
		}
		select {
		case <-bell:
		case <-time.After(jobPoll): // a change made by another process: none here
		case <-ctx.Done():
			f.t.Fatalf("job %s is still %s", id, j.State)
		}
	}
}

// TestSiteJobsWithoutAServer: the runner claims the rows a visitor's
// request keeps and runs them, without a web server: a check keeps its
// reading as the report; an old site attached to its plan changes the
// redirect map as the one who started it, and tells the plan's editors.
func TestSiteJobsWithoutAServer(t *testing.T) {
	f := newFixture(t)
	old := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://%s/pricing.html</loc></url><url><loc>http://%s/about-us.html</loc></url></urlset>`, r.Host, r.Host)
	}))
	defer old.Close()
	var told []string
	var mu sync.Mutex
	j := Start(context.Background(), storesOf(f.db), Config{Log: quiet, AllowPrivate: true, Published: func(pid int64, kind, by string) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, fmt.Sprint(pid, " ", kind, " ", by))
	}})
	t.Cleanup(j.Close)
	ctx := context.Background()

	check, err := f.db.Jobs.CreateJob(ctx, site.Job{Kind: site.JobCheck, UserID: f.owner.ID, TeamID: 1, By: f.owner.Name, Source: old.URL + "/sitemap.xml"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := f.ended(check.ID)
	var rep sitemap.JobReport
	if err := json.Unmarshal(done.Report, &rep); err != nil || done.State != site.JobDone || rep.Reading == nil || rep.Reading.URLs != 2 {
		t.Fatalf("the check: %s %q, report %+v (%v)", done.State, done.Error, rep.Reading, err)
	}

	attach, err := f.db.Jobs.CreateJob(ctx, site.Job{Kind: site.JobAttach, UserID: f.owner.ID, TeamID: 1, By: f.owner.Name, ProjectID: f.pid, Source: old.URL + "/sitemap.xml"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done = f.ended(attach.ID)
	var pr sitemap.JobProgress
	if err := json.Unmarshal(done.Progress, &pr); err != nil || done.State != site.JobDone || pr.Attached == nil || pr.Attached.URLs != 2 || pr.Attached.Added != 2 {
		t.Fatalf("the attach: %s %q, attached %+v (%v)", done.State, done.Error, pr.Attached, err)
	}
	if _, n, err := f.db.Redirects.OldURLs(ctx, f.pid, site.OldFilter{}); err != nil || n != 2 {
		t.Errorf("the plan holds %d old URLs (%v), want 2", n, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := fmt.Sprint(f.pid, " redirects Olive Owner"); len(told) != 1 || told[0] != want {
		t.Errorf("the editors were told %q, want %q", told, want)
	}
}
