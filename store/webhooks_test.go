package store

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"siteplan/site"
)

// TestWebhooks: a comment, a reply, a version and a sign-off queue a
// delivery for each webhook of the team that is for their kind, in
// words; a webhook's deliveries are claimed one at a time, the oldest
// first, retried when told and kept off while leased; a finished one is
// gone and its webhook says how it went.
func TestWebhooks(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	ctx := context.Background()
	for _, bad := range []site.Webhook{{TeamID: 1, URL: "ftp://x"}, {TeamID: 1, URL: "https://x.example/", Format: "xml"},
		{TeamID: 1, URL: "https://x.example/", Events: []string{"deploy"}}} {
		if err := db.Webhooks.AddWebhook(ctx, &bad); site.ErrorCode(err) != site.EInvalid {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	all := site.Webhook{TeamID: 1, URL: "https://hooks.example/all"}
	signoffs := site.Webhook{TeamID: 1, URL: "https://hooks.example/signoffs", Format: site.WebhookSlack, Events: []string{site.EventSignoff}, Secret: "s3cret"}
	for _, w := range []*site.Webhook{&all, &signoffs} {
		if err := db.Webhooks.AddWebhook(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	if len(all.Secret) != 64 || signoffs.Secret != "s3cret" {
		t.Errorf("secrets %q %q", all.Secret, signoffs.Secret)
	}
	c := site.Comment{ProjectID: pid, PageID: ids["Pricing"], Author: "Carla Client", Body: "Three tiers?"}
	if err := db.Comments.AddComment(ctx, &c, 0); err != nil {
		t.Fatal(err)
	}
	r := site.Comment{ProjectID: pid, PageID: ids["Pricing"], ParentID: c.ID, Author: "Olive", Body: "Yes."}
	if err := db.Comments.AddComment(ctx, &r, 0); err != nil {
		t.Fatal(err)
	}
	v, err := db.History.CreateVersion(anna, pid, "Client review")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.Approve(ctx, pid, v.Number, ids["Products"], "Carla Client"); err != nil {
		t.Fatal(err)
	}
	now := time.Now().Add(time.Second)
	var got []string
	for {
		ds, err := db.Webhooks.ClaimDeliveries(ctx, now, time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) == 0 {
			break
		}
		if len(ds) > 1 {
			t.Errorf("%d claimed at once, want one a team", len(ds))
		}
		for _, d := range ds {
			got = append(got, strings.TrimPrefix(d.Webhook.URL, "https://hooks.example/")+": "+d.Event.Text+" "+d.Event.Path)
			if err := db.Webhooks.FinishDelivery(ctx, d, now, 200, "", time.Time{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	p, pr := itoa64(pid), itoa64(ids["Pricing"])
	want := []string{
		"all: Carla Client (guest) commented on “Pricing” in Acme relaunch: “Three tiers?” /projects/" + p + "/pages/" + pr,
		"all: Olive (guest) replied on “Pricing” in Acme relaunch: “Yes.” /projects/" + p + "/pages/" + pr,
		"all: Anna named Version 1 “Client review” of Acme relaunch /projects/" + p,
		"all: Carla Client signed off “Products” and the pages below it of Version 1 “Client review” in Acme relaunch /projects/" + p + "/pages/" + itoa64(ids["Products"]),
		"signoffs: Carla Client signed off “Products” and the pages below it of Version 1 “Client review” in Acme relaunch /projects/" + p + "/pages/" + itoa64(ids["Products"]),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("delivered\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A failed try waits for its retry; a lease keeps others off it.
	c2 := site.Comment{ProjectID: pid, PageID: ids["Team"], Author: "Carla Client", Body: "Photos?"}
	if err := db.Comments.AddComment(ctx, &c2, 0); err != nil {
		t.Fatal(err)
	}
	ds, _ := db.Webhooks.ClaimDeliveries(ctx, now, time.Minute, 10)
	if len(ds) != 1 {
		t.Fatalf("claimed %d", len(ds))
	}
	if again, _ := db.Webhooks.ClaimDeliveries(ctx, now, time.Minute, 10); len(again) != 0 {
		t.Errorf("a leased delivery was claimed again")
	}
	if err := db.Webhooks.FinishDelivery(ctx, ds[0], now, 503, "answered 503", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if again, _ := db.Webhooks.ClaimDeliveries(ctx, now.Add(time.Minute), time.Minute, 10); len(again) != 0 {
		t.Errorf("a delivery was claimed before its retry")
	}
	if again, _ := db.Webhooks.ClaimDeliveries(ctx, now.Add(2*time.Hour), time.Minute, 10); len(again) != 1 || again[0].Attempts != 1 {
		t.Errorf("the retry: %+v", again)
	}
	ws, _ := db.Webhooks.Webhooks(ctx, 1)
	if len(ws) != 2 || ws[0].LastCode != 503 || ws[0].LastError != "answered 503" || ws[0].Pending != 1 || ws[1].Pending != 0 {
		t.Errorf("webhooks %+v", ws)
	}
	if err := db.Webhooks.DeleteWebhook(ctx, 1, all.ID); err != nil {
		t.Fatal(err)
	}
	if ds, _ := db.Webhooks.ClaimDeliveries(ctx, now.Add(3*time.Hour), time.Minute, 10); len(ds) != 0 {
		t.Errorf("a deleted webhook's delivery: %+v", ds)
	}
	if err := db.Webhooks.DeleteWebhook(ctx, 2, signoffs.ID); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("another team's webhook: %v", err)
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// TestDeliveriesFairAcrossTeams: a team's deliveries are handed out one
// at a time, so a team with ten dead receivers holds one sender, and
// another team's delivery is claimed beside it, not after its ten.
func TestDeliveriesFairAcrossTeams(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	noisy, _, err := db.Accounts.AddUser(ctx, "noisy@a.example", "Noisy", "a long test password", "Noisy", site.RoleOwner)
	if err != nil {
		t.Fatal(err)
	}
	quiet, _, err := db.Accounts.AddUser(ctx, "quiet@b.example", "Quiet", "a long test password", "Quiet", site.RoleOwner)
	if err != nil {
		t.Fatal(err)
	}
	team := func(u site.User) int64 {
		ms, _ := db.Teams.Memberships(ctx, u.ID)
		return ms[0].ID
	}
	a, b := team(noisy), team(quiet)
	for i := range 10 {
		if err := db.Webhooks.AddWebhook(ctx, &site.Webhook{TeamID: a, URL: "https://dead.example/" + strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Webhooks.AddWebhook(ctx, &site.Webhook{TeamID: b, URL: "https://alive.example/"}); err != nil {
		t.Fatal(err)
	}
	version := func(teamID int64, name string) {
		p := site.Project{TeamID: teamID, Name: name, BaseURL: "https://" + name + ".example/"}
		if err := db.Projects.CreateProject(ctx, &p); err != nil {
			t.Fatal(err)
		}
		if _, err := db.History.CreateVersion(ctx, p.ID, "v"); err != nil {
			t.Fatal(err)
		}
	}
	version(a, "noisy") // ten deliveries, older than the quiet team's one
	version(b, "quiet")
	now := time.Now().Add(time.Second)
	ds, err := db.Webhooks.ClaimDeliveries(ctx, now, time.Minute, 4)
	if err != nil {
		t.Fatal(err)
	}
	teams := map[int64]int{}
	for _, d := range ds {
		teams[d.Webhook.TeamID]++
	}
	if len(ds) != 2 || teams[a] != 1 || teams[b] != 1 {
		t.Fatalf("claimed %d (by team %v), want one of each team", len(ds), teams)
	}
	// While the noisy team's try is under way, none of its others is
	// handed out.
	if again, _ := db.Webhooks.ClaimDeliveries(ctx, now, time.Minute, 4); len(again) != 0 {
		t.Errorf("claimed %d more while each team has one under way", len(again))
	}
}

// TestQueuedRings: Queued rings after the commit of a write that queued
// work for the background jobs (a comment: its deliveries and inbox
// lines), not for a write that queued none, nor for one rolled back.
func TestQueuedRings(t *testing.T) {
	db := openTest(t)
	pid, ids, _, _ := acmeFor(t, db)
	ctx := context.Background()
	rang := func(ch <-chan struct{}) bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
	bell := db.Queued()
	if _, err := db.Pages.RenamePage(ctx, ids["Pricing"], "Plans", 1); err != nil {
		t.Fatal(err)
	}
	if rang(bell) {
		t.Error("a rename, which queues nothing, rang")
	}
	bad := site.Comment{ProjectID: pid, PageID: -1, Author: "Carla Client", Body: "Gone?"}
	if err := db.Comments.AddComment(ctx, &bad, 0); site.ErrorCode(err) != site.ENotFound {
		t.Fatalf("a comment on no page: %v", err)
	}
	if rang(bell) {
		t.Error("a comment refused rang")
	}
	c := site.Comment{ProjectID: pid, PageID: ids["Pricing"], Author: "Carla Client", Body: "Three tiers?"}
	if err := db.Comments.AddComment(ctx, &c, 0); err != nil {
		t.Fatal(err)
	}
	if !rang(bell) {
		t.Error("a comment, which queues deliveries and inbox lines, did not ring")
	}
	if rang(db.Queued()) {
		t.Error("the next bell rang before its write")
	}
}
