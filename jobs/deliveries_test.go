package jobs

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"siteplan/fetch"
	"siteplan/site"
)

// received is a request a loopback receiver got.
type received struct {
	path, body, signature, event, delivery string
}

// receiver is a loopback webhook receiver: it answers fail times 503,
// then 200, and hands each request it got to the test.
func receiver(t *testing.T, fail int32) (*httptest.Server, <-chan received) {
	got := make(chan received, 20)
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- received{r.URL.Path, string(b), r.Header.Get(SignatureHeader), r.Header.Get("X-Siteplan-Event"), r.Header.Get(DeliveryHeader)}
		if n.Add(1) <= fail {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

// next waits for what a test server (a webhook's receiver, the SMTP
// server) receives next.
func next[T any](t *testing.T, got <-chan T, what string) T {
	t.Helper()
	select {
	case r := <-got:
		return r
	case <-time.After(20 * time.Second):
		t.Fatalf("nothing received: %s", what)
	}
	var zero T
	return zero
}

// TestWebhookDeliveries: a comment reaches a signed JSON webhook, its
// HMAC right, its link on the server's public address; a sign-off
// reaches a Slack one for sign-offs after a failed try, the same
// delivery id on both; the webhook records how its last delivery went.
func TestWebhookDeliveries(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	j := Start(ctx, storesOf(f.db), Config{Log: quiet, PublicURL: "https://plans.agency.example/", AllowPrivate: true, Retries: []time.Duration{10 * time.Millisecond}})
	t.Cleanup(j.Close)
	hooks, got := receiver(t, 0)
	slack, slackGot := receiver(t, 1)
	if err := f.db.Webhooks.AddWebhook(ctx, &site.Webhook{TeamID: 1, URL: hooks.URL + "/json", Format: site.WebhookJSON, Secret: "s3cret"}); err != nil {
		t.Fatal(err)
	}
	if err := f.db.Webhooks.AddWebhook(ctx, &site.Webhook{TeamID: 1, URL: slack.URL + "/slack", Format: site.WebhookSlack, Events: []string{"signoff"}}); err != nil {
		t.Fatal(err)
	}
	f.comment("Pricing", "Three tiers, as agreed?")
	r := next(t, got, "the comment")
	mac := hmac.New(sha256.New, []byte("s3cret"))
	mac.Write([]byte(r.body))
	if r.signature != "sha256="+hex.EncodeToString(mac.Sum(nil)) || r.event != "comment" {
		t.Errorf("signature %q, event %q", r.signature, r.event)
	}
	var e struct {
		Event, Text, URL, Page, Body string
	}
	if err := json.Unmarshal([]byte(r.body), &e); err != nil || e.Page != "Pricing" || e.Body != "Three tiers, as agreed?" ||
		e.URL != "https://plans.agency.example/projects/"+itoa(f.pid)+"/pages/"+itoa(f.ids["Pricing"]) || !strings.HasPrefix(e.Text, "Olive Owner commented on “Pricing”") {
		t.Errorf("the JSON: %v %+v", err, e)
	}

	v, err := f.db.History.CreateVersion(f.as(f.owner), f.pid, "Client review")
	if err != nil {
		t.Fatal(err)
	}
	if r := next(t, got, "the version"); r.event != "version" {
		t.Errorf("then %q", r.event)
	}
	if _, err := f.db.History.Approve(ctx, f.pid, v.Number, 0, "Carla Client"); err != nil {
		t.Fatal(err)
	}
	first, again := next(t, slackGot, "the sign-off"), next(t, slackGot, "the sign-off's retry")
	var msg struct{ Text string }
	json.Unmarshal([]byte(again.body), &msg)
	if first.delivery == "" || first.delivery != again.delivery {
		t.Errorf("the delivery's id on its two tries: %q, %q, want one, the same", first.delivery, again.delivery)
	}
	if first.body != again.body || !strings.HasPrefix(msg.Text, "Carla Client signed off the whole plan of Version 1 “Client review” in Acme relaunch <https://plans.agency.example/projects/") {
		t.Errorf("the Slack message %q", msg.Text)
	}
	next(t, got, "the sign-off to the JSON hook")
	// The webhook says how it went, once the try is recorded.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) { // polls a state another goroutine records
		ws, err := f.db.Webhooks.Webhooks(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(ws) == 2 && ws[1].LastCode == 200 && ws[1].LastError == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Slack webhook's last delivery: %+v", ws)
		}
	}
}

// TestWebhookRefusesPrivate: without the operator's leave, a receiver on
// a loopback address is refused, and the webhook says so in words that
// name no address.
func TestWebhookRefusesPrivate(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	j := Start(ctx, storesOf(f.db), Config{Log: quiet, Retries: []time.Duration{}}) // no retry: given up at once
	t.Cleanup(j.Close)
	hooks, got := receiver(t, 0)
	if err := f.db.Webhooks.AddWebhook(ctx, &site.Webhook{TeamID: 1, URL: hooks.URL, Format: site.WebhookJSON}); err != nil {
		t.Fatal(err)
	}
	f.comment("Pricing", "Hello")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) { // polls a state another goroutine records
		ws, err := f.db.Webhooks.Webhooks(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if status := ws[0].LastError; strings.Contains(status, "not on the public internet") && strings.Contains(status, "Given up after 1 try") {
			if strings.Contains(status, "127.0.0.1") || strings.Contains(status, "resolves") {
				t.Errorf("the status names where the receiver resolved: %q", status)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status %q", ws[0].LastError)
		}
	}
	select {
	case r := <-got:
		t.Errorf("a loopback receiver was reached: %+v", r)
	default:
	}
}

// TestSlackMessageEscaped: what a visitor types (a name, a comment)
// reaches Slack as text: no channel ping, no link of their own.
func TestSlackMessageEscaped(t *testing.T) {
	e := site.Event{Kind: site.EventComment, Actor: "<!channel>", Page: "Pricing", Project: "Acme & Co",
		Body: "<https://evil.example/login|Open in siteplan>", Path: "/projects/1"}
	e.Describe()
	b, _ := deliveryBody(site.Webhook{Format: site.WebhookSlack}, e, "https://plans.example")
	var msg struct{ Text string }
	if err := json.Unmarshal(b, &msg); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<!channel>", "<https://evil", "Acme & Co"} {
		if strings.Contains(msg.Text, bad) {
			t.Errorf("the Slack text holds %q unescaped: %s", bad, msg.Text)
		}
	}
	if !strings.Contains(msg.Text, "&lt;!channel&gt;") || !strings.HasSuffix(msg.Text, "<https://plans.example/projects/1|Open in siteplan>") {
		t.Errorf("the Slack text: %s", msg.Text)
	}
}

// TestUnreachableSaysNoAddress: why a receiver was not reached is said
// without the address its name resolved to or the resolver's.
func TestUnreachableSaysNoAddress(t *testing.T) {
	for _, err := range []error{
		&fetch.RefusedError{Host: "hooks.internal", Addr: netip.MustParseAddr("10.1.2.3"), Kind: "private", Allow: "x"},
		&fetch.Error{URL: "https://hooks.internal/x", Msg: "could not be fetched", Err: &net.DNSError{Err: "no such host", Name: "hooks.internal", Server: "10.0.0.53:53"}},
		&fetch.Error{URL: "https://hooks.internal/x", Msg: "could not be fetched", Err: &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(10, 1, 2, 3)}, Err: errors.New("no route to host")}},
	} {
		msg := unreachable(err)
		if strings.Contains(msg, "10.") || strings.Contains(msg, "hooks.internal") {
			t.Errorf("unreachable(%v) = %q: it names an address", err, msg)
		}
	}
}

// TestDeliveriesFairAcrossTeams: a team whose five receivers never
// answer holds one sender; another team's delivery reaches its receiver
// while those tries still hang, not after them.
func TestDeliveriesFairAcrossTeams(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	release := make(chan struct{})
	var tried atomic.Int32
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tried.Add(1)
		select { // never answers; ends when the sender gives up or the test ends
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(hang.Close)
	t.Cleanup(func() { close(release) })
	for i := range 5 {
		if err := f.db.Webhooks.AddWebhook(ctx, &site.Webhook{TeamID: 1, URL: hang.URL + "/" + itoa(int64(i))}); err != nil {
			t.Fatal(err)
		}
	}
	other, _, err := f.db.Accounts.AddUser(ctx, "rex@rival.example", "Rex", testPassword, "Rival studio", site.RoleOwner)
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := f.db.Teams.Memberships(ctx, other.ID)
	alive, got := receiver(t, 0)
	if err := f.db.Webhooks.AddWebhook(ctx, &site.Webhook{TeamID: ms[0].ID, URL: alive.URL}); err != nil {
		t.Fatal(err)
	}
	// The hanging team's five deliveries first, then the other team's.
	f.comment("Pricing", "Hello")
	rival := site.Project{TeamID: ms[0].ID, Name: "Rival", BaseURL: "https://rival.example/"}
	if err := f.db.Projects.CreateProject(ctx, &rival); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.History.CreateVersion(ctx, rival.ID, "v1"); err != nil {
		t.Fatal(err)
	}
	j := Start(ctx, storesOf(f.db), Config{Log: quiet, AllowPrivate: true})
	t.Cleanup(j.Close)
	next(t, got, "the other team's version")
	if n := tried.Load(); n > 1 {
		t.Errorf("the hanging team had %d tries under way before the other team's delivery: want one a team", n)
	}
}
