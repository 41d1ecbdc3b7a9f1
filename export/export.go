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
	Warnings []site.Warning
}

// Export writes all launch files of a tree into out: the sitemap file(s),
// sitemap.txt, robots.txt, footer.html and inventory.csv. Errors: EInvalid (nothing to
// export, bad location), ENotFound (section).
func Export(out Output, t *site.Tree, cfg Config) (Report, error) {
	sel, err := Select(t, cfg.Options)
	if err != nil {
		return Report{}, err
	}
	res, err := WriteSitemaps(out, sel.Each, SitemapOptions{MaxURLs: cfg.MaxURLs, Gzip: cfg.Gzip, BySection: cfg.BySection, Dir: sel.Dir})
	rep := Report{Result: res, Warnings: sel.Warnings()}
	if err != nil {
		return rep, err
	}
	files := []struct {
		name  string
		urls  int
		write func(io.Writer) error
	}{
		{"sitemap.txt", res.URLs, func(w io.Writer) error { return WriteText(w, sel.Each) }},
		{"robots.txt", 0, func(w io.Writer) error { return WriteRobots(w, res.Sitemaps) }},
		{"footer.html", 0, func(w io.Writer) error { return WriteFooter(w, t, cfg.FooterDepth) }},
		{"inventory.csv", 0, func(w io.Writer) error { return WriteInventory(w, t) }},
	}
	for _, f := range files {
		file, err := create(out, f.name, f.urls, f.write)
		if err != nil {
			return rep, err
		}
		rep.Files = append(rep.Files, file)
	}
	return rep, nil
}
