package export

import (
	"compress/gzip"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"siteplan/internal/benchheap"
	"siteplan/site"
)

// discard counts what an export writes and keeps nothing.
type discard struct{ n int64 }

func (d *discard) Create(string) (io.WriteCloser, error) { return d, nil }
func (d *discard) Write(p []byte) (int, error)           { d.n += int64(len(p)); return len(p), nil }
func (d *discard) Close() error                          { return nil }

// benchTree builds a project of n pages in sections of 1,000.
func benchTree(n int) *site.Tree {
	pr := site.Project{Name: "Bench", BaseURL: "https://bench.example/", Lastmod: "2026-11-01"}
	pages := make([]site.Page, 0, n)
	var id int64
	for len(pages) < n {
		id++
		sec := id
		s := site.NewPage("Section")
		s.ID, s.Position, s.Slug = sec, int(sec), "section-"+strconv.FormatInt(sec, 10)
		pages = append(pages, s)
		for i := 0; i < 999 && len(pages) < n; i++ {
			id++
			p := site.NewPage("Article")
			p.ID, p.ParentID, p.Position, p.Slug = id, sec, i, "article-"+strconv.FormatInt(id, 10)
			pages = append(pages, p)
		}
	}
	return site.NewTree(pr, pages)
}

// BenchmarkExportGzip exports a tree held in memory to gzipped sitemap
// files and an index (target: no slower than twice gzip -6 of the same
// bytes, see BenchmarkGzip6Baseline; memory flat as the count grows).
func BenchmarkExportGzip(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000, 2_000_000} {
		t := benchTree(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			var out discard
			benchheap.Measure(b, func() {
				for i := 0; i < b.N; i++ {
					sel, err := Select(TreeSource(t), Options{})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := WriteSitemaps(&out, sel.Each, SitemapOptions{Gzip: true, Dir: sel.Dir}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.ReportMetric(float64(out.n)/float64(b.N)/(1<<20), "MB-gz-written/op")
		})
	}
}

// BenchmarkGzip6Baseline compresses the same uncompressed sitemap files
// with gzip level 6 one after the other, as `gzip -6 sitemap-*.xml` does:
// the yardstick for BenchmarkExportGzip.
func BenchmarkGzip6Baseline(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		t := benchTree(n)
		sel, _ := Select(TreeSource(t), Options{})
		raw := &Memory{}
		if _, err := WriteSitemaps(raw, sel.Each, SitemapOptions{Dir: sel.Dir}); err != nil {
			b.Fatal(err)
		}
		var size int64
		for _, f := range raw.Files {
			size += int64(f.Len())
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(size)
			zw, _ := gzip.NewWriterLevel(io.Discard, 6)
			for i := 0; i < b.N; i++ {
				for _, name := range raw.Names {
					if name == "sitemap.xml" { // the index
						continue
					}
					zw.Reset(io.Discard)
					zw.Write(raw.Files[name].Bytes())
					zw.Close()
				}
			}
		})
	}
}

// localizedTree is benchTree's plan of n pages in nl locales (a prefix
// each), every other page with slugs of its own in each locale, and one
// page in ten (a different tenth in each locale) not offered there.
func localizedTree(n, nl int) *site.Tree {
	t := benchTree(n)
	pr := t.Project
	tags := []string{"en", "de", "fr", "it", "es", "nl", "sv", "nb", "da", "fi", "pl", "cs", "pt", "pt-BR", "es-MX", "fr-CA", "de-CH", "ja", "ko", "zh-Hant"}
	for i := range nl {
		pr.Locales = append(pr.Locales, site.Locale{Tag: tags[i], Default: i == 0, Prefix: "/" + strings.ToLower(tags[i]) + "/"})
	}
	pages := t.Pages()
	for i := range pages {
		p := &pages[i]
		p.Variants = map[string]site.Variant{}
		for j, l := range pr.Locales[1:] {
			v := site.Variant{State: site.VariantReady}
			if p.ParentID != 0 && (int(p.ID)+j)%10 == 0 {
				v.State = site.VariantNotOffered
			}
			if p.ID%2 == 0 {
				v.Slug = p.Slug + "-" + strings.ToLower(l.Tag)
			}
			p.Variants[l.Tag] = v
		}
	}
	return site.NewTree(pr, pages)
}

// BenchmarkExportLocalized exports a plan of 5,000 pages in 20 locales
// (about 90,000 URLs, each with its alternates) to gzipped sitemaps, and
// gzip -6 of the same uncompressed bytes in the same run, reporting the
// ratio (x-gzip6, target ≤ 6) and the peak heap (target ≤ 300 MB).
func BenchmarkExportLocalized(b *testing.B) {
	t := localizedTree(5_000, 20)
	raw := &Memory{}
	if _, _, err := WriteLocalizedSitemaps(raw, t, SitemapOptions{Dir: "https://bench.example/"}); err != nil {
		b.Fatal(err)
	}
	gzip6 := func() {
		zw, _ := gzip.NewWriterLevel(io.Discard, 6)
		for _, name := range raw.Names {
			zw.Reset(io.Discard)
			zw.Write(raw.Files[name].Bytes())
			zw.Close()
		}
	}
	var out discard
	var export, base float64
	benchheap.Measure(b, func() {
		for i := 0; i < b.N; i++ {
			start := time.Now()
			gzip6()
			base += time.Since(start).Seconds()
			start = time.Now()
			if _, _, err := WriteLocalizedSitemaps(&out, t, SitemapOptions{Gzip: true, Dir: "https://bench.example/"}); err != nil {
				b.Fatal(err)
			}
			export += time.Since(start).Seconds()
		}
	})
	b.ReportMetric(export/base, "x-gzip6")
	b.ReportMetric(float64(out.n)/float64(b.N)/(1<<20), "MB-gz-written/op")
}
