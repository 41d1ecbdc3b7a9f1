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
)

// handoffCmd writes the plan with its briefs for the CMS: a WordPress
// export file (wxr) or the routes of a static-site generator (routes).
func handoffCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	project := fs.String("project", "", "project ID")
	format := fs.String("format", "", "wxr or routes")
	out := fs.String("out", "", "file to write")
	if err := parse(fs, args); err != nil {
		return err
	}
	if !slices.Contains(export.HandoffFormats, *format) {
		return fmt.Errorf("handoff: --format must be one of %s", strings.Join(export.HandoffFormats, ", "))
	}
	if *out == "" {
		return fmt.Errorf("handoff: --out FILE is required")
	}
	db, id, err := openProject(fs, *project)
	if err != nil {
		return err
	}
	defer db.Close()
	t, err := db.Pages.Tree(context.Background(), id)
	if err != nil {
		return fmt.Errorf("handoff: %w", err)
	}
	links, err := db.Links.Links(context.Background(), id)
	if err != nil {
		return fmt.Errorf("handoff: %w", err)
	}
	postTypes, err := db.Themes.PostTypes(context.Background(), id)
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
