package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"siteplan/site"
	"siteplan/store"
)

// relaunchOf writes a relaunch of the sample's plan and old site with
// copies of both under regions /r1, /r2, ... with their own titles, as a
// site with several country sections has: 3 regions are four times the
// sample (the acceptance case), 13,816 old URLs and 10,753 pages. It
// returns the plan's document and the crawl's file.
func relaunchOf(b *testing.B, regions int) (*site.Document, string) {
	b.Helper()
	const dir = "../testdata/relaunch-sample/"
	doc, err := site.ReadDocumentFile(dir + "new-plan.json")
	if err != nil {
		b.Fatal(err)
	}
	raw, err := os.ReadFile(dir + "old-crawl.csv")
	if err != nil {
		b.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	home := doc.Pages[0]
	var copyPage func(p *site.DocPage, region string) *site.DocPage
	copyPage = func(p *site.DocPage, region string) *site.DocPage {
		c := *p
		c.Key, c.Title = "", p.Title+" ("+region+")"
		if c.Slug == nil {
			s := site.Slugify(p.Title)
			c.Slug = &s
		}
		c.Children = nil
		for _, ch := range p.Children {
			c.Children = append(c.Children, copyPage(ch, region))
		}
		return &c
	}
	originals := home.Children
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	w.WriteAll(rows)
	for r := 1; r <= regions; r++ {
		region := "r" + strconv.Itoa(r)
		slug := region
		sec := &site.DocPage{Title: "Region " + region, Slug: &slug}
		for _, ch := range originals {
			sec.Children = append(sec.Children, copyPage(ch, region))
		}
		home.Children = append(home.Children, sec)
		for _, row := range rows[1:] {
			u, err := url.Parse(row[0])
			if err != nil {
				b.Fatal(err)
			}
			u.Path = "/" + region + u.Path
			title, h1 := row[3], row[4]
			if title != "" {
				title = strings.Replace(title, " | ", " ("+region+") | ", 1)
			}
			if h1 != "" {
				h1 += " (" + region + ")"
			}
			w.Write([]string{u.String(), row[1], row[2], title, h1})
		}
	}
	w.Flush()
	crawl := filepath.Join(b.TempDir(), "old-crawl.csv")
	if err := os.WriteFile(crawl, out.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return doc, crawl
}

// relaunchDB writes relaunchOf's plan into a database of its own, which
// each run of the match copies (the document is not kept, so that it is
// not counted in the match's memory), and returns it with the plan's
// project and the crawl's file.
func relaunchDB(b *testing.B, regions int) (string, int64, string) {
	doc, crawl := relaunchOf(b, regions)
	db := filepath.Join(b.TempDir(), "plan.db")
	st, err := store.Open(db)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, _, err := st.Accounts.AddUser(context.Background(), "a@x.example", "A", "correct horse battery", "1", site.RoleOwner); err != nil {
		b.Fatal(err)
	}
	pid, err := st.Projects.ImportDocument(context.Background(), 1, doc)
	if err != nil {
		b.Fatal(err)
	}
	return db, pid, crawl
}

// BenchmarkRedirectsMatch runs siteplan redirects match on relaunches
// of 13,816, 58,718 and 196,878 old URLs (the product's limit is
// 200,000) with plans of about 10,750, 45,700 and 153,300 pages: the crawl read, the plan read,
// every URL matched, the map written into the database (target: 400 MB
// at any size, and time linear in it). Beside it, in the same run, a
// yardstick: reading the same crawl with encoding/csv and parsing each
// URL (x-read-crawl is the match's time as a multiple of it). MB-peak is
// the process's highest resident memory while it runs.
func BenchmarkRedirectsMatch(b *testing.B) {
	for _, size := range []struct {
		name    string
		regions int
	}{{"12k", 3}, {"60k", 16}, {"200k", 56}} {
		b.Run(size.name, func(b *testing.B) { benchmarkMatch(b, size.regions) })
	}
}

func benchmarkMatch(b *testing.B, regions int) {
	plan, pid, crawl := relaunchDB(b, regions)
	olds := site.Thousands(3454 * (regions + 1))
	readCrawl := func() {
		f, err := os.Open(crawl)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		r := csv.NewReader(f)
		r.ReuseRecord = true
		for {
			rec, err := r.Read()
			if err == io.EOF {
				return
			}
			url.Parse(rec[0])
		}
	}
	yardstick := func() time.Duration {
		start := time.Now()
		for range 5 {
			readCrawl()
		}
		return time.Since(start) / 5
	}
	for b.Loop() {
		b.StopTimer()
		db := filepath.Join(b.TempDir(), "relaunch.db")
		raw, err := os.ReadFile(plan)
		if err == nil {
			err = os.WriteFile(db, raw, 0o644)
		}
		if err != nil {
			b.Fatal(err)
		}
		raw = nil
		base := yardstick()
		debug.FreeOSMemory()
		stop := peakRSS(make(chan struct{}))
		b.StartTimer()
		start := time.Now()
		var out bytes.Buffer
		err = run([]string{"redirects", "match", "--db", db, "--project", strconv.FormatInt(pid, 10), crawl}, nil, &out)
		took := time.Since(start)
		b.StopTimer()
		mb := stop()
		if err != nil {
			b.Fatal(err)
		}
		if !strings.Contains(out.String(), olds+" old URLs attached") {
			b.Fatalf("match printed %q", out.String())
		}
		b.ReportMetric(mb, "MB-peak")
		b.ReportMetric(took.Seconds()/base.Seconds(), "x-read-crawl")
		b.ReportMetric(took.Seconds(), "s")
		b.StartTimer()
	}
}
