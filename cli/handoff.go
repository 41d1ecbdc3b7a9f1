package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"siteplan/export"
	"siteplan/store"
)

// handoffCmd writes the plan with its briefs for the CMS: a WordPress
// export file (wxr) or the routes of a static-site generator (routes).
func handoffCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	format := fs.String("format", "", "wxr or routes")
	out := fs.String("out", "", "file to write")
	check = func() error {
		if !slices.Contains(export.HandoffFormats, *format) {
			return fmt.Errorf("handoff: --format must be one of %s", strings.Join(export.HandoffFormats, ", "))
		}
		if *out == "" {
			return fmt.Errorf("handoff: --out FILE is required")
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		t, err := db.Pages.Tree(ctx, id)
		if err != nil {
			return fmt.Errorf("handoff: %w", err)
		}
		links, err := db.Links.Links(ctx, id)
		if err != nil {
			return fmt.Errorf("handoff: %w", err)
		}
		postTypes, err := db.Themes.PostTypes(ctx, id)
		if err != nil {
			return fmt.Errorf("handoff: %w", err)
		}
		var warnings []string
		err = writeFileWhole(*out, func(w io.Writer) error {
			if *format == export.HandoffWXR {
				warnings, err = export.WriteWXR(w, t, export.WXROptions{Links: links, PostTypes: postTypes, At: time.Now()})
				return err
			}
			return export.WriteRoutes(w, t)
		})
		if err != nil {
			return fmt.Errorf("handoff: %w", err)
		}
		fmt.Fprintf(stdout, "%s: %d pages\n", *out, t.Len())
		for _, w := range warnings { // before anyone imports: the pages WordPress would put elsewhere
			fmt.Fprintln(os.Stderr, "siteplan: handoff:", w)
		}
		return nil
	}
}
