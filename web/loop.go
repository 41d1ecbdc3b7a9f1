package web

import (
	"context"
	"sync"
	"time"
)

// loop is the life of a background worker (the webhook deliverer, the
// mailer, the sign-off watcher): it runs rounds, a poke wakes it,
// stopAndWait ends it and waits for its last round.
type loop struct {
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
	started bool
}

func newLoop() loop {
	return loop{wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

// start runs round in a goroutine of its own: at once, then when poked
// or poll has passed, and again at once while it says more may wait,
// until stopped. Stopping cancels the context a round is given.
func (l *loop) start(poll time.Duration, round func(ctx context.Context) (more bool)) {
	l.started = true
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(l.done)
		defer cancel()
		tick := time.NewTicker(poll)
		defer tick.Stop()
		go func() {
			<-l.stop
			cancel()
		}()
		for ctx.Err() == nil {
			if round(ctx) {
				continue
			}
			select {
			case <-l.stop:
				return
			case <-l.wake:
			case <-tick.C:
			}
		}
	}()
}

// poke tells the worker that something may be waiting.
func (l *loop) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// stopAndWait stops the worker and waits for it, if it was started.
func (l *loop) stopAndWait() {
	l.once.Do(func() { close(l.stop) })
	if l.started {
		<-l.done
	}
}
