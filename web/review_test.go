package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

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
	pg, _ := c.db.Page(ctx, pricing)
	pg.Notes, pg.Type, pg.Status = "Monthly and yearly plans side by side.", "landing", "review"
	pg.Brief = site.Brief{H1: "Plans for every team", Owner: "Mara", Blocks: []site.Block{{Kind: "table", Note: "Three tiers"}}}
	if err := c.db.UpdatePage(ctx, &pg); err != nil {
		t.Fatal(err)
	}
	team := site.Comment{ProjectID: pid, PageID: pricing, Author: "Olive Owner", Body: "Three tiers, as agreed?"}
	if err := c.db.AddComment(ctx, &team, 0); err != nil {
		t.Fatal(err)
	}
	commenter, reader := c.visitor(pid, site.ShareComment), c.visitor(pid, site.ShareView)
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

	threads, err := c.db.Comments(ctx, pricing)
	if err != nil {
		t.Fatal(err)
	}
	if len(threads) != 2 || !threads[0].Open() || len(threads[0].Replies) != 1 || threads[0].Replies[0].Author != "Carla Client" {
		t.Fatalf("after the visitors: %+v, want two open threads, the team's with Carla's reply", threads)
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
	l := site.ShareLink{ProjectID: pid, Role: role}
	token, err := c.db.CreateShareLink(context.Background(), &l)
	if err != nil {
		c.t.Fatal(err)
	}
	v := anonymous(c.t, c.srv, c.db)
	wantStatus(c.t, v.do("GET", "/s/"+token, nil, false), http.StatusSeeOther, "open the share link")
	return v
}
