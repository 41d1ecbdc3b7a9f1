package cli

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"

	"siteplan/export"
	"siteplan/site"
	"siteplan/store"
)

// exportCmd writes the launch files of a project into a directory and
// prints a report.
func exportCmd(fs *flag.FlagSet) (check func() error, run projectRun, server remoteRun) {
	dir := fs.String("out", "", "output directory")
	var cfg export.Config
	fs.BoolVar(&cfg.Gzip, "gzip", false, "gzip each sitemap file")
	fs.IntVar(&cfg.MaxURLs, "max-urls", site.MaxSitemapURLs, "URLs per sitemap file")
	fs.BoolVar(&cfg.BySection, "split-by-section", false, "one sitemap per top-level section")
	fs.BoolVar(&cfg.LeavesOnly, "leaves-only", false, "only pages without children")
	fs.Int64Var(&cfg.Section, "section", 0, "export only this page's subtree")
	fs.StringVar(&cfg.Location, "location", "", "URL of the directory the sitemap is published in")
	fs.IntVar(&cfg.FooterDepth, "footer-depth", 2, "levels of the main tree in footer.html (1 or 2)")
	check = func() error {
		if *dir == "" {
			return errors.New("export: --out DIR is required")
		}
		if err := site.CheckMaxURLs(cfg.MaxURLs); err != nil {
			return fmt.Errorf("export: --max-urls: %s", site.ErrorMessage(err))
		}
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
			plan, err := db.Pages.Outline(ctx, id) // read as it is written: memory stays flat
			if err != nil {
				return fmt.Errorf("export: %w", err)
			}
			rep, err := export.Export(export.DirOutput(*dir), plan, cfg)
			if err != nil {
				return fmt.Errorf("export: %w", err)
			}
			fmt.Fprintf(stdout, "Exported %d URLs of %q into %s\n", rep.URLs, plan.Project().Name, *dir)
			printReport(stdout, rep)
			return nil
		}, func(ctx context.Context, r *remote, id int64, stdout io.Writer) error {
			q := url.Values{"max_urls": {strconv.Itoa(cfg.MaxURLs)}, "depth": {strconv.Itoa(cfg.FooterDepth)}, "location": {cfg.Location},
				"section": {strconv.FormatInt(cfg.Section, 10)}}
			for k, on := range map[string]bool{"gzip": cfg.Gzip, "split": cfg.BySection, "leaves": cfg.LeavesOnly} {
				if on {
					q.Set(k, "1")
				}
			}
			b, err := r.call(ctx, "GET", project(id, "export.zip")+"?"+q.Encode(), nil, nil)
			if err != nil {
				return err
			}
			return unzipInto(*dir, b, stdout)
		}
}

// unzipInto writes the files of a zip into dir, each whole, and names
// them: the export as a server made it.
func unzipInto(dir string, b []byte, stdout io.Writer) error {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return fmt.Errorf("the server's export: %w", err)
	}
	fmt.Fprintf(stdout, "Exported into %s, from the server\n", dir)
	for _, f := range zr.File {
		name := filepath.Base(f.Name) // the export's files are flat: nothing may land outside dir
		err := writeFileWhole(filepath.Join(dir, name), func(w io.Writer) error {
			rc, err := f.Open()
			if err != nil {
				return err
			}
			defer rc.Close()
			_, err = io.Copy(w, io.LimitReader(rc, 64<<20))
			return err
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "  %-28s %10d bytes\n", name, f.UncompressedSize64)
	}
	return nil
}

// printReport prints an export's files, robots.txt lines and warnings.
func printReport(w io.Writer, rep export.Report) {
	for _, f := range rep.Files {
		fmt.Fprintf(w, "  %-28s %10d bytes", f.Name, f.Size)
		if f.URLs > 0 {
			fmt.Fprintf(w, "  %d URLs", f.URLs)
		}
		fmt.Fprintln(w)
	}
	for _, s := range rep.Sitemaps {
		fmt.Fprintf(w, "robots.txt: Sitemap: %s\n", s)
	}
	for _, warn := range rep.Warnings {
		kind := "warning"
		if warn.Info {
			kind = "note"
		}
		if warn.Title != "" {
			fmt.Fprintf(w, "%s: %q (page %d): %s\n", kind, warn.Title, warn.PageID, warn.Reason)
		} else {
			fmt.Fprintf(w, "%s: %s\n", kind, warn.Reason)
		}
	}
}
