package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"siteplan/site"
	"siteplan/store"
)

// versionCreateCmd names the plan as it is now and prints the new
// version's number alone.
func versionCreateCmd(fs *flag.FlagSet) (check func() error, run projectRun, server remoteRun) {
	name := fs.String("name", "", "the version's name")
	launched := fs.Bool("launched", false, "the site went live with this plan")
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
			create := db.History.CreateVersion
			if *launched {
				create = db.History.LaunchVersion
			}
			v, err := create(ctx, id, *name)
			if err != nil {
				return fmt.Errorf("version create: %w", err)
			}
			_, err = fmt.Fprintln(stdout, v.Number)
			return err
		}, func(ctx context.Context, r *remote, id int64, stdout io.Writer) error {
			var v struct {
				Number int `json:"number"`
			}
			if _, err := r.call(ctx, "POST", project(id, "versions"), map[string]any{"name": *name, "launched": *launched}, &v); err != nil {
				return err
			}
			_, err := fmt.Fprintln(stdout, v.Number)
			return err
		}
}

// versionListCmd prints a project's versions, newest first, with their
// approvals.
func versionListCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		if _, err := db.Projects.Project(ctx, id); err != nil {
			return fmt.Errorf("version list: %w", err)
		}
		vs, err := db.History.Versions(ctx, id)
		if err == nil {
			err = db.History.MarkChanged(ctx, id, vs)
		}
		if err != nil {
			return fmt.Errorf("version list: %w", err)
		}
		w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "VERSION\tNAME\tPAGES\tCREATED\tBY")
		for _, v := range vs {
			fmt.Fprintf(w, "%d\t%s\t%d\t%s\t%s\n", v.Number, v.Name, v.PageCount, v.CreatedAt.UTC().Format("2006-01-02 15:04Z"), v.Author)
			for _, a := range v.Approvals {
				changed := ""
				switch {
				case a.Voided():
					changed = " (voided by " + a.VoidedBy + ")"
				case a.ChangedSince:
					changed = " (changed since approval)"
				}
				fmt.Fprintf(w, "\t  approved by %s on %s: %s%s\t\t\t\n", a.By(), a.At.UTC().Format("2006-01-02 15:04Z"), a.What(), changed)
			}
		}
		return w.Flush()
	}
}

// diffCmd compares two versions of a project, or a version with the plan
// as it is now.
func diffCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	from := fs.Int("from", 0, "version number")
	to := fs.Int("to", 0, "version number (default: the plan now)")
	asJSON := fs.Bool("json", false, "print JSON")
	check = func() error {
		if *from <= 0 {
			return fmt.Errorf("diff: --from N is required (a version number, as version list prints them)")
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		c, err := compare(ctx, db, id, *from, *to)
		if err != nil {
			return fmt.Errorf("diff: %w", err)
		}
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(c)
		}
		return printComparison(stdout, c)
	}
}

// compare compares version from with version to (0: the plan now).
func compare(ctx context.Context, db *store.Store, projectID int64, from, to int) (*site.Comparison, error) {
	_, a, al, err := db.History.Version(ctx, projectID, from)
	if err != nil {
		return nil, err
	}
	if to > 0 {
		_, b, bl, err := db.History.Version(ctx, projectID, to)
		if err != nil {
			return nil, err
		}
		return site.Compare(a, b, al, bl), nil
	}
	b, err := db.Pages.Tree(ctx, projectID)
	if err != nil {
		return nil, err
	}
	bl, err := db.Links.Links(ctx, projectID)
	if err != nil {
		return nil, err
	}
	return site.Compare(a, b, al, bl), nil
}

// printComparison writes a comparison for people.
func printComparison(w io.Writer, c *site.Comparison) error {
	_, err := io.WriteString(w, c.Text())
	return err
}

// restoreCmd makes the plan what a version was, as one change.
func restoreCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	version := fs.Int("version", 0, "version number")
	check = func() error {
		if *version <= 0 {
			return fmt.Errorf("restore: --version N is required (a version number, as version list prints them)")
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		ch, err := db.History.RestoreVersion(ctx, id, *version)
		if err != nil {
			return fmt.Errorf("restore: %w", err)
		}
		_, err = fmt.Fprintln(stdout, "R"+strings.TrimPrefix(ch.Summary, "r")+".")
		return err
	}
}
