package web

import "sync"

// loop is the life of a background worker (the webhook deliverer, the
// mailer): a poke wakes it, stopAndWait ends it and waits for its last
// round.
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

// start runs the worker's run in a goroutine of its own.
func (l *loop) start(run func()) {
	l.started = true
	go func() {
		defer close(l.done)
		run()
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
