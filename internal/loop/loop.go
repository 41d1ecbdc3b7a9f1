// Package loop is the life of a background worker: rounds run in a
// goroutine of their own, woken by a poke, a bell or a poll, until
// stopped. The background jobs and the web server's relay share it.
package loop

import (
	"context"
	"sync"
	"time"
)

// Loop is the life of a background worker: it runs rounds, a poke or
// its bell wakes it, StopAndWait ends it and waits for its last round.
// Make it with New.
type Loop struct {
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
	started bool
}

// New is a loop not yet started.
func New() Loop {
	return Loop{wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

// Start runs round in a goroutine of its own: at once, then when poked,
// when bell's channel (if bell is not nil) closes or poll has passed,
// and again at once while it says more may wait, until stopped.
// Stopping cancels the context a round is given, a child of ctx.
func (l *Loop) Start(ctx context.Context, poll time.Duration, bell func() <-chan struct{}, round func(ctx context.Context) (more bool)) {
	l.started = true
	ctx, cancel := context.WithCancel(ctx)
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
			var rang <-chan struct{} // asked before the round, so a ring during it is not missed
			if bell != nil {
				rang = bell()
			}
			if round(ctx) {
				continue
			}
			select {
			case <-l.stop:
				return
			case <-l.wake:
			case <-rang:
			case <-tick.C:
			}
		}
	}()
}

// Poke tells the worker that something may be waiting.
func (l *Loop) Poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// StopAndWait stops the worker and waits for it, if it was started.
func (l *Loop) StopAndWait() {
	l.once.Do(func() { close(l.stop) })
	if l.started {
		<-l.done
	}
}
