package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"siteplan/site"
)

// TestListenLive: a listener gets the live events published after it
// started, in order, and one whose connection was cut gets, listening
// again from where it stopped, those published while it was away.
func TestListenLive(t *testing.T) {
	db := openTest(t)
	if !db.pg {
		t.Skip("live events go through the database on PostgreSQL only")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	publish := func(s string) {
		t.Helper()
		if err := db.Live.PublishLive(ctx, []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	publish("before")
	from, err := db.Live.LiveCursor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 16)
	type result struct {
		last int64
		err  error
	}
	listen := func(after int64) chan result {
		done := make(chan result, 1)
		go func() {
			last, err := db.Live.ListenLive(ctx, after, func(p []byte) { got <- string(p) })
			done <- result{last, err}
		}()
		return done
	}
	next := func() string {
		t.Helper()
		select {
		case s := <-got:
			return s
		case <-ctx.Done():
			t.Fatal("no live event within 20 s")
		}
		return ""
	}
	done := listen(from)
	// Published while the listener connects, or after: none is missed.
	for i := range 3 {
		publish(fmt.Sprint("change ", i))
	}
	for i := range 3 {
		if s, want := next(), fmt.Sprint("change ", i); s != want {
			t.Fatalf("got %q, want %q", s, want)
		}
	}
	// Cut the listener's connection, as a restarted PostgreSQL or a
	// network hiccup would.
	if _, err := db.w.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?`, liveApp); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err == nil {
		t.Fatal("the listener whose connection was cut returned no error")
	}
	publish("while away")
	listen(r.last)
	if s := next(); s != "while away" {
		t.Errorf("after reconnecting got %q, want %q", s, "while away")
	}
	select {
	case s := <-got:
		t.Errorf("got %q again", s)
	default:
	}
}

// TestLiveOrder: events that two instances publish at once, singly and
// in batches, reach a listener each once, and each publisher's in the
// order it published them: the rows commit in the order of their
// numbers, so reading past the last number read skips none.
func TestLiveOrder(t *testing.T) {
	dbs := twoInstances(t)
	if !dbs[0].pg {
		t.Skip("live events go through the database on PostgreSQL only")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	from, err := dbs[0].Live.LiveCursor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const publishers, rounds = 8, 40
	got := make(chan string, publishers*rounds*2)
	go dbs[1].Live.ListenLive(ctx, from, func(p []byte) { got <- string(p) })
	var wg sync.WaitGroup
	for w := range publishers {
		wg.Go(func() {
			db := dbs[w%2]
			for i := 0; i < rounds; i += 2 {
				var err error
				if w%3 == 0 { // a batch of two
					err = db.Live.PublishLive(ctx, []byte(fmt.Sprint(w, " ", i)), []byte(fmt.Sprint(w, " ", i+1)))
				} else {
					err = db.Live.PublishLive(ctx, []byte(fmt.Sprint(w, " ", i)))
					if err == nil {
						err = db.Live.PublishLive(ctx, []byte(fmt.Sprint(w, " ", i+1)))
					}
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	next := make([]int, publishers)
	for range publishers * rounds {
		select {
		case s := <-got:
			var w, i int
			fmt.Sscan(s, &w, &i)
			if i != next[w] {
				t.Fatalf("publisher %d: got its event %d, want %d", w, i, next[w])
			}
			next[w]++
		case <-ctx.Done():
			t.Fatalf("events missed: got %v of %d from each publisher", next, rounds)
		}
	}
}

// TestTokenBuckets: a bucket lends Burst tokens, then one every Every;
// TakeToken takes nothing unless every bucket named holds a token, and
// two stores on one database share the buckets.
func TestTokenBuckets(t *testing.T) {
	dbs := twoInstances(t)
	db, other := dbs[0], dbs[1]
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	acc := site.Bucket{Key: "acc", Every: time.Minute, Burst: 2}
	addr := site.Bucket{Key: "addr", Every: time.Second, Burst: 1}
	take := func(st *Store, at time.Time, want string) {
		t.Helper()
		if empty, err := st.Limits.TakeToken(ctx, at, acc, addr); err != nil || empty != want {
			t.Fatalf("TakeToken: got %q, %v; want %q", empty, err, want)
		}
	}
	take(db, now, "")
	take(other, now, "") // the second token, through another instance
	take(db, now, "acc")
	take(db, now.Add(59*time.Second), "acc")
	take(other, now.Add(time.Minute), "") // one came back
	// An empty address bucket stops an account with tokens.
	if err := db.Limits.SpendToken(ctx, now, addr); err != nil {
		t.Fatal(err)
	}
	if err := db.Limits.FillBucket(ctx, "acc"); err != nil {
		t.Fatal(err)
	}
	take(db, now, "addr")
	take(db, now.Add(time.Second), "")
	var rows int
	if err := db.r.QueryRow(`SELECT count(*) FROM rate_buckets`).Scan(&rows); err != nil || rows != 1 {
		t.Errorf("got %d bucket rows (%v), want 1: full ones are let go", rows, err)
	}
}
