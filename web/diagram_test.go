package web

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io"
	"mime"
	"net/http/httptest"
	"strings"
	"testing"

	"siteplan/diagram"
	"siteplan/internal/sitegen"
	"siteplan/site"
)

// TestDiagramRoutes: the pane inlines the SVG with one node per drawn
// page, follows the outline's collapsed branches, serves every download
// format, answers bad options with 422, and serves an unchanged diagram
// from the cache until the project changes.
func TestDiagramRoutes(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	p := "/projects/" + itoa(pid)

	d := doc(t, c.do("GET", p+"/diagram", nil, true))
	if got := d.Find(`.diagram-canvas svg g.node[id="p` + itoa(ids["Pricing"]) + `"]`).Text(); !strings.Contains(got, "Pricing") {
		t.Errorf("pane SVG node for Pricing reads %q", got)
	}
	if d.Find(`a[href^="`+p+`/diagram/pdf?"]`).Length() != 1 {
		t.Error("the pane has no PDF download link")
	}

	// Asked for a scene, the pane leaves the drawing for the script to
	// fetch: the cache's scene, as JSON, with every page's card.
	d = doc(t, c.do("GET", p+"/diagram?paint=scene&layout=lr", nil, true))
	sceneURL, _ := d.Find(".diagram-canvas").Attr("data-scene")
	if d.Find(".diagram-canvas svg").Length() != 0 || !strings.HasPrefix(sceneURL, p+"/diagram/scene?") || d.Find(`input[name=paint][value=scene]`).Length() != 1 {
		t.Fatalf("pane asked for a scene: data-scene %q, %d SVGs", sceneURL, d.Find(".diagram-canvas svg").Length())
	}
	rec := c.do("GET", sceneURL, nil, false)
	var sc struct{ Cards []float64 }
	if err := json.Unmarshal(rec.Body.Bytes(), &sc); rec.Code != 200 || err != nil || len(sc.Cards) != 5*len(ids) || rec.Header().Get("Content-Type") != "application/json" {
		t.Errorf("scene: %d %s (%v), %d card numbers for %d pages", rec.Code, rec.Header().Get("Content-Type"), err, len(sc.Cards), len(ids))
	}
	if rec := c.do("GET", p+"/diagram/scene?paint=svg", nil, false); rec.Code != 404 {
		t.Errorf("scene of a drawing that is an SVG: %d, want 404", rec.Code)
	}
	if rec := c.do("GET", p+"/diagram?paint=png", nil, true); rec.Code != 422 {
		t.Errorf("paint=png: %d, want 422", rec.Code)
	}

	// Products collapsed in the outline: its two pages become a marker.
	d = doc(t, c.do("GET", p+"/diagram?collapsed="+itoa(ids["Products"]), nil, true))
	if d.Find(`g.node[id="p`+itoa(ids["Pricing"])+`"]`).Length() != 0 || !strings.Contains(d.Find(`g.node[id="p`+itoa(ids["Products"])+`"]`).Text(), "2 pages not shown") {
		t.Errorf("collapsed Products: %s", d.Find(".diagram-canvas").Text())
	}

	for format, want := range map[string]string{"svg": "<svg", "png": "\x89PNG", "pdf": "%PDF-", "dot": "digraph siteplan", "graphml": "<graphml"} {
		rec := c.do("GET", p+"/diagram/"+format+"?layout=lr&color=status&paper=a3", nil, false)
		if rec.Code != 200 || !strings.Contains(rec.Body.String()[:min(600, rec.Body.Len())], want) {
			t.Errorf("%s: %d %q", format, rec.Code, rec.Body.String()[:min(80, rec.Body.Len())])
		}
		if _, params, _ := mime.ParseMediaType(rec.Header().Get("Content-Disposition")); params["filename"] != "acme-relaunch-sitemap."+format {
			t.Errorf("%s: Content-Disposition %q", format, rec.Header().Get("Content-Disposition"))
		}
	}
	if _, err := png.Decode(bytes.NewReader(c.do("GET", p+"/diagram/png", nil, false).Body.Bytes())); err != nil {
		t.Errorf("PNG download does not decode: %v", err)
	}

	for _, q := range []string{"layout=spiral", "color=size", "depth=x", "paper=b5", "orientation=sideways", "collapsed=a,b"} {
		if rec := c.do("GET", p+"/diagram/svg?"+q, nil, false); rec.Code != 422 {
			t.Errorf("%s: %d, want 422", q, rec.Code)
		}
	}
	if rec := c.do("GET", p+"/diagram/jpeg", nil, false); rec.Code != 404 {
		t.Errorf("unknown format: %d, want 404", rec.Code)
	}
	if rec := c.do("GET", p+"/diagram/svg?root=99999", nil, false); rec.Code != 404 {
		t.Errorf("unknown root: %d, want 404", rec.Code)
	}

	// A second request is served from the cache; an edit draws anew.
	renders := 0
	draw := c.srv.draw
	c.srv.draw = func(ctx context.Context, w io.Writer, t *site.Tree, links []site.Link, opt diagram.Options) (diagram.Result, error) {
		renders++
		return draw(ctx, w, t, links, opt)
	}
	c.do("GET", p+"/diagram/svg?depth=3", nil, false)
	c.do("GET", p+"/diagram/svg?depth=3", nil, false)
	if renders != 1 {
		t.Errorf("two requests for an unchanged diagram drew it %d times, want once", renders)
	}
	if _, err := c.db.Pages.RenamePage(context.Background(), ids["Pricing"], "Plans & prices", 1); err != nil {
		t.Fatal(err)
	}
	body := c.do("GET", p+"/diagram/svg?depth=3", nil, false).Body.String()
	if !strings.Contains(body, "Plans &amp; prices") || renders != 2 {
		t.Errorf("the diagram after a rename was drawn %d times in all and shows the old title: %t", renders, !strings.Contains(body, "Plans &amp; prices"))
	}
}

// TestDiagramBranchPage: the details panel links to a diagram of the
// page's branch, a page of its own that draws only that branch.
func TestDiagramBranchPage(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	d := doc(t, c.do("GET", pagePath(pid, ids["Products"]), nil, true))
	href, _ := d.Find(`.branch-links a`).First().Attr("href")
	if href != "/projects/"+itoa(pid)+"/diagram?root="+itoa(ids["Products"]) {
		t.Fatalf("branch diagram link = %q", href)
	}
	page := doc(t, c.do("GET", href, nil, false))
	if got := page.Find(".diagram-canvas g.node[id^=p]").Length(); got != 3 {
		t.Errorf("branch diagram draws %d pages, want Products, Pricing and Café", got)
	}
	if page.Find(`input[name=root][value="`+itoa(ids["Products"])+`"]`).Length() != 1 {
		t.Error("the branch diagram's controls do not keep the branch")
	}
}

// TestDiagramDownloadsScripts: a plan with emoji, Hebrew, Arabic and
// Japanese titles downloads in every format; none of them fails.
func TestDiagramDownloadsScripts(t *testing.T) {
	c := newClient(t)
	d, err := site.ReadDocumentFile("../diagram/testdata/diagram-scripts.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := c.db.Projects.ImportDocument(context.Background(), 1, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range diagram.Formats {
		rec := c.do("GET", "/projects/"+itoa(pid)+"/diagram/"+format, nil, false)
		if rec.Code != 200 || rec.Body.Len() < 100 {
			t.Errorf("%s: %d, %d bytes: %.200s", format, rec.Code, rec.Body.Len(), rec.Body.String())
		}
	}
}

// TestRenderQueue: while a viewer's diagram is drawn, their next one is
// refused at once with 429 and Retry-After; another viewer's waits its
// turn and is drawn after it.
func TestRenderQueue(t *testing.T) {
	c := newClient(t)
	c.srv.gate = newGate(1, 1)
	pid, _ := c.fixture()
	p := "/projects/" + itoa(pid) + "/diagram/svg"
	addUser(t, c.db, "vi@test.example", "Vi", "1", site.RoleViewer)
	ownerAgain, vi := anonymous(t, c.srv, c.db), anonymous(t, c.srv, c.db)
	ownerAgain.login("owner@test.example")
	vi.login("vi@test.example")

	started, unblock := make(chan int64, 4), make(chan struct{})
	draw := c.srv.draw
	c.srv.draw = func(ctx context.Context, w io.Writer, t *site.Tree, links []site.Link, opt diagram.Options) (diagram.Result, error) {
		started <- int64(opt.Depth)
		<-unblock
		return draw(ctx, w, t, links, opt)
	}
	codes := make(chan int, 2)
	go func() { codes <- c.do("GET", p+"?depth=1", nil, false).Code }()
	if d := <-started; d != 1 {
		t.Fatalf("render %d started first", d)
	}
	rec := ownerAgain.do("GET", p+"?depth=2", nil, false)
	if rec.Code != 429 || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "still running") {
		t.Errorf("a second render for the owner: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	go func() { codes <- vi.do("GET", p+"?depth=3", nil, false).Code }()
	close(unblock)
	if d := <-started; d != 3 {
		t.Errorf("render %d started second, want Vi's", d)
	}
	for range 2 {
		if code := <-codes; code != 200 {
			t.Errorf("a render answered %d", code)
		}
	}
}

// TestGateWaits: heavy work waits its turn until its deadline, in order.
func TestGateWaits(t *testing.T) {
	g := newGate(1, 5)
	release, err := g.enter(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.enter(done, "b"); site.ErrorCode(err) != site.ETooMany {
		t.Errorf("a wait past its deadline: %v, want ETooMany", err)
	}
	in := make(chan func())
	go func() {
		r, err := g.enter(context.Background(), "c")
		if err != nil {
			t.Error(err)
		}
		in <- r
	}()
	release()
	(<-in)()
	if len(g.held) != 0 || len(g.slots) != 0 {
		t.Errorf("places left: %v, %d running", g.held, len(g.slots))
	}
}

// TestDiagramPDFOptions: the PDF's paper, orientation, fit, cover and the
// client version reach the drawing from the query, and the pane offers
// them.
func TestDiagramPDFOptions(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	p := "/projects/" + itoa(pid)
	var got diagram.Options
	draw := c.srv.draw
	c.srv.draw = func(ctx context.Context, w io.Writer, t *site.Tree, links []site.Link, opt diagram.Options) (diagram.Result, error) {
		got = opt
		return draw(ctx, w, t, links, opt)
	}
	rec := c.do("GET", p+"/diagram/pdf?paper=tabloid&orientation=portrait&fit=one&cover=1&client=1", nil, false)
	if rec.Code != 200 {
		t.Fatalf("PDF: %d %s", rec.Code, rec.Body)
	}
	if got.Paper != diagram.PaperTabloid || got.Orientation != diagram.Portrait || !got.OneSheet || !got.Cover || !got.Client {
		t.Errorf("options drawn: paper %q, orientation %q, one sheet %t, cover %t, client %t", got.Paper, got.Orientation, got.OneSheet, got.Cover, got.Client)
	}
	d := doc(t, c.do("GET", p+"/diagram?paper=letter&orientation=portrait&cover=1&client=1", nil, true))
	for sel, want := range map[string]int{
		`select[name=paper] option[value=letter][selected]`:                1,
		`select[name=paper] option`:                                        len(diagram.Papers),
		`select[name=orientation] option[value=portrait][selected]`:        1,
		`input[name=cover][checked]`:                                       1,
		`input[name=fit][value=one]:not([checked])`:                        1,
		`input[name=client][checked]`:                                      1,
		`.downloads a[href*="orientation=portrait"][href*="/diagram/pdf"]`: 1,
	} {
		if n := d.Find(sel).Length(); n != want {
			t.Errorf("%s: %d, want %d", sel, n, want)
		}
	}
}

// TestPNGTooLargePage: a PNG too large to draw is answered, in a
// browser, with a page that offers the SVG, the PDF, a smaller scale,
// fewer levels and each branch, each link one that downloads; a fetch
// that asks for JSON still gets the error.
func TestPNGTooLargePage(t *testing.T) {
	c := newClient(t)
	c.fixture()
	pid, err := c.db.Projects.ImportDocument(context.Background(), 1, sitegen.Document("Big", 10, 10, 9)) // 1,011 pages
	if err != nil {
		t.Fatal(err)
	}
	p := "/projects/" + itoa(pid)
	rec := c.do("GET", p+"/diagram/png?layout=tree&links=1", nil, false)
	if rec.Code != 413 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("PNG too large: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	d := doc(t, rec)
	if got := d.Find("h1").Text(); got != "This diagram is too large for a PNG" {
		t.Errorf("h1 = %q", got)
	}
	for sel, want := range map[string]int{
		`a[download][href^="` + p + `/diagram/svg?"][href*="layout=tree"]`: 1,
		`a[download][href^="` + p + `/diagram/pdf?"][href*="layout=tree"]`: 1,
		`a[download][href*="/diagram/png?"][href*="scale=1"]`:              1,
		`a[download][href*="/diagram/png?"][href*="depth=2"]`:              1,
		`.branches a[download][href*="/diagram/png?"][href*="root="]`:      10,
	} {
		if n := d.Find(sel).Length(); n != want {
			t.Errorf("%s: %d links, want %d", sel, n, want)
		}
	}
	if !strings.Contains(d.Find(".branches").Text(), "Section 0 101 pages") {
		t.Errorf("branches: %q", d.Find(".branches").Text())
	}
	// Each branch it offers draws.
	href, _ := d.Find(".branches a").First().Attr("href")
	if rec := c.do("GET", href, nil, false); rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "\x89PNG") {
		t.Errorf("the first branch's PNG: %d", rec.Code)
	}
	// A plan whose one root is not the home page (a "Home" with a slug)
	// is one branch: its sections are offered, not the whole plan again.
	gen := sitegen.Document("Rooted", 10, 10, 9)
	gen.Pages[0].Slug = ptr("home")
	rooted, err := c.db.Projects.ImportDocument(context.Background(), 1, gen)
	if err != nil {
		t.Fatal(err)
	}
	d = doc(t, c.do("GET", "/projects/"+itoa(rooted)+"/diagram/png?layout=tree", nil, false))
	if n := d.Find(`.branches a[download][href*="root="]`).Length(); n != 10 || !strings.Contains(d.Find(".branches").Text(), "Section 0 101 pages") {
		t.Errorf("a plan with one root that is not the home page offers %d branches: %q", n, d.Find(".branches").Text())
	}
	// The editor's download script asks for JSON: it gets the error, and
	// goes to the page itself.
	req := httptest.NewRequest("GET", p+"/diagram/png", nil)
	req.Header.Set("Accept", "application/json, */*;q=0.1")
	for _, ck := range c.cookies {
		req.AddCookie(ck)
	}
	jrec := httptest.NewRecorder()
	c.srv.Echo.ServeHTTP(jrec, req)
	if jrec.Code != 413 || !strings.Contains(jrec.Body.String(), `"code":"too_large"`) {
		t.Errorf("JSON: %d %s", jrec.Code, jrec.Body)
	}
}

// TestPDFWarnings: the pane's PDF link asks first; a PDF whose words
// would print below legible size on one sheet, or of more than
// PDFManySheets sheets, is said beside the link with the way to have it
// anyway; a useful one is fetched at once.
func TestPDFWarnings(t *testing.T) {
	c := newClient(t)
	pid, err := c.db.Projects.ImportDocument(context.Background(), 1, sitegen.Document("Big", 10, 10, 40)) // 4,111 pages: 51 A4 sheets
	if err != nil {
		t.Fatal(err)
	}
	base := "/projects/" + itoa(pid)
	pane := doc(t, c.do("GET", base+"/diagram", nil, true))
	if a := pane.Find(`a[download][href*="/diagram/pdf?"]`); a.AttrOr("hx-target", "") != "#pdf-warning" || pane.Find("#pdf-warning").Length() != 1 {
		t.Fatalf("the PDF link does not ask first")
	}
	rec := c.do("GET", base+"/diagram/pdf?fit=one", nil, true)
	warn := doc(t, rec).Find(".field-warn")
	if rec.Code != 200 || !strings.Contains(warn.Text(), "On one A4 sheet its smallest words would print") || warn.Find("a[download]").AttrOr("href", "") != base+"/diagram/pdf?fit=one" {
		t.Errorf("one sheet of 4,111 pages: %d %q", rec.Code, warn.Text())
	}
	rec = c.do("GET", base+"/diagram/pdf", nil, true)
	if warn := doc(t, rec).Find(".field-warn").Text(); rec.Code != 200 || !strings.Contains(warn, "This PDF would be") || !strings.Contains(warn, "sheets: draw fewer levels") {
		t.Errorf("every sheet of 4,111 pages: %d %q", rec.Code, warn)
	}
	rec = c.do("GET", base+"/diagram/pdf?depth=2", nil, true)
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("HX-Trigger"), `"url":"`+base+`/diagram/pdf?depth=2"`) {
		t.Errorf("two levels: %d %v %q", rec.Code, rec.Header(), rec.Body.String())
	}
	if rec := c.do("GET", base+"/diagram/pdf?fit=one", nil, false); rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" {
		t.Errorf("downloaded anyway: %d %v", rec.Code, rec.Header())
	}
}
