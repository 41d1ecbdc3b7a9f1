package web

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"siteplan/site"
)

// TestOutlineKept: the outline a server keeps is served again only while
// nothing it shows has changed: an edit, a comment written or resolved,
// the team's type colours; and an editor's is never a viewer's.
func TestOutlineKept(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	addUser(t, c.db, "vi@test.example", "Vi Viewer", "1", site.RoleViewer)
	v := anonymous(t, c.srv, c.db)
	v.login("vi@test.example")
	outline := "/projects/" + itoa(pid) + "/outline"
	get := func(c *client) string {
		t.Helper()
		rec := c.do("GET", outline, nil, true)
		wantStatus(t, rec, 200, "the outline")
		return rec.Body.String()
	}
	first := get(c)
	if again := get(c); again != first || len(c.srv.outlines.items) != 1 {
		t.Fatalf("the outline was not kept (%d kept)", len(c.srv.outlines.items))
	}
	if got := get(v); strings.Contains(got, `class="handle"`) || !strings.Contains(got, "read-only") {
		t.Error("the viewer was served the editor's outline")
	}

	// A comment, then its resolve: the page's count follows.
	count := func() string {
		return strings.TrimSpace(doc(t, c.do("GET", outline, nil, true)).Find("#cc-" + itoa(ids["Pricing"])).Text())
	}
	wantStatus(t, c.do("POST", pagePath(pid, ids["Pricing"], "comments"), url.Values{"body": {"Too long."}}, true), 201, "comment")
	if got := count(); got == "" {
		t.Fatal("the outline kept from before the comment has no count")
	}
	cs, err := c.db.Comments.OpenComments(context.Background(), pid)
	if err != nil || len(cs) != 1 {
		t.Fatalf("open comments %v %v", cs, err)
	}
	wantStatus(t, c.do("POST", "/projects/"+itoa(pid)+"/comments/"+itoa(cs[0].ID)+"/resolve", url.Values{}, true), 200, "resolve")
	if got := count(); got != "" {
		t.Errorf("after the resolve the outline shows %q", got)
	}

	// A rename.
	pg, _ := c.db.Pages.Page(context.Background(), ids["Pricing"])
	wantStatus(t, c.do("PATCH", pagePath(pid, pg.ID, "title"), url.Values{"title": {"Plans and prices"}, "version": {itoa(pg.Version)}}, true), 200, "rename")
	if !strings.Contains(get(c), "Plans and prices") {
		t.Error("the outline kept from before the rename was served")
	}

	// The team's type colours.
	pal, err := c.db.Themes.TeamPalette(context.Background(), 1)
	if err != nil || len(pal.Types) == 0 {
		t.Fatalf("palette %v %v", pal, err)
	}
	before := get(c)
	form := url.Values{"type": {pal.Types[0].Type}, "color": {"#123456"}}
	wantStatus(t, c.do("POST", "/team/type-colors", form, true), 200, "colours")
	if after := get(c); after == before || !strings.Contains(after, "#123456") {
		t.Error("the outline kept from before the colours changed was served")
	}
}
