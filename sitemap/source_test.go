package sitemap

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"siteplan/site"
)

// web is a fake web for the reader: bodies by URL, and redirects.
type web struct {
	pages     map[string][]byte
	redirects map[string]string
	mu        sync.Mutex // the reader opens files from several goroutines
	asked     []string
}

func (w *web) open(_ context.Context, loc string) (io.ReadCloser, string, error) {
	w.mu.Lock()
	w.asked = append(w.asked, loc)
	w.mu.Unlock()
	final := loc
	if to, ok := w.redirects[loc]; ok {
		final = to
	}
	b, ok := w.pages[final]
	if !ok {
		return nil, final, fmt.Errorf("%s answered 404 Not Found", loc)
	}
	return io.NopCloser(bytes.NewReader(b)), final, nil
}

func urlsetOf(locs ...string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="` + site.SitemapNamespace + `">` + "\n")
	for _, l := range locs {
		b.WriteString("<url><loc>" + l + "</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

func indexOf(locs ...string) []byte {
	var b strings.Builder
	b.WriteString(`<sitemapindex xmlns="` + site.SitemapNamespace + `">`)
	for _, l := range locs {
		b.WriteString("<sitemap><loc>" + l + "</loc></sitemap>")
	}
	b.WriteString("</sitemapindex>")
	return []byte(b.String())
}

// readSource reads a source and returns the URLs found (with their
// file) and each file as "loc<-from kind urls [err]".
func readSource(t *testing.T, w *web, r *Reader, source string) (*Reading, []string, []string, error) {
	t.Helper()
	r.Web = w.open
	var urls []string
	rep, err := r.Read(context.Background(), source, func(f *SourceFile, u *Found) error {
		urls = append(urls, u.Loc)
		return nil
	})
	var files []string
	for _, f := range rep.Files {
		s := fmt.Sprintf("%s<-%s %s %d", f.Loc, f.From, f.Kind, f.URLs)
		if f.Err != "" {
			s += " [" + f.Err + "]"
		}
		files = append(files, s)
	}
	return rep, urls, files, err
}

// TestReadSite: a site's robots.txt leads to its sitemaps (Sitemap:
// lines in any case), an index to its files, gzipped or not; a file that
// cannot be read is reported and the others are read.
func TestReadSite(t *testing.T) {
	w := &web{pages: map[string][]byte{
		"https://example.com/robots.txt":        []byte("User-agent: *\nDisallow: /admin\nSITEMAP: https://example.com/sitemap_index.xml\nsitemap:https://example.com/news.txt\nSitemap: https://example.com/gone.xml\n"),
		"https://example.com/sitemap_index.xml": indexOf("https://example.com/pages.xml.gz", "/posts.xml"),
		"https://example.com/pages.xml.gz":      gz(t, urlsetOf("https://example.com/", "https://example.com/about")),
		"https://example.com/posts.xml":         urlsetOf("https://example.com/blog/hello"),
		"https://example.com/news.txt":          []byte("https://example.com/news/1\n"),
	}}
	rep, urls, files, err := readSource(t, w, &Reader{}, "https://example.com")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(urls, " "); got != "https://example.com/ https://example.com/about https://example.com/blog/hello https://example.com/news/1" {
		t.Errorf("read URLs %s", got)
	}
	want := []string{
		"https://example.com/sitemap_index.xml<-https://example.com/robots.txt sitemapindex 2",
		"https://example.com/pages.xml.gz<-https://example.com/sitemap_index.xml urlset 2",
		"https://example.com/posts.xml<-https://example.com/sitemap_index.xml urlset 1",
		"https://example.com/news.txt<-https://example.com/robots.txt text 1",
		"https://example.com/gone.xml<-https://example.com/robots.txt  0 [answered 404 Not Found]",
	}
	if strings.Join(files, "\n") != strings.Join(want, "\n") {
		t.Errorf("files:\n%s\nwant\n%s", strings.Join(files, "\n"), strings.Join(want, "\n"))
	}
	if rep.URLs != 4 || rep.Robots != "https://example.com/robots.txt" || !rep.Files[1].Gzip {
		t.Errorf("report: %d URLs, robots %q, gzip %v", rep.URLs, rep.Robots, rep.Files[1].Gzip)
	}
}

// TestReadFallback: without robots.txt, or without a Sitemap: line in
// it, a site's /sitemap.xml is read, and the report says why; a source
// that leads to nothing readable is an error naming it; a redirect is
// followed and the file's final address kept.
func TestReadFallback(t *testing.T) {
	w := &web{
		pages: map[string][]byte{
			"https://www.example.com/sitemap.xml": urlsetOf("https://www.example.com/"),
			"https://other.example/robots.txt":    []byte("User-agent: *\n"),
			"https://other.example/sitemap.xml":   urlsetOf("https://other.example/"),
		},
		redirects: map[string]string{"https://example.com/sitemap.xml": "https://www.example.com/sitemap.xml"},
	}
	rep, urls, files, err := readSource(t, w, &Reader{Check: true}, "example.com")
	if err != nil || len(urls) != 1 || !strings.Contains(files[0], "robots.txt could not be read") || rep.Files[0].Final != "https://www.example.com/sitemap.xml" {
		t.Errorf("no robots.txt: %v, %q, files %q, final %q", err, urls, files, rep.Files[0].Final)
	}
	if len(rep.Files[0].Problems) != 0 {
		t.Errorf("the URL on the redirect's host is reported: %+v", rep.Files[0].Problems)
	}
	if !strings.HasPrefix(rep.RobotsNote, "robots.txt could not be read") {
		t.Errorf("no robots.txt: the reading's note is %q", rep.RobotsNote)
	}
	rep, urls, files, err = readSource(t, w, &Reader{}, "https://other.example/")
	if err != nil || len(urls) != 1 || !strings.Contains(files[0], "robots.txt has no Sitemap: line") || rep.RobotsNote != "robots.txt has no Sitemap: line" {
		t.Errorf("robots.txt without Sitemap: %v, %q, files %q, note %q", err, urls, files, rep.RobotsNote)
	}
	_, _, _, err = readSource(t, w, &Reader{}, "https://nowhere.example/")
	var ue *UnreadableError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "https://nowhere.example/") {
		t.Errorf("a site with nothing: %v", err)
	}
	_, _, _, err = readSource(t, w, &Reader{}, "not a source")
	if !errors.As(err, &ue) {
		t.Errorf("a source that is neither file nor URL: %v", err)
	}
}

// TestReadIndexRules: an index inside an index is an error and its files
// are not read; a file listed again (an index that lists itself) is a
// loop, reported, not read twice.
func TestReadIndexRules(t *testing.T) {
	w := &web{pages: map[string][]byte{
		"https://example.com/index.xml": indexOf("https://example.com/inner.xml", "https://example.com/index.xml", "https://example.com/a.xml"),
		"https://example.com/inner.xml": indexOf("https://example.com/b.xml"),
		"https://example.com/a.xml":     urlsetOf("https://example.com/a"),
		"https://example.com/b.xml":     urlsetOf("https://example.com/b"),
	}}
	rep, urls, files, err := readSource(t, w, &Reader{}, "https://example.com/index.xml")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(urls, " ") != "https://example.com/a" {
		t.Errorf("read %q, want only a.xml's URL", urls)
	}
	if len(files) != 4 || !strings.Contains(files[2], "already read") {
		t.Errorf("files:\n%s", strings.Join(files, "\n"))
	}
	inner := rep.Files[1]
	if len(inner.Problems) != 1 || inner.Problems[0].Rule != "nested-index" || !strings.Contains(inner.Problems[0].Msg, "https://example.com/index.xml") {
		t.Errorf("inner index problems: %+v", inner.Problems)
	}
	for _, a := range w.asked {
		if a == "https://example.com/b.xml" {
			t.Error("the nested index's file was read")
		}
	}
}

// TestReadLocalFile: a file on disk is read like one on the web, without
// asking the web, when the reader may read local files (the CLI's); a
// visitor's source never is.
func TestReadLocalFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sitemap.xml.gz")
	os.WriteFile(path, gz(t, urlsetOf("https://example.com/", "https://example.com/x")), 0o644)
	w := &web{}
	_, urls, _, err := readSource(t, w, &Reader{Local: true}, path)
	if err != nil || len(urls) != 2 || len(w.asked) != 0 {
		t.Errorf("a local file: %v, %q, asked the web %q", err, urls, w.asked)
	}
	// A visitor's source is never a file on the server.
	if _, _, _, err := readSource(t, w, &Reader{}, path); err == nil {
		t.Errorf("without Local, %s was read from disk", path)
	}
}

// TestCheckRules: each rule a URL can break is reported on its file,
// counted, with the first line that broke it.
func TestCheckRules(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("a", 2100)
	body := `<urlset xmlns="` + site.SitemapNamespace + `">
<url><loc>https://example.com/ok</loc><lastmod>2026-11-01T10:00:00+01:00</lastmod><changefreq>weekly</changefreq><priority>0.8</priority></url>
<url><loc>https://example.com/ok</loc></url>
<url><loc>http://example.com/ok</loc></url>
<url><loc>https://other.example/x</loc></url>
<url><loc>https://example.com/x?sid=123</loc></url>
<url><loc>https://example.com/y</loc><lastmod>2026-11-01T10:00:00</lastmod></url>
<url><loc>https://example.com/z</loc><lastmod>yesterday</lastmod><changefreq>Weekly</changefreq><priority>1.5</priority></url>
<url><loc>/relative</loc></url>
<url><loc>` + long + `</loc></url>
<url><loc>https://example.com/caf&#233; menu</loc></url>
<url><loc>https://example.com/ok2</loc><priority>1e-1</priority></url>
</urlset>`
	sub := urlsetOf("https://example.com/blog/a", "https://example.com/shop/b")
	w := &web{pages: map[string][]byte{"https://example.com/sitemap.xml": []byte(body), "https://example.com/blog/sitemap.xml": sub}}
	rep, _, _, err := readSource(t, w, &Reader{Check: true}, "https://example.com/sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range rep.Files[0].Problems {
		got = append(got, fmt.Sprintf("%s:%d:%d:%v", p.Rule, p.Line, p.Count, p.Error))
	}
	want := "duplicate:3:1:false scheme:4:1:true twin:4:1:false off-host:5:1:true session-id:6:1:false lastmod-zone:7:1:true lastmod:8:1:true changefreq:8:1:true priority:8:2:true loc-absolute:9:1:true loc-length:10:1:true loc-encoding:11:1:false"
	if strings.Join(got, " ") != want {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	rep, _, _, _ = readSource(t, w, &Reader{Check: true}, "https://example.com/blog/sitemap.xml")
	if ps := rep.Files[0].Problems; len(ps) != 1 || ps[0].Rule != "scope" || ps[0].Line != 4 {
		t.Errorf("a URL outside the sitemap's directory: %+v", ps)
	}
	if rep.Errors() != 1 {
		t.Errorf("Errors() = %d, want 1", rep.Errors())
	}
}

// TestProblemTimes: a problem met many times says each of the first
// MaxAlso+1 of them, not the first "N times": twelve different URLs each
// listed twice are twelve duplicates, ten of them named.
func TestProblemTimes(t *testing.T) {
	var locs []string
	for i := range 12 {
		locs = append(locs, fmt.Sprintf("https://example.com/p%d", i))
	}
	w := &web{pages: map[string][]byte{"https://example.com/sitemap.xml": urlsetOf(append(locs, locs...)...)}}
	rep, _, _, err := readSource(t, w, &Reader{Check: true}, "https://example.com/sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	ps := rep.Files[0].Problems
	if len(ps) != 1 || ps[0].Rule != "duplicate" || ps[0].Count != 12 || len(ps[0].Also) != MaxAlso {
		t.Fatalf("problems %+v, want one duplicate rule, 12 times, %d said again", ps, MaxAlso)
	}
	for i, msg := range append([]string{ps[0].Msg}, ps[0].Also...) {
		if want := fmt.Sprintf("%s is listed more than once", locs[i]); !strings.Contains(msg, want) {
			t.Errorf("time %d says %q, want %q", i+1, msg, want)
		}
	}
}

// TestReadCancel: a reading stops when its context ends or found says so.
func TestReadCancel(t *testing.T) {
	w := &web{pages: map[string][]byte{"https://example.com/s.xml": urlsetOf("https://example.com/a", "https://example.com/b")}}
	stop := errors.New("stop")
	n := 0
	_, err := (&Reader{Web: w.open}).Read(context.Background(), "https://example.com/s.xml", func(*SourceFile, *Found) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("found's error: %v after %d URLs", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (&Reader{Web: w.open}).Read(ctx, "https://example.com/s.xml", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled reading: %v", err)
	}
}

// TestReadUpload: a file a visitor sent is read as the source, and an
// index in it leads to its files on the web; the progress counts the
// files known as well as those read.
func TestReadUpload(t *testing.T) {
	w := &web{pages: map[string][]byte{
		"https://example.com/a.xml": urlsetOf("https://example.com/a"),
		"https://example.com/b.xml": urlsetOf("https://example.com/b", "https://example.com/c"),
	}}
	var seen []Progress
	r := &Reader{Web: w.open, Progress: func(p Progress) { seen = append(seen, p) }}
	var urls []string
	rep, err := r.ReadUpload(context.Background(), "index.xml", bytes.NewReader(indexOf("https://example.com/a.xml", "https://example.com/b.xml")),
		func(_ *SourceFile, u *Found) error { urls = append(urls, u.Loc); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 3 || rep.Files[0].Loc != "index.xml" || rep.Files[0].Kind != KindIndex || len(urls) != 3 {
		t.Errorf("files %+v, urls %q", rep.Files, urls)
	}
	want := []Progress{{Files: 1, Listed: 3}, {Files: 2, Listed: 3, URLs: 1}, {Files: 3, Listed: 3, URLs: 3}}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("progress %v, want %v", seen, want)
	}
	rep, _ = r.ReadUpload(context.Background(), "page.html", strings.NewReader("<html><body>hi</body></html>"), nil)
	if f := rep.Files[0]; len(f.Problems) != 1 || f.Problems[0].Rule != "not-sitemap" || rep.Errors() != 1 {
		t.Errorf("an HTML upload: %+v", f.Problems)
	}
}

// TestLines: the lines around a line, from gzip too, each cut at
// MaxLineShown bytes, a cut character replaced rather than broken; the
// lines around several lines from one reading.
func TestLines(t *testing.T) {
	var text strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&text, "line %d\r\n", i)
	}
	long := strings.Repeat("é", MaxLineShown) // 2 bytes each
	text.WriteString(long + "\nlast")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text.String()))
	zw.Close()
	for name, body := range map[string][]byte{"plain": []byte(text.String()), "gzip": gz.Bytes()} {
		first, lines, err := Lines(bytes.NewReader(body), 10, 2)
		if err != nil || first != 8 || strings.Join(lines, "|") != "line 8|line 9|line 10|line 11|line 12" {
			t.Errorf("%s: %d %q %v", name, first, lines, err)
		}
		first, lines, _ = Lines(bytes.NewReader(body), 21, 3)
		if first != 18 || len(lines) != 5 || lines[4] != "last" || len(lines[3]) > MaxLineShown+2 || !utf8.ValidString(lines[3]) || !strings.HasPrefix(lines[3], "éé") {
			t.Errorf("%s: %d %q", name, first, lines)
		}
		// Several excerpts from one reading, overlapping, one past the end.
		ex, err := Excerpts(bytes.NewReader(body), []int{5, 2, 6, 40}, 1)
		var got []string
		for _, e := range ex {
			got = append(got, fmt.Sprint(e.Line, e.First, e.Lines))
		}
		if want := "5 4 [line 4 line 5 line 6]|2 1 [line 1 line 2 line 3]|6 5 [line 5 line 6 line 7]|40 39 []"; err != nil || strings.Join(got, "|") != want {
			t.Errorf("%s: excerpts %q (%v), want %q", name, got, err, want)
		}
	}
}

// TestReadMaxURLs: a reading with site.MaxSitemapURLs stops with EInvalid at the
// first URL past it, saying so; without, it reads them all.
func TestReadMaxURLs(t *testing.T) {
	w := &web{pages: map[string][]byte{"https://example.com/s.xml": urlsetOf("https://example.com/a", "https://example.com/b", "https://example.com/c")}}
	found := 0
	rep, err := (&Reader{Web: w.open, MaxURLs: 2}).Read(context.Background(), "https://example.com/s.xml", func(*SourceFile, *Found) error { found++; return nil })
	if site.ErrorCode(err) != site.EInvalid || !strings.Contains(site.ErrorMessage(err), "more than 2 URLs") || found != 2 || rep.URLs != 3 {
		t.Errorf("got %v after %d URLs found (%d read)", err, found, rep.URLs)
	}
	if _, err := (&Reader{Web: w.open}).Read(context.Background(), "https://example.com/s.xml", nil); err != nil {
		t.Errorf("without a bound: %v", err)
	}
}

// TestReadBoundsReport: an index that lists many more files than a
// reading reads keeps a row for the first MaxFiles only and counts the
// rest; long addresses and errors are clipped, so the report's size does
// not grow with what the site lists.
func TestReadBoundsReport(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("x", 3000) + ".xml"
	locs := []string{"https://example.com/a.xml", "https://example.com/a.xml", long}
	for i := range 5000 {
		locs = append(locs, fmt.Sprintf("https://example.com/%s-%d.xml", strings.Repeat("y", 900), i))
	}
	w := &web{pages: map[string][]byte{
		"https://example.com/index.xml": indexOf(locs...),
		"https://example.com/a.xml":     urlsetOf("https://example.com/a"),
	}}
	var last Progress
	r := &Reader{MaxFiles: 20, Progress: func(p Progress) { last = p }}
	rep, _, files, err := readSource(t, w, r, "https://example.com/index.xml")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(rep.Files), 20; got != want {
		t.Fatalf("rows: got %d, want %d", got, want)
	}
	if got, want := rep.Unread, len(locs)+1-20; got != want {
		t.Errorf("unread: got %d, want %d", got, want)
	}
	if last.Files != len(locs)+1 || last.Listed != len(locs)+1 {
		t.Errorf("last progress %+v, want every file of %d counted", last, len(locs)+1)
	}
	if !strings.Contains(files[2], "already read") || !strings.Contains(files[3], "longer than the 2048 characters") {
		t.Errorf("files:\n%s", strings.Join(files[:4], "\n"))
	}
	size := 0
	for _, f := range rep.Files {
		size += len(f.Loc) + len(f.Final) + len(f.From) + len(f.Err)
		if len(f.Loc) > site.MaxURLLen || len(f.Err) > maxErrLen {
			t.Errorf("a row kept %d bytes of address, %d of error", len(f.Loc), len(f.Err))
		}
	}
	if size > 20*4000 {
		t.Errorf("the rows keep %d bytes", size)
	}
	for _, a := range w.asked {
		if a == long {
			t.Error("a file whose address is too long was fetched")
		}
	}
}

// TestReadFileTimeout: a file that times out alone (its server sent no
// headers in time: the error says DeadlineExceeded) fails alone, and
// the files after it are read; only the reading's own end stops it.
func TestReadFileTimeout(t *testing.T) {
	w := &web{pages: map[string][]byte{
		"https://example.com/index.xml": indexOf("https://example.com/a.xml", "https://example.com/slow.xml", "https://example.com/b.xml"),
		"https://example.com/a.xml":     urlsetOf("https://example.com/a"),
		"https://example.com/b.xml":     urlsetOf("https://example.com/b"),
	}}
	open := func(ctx context.Context, loc string) (io.ReadCloser, string, error) {
		if strings.HasSuffix(loc, "/slow.xml") {
			return nil, loc, fmt.Errorf("%s did not answer in time: %w", loc, context.DeadlineExceeded)
		}
		return w.open(ctx, loc)
	}
	var urls []string
	rep, err := (&Reader{Web: open}).Read(context.Background(), "https://example.com/index.xml", func(_ *SourceFile, u *Found) error {
		urls = append(urls, u.Loc)
		return nil
	})
	if err != nil {
		t.Fatalf("the reading ended: %v", err)
	}
	if got, want := strings.Join(urls, " "), "https://example.com/a https://example.com/b"; got != want {
		t.Errorf("URLs: got %q, want %q", got, want)
	}
	if got := rep.Files[2].Err; !strings.Contains(got, "did not answer in time") {
		t.Errorf("slow.xml's error: %q", got)
	}
}
