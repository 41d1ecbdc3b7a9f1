package main

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"siteplan/site"
	"siteplan/store"
)

// siteProbes re-runs the attacks on live-site readings that gave way in
// the third hardening round (issue 31), against sites on loopback, each
// beside another team whose work is timed:
//
//  4. one account checks an index of 45,000 sitemaps with 1 KB
//     addresses 16 times, then views the report six times;
//  5. one team reads a site that trickles a byte a second while another
//     team imports a 200,000-URL site;
//  6. an account uploads a 10 MB sitemap and cancels it while it waits,
//     20 times;
//  7. one account loops "show lines" against a site that no longer
//     answers while another team downloads, searches and exports.
func siteProbes(db *store.Store, base string) error {
	ctx := context.Background()
	for _, u := range []struct{ email, team string }{
		{"a1@load.example", "Team A"}, {"a2@load.example", "Team A"}, {"b@load.example", "Team B"},
	} {
		if _, _, err := db.Accounts.AddUser(ctx, u.email, "User "+u.email, password, u.team, site.RoleOwner); err != nil {
			return err
		}
	}
	sites, stop, err := hostileSites()
	if err != nil {
		return err
	}
	defer stop()
	login := func(n int, email string) (*user, error) {
		u := newUser(base, n)
		if !u.login(email) {
			return nil, fmt.Errorf("%s cannot log in", email)
		}
		return u, nil
	}
	a, err := login(10, "a1@load.example")
	if err != nil {
		return err
	}
	a2, err := login(11, "a2@load.example")
	if err != nil {
		return err
	}
	b, err := login(12, "b@load.example")
	if err != nil {
		return err
	}

	// 4. Report memory.
	fmt.Println("\n4. one account checks an index of 45,000 sitemaps with 1 KB addresses 16 times, then views the report six times")
	before := heap()
	var last string
	t0 := time.Now()
	for range 16 {
		if last, err = a.job("/sites/check", url.Values{"source": {sites + "/big-index.xml"}}); err != nil {
			return err
		}
		a.finish(last)
	}
	fmt.Printf("   16 checks in %s; the process's heap in use: %s before, %s after; resident %s (peak %s)\n",
		ms(time.Since(t0)), before, heap(), rss(), peakRSS())
	for i := range 6 {
		t0 := time.Now()
		code, n := a.get(last, false)
		if i == 0 || i == 5 {
			fmt.Printf("   report view %d: %d, %s of HTML in %s\n", i+1, code, bytesize(n), ms(time.Since(t0)))
		}
	}

	// 5. A slow reading beside another team's import.
	fmt.Println("\n5. team A reads a site that trickles a byte a second; a second later team B imports a 200,000-URL site")
	slow, err := a.job("/sites/check", url.Values{"source": {sites + "/trickle/"}})
	if err != nil {
		return err
	}
	time.Sleep(time.Second)
	t0 = time.Now()
	imp, err := b.job("/sites/import", url.Values{"source": {sites + "/200k/"}, "name": {"200k probe"}})
	if err != nil {
		return err
	}
	state := b.finish(imp)
	fmt.Printf("   team B's import: %s in %s\n", state, ms(time.Since(t0)))
	t0 = time.Now()
	fmt.Printf("   team A's slow reading: %s %s later", a.finish(slow), ms(time.Since(t0)))
	if body, _ := a.do("probe: job", "GET", slow, nil, false); fileErrorRE.Match(body) {
		fmt.Printf(" (%s)", html.UnescapeString(string(fileErrorRE.FindSubmatch(body)[1])))
	}
	fmt.Println()

	// 6. Uploads cancelled while they wait.
	fmt.Println("\n6. an account uploads a 10 MB sitemap and cancels it while it waits, 20 times")
	held, err := a.job("/sites/check", url.Values{"source": {sites + "/trickle/"}}) // team A's reader is busy: team A's uploads wait
	if err != nil {
		return err
	}
	big := bytes.Repeat([]byte("<url><loc>https://upload.example/a-page-of-the-old-site</loc></url>\n"), 10<<20/68)
	t0 = time.Now()
	for range 20 {
		page, err := a2.upload(append([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`), append(big, "</urlset>"...)...))
		if err != nil {
			return err
		}
		a2.do("probe: cancel", "POST", page+"/cancel", url.Values{}, false)
		a2.finish(page)
	}
	a.do("probe: cancel", "POST", held+"/cancel", url.Values{}, false)
	a.finish(held)
	left, size := uploadsLeft()
	fmt.Printf("   20 cycles in %s; left in the upload directories: %d files, %s\n", ms(time.Since(t0)), left, bytesize(int(size)))

	// 7. "Show lines" against a site that no longer answers.
	fmt.Println("\n7. one account loops \"show lines\" against a site that no longer answers; another team downloads, searches, exports")
	lines, err := a.job("/sites/check", url.Values{"source": {sites + "/lines/sitemap.xml"}})
	if err != nil {
		return err
	}
	a.finish(lines)
	body, _ := a.do("probe: report", "GET", lines, nil, false)
	href := lineLinkRE.FindSubmatch(body)
	if href == nil {
		return fmt.Errorf("the report of the lines probe has no line link")
	}
	bp, err := b.project()
	if err != nil {
		return err
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	var answers sync.Map
	for i := range 2 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				code := a.status(string(href[1]))
				n, _ := answers.LoadOrStore(code, new(atomic.Int32))
				n.(*atomic.Int32).Add(1)
				if i == 1 {
					time.Sleep(100 * time.Millisecond)
				}
			}
		})
	}
	time.Sleep(time.Second)
	for _, r := range []struct{ what, path string }{
		{"document download", bp + "/document.json"},
		{"search", bp + "/search?q=page"},
		{"sitemap.xml", bp + "/sitemap.xml"},
		{"document download again", bp + "/document.json"},
	} {
		t0 := time.Now()
		code, n := b.get(r.path, false)
		fmt.Printf("   team B's %s: %d, %s in %s\n", r.what, code, bytesize(n), ms(time.Since(t0)))
	}
	close(done)
	wg.Wait()
	answers.Range(func(k, v any) bool {
		fmt.Printf("   show lines answered %d: %d times\n", k, v.(*atomic.Int32).Load())
		return true
	})
	return nil
}

var fileErrorRE = regexp.MustCompile(`class="field-error">([^<]+)<`)

// status GETs path quietly and returns its status.
func (u *user) status(path string) int {
	resp, err := u.hc.Get(u.base + path)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// heap is the Go heap in use after a collection: the server's and the
// probes' own.
func heap() string {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return bytesize(int(m.HeapInuse))
}

var lineLinkRE = regexp.MustCompile(`href="(/sites/jobs/[0-9a-f]+/files/\d+\?line=\d+)"`)

// job starts a live-site job by posting form to path and returns the
// job's page.
func (u *user) job(path string, form url.Values) (string, error) {
	req, _ := http.NewRequest("POST", u.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-CSRF-Token", u.csrf)
	return u.started(req)
}

// upload starts an import of an uploaded sitemap and returns its page.
func (u *user) upload(sitemap []byte) (string, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "old-site.xml")
	fw.Write(sitemap)
	mw.Close()
	req, _ := http.NewRequest("POST", u.base+"/sites/import", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-CSRF-Token", u.csrf)
	return u.started(req)
}

// started sends a request that starts a job and returns the job's page,
// where it led.
func (u *user) started(req *http.Request) (string, error) {
	resp, err := u.hc.Do(req)
	if err != nil {
		return "", err
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
	if resp.StatusCode >= 400 || !strings.HasPrefix(resp.Request.URL.Path, "/sites/jobs/") {
		return "", fmt.Errorf("%s %s: %d %.200s", req.Method, req.URL.Path, resp.StatusCode, b)
	}
	return resp.Request.URL.Path, nil
}

var stateRE = regexp.MustCompile(`data-state="(\w+)"`)

// finish waits for the job at page to end (its stream of events ends
// then) and returns its state.
func (u *user) finish(page string) string {
	u.get(page+"/events", false)
	body, _ := u.do("probe: job", "GET", page, nil, false)
	if m := stateRE.FindSubmatch(body); m != nil {
		return string(m[1])
	}
	return "unknown"
}

// project makes a project of u's team and returns its path.
func (u *user) project() (string, error) {
	body, ok := u.do("probe: new project", "POST", "/projects", url.Values{"name": {"Team B plan"}, "base_url": {"https://b.example/"}}, false)
	if !ok {
		return "", fmt.Errorf("team B cannot make a project")
	}
	if m := projectRE.FindSubmatch(body); m != nil {
		return "/projects/" + string(m[1]), nil
	}
	return "", fmt.Errorf("no project in %.200s", body)
}

var projectRE = regexp.MustCompile(`/projects/(\d+)`)

// hostileSites serves the probes' sites on loopback: a large index whose
// sitemaps do not exist, a site that trickles a byte a second, a site of
// 200,000 URLs in four sitemaps, and a sitemap with a problem on line 3
// that answers once, then never again. It returns their base URL.
func hostileSites() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	stop := make(chan struct{})
	var linesRead atomic.Int32
	pad := strings.Repeat("x", 1000)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := "http://" + r.Host
		switch p := r.URL.Path; {
		case p == "/big-index.xml":
			fmt.Fprint(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range 45_000 {
				fmt.Fprintf(w, "<sitemap><loc>%s/gone/%s-%d.xml</loc></sitemap>\n", host, pad, i)
			}
			fmt.Fprint(w, `</sitemapindex>`)
		case strings.HasPrefix(p, "/trickle/"):
			w.WriteHeader(http.StatusOK)
			for {
				w.Write([]byte(" "))
				w.(http.Flusher).Flush()
				select {
				case <-time.After(time.Second):
				case <-r.Context().Done():
					return
				case <-stop:
					return
				}
			}
		case p == "/200k/" || p == "/200k/sitemap.xml":
			fmt.Fprint(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range 4 {
				fmt.Fprintf(w, "<sitemap><loc>%s/200k/part-%d.xml</loc></sitemap>", host, i)
			}
			fmt.Fprint(w, `</sitemapindex>`)
		case strings.HasPrefix(p, "/200k/part-"):
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(p, "/200k/part-"), ".xml"))
			fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range 50_000 {
				fmt.Fprintf(w, "<url><loc>%s/200k/section-%d/group-%d/page-%d</loc></url>\n", host, n, i/500, i)
			}
			fmt.Fprint(w, `</urlset>`)
		case p == "/lines/sitemap.xml":
			if linesRead.Add(1) > 1 {
				select {
				case <-r.Context().Done():
				case <-stop:
				}
				return
			}
			fmt.Fprintf(w, "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>%s/lines/a</loc></url>\n<url><loc>%s/lines/b</loc><lastmod>2026-11-01T10:00:00</lastmod></url>\n</urlset>\n", host, host)
		default:
			http.NotFound(w, r)
		}
	})}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { close(stop); srv.Close() }, nil
}

// rss is the process's resident memory now.
func rss() string { return statusField("/proc/self/status", "VmRSS:") }

// uploadsLeft counts the files in every server's upload directory.
func uploadsLeft() (int, int64) {
	var n int
	var size int64
	filepath.WalkDir(filepath.Join(os.TempDir(), "siteplan-uploads"), func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n++
				size += fi.Size()
			}
		}
		return nil
	})
	return n, size
}
