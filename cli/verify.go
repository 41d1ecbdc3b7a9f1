package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"siteplan/fetch"
	"siteplan/site"
	"siteplan/store"
	"siteplan/verify"
)

// verifyCmd checks a built site against the plan (or a version of it):
// exit 0 when nothing is wrong, 1 when problems are found, 2 when the
// check could not run.
func verifyCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	project := fs.String("project", "", "project ID")
	version := fs.Int("version", 0, "check this version of the plan instead of the plan now")
	approved := fs.Bool("approved", false, "check the newest version a client or member signed off")
	base := fs.String("base", "", "where the site is served, such as https://staging.example.com/")
	allow := fs.Bool("allow-private", false, "allow loopback, private and link-local addresses (staging on an intranet)")
	concurrency := fs.Int("concurrency", 8, "requests at once")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	junit := fs.String("junit", "", "also write the report as JUnit XML to this file")
	server := serverFlag(fs)
	if err := parse(fs, args); err != nil {
		return &exitError{code: 2, err: err}
	}
	fail := func(err error) error { return &exitError{code: 2, err: fmt.Errorf("verify: %w", err)} }
	if *base == "" {
		return fail(errors.New("--base URL is required: where the site is served"))
	}
	if *version != 0 && *approved {
		return fail(errors.New("say --version N or --approved, not both"))
	}
	if *server != "" {
		if *allow {
			return fail(errors.New("--allow-private is the server's to choose (serve --allow-private-fetch), not the command's"))
		}
		r, err := newRemote(*server)
		id, perr := strconv.ParseInt(*project, 10, 64)
		switch {
		case err != nil:
			return fail(err)
		case perr != nil || id <= 0:
			return fail(errors.New("--project ID is required (a number)"))
		}
		v := ""
		if *approved {
			v = "approved"
		} else if *version > 0 {
			v = strconv.Itoa(*version)
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return verifyRemote(ctx, r, id, *base, v, *junit, *asJSON, stdout)
	}
	db, id, err := openProject(fs, *project)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	defer db.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	t, olds, what, err := planToVerify(ctx, db, id, *version, *approved)
	if err != nil {
		return fail(err)
	}
	c := fetch.New(fetch.Options{AllowPrivate: *allow, Allow: "siteplan verify --allow-private", Parallel: max(*concurrency, 1)})
	// A user and password in --base are sent to the site, never printed:
	// the JSON and JUnit reports name the base without them.
	b, creds := fetch.SplitCredentials(*base)
	ctx = fetch.WithCredentials(ctx, creds)
	rep, err := verify.Check(ctx, verify.Config{Base: b, Concurrency: *concurrency, Open: c.Open,
		Hop: func(ctx context.Context, method, url string, maxBody int64) (verify.Answer, error) {
			a, err := c.Hop(ctx, method, url, maxBody)
			return verify.Answer(a), err
		}}, t, olds)
	if err != nil {
		return fail(err)
	}
	if *junit != "" {
		if err := writeFileWhole(*junit, rep.JUnit); err != nil {
			return fail(err)
		}
	}
	return verified(stdout, rep, what, *asJSON)
}

// verified prints a check's report (what the site was held to, then
// its problems; or the report as JSON) and is its exit: 1 when it found
// errors. Errors: exit 2 when stdout fails.
func verified(stdout io.Writer, rep *verify.Report, what string, asJSON bool) error {
	if asJSON {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return &exitError{code: 2, err: fmt.Errorf("verify: %w", err)}
		}
	} else {
		fmt.Fprintf(stdout, "%s against %s: %s, %s checked\n", what, rep.Base, site.Counted(rep.Pages, "page", "pages"), site.Counted(rep.OldURLs, "old URL", "old URLs"))
		for _, p := range rep.Problems {
			page := ""
			if p.Page != "" {
				page = fmt.Sprintf(" “%s” (%d)", p.Page, p.PageID)
			}
			fmt.Fprintf(stdout, "%s [%s]%s %s: %s\n", p.Severity, p.Rule, page, p.URL, p.Message)
		}
		if rep.Omitted > 0 {
			fmt.Fprintf(stdout, "and %s more, counted only\n", site.Counted(rep.Omitted, "problem", "problems"))
		}
		fmt.Fprintf(stdout, "%s, %s\n", site.Counted(rep.Errors, "error", "errors"), site.Counted(rep.Warnings, "warning", "warnings"))
	}
	if rep.Errors > 0 {
		return &exitError{code: 1, err: fmt.Errorf("verify: %s found", site.Counted(rep.Errors, "error", "errors"))}
	}
	return nil
}

// verifyRemote runs the check on the server: started through its API,
// followed until it ends, its report read (and its JUnit, when asked
// for). Errors: exit 2 when it could not run.
func verifyRemote(ctx context.Context, r *remote, id int64, base, version, junit string, asJSON bool, stdout io.Writer) error {
	fail := func(err error) error { return &exitError{code: 2, err: fmt.Errorf("verify: %w", err)} }
	var st struct {
		ID, State, What, Error, Report string
	}
	if _, err := r.call(ctx, "POST", project(id, "launch-checks"), map[string]string{"base": base, "version": version}, &st); err != nil {
		return fail(err)
	}
	for st.State != site.JobDone {
		switch st.State {
		case site.JobFailed, site.JobCancelled:
			return fail(fmt.Errorf("the check on the server %s: %s", st.State, st.Error))
		}
		select {
		case <-ctx.Done():
			return fail(ctx.Err())
		case <-time.After(remotePoll): // the server's check runs on; look again
		}
		if _, err := r.call(ctx, "GET", project(id, "launch-checks", st.ID), nil, &st); err != nil {
			return fail(err)
		}
	}
	var rep verify.Report
	if _, err := r.call(ctx, "GET", project(id, "launch-checks", st.ID, "report"), nil, &rep); err != nil {
		return fail(err)
	}
	if junit != "" {
		b, err := r.call(ctx, "GET", project(id, "launch-checks", st.ID, "report")+"?format=junit", nil, nil)
		if err == nil {
			err = writeFileWhole(junit, func(w io.Writer) error { _, err := w.Write(b); return err })
		}
		if err != nil {
			return fail(err)
		}
	}
	what := st.What
	if what != "" {
		what = strings.ToUpper(what[:1]) + what[1:]
	}
	return verified(stdout, &rep, what, asJSON)
}

// remotePoll is how often verify --server asks how the check is going.
var remotePoll = 2 * time.Second

// planToVerify is the plan a check holds the site to: the plan now, a
// version, or the newest version signed off (and not voided).
func planToVerify(ctx context.Context, db *store.Store, id int64, version int, approved bool) (*site.Tree, []site.OldURL, string, error) {
	if approved {
		vs, err := db.History.Versions(ctx, id)
		if err != nil {
			return nil, nil, "", err
		}
		if version = site.SignedOff(vs); version == 0 {
			return nil, nil, "", errors.New("no version of this plan is signed off; check the plan now (no --approved) or a --version N")
		}
	}
	v, t, olds, err := db.History.PlanAt(ctx, id, version)
	if version == 0 {
		return t, olds, "The plan", err
	}
	return t, olds, v.Label(), err
}
