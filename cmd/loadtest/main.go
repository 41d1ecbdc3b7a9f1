// Command loadtest measures siteplan under a team's load: N logged-in
// users (50 by default) each open a 2,000-page plan with its live-update
// stream and make edits for a while, over real HTTP on loopback; past
// -per-plan users (50), each further group edits a plan of its own. It
// prints requests/s, p50/p99 latency per kind of request, errors,
// SQLITE_BUSY seen by the server, and how fast the others' streams got
// each change. Each user's stream reacts as the editor's script does
// (outline reloads, comment counts), so the load includes what 50 open
// editors cause one another.
//
//	go run ./cmd/loadtest [-users 50] [-per-plan 50] [-duration 60s] [-think 1s] [-hostile 8]
//	go run ./cmd/loadtest -postgres [-instances 2] ...
//	go run ./cmd/loadtest -probes
//	go run ./cmd/loadtest -treetest 500 [-think 1s]
//
// With -postgres the server runs on a throwaway PostgreSQL server
// (Debian's postgresql package, as the tests start it), and with
// -instances N, N servers with pools of their own share it: each user's
// event stream is on one of them and its requests go to any, as behind
// a load balancer without sticky sessions, so the live updates cross
// between instances. -cpuprofile writes a CPU profile of the editing.
//
// With -hostile N, N visitors also come in through view links to a
// second, 100,000-page plan of another team and pull its heaviest reads
// without pause (the whole outline, document.json, the export zip,
// diagrams in every format with options that miss the cache); the
// report then separates their answers (429 is the server saying no, not
// an error) from the editors' and gives the process's peak memory.
//
// The server runs in this process on a fresh database in a temporary
// directory, so client and server share the machine's cores.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"siteplan/cli"
	"siteplan/diagram"
	"siteplan/internal/pgtest"
	"siteplan/internal/sitegen"
	"siteplan/jobs"
	"siteplan/site"
	"siteplan/static"
	"siteplan/store"
	"siteplan/web"
)

const password = "load test password"

func main() {
	diagram.ServeIfWorker() // as siteplan serve does, layouts run in a child process
	users := flag.Int("users", 50, "concurrent logged-in users")
	perPlan := flag.Int("per-plan", 50, "users editing each plan, as one agency's team; more users, more plans")
	duration := flag.Duration("duration", 60*time.Second, "how long the users edit")
	think := flag.Duration("think", time.Second, "mean pause between a user's actions (0: none)")
	hostile := flag.Int("hostile", 0, "visitors pulling the heaviest reads of a 100,000-page plan through view links")
	probe := flag.Bool("probes", false, "re-run the hostile probes at their original sizes instead (see probes.go)")
	treeTest := flag.Int("treetest", 0, "instead: this many participants take a tree test at once (see treetest.go)")
	siteProbe := flag.Bool("site-probes", false, "re-run only the probes of live-site readings (see siteprobes.go)")
	postgres := flag.Bool("postgres", false, "serve from a throwaway PostgreSQL server (Debian's postgresql package) instead of a SQLite file")
	instances := flag.Int("instances", 1, "servers on the one database (PostgreSQL only); each request goes to any of them, as behind a load balancer")
	flag.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the editing (servers and clients) to this file")
	flag.Parse()
	if err := diagram.UseWorkerProcess(); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	var err error
	switch {
	case *probe:
		err = probes()
	case *siteProbe:
		err = onlySiteProbes()
	case *treeTest > 0:
		err = treeTestLoad(*treeTest, *think, *postgres)
	default:
		if *instances > 1 && !*postgres {
			err = errors.New("several instances share a PostgreSQL database: add -postgres")
			break
		}
		err = run(*users, max(1, *perPlan), *duration, *think, *hostile, *postgres, *instances)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

// serverLog counts what the server logs: failed requests and SQLITE_BUSY.
type serverLog struct {
	failed, busy atomic.Int64
}

func (l *serverLog) Write(p []byte) (int, error) {
	for line := range bytes.Lines(p) {
		if bytes.Contains(line, []byte("request failed")) {
			l.failed.Add(1)
		}
		if bytes.Contains(line, []byte("SQLITE_BUSY")) || bytes.Contains(line, []byte("database is locked")) {
			l.busy.Add(1)
		}
	}
	return len(p), nil
}

// plan is a generated 2,021-page plan: a home page, 20 sections of 10
// subsections of 9 pages. Each user edits the pages of its own
// subsections, as a team splits the work.
func plan() *site.Document {
	d := &site.Document{Format: "siteplan/1", Project: site.DocProject{Name: "Load plan", BaseURL: "https://load.example/"}}
	empty := ""
	home := &site.DocPage{Title: "Home", Slug: &empty}
	for s := range 20 {
		sec := &site.DocPage{Title: fmt.Sprintf("Section %d", s+1)}
		for u := range 10 {
			sub := &site.DocPage{Title: fmt.Sprintf("Topic %d.%d", s+1, u+1)}
			for p := range 9 {
				sub.Children = append(sub.Children, &site.DocPage{Title: fmt.Sprintf("Page %d.%d.%d", s+1, u+1, p+1)})
			}
			sec.Children = append(sec.Children, sub)
		}
		home.Children = append(home.Children, sec)
	}
	d.Pages = []*site.DocPage{home}
	return d
}

// stats collects latencies per kind of request and errors.
type stats struct {
	mu      sync.Mutex
	lat     map[string][]time.Duration
	errs    map[string]int
	propag  []time.Duration
	started sync.Map // X-Client-ID of an edit -> when it was sent
}

func (s *stats) add(kind string, d time.Duration, err string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lat[kind] = append(s.lat[kind], d)
	if err != "" {
		s.errs[kind+": "+err]++
	}
}

func newStats() *stats {
	return &stats{lat: map[string][]time.Duration{}, errs: map[string]int{}}
}

// openPlan makes a fresh database in a temporary directory with the
// 2,021-page plan of plan() in team 1; done removes it all.
func openPlan() (db *store.Store, pid int64, tree *site.Tree, done func(), err error) {
	dir, err := os.MkdirTemp("", "siteplan-load-")
	if err != nil {
		return nil, 0, nil, nil, err
	}
	return openPlanAt(filepath.Join(dir, "load.db"), func() { os.RemoveAll(dir) })
}

// openPostgresPlan starts a throwaway PostgreSQL server and puts the
// plan of plan() in a new database of it; done stops it all.
func openPostgresPlan() (db *store.Store, url string, pid int64, tree *site.Tree, done func(), err error) {
	srv, err := pgtest.Start()
	if err != nil {
		return nil, "", 0, nil, nil, err
	}
	if url, err = srv.NewDatabase(context.Background()); err != nil {
		srv.Stop()
		return nil, "", 0, nil, nil, err
	}
	db, pid, tree, done, err = openPlanAt(url, func() { srv.Stop() })
	return db, url, pid, tree, done, err
}

// openPlanAt opens the new database dsn names and imports the plan;
// done closes it and then calls cleanup.
func openPlanAt(dsn string, cleanup func()) (db *store.Store, pid int64, tree *site.Tree, done func(), err error) {
	done = cleanup
	if db, err = store.Open(dsn); err != nil {
		done()
		return nil, 0, nil, nil, err
	}
	done = func() { db.Close(); cleanup() }
	ctx := context.Background()
	if pid, err = db.Projects.ImportDocument(ctx, 1, plan()); err == nil {
		tree, err = db.Pages.Tree(ctx, pid)
	}
	if err != nil {
		done()
		return nil, 0, nil, nil, err
	}
	return db, pid, tree, done, nil
}

// serve starts the server on loopback, logging to logs, and returns its
// base URL and what stops it.
func serve(db *store.Store, logs io.Writer) (string, func(), error) {
	log := slog.New(slog.NewTextHandler(logs, nil))
	srv := web.New(cli.WebStores(db), static.FS, log, web.Config{AllowPrivateFetch: true}) // the probes' hostile sites are on loopback
	srv.Start()
	background := jobs.Start(context.Background(), cli.JobStores(db), jobs.Config{Log: log, AllowPrivate: true, Published: srv.Published})
	stop := func() { background.Close(); srv.Close() }
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		stop()
		return "", nil, err
	}
	hs := srv.HTTPServer(ln.Addr().String())
	go hs.Serve(ln)
	return "http://" + ln.Addr().String(), func() { hs.Shutdown(context.Background()); stop() }, nil
}

// newClient is a client with its own cookies, as a browser is.
func newClient(timeout time.Duration) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: timeout, Transport: &http.Transport{MaxIdleConnsPerHost: 4, DisableCompression: true}}
}

func run(users, perPlan int, duration, think time.Duration, hostile int, postgres bool, instances int) error {
	var db *store.Store
	var dsn string
	var pid int64
	var tree *site.Tree
	var done func()
	var err error
	if postgres {
		db, dsn, pid, tree, done, err = openPostgresPlan()
	} else {
		db, pid, tree, done, err = openPlan()
	}
	if err != nil {
		return err
	}
	defer done()
	ctx := context.Background()
	// A plan for every perPlan users, each a copy of the first.
	type planOf struct {
		pid    int64
		tree   *site.Tree
		topics []int64 // its 200 topics, in order
	}
	plans := []planOf{{pid: pid, tree: tree}}
	for len(plans)*perPlan < users {
		id, err := db.Projects.ImportDocument(ctx, 1, plan())
		if err != nil {
			return err
		}
		t, err := db.Pages.Tree(ctx, id)
		if err != nil {
			return err
		}
		plans = append(plans, planOf{pid: id, tree: t})
	}
	for i := range plans {
		plans[i].tree.Walk(func(p *site.Page, depth int) bool {
			if depth == 3 { // Home is 1, sections 2
				plans[i].topics = append(plans[i].topics, p.ID)
			}
			return true
		})
	}
	fmt.Printf("%d plan(s) of %d pages, %d users on each; creating %d accounts (bcrypt cost %d)...\n",
		len(plans), len(tree.Pages()), min(users, perPlan), users, store.PasswordCost)
	var wg sync.WaitGroup
	errc := make(chan error, users)
	for i := range users {
		wg.Go(func() {
			role := site.RoleEditor
			if i == 0 {
				role = site.RoleOwner
			}
			if _, _, err := db.Accounts.AddUser(ctx, fmt.Sprintf("user%d@load.example", i), fmt.Sprintf("User %d", i), password, "1", role); err != nil {
				errc <- err
			}
		})
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		return err
	}

	var bigPath string
	var bigLinks []string
	if hostile > 0 {
		fmt.Println("hostile visitors: importing a 100,000-page plan for them...")
		if bigPath, bigLinks, err = bigPlan(ctx, db); err != nil {
			return err
		}
	}
	logs := &serverLog{}
	base, stop, err := serve(db, logs)
	if err != nil {
		return err
	}
	defer stop()
	// The other instances: each with its own pool, as on other machines.
	var others []string
	for range instances - 1 {
		odb, err := store.Open(dsn)
		if err != nil {
			return err
		}
		defer odb.Close()
		obase, ostop, err := serve(odb, logs)
		if err != nil {
			return err
		}
		defer ostop()
		others = append(others, obase)
	}
	bases := append([]string{base}, others...)
	if postgres {
		fmt.Printf("PostgreSQL, %d instance(s); each user's stream is on one, its requests go to any\n", instances)
	}

	st := newStats()
	var events atomic.Int64
	perUser := max(1, len(plans[0].topics)/min(users, perPlan))
	// Everyone logs in and opens the plan first (50 bcrypt checks take a
	// few seconds of both cores); the clock starts when all have.
	var deadline time.Time
	ready, begin := make(chan struct{}), make(chan struct{})
	var in sync.WaitGroup
	fmt.Printf("%d users log in and open the plan...\n", users)
	for i := range users {
		p := plans[i/perPlan]
		u := &user{n: i, base: bases[i%len(bases)], bases: bases, pid: p.pid, st: st, events: &events, think: think,
			rng: rand.New(rand.NewPCG(uint64(i), 42))}
		mine := p.topics[(i%perPlan*perUser)%len(p.topics):]
		u.topics = mine[:min(perUser, len(mine))]
		in.Add(1)
		wg.Go(func() { u.run(p.tree, &deadline, ready, in.Done, begin) })
	}
	close(ready)
	in.Wait()
	start := time.Now()
	deadline = start.Add(duration)
	fmt.Printf("%d users edit for %s (mean think time %s)...\n", users, duration, think)
	for i := range hostile {
		wg.Go(func() { heavyVisitor(i, base, bigPath, bigLinks[i%len(bigLinks)], st, deadline) })
	}
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			return err
		}
	}
	close(begin)
	wg.Wait()
	elapsed := time.Since(start)
	pprof.StopCPUProfile()
	report(st, users, elapsed, events.Load(), logs)
	if hostile > 0 {
		fmt.Printf("peak memory of the process (server and clients): %s\n", peakRSS())
	}
	return nil
}

// bigPlan imports a 100,000-page plan into a team of its own and makes
// view links to it, for the hostile visitors.
func bigPlan(ctx context.Context, db *store.Store) (string, []string, error) {
	if _, _, err := db.Accounts.AddUser(ctx, "other@load.example", "Other team", password, "Other team", site.RoleOwner); err != nil {
		return "", nil, err
	}
	team, err := db.Teams.FindTeam(ctx, "Other team")
	if err != nil {
		return "", nil, err
	}
	id, err := db.Projects.ImportDocument(ctx, team.ID, sitegen.Document("Big plan", 10, 100, 99))
	if err != nil {
		return "", nil, err
	}
	var links []string
	for range 4 {
		token, err := db.Sharing.CreateShareLink(ctx, &site.ShareLink{ProjectID: id, Role: "view"})
		if err != nil {
			return "", nil, err
		}
		links = append(links, "/s/"+token)
	}
	return "/projects/" + strconv.FormatInt(id, 10), links, nil
}

// heavyVisitor opens a view link and pulls heavy reads without pause.
func heavyVisitor(n int, base, project, link string, st *stats, deadline time.Time) {
	u := &user{n: 1000 + n, base: base, st: st, rng: rand.New(rand.NewPCG(uint64(n), 7)), hc: newClient(60 * time.Second)}
	if _, ok := u.do("hostile: open link", "GET", link, nil, false); !ok {
		return
	}
	formats := []string{"svg", "png", "pdf", "graphml"}
	for time.Now().Before(deadline) {
		switch r := u.rng.IntN(6); r {
		case 0:
			u.do("hostile: whole outline", "GET", project+"/outline?level=99", nil, true)
		case 1:
			u.do("hostile: document.json", "GET", project+"/document.json", nil, false)
		case 2:
			u.do("hostile: export zip", "GET", project+"/export.zip?gzip=1", nil, false)
		default: // options no one asked for yet miss the cache
			q := fmt.Sprintf("?depth=%d&layout=%s&collapsed=%d", 2+u.rng.IntN(2), []string{"tree", "lr", "radial"}[u.rng.IntN(3)], u.rng.IntN(1_000_000))
			u.do("hostile: diagram", "GET", project+"/diagram/"+formats[u.rng.IntN(len(formats))]+q, nil, false)
		}
	}
}

// peakRSS is the peak resident memory of this process and, apart, of
// its children (the Graphviz worker), from Linux's /proc.
func peakRSS() string {
	own := vmHWM("/proc/self/status")
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	var workers []string
	for _, task := range tasks {
		b, _ := os.ReadFile(task)
		for _, pid := range strings.Fields(string(b)) {
			workers = append(workers, vmHWM("/proc/"+pid+"/status"))
		}
	}
	if len(workers) == 0 {
		return own
	}
	return own + "; the Graphviz worker: " + strings.Join(workers, ", ")
}

// vmHWM is the peak resident memory a /proc status file gives.
func vmHWM(status string) string { return statusField(status, "VmHWM:") }

// statusField is a field of a /proc status file ("VmRSS:").
func statusField(status, field string) string {
	b, err := os.ReadFile(status)
	if err != nil {
		return "unknown"
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, field); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// user is one simulated person in the editor.
type user struct {
	n      int
	base   string   // where its event stream is
	bases  []string // where its requests go, any of them (nil: base)
	pid    int64
	hc     *http.Client
	csrf   string
	topics []int64
	st     *stats
	events *atomic.Int64
	think  time.Duration
	rng    *rand.Rand
	seq    atomic.Int64
}

var csrfRE = regexp.MustCompile(`X-CSRF-Token&#34;:&#34;([^&]+)&#34;`)
var versionRE = regexp.MustCompile(`name="version" value="(\d+)"`)

// do sends one request and records it under kind; it returns the body of
// a 2xx or 3xx answer.
func (u *user) do(kind, method, path string, form url.Values, hx bool) ([]byte, bool) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	base := u.base
	if len(u.bases) > 0 { // no sticky sessions: any instance serves any request
		base = u.bases[rand.IntN(len(u.bases))]
	}
	req, _ := http.NewRequest(method, base+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if hx {
		req.Header.Set("HX-Request", "true")
	}
	if u.csrf != "" {
		req.Header.Set("X-CSRF-Token", u.csrf)
	}
	client := fmt.Sprintf("u%d-%d", u.n, u.seq.Add(1)) // the stream's reloads count too
	req.Header.Set("X-Client-ID", client)
	t0 := time.Now()
	if method != http.MethodGet {
		u.st.started.Store(client, t0)
	}
	resp, err := u.hc.Do(req)
	if err != nil {
		u.st.add(kind, time.Since(t0), err.Error())
		return nil, false
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	d := time.Since(t0)
	if err != nil || resp.StatusCode >= 400 {
		u.st.add(kind, d, strconv.Itoa(resp.StatusCode))
		return nil, false
	}
	u.st.add(kind, d, "")
	return b, true
}

func (u *user) pause() {
	if u.think > 0 {
		time.Sleep(time.Duration(u.rng.Int64N(int64(2 * u.think))))
	}
}

// cpuProfile is where to write a CPU profile of the editing (-cpuprofile).
var cpuProfile string

// logins lets a few users log in at once: a login is a bcrypt
// comparison (cost 12), 200 at once take a minute of both cores, and the
// test is of the editing that comes after.
var logins = make(chan struct{}, 4)

// run logs in and opens the plan, says it is in, and from begin edits
// until *deadline (set before begin closes).
func (u *user) run(tree *site.Tree, deadlineAt *time.Time, ready <-chan struct{}, in func(), begin <-chan struct{}) {
	u.hc = newClient(30 * time.Second)
	<-ready
	logins <- struct{}{}
	ok := u.login(fmt.Sprintf("user%d@load.example", u.n))
	<-logins
	project := "/projects/" + strconv.FormatInt(u.pid, 10)
	// The editor opens its event stream as it loads, as a browser does:
	// the streams join one by one with the logins, not all at once when
	// the editing begins.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if ok {
		u.do("open plan", "GET", project, nil, false)
		go u.listen(ctx, project+"/events")
	}
	in()
	<-begin
	if !ok {
		return
	}
	deadline := *deadlineAt
	stop := time.AfterFunc(time.Until(deadline), cancel)
	defer stop.Stop()
	var pages []int64
	for _, t := range u.topics {
		for _, c := range tree.Children(t) {
			pages = append(pages, c.ID)
		}
	}
	for time.Now().Before(deadline) {
		u.pause()
		if !time.Now().Before(deadline) {
			break
		}
		pg := pages[u.rng.IntN(len(pages))]
		pp := project + "/pages/" + strconv.FormatInt(pg, 10)
		switch r := u.rng.IntN(100); {
		case r < 40: // rename in place: open the field, type, Enter
			b, ok := u.do("page details", "GET", pp, nil, true)
			m := versionRE.FindSubmatch(b)
			if !ok || m == nil {
				continue
			}
			u.do("edit: rename", "PATCH", pp+"/title", url.Values{"title": {fmt.Sprintf("Page by %d #%d", u.n, u.seq.Load())}, "version": {string(m[1])}}, true)
		case r < 65: // details form
			b, ok := u.do("page details", "GET", pp, nil, true)
			m := versionRE.FindSubmatch(b)
			if !ok || m == nil {
				continue
			}
			u.do("edit: save details", "PUT", pp, url.Values{"title": {fmt.Sprintf("Saved by %d #%d", u.n, u.seq.Load())}, "slug_auto": {"1"},
				"kind": {"page"}, "status": {site.Statuses[u.rng.IntN(len(site.Statuses))]}, "type": {"article"}, "assignee": {"User"},
				"notes": {"Notes from the load test."}, "in_sitemap": {"1"}, "in_html_sitemap": {"1"}, "version": {string(m[1])}}, true)
		case r < 85: // drag within its topic
			topic := tree.Page(pg).ParentID
			u.do("edit: move", "POST", pp+"/move", url.Values{"parent": {strconv.FormatInt(topic, 10)}, "placement": {"main"}, "position": {strconv.Itoa(u.rng.IntN(9))}}, true)
		case r < 95:
			u.do("page details", "GET", pp, nil, true)
		case r < 98:
			u.do("edit: comment", "POST", pp+"/comments", url.Values{"body": {"Looks good."}}, true)
		default:
			u.do("open plan", "GET", project, nil, false)
		}
	}
}

// listen reads the project's event stream, timing how long each other
// user's change took to arrive from when its request was sent.
func (u *user) listen(ctx context.Context, path string) {
	req, _ := http.NewRequestWithContext(ctx, "GET", u.base+path, nil)
	// The stream lasts the run: not the client's timeout, which would
	// cut it after 30 s, but ctx ends it.
	stream := &http.Client{Jar: u.hc.Jar, Transport: u.hc.Transport}
	resp, err := stream.Do(req)
	if err != nil {
		if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
			u.st.add("event stream", 0, err.Error())
		}
		return
	}
	defer resp.Body.Close()
	// Like the editor's script: a change to the tree reloads the outline,
	// at most once every 700 ms; a comment reloads that page's count.
	var dirty atomic.Bool
	var commented atomic.Int64
	project := strings.TrimSuffix(path, "/events")
	go func() {
		tick := time.NewTicker(700 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if dirty.Swap(false) {
					u.do("live: outline reload", "GET", project+"/outline?level=2", nil, true)
				}
				if pg := commented.Swap(0); pg != 0 {
					u.do("live: comment count", "GET", project+"/pages/"+strconv.FormatInt(pg, 10)+"/comments", nil, true)
				}
			}
		}
	}()
	sc := bufio.NewScanner(resp.Body)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "event: "); ok {
			event = e
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok || event != "change" {
			continue
		}
		var ch struct {
			Client, Kind string
			Page         int64
		}
		if json.Unmarshal([]byte(data), &ch) != nil || strings.HasPrefix(ch.Client, fmt.Sprintf("u%d-", u.n)) {
			continue
		}
		u.events.Add(1)
		switch ch.Kind {
		case "rename": // the event carries the title
		case "comment":
			commented.Store(ch.Page)
		default:
			dirty.Store(true)
		}
		if t0, ok := u.st.started.Load(ch.Client); ok {
			d := time.Since(t0.(time.Time))
			u.st.mu.Lock()
			u.st.propag = append(u.st.propag, d)
			u.st.mu.Unlock()
		}
	}
}

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func report(st *stats, users int, elapsed time.Duration, events int64, logs *serverLog) {
	kinds := make([]string, 0, len(st.lat))
	total, edits := 0, []time.Duration{}
	for k, v := range st.lat {
		kinds = append(kinds, k)
		total += len(v)
		slices.Sort(v)
		if strings.HasPrefix(k, "edit: ") {
			edits = append(edits, v...)
		}
	}
	slices.Sort(kinds)
	slices.Sort(edits)
	fmt.Printf("\n%d users, %s: %d requests, %.0f requests/s\n\n", users, elapsed.Round(time.Second), total, float64(total)/elapsed.Seconds())
	fmt.Println("| request | count | p50 | p99 | max |")
	fmt.Println("|---|---|---|---|---|")
	for _, k := range kinds {
		v := st.lat[k]
		fmt.Printf("| %s | %d | %s | %s | %s |\n", k, len(v), ms(pct(v, .5)), ms(pct(v, .99)), ms(v[len(v)-1]))
	}
	if len(edits) > 0 {
		fmt.Printf("| all edits | %d | %s | %s | %s |\n", len(edits), ms(pct(edits, .5)), ms(pct(edits, .99)), ms(pct(edits, 1)))
		slices.Sort(st.propag)
		fmt.Printf("\nlive updates: %d change events delivered to other users; edit sent -> event received p50 %s, p99 %s, max %s\n",
			events, ms(pct(st.propag, .5)), ms(pct(st.propag, .99)), ms(pct(st.propag, 1)))
	}
	nerr, refused := 0, 0
	for k, n := range st.errs {
		if strings.HasPrefix(k, "hostile: ") {
			if strings.HasSuffix(k, ": 429") || strings.HasSuffix(k, ": 413") {
				refused += n // the server saying no to a heavy read, as it should
				continue
			}
		}
		fmt.Printf("error: %s × %d\n", k, n)
		nerr += n
	}
	if refused > 0 {
		fmt.Printf("hostile requests refused (429 busy, 413 too large): %d\n", refused)
	}
	fmt.Printf("errors: %d; server log: %d failed requests, %d SQLITE_BUSY\n", nerr, logs.failed.Load(), logs.busy.Load())
}
