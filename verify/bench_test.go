package verify

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"siteplan/internal/sitegen"
	"siteplan/site"
)

// BenchmarkCheck10k verifies a clean site of a 10,111-page plan served on
// loopback (target: 60 s): every page fetched and read, the sitemaps
// read, 8 requests at a time. Beside it, in the same run, the yardstick:
// the same pages fetched with the same client and nothing checked
// (x-fetch is the check's time as a multiple of it).
func BenchmarkCheck10k(b *testing.B) {
	doc := sitegen.Document("Bench", 10, 10, 99)
	tr, _ := doc.Tree()
	var urls []string
	tr.WalkURLs(0, func(p *site.Page, u string) bool {
		if u != "" {
			urls = append(urls, u)
		}
		return true
	})
	prod := strings.TrimSuffix(tr.Project.RootPath(), "/")
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /private/\nSitemap: %s/sitemap.xml\n", srv.URL)
		case "/sitemap.xml":
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for _, u := range urls {
				fmt.Fprintf(w, "<url><loc>%s</loc></url>", srv.URL+strings.TrimPrefix(u, prod))
			}
			fmt.Fprint(w, "</urlset>")
		default:
			fmt.Fprintf(w, `<!doctype html><html><head><title>Page</title><meta name="robots" content="index, follow"><link rel="canonical" href="%s%s"></head><body><h1>Page</h1>%s</body></html>`,
				prod, r.URL.EscapedPath(), strings.Repeat("<p>Some words of the page.</p>", 60))
		}
	}))
	defer srv.Close()
	cfg := config(srv.URL)
	cfg.Concurrency = 8
	for b.Loop() {
		start := time.Now()
		for i := 0; i < len(urls); i += 8 {
			done := make(chan struct{}, 8)
			n := 0
			for _, u := range urls[i:min(i+8, len(urls))] {
				n++
				go func() {
					cfg.Hop(context.Background(), "GET", srv.URL+strings.TrimPrefix(u, prod), maxPageBody)
					done <- struct{}{}
				}()
			}
			for range n {
				<-done
			}
		}
		fetched := time.Since(start)
		start = time.Now()
		rep, err := Check(context.Background(), cfg, tr, nil)
		took := time.Since(start)
		if err != nil || len(rep.Problems) != 0 {
			b.Fatalf("%v %+v", err, rep.Problems[:min(3, len(rep.Problems))])
		}
		b.ReportMetric(float64(rep.Pages), "pages")
		b.ReportMetric(took.Seconds(), "s")
		b.ReportMetric(took.Seconds()/fetched.Seconds(), "x-fetch")
	}
}
