package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"siteplan/site"
)

// lintCmd checks the briefs of a plan as an SEO would: exit 0 when
// nothing is wrong, 1 when problems are found.
func lintCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	project := fs.String("project", "", "project ID")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	if err := parse(fs, args); err != nil {
		return err
	}
	db, id, err := openProject(fs, *project)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
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
