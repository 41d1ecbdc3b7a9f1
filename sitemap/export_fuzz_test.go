package sitemap

import (
	"bytes"
	"strings"
	"testing"

	"siteplan/export"
	"siteplan/site"
)

// FuzzExportRoundTrip: whatever plan a team makes (titles, slugs, path
// overrides, lastmods), the sitemap.xml it exports reads back with no
// problem at all, lists exactly sitemap.txt's URLs, and breaks none of the
// rules siteplan check holds a site's sitemaps to.
//
// A line of the input is a page: its depth in leading spaces, then
// title|slug|path|lastmod (slug, path and lastmod optional).
func FuzzExportRoundTrip(f *testing.F) {
	f.Add("Home|\n About us|about\n Café & Bar\n  Menu <1>||/de/menu?a=1&b='2'\n News|||2026-11-01T10:00:00+01:00\n Ünïcode|straße|\n X||https://example.com/de/x y")
	f.Add("Home|\n A|a\n  B|b|/de/a/b/\n A again|a")
	f.Fuzz(func(t *testing.T, in string) {
		doc := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "F", BaseURL: "https://example.com/de/"}}
		var levels []*[]*site.DocPage // where a page at each depth goes
		levels = append(levels, &doc.Pages)
		for i, line := range strings.Split(in, "\n") {
			if i == 200 {
				break
			}
			text := strings.TrimLeft(line, " ")
			depth := min(len(line)-len(text), len(levels)-1)
			f := strings.Split(text, "|")
			p := &site.DocPage{Title: f[0]}
			if len(f) > 1 {
				p.Slug = &f[1]
			}
			if len(f) > 2 && f[2] != "" {
				p.Path = &f[2]
			}
			if len(f) > 3 {
				p.Lastmod = f[3]
			}
			*levels[depth] = append(*levels[depth], p)
			levels = append(levels[:depth+1], &p.Children)
		}
		if doc.Validate() != nil {
			return
		}
		tr, _ := doc.Tree()
		out := &export.Memory{}
		if _, err := export.Export(out, export.TreeSource(tr), export.Config{}); err != nil {
			return // nothing to export
		}
		var got []string
		r := newRules()
		var ps problems
		read, err := ReadDocument(bytes.NewReader(out.Files["sitemap.xml"].Bytes()), func(_ *Document, u *Found) error {
			got = append(got, u.Loc)
			r.check(&ps, "https://example.com/de/sitemap.xml", u)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range append(read.Problems, ps.list...) {
			if p.Error || p.Rule == "loc-encoding" || p.Rule == "duplicate" || read.Kind != KindURLSet {
				t.Errorf("%s: %+v\n%s", read.Kind, p, out.Files["sitemap.xml"])
			}
		}
		if want := strings.Fields(out.Files["sitemap.txt"].String()); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("sitemap.xml lists\n%q\nsitemap.txt\n%q", got, want)
		}
	})
}
