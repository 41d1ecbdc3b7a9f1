package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"siteplan/site"
)

// TestReviewView: a share link opens the review view (the diagram, the
// outline read-only, a page card without the editor's fields). A comment
// link comments and replies but cannot resolve; a view link can do
// neither; the team resolves.
func TestReviewView(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	pricing := ids["Pricing"]
	pg, _ := c.db.Pages.Page(ctx, pricing)
	pg.Notes, pg.Type, pg.Status = "Monthly and yearly plans side by side.", "landing", "review"
	pg.Brief = site.Brief{H1: "Plans for every team", Owner: "Mara", Blocks: []site.Block{{Kind: "table", Note: "Three tiers"}}}
	if err := c.db.Pages.UpdatePage(ctx, &pg); err != nil {
		t.Fatal(err)
	}
	team := site.Comment{ProjectID: pid, PageID: pricing, Author: "Olive Owner", Body: "Three tiers, as agreed?"}
	if err := c.db.Comments.AddComment(ctx, &team, 0); err != nil {
		t.Fatal(err)
	}
	// The links show the status the page is in ("review"); assignees and
	// notes never.
	commenter := c.visitorWith(pid, site.ShareComment, site.DefaultShareDownloads, []string{"review"})
	reader := c.visitorWith(pid, site.ShareView, site.DefaultShareDownloads, []string{"review"})
	project := "/projects/" + itoa(pid)

	for name, v := range map[string]*client{"comment link": commenter, "view link": reader} {
		t.Run(name+" gets the review view", func(t *testing.T) {
			rec := v.do("GET", project, nil, false)
			wantStatus(t, rec, http.StatusOK, "the plan")
			d := doc(t, rec)
			if d.Find("main.review #diagram[hx-get]").Length() != 1 || d.Find("#review-outline #outline.read-only").Length() != 1 {
				t.Errorf("the review view lacks its diagram or read-only outline")
			}
			for _, sel := range []string{"main.editor", ".handle", "#row-menu", "[data-add-root]", "[data-paste]", "#page-form"} {
				if d.Find(sel).Length() != 0 {
					t.Errorf("the review view shows the editor's %s", sel)
				}
			}
			rec = v.do("GET", pagePath(pid, pricing), nil, true)
			wantStatus(t, rec, http.StatusOK, "the page card")
			d = doc(t, rec)
			card := d.Find("#details-inner.page-card")
			for _, want := range []string{"Pricing", "https://www.acme.example/produkte/pricing", "landing", "review", "Plans for every team", "Table — Three tiers", "Three tiers, as agreed?"} {
				if !strings.Contains(card.Text(), want) {
					t.Errorf("the page card does not show %q: %s", want, card.Text())
				}
			}
			// The agency's notes and who writes the page stay inside the team.
			for _, not := range []string{"Monthly and yearly plans side by side.", "Mara"} {
				if strings.Contains(card.Text(), not) {
					t.Errorf("the page card shows %q", not)
				}
			}
			if n := d.Find("input:not([type=hidden]), select, textarea").Length(); name == "view link" && n != 0 {
				t.Errorf("the card for a view link has %d fields, want none", n)
			}
			if d.Find("#f-slug, #f-priority, #f-changefreq, #f-path").Length() != 0 {
				t.Errorf("the page card shows SEO fields")
			}
			if d.Find(`[hx-post$="/resolve"], [hx-post$="/reopen"]`).Length() != 0 {
				t.Errorf("the page card offers a share visitor to resolve a thread")
			}
			full := doc(t, v.do("GET", pagePath(pid, pricing), nil, false))
			if full.Find("main.review #details-inner.page-card").Length() != 1 {
				t.Errorf("a page's own address does not open the review view with its card")
			}
		})
	}

	t.Run("the comment box comes first", func(t *testing.T) {
		d := doc(t, commenter.do("GET", pagePath(pid, pricing), nil, true))
		html, _ := d.Find("#comments").Html()
		if f, th := strings.Index(html, "comment-form"), strings.Index(html, "Three tiers"); f < 0 || f > th {
			t.Errorf("the new-comment form is not above the threads")
		}
	})

	comment := url.Values{"author": {"Carla Client"}, "body": {"Could we show yearly prices?"}}
	reply := url.Values{"author": {"Carla Client"}, "body": {"Yes, three."}, "parent": {itoa(team.ID)}}
	resolve := project + "/comments/" + itoa(team.ID) + "/resolve"

	wantStatus(t, commenter.do("POST", pagePath(pid, pricing, "comments"), comment, true), http.StatusCreated, "a comment link comments")
	wantStatus(t, commenter.do("POST", pagePath(pid, pricing, "comments"), reply, true), http.StatusCreated, "a comment link replies")
	rec := commenter.do("POST", resolve, nil, true)
	wantStatus(t, rec, http.StatusForbidden, "a comment link resolves")
	if !strings.Contains(rec.Body.String(), "Only the agency") {
		t.Errorf("the refusal does not say who resolves: %s", rec.Body.String())
	}
	wantStatus(t, commenter.do("POST", project+"/comments/"+itoa(team.ID)+"/reopen", nil, true), http.StatusForbidden, "a comment link reopens")
	wantStatus(t, reader.do("POST", pagePath(pid, pricing, "comments"), comment, true), http.StatusForbidden, "a view link comments")
	wantStatus(t, reader.do("POST", pagePath(pid, pricing, "comments"), reply, true), http.StatusForbidden, "a view link replies")
	wantStatus(t, reader.do("POST", resolve, nil, true), http.StatusForbidden, "a view link resolves")

	threads, err := c.db.Comments.Comments(ctx, pricing)
	if err != nil {
		t.Fatal(err)
	}
	if len(threads) != 2 || !threads[0].Open() || len(threads[0].Replies) != 1 || threads[0].Replies[0].Author != "Carla Client" {
		t.Fatalf("after the visitors: %+v, want two open threads, the team's with Carla's reply", threads)
	}

	// A guest has no inbox: the review view tells them where they are
	// mentioned, by the name they comment under.
	ask := site.Comment{ProjectID: pid, PageID: ids["About us"], Author: "Olive Owner", Body: "@carla client, is the team photo final?"}
	if err := c.db.Comments.AddComment(ctx, &ask, 0); err != nil {
		t.Fatal(err)
	}
	if got := doc(t, commenter.do("GET", project, nil, false)).Find("#mentions-notice"); !strings.Contains(got.Text(), "mentioned in 1 open thread") ||
		got.Find("a").Length() != 1 || got.Find("a").Text() != "About us" {
		t.Errorf("the guest's notice of mentions: %q", got.Text())
	}
	if doc(t, reader.do("GET", project, nil, false)).Find("#mentions-notice").Length() != 0 {
		t.Errorf("a visitor who never gave a name is told of mentions")
	}

	rec = c.do("POST", resolve, nil, true)
	wantStatus(t, rec, http.StatusOK, "the team resolves")
	if d := doc(t, rec); d.Find(`[hx-post$="/reopen"]`).Length() != 1 {
		t.Errorf("the team does not see Reopen on the resolved thread")
	}
	if d := doc(t, c.do("GET", project, nil, false)); d.Find("main.editor").Length() != 1 {
		t.Errorf("the team does not get the editor")
	}
}

// visitor is a client who opened a new share link of the project with
// role.
func (c *client) visitor(pid int64, role string) *client {
	c.t.Helper()
	return c.visitorWith(pid, role, nil, nil)
}

// visitorWith is a client who opened a new share link of the project
// with role that allows downloads (nil: the defaults) and shows
// statuses.
func (c *client) visitorWith(pid int64, role string, downloads, statuses []string) *client {
	c.t.Helper()
	l := site.ShareLink{ProjectID: pid, Role: role, Downloads: downloads, Statuses: statuses}
	token, err := c.db.Sharing.CreateShareLink(context.Background(), &l)
	if err != nil {
		c.t.Fatal(err)
	}
	v := anonymous(c.t, c.srv, c.db)
	wantStatus(c.t, v.do("GET", "/s/"+token, nil, false), http.StatusSeeOther, "open the share link")
	return v
}

// TestClientDiagram: a client on a share link sees the client version
// of the diagram (no assignees, statuses or paths on the cards), cannot
// turn it off, and downloads the pictures for people, PDF and PNG; SVG,
// DOT, GraphML and the PNG's scale stay the team's.
func TestClientDiagram(t *testing.T) {
	c := newClient(t)
	pid, _ := c.fixture()
	client := c.visitor(pid, site.ShareComment)
	project := "/projects/" + itoa(pid)
	team := doc(t, c.do("GET", project+"/diagram?paint=svg&client=0", nil, true))
	shared := doc(t, client.do("GET", project+"/diagram?paint=svg&client=0", nil, true))
	if !strings.Contains(team.Find("svg").Text(), "Ana") || strings.Contains(shared.Find("svg").Text(), "Ana") {
		t.Errorf("the assignee: on the team's diagram %t, on the client's %t", strings.Contains(team.Find("svg").Text(), "Ana"), strings.Contains(shared.Find("svg").Text(), "Ana"))
	}
	if shared.Find(`input[name=client], select[name=scale]`).Length() != 0 || team.Find(`input[name=client], select[name=scale]`).Length() != 2 {
		t.Errorf("the client's controls offer the client switch or the PNG scale")
	}
	var links []string
	shared.Find(".downloads a").Each(func(_ int, a *goquery.Selection) { links = append(links, a.Text()) })
	if strings.Join(links, " ") != "PDF PNG" {
		t.Errorf("the client's downloads: %q", links)
	}
	for _, f := range []string{"svg", "dot", "graphml"} {
		if rec := client.do("GET", project+"/diagram/"+f, nil, false); rec.Code != 404 {
			t.Errorf("a client downloads %s: %d", f, rec.Code)
		}
		if rec := c.do("GET", project+"/diagram/"+f, nil, false); rec.Code != 200 {
			t.Errorf("the team downloads %s: %d", f, rec.Code)
		}
	}
	if rec := client.do("GET", project+"/diagram/pdf", nil, false); rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" {
		t.Errorf("a client's PDF: %d", rec.Code)
	}
}

// TestPublicNotes: a page's notes reach a client's card only when the
// team ticks "Visible to the client" in the details form; the switch is
// kept with the page (its document round-trips it).
func TestPublicNotes(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	client := c.visitor(pid, site.ShareView)
	save := func(public bool) {
		t.Helper()
		pg, _ := c.db.Pages.Page(ctx, ids["Contact"])
		form := url.Values{"version": {itoa(pg.Version)}, "title": {pg.Title}, "slug": {pg.Slug}, "kind": {"page"}, "status": {"planned"},
			"in_sitemap": {"1"}, "notes": {"Opening hours from the client, 9 to 5."}}
		if public {
			form.Set("notes_public", "1")
		}
		if rec := c.do("PUT", pagePath(pid, ids["Contact"]), form, true); rec.Code != 200 {
			t.Fatalf("save: %d", rec.Code)
		}
	}
	card := func() string {
		return doc(t, client.do("GET", pagePath(pid, ids["Contact"]), nil, true)).Find("#details-inner").Text()
	}
	save(false)
	if strings.Contains(card(), "Opening hours") {
		t.Error("the team's notes reach the client")
	}
	save(true)
	if !strings.Contains(card(), "Opening hours from the client, 9 to 5.") {
		t.Error("notes visible to the client do not reach the card")
	}
	d, _ := c.db.Projects.Document(ctx, pid)
	again, err := c.db.Projects.ImportDocument(ctx, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := c.db.Pages.Tree(ctx, again)
	if p := tr.Page(pageID(tr, "Contact")); p == nil || !p.NotesPublic {
		t.Error("the switch does not round-trip through the document")
	}
}

// TestApproveWhereTheClientIs: a client approves the newest version from
// the review view and a version from the versions list, typing their
// name; each comes back where it was given, saying so; a branch signed
// off is marked on the version's diagram.
func TestApproveWhereTheClientIs(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := site.WithViewer(context.Background(), site.Viewer{UserID: 1, Name: "Olive Owner"})
	if _, err := c.db.History.CreateVersion(ctx, pid, "Kickoff"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.db.History.CreateVersion(ctx, pid, "Client review"); err != nil {
		t.Fatal(err)
	}
	client := c.visitor(pid, site.ShareComment)
	project := "/projects/" + itoa(pid)
	review := doc(t, client.do("GET", project, nil, false))
	if got := review.Find(".review .quick-approve button").Text(); got != "Approve the whole plan of Version 2 “Client review”" {
		t.Errorf("the review offers %q", got)
	}
	rec := client.do("POST", project+"/versions/2/approve", url.Values{"from": {"review"}, "page": {"0"}, "name": {"Carla Client"}}, false)
	if rec.Code != 303 || rec.Header().Get("Location") != project+"?approved=2" {
		t.Fatalf("approve from the review: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if doc(t, client.do("GET", project+"?approved=2", nil, false)).Find("#approved-notice").Length() != 1 {
		t.Error("the review does not say the approval is recorded")
	}
	list := doc(t, client.do("GET", project+"/versions", nil, false))
	if list.Find(".version .quick-approve").Length() != 2 || list.Find(`.quick-approve input[name=name]`).First().AttrOr("value", "") != "Carla Client" {
		t.Errorf("the list's forms: %d", list.Find(".version .quick-approve").Length())
	}
	rec = client.do("POST", project+"/versions/1/approve", url.Values{"from": {"list"}, "page": {"0"}, "name": {"Carla Client"}}, false)
	if rec.Code != 303 || rec.Header().Get("Location") != project+"/versions?approved=1" {
		t.Fatalf("approve from the list: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if doc(t, client.do("GET", project+"/versions?approved=1", nil, false)).Find(".version #approved-notice").Length() != 1 {
		t.Error("the list does not say the approval is recorded")
	}
	vs, _ := c.db.History.Versions(context.Background(), pid)
	if len(vs) != 2 || len(vs[0].Approvals) != 1 || len(vs[1].Approvals) != 1 {
		t.Fatalf("approvals %+v", vs)
	}
	// A branch three levels down may be signed off, and is marked.
	if rec := client.do("POST", project+"/versions/2/approve", url.Values{"page": {itoa(ids["Team"])}, "name": {"Carla Client"}}, false); rec.Code != 303 {
		t.Fatalf("approve Team: %d", rec.Code)
	}
	svg := doc(t, c.do("GET", project+"/versions/2", nil, false)).Find(".version-diagram svg g#p" + itoa(ids["Team"])).Text()
	if !strings.Contains(svg, "✔ APPROVED BY CARLA CLIENT") {
		t.Errorf("Team's card on the version's diagram: %q", svg)
	}
}
