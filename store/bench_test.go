package store

import (
	"context"
	"io"
	"path/filepath"
	"runtime"
	"testing"

	"siteplan/export"
	"siteplan/site"
)

// BenchmarkImport100k imports a 100,000-page document into a fresh
// database (target: under 5 s).
func BenchmarkImport100k(b *testing.B) {
	d := site.GenerateDocument("Bench", 10, 100, 99) // 1 + 10 + 1,000 + 99,000 pages
	b.ReportMetric(float64(d.CountPages()), "pages")
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db, err := Open(filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := db.ImportDocument(context.Background(), 1, d); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		db.Close()
	}
}

// BenchmarkTree10k loads a 10,000-page project whole.
func BenchmarkTree10k(b *testing.B) {
	db := openTest(b)
	id, err := db.ImportDocument(context.Background(), 1, site.GenerateDocument("Bench", 10, 10, 99))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := db.Tree(context.Background(), id); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExportFromStore loads a project from SQLite and exports it to
// gzipped sitemaps and an index (target for 1,000,000 pages: under 5 s).
// Importing the project is setup and not timed.
func BenchmarkExportFromStore(b *testing.B) {
	for _, size := range []struct {
		name                     string
		sections, topics, leaves int
	}{
		{"100k", 10, 100, 99},
		{"1M", 100, 100, 99},
	} {
		b.Run(size.name, func(b *testing.B) {
			db := openTest(b)
			id, err := db.ImportDocument(context.Background(), 1, site.GenerateDocument("Bench", size.sections, size.topics, size.leaves))
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t, err := db.ExportTree(context.Background(), id)
				if err != nil {
					b.Fatal(err)
				}
				rep, err := export.Export(discardOutput{}, t, export.Config{Gzip: true})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(rep.URLs), "urls")
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "MB-alloc/op")
		})
	}
}

type discardOutput struct{}

func (discardOutput) Create(string) (io.WriteCloser, error) { return nopWriteCloser{}, nil }

type nopWriteCloser struct{}

func (nopWriteCloser) Write(p []byte) (int, error) { return len(p), nil }
func (nopWriteCloser) Close() error                { return nil }
