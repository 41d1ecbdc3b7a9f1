package web

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/site"
)

// gate keeps one viewer from taking a scarce resource from the others:
// each viewer may hold perViewer places at once, everyone together all.
// Past either, a request is refused at once (429 with Retry-After)
// instead of waiting its turn for minutes.
type gate struct {
	mu        sync.Mutex
	held      map[string]int
	n         int
	perViewer int
	all       int
	busy      string // the refusals' messages: the viewer's own, everyone's
	full      string
}

// enter takes a place for who, and returns what gives it back.
// Errors: ETooMany.
func (g *gate) enter(who string) (func(), error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.held[who] >= g.perViewer:
		return nil, site.Errorf(site.ETooMany, "%s", g.busy)
	case g.n >= g.all:
		return nil, site.Errorf(site.ETooMany, "%s", g.full)
	}
	if g.held == nil {
		g.held = map[string]int{}
	}
	g.held[who]++
	g.n++
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.held[who]--; g.held[who] <= 0 {
			delete(g.held, who)
		}
		g.n--
	}, nil
}

// who names the viewer of a request for the gates: their account, or the
// share link they came through.
func who(c echo.Context) string {
	v := viewer(c)
	if v.ShareLinkID != 0 {
		return "l" + strconv.FormatInt(v.ShareLinkID, 10)
	}
	return "u" + strconv.FormatInt(v.UserID, 10)
}

// Diagram renders: Graphviz draws one at a time in the process, so one
// viewer has one drawn at a time, and six run or wait at most.
func newRenderGate() *gate {
	return &gate{perViewer: 1, all: 6,
		busy: "A diagram you asked for is still being drawn: wait for it, then try again.",
		full: "Diagrams are being drawn for others right now: try again in a few seconds."}
}

// Heavy reads (a whole outline, an export, the document): the store has a
// few reader connections, so one viewer holds two at most and all heavy
// reads together one fewer than there are, leaving one for everything
// else; each has readBudget to finish.
func newReadGate() *gate {
	return &gate{perViewer: 2, all: 3,
		busy: "Your other large requests on this plan are still running: wait for them, then try again.",
		full: "The server is busy with large requests right now: try again in a few seconds."}
}

// readBudget is how long a heavy read may take before it is stopped.
const readBudget = 15 * time.Second

// heavy passes a heavy read through the read gate, with its time budget.
func (s *Server) heavy(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		release, err := s.reads.enter(who(c))
		if err != nil {
			return err
		}
		defer release()
		ctx, cancel := context.WithTimeout(c.Request().Context(), readBudget)
		defer cancel()
		c.SetRequest(c.Request().WithContext(ctx))
		err = h(c)
		// The error page is rendered after this returns, with the
		// request's context: keep its values, not the spent deadline.
		c.SetRequest(c.Request().WithContext(context.WithoutCancel(c.Request().Context())))
		return err
	}
}
