package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestServeLaysOutInAWorker builds siteplan, serves a plan and asks for
// its diagram through a share link: the layout must run in a child
// process of the server, started as a Graphviz worker (a layout in the
// server's own process pauses every request while it runs).
func TestServeLaysOutInAWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin, db := filepath.Join(dir, "siteplan"), filepath.Join(dir, "serve.db")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var out bytes.Buffer
	if err := run([]string{"import", "--db", db, "store/testdata/acme.json"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run([]string{"share", "create", "--db", db, "--project", "1", "--role", "view"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	link := strings.TrimSpace(out.String())

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(bin, "serve", "--addr", addr, "--db", db)
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
	if svg := get("/projects/1/diagram/svg?layout=radial"); !strings.Contains(svg, "<svg") || !strings.Contains(svg, "Pricing") {
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
