package jobs

import (
	"context"
	"log/slog"
	"time"

	"siteplan/internal/loop"
)

// The sign-off watcher tells a plan's watchers, and the member who
// signed, when the plan has changed in what a sign-off approved
// ("changed since approval", store.TellChangedSince): in the background,
// a round every signoffPoll, so that a burst of edits costs one
// comparison, not one an edit. What it writes to the inbox the mailer
// then e-mails like any notification (the store rings Queued).

// signoffStore is what the sign-off watcher reads and writes.
type signoffStore interface {
	TellChangedSince(ctx context.Context, limit int) (int, error)
}

const (
	signoffPoll   = 10 * time.Second
	signoffBudget = 30 * time.Second
	signoffBatch  = 200 // sign-offs a round holds against their plans at most
)

type signoffWatch struct {
	store signoffStore
	log   *slog.Logger
	loop.Loop
}

func newSignoffWatch(st signoffStore, log *slog.Logger) *signoffWatch {
	return &signoffWatch{store: st, log: log, Loop: loop.New()}
}

// round holds the sign-offs against their plans.
func (w *signoffWatch) round(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, signoffBudget)
	defer cancel()
	if _, err := w.store.TellChangedSince(ctx, signoffBatch); err != nil && ctx.Err() == nil {
		w.log.Error("holding sign-offs against their plans", "err", err)
	}
	return false
}
