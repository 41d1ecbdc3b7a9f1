package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"siteplan/internal/pgtest"
	"siteplan/site"
)

// bigSite serves a sitemap index of files sitemaps of per URLs each on
// loopback, written as they are sent: /section-S/topic-T/page-N, 40
// sections of 25 topics.
func bigSite(b *testing.B, files, per int) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bw := bufio.NewWriterSize(w, 64<<10)
		defer bw.Flush()
		if r.URL.Path == "/sitemap_index.xml" {
			bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="` + site.SitemapNamespace + `">` + "\n")
			for f := range files {
				fmt.Fprintf(bw, "<sitemap><loc>%s/sitemap-%d.xml</loc><lastmod>2026-11-01</lastmod></sitemap>\n", srv.URL, f)
			}
			bw.WriteString("</sitemapindex>\n")
			return
		}
		f, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/sitemap-"), ".xml"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="` + site.SitemapNamespace + `">` + "\n")
		for i := f * per; i < (f+1)*per; i++ {
			fmt.Fprintf(bw, "<url><loc>%s/section-%d/topic-%d/page-%d</loc><lastmod>2026-11-01</lastmod></url>\n", srv.URL, i%40, i/40%25, i)
		}
		bw.WriteString("</urlset>\n")
	}))
	b.Cleanup(srv.Close)
	return srv
}

// peakRSS samples the process's resident memory until stop is closed and
// returns the highest, in MB.
func peakRSS(stop chan struct{}) func() float64 {
	var peak atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if b, err := os.ReadFile("/proc/self/statm"); err == nil {
				if f := strings.Fields(string(b)); len(f) > 1 {
					if pages, err := strconv.ParseInt(f[1], 10, 64); err == nil && pages*int64(os.Getpagesize()) > peak.Load() {
						peak.Store(pages * int64(os.Getpagesize()))
					}
				}
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() float64 { close(stop); <-done; return float64(peak.Load()) / (1 << 20) }
}

// gzipSeconds returns how long gzip -6 takes over the files of the
// index on srv, fetched one by one: a yardstick of the machine's speed
// that day (the 2-core machine ran 2.5 times slower on some days than on
// others), so that the benchmarks below report their time as a multiple
// of it too (x-gzip6).
func gzipSeconds(b *testing.B, srv *httptest.Server, files int) float64 {
	var took time.Duration
	for f := range files {
		resp, err := http.Get(fmt.Sprintf("%s/sitemap-%d.xml", srv.URL, f))
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		zw, _ := gzip.NewWriterLevel(io.Discard, 6)
		zw.Write(body)
		zw.Close()
		took += time.Since(start)
	}
	return took.Seconds()
}

// bareInsertSeconds returns how long the driver takes to write n rows of
// the 13 columns an import writes of a page of a sitemap into a table
// with nothing but its primary key, in a new SQLite file with the
// store's pragmas, 100 rows a statement and 10,000 a transaction, as
// the import writes them: the floor of any import into SQLite with this
// driver, a yardstick of the machine's speed beside gzip's (x-bare).
func bareInsertSeconds(b *testing.B, n int) float64 {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(b.TempDir(), "bare.db")+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=cache_size(-32768)&_txlock=immediate")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	const cols = 13
	if _, err := db.Exec(`CREATE TABLE pages (id INTEGER PRIMARY KEY, project_id INTEGER, parent_id INTEGER, position INTEGER, title TEXT, slug TEXT,
		slug_auto INTEGER, kind TEXT, priority REAL, changefreq TEXT, lastmod TEXT, search_key TEXT, search_words TEXT)`); err != nil {
		b.Fatal(err)
	}
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	insert := "INSERT INTO pages VALUES " + strings.TrimSuffix(strings.Repeat(row+", ", 100), ", ")
	args := make([]any, 0, 100*cols)
	start := time.Now()
	for chunk := 0; chunk < n; chunk += 10_000 {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		stmt, err := tx.Prepare(insert)
		if err != nil {
			b.Fatal(err)
		}
		for at := chunk; at < chunk+10_000; at += 100 {
			args = args[:0]
			for i := at; i < at+100; i++ {
				slug := "page-" + strconv.Itoa(i)
				args = append(args, i+1, 1, i/100+1, i%100, "Page "+strconv.Itoa(i), slug, 1, "page", nil, "", "2026-11-01", "page "+strconv.Itoa(i), slug)
			}
			if _, err := stmt.Exec(args...); err != nil {
				b.Fatal(err)
			}
		}
		stmt.Close()
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start).Seconds()
}

// BenchmarkImportSitemap1M imports a sitemap index of 20 files of 50,000
// URLs (1,000,000) from loopback into a new database, as siteplan import
// does: fetch, read, plan, write; into SQLite, or PostgreSQL under
// SITEPLAN_TEST_BACKEND=postgres. MB-peak is the process's highest
// resident memory while it runs (the test server's included); x-gzip6
// and x-bare its time as a multiple of gzip -6 over the same files and
// of a bare insert of as many rows (bareInsertSeconds, SQLite only).
func BenchmarkImportSitemap1M(b *testing.B) {
	srv := bigSite(b, 20, 50_000)
	gz := gzipSeconds(b, srv, 20)
	bare := 0.0
	if !pgtest.Running() {
		bare = bareInsertSeconds(b, 1_000_000)
	}
	for b.Loop() {
		db := pgtest.DSN(b, "import.db") // a new PostgreSQL database under SITEPLAN_TEST_BACKEND=postgres
		debug.FreeOSMemory()             // what an earlier benchmark left is not counted
		stop := peakRSS(make(chan struct{}))
		start := time.Now()
		var out bytes.Buffer
		err := run([]string{"import", "--db", db, "--allow-private", "--name", "Big", srv.URL + "/sitemap_index.xml"}, nil, &out)
		took := time.Since(start)
		mb := stop()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(mb, "MB-peak")
		b.ReportMetric(took.Seconds()/gz, "x-gzip6")
		if bare > 0 {
			b.ReportMetric(took.Seconds()/bare, "x-bare")
		}
	}
}

// BenchmarkCheckSitemap1M checks the same index: every URL read and
// held to the protocol's rules.
func BenchmarkCheckSitemap1M(b *testing.B) {
	srv := bigSite(b, 20, 50_000)
	gz := gzipSeconds(b, srv, 20)
	for b.Loop() {
		debug.FreeOSMemory() // what an earlier benchmark left is not counted
		stop := peakRSS(make(chan struct{}))
		start := time.Now()
		err := run([]string{"check", "--allow-private", srv.URL + "/sitemap_index.xml"}, nil, io.Discard)
		took := time.Since(start)
		mb := stop()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(mb, "MB-peak")
		b.ReportMetric(took.Seconds()/gz, "x-gzip6")
	}
}
