package export

import (
	"compress/gzip"
	"io"
	"strconv"
	"testing"

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
