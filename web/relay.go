package web

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"siteplan/internal/loop"
)

// Several instances may serve one PostgreSQL database behind a load
// balancer, and two people editing one plan may be on different ones.
// The relay carries what an instance's hub tells (changes, viewers,
// streams to end) through the database to the hubs of the others, and
// theirs to it (store: live events, LISTEN/NOTIFY). On SQLite one
// process serves the file and there is no relay.

// liveStore carries live events between the instances on a database.
type liveStore interface {
	SharedLive() bool
	PublishLive(ctx context.Context, payloads ...[]byte) error
	LiveCursor(ctx context.Context) (int64, error)
	ListenLive(ctx context.Context, after int64, deliver func(payload []byte)) (last int64, err error)
}

const (
	// relayBuffer is how many events may wait to be published; past it
	// they are dropped (and logged): a database that stalls must not
	// stall the edits.
	relayBuffer = 4096
	// relayBatch is how many queued events are published in one write.
	relayBatch = 64
	// relayBudget bounds publishing one batch of events.
	relayBudget = 5 * time.Second
	// relayRetry is the wait before listening again after the listener's
	// connection failed.
	relayRetry = time.Second
	// Each instance tells who views its projects every presenceRefresh;
	// the others forget what it told after remoteKept without news.
	presenceRefresh = 20 * time.Second
	remoteKept      = 3 * presenceRefresh
)

// relay links a hub to the hubs of the other instances.
type relay struct {
	st   liveStore
	log  *slog.Logger
	out  chan []byte
	stop context.CancelFunc
	done sync.WaitGroup
	// refresher tells the other instances who views what here, every
	// presenceRefresh (hub.refresh).
	refresher loop.Loop
}

// startRelay links h to the other instances on st's database, from the
// live events that come after now.
func startRelay(st liveStore, h *hub, log *slog.Logger) *relay {
	ctx, cancel := context.WithCancel(context.Background())
	r := &relay{st: st, log: log, out: make(chan []byte, relayBuffer), stop: cancel, refresher: loop.New()}
	h.self = rand.Text()
	h.tell = r.send
	// Where to listen from is read before the server serves, so that no
	// change made on another instance after this one started is missed.
	from, err := st.LiveCursor(ctx)
	if err != nil {
		log.Warn("live: reading where to listen from", "err", err)
		from = -1
	}
	r.done.Go(func() { r.publish(ctx) })
	r.done.Go(func() { r.listen(ctx, h, from) })
	r.refresher.Start(context.Background(), presenceRefresh, nil, func(context.Context) bool {
		h.refresh()
		return false
	})
	return r
}

// send queues a message for the other instances.
func (r *relay) send(m liveMsg) {
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	select {
	case r.out <- b:
	default:
		r.log.Warn("live: an event for the other instances dropped: the database is not keeping up", "kind", m.Kind)
	}
}

// publish writes the queued messages, in order, those queued together
// in one write (up to relayBatch); once stopped, it writes those still
// queued (a shutdown's "nobody here any more").
func (r *relay) publish(ctx context.Context) {
	batch := make([][]byte, 0, relayBatch)
	write := func() {
	fill:
		for len(batch) < relayBatch {
			select {
			case b := <-r.out:
				batch = append(batch, b)
			default:
				break fill
			}
		}
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), relayBudget)
		defer cancel()
		if err := r.st.PublishLive(pctx, batch...); err != nil {
			r.log.Warn("live: telling the other instances", "err", err, "events", len(batch))
		}
		batch = batch[:0]
	}
	for {
		select {
		case b := <-r.out:
			batch = append(batch, b)
			write()
		case <-ctx.Done():
			for len(r.out) > 0 {
				write()
			}
			return
		}
	}
}

// listen hands the other instances' messages to h, listening again
// after a failure from the last one it had, so none is lost.
func (r *relay) listen(ctx context.Context, h *hub, from int64) {
	for ctx.Err() == nil {
		var err error
		if from < 0 {
			if from, err = r.st.LiveCursor(ctx); err != nil {
				from = -1
			}
		}
		if err == nil {
			from, err = r.st.ListenLive(ctx, from, h.receive)
		}
		if err != nil {
			r.log.Warn("live: listening to the other instances again", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(relayRetry):
			}
		}
	}
}

// close stops the relay once what is queued is written.
func (r *relay) close() {
	r.refresher.StopAndWait()
	r.stop()
	r.done.Wait()
}
