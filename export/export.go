package export

import (
	"io"

	"siteplan/site"
)

// Config is everything one export needs.
type Config struct {
	Options
	MaxURLs     int
	Gzip        bool
	BySection   bool
	FooterDepth int // 1 or 2; 0 means 2
}

// Report says what an export wrote and what it left out.
type Report struct {
	Result
	Warnings []Warning
}

// Export writes all launch files of a tree into out: the sitemap file(s),
// sitemap.txt, robots.txt and footer.html. Errors: EInvalid (nothing to
// export, bad location), ENotFound (section).
func Export(out Output, t *site.Tree, cfg Config) (Report, error) {
	entries, warns, err := Collect(t, cfg.Options)
	if err != nil {
		return Report{}, err
	}
	dir, _ := Directory(t.Project, cfg.Location)
	res, err := WriteSitemaps(out, entries, SitemapOptions{MaxURLs: cfg.MaxURLs, Gzip: cfg.Gzip, BySection: cfg.BySection, Dir: dir})
	rep := Report{Result: res, Warnings: warns}
	if err != nil {
		return rep, err
	}
	write := func(name string, urls int, fn func(io.Writer) error) error {
		wc, err := out.Create(name)
		if err != nil {
			return err
		}
		cw := &countingWriter{w: wc}
		if err := fn(cw); err != nil {
			wc.Close()
			return err
		}
		rep.Files = append(rep.Files, File{Name: name, URLs: urls, Size: cw.n})
		return wc.Close()
	}
	if err := write("sitemap.txt", len(entries), func(w io.Writer) error { return WriteText(w, entries) }); err != nil {
		return rep, err
	}
	if err := write("robots.txt", 0, func(w io.Writer) error { return WriteRobots(w, res.Sitemaps) }); err != nil {
		return rep, err
	}
	if err := write("footer.html", 0, func(w io.Writer) error { return WriteFooter(w, t, cfg.FooterDepth) }); err != nil {
		return rep, err
	}
	return rep, nil
}
