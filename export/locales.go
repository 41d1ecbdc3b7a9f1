package export

import (
	"cmp"
	"io"
	"strings"

	"siteplan/site"
)

// A localized plan's sitemaps: one file per locale (sitemap-de.xml, more
// past the protocol's limits, alternates included), all under the index
// sitemap.xml. Each <url> lists the page's alternates (site.Tree.Hreflang:
// its URL in every locale it is offered in, itself included, then
// x-default): the same list for every locale's entry of the page, so each
// alternate links back by construction, and never to a locale where the
// page is not offered.

// WriteLocalizedSitemaps writes the sitemaps of t's locales into out,
// with opt's limits and compression (opt.Localized is implied). It
// leaves out what an export of one locale would (pages of another kind,
// out of the sitemap, not offered in the locale) and warns of a URL
// outside the sitemaps' directory, whose host must name the index in its
// robots.txt for search engines to take it from here (cross-submission).
// Errors: EInvalid when the plan has no locales or nothing to export.
func WriteLocalizedSitemaps(out Output, t *site.Tree, opt SitemapOptions) (Result, []site.Warning, error) {
	pr := t.Project
	if len(pr.Locales) == 0 {
		return Result{}, nil, site.Errorf(site.EInvalid, "The plan has no locales: export its sitemap as one language.")
	}
	opt.Localized = true
	var warns []site.Warning
	hosts := map[string]bool{} // the other hosts warned of
	alternates := func(p *site.Page) []Alternate {
		var out []Alternate
		for _, h := range t.Hreflang(p.ID) {
			out = append(out, Alternate{Hreflang: h.Tag, Href: h.URL})
		}
		return out
	}
	entries := func(yield func(*Entry) error) error {
		var e Entry
		for _, l := range pr.Locales {
			var err error
			t.Walk(func(p *site.Page, _ int) bool {
				if err != nil {
					return false
				}
				loc := t.LocaleURL(p.ID, l.Tag)
				if !p.HasURL() || !p.InSitemap || loc == "" {
					return true
				}
				if why := site.ScopeProblem(loc, opt.Dir); why != "" && !hosts[site.Origin(loc)] {
					hosts[site.Origin(loc)] = true
					warns = append(warns, site.Warning{Title: l.Tag, Reason: "its URLs are on " + site.Origin(loc) +
						": add “Sitemap: " + opt.Dir + "sitemap.xml” to " + site.Origin(loc) + "/robots.txt so that search engines take them from this sitemap"})
				}
				e = Entry{PageID: p.ID, Section: l.Tag, Loc: loc, Lastmod: site.SitemapLastmod(cmp.Or(p.Lastmod, pr.Lastmod)),
					Changefreq: cmp.Or(p.Changefreq, pr.DefaultChangefreq), Alternates: alternates(p)}
				if v := cmp.Or(p.Priority, pr.DefaultPriority); v != nil {
					e.Priority = site.FormatPriority(*v)
				}
				err = yield(&e)
				return err == nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	res, err := WriteSitemaps(out, entries, opt)
	return res, warns, err
}

// exportLocalized writes a localized plan's launch files: the sitemaps
// of every locale under one index (WriteLocalizedSitemaps), robots.txt
// naming the index, each locale's sitemap-TAG.txt and footer-TAG.html,
// written as a one-language export of the plan in that locale would
// write them, and one inventory.csv with a row per page and locale.
// Errors: as Export; EInvalid for a source that cannot give the plan
// whole, or a section (a localized plan exports whole).
func exportLocalized(out Output, src site.PlanReader, cfg Config) (Report, error) {
	tr, ok := src.(TreeReader)
	if !ok {
		return Report{}, site.Errorf(site.EInvalid, "A localized plan is exported from the whole plan.")
	}
	if cfg.Section != 0 || cfg.LeavesOnly || cfg.BySection {
		return Report{}, site.Errorf(site.EInvalid, "A localized plan is exported whole, a file per locale: leave out the section, leaves-only and split-by-section options.")
	}
	t, err := tr.Tree()
	if err != nil {
		return Report{}, err
	}
	dir, err := Directory(t.Project, cfg.Location)
	if err != nil {
		return Report{}, err
	}
	res, warns, err := WriteLocalizedSitemaps(out, t, SitemapOptions{MaxURLs: cfg.MaxURLs, Gzip: cfg.Gzip, Dir: dir})
	rep := Report{Result: res, Warnings: warns}
	if err != nil {
		return rep, err
	}
	inv := &inventoryFile{out: out}
	defer inv.discard()
	for _, l := range t.Project.Locales {
		side := &localeFiles{out: out, tag: l.Tag, inventory: inv}
		r, err := Export(side, TreeSource(t.InLocale(l.Tag)), Config{FooterDepth: cfg.FooterDepth, Locale: l.Tag})
		if site.ErrorCode(err) == site.EInvalid && r.URLs == 0 {
			rep.Warnings = append(rep.Warnings, site.Warning{Title: l.Tag, Reason: "no page of the plan is offered with a URL in this locale"})
			continue
		}
		if err != nil {
			return rep, err
		}
		for _, f := range r.Files {
			if n, ok := side.kept[f.Name]; ok {
				f.Name = n
				rep.Files = append(rep.Files, f)
			}
		}
		for _, w := range r.Warnings {
			if w.Title != "" && w.PageID != 0 {
				w.Title += " (" + l.Tag + ")"
			}
			rep.Warnings = append(rep.Warnings, w)
		}
	}
	if f, ok, err := inv.commit(); err != nil {
		return rep, err
	} else if ok {
		rep.Files = append(rep.Files, f)
	}
	f, err := create(out, "robots.txt", 0, func(w io.Writer) error { return WriteRobots(w, res.Sitemaps) })
	if err != nil {
		return rep, err
	}
	rep.Files = append(rep.Files, f)
	return rep, nil
}

// inventoryFile is a localized export's inventory.csv: one file, under
// one header with a locale column, that each locale's export writes its
// rows into in turn (a row per page and locale). It is written aside
// (a sideFile: a zip takes one file at a time) and put in place at the
// end.
type inventoryFile struct {
	out  Output
	side *sideFile
}

// open is the file for the next locale's rows, started with its header
// the first time.
func (f *inventoryFile) open() (io.WriteCloser, error) {
	if f.side == nil {
		f.side = newSideFile(f.out, "inventory.csv")
		if _, err := f.side.Write(inventoryHeader(nil, true)); err != nil {
			return nil, err
		}
	}
	return nopWriteCloser{f.side}, nil
}

// commit puts the file among the output's, if a locale wrote to it.
func (f *inventoryFile) commit() (File, bool, error) {
	if f.side == nil {
		return File{}, false, nil
	}
	file, err := f.side.commit(0)
	return file, true, err
}

// discard removes what is left of the file aside.
func (f *inventoryFile) discard() {
	if f.side != nil {
		f.side.discard()
	}
}

// localeFiles keeps of a one-locale export the files a localized export
// has one of per locale, named for the locale (footer.html is
// footer-de.html), adds its inventory's rows to the one inventory.csv,
// and drops the rest: its sitemaps and robots.txt.
type localeFiles struct {
	out       Output
	tag       string
	inventory *inventoryFile
	kept      map[string]string // the export's name: the name written
}

func (l *localeFiles) Create(name string) (io.WriteCloser, error) {
	if name == "inventory.csv" {
		return l.inventory.open()
	}
	if name != "sitemap.txt" && name != "footer.html" {
		return nopWriteCloser{io.Discard}, nil
	}
	base, ext, _ := strings.Cut(name, ".")
	n := base + "-" + l.tag + "." + ext
	if l.kept == nil {
		l.kept = map[string]string{}
	}
	l.kept[name] = n
	return l.out.Create(n)
}
