package web

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/site"
)

// gate keeps heavy work (a diagram render, a document download, an
// export of a large plan) from taking the server from everyone else:
// `running` of them run at once, the rest wait their turn, in the order
// they came, until their request's deadline; and each viewer may have
// perViewer of them running or waiting, past which they are refused at
// once (429 with Retry-After). With one running at a time on a two-core
// machine, heavy work leaves a core to the editors' own requests.
type gate struct {
	mu        sync.Mutex
	held      map[string]int // running or waiting, per viewer
	slots     chan struct{}  // a token per heavy request running
	perViewer int
}

func newGate(running, perViewer int) *gate {
	return &gate{held: map[string]int{}, slots: make(chan struct{}, running), perViewer: perViewer}
}

// enter waits for a place for who until ctx is done, and returns what
// gives it back. Errors: ETooMany (who has perViewer already, or the wait
// ran out).
func (g *gate) enter(ctx context.Context, who string) (func(), error) {
	g.mu.Lock()
	if g.held[who] >= g.perViewer {
		g.mu.Unlock()
		return nil, site.Errorf(site.ETooMany, "Your other large requests on this plan are still running: wait for them, then try again.")
	}
	g.held[who]++
	g.mu.Unlock()
	leave := func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.held[who]--; g.held[who] <= 0 {
			delete(g.held, who)
		}
	}
	select {
	case g.slots <- struct{}{}:
	case <-ctx.Done():
		leave()
		return nil, site.Errorf(site.ETooMany, "The server is busy with large requests right now: try again in a few seconds.")
	}
	return func() { <-g.slots; leave() }, nil
}

// who names the viewer of a request for the gate: their account, or the
// share link they came through.
func who(c echo.Context) string {
	v := viewer(c)
	if v.ShareLinkID != 0 {
		return "l" + strconv.FormatInt(v.ShareLinkID, 10)
	}
	return "u" + strconv.FormatInt(v.UserID, 10)
}

// readBudget is how long a heavy read may take, waiting included,
// before it is stopped.
const readBudget = 15 * time.Second

// heavyTurn waits for c's turn at the gate, within budget, and returns
// the request's context bounded by budget and what ends the turn.
// Errors: ETooMany.
func (s *Server) heavyTurn(c echo.Context, budget time.Duration) (context.Context, func(), error) {
	ctx, cancel := context.WithTimeout(c.Request().Context(), budget)
	release, err := s.gate.enter(ctx, who(c))
	if err != nil {
		cancel()
		return nil, nil, err
	}
	return ctx, func() { release(); cancel() }, nil
}

// heavy passes a heavy read through the gate, within its time budget.
func (s *Server) heavy(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, done, err := s.heavyTurn(c, readBudget)
		if err != nil {
			return err
		}
		defer done()
		c.SetRequest(c.Request().WithContext(ctx))
		err = h(c)
		// The error page is rendered after this returns, with the
		// request's context: keep its values, not the spent deadline.
		c.SetRequest(c.Request().WithContext(context.WithoutCancel(c.Request().Context())))
		return err
	}
}

// largePlan is the page count past which reading a plan's versions (each
// a snapshot of the whole plan to decode and compare) is heavy work.
const largePlan = maxOutlineRows / 6

// largeTurn takes a turn at the gate, within readBudget, for reading the
// versions of a large plan; for a small one it returns at once. It
// returns the context to read with and what ends the turn. Errors:
// ETooMany.
func (s *Server) largeTurn(c echo.Context) (context.Context, func(), error) {
	if currentProject(c).PageCount <= largePlan {
		return c.Request().Context(), func() {}, nil
	}
	return s.heavyTurn(c, readBudget)
}
