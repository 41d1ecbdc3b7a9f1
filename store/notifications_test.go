package store

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"siteplan/site"
)

// TestNotifications: a mention reaches the member named, a reply the
// members who wrote in its thread, a comment or sign-off the plan's
// watchers; each member once, never the author; a member reads only
// their own.
func TestNotifications(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, bob := acmeFor(t, db)
	ctx := context.Background()
	annaID, bobID := site.ViewerFrom(anna).UserID, site.ViewerFrom(bob).UserID
	if err := db.Watch(ctx, bobID, pid, true); err != nil {
		t.Fatal(err)
	}
	comment := func(who context.Context, parent int64, author, body string) int64 {
		t.Helper()
		c := site.Comment{ProjectID: pid, PageID: ids["Pricing"], ParentID: parent, Author: author, Body: body, UserID: site.ViewerFrom(who).UserID}
		if err := db.AddComment(ctx, &c, 0); err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	thread := comment(ctx, 0, "Carla Client", "@Anna can you check the tiers? (not @Annabel)")
	comment(anna, thread, "Anna", "On it.")
	comment(bob, thread, "Bob", "@anna thanks")
	v, err := db.CreateVersion(anna, pid, "Client review")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Approve(ctx, pid, v.Number, 0, "Carla Client"); err != nil {
		t.Fatal(err)
	}
	inbox := func(user int64) string {
		ns, err := db.Inbox(ctx, user, 50)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for i := len(ns) - 1; i >= 0; i-- {
			out = append(out, ns[i].Kind+": "+ns[i].Text)
		}
		return strings.Join(out, "\n")
	}
	wantAnna := strings.Join([]string{
		"mention: Carla Client mentioned you on “Pricing” in Acme relaunch: “@Anna can you check the tiers? (not @Annabel)”",
		"mention: Bob mentioned you on “Pricing” in Acme relaunch: “@anna thanks”",
	}, "\n")
	if got := inbox(annaID); got != wantAnna {
		t.Errorf("Anna's inbox\n got:\n%s\nwant:\n%s", got, wantAnna)
	}
	wantBob := strings.Join([]string{
		"comment: Carla Client commented on “Pricing” in Acme relaunch: “@Anna can you check the tiers? (not @Annabel)”",
		"comment: Anna replied on “Pricing” in Acme relaunch: “On it.”",
		"signoff: Carla Client signed off the whole plan of Version 1 “Client review” in Acme relaunch",
	}, "\n")
	if got := inbox(bobID); got != wantBob {
		t.Errorf("Bob's inbox\n got:\n%s\nwant:\n%s", got, wantBob)
	}
	// A reply reaches the thread's writers who are not told otherwise.
	if err := db.Watch(ctx, bobID, pid, false); err != nil {
		t.Fatal(err)
	}
	comment(anna, thread, "Anna", "Done.")
	if got := inbox(bobID); !strings.HasSuffix(got, "reply: Anna replied on “Pricing” in Acme relaunch: “Done.”") {
		t.Errorf("Bob, who wrote in the thread:\n%s", got)
	}
	if n, _ := db.Unread(ctx, annaID); n != 2 {
		t.Errorf("Anna has %d unread", n)
	}
	ns, _ := db.Inbox(ctx, annaID, 1)
	if _, err := db.ReadNotification(ctx, bobID, ns[0].ID); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("Bob reads Anna's: %v", err)
	}
	if n, err := db.ReadNotification(ctx, annaID, ns[0].ID); err != nil || n.Path != fmt.Sprintf("/projects/%d/pages/%d", pid, ids["Pricing"]) {
		t.Errorf("read: %+v %v", n, err)
	}
	if n, _ := db.Unread(ctx, annaID); n != 1 {
		t.Errorf("after reading one: %d unread", n)
	}
	db.ReadAll(ctx, annaID)
	if n, _ := db.Unread(ctx, annaID); n != 0 {
		t.Errorf("after reading all: %d unread", n)
	}
}

// TestMentioned: a mention is "@" and the whole name, in any case.
func TestMentioned(t *testing.T) {
	for _, tc := range []struct {
		body, name string
		want       bool
	}{
		{"@Anna hi", "Anna", true}, {"hi @anna.", "Anna", true}, {"@Annabel", "Anna", false}, {"@Olive Owner, see", "Olive Owner", true},
		{"@Olive", "Olive Owner", false}, {"mail anna@x.example", "x", false}, {"@Zoë!", "Zoë", true}, {"", "Anna", false},
	} {
		if got := site.Mentioned(tc.body, tc.name); got != tc.want {
			t.Errorf("Mentioned(%q, %q) = %t", tc.body, tc.name, got)
		}
	}
}
