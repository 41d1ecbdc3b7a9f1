package web

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"
)

// sessionChecks looks up the sessions of the live streams together: a
// change to a plan goes to the streams of its 50 editors at once, and
// each checks its session before sending it on. The checks asked while
// a look-up runs go together in the next, one query for all of them, so
// each is still answered by a query that began after it was asked.
type sessionChecks struct {
	look func(ctx context.Context, tokens []string) (map[string]bool, error)

	mu      sync.Mutex
	waiting map[string][]chan bool // by token
	running bool
}

// sessionLookBudget bounds one look-up of the streams' sessions; a batch
// holds at most sessionBatch of them.
const (
	sessionLookBudget = 5 * time.Second
	sessionBatch      = 500
)

func newSessionChecks(look func(ctx context.Context, tokens []string) (map[string]bool, error)) *sessionChecks {
	return &sessionChecks{look: look, waiting: map[string][]chan bool{}}
}

// live reports whether token is a live session; false if ctx ends first
// or the database cannot say.
func (sc *sessionChecks) live(ctx context.Context, token string) bool {
	ch := make(chan bool, 1)
	sc.mu.Lock()
	sc.waiting[token] = append(sc.waiting[token], ch)
	start := !sc.running
	sc.running = true
	sc.mu.Unlock()
	if start {
		go sc.run()
	}
	select {
	case ok := <-ch:
		return ok
	case <-ctx.Done():
		return false
	}
}

// run looks up what waits, batch after batch, until nothing does.
func (sc *sessionChecks) run() {
	for {
		sc.mu.Lock()
		tokens := slices.Collect(maps.Keys(sc.waiting))
		if len(tokens) == 0 {
			sc.running = false
			sc.mu.Unlock()
			return
		}
		tokens = tokens[:min(len(tokens), sessionBatch)]
		batch := make(map[string][]chan bool, len(tokens))
		for _, t := range tokens {
			batch[t] = sc.waiting[t]
			delete(sc.waiting, t)
		}
		sc.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), sessionLookBudget)
		live, err := sc.look(ctx, tokens)
		cancel()
		for t, chs := range batch {
			for _, ch := range chs {
				ch <- err == nil && live[t]
			}
		}
	}
}
