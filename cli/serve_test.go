package cli

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"siteplan/internal/pgtest"
)

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  []byte
}

// TestMain runs the tests, on PostgreSQL too where they ask
// (pgtest.Run: make test runs TestMigrateCLI so), and removes the
// binary siteplanBinary built.
func TestMain(m *testing.M) {
	code := pgtest.Run(m)
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// siteplanBinary builds siteplan once for the tests that run it.
func siteplanBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "siteplan-bin-*")
		if built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "siteplan")
		built.out, built.err = exec.Command("go", "build", "-o", built.bin, "siteplan").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

// serve starts siteplan serve with args on a free loopback port, waits
// until it answers and returns it, its address and a client with a
// cookie jar; the server is killed when the test ends.
func serve(t *testing.T, bin string, args ...string) (*exec.Cmd, string, *http.Client) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(bin, append([]string{"serve", "--addr", addr}, args...)...)
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	base := "http://" + addr
	for i := 0; ; i++ { // wait until it listens
		resp, err := hc.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if i == 300 {
			t.Fatalf("the server does not answer: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return srv, base, hc
}

// TestServeLaysOutInAWorker builds siteplan, serves a plan and asks for
// its diagram through a share link: the layout must run in a child
// process of the server, started as a Graphviz worker (a layout in the
// server's own process pauses every request while it runs).
func TestServeLaysOutInAWorker(t *testing.T) {
	bin, db := siteplanBinary(t), filepath.Join(t.TempDir(), "serve.db")
	var out bytes.Buffer
	if err := run([]string{"import", "--db", db, "../store/testdata/acme.json"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run([]string{"share", "create", "--db", db, "--project", "1", "--role", "view"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	link := strings.TrimSpace(out.String())
	srv, base, hc := serve(t, bin, "--db", db)
	get := func(path string) string {
		t.Helper()
		resp, err := hc.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	get(link)
	// siteplan draws org charts itself; Graphviz lays out radial diagrams.
	if svg := get("/projects/1/diagram?paint=svg&layout=radial"); !strings.Contains(svg, "<svg") || !strings.Contains(svg, "Pricing") { // the pane, as a client on a link sees it
		t.Fatalf("the diagram is not an SVG of the plan:\n%.300s", svg)
	}
	// A process's children are listed by the thread that started each.
	pid := strconv.Itoa(srv.Process.Pid)
	tasks, err := filepath.Glob("/proc/" + pid + "/task/*/children")
	if err != nil || len(tasks) == 0 {
		t.Skipf("cannot list the server's child processes: %v", err)
	}
	var children []byte
	for _, task := range tasks {
		b, _ := os.ReadFile(task)
		children = append(children, b...)
	}
	workers := 0
	for _, child := range strings.Fields(string(children)) {
		env, _ := os.ReadFile("/proc/" + child + "/environ")
		if bytes.Contains(env, []byte("SITEPLAN_GRAPHVIZ_WORKER=1\x00")) {
			workers++
		}
	}
	if workers != 1 {
		t.Errorf("the server has %d Graphviz worker processes after drawing a diagram (children: %q), want 1", workers, children)
	}
}

// TestServeAllowPrivateFetch: the server's visitors may have it read a
// site on a loopback address only when serve is started with
// --allow-private-fetch; without, the check says the address is refused
// and names that flag.
func TestServeAllowPrivateFetch(t *testing.T) {
	bin, db := siteplanBinary(t), filepath.Join(t.TempDir(), "serve.db")
	if err := run([]string{"user", "add", "--db", db, "--email", "owner@test.example", "--name", "Owner", "--team", "Team", "--role", "owner"},
		strings.NewReader("a long enough password\n"), io.Discard); err != nil {
		t.Fatal(err)
	}
	intranet := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://`+r.Host+`/wiki</loc></url></urlset>`)
	}))
	defer intranet.Close()
	check := func(args ...string) string {
		t.Helper()
		_, base, hc := serve(t, bin, append([]string{"--db", db}, args...)...)
		post := func(path string, form url.Values) *http.Response {
			t.Helper()
			u, _ := url.Parse(base)
			for _, ck := range hc.Jar.Cookies(u) {
				if ck.Name == "_csrf" {
					form.Set("_csrf", ck.Value)
				}
			}
			resp, err := hc.PostForm(base+path, form)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp
		}
		if resp, err := hc.Get(base + "/login"); err == nil {
			resp.Body.Close()
		}
		post("/login", url.Values{"email": {"owner@test.example"}, "password": {"a long enough password"}})
		job := post("/sites/check", url.Values{"source": {intranet.URL + "/sitemap.xml"}}).Request.URL.Path // after the redirect
		if !strings.HasPrefix(job, "/sites/jobs/") {
			t.Fatalf("the check did not start: at %s", job)
		}
		resp, err := hc.Get(base + job + "/events") // ends with the job
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		i := bytes.LastIndex(b, []byte("event: end\n"))
		if i < 0 {
			t.Fatalf("no end event: %s", b)
		}
		return string(b[i:])
	}
	if got := check(); !strings.Contains(got, "is a loopback address") || !strings.Contains(got, "(siteplan serve --allow-private-fetch)") || strings.Contains(got, "1 URL") {
		t.Errorf("without --allow-private-fetch a loopback sitemap is read, or not refused as loopback:\n%.1000s", got)
	}
	if got := check("--allow-private-fetch"); !strings.Contains(got, "1 file · 1 URL") || strings.Contains(got, "loopback") {
		t.Errorf("with --allow-private-fetch the loopback sitemap is not read:\n%.1000s", got)
	}
}
