// Package jobs is siteplan's background work: live-site readings and
// launch checks, the webhook deliverer, the mailer, the sign-off watcher
// and the sweep of unfinished imports. serve
// starts them (Start) and stops them (Jobs.Close); each reads and writes
// through the narrow store interface declared beside it. Work reaches
// them as rows of the database and a wake-up: the store rings Queued
// after a write that queued deliveries or inbox lines, and each worker
// also looks on its own every little while, for the work other servers
// on the same database queued; a live-site job is a row the web server
// writes, and the store rings Jobs.Changed after it.
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
	Projects interface {
		leftoverStore
		importStore
	}
	Jobs      siteJobStore
	Pages     treeStore
	Redirects attachStore
	History   launchStore
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
	// AllowPrivate lets webhooks post to, and live-site jobs read,
	// loopback, private and link-local addresses (serve
	// --allow-private-fetch).
	AllowPrivate bool
	// SMTP, when not nil, is where the members' notifications are
	// e-mailed (serve --smtp); nil: the inbox alone tells.
	SMTP *SMTP
	// Retries are the waits before each retry of a failed webhook
	// delivery; nil: DeliveryBackoff; empty: no retry.
	Retries []time.Duration
	// Readings bounds the live-site jobs; zero fields take the defaults.
	Readings Readings
	// Published, if not nil, tells the server's live editors that a job
	// changed a plan (kind as the web server's changes name it, by whom).
	Published func(projectID int64, kind, by string)
}

// Jobs are the background workers of a server, running until Close.
type Jobs struct {
	hooks    *deliverer
	signoffs *signoffWatch
	mailer   *mailer // nil without SMTP
	sweep    loop.Loop
	sites    *siteJobs
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
	lim := cfg.Readings.orDefaults()
	reads, checks := readersClients(lim.Readers, cfg.AllowPrivate)
	j.sites = startSiteJobs(st.Jobs, work{uploads: st.Jobs, projects: st.Projects, pages: st.Pages, redirects: st.Redirects,
		history: st.History, reads: reads, checks: checks, published: cfg.Published}, lim, cfg.Log)
	return j
}

// Close stops the workers and waits for what they were doing; the
// live-site jobs this server runs end failed, saying it stopped.
func (j *Jobs) Close() {
	j.sites.close()
	j.hooks.StopAndWait()
	j.signoffs.StopAndWait()
	if j.mailer != nil {
		j.mailer.StopAndWait()
	}
	j.sweep.StopAndWait()
}

// hookClient posts webhook deliveries, a try for each sender at once.
func hookClient(allowPrivate bool) *fetch.Client {
	return fetch.New(fetch.Options{AllowPrivate: allowPrivate, Allow: allowFlag, Parallel: deliverySenders, Timeout: deliveryTimeout})
}

// allowFlag is how an operator lets the server reach private
// addresses, as a refusal says.
const allowFlag = "siteplan serve --allow-private-fetch"
