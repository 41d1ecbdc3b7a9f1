// Package jobs is siteplan's background work: the webhook deliverer, the
// mailer, the sign-off watcher and the sweep of unfinished imports. serve
// starts them (Start) and stops them (Jobs.Close); each reads and writes
// through the narrow store interface declared beside it. Work reaches
// them as rows of the database and a wake-up: the store rings Queued
// after a write that queued deliveries or inbox lines, and each worker
// also looks on its own every little while, for the work other servers
// on the same database queued.
package jobs

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"siteplan/fetch"
	"siteplan/internal/loop"
)

// Stores are the parts of the store the jobs use (*store.Store's
// fields), each through the few methods a worker declares beside it.
type Stores struct {
	Webhooks      deliveryStore
	Notifications interface {
		mailStore
		signoffStore
	}
	Projects leftoverStore
	// Queued is closed after a write that queued work for the jobs
	// (store.Store.Queued).
	Queued func() <-chan struct{}
}

// Config says how the jobs run.
type Config struct {
	Log *slog.Logger
	// PublicURL is where people reach the server
	// ("https://plans.agency.example"), for the links webhooks and
	// e-mails carry.
	PublicURL string
	// AllowPrivate lets webhooks post to loopback, private and
	// link-local addresses (serve --allow-private-fetch).
	AllowPrivate bool
	// SMTP, when not nil, is where the members' notifications are
	// e-mailed (serve --smtp); nil: the inbox alone tells.
	SMTP *SMTP
	// Retries are the waits before each retry of a failed webhook
	// delivery; nil: DeliveryBackoff; empty: no retry.
	Retries []time.Duration
}

// Jobs are the background workers of a server, running until Close.
type Jobs struct {
	hooks    *deliverer
	signoffs *signoffWatch
	mailer   *mailer // nil without SMTP
	sweep    loop.Loop
}

// Start starts the background workers on st; ctx's values (not its end)
// reach their rounds. Close stops them.
func Start(ctx context.Context, st Stores, cfg Config) *Jobs {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Retries == nil {
		cfg.Retries = DeliveryBackoff
	}
	base := strings.TrimSuffix(cfg.PublicURL, "/")
	ctx = context.WithoutCancel(ctx)
	j := &Jobs{
		hooks:    newDeliverer(st.Webhooks, hookClient(cfg.AllowPrivate), cfg.Log, base, cfg.Retries),
		signoffs: newSignoffWatch(st.Notifications, cfg.Log),
		sweep:    loop.New(),
	}
	j.hooks.Start(ctx, deliveryPoll, st.Queued, func(ctx context.Context) bool { return j.hooks.round(ctx) > 0 }) // more may be due
	j.signoffs.Start(ctx, signoffPoll, nil, j.signoffs.round)
	if cfg.SMTP != nil {
		j.mailer = newMailer(st.Notifications, *cfg.SMTP, cfg.Log, base)
		j.mailer.Start(ctx, mailPoll, st.Queued, j.mailer.round)
	}
	j.sweep.Start(ctx, sweepEvery, nil, sweeper(st.Projects, cfg.Log))
	return j
}

// Close stops the workers and waits for what they were doing.
func (j *Jobs) Close() {
	j.hooks.StopAndWait()
	j.signoffs.StopAndWait()
	if j.mailer != nil {
		j.mailer.StopAndWait()
	}
	j.sweep.StopAndWait()
}

// hookClient posts webhook deliveries, a try for each sender at once.
func hookClient(allowPrivate bool) *fetch.Client {
	return fetch.New(fetch.Options{AllowPrivate: allowPrivate, Allow: "siteplan serve --allow-private-fetch", Parallel: deliverySenders, Timeout: deliveryTimeout})
}
