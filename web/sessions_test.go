package web

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestSessionChecksTogether: checks asked while a look-up runs go
// together in the next one; each is answered by a look-up that began
// after it was asked, so a session ended meanwhile is not taken as live;
// a look-up that fails answers no.
func TestSessionChecksTogether(t *testing.T) {
	var mu sync.Mutex
	live := map[string]bool{}
	for i := range 50 {
		live[fmt.Sprint("s", i)] = true
	}
	var looks atomic.Int32
	first := make(chan struct{})
	release := make(chan struct{})
	sc := newSessionChecks(func(ctx context.Context, tokens []string) (map[string]bool, error) {
		if looks.Add(1) == 1 {
			close(first)
			<-release
		}
		mu.Lock()
		defer mu.Unlock()
		out := map[string]bool{}
		for _, t := range tokens {
			out[t] = live[t]
		}
		return out, nil
	})
	ctx := context.Background()
	go sc.live(ctx, "s0") // the look-up under way
	<-first
	// Asked while it runs: s1 ends before their look-up begins.
	answers := make([]bool, 50)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() { answers[i] = sc.live(ctx, fmt.Sprint("s", i)) })
	}
	for {
		sc.mu.Lock()
		n := len(sc.waiting)
		sc.mu.Unlock()
		if n == 50 { // s0 asked again, and s1 to s49
			break
		}
		runtime.Gosched()
	}
	mu.Lock()
	live["s1"] = false
	mu.Unlock()
	close(release)
	wg.Wait()
	if n := looks.Load(); n != 2 {
		t.Errorf("%d look-ups for 51 checks, want 2", n)
	}
	for i, ok := range answers {
		if ok != (i != 1) {
			t.Errorf("s%d: live %v", i, ok)
		}
	}

	failing := newSessionChecks(func(context.Context, []string) (map[string]bool, error) { return nil, errors.New("down") })
	if failing.live(ctx, "s0") {
		t.Error("a failed look-up answered live")
	}
}
