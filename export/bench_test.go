package export

import (
	"bytes"
	"compress/gzip"
	"io"
	"runtime"
	"strconv"
	"testing"

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

func peakHeap(b *testing.B, run func()) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	run()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "MB-alloc/op")
	b.ReportMetric(float64(after.HeapInuse)/(1<<20), "MB-heap-after")
}

// BenchmarkExportGzip exports a tree held in memory to gzipped sitemap
// files and an index (target: no slower than twice gzip -6 of the same
// bytes, see BenchmarkGzip6Baseline).
func BenchmarkExportGzip(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		t := benchTree(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			var out discard
			peakHeap(b, func() {
				for i := 0; i < b.N; i++ {
					entries, _, err := Collect(t, Options{})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := WriteSitemaps(&out, entries, SitemapOptions{Gzip: true, Dir: "https://bench.example/"}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.ReportMetric(float64(out.n)/float64(b.N)/(1<<20), "MB-gz-written/op")
		})
	}
}

// BenchmarkGzip6Baseline compresses the same uncompressed sitemap bytes
// with gzip level 6, the yardstick for BenchmarkExportGzip.
func BenchmarkGzip6Baseline(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		entries, _, _ := Collect(benchTree(n), Options{})
		var raw bytes.Buffer
		u, _ := NewURLSetWriter(&raw)
		for i := range entries {
			u.Write(&entries[i])
		}
		u.Close()
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(raw.Len()))
			for i := 0; i < b.N; i++ {
				zw, _ := gzip.NewWriterLevel(io.Discard, 6)
				zw.Write(raw.Bytes())
				zw.Close()
			}
		})
	}
}
