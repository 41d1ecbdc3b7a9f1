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
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(rep); err != nil {
			return fail(err)
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
		fmt.Fprintf(stdout, "%s, %s\n", site.Counted(rep.Errors, "error", "errors"), site.Counted(rep.Warnings, "warning", "warnings"))
	}
	if rep.Errors > 0 {
		return &exitError{code: 1, err: fmt.Errorf("verify: %s found", site.Counted(rep.Errors, "error", "errors"))}
	}
	return nil
}

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
