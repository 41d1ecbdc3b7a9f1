// Package graphviz runs Graphviz (go-graphviz's WebAssembly build) for
// the diagram package, which has it lay out radial diagrams: one layout
// at a time in a process, in this process or in a worker process (this
// program started again) that is ended when its layout is given up on.
package graphviz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/goccy/go-graphviz"

	"siteplan/site"
)

// Formats and engines the diagram package asks for.
const (
	Positions = "json0" // where the layout put each node, without drawing operations
	Twopi     = "twopi" // the radial layout
)

// gv serialises every use of go-graphviz. Its WebAssembly module is one
// instance per process, shared by every graphviz.Graphviz value, so two
// renders at once would corrupt each other: a pool would not help. The
// channel is a lock that a waiting caller can give up on.
var gv = struct {
	lock chan struct{}
	g    *graphviz.Graphviz
}{lock: make(chan struct{}, 1)}

// Render lays out dot with a Graphviz engine and returns it in format.
// It waits for its turn and for the render at most until ctx is done. In
// a worker process (UseWorkerProcess) a render given up on is stopped; in
// this process it cannot be, so it finishes in the background and only
// the caller gives up. Errors: ETooLarge on timeout, EInvalid when
// Graphviz refuses the graph.
func Render(ctx context.Context, dot []byte, engine, format string) ([]byte, error) {
	select {
	case gv.lock <- struct{}{}:
	case <-ctx.Done():
		return nil, TimeoutError()
	}
	if ctx.Err() != nil { // given up on while it waited: draw nothing
		<-gv.lock
		return nil, TimeoutError()
	}
	layouts.Add(1)
	if worker.exe != "" {
		defer func() { <-gv.lock }()
		return renderInWorker(ctx, dot, engine, format)
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() { <-gv.lock }()
		b, err := renderLocked(dot, engine, format)
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		return r.b, r.err
	case <-ctx.Done():
		return nil, TimeoutError()
	}
}

// TimeoutError is the error of a diagram that took too long to draw.
func TimeoutError() error {
	return site.Errorf(site.ETooLarge, "The diagram took too long to draw. Draw one branch, fewer levels, or collapse some branches.")
}

// layouts counts the graphs given to Graphviz.
var layouts atomic.Int64

// Layouts is how many graphs this process has given to Graphviz (tests
// use it to see that a cached diagram is not laid out again).
func Layouts() int64 { return layouts.Load() }

// renderLocked lays dot out in this process; the caller holds gv.lock,
// or is the worker.
func renderLocked(dot []byte, engine, format string) (b []byte, err error) {
	defer func() { // the bindings panic on some internal failures
		if r := recover(); r != nil {
			err = fmt.Errorf("graphviz: %v", r)
		}
	}()
	ctx := context.Background()
	if gv.g == nil {
		if gv.g, err = graphviz.New(ctx); err != nil {
			return nil, fmt.Errorf("graphviz: %w", err)
		}
	}
	graph, err := graphviz.ParseBytes(dot)
	if err != nil {
		return nil, site.Errorf(site.EInvalid, "The diagram could not be drawn: %s", err.Error())
	}
	defer graph.Close()
	gv.g.SetLayout(graphviz.Layout(engine))
	var buf bytes.Buffer
	if err := gv.g.Render(ctx, graph, graphviz.Format(format), &buf); err != nil {
		return nil, fmt.Errorf("graphviz %s: %w", format, err)
	}
	if buf.Len() == 0 {
		return nil, errors.New("graphviz wrote nothing")
	}
	return buf.Bytes(), nil
}
