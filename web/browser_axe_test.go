package web

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"siteplan/site"
)

// TestBrowserAxePages runs axe-core on every page a person opens: the
// team's (projects, live sites, team, account, inbox, a plan's
// versions, pitch, compare, proposals, tree tests, redirects, brief
// check, locales, launch, settings, sharing, export) and a client's on
// a share link (the review, its versions, a version's pitch). A page
// with any violation fails it. The editor itself is checked by
// TestBrowserOutlineTree, the panels where their tests open them.
func TestBrowserAxePages(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	pid, _ := (&client{t: t, db: db}).fixture()
	if _, err := db.History.CreateVersion(site.WithViewer(bg, site.Viewer{UserID: 1, Name: "Olive Owner"}), pid, "First"); err != nil {
		t.Fatal(err)
	}
	l := site.ShareLink{ProjectID: pid, Role: site.ShareComment, Label: "Client"}
	token, err := db.Sharing.CreateShareLink(bg, &l)
	if err != nil {
		t.Fatal(err)
	}
	p := fmt.Sprintf("/projects/%d", pid)
	check := func(ctx context.Context, paths ...string) {
		for _, path := range paths {
			run(t, ctx, "open "+path,
				chromedp.Navigate(base+path),
				waitJS(`document.readyState === "complete" && !document.querySelector(".htmx-request")`),
			)
			if v := axeViolationsIn(t, ctx, "document"); len(v) > 0 {
				t.Errorf("axe on %s: %q", path, v)
			}
		}
	}
	check(ctx, "/", "/sites", "/team", "/account", "/inbox", p+"/versions", p+"/versions/1", p+"/versions/1/pitch", p+"/compare?from=1",
		p+"/proposals", p+"/treetests", p+"/treetests/new", p+"/redirects", p+"/lint", p+"/locales", p+"/launch", p+"/settings",
		p+"/sharing", p+"/export")
	client := otherBrowser(t, ctx)
	check(client, "/s/"+token, p+"/versions", p+"/versions/1/pitch")
}
