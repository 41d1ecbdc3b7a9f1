package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

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
	rec = upload(base+"/traffic", "pages.csv", "../testdata/relaunch/search-console.csv")
	if rec.Code != 303 {
		t.Fatalf("traffic: %d %.500s", rec.Code, rec.Body.String())
	}
	if note := doc(t, c.do("GET", rec.Header().Get("Location"), nil, false)).Find(".alert").Text(); !strings.Contains(note,
		"Clicks attached: 2 of the file's 3 pages matched old URLs; 1 not found among them, such as https://www.acme.example/unknown.") {
		t.Errorf("after the traffic file: %q", note)
	}
	// A traffic file of another site matches nothing: said, nothing changed.
	other := filepath.Join(t.TempDir(), "other.csv")
	os.WriteFile(other, []byte("Top pages,Clicks\nhttps://other.example/a,10\nhttps://other.example/b,5\n"), 0o644)
	if rec := upload(base+"/traffic", "other.csv", other); rec.Code != 422 ||
		!strings.Contains(doc(t, rec).Find(".alert-error").Text(), "other.csv: None of the file's 2 pages is an old URL of this plan (such as https://other.example/a): is it this site's export? Nothing was changed.") {
		t.Errorf("a traffic file of another site: %d %q", rec.Code, doc(t, rec).Find(".alert-error").Text())
	}
	if st2, _ := c.db.Redirects.RedirectStatus(context.Background(), pid); st2.Clicks != 1500 {
		t.Errorf("a traffic file that matched nothing changed the clicks: %+v", st2)
	}
	st, _ := c.db.Redirects.RedirectStatus(context.Background(), pid)
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
	// An image where an old site belongs: the reader's error on the
	// page, nothing attached (its bytes once made junk rows matched to
	// the home page at 100%).
	rec = upload(base+"/attach", "old-site.png", "../docs/editor.png")
	if msg := doc(t, rec).Find(".alert-error").Text(); rec.Code != 422 || !strings.Contains(msg, "old-site.png lists no URL") || !strings.Contains(msg, "not UTF-8") {
		t.Errorf("an image: %d %q", rec.Code, msg)
	}
	if st2, _ := c.db.Redirects.RedirectStatus(context.Background(), pid); st2 != st {
		t.Errorf("a refused file changed the map: %+v", st2)
	}
}

// TestRedirectDownloadRefusedInline: a platform's limit refuses its file
// beside its link (the link asks first, as htmx), not as a page of its
// own; a file that can be made is then fetched as a download.
func TestRedirectDownloadRefusedInline(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	var olds []site.OldPage
	var maps []site.Mapping
	for i := range 2100 {
		o := site.OldPage{URL: fmt.Sprintf("https://www.acme.example/old/%d.html", i)}
		olds = append(olds, o)
		maps = append(maps, site.Mapping{From: o.URL, Disposition: site.DispositionRedirect, PageID: ids["Pricing"], Status: 301, Confidence: 1, Accepted: true})
	}
	if _, err := c.db.Redirects.AttachOldSite(ctx, pid, olds, maps); err != nil {
		t.Fatal(err)
	}
	base := "/projects/" + itoa(pid) + "/redirects"
	page := doc(t, c.do("GET", base, nil, false))
	if a := page.Find(`a[download][href$="format=vercel"]`); a.AttrOr("hx-target", "") != "#refused-vercel" || page.Find("#refused-vercel").Length() != 1 {
		t.Fatalf("the vercel link does not ask first: %v", a.Nodes)
	}
	rec := c.do("GET", base+"/export?format=vercel", nil, true)
	if rec.Code != 422 || rec.Header().Get("HX-Retarget") != "" || !strings.Contains(doc(t, rec).Find(".field-error").Text(), "allows 2,048") {
		t.Errorf("vercel, asked by the link: %d %v %q", rec.Code, rec.Header(), rec.Body.String())
	}
	rec = c.do("GET", base+"/export?format=nginx", nil, true)
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("HX-Trigger"), `"url":"`+base+`/export?format=nginx"`) || rec.Body.Len() != 0 {
		t.Errorf("nginx, asked by the link: %d %v", rec.Code, rec.Header())
	}
	if rec := c.do("GET", base+"/export?format=nginx", nil, false); rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Disposition"), "attachment") {
		t.Errorf("nginx, fetched: %d %v", rec.Code, rec.Header())
	}
}

// TestRedirectsAttachSearchConsole: Search Console's "Pages" export,
// all many agencies have of an old site, is taken as its URL list, with
// each URL's clicks.
func TestRedirectsAttachSearchConsole(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	b, _ := os.ReadFile("../testdata/relaunch/search-console.csv")
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, _ := w.CreateFormFile("file", "Pages.csv")
	fw.Write(b)
	w.Close()
	if rec := c.raw("POST", "/projects/"+itoa(pid)+"/redirects/attach", &body, w.FormDataContentType(), false); rec.Code != 303 {
		t.Fatalf("attach: %d %.500s", rec.Code, rec.Body.String())
	}
	st, _ := c.db.Redirects.RedirectStatus(context.Background(), pid)
	if st.OldURLs != 3 || st.Clicks != 1505 {
		t.Errorf("status %+v, want the 3 URLs with their 1,505 clicks", st)
	}
}

// TestRenameSaysURLsChanged: a page saved from the details form with a
// new title (its slug derived) says how many URLs changed, out of band;
// one whose URL stays says nothing; "keep the old URL" gives it back.
func TestRenameSaysURLsChanged(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	save := func(title string, slugAuto bool) *httptest.ResponseRecorder {
		pg, _ := c.db.Pages.Page(ctx, ids["About us"])
		form := url.Values{"version": {itoa(pg.Version)}, "title": {title}, "slug": {pg.Slug}, "kind": {"page"}, "status": {"planned"}, "in_sitemap": {"1"}}
		if slugAuto {
			form.Set("slug_auto", "1")
		}
		return c.do("PUT", pagePath(pid, ids["About us"]), form, true)
	}
	rec := save("Company", true)
	note := doc(t, rec).Find(`#url-notices[hx-swap-oob] .url-notice`).Text()
	if rec.Code != 200 || !strings.Contains(note, "2 URLs changed") || !strings.Contains(note, "“about-us” is now “company”") {
		t.Fatalf("a rename that moves 2 URLs: %d, notice %q", rec.Code, note)
	}
	if rec := save("Our company", false); doc(t, rec).Find(".url-notice").Length() != 0 {
		t.Errorf("a rename with a typed slug said URLs changed")
	}
	rec = c.do("POST", pagePath(pid, ids["About us"], "keep-url"), url.Values{"slug": {"about-us"}, "path": {""}}, true)
	if pg, _ := c.db.Pages.Page(ctx, ids["About us"]); rec.Code != 200 || pg.Slug != "about-us" || pg.SlugAuto {
		t.Errorf("keep the old URL: %d, slug %q derived %v", rec.Code, pg.Slug, pg.SlugAuto)
	}
}

// TestTypedSlugAdvice: a slug typed with spaces and capitals is saved as
// typed (it may be an old site's real URL) and the form says how its URL
// reads and what would read well; a derived slug says nothing.
func TestTypedSlugAdvice(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	pg, _ := c.db.Pages.Page(context.Background(), ids["Team"])
	form := url.Values{"version": {itoa(pg.Version)}, "title": {pg.Title}, "slug": {"Our Team"}, "kind": {"page"}, "status": {"planned"}, "in_sitemap": {"1"}}
	rec := c.do("PUT", pagePath(pid, pg.ID), form, true)
	warn := doc(t, rec).Find("#warn-slug").Text()
	if rec.Code != 200 || warn != "Check the slug: the slug “Our Team” has spaces and capitals: its URL reads “…/Our%20Team”; use “our-team”." {
		t.Errorf("a typed slug with a space: %d, warning %q", rec.Code, warn)
	}
	if pg, _ := c.db.Pages.Page(context.Background(), ids["Team"]); pg.Slug != "Our Team" {
		t.Errorf("saved slug %q, want it as typed", pg.Slug)
	}
	form.Set("version", itoa(pg.Version+1))
	form.Set("slug_auto", "1")
	if rec := c.do("PUT", pagePath(pid, pg.ID), form, true); doc(t, rec).Find("#warn-slug").Length() != 0 {
		t.Errorf("a derived slug is warned about")
	}
}

// TestMoveSaysURLsChanged: a move that gives a branch other URLs says
// how many, as a rename does, out of band beside the move's answer; a
// move among the same siblings says nothing; "keep the old URLs" gives
// the moved page its old URL as a path override, which the pages below
// it extend again.
func TestMoveSaysURLsChanged(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	move := func(title string, parent int64, position int) *httptest.ResponseRecorder {
		return c.do("POST", pagePath(pid, ids[title], "move"), url.Values{"parent": {itoa(parent)}, "position": {strconv.Itoa(position)}}, true)
	}
	urls := func() (string, string) {
		tr, _ := c.db.Pages.Tree(ctx, pid)
		return tr.URL(ids["About us"]), tr.URL(ids["Team"])
	}
	if rec := move("About us", ids["Home"], 3); rec.Code != 204 {
		t.Errorf("a move among the same siblings: %d %q, want 204 and no word", rec.Code, rec.Body.String())
	}
	rec := move("About us", ids["Contact"], 0)
	note := doc(t, rec).Find(`#url-notices[hx-swap-oob] .url-notice`)
	if rec.Code != 200 || !strings.Contains(note.Text(), "Moved “About us”: 2 URLs changed, its own and those of the 1 page below it") ||
		!strings.Contains(note.Text(), "“/about-us” is now “/contact/about-us”") || note.Find("#keep-url").Text() != "Keep the old URLs" {
		t.Fatalf("a move of 2 URLs: %d, notice %q", rec.Code, note.Text())
	}
	if a, b := urls(); a != "https://www.acme.example/contact/about-us" || b != "https://www.acme.example/contact/about-us/team" {
		t.Fatalf("moved: %s %s", a, b)
	}
	vals, _ := note.Find("#keep-url").Attr("hx-vals")
	var keep map[string]string
	json.Unmarshal([]byte(vals), &keep)
	if rec := c.do("POST", pagePath(pid, ids["About us"], "keep-url"), url.Values{"path": {keep["path"]}}, true); rec.Code != 200 || !strings.Contains(rec.Body.String(), "Kept the old URLs") {
		t.Fatalf("keep the old URLs (%q): %d %q", vals, rec.Code, rec.Body.String())
	}
	if a, b := urls(); a != "https://www.acme.example/about-us" || b != "https://www.acme.example/about-us/team" {
		t.Errorf("kept: %s %s, want the URLs before the move", a, b)
	}
	if pg, _ := c.db.Pages.Page(ctx, ids["About us"]); pg.ParentID != ids["Contact"] || pg.Slug != "about-us" || !pg.SlugAuto {
		t.Errorf("kept: parent %d slug %q derived %v, want it where it was moved, its slug as it was", pg.ParentID, pg.Slug, pg.SlugAuto)
	}
	// A group has no URL of its own: the pages below it are counted.
	rec = move("Products", ids["Contact"], 0)
	if note := doc(t, rec).Find(".url-notice").Text(); !strings.Contains(note, "Moved “Products”: the URLs of the 2 pages below it changed") {
		t.Errorf("a group moved: %q", note)
	}
}

// TestLaunchFromVersions marks a version launched from the versions
// page: it is listed so, and a rename after it records the redirect.
func TestLaunchFromVersions(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	project := "/projects/" + itoa(pid)
	if rec := c.do("POST", project+"/versions", url.Values{"name": {"Live"}, "launched": {"1"}}, false); rec.Code != 303 {
		t.Fatalf("launch: %d", rec.Code)
	}
	if chip := doc(t, c.do("GET", project+"/versions", nil, false)).Find(".version .chip.launched").Text(); chip != "launched" {
		t.Errorf("the version is listed with %q", chip)
	}
	pg, _ := c.db.Pages.Page(ctx, ids["Contact"])
	rec := c.do("PATCH", pagePath(pid, pg.ID, "title"), url.Values{"title": {"Get in touch"}, "version": {itoa(pg.Version)}}, true)
	if rec.Code != 200 || !strings.Contains(doc(t, rec).Find(".url-notice").Text(), "redirect") {
		t.Fatalf("rename after launch: %d %s", rec.Code, rec.Body.String())
	}
	list, _, _ := c.db.Redirects.OldURLs(ctx, pid, site.OldFilter{Show: site.ShowAccepted})
	if len(list) != 1 || list[0].URL != "https://www.acme.example/contact" || list[0].PageID != pg.ID {
		t.Errorf("redirects after the rename: %+v", list)
	}
}

// TestClientSeesTheMap: a client on a share link sees the map's figures
// on the review view, clicks at risk among them, and can read the
// Redirects view without any control that decides.
func TestClientSeesTheMap(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	olds := []site.OldPage{{URL: "https://www.acme.example/prices.html", Clicks: 120}, {URL: "https://www.acme.example/gone.html", Clicks: 30}}
	maps := []site.Mapping{
		{From: olds[0].URL, Disposition: site.DispositionRedirect, PageID: ids["Pricing"], Status: 301, Confidence: 0.95, Accepted: true},
		{From: olds[1].URL, Disposition: site.DispositionReview},
	}
	if _, err := c.db.Redirects.AttachOldSite(ctx, pid, olds, maps); err != nil {
		t.Fatal(err)
	}
	project := "/projects/" + itoa(pid)
	// A link shares the map only when the team allows it.
	plain := c.visitor(pid, site.ShareComment)
	if rec := plain.do("GET", project+"/redirects", nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("a client whose link does not share the map opens it: %d", rec.Code)
	}
	if n := doc(t, plain.do("GET", project, nil, false)).Find("#review-redirects").Length(); n != 0 {
		t.Errorf("the review view of a link without the map tells of it")
	}
	v := c.visitorWith(pid, site.ShareComment, []string{site.DownloadPDF, site.DownloadRedirects}, nil)
	link := strings.Join(strings.Fields(doc(t, v.do("GET", project, nil, false)).Find("#review-redirects").Text()), " ")
	if !strings.Contains(link, "2 URLs, 1 decided") || !strings.Contains(link, "30 clicks at risk") {
		t.Errorf("the review view says %q", link)
	}
	page := doc(t, v.do("GET", project+"/redirects", nil, false))
	if page.Find("#redirect-table tr.old").Length() != 2 || page.Find("#redirect-bulk, .decide, .attach").Length() != 0 {
		t.Errorf("a client's Redirects view: %d rows, %d controls", page.Find("#redirect-table tr.old").Length(), page.Find("#redirect-bulk, .decide, .attach").Length())
	}
	if rec := v.do("POST", project+"/redirects/decide", url.Values{"verb": {"accept-all"}}, true); rec.Code != 403 {
		t.Errorf("a client decided: %d", rec.Code)
	}
}

// TestCompareShowsTheMap: Compare lists the old URLs whose mapping
// changed since a version, as the sign-off of a version covers its map.
func TestCompareShowsTheMap(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	olds := []site.OldPage{{URL: "https://www.acme.example/prices.html"}, {URL: "https://www.acme.example/gone.html"}}
	maps := []site.Mapping{
		{From: olds[0].URL, Disposition: site.DispositionRedirect, PageID: ids["Pricing"], Status: 301, Confidence: 0.6},
		{From: olds[1].URL, Disposition: site.DispositionReview},
	}
	if _, err := c.db.Redirects.AttachOldSite(ctx, pid, olds, maps); err != nil {
		t.Fatal(err)
	}
	project := "/projects/" + itoa(pid)
	if rec := c.do("POST", project+"/versions", url.Values{"name": {"Map proposed"}}, false); rec.Code != 303 {
		t.Fatal(rec.Code)
	}
	if _, err := c.db.Redirects.Decide(ctx, pid, nil, &site.OldFilter{}, site.Decision{Verb: site.DecideAccept}); err != nil {
		t.Fatal(err)
	}
	d := doc(t, c.do("GET", project+"/compare?from=1&to=now", nil, false))
	items := d.Find("#redirect-changes + ul li")
	if items.Length() != 1 || !strings.Contains(items.Text(), "/prices.html: redirect to “Pricing” (301), proposed → redirect to “Pricing” (301)") {
		t.Errorf("the compare page lists %d: %q", items.Length(), items.Text())
	}
}

// TestAttachLiveSite reads the old site from its address (robots.txt,
// then the sitemap it names, on loopback) and the view says what
// attaching changed.
func TestAttachLiveSite(t *testing.T) {
	c := siteClient(t)
	pid, _ := c.fixture()
	var old *httptest.Server
	old = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nSitemap: %s/old-sitemap.xml\n", old.URL)
		case "/old-sitemap.xml":
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
				`<url><loc>%[1]s/contact</loc></url><url><loc>%[1]s/team.html</loc></url><url><loc>%[1]s/history</loc></url></urlset>`, old.URL)
		default:
			http.NotFound(w, r)
		}
	}))
	defer old.Close()
	base := "/projects/" + itoa(pid) + "/redirects"
	rec := c.do("POST", base+"/attach", url.Values{"site": {old.URL}}, false)
	job := rec.Header().Get("Location")
	if rec.Code != 303 || !strings.HasPrefix(job, "/sites/jobs/") {
		t.Fatalf("attach from the address: %d %q %.300s", rec.Code, job, rec.Body.String())
	}
	loc := c.finished(job).Find("#job-attached a").AttrOr("href", "")
	if !strings.Contains(loc, "added=3") {
		t.Fatalf("the job leads to %q", loc)
	}
	note := doc(t, c.do("GET", loc, nil, false)).Find("#attach-notice").Text()
	if !strings.Contains(note, "3 new URLs matched, 0 gone") {
		t.Errorf("the view says %q", note)
	}
	if _, n, _ := c.db.Redirects.OldURLs(context.Background(), pid, site.OldFilter{}); n != 3 {
		t.Errorf("%d old URLs attached, want 3", n)
	}
}

// TestDecideKeepsThePage: a decision on the second page of rows answers
// with that page, not the first.
func TestDecideKeepsThePage(t *testing.T) {
	c := newClient(t)
	pid, _ := relaunchPlan(t, c.db)
	list, _, err := c.db.Redirects.OldURLs(context.Background(), pid, site.OldFilter{Offset: 150, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	rec := c.do("POST", "/projects/"+itoa(pid)+"/redirects/decide", url.Values{"id": {itoa(list[0].ID)}, "verb": {"retire"}, "offset": {"100"}}, true)
	d := doc(t, rec)
	if got := strings.TrimSpace(d.Find("#redirect-count").Text()); rec.Code != 200 || got != "101–200 of 240" {
		t.Errorf("after a decision on the second page: %d %q", rec.Code, got)
	}
	if d.Find("#undo-redirects").Length() != 1 {
		t.Errorf("a decision that changed a row offers no undo")
	}
	// Accepting rows without a proposal changes nothing: no undo, which
	// would take back the change before.
	rec = c.do("POST", "/projects/"+itoa(pid)+"/redirects/decide", url.Values{"verb": {"accept-all"}, "show": {"unmatched"}}, true)
	if d := doc(t, rec); rec.Code != 200 || d.Find("#undo-redirects").Length() != 0 || !strings.Contains(d.Find("#flash").Text(), "Nothing to accept") {
		t.Errorf("accepting nothing: %d, undo offered %d, says %q", rec.Code, d.Find("#undo-redirects").Length(), d.Find("#flash").Text())
	}
	// The table says which page it is, and its decisions send it.
	if v, _ := d.Find("#redirect-offset").Attr("value"); v != "100" {
		t.Errorf("the table's offset is %q", v)
	}
	d.Find(".decide [hx-post], #redirect-bulk").Each(func(_ int, s *goquery.Selection) {
		if inc, _ := s.Attr("hx-include"); !strings.Contains(inc, "#redirect-offset") {
			t.Errorf("a decision does not send the table's page: hx-include %q", inc)
		}
	})
}

// TestDeleteLaunchedChoice: deleting a launched page with "another page"
// chosen but no page picked answers the dialog again, saying so, and
// deletes nothing; retiring it deletes it.
func TestDeleteLaunchedChoice(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	if _, err := c.db.History.LaunchVersion(context.Background(), pid, "Live"); err != nil {
		t.Fatal(err)
	}
	rec := c.do("DELETE", pagePath(pid, ids["Imprint"])+"?gone=page&target=", nil, true)
	if msg := doc(t, rec).Find("#delete-launched .field-error").Text(); rec.Code != 422 || !strings.Contains(msg, "Choose the page") {
		t.Errorf("a half-made choice: %d %q", rec.Code, msg)
	}
	if _, err := c.db.Pages.Page(context.Background(), ids["Imprint"]); err != nil {
		t.Fatalf("a half-made choice deleted the page: %v", err)
	}
	if rec := c.do("DELETE", pagePath(pid, ids["Imprint"])+"?gone=retire", nil, true); rec.Code != 200 {
		t.Errorf("retire: %d %s", rec.Code, rec.Body.String())
	}
	if _, n, _ := c.db.Redirects.OldURLs(context.Background(), pid, site.OldFilter{Show: site.ShowRetired}); n != 1 {
		t.Errorf("%d retired URLs after the deletion, want 1", n)
	}
}

// TestAttachOldSiteIsAJob: an old site named by its address is read as a
// live-site job, not inside the heavy-work gate: while the old site
// answers slowly, another team's heavy download is served at once; then
// the job attaches the old URLs and its page leads to the map.
func TestAttachOldSiteIsAJob(t *testing.T) {
	c := siteClient(t)
	pid, _ := c.fixture()
	ls := newLiveSite(t)
	ls.holdInIndex = true
	rival := c.peer()
	rex := addUser(t, c.db, "rex@rival.example", "Rex", "Rival studio", site.RoleOwner)
	rival.login("rex@rival.example")
	ms, _ := c.db.Teams.Memberships(context.Background(), rex.ID)
	theirs := site.Project{TeamID: ms[0].ID, Name: "Rival plan", BaseURL: "https://rival.example/"}
	if err := c.db.Projects.CreateProject(context.Background(), &theirs); err != nil {
		t.Fatal(err)
	}
	started := make(chan *httptest.ResponseRecorder, 1)
	go func() { // the old code read here, in the request, at the gate
		started <- c.do("POST", "/projects/"+itoa(pid)+"/redirects/attach", url.Values{"site": {ls.URL}}, false)
	}()
	<-ls.holding
	if rec := rival.do("GET", "/projects/"+itoa(theirs.ID)+"/document.json", nil, false); rec.Code != http.StatusOK {
		t.Errorf("another team's download while an old site is read: %d %.200s", rec.Code, rec.Body.String())
	}
	ls.release()
	rec := <-started
	job := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(job, "/sites/jobs/") {
		t.Fatalf("attach by address: %d %q, want the job's page", rec.Code, job)
	}
	page := c.finished(job)
	link := page.Find("#job-attached a").AttrOr("href", "")
	if !strings.HasPrefix(link, "/projects/"+itoa(pid)+"/redirects?added=") {
		t.Errorf("the job's page leads to %q: %s", link, page.Find("#job-status").Text())
	}
	if st, _ := c.db.Redirects.RedirectStatus(context.Background(), pid); st.OldURLs != 7 {
		t.Errorf("%d old URLs attached, want 7", st.OldURLs)
	}
}
