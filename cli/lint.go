package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"siteplan/site"
	"siteplan/store"
)

// lintCmd checks the briefs of a plan as an SEO would: exit 0 when
// nothing is wrong, 1 when problems are found.
func lintCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		t, err := db.Pages.Tree(ctx, id)
		if err != nil {
			return fmt.Errorf("lint: %w", err)
		}
		templates, err := db.Themes.ProjectTemplates(ctx, id)
		if err != nil {
			return fmt.Errorf("lint: %w", err)
		}
		rep := site.Lint(t, templates)
		if *asJSON {
			if err := json.NewEncoder(stdout).Encode(rep); err != nil {
				return err
			}
		} else {
			for _, p := range rep.Problems {
				fmt.Fprintf(stdout, "[%s] “%s” (%d) %s: %s\n", p.Rule, p.Page, p.PageID, p.Field, p.Message)
			}
			fmt.Fprintf(stdout, "%s checked: %s\n", site.Counted(rep.Pages, "page", "pages"), site.Counted(len(rep.Problems), "problem", "problems"))
		}
		if len(rep.Problems) > 0 {
			return &exitError{code: 1, err: fmt.Errorf("lint: %s found", site.Counted(len(rep.Problems), "problem", "problems"))}
		}
		return nil
	}
}
