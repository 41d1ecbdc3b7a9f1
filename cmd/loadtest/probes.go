package main

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"

	"siteplan/internal/sitegen"
	"siteplan/site"
)

// probes re-runs, at their original sizes, the hostile requests that
// once hurt the server, each beside an editor of another team whose
// requests are timed while it runs:
//
//  1. four visitors of one view link ask for every row of a
//     300,000-page plan's outline at once;
//  2. a visitor downloads a 19,811-page plan as a PDF while /healthz is
//     polled, then asks for four PDFs at once;
//  3. another team imports the largest document the server takes (64 MB,
//     1.3 million pages);
//
// and then the probes of live-site readings (siteprobes.go).
func probes() error {
	db, pid, tree, cleanup, err := openPlan()
	if err != nil {
		return err
	}
	defer cleanup()
	ctx := context.Background()
	if _, _, err := db.Accounts.AddUser(ctx, "editor@load.example", "Editor", password, "1", site.RoleEditor); err != nil {
		return err
	}
	if _, _, err := db.Accounts.AddUser(ctx, "other@load.example", "Other", password, "Other team", site.RoleOwner); err != nil {
		return err
	}
	team, err := db.Teams.FindTeam(ctx, "Other team")
	if err != nil {
		return err
	}
	fmt.Println("importing a 300,000-page and a 19,811-page plan for the visitors...")
	big, err := db.Projects.ImportDocument(ctx, team.ID, sitegen.Document("300k plan", 10, 300, 99))
	if err != nil {
		return err
	}
	pdf, err := db.Projects.ImportDocument(ctx, team.ID, sitegen.Document("20k plan", 10, 20, 98))
	if err != nil {
		return err
	}
	link := func(id int64) (string, error) {
		token, err := db.Sharing.CreateShareLink(ctx, &site.ShareLink{ProjectID: id, Role: "view"})
		return "/s/" + token, err
	}
	bigLink, err := link(big)
	if err != nil {
		return err
	}
	pdfLink, err := link(pdf)
	if err != nil {
		return err
	}

	base, stop, err := serve(db, &serverLog{})
	if err != nil {
		return err
	}
	defer stop()

	editor := newUser(base, 1)
	if !editor.login("editor@load.example") {
		return fmt.Errorf("the editor cannot log in")
	}
	var pages []int64
	tree.Walk(func(p *site.Page, depth int) bool {
		if depth == 4 {
			pages = append(pages, p.ID)
		}
		return true
	})
	// beside runs the editor's work (open the plan, rename a page) until
	// done closes and returns the latencies it saw.
	beside := func(done <-chan struct{}) func() []time.Duration {
		var lat []time.Duration
		var wg sync.WaitGroup
		wg.Go(func() {
			project := "/projects/" + strconv.FormatInt(pid, 10)
			for {
				select {
				case <-done:
					return
				default:
				}
				pp := project + "/pages/" + strconv.FormatInt(pages[editor.rng.IntN(len(pages))], 10)
				t0 := time.Now()
				b, ok := editor.do("probe: page details", "GET", pp, nil, true)
				m := versionRE.FindSubmatch(b)
				if ok && m != nil {
					editor.do("probe: rename", "PATCH", pp+"/title", url.Values{"title": {fmt.Sprintf("Renamed #%d", editor.seq.Load())}, "version": {string(m[1])}}, true)
				}
				lat = append(lat, time.Since(t0))
				t0 = time.Now()
				editor.do("probe: open plan", "GET", project, nil, false)
				lat = append(lat, time.Since(t0))
				time.Sleep(50 * time.Millisecond)
			}
		})
		return func() []time.Duration { wg.Wait(); return lat }
	}
	summary := func(lat []time.Duration) string {
		slices.Sort(lat)
		if len(lat) == 0 {
			return "no requests"
		}
		return fmt.Sprintf("%d requests, p50 %s, p99 %s, max %s", len(lat), ms(pct(lat, 0.5)), ms(pct(lat, 0.99)), ms(lat[len(lat)-1]))
	}

	// 1. The whole outline of 300,000 pages, four times at once.
	fmt.Println("\n1. four visitors of one view link ask for the whole outline of a 300,000-page plan at once")
	visitor := newUser(base, 2)
	if _, ok := visitor.do("probe: open link", "GET", bigLink, nil, false); !ok {
		return fmt.Errorf("the view link does not open")
	}
	done := make(chan struct{})
	wait := beside(done)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			t0 := time.Now()
			code, n := visitor.get("/projects/"+strconv.FormatInt(big, 10)+"/outline?level=99", true)
			fmt.Printf("   outline: %d, %s of HTML in %s\n", code, bytesize(n), ms(time.Since(t0)))
		})
	}
	wg.Wait()
	close(done)
	fmt.Printf("   the editor meanwhile: %s\n", summary(wait()))

	// 2. A 19,811-page PDF, then four at once, while /healthz is polled.
	fmt.Println("\n2. a visitor downloads a 19,811-page plan as a PDF, then asks for four at once")
	visitor = newUser(base, 3)
	if _, ok := visitor.do("probe: open link", "GET", pdfLink, nil, false); !ok {
		return fmt.Errorf("the view link does not open")
	}
	done = make(chan struct{})
	wait = beside(done)
	health := newUser(base, 4)
	var healthLat []time.Duration
	var hwg sync.WaitGroup
	hwg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			t0 := time.Now()
			health.get("/healthz", false)
			healthLat = append(healthLat, time.Since(t0))
			time.Sleep(50 * time.Millisecond)
		}
	})
	pdfPath := "/projects/" + strconv.FormatInt(pdf, 10) + "/diagram/pdf?depth=100"
	t0 := time.Now()
	code, n := visitor.get(pdfPath, false)
	fmt.Printf("   one PDF: %d, %s in %s\n", code, bytesize(n), ms(time.Since(t0)))
	for i := range 4 {
		wg.Go(func() {
			t0 := time.Now()
			code, n := visitor.get(pdfPath+"&paper=a3&n="+strconv.Itoa(i), false)
			fmt.Printf("   PDF %d of 4: %d, %s in %s\n", i+1, code, bytesize(n), ms(time.Since(t0)))
		})
	}
	wg.Wait()
	close(done)
	hwg.Wait()
	fmt.Printf("   /healthz meanwhile: %s\n", summary(healthLat))
	fmt.Printf("   the editor meanwhile: %s\n", summary(wait()))

	// 3. Another team imports the largest document the server takes.
	fmt.Println("\n3. another team imports a 64 MB document of 1.3 million pages")
	var doc bytes.Buffer
	if err := sitegen.Document("Import probe", 13, 1000, 99).Encode(&doc); err != nil {
		return err
	}
	owner := newUser(base, 5)
	if !owner.login("other@load.example") {
		return fmt.Errorf("the other team's owner cannot log in")
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "big.json")
	fw.Write(doc.Bytes())
	mw.Close()
	size := doc.Len()
	doc = bytes.Buffer{}
	done = make(chan struct{})
	wait = beside(done)
	req, _ := http.NewRequest("POST", base+"/projects/import", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-CSRF-Token", owner.csrf)
	t0 = time.Now()
	resp, err := owner.hc.Do(req)
	took := time.Since(t0)
	close(done)
	if err != nil {
		return err
	}
	resp.Body.Close()
	fmt.Printf("   import of %s: %d in %s\n", bytesize(size), resp.StatusCode, ms(took))
	fmt.Printf("   the editor meanwhile: %s\n", summary(wait()))
	if err := siteProbes(db, base); err != nil {
		return err
	}
	fmt.Printf("\npeak memory of the process (server and clients): %s\n", peakRSS())
	return nil
}

// onlySiteProbes runs the probes of live-site readings alone, on a fresh
// database.
func onlySiteProbes() error {
	db, _, _, cleanup, err := openPlan()
	if err != nil {
		return err
	}
	defer cleanup()
	base, stop, err := serve(db, &serverLog{})
	if err != nil {
		return err
	}
	defer stop()
	return siteProbes(db, base)
}

// newUser is a client with its own cookies.
func newUser(base string, n int) *user {
	return &user{n: 2000 + n, base: base, rng: rand.New(rand.NewPCG(uint64(n), 3)), st: newStats(), hc: newClient(5 * time.Minute)}
}

// login signs u in as email.
func (u *user) login(email string) bool {
	b, ok := u.do("login page", "GET", "/login", nil, false)
	if m := csrfRE.FindSubmatch(b); ok && m != nil {
		u.csrf = string(m[1])
	}
	_, ok = u.do("log in", "POST", "/login", url.Values{"email": {email}, "password": {password}}, false)
	return ok
}

var reasonRE = regexp.MustCompile(`(?s)<p[^>]*>([^<]+)</p>`)

// get returns the status and the size of the body of a GET.
func (u *user) get(path string, hx bool) (int, int) {
	req, _ := http.NewRequest("GET", u.base+path, nil)
	if hx {
		req.Header.Set("HX-Request", "true")
	}
	resp, err := u.hc.Do(req)
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 { // say why
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		if m := reasonRE.FindSubmatch(b); m != nil {
			fmt.Printf("   (%d: %s)\n", resp.StatusCode, html.UnescapeString(string(m[1])))
		}
		return resp.StatusCode, len(b)
	}
	var n int
	buf := make([]byte, 64<<10)
	for {
		k, err := resp.Body.Read(buf)
		n += k
		if err != nil {
			return resp.StatusCode, n
		}
	}
}

func bytesize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
