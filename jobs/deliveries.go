package jobs

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"siteplan/fetch"
	"siteplan/internal/loop"
	"siteplan/site"
)

// The deliverer sends the teams' webhook deliveries in the background:
// the store queues them in the transaction of what they tell of, and
// the deliverer claims the due ones (the oldest of each team, one a team
// at a time, so a team's slow or dead receivers hold up only its own),
// posts them with the hardened fetch client (private addresses refused
// unless the server allows them; a time limit a try), and records how
// each try went. A failed try is retried after DeliveryBackoff's waits;
// past them it is given up on, which the team page says. No request
// waits on it: the store's commit of what queued a delivery wakes it.

// deliveryStore is what the deliverer reads and writes.
type deliveryStore interface {
	ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]site.Delivery, error)
	FinishDelivery(ctx context.Context, d site.Delivery, at time.Time, code int, errText string, retry time.Time) error
}

const (
	deliverySenders = 4                // tries at once
	deliveryTimeout = 10 * time.Second // a try's budget
	deliveryPoll    = 5 * time.Second  // how often due retries are looked for when nothing wakes it
	// deliveryLease is how long a claimed delivery is the claimer's: a
	// try that outlives its budget by that much is free to be claimed.
	deliveryLease = time.Minute
)

// DeliveryBackoff are the waits before each retry; a try after the last
// one is given up on (some 4 hours after the event).
var DeliveryBackoff = []time.Duration{30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour}

// SignatureHeader carries a JSON delivery's signature:
// "sha256=" and the hex HMAC-SHA256 of the body with the webhook's secret.
const SignatureHeader = "X-Siteplan-Signature"

type deliverer struct {
	store   deliveryStore
	client  *fetch.Client
	log     *slog.Logger
	base    string // the server's public address, for links
	backoff []time.Duration
	loop.Loop
	busy  atomic.Int32   // tries under way, of deliverySenders
	tries sync.WaitGroup // those tries, waited for on stop
}

func newDeliverer(st deliveryStore, client *fetch.Client, log *slog.Logger, base string, backoff []time.Duration) *deliverer {
	return &deliverer{store: st, client: client, log: log, base: base, backoff: backoff, Loop: loop.New()}
}

// round claims as many due deliveries as senders are free and starts
// their tries; a try that ends wakes the deliverer for the next. A round
// never waits for a try, so a receiver that never answers holds one
// sender for a try's budget and nothing else; and the store hands out
// one delivery a team at a time (ClaimDeliveries), so one team's dead
// receivers cannot take the senders from the others. It returns how
// many it started.
func (d *deliverer) round(ctx context.Context) int {
	free := deliverySenders - int(d.busy.Load())
	if free <= 0 {
		return 0
	}
	ds, err := d.store.ClaimDeliveries(ctx, time.Now(), deliveryLease, free)
	if err != nil {
		if ctx.Err() == nil {
			d.log.Error("claiming webhook deliveries", "err", err)
		}
		return 0
	}
	for _, del := range ds {
		d.busy.Add(1)
		d.tries.Go(func() {
			defer d.Poke()
			defer d.busy.Add(-1)
			d.try(ctx, del)
		})
	}
	return len(ds)
}

// StopAndWait stops the deliverer and waits for its tries.
func (d *deliverer) StopAndWait() {
	d.Loop.StopAndWait()
	d.tries.Wait()
}

// try posts one delivery and records how it went.
func (d *deliverer) try(ctx context.Context, del site.Delivery) {
	tctx, cancel := context.WithTimeout(ctx, deliveryTimeout)
	defer cancel()
	body, header := deliveryBody(del.Webhook, del.Event, d.base)
	header[DeliveryHeader] = strconv.FormatInt(del.ID, 10)
	code, err := d.client.Post(tctx, del.Webhook.URL, header, body)
	if ctx.Err() != nil {
		return // the server stops: the lease runs out and the next one tries it
	}
	msg := ""
	switch {
	case errors.Is(err, context.DeadlineExceeded) || tctx.Err() != nil:
		msg = "No answer within " + deliveryTimeout.String() + "."
	case err != nil:
		msg = unreachable(err)
	case code < 200 || code > 299:
		msg = "The receiver answered " + strconv.Itoa(code) + "."
	}
	now := time.Now()
	var retry time.Time
	if msg != "" {
		if del.Attempts < len(d.backoff) {
			retry = now.Add(d.backoff[del.Attempts])
			msg += " Trying again at " + retry.UTC().Format("15:04 UTC") + "."
		} else {
			msg += " Given up after " + site.Plural(del.Attempts+1, "try", "tries") + "."
		}
	}
	if err := d.store.FinishDelivery(context.Background(), del, now, code, msg, retry); err != nil {
		d.log.Error("recording a webhook delivery", "webhook", del.Webhook.ID, "err", err)
	}
	if !retry.IsZero() {
		time.AfterFunc(retry.Sub(now), d.Poke) // on time, not at the next poll
	}
}

// DeliveryHeader names a delivery, the same on every try of it: a
// receiver that sees one twice (a server stopped after sending, before
// recording) drops the second.
const DeliveryHeader = "X-Siteplan-Delivery"

// unreachable says why a receiver could not be reached, in words that
// name no address it resolved to and no resolver: the team page shows
// them to every owner of the team.
func unreachable(err error) string {
	var re *fetch.RefusedError
	var dns *net.DNSError
	var fe *fetch.Error
	switch {
	case errors.As(err, &re):
		return "The receiver is not on the public internet: siteplan does not post inside its own network unless the operator allows it."
	case errors.As(err, &dns):
		return "The receiver's host name does not resolve."
	case errors.Is(err, syscall.ECONNREFUSED):
		return "The receiver refused the connection."
	case errors.As(err, &fe) && fe.Msg != "could not be fetched": // that one's cause names what the host resolved to
		return "The receiver " + fe.Msg + "."
	}
	return "The receiver could not be reached."
}

// slackText escapes what Slack's message format reads as markup (&, <
// and >): a visitor's name or comment cannot ping a channel or disguise
// a link (api.slack.com, "Escaping text").
var slackText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// deliveryBody is what a webhook receives of an event, and its headers:
// Slack's incoming-webhook message, or the event as JSON with its
// signature (SignatureHeader) and kind.
func deliveryBody(w site.Webhook, e site.Event, base string) ([]byte, map[string]string) {
	link := base + e.Path
	if w.Format == site.WebhookSlack {
		b, _ := json.Marshal(map[string]string{"text": slackText.Replace(e.Text) + " <" + slackText.Replace(link) + "|Open in siteplan>"})
		return b, map[string]string{"Content-Type": "application/json"}
	}
	b, _ := json.Marshal(struct {
		site.Event
		URL string `json:"url"`
	}{e, link})
	mac := hmac.New(sha256.New, []byte(w.Secret))
	mac.Write(b)
	return b, map[string]string{"Content-Type": "application/json", "X-Siteplan-Event": e.Kind,
		SignatureHeader: "sha256=" + hex.EncodeToString(mac.Sum(nil))}
}
