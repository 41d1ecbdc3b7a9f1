package store

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"siteplan/export"
	"siteplan/internal/benchheap"
	"siteplan/internal/sitegen"
	"siteplan/site"
)

// BenchmarkImport100k imports a 100,000-page document into a fresh
// database (target: under 5 s).
func BenchmarkImport100k(b *testing.B) {
	d := sitegen.Document("Bench", 10, 100, 99) // 1 + 10 + 1,000 + 99,000 pages
	b.ReportMetric(float64(d.CountPages()), "pages")
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db, err := Open(testDSN(b))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := db.Projects.ImportDocument(context.Background(), 1, d); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		db.Close()
	}
}

// BenchmarkTree10k loads a 10,000-page project whole.
func BenchmarkTree10k(b *testing.B) {
	db := openTest(b)
	id, err := db.Projects.ImportDocument(context.Background(), 1, sitegen.Document("Bench", 10, 10, 99))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := db.Pages.Tree(context.Background(), id); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTreeBriefs10k loads a 10,000-page project whole, its pages
// without briefs (plain, the yardstick) and with full ones (briefs),
// measured in the same run: the bound is within 20%.
func BenchmarkTreeBriefs10k(b *testing.B) {
	for _, tc := range []struct {
		name string
		doc  *site.Document
	}{
		{"plain", sitegen.Document("Bench", 10, 10, 99)},
		{"briefs", sitegen.Briefs(sitegen.Document("Bench", 10, 10, 99))},
	} {
		b.Run(tc.name, func(b *testing.B) {
			db := openTest(b)
			id, err := db.Projects.ImportDocument(context.Background(), 1, tc.doc)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := db.Pages.Tree(context.Background(), id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExportBriefs10k exports a 10,000-page plan from SQLite
// (gzipped sitemaps, index, sitemap.txt, robots.txt, footer.html and
// inventory.csv, its brief columns included), its pages without briefs
// (plain, the yardstick) and with full ones (briefs), in the same run.
func BenchmarkExportBriefs10k(b *testing.B) {
	for _, tc := range []struct {
		name string
		doc  *site.Document
	}{
		{"plain", sitegen.Document("Bench", 10, 10, 99)},
		{"briefs", sitegen.Briefs(sitegen.Document("Bench", 10, 10, 99))},
	} {
		b.Run(tc.name, func(b *testing.B) {
			db := openTest(b)
			id, err := db.Projects.ImportDocument(context.Background(), 1, tc.doc)
			if err != nil {
				b.Fatal(err)
			}
			outline, err := db.Pages.Outline(context.Background(), id)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := export.Export(discardOutput{}, outline, export.Config{Gzip: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExportFromStore exports a project from SQLite, read as it is
// walked (Outline), to gzipped sitemaps and an index with sitemap.txt,
// robots.txt, footer.html and inventory.csv (target: within 4 times the
// gzip6 sub-benchmark, gzip -6 of the same uncompressed sitemap files one
// after the other, measured in the same run; peak live heap under 150 MB
// whatever the size). Importing the project is setup and not timed.
func BenchmarkExportFromStore(b *testing.B) {
	for _, size := range []struct {
		name                     string
		sections, topics, leaves int
	}{
		{"100k", 10, 100, 99},
		{"1M", 100, 100, 99},
		{"2M", 100, 199, 99}, // 1,990,101 pages: a document's most
	} {
		b.Run(size.name, func(b *testing.B) { benchExport(b, size.sections, size.topics, size.leaves) })
	}
}

// benchExport imports a generated plan and runs the export and its
// yardsticks on it: the walk alone and gzip -6 of the same sitemaps.
func benchExport(b *testing.B, sections, topics, leaves int) {
	db := openTest(b)
	id, err := db.Projects.ImportDocument(context.Background(), 1, sitegen.Document("Bench", sections, topics, leaves))
	if err != nil {
		b.Fatal(err)
	}
	outline, err := db.Pages.Outline(context.Background(), id)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("export", func(b *testing.B) {
		b.ResetTimer()
		benchheap.Measure(b, func() {
			for i := 0; i < b.N; i++ {
				rep, err := export.Export(discardOutput{}, outline, export.Config{Gzip: true})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(rep.URLs), "urls")
			}
		})
	})
	// The export's floor with this driver: the plan walked from the
	// database and nothing done with its pages.
	b.Run("walk", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			n := 0
			if err := outline.Walk(0, func(*site.Page, string, int) error { n++; return nil }); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(n), "pages")
		}
	})
	b.Run("gzip6", func(b *testing.B) {
		raw := &export.Memory{}
		if _, err := export.Export(raw, outline, export.Config{}); err != nil {
			b.Fatal(err)
		}
		zw, _ := gzip.NewWriterLevel(io.Discard, 6)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for _, name := range raw.Names {
				if strings.HasPrefix(name, "sitemap-") && strings.HasSuffix(name, ".xml") {
					zw.Reset(io.Discard)
					zw.Write(raw.Files[name].Bytes())
					zw.Close()
				}
			}
		}
	})
}

type discardOutput struct{}

func (discardOutput) Create(string) (io.WriteCloser, error) { return nopWriteCloser{}, nil }

type nopWriteCloser struct{}

func (nopWriteCloser) Write(p []byte) (int, error) { return len(p), nil }
func (nopWriteCloser) Close() error                { return nil }

// BenchmarkRedirectsView200k reads what the Redirects view shows of a
// plan holding 200,000 old URLs (site.MaxOldURLs): the figures, the old
// site's sections, and a page of 100 rows of a filter, the first and one
// far down (target: each under a tenth of the yardstick, loading the
// plan's 10,000 pages whole, as the picker does, measured in the same
// run). Attaching them is setup, reported apart (attach).
func BenchmarkRedirectsView200k(b *testing.B) {
	db := openTest(b)
	ctx := context.Background()
	pid, err := db.Projects.ImportDocument(ctx, 1, sitegen.Document("Bench", 10, 10, 99))
	if err != nil {
		b.Fatal(err)
	}
	tr, err := db.Pages.Tree(ctx, pid)
	if err != nil {
		b.Fatal(err)
	}
	var ids []int64
	tr.Walk(func(p *site.Page, _ int) bool { ids = append(ids, p.ID); return true })
	olds := make([]site.OldPage, site.MaxOldURLs)
	maps := make([]site.Mapping, len(olds))
	for i := range olds {
		olds[i] = site.OldPage{URL: fmt.Sprintf("https://old.example/section-%d/page-%d.html", i%40, i), Title: fmt.Sprintf("Page %d", i), Clicks: (i * 7919) % 5000}
		maps[i] = site.Mapping{From: olds[i].URL, Disposition: site.DispositionRedirect, PageID: ids[i%len(ids)], Status: 301, Confidence: 0.95, Accepted: i%5 != 0}
		if i%17 == 0 {
			maps[i] = site.Mapping{From: olds[i].URL, Disposition: site.DispositionReview}
		}
	}
	b.Run("attach", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := db.Redirects.AttachOldSite(ctx, pid, olds, maps); err != nil {
				b.Fatal(err)
			}
		}
	})
	view := func(f site.OldFilter) func(b *testing.B) {
		return func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := db.Redirects.RedirectStatus(ctx, pid); err != nil {
					b.Fatal(err)
				}
				if _, err := db.Redirects.OldSections(ctx, pid); err != nil {
					b.Fatal(err)
				}
				if list, _, err := db.Redirects.OldURLs(ctx, pid, f); err != nil || len(list) != 100 {
					b.Fatal(err, len(list))
				}
			}
		}
	}
	b.Run("all-first", view(site.OldFilter{Limit: 100}))
	b.Run("awaiting-far", view(site.OldFilter{Show: site.ShowAwaiting, Offset: 30_000, Limit: 100}))
	b.Run("section-clicks", view(site.OldFilter{Section: "section-7", MinClicks: 100, Limit: 100}))
	b.Run("yardstick-tree10k", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := db.Pages.Tree(ctx, pid); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRenameLaunched10k renames a leaf and a section of 1,001 pages
// of a 10,011-page plan, before and after its launch: after, the rename
// records the redirect of every launched URL it moved (the section: 1,001
// redirects), reading only the branch it moved.
func BenchmarkRenameLaunched10k(b *testing.B) {
	for _, launched := range []bool{false, true} {
		name := "before-launch"
		if launched {
			name = "launched"
		}
		b.Run(name, func(b *testing.B) {
			db := openTest(b)
			ctx := context.Background()
			pid, err := db.Projects.ImportDocument(ctx, 1, sitegen.Document("Bench", 10, 10, 99))
			if err != nil {
				b.Fatal(err)
			}
			if launched {
				if _, err := db.History.LaunchVersion(ctx, pid, "Live"); err != nil {
					b.Fatal(err)
				}
			}
			tr, _ := db.Pages.Tree(ctx, pid)
			var leaf, sec int64
			tr.Walk(func(p *site.Page, _ int) bool {
				if p.Title == "Section 0" {
					sec = p.ID
				}
				if p.ChildCount == 0 {
					leaf = p.ID
				}
				return true
			})
			rename := func(id int64, title string) {
				p, err := db.Pages.Page(ctx, id)
				if err == nil {
					_, err = db.Pages.RenamePage(ctx, id, title, p.Version)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			for i := 0; b.Loop(); i++ {
				rename(leaf, fmt.Sprintf("Leaf %d", i))
				rename(sec, fmt.Sprintf("Section %d", i))
			}
		})
	}
}

// BenchmarkCopy100k copies a database holding a 100,011-page plan (its
// history of one import) from a SQLite file into a new database: SQLite,
// or PostgreSQL under SITEPLAN_TEST_BACKEND=postgres (siteplan migrate).
func BenchmarkCopy100k(b *testing.B) {
	ctx := context.Background()
	src, err := Open(b.TempDir() + "/src.db")
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	if _, err := src.Projects.ImportDocument(ctx, 1, sitegen.Document("Bench", 10, 100, 99)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		dst, err := Open(testDSN(b))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := Copy(ctx, src, dst); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		dst.Close()
		b.StartTimer()
	}
}

// BenchmarkSearch searches a 10,000- and a 100,000-page plan from the
// index (target: under 5 ms), by a title's start ("Article 5.5", the
// pages 5.5.x) and by a word inside titles ("5.5"), beside the read of
// the whole plan that search was before (tree), in the same run.
func BenchmarkSearch(b *testing.B) {
	for _, size := range []struct {
		name string
		doc  *site.Document
	}{
		{"10k", sitegen.Document("Bench", 10, 10, 99)},
		{"100k", sitegen.Document("Bench", 10, 100, 99)},
	} {
		db := openTest(b)
		ctx := context.Background()
		id, err := db.Projects.ImportDocument(ctx, 1, size.doc)
		if err != nil {
			b.Fatal(err)
		}
		for _, q := range []struct{ name, q string }{{"title", "Article 5.5"}, {"word", "5.5"}} {
			b.Run(size.name+"/"+q.name, func(b *testing.B) {
				for b.Loop() {
					found, err := db.Pages.Search(ctx, id, q.q, 0, 30)
					if err != nil || len(found) != 30 {
						b.Fatalf("found %d (%v), want 30", len(found), err)
					}
				}
			})
		}
		b.Run(size.name+"/tree", func(b *testing.B) {
			for b.Loop() {
				if _, err := db.Pages.Tree(ctx, id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
