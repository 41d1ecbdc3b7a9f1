package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"

	"siteplan/export"
	"siteplan/fetch"
	"siteplan/site"
	"siteplan/sitemap"
	"siteplan/store"
)

// The redirects verbs: a relaunch's old site attached to a plan, matched,
// given its traffic, exported per platform, edited in a spreadsheet.

// redirectsMatchCmd reads the old site's URLs, matches them to the plan
// and attaches them (merging with what the plan held).
func redirectsMatchCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	allow := fs.Bool("allow-private", false, "allow loopback, private and link-local addresses (an intranet)")
	var olds []site.OldPage // read before the database is opened
	check = func() error {
		if fs.NArg() == 0 {
			return errors.New("redirects match: name the old site: a site, a sitemap, a crawl CSV (Screaming Frog's Internal export) or a list of URLs")
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		web := fetch.New(fetch.Options{AllowPrivate: *allow}).Open
		var reps []*sitemap.Reading
		var err error
		olds, reps, err = (&sitemap.Reader{Web: web, Local: true}).ReadOld(ctx, fs.Args(), site.MaxOldURLs)
		for _, rep := range reps {
			for _, f := range rep.Files {
				if f.Err != "" {
					fmt.Fprintf(os.Stderr, "siteplan: redirects match: %s was not read: %s\n", f.Loc, f.Err)
				}
				for _, p := range f.Problems {
					if p.Rule == "crawl-status" || p.Rule == "csv-url" {
						more := ""
						if p.Count > 1 {
							more = fmt.Sprintf(" (%s such rows)", site.Thousands(p.Count))
						}
						fmt.Fprintf(os.Stderr, "siteplan: redirects match: %s: %s%s\n", f.Loc, p.Msg, more)
					}
				}
			}
		}
		if err != nil {
			return fmt.Errorf("redirects match: %w; nothing was attached", err)
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		// The old site, the plan and the matcher's indexes are held at
		// once: the garbage the matching makes beside them is collected
		// at 30% of the live heap, not 100%, which keeps a 200,000-URL
		// match under 400 MB for no time measured (docs/benchmarks.md).
		defer debug.SetGCPercent(debug.SetGCPercent(30))
		t, err := db.Pages.Tree(ctx, id)
		if err != nil {
			return fmt.Errorf("redirects match: %w", err)
		}
		proposed := sitemap.Match(t, olds)
		// What matching held is garbage now: hand it back before the
		// writing, so that its peak and the writing's do not add up.
		debug.FreeOSMemory()
		rep, err := db.Redirects.AttachOldSite(ctx, id, olds, proposed)
		if err != nil {
			return fmt.Errorf("redirects match: %w; nothing was attached", err)
		}
		st, err := db.Redirects.RedirectStatus(ctx, id)
		if err != nil {
			return fmt.Errorf("redirects match: %w", err)
		}
		fmt.Fprintf(stdout, "%s attached: %s new, %s gone, %s kept (%s decided by a person, left as they were)\n",
			site.Counted(rep.Added+rep.Kept, "old URL", "old URLs"), site.Thousands(rep.Added), site.Thousands(rep.Removed), site.Thousands(rep.Kept), site.Thousands(rep.KeptDecided))
		printStatus(stdout, st)
		return nil
	}
}

// printStatus prints the figures of a plan's redirect map.
func printStatus(w io.Writer, st site.RedirectStatus) {
	fmt.Fprintf(w, "%s accepted, %s awaiting review (%s with no proposal), %s retired\n",
		site.Thousands(st.Accepted), site.Thousands(st.Awaiting), site.Thousands(st.Unmatched), site.Thousands(st.Retired))
	fmt.Fprintf(w, "clicks at risk: %s of %s\n", site.Thousands(st.ClicksAtRisk), site.Thousands(st.Clicks))
}

// redirectsTrafficCmd attaches a traffic export's clicks to the old URLs.
func redirectsTrafficCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	check = func() error {
		if fs.NArg() != 1 {
			return errors.New("redirects traffic: name one CSV file: Search Console's Pages export, or an Analytics export")
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		first, n, err := db.Redirects.OldURLs(ctx, id, site.OldFilter{Limit: 1})
		if err != nil {
			return fmt.Errorf("redirects traffic: %w", err)
		}
		if n == 0 {
			return errors.New("redirects traffic: the plan has no old URLs yet; attach the old site first (siteplan redirects match)")
		}
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return fmt.Errorf("redirects traffic: %w", err)
		}
		defer f.Close()
		clicks, err := sitemap.ReadClicks(f, site.Origin(first[0].URL)+"/")
		if err != nil {
			return fmt.Errorf("redirects traffic: %s: %w", fs.Arg(0), err)
		}
		matched, unknown, nUnknown, err := db.Redirects.SetClicks(ctx, id, clicks)
		if err != nil {
			return fmt.Errorf("redirects traffic: %w", err)
		}
		fmt.Fprintf(stdout, "clicks attached to %s\n", site.Counted(matched, "old URL", "old URLs"))
		switch {
		case nUnknown == 1:
			fmt.Fprintf(os.Stderr, "siteplan: redirects traffic: %s is in the file but not an old URL of the plan; attach it with redirects match\n", unknown[0])
		case nUnknown > 1:
			fmt.Fprintf(os.Stderr, "siteplan: redirects traffic: %s pages of the file are not old URLs of the plan, such as %s; attach them with redirects match\n",
				site.Thousands(nUnknown), unknown[0])
		}
		st, err := db.Redirects.RedirectStatus(ctx, id)
		if err != nil {
			return fmt.Errorf("redirects traffic: %w", err)
		}
		printStatus(stdout, st)
		return nil
	}
}

// mappings reads the plan and its old URLs, each with its target's URL.
func mappings(ctx context.Context, db *store.Store, id int64) ([]site.Mapping, error) {
	t, err := db.Pages.Tree(ctx, id)
	if err != nil {
		return nil, err
	}
	olds, _, err := db.Redirects.OldURLs(ctx, id, site.OldFilter{})
	if err != nil {
		return nil, err
	}
	return t.Mappings(olds), nil
}

// redirectsExportCmd writes the redirect map for a platform, whole or
// not at all.
func redirectsExportCmd(fs *flag.FlagSet) (check func() error, run projectRun, server remoteRun) {
	format := fs.String("format", "", "csv, nginx, apache, netlify, cloudflare-pages, vercel, vercel-bulk, cloudflare, shopify, wordpress, iis or caddy")
	out := fs.String("out", "", "the file to write")
	check = func() error {
		if *out == "" || *format == "" {
			return errors.New("redirects export: --format and --out FILE are required")
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
			maps, err := mappings(ctx, db, id)
			if err != nil {
				return fmt.Errorf("redirects export: %w", err)
			}
			var rep export.RedirectReport
			err = writeFileWhole(*out, func(w io.Writer) (err error) {
				rep, err = export.WriteRedirects(w, *format, maps)
				return err
			})
			if err != nil {
				return fmt.Errorf("redirects export: %w; nothing was written", err)
			}
			line := fmt.Sprintf("%s: %s, %s", *out, site.Counted(rep.Redirects, "redirect", "redirects"), site.Counted(rep.Gone, "retired URL", "retired URLs"))
			if rep.LeftOut > 0 {
				line += fmt.Sprintf("; %s left out, which %s cannot express (below)", site.Thousands(rep.LeftOut), *format)
			}
			if rep.Skipped > 0 {
				line += fmt.Sprintf("; %s not accepted yet", site.Counted(rep.Skipped, "old URL", "old URLs"))
			}
			fmt.Fprintln(stdout, line)
			for _, w := range rep.Warnings {
				fmt.Fprintf(os.Stderr, "siteplan: redirects export: %s\n", w)
			}
			return nil
		}, func(ctx context.Context, r *remote, id int64, stdout io.Writer) error {
			b, err := r.call(ctx, "GET", project(id, "redirects", "export")+"?format="+url.QueryEscape(*format), nil, nil)
			if err == nil {
				err = writeFileWhole(*out, func(w io.Writer) error { _, err := w.Write(b); return err })
			}
			if err != nil {
				return fmt.Errorf("%w; nothing was written", err)
			}
			fmt.Fprintf(stdout, "%s: the redirect map for %s, from the server\n", *out, *format)
			return nil
		}
}

// redirectsImportCmd sets the mappings a spreadsheet gives.
func redirectsImportCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	check = func() error {
		if fs.NArg() != 1 {
			return errors.New("redirects import: name one CSV file with the columns from,to,status,accepted,confidence,reason")
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		t, err := db.Pages.Tree(ctx, id)
		if err != nil {
			return fmt.Errorf("redirects import: %w", err)
		}
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return fmt.Errorf("redirects import: %w", err)
		}
		defer f.Close()
		maps, err := site.ParseRedirectMap(f, t)
		if err != nil {
			return fmt.Errorf("redirects import: %s: %w; nothing was imported", fs.Arg(0), err)
		}
		added, changed, err := db.Redirects.SetMappings(ctx, id, maps)
		if err != nil {
			return fmt.Errorf("redirects import: %w; nothing was imported", err)
		}
		fmt.Fprintf(stdout, "%s read: %s added, %s changed\n", site.Counted(len(maps), "row", "rows"), site.Thousands(added), site.Thousands(changed))
		st, err := db.Redirects.RedirectStatus(ctx, id)
		if err != nil {
			return fmt.Errorf("redirects import: %w", err)
		}
		printStatus(stdout, st)
		return nil
	}
}

// redirectsStatusCmd prints the figures of the plan's redirect map.
func redirectsStatusCmd(fs *flag.FlagSet) (check func() error, run projectRun, server remoteRun) {
	asJSON := fs.Bool("json", false, "print one JSON object")
	show := func(stdout io.Writer, st site.RedirectStatus) error {
		if *asJSON {
			return json.NewEncoder(stdout).Encode(st)
		}
		fmt.Fprintf(stdout, "%s\n", site.Counted(st.OldURLs, "old URL", "old URLs"))
		printStatus(stdout, st)
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
			st, err := db.Redirects.RedirectStatus(ctx, id)
			if err != nil {
				return fmt.Errorf("redirects status: %w", err)
			}
			return show(stdout, st)
		}, func(ctx context.Context, r *remote, id int64, stdout io.Writer) error {
			var st site.RedirectStatus
			if _, err := r.call(ctx, "GET", project(id, "redirects", "status"), nil, &st); err != nil {
				return err
			}
			return show(stdout, st)
		}
}
