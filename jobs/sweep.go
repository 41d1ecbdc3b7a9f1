package jobs

import (
	"context"
	"log/slog"
	"time"
)

// leftoverStore removes the imports no process writes any more.
type leftoverStore interface {
	RemoveLeftovers(ctx context.Context) (int, error)
}

// sweepEvery is how often the unfinished imports no one writes any more
// are removed (store.Projects.RemoveLeftovers; Open did so once).
const sweepEvery = time.Minute

// sweeper is a round of the sweep: it removes the unfinished imports no
// one writes any more.
func sweeper(st leftoverStore, log *slog.Logger) func(ctx context.Context) bool {
	first := true
	return func(ctx context.Context) bool {
		if first { // Open has just swept
			first = false
			return false
		}
		if n, err := st.RemoveLeftovers(ctx); err != nil && ctx.Err() == nil {
			log.Error("removing unfinished imports", "err", err)
		} else if n > 0 {
			log.Info("removed unfinished imports", "projects", n)
		}
		return false
	}
}
