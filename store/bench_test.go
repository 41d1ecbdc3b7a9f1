package store

import (
	"context"
	"path/filepath"
	"testing"

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
