package web

import (
	"context"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"testing"
	"time"

	"siteplan/internal/pgtest"
	"siteplan/site"
	"siteplan/store"
)

// TestWebhookForm: an owner adds a signed JSON webhook and a Slack one
// for sign-offs on the Team page, the secret shown once; a URL that is
// none is refused, saying what to give; the page says what waits for a
// webhook and how its last delivery went (the deliverer, in package
// jobs, records it).
func TestWebhookForm(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	rec := c.do("POST", "/team/webhooks", url.Values{"url": {"https://hooks.example/json"}, "format": {"json"}, "secret": {"s3cret"}}, true)
	if rec.Code != 201 || doc(t, rec).Find("#webhook-secret").Text() != "s3cret" {
		t.Fatalf("add: %d %.300s", rec.Code, rec.Body.String())
	}
	rec = c.do("POST", "/team/webhooks", url.Values{"url": {"https://hooks.slack.example/slack"}, "format": {"slack"}, "events": {"signoff"}}, true)
	if rec.Code != 201 || len(doc(t, rec).Find("#webhook-secret").Text()) != 64 {
		t.Fatalf("add slack: %d", rec.Code)
	}
	if rec := c.do("POST", "/team/webhooks", url.Values{"url": {"hooks.example"}}, true); rec.Code != 422 || !strings.Contains(doc(t, rec).Find("#err-url").Text(), "http or https URL") {
		t.Errorf("a bad URL: %d", rec.Code)
	}
	if rec := c.do("POST", pagePath(pid, ids["Pricing"], "comments"), url.Values{"body": {"Three tiers, as agreed?"}}, true); rec.Code != 201 {
		t.Fatalf("comment: %d", rec.Code)
	}
	status := func(n int) string {
		return doc(t, c.do("GET", "/team", nil, false)).Find(".webhook-list li").Eq(n).Find(".webhook-status").Text()
	}
	if s := status(0); !strings.Contains(s, "No delivery yet") || !strings.Contains(s, "1 delivery waits") {
		t.Errorf("the JSON webhook's status before its delivery: %q", s)
	}
	ctx := context.Background()
	ds, err := c.db.Webhooks.ClaimDeliveries(ctx, time.Now(), time.Minute, 10)
	if err != nil || len(ds) != 1 {
		t.Fatalf("claimed %d deliveries: %v", len(ds), err)
	}
	if err := c.db.Webhooks.FinishDelivery(ctx, ds[0], time.Now(), 200, "", time.Time{}); err != nil {
		t.Fatal(err)
	}
	if s := status(0); !strings.Contains(s, "Delivered") || !strings.Contains(s, "HTTP 200") {
		t.Errorf("the JSON webhook's status after its delivery: %q", s)
	}
	if s := status(1); !strings.Contains(s, "No delivery yet") || strings.Contains(s, "waits") {
		t.Errorf("the Slack webhook, for sign-offs only, after a comment: %q", s)
	}
}

// fakeWebhooks is the Webhooks part of a test that is not about storage:
// what the Team page shows, and what it asked to add.
type fakeWebhooks struct {
	list  []site.Webhook
	added []site.Webhook
}

func (f *fakeWebhooks) AddWebhook(_ context.Context, w *site.Webhook) error {
	if !strings.HasPrefix(w.URL, "https://") {
		return site.Errorf(site.EInvalid, "The receiver must be an http or https URL.")
	}
	w.ID, w.Secret = int64(len(f.list)+1), "generated"
	f.added = append(f.added, *w)
	f.list = append(f.list, *w)
	return nil
}

func (f *fakeWebhooks) Webhooks(context.Context, int64) ([]site.Webhook, error) { return f.list, nil }

func (f *fakeWebhooks) DeleteWebhook(context.Context, int64, int64) error { return nil }

// TestWebhooksWithAFakePart: the Team page's webhooks, over a fake of the
// one part of the store they use; the others are the real ones.
func TestWebhooksWithAFakePart(t *testing.T) {
	db, err := store.Open(pgtest.DSN(t, "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	fake := &fakeWebhooks{list: []site.Webhook{{ID: 7, TeamID: 1, URL: "https://hooks.example/a", Format: site.WebhookJSON,
		LastAt: time.Now(), LastCode: 503, LastError: "The receiver answered 503. Trying again at 10:00 UTC."}}}
	parts := partsOf(db)
	parts.Webhooks = fake
	srv := New(parts, staticFS, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{})
	t.Cleanup(srv.Close)
	addUser(t, db, "owner@test.example", "Olive Owner", "1", site.RoleOwner)
	c := anonymous(t, srv, db)
	c.login("owner@test.example")
	if s := doc(t, c.do("GET", "/team", nil, false)).Find("#webhook-7 .webhook-status").Text(); !strings.Contains(s, "answered 503") {
		t.Errorf("the failing webhook's status: %q", s)
	}
	rec := c.do("POST", "/team/webhooks", url.Values{"url": {"https://hooks.example/b"}, "format": {"slack"}}, true)
	if rec.Code != 201 || len(fake.added) != 1 || fake.added[0].TeamID != 1 || fake.added[0].Format != site.WebhookSlack {
		t.Errorf("add: %d, the part got %+v", rec.Code, fake.added)
	}
	if rec := c.do("POST", "/team/webhooks", url.Values{"url": {"ftp://x"}}, true); rec.Code != 422 || !strings.Contains(doc(t, rec).Find("#err-url").Text(), "http or https URL") {
		t.Errorf("a refused URL: %d", rec.Code)
	}
}
