package web

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"
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
