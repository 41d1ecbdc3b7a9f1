package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

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
	if err := db.Notifications.Watch(ctx, bobID, pid, true); err != nil {
		t.Fatal(err)
	}
	comment := func(who context.Context, parent int64, author, body string) int64 {
		t.Helper()
		c := site.Comment{ProjectID: pid, PageID: ids["Pricing"], ParentID: parent, Author: author, Body: body, UserID: site.ViewerFrom(who).UserID}
		if err := db.Comments.AddComment(ctx, &c, 0); err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	thread := comment(ctx, 0, "Carla Client", "@Anna can you check the tiers? (not @Annabel)")
	comment(anna, thread, "Anna", "On it.")
	comment(bob, thread, "Bob", "@anna thanks")
	v, err := db.History.CreateVersion(anna, pid, "Client review")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.Approve(ctx, pid, v.Number, 0, "Carla Client"); err != nil {
		t.Fatal(err)
	}
	inbox := func(user int64) string {
		ns, err := db.Notifications.Inbox(ctx, user, 50)
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
		"mention: Carla Client (guest) mentioned you on “Pricing” in Acme relaunch: “@Anna can you check the tiers? (not @Annabel)”",
		"mention: Bob mentioned you on “Pricing” in Acme relaunch: “@anna thanks”",
	}, "\n")
	if got := inbox(annaID); got != wantAnna {
		t.Errorf("Anna's inbox\n got:\n%s\nwant:\n%s", got, wantAnna)
	}
	wantBob := strings.Join([]string{
		"comment: Carla Client (guest) commented on “Pricing” in Acme relaunch: “@Anna can you check the tiers? (not @Annabel)”",
		"comment: Anna replied on “Pricing” in Acme relaunch: “On it.”",
		"signoff: Carla Client signed off the whole plan of Version 1 “Client review” in Acme relaunch",
	}, "\n")
	if got := inbox(bobID); got != wantBob {
		t.Errorf("Bob's inbox\n got:\n%s\nwant:\n%s", got, wantBob)
	}
	// A reply reaches the thread's writers who are not told otherwise.
	if err := db.Notifications.Watch(ctx, bobID, pid, false); err != nil {
		t.Fatal(err)
	}
	comment(anna, thread, "Anna", "Done.")
	if got := inbox(bobID); !strings.HasSuffix(got, "reply: Anna replied on “Pricing” in Acme relaunch: “Done.”") {
		t.Errorf("Bob, who wrote in the thread:\n%s", got)
	}
	if n, _ := db.Notifications.Unread(ctx, annaID); n != 2 {
		t.Errorf("Anna has %d unread", n)
	}
	ns, _ := db.Notifications.Inbox(ctx, annaID, 1)
	if _, err := db.Notifications.ReadNotification(ctx, bobID, ns[0].ID); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("Bob reads Anna's: %v", err)
	}
	if n, err := db.Notifications.ReadNotification(ctx, annaID, ns[0].ID); err != nil || n.Path != fmt.Sprintf("/projects/%d/pages/%d", pid, ids["Pricing"]) {
		t.Errorf("read: %+v %v", n, err)
	}
	if n, _ := db.Notifications.Unread(ctx, annaID); n != 1 {
		t.Errorf("after reading one: %d unread", n)
	}
	db.Notifications.ReadAll(ctx, annaID)
	if n, _ := db.Notifications.Unread(ctx, annaID); n != 0 {
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

// TestChangedSince: once the plan differs from a version in what a
// sign-off approved, the plan's watchers and the signer (a member) hear
// of it, once; an edit elsewhere leaves a branch's sign-off untold.
func TestChangedSince(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, bob := acmeFor(t, db)
	ctx := context.Background()
	annaID, bobID := site.ViewerFrom(anna).UserID, site.ViewerFrom(bob).UserID
	if err := db.Notifications.Watch(ctx, bobID, pid, true); err != nil {
		t.Fatal(err)
	}
	v, err := db.History.CreateVersion(bob, pid, "Client review")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.Approve(anna, pid, v.Number, ids["Products"], ""); err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.Approve(ctx, pid, v.Number, 0, "Carla Client"); err != nil {
		t.Fatal(err)
	}
	tell := func(want int) {
		t.Helper()
		if n, err := db.Notifications.TellChangedSince(ctx, 100); err != nil || n != want {
			t.Errorf("told of %d sign-offs (%v), want %d", n, err, want)
		}
	}
	changed := func(user int64) []string {
		t.Helper()
		ns, err := db.Notifications.Inbox(ctx, user, 50)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, n := range ns {
			if n.Kind == site.NoticeChanged {
				out = append(out, n.Text+" → "+n.Path)
			}
		}
		return out
	}
	tell(0)
	rename := func(title, to string) {
		t.Helper()
		p, err := db.Pages.Page(ctx, ids[title])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Pages.RenamePage(anna, p.ID, to, p.Version); err != nil {
			t.Fatal(err)
		}
	}
	rename("About us", "About")
	tell(1)
	tell(0)
	whole := fmt.Sprintf("Acme relaunch has changed in the whole plan, which Carla Client signed off in Version 1 “Client review” → /projects/%d/compare?from=1", pid)
	if got := changed(bobID); len(got) != 1 || got[0] != whole {
		t.Errorf("Bob, a watcher: %q\nwant %q", got, whole)
	}
	if got := changed(annaID); len(got) != 0 {
		t.Errorf("Anna, whose branch is untouched: %q", got)
	}
	rename("Pricing", "Prices")
	tell(1)
	branch := fmt.Sprintf("Acme relaunch has changed in “Products” and the pages below it, which Anna (team member) signed off in Version 1 “Client review” → /projects/%d/compare?from=1", pid)
	if got := changed(annaID); len(got) != 1 || got[0] != branch {
		t.Errorf("Anna, the signer: %q\nwant %q", got, branch)
	}
	if got := changed(bobID); len(got) != 2 {
		t.Errorf("Bob: %q", got)
	}
	rename("Pricing", "Pricing") // back as it was approved: nothing new to tell
	tell(0)
}

// TestMentionNames: a project's members come first, then the guests who
// commented through its share links, each name once.
func TestMentionNames(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	ctx := context.Background()
	link := site.ShareLink{ProjectID: pid, Role: site.ShareComment, Label: "Client"}
	if _, err := db.Sharing.CreateShareLink(anna, &link); err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"Zed Guest", "Carla Client", "Carla Client"} {
		c := site.Comment{ProjectID: pid, PageID: ids["Pricing"], Author: who, Body: "hi"}
		if err := db.Comments.AddComment(ctx, &c, link.ID); err != nil {
			t.Fatal(err)
		}
	}
	// A guest in a member's name is refused, whatever its case.
	posing := site.Comment{ProjectID: pid, PageID: ids["Pricing"], Author: "anna", Body: "Please delete the pricing page."}
	if err := db.Comments.AddComment(ctx, &posing, link.ID); site.ErrorCode(err) != site.EInvalid || site.ErrorFields(err)["author"] == "" {
		t.Errorf("a guest named as a member: %v", err)
	}
	c := site.Comment{ProjectID: pid, PageID: ids["Pricing"], Author: "Not A Guest", Body: "typed on a member's machine", UserID: site.ViewerFrom(anna).UserID}
	if err := db.Comments.AddComment(ctx, &c, 0); err != nil {
		t.Fatal(err)
	}
	got, err := db.Notifications.MentionNames(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Anna|Bob|Carla Client|Zed Guest"; strings.Join(got, "|") != want {
		t.Errorf("MentionNames = %q, want %s", got, want)
	}
}

// TestClaimMail: notifications claimed by one instance's mailer are not
// handed to another's until the claim's lease ends or it lets go of them
// (a failed send), and the other hears that some are held.
func TestClaimMail(t *testing.T) {
	dbs := twoInstances(t)
	pid, ids, _, _ := acmeFor(t, dbs[0])
	ctx := context.Background()
	for i := range 3 {
		c := site.Comment{ProjectID: pid, PageID: ids["Pricing"], Author: "Carla", Body: fmt.Sprint("@Anna question ", i)}
		if err := dbs[0].Comments.AddComment(ctx, &c, 0); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	claim := func(db *Store, at time.Time, wantNotices int, wantHeld bool) []int64 {
		t.Helper()
		batches, held, err := db.Notifications.ClaimMail(ctx, site.MailInstant, at.Add(-time.Hour), at, time.Minute, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, b := range batches {
			for _, n := range b.Notices {
				got = append(got, n.ID)
			}
		}
		if len(got) != wantNotices || held != wantHeld {
			t.Fatalf("claimed %d notices, held %v; want %d, %v", len(got), held, wantNotices, wantHeld)
		}
		return got
	}
	claimed := claim(dbs[0], now, 3, false)
	claim(dbs[1], now, 0, true)
	claim(dbs[1], now.Add(59*time.Second), 0, true)
	claim(dbs[1], now.Add(time.Minute), 3, false) // the first instance died
	if err := dbs[1].Notifications.ReleaseMail(ctx, claimed); err != nil {
		t.Fatal(err)
	}
	claim(dbs[0], now.Add(time.Minute), 3, false) // the send failed: tried again
	if err := dbs[0].Notifications.MarkMailed(ctx, claimed); err != nil {
		t.Fatal(err)
	}
	claim(dbs[1], now.Add(time.Hour), 0, false)
}
