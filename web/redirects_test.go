package web

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"siteplan/site"
)

// TestRedirectsAttach attaches a Screaming Frog crawl and Search
// Console's clicks through the view's forms, downloads the map for a
// platform, and shows a bad file's problem on the page, attaching
// nothing.
func TestRedirectsAttach(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	base := "/projects/" + itoa(pid) + "/redirects"
	upload := func(path, name, file string) *httptest.ResponseRecorder {
		t.Helper()
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		fw, _ := w.CreateFormFile("file", name)
		fw.Write(b)
		w.Close()
		return c.raw("POST", path, &body, w.FormDataContentType(), false)
	}
	rec := upload(base+"/attach", "internal_all.csv", "../testdata/relaunch/old-crawl.csv")
	if rec.Code != 303 {
		t.Fatalf("attach: %d %.500s", rec.Code, rec.Body.String())
	}
	if rec := upload(base+"/traffic", "pages.csv", "../testdata/relaunch/search-console.csv"); rec.Code != 303 {
		t.Fatalf("traffic: %d %.500s", rec.Code, rec.Body.String())
	}
	st, _ := c.db.RedirectStatus(context.Background(), pid)
	if want := (site.RedirectStatus{OldURLs: 5, Accepted: 4, Awaiting: 1, Unmatched: 1, Clicks: 1500, ClicksAtRisk: 300}); st != want {
		t.Errorf("status %+v, want %+v", st, want)
	}
	page := doc(t, c.do("GET", base, nil, false))
	if got := strings.TrimSpace(page.Find("#clicks-at-risk").Text()); !strings.HasPrefix(got, "300") {
		t.Errorf("clicks at risk shows %q", got)
	}
	if n := page.Find("#redirect-table tr.old").Length(); n != 5 {
		t.Errorf("%d rows, want 5", n)
	}
	rec = c.do("GET", base+"/export?format=nginx", nil, false)
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Disposition"), "siteplan-redirects.conf") ||
		!strings.Contains(rec.Body.String(), `"/team.html" "https://www.acme.example/about-us/team"`) {
		t.Errorf("nginx download: %d %v %.300s", rec.Code, rec.Header(), rec.Body.String())
	}
	// A traffic file where an old site belongs: said on the page, nothing attached.
	rec = upload(base+"/attach", "pages.csv", "../testdata/relaunch/search-console.csv")
	if msg := doc(t, rec).Find(".alert-error").Text(); rec.Code != 422 || !strings.Contains(msg, "url column") {
		t.Errorf("a wrong file: %d %q", rec.Code, msg)
	}
	if st2, _ := c.db.RedirectStatus(context.Background(), pid); st2 != st {
		t.Errorf("a refused file changed the map: %+v", st2)
	}
}
