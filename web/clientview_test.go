package web

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"siteplan/site"
)

// Marker strings in every field that is the agency's: a client must find
// none of them anywhere it can reach.
var internalMarkers = []string{"MKASSIGNEE", "MKNOTES", "MKOWNER", "mkkeyword", "2031-07-13", "7777", "7,777", "MKHOOKSECRET", "mkhook.example"}

// seedInternals writes a marker into every internal field of every page
// of the plan, and one note the client may read; then keeps version 1,
// changes the internal fields again (for the comparison) and adds a team
// webhook.
func seedInternals(t *testing.T, c *client, pid int64) (publicNote string) {
	t.Helper()
	ctx := context.Background()
	tr, err := c.db.Pages.Tree(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	mark := func(round string) {
		for _, p := range tr.Pages() {
			pg, err := c.db.Pages.Page(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			pg.Assignee, pg.Notes, pg.Status = "MKASSIGNEE"+round, "MKNOTES"+round+" supplier margin 12%", "in_progress"
			pg.Brief.Keyword, pg.Brief.Owner, pg.Brief.Due, pg.Brief.WordTarget, pg.Brief.Intent = "mkkeyword"+round, "MKOWNER"+round, "2031-07-13", 7777, site.IntentCommercial
			pg.Brief.H1 = "Heading of " + pg.Title
			if pg.Title == "Pricing" {
				pg.Notes, pg.NotesPublic = "CLIENTNOTE prices include VAT", true
			}
			if err := c.db.Pages.UpdatePage(ctx, &pg); err != nil {
				t.Fatal(err)
			}
		}
	}
	mark("A")
	if _, err := c.db.History.CreateVersion(ctx, pid, "Kickoff"); err != nil {
		t.Fatal(err)
	}
	mark("B")
	w := site.Webhook{TeamID: 1, URL: "https://mkhook.example/hook", Format: "json", Secret: "MKHOOKSECRET-0123456789"}
	if err := c.db.Webhooks.AddWebhook(ctx, &w); err != nil {
		t.Fatal(err)
	}
	return "CLIENTNOTE"
}

// readable is what a person could read of an answer: its text, the
// entries of a zip, a gzip's content, a PDF's words.
func readable(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	b := rec.Body.Bytes()
	switch ct := rec.Header().Get("Content-Type"); {
	case strings.HasPrefix(ct, "application/pdf"):
		return pdfText(t, b)
	case strings.HasPrefix(ct, "application/zip"):
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("zip: %v", err)
		}
		var all strings.Builder
		for _, f := range zr.File {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(r)
			r.Close()
			if strings.HasSuffix(f.Name, ".gz") {
				data = gunzip(t, data)
			}
			all.WriteString(f.Name + "\n" + string(data) + "\n")
		}
		return all.String()
	case strings.HasPrefix(ct, "application/gzip"):
		return string(gunzip(t, b))
	}
	return string(b)
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestClientSeesNoInternals walks every route a share link reaches, as
// a client with every download allowed and as one with the defaults, on
// a plan whose every internal field holds a marker: HTML, JSON, CSV, XML,
// ZIP, gzip, PDF text and the live stream hold none of them, and the
// downloads a link does not allow answer 404. A route a share link can
// reach that the walk does not know fails the test.
func TestClientSeesNoInternals(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	note := seedInternals(t, c, pid)
	p := "/projects/" + itoa(pid)
	pricing := itoa(ids["Pricing"])
	all := c.visitorWith(pid, site.ShareComment, site.ShareDownloads, nil)
	plain := c.visitor(pid, site.ShareComment)
	// A client signs version 1 off, so the versions and compare pages
	// have a sign-off to show.
	wantStatus(t, all.do("POST", p+"/versions/1/approve", url.Values{"page": {"0"}, "name": {"Carla Client"}}, false), http.StatusSeeOther, "sign off")
	cm := all.do("POST", p+"/pages/"+pricing+"/comments", url.Values{"body": {"Is VAT included?"}, "author": {"Carla Client"}}, true)
	wantStatus(t, cm, http.StatusCreated, "comment")

	// Every GET route a share link may reach, as the walk requests it
	// (the download a link must allow, "" for none).
	diagrams := func(prefix, query string) []string {
		var out []string
		for _, f := range []string{"pdf", "png", "svg", "dot", "graphml"} {
			out = append(out, prefix+f+query)
		}
		return out
	}
	walks := map[string][]string{
		"/projects/:id":                             {p, p + "?page=" + pricing},
		"/projects/:id/events":                      nil, // the live stream, below
		"/projects/:id/document.json":               {p + "/document.json"},
		"/projects/:id/summary":                     {p + "/summary"},
		"/projects/:id/search":                      {p + "/search?q=supplier+margin", p + "/search?q=pri"},
		"/projects/:id/outline":                     {p + "/outline", p + "/outline?level=100"},
		"/projects/:id/outline/more":                {p + "/outline/more?parent=" + itoa(ids["Home"]) + "&placement=main&after=0&depth=2&level=99"},
		"/projects/:id/comments":                    {p + "/comments"},
		"/projects/:id/pages/:pid":                  {p + "/pages/" + pricing, p + "/pages/" + itoa(ids["Home"])},
		"/projects/:id/pages/:pid/children":         {p + "/pages/" + itoa(ids["Home"]) + "/children"},
		"/projects/:id/pages/:pid/comments":         {p + "/pages/" + pricing + "/comments"},
		"/projects/:id/diagram":                     {p + "/diagram", p + "/diagram?content=1&client=0"},
		"/projects/:id/diagram/scene":               {p + "/diagram/scene?paint=scene"},
		"/projects/:id/diagram/:format":             append(diagrams(p+"/diagram/", ""), p+"/diagram/pdf?content=1&client=0"),
		"/projects/:id/export":                      {p + "/export"},
		"/projects/:id/export.zip":                  {p + "/export.zip"},
		"/projects/:id/handoff/:format":             {p + "/handoff/wxr", p + "/handoff/routes", p + "/handoff/wordpress-check"},
		"/projects/:id/sitemap.html":                {p + "/sitemap.html"},
		"/projects/:id/:file":                       {p + "/sitemap.xml", p + "/sitemap.txt", p + "/robots.txt", p + "/footer.html", p + "/inventory.csv"},
		"/projects/:id/redirects":                   {p + "/redirects"},
		"/projects/:id/redirects/export":            {p + "/redirects/export?format=csv"},
		"/projects/:id/versions":                    {p + "/versions"},
		"/projects/:id/versions/:n":                 {p + "/versions/1"},
		"/projects/:id/versions/:n/pitch":           {p + "/versions/1/pitch", p + "/versions/1/pitch#2"},
		"/projects/:id/versions/:n/pitch/notes":     {p + "/versions/1/pitch/notes"},
		"/projects/:id/versions/:n/diagram/:format": diagrams(p+"/versions/1/diagram/", ""),
		"/projects/:id/launch":                      {p + "/launch"},
		"/projects/:id/launch/diagram/:format":      diagrams(p+"/launch/diagram/", ""),
		"/projects/:id/launch/report.json":          {p + "/launch/report.json"},
		"/projects/:id/compare":                     {p + "/compare?from=1"},
		"/projects/:id/compare/diagram/:format":     diagrams(p+"/compare/diagram/", "?from=1"),
		"/projects/:id/logo.png":                    {p + "/logo.png"},
		"/projects/:id/brand.png":                   {p + "/brand.png"},
		"/projects/:id/brand.css":                   {p + "/brand.css"},
		"/projects/:id/history":                     {p + "/history"},
		"/projects/:id/lint":                        {p + "/lint"},
		"/projects/:id/locales":                     {p + "/locales"},
		// The API is for accounts and tokens: a link's cookie reaches none of it.
		"/api/v1/projects/:id":                            {"/api/v1" + p},
		"/api/v1/projects/:id/plan":                       {"/api/v1" + p + "/plan"},
		"/api/v1/projects/:id/versions":                   {"/api/v1" + p + "/versions"},
		"/api/v1/projects/:id/diff":                       {"/api/v1" + p + "/diff?from=1"},
		"/api/v1/projects/:id/exports/:file":              {"/api/v1" + p + "/exports/inventory.csv"},
		"/api/v1/projects/:id/redirects/status":           {"/api/v1" + p + "/redirects/status"},
		"/api/v1/projects/:id/launch-checks/:jid":         {"/api/v1" + p + "/launch-checks/nope"},
		"/api/v1/projects/:id/pages":                      {"/api/v1" + p + "/pages"},
		"/api/v1/projects/:id/links":                      {"/api/v1" + p + "/links"},
		"/api/v1/projects/:id/redirects":                  {"/api/v1" + p + "/redirects"},
		"/api/v1/projects/:id/handoff/:format":            {"/api/v1" + p + "/handoff/routes"},
		"/api/v1/projects/:id/comments":                   {"/api/v1" + p + "/comments"},
		"/api/v1/projects/:id/treetests":                  {"/api/v1" + p + "/treetests"},
		"/api/v1/projects/:id/treetests/:sid/results":     {"/api/v1" + p + "/treetests/1/results"},
		"/api/v1/projects/:id/export.zip":                 {"/api/v1" + p + "/export.zip"},
		"/api/v1/projects/:id/redirects/export":           {"/api/v1" + p + "/redirects/export?format=csv"},
		"/api/v1/projects/:id/pages/:pid":                 {"/api/v1" + p + "/pages/" + pricing},
		"/api/v1/projects/:id/launch-checks/:jid/report":  {"/api/v1" + p + "/launch-checks/nope/report"},
		"/api/v1/projects/:id/jobs/:jid":                  {"/api/v1" + p + "/jobs/nope"},
		"/api/v1/projects/:id/diagram/:format":            {"/api/v1" + p + "/diagram/svg"},
		"/api/v1/projects/:id/lint":                       {"/api/v1" + p + "/lint"},
		"/api/v1/projects/:id/treetests/:sid/files/:file": {"/api/v1" + p + "/treetests/1/files/outcomes.csv"},
		"/api/v1/projects/:id/proposals":                  {"/api/v1" + p + "/proposals"},
		"/api/v1/projects/:id/estimate":                   {"/api/v1" + p + "/estimate"},
		"/api/v1/projects/:id/ratecard":                   {"/api/v1" + p + "/ratecard"},
		"/api/v1/projects/:id/proposals/:n":               {"/api/v1" + p + "/proposals/1"},
		// Proposals are the team's: a link reaches none of them.
		"/projects/:id/proposals":                    {p + "/proposals"},
		"/projects/:id/estimate/:type":               {p + "/estimate/csv"},
		"/projects/:id/proposals/:n":                 {p + "/proposals/1"},
		"/projects/:id/proposals/:n/diagram/:format": {p + "/proposals/1/diagram/pdf"},
		// Tree tests are the team's research: a link reaches none of it.
		"/projects/:id/treetests":                      {p + "/treetests"},
		"/projects/:id/treetests/compare":              {p + "/treetests/compare?a=1&b=1"},
		"/projects/:id/treetests/:sid":                 {p + "/treetests/1"},
		"/projects/:id/treetests/:sid/diagram/:format": {p + "/treetests/1/diagram/pdf"},
		"/projects/:id/treetests/:sid/:file":           {p + "/treetests/1/events.csv"},
	}
	for _, r := range c.srv.routeTable() {
		if r.method != http.MethodGet || !slices.Contains([]need{projectRead, projectTeam, projectComment}, r.need) {
			continue
		}
		if _, ok := walks[r.path]; !ok {
			t.Errorf("GET %s is open to share links but not walked here: add it to the walk", r.path)
		}
	}
	check := func(t *testing.T, what, text string) {
		t.Helper()
		for _, m := range internalMarkers {
			if strings.Contains(text, m) {
				i := strings.Index(text, m)
				t.Errorf("%s shows the internal %q: …%s…", what, m, text[max(0, i-80):min(len(text), i+80)])
			}
		}
	}
	check(t, "the comment posted", cm.Body.String())
	sawNote := false
	for route, paths := range walks {
		for _, path := range paths {
			for _, hx := range []bool{false, true} {
				rec := all.do("GET", path, nil, hx)
				what := "GET " + path
				if hx {
					what += " (htmx)"
				}
				if rec.Code >= 500 {
					t.Errorf("%s: %d", what, rec.Code)
				}
				if rec.Code == 200 && !strings.HasPrefix(rec.Header().Get("Content-Type"), "image/png") {
					text := readable(t, rec)
					check(t, what, text)
					sawNote = sawNote || strings.Contains(text, note)
				}
				// The default link has the diagram as PDF and PNG only.
				plainRec := plain.do("GET", path, nil, hx)
				if d := downloadOf(route, path); d != "" && !slices.Contains(site.DefaultShareDownloads, d) && plainRec.Code != http.StatusNotFound {
					t.Errorf("%s with a default link: got %d, want 404 (the download %q is not allowed)", what, plainRec.Code, d)
				}
				if plainRec.Code == 200 && !strings.HasPrefix(plainRec.Header().Get("Content-Type"), "image/png") {
					check(t, what+" with a default link", readable(t, plainRec))
				}
			}
		}
	}
	if rec := all.do("GET", p+"/search?q=supplier+margin", nil, true); !strings.Contains(rec.Body.String(), "No page matches") {
		t.Errorf("a client's search finds pages by their internal notes: %.300s", rec.Body.String())
	}
	if n := doc(t, all.do("GET", p+"/outline?level=100", nil, true)).Find(".brief-mark, .who").Length(); n != 0 {
		t.Errorf("a client's outline shows %d marks of the team's work (brief progress, assignees)", n)
	}
	if !sawNote {
		t.Errorf("the note marked for the client shows nowhere")
	}

	t.Run("the live stream", func(t *testing.T) {
		ts := httptest.NewServer(c.srv.Echo)
		t.Cleanup(ts.Close) // after the stream's end, which openJobEvents leaves to a cleanup
		events, status := openJobEvents(t, ts.URL, p, all.cookies)
		if status != http.StatusOK {
			t.Fatalf("events: %d", status)
		}
		ctx := context.Background()
		pg, _ := c.db.Pages.Page(ctx, ids["Pricing"])
		pg.Notes, pg.NotesPublic, pg.Assignee = "MKNOTES stream", false, "MKASSIGNEE stream"
		// The team edits through the server, so the hub tells the stream.
		form := url.Values{"title": {pg.Title}, "kind": {pg.Kind}, "status": {"in_progress"}, "version": {itoa(pg.Version)}, "slug_auto": {"1"},
			"notes": {pg.Notes}, "assignee": {pg.Assignee}}
		wantStatus(t, c.do("PUT", pagePath(pid, pg.ID), form, true), http.StatusOK, "the team's edit")
		deadline := time.After(30 * time.Second)
		for {
			select {
			case e, ok := <-events:
				if !ok {
					t.Fatal("the stream ended before the edit arrived")
				}
				check(t, "the live event "+e.name, e.data)
				if strings.Contains(e.data, `"page":`+itoa(pg.ID)) {
					return
				}
			case <-deadline:
				t.Fatal("the team's edit never reached the client's stream")
			}
		}
	})
}

// downloadOf names the download a walked path is, as the route table's
// guards see it ("" for a page that is no download).
func downloadOf(route, path string) string {
	if strings.HasPrefix(route, "/api/") { // the API is no share link's: none of it is a download for one
		return ""
	}
	switch route {
	case "/projects/:id/document.json":
		return site.DownloadDocument
	case "/projects/:id/export", "/projects/:id/sitemap.html":
		return site.DownloadSitemaps
	case "/projects/:id/export.zip":
		return site.DownloadZip
	case "/projects/:id/handoff/:format":
		return site.DownloadHandoff
	case "/projects/:id/:file":
		if strings.HasSuffix(path, "inventory.csv") {
			return site.DownloadInventory
		}
		return site.DownloadSitemaps
	case "/projects/:id/redirects", "/projects/:id/redirects/export":
		return site.DownloadRedirects
	}
	if strings.Contains(route, ":format") {
		f := path[strings.LastIndex(path, "/")+1:]
		f, _, _ = strings.Cut(f, "?")
		return f
	}
	return ""
}
