package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"siteplan/diagram"
	"siteplan/store"
)

// diagramCmd draws a project's diagram into a file. diagram.Render checks
// the options; a failed render leaves no file behind.
func diagramCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	out := fs.String("out", "", "output file")
	var opt diagram.Options
	fs.StringVar(&opt.Format, "format", "", "svg, png, pdf, dot, graphml or mermaid")
	fs.StringVar(&opt.Paper, "paper", diagram.PaperA4, "PDF paper: a4, a3, letter or tabloid")
	fs.StringVar(&opt.Orientation, "orientation", diagram.Landscape, "PDF sheets: landscape or portrait")
	fs.BoolVar(&opt.OneSheet, "one-sheet", false, "PDF: fit the whole drawing on one sheet, however small its text")
	fs.BoolVar(&opt.Cover, "cover", false, "PDF: start with a cover sheet")
	fs.BoolVar(&opt.Client, "client", false, "the client version: titles and colours only")
	fs.BoolVar(&opt.Content, "content", false, "list each page's content blocks on its card")
	fs.StringVar(&opt.Layout, "layout", diagram.LayoutTree, "tree, lr or radial")
	fs.StringVar(&opt.ColorBy, "color", diagram.ColorByType, "colour nodes by type or status")
	fs.IntVar(&opt.Depth, "depth", 0, "levels to draw; 0: all")
	fs.Int64Var(&opt.Root, "root", 0, "draw only this page's branch")
	fs.BoolVar(&opt.Links, "links", true, "draw cross-links")
	fs.StringVar(&opt.Locale, "locale", "", "a localized plan in one of its locales (a tag): titles, URLs and states there")
	check = func() error {
		switch {
		case opt.Format == "":
			return errors.New("diagram: --format is required: svg, png, pdf, dot, graphml or mermaid")
		case *out == "":
			return errors.New("diagram: --out FILE is required")
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		t, err := db.Pages.Tree(ctx, id)
		if err != nil {
			return fmt.Errorf("diagram: %w", err)
		}
		links, err := db.Links.Links(ctx, id)
		if err != nil {
			return fmt.Errorf("diagram: %w", err)
		}
		if opt.Palette, err = db.Themes.ProjectPalette(ctx, id); err != nil { // the team's type colours, as the app draws them
			return fmt.Errorf("diagram: %w", err)
		}
		if opt.Landings, err = db.Redirects.Landings(ctx, id); err != nil { // a relaunch's old URLs on each card, as the app draws them
			return fmt.Errorf("diagram: %w", err)
		}
		var res diagram.Result
		err = writeFileWhole(*out, func(w io.Writer) (err error) {
			res, err = diagram.Render(ctx, w, t, links, opt)
			return err
		})
		if err != nil {
			return fmt.Errorf("diagram: %w", err)
		}
		st, err := os.Stat(*out)
		if err != nil {
			return fmt.Errorf("diagram: %w", err)
		}
		fmt.Fprintf(stdout, "Wrote %s: %d bytes, %d of %d pages drawn\n", *out, st.Size(), res.Pages, t.Len())
		return nil
	}
}
