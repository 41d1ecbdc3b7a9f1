package graphviz

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"siteplan/site"
)

// Graphviz runs compiled WebAssembly, which Go cannot preempt: while a
// layout runs, a garbage collection that must stop the world waits for it
// to end, and so does every other request of the process (a large plan
// stalled /healthz for seconds: docs/benchmarks.md). Nor can a layout be
// stopped half way.
// So a server lays out in a child process, the same program started again
// as a worker: its pauses are its own, and a layout given up on is
// stopped by ending the worker; the next render starts another.

// workerEnv marks a process started to serve layouts.
const workerEnv = "SITEPLAN_GRAPHVIZ_WORKER"

// UseWorkerProcess makes every later layout of this process run in a
// worker process: this program, started again with workerEnv set. Its
// main must call ServeIfWorker before anything else.
func UseWorkerProcess() error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("graphviz worker: %w", err)
	}
	gv.lock <- struct{}{}
	defer func() { <-gv.lock }()
	worker.exe = exe
	return nil
}

// ServeIfWorker returns at once unless this process was started as a
// Graphviz worker; then it lays out what its parent sends on standard
// input until that ends, and exits.
func ServeIfWorker() {
	if os.Getenv(workerEnv) != "1" {
		return
	}
	if err := serveLayouts(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "graphviz worker:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// A request is a JSON line followed by Size bytes of DOT; an answer is
// a JSON line followed by Size bytes of output.
type workRequest struct {
	Engine string `json:"engine"`
	Format string `json:"format"`
	Size   int    `json:"size"`
}

type workAnswer struct {
	Size    int    `json:"size"`
	Error   string `json:"error,omitempty"`
	Invalid bool   `json:"invalid,omitempty"` // Error is site.EInvalid's message
}

// serveLayouts answers requests from r on w, one at a time.
func serveLayouts(r io.Reader, w io.Writer) error {
	br, bw := bufio.NewReader(r), bufio.NewWriter(w)
	for {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return nil
		}
		if err != nil {
			return err
		}
		var req workRequest
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("request %q: %w", line, err)
		}
		dot := make([]byte, req.Size)
		if _, err := io.ReadFull(br, dot); err != nil {
			return err
		}
		out, err := renderLocked(dot, req.Engine, req.Format)
		ans := workAnswer{Size: len(out)}
		if err != nil {
			out, ans = nil, workAnswer{Error: site.ErrorMessage(err), Invalid: site.ErrorCode(err) == site.EInvalid}
			if !ans.Invalid {
				ans.Error = err.Error()
			}
		}
		if err := writeMessage(bw, ans, out); err != nil {
			return err
		}
	}
}

func writeMessage(w *bufio.Writer, header any, body []byte) error {
	line, err := json.Marshal(header)
	if err != nil {
		return err
	}
	w.Write(line)
	w.WriteByte('\n')
	w.Write(body)
	return w.Flush()
}

// worker is the running child process, if any. gv.lock guards it.
var worker struct {
	exe string // the program to start; "" lays out in this process
	cmd *exec.Cmd
	in  *bufio.Writer
	out *bufio.Reader
	pid int // of the last worker started, for tests
}

// renderInWorker sends one layout to the worker, starting one if none
// runs, and waits for the answer until ctx is done: then it ends the
// worker, and with it the layout. A worker found gone (killed, say, for
// memory) is replaced once. The caller holds gv.lock.
func renderInWorker(ctx context.Context, dot []byte, engine, format string) ([]byte, error) {
	b, gone, err := tryWorker(ctx, dot, engine, format)
	if gone && ctx.Err() == nil {
		b, _, err = tryWorker(ctx, dot, engine, format)
	}
	return b, err
}

// tryWorker is one exchange with the worker; gone says the worker
// stopped answering (and was ended), as opposed to refusing the layout.
func tryWorker(ctx context.Context, dot []byte, engine, format string) (b []byte, gone bool, err error) {
	if worker.cmd == nil {
		if err := startWorker(); err != nil {
			return nil, false, err
		}
	}
	type result struct {
		b            []byte
		refused, err error
	}
	done := make(chan result, 1)
	go func() {
		b, refused, err := exchange(dot, engine, format)
		done <- result{b, refused, err}
	}()
	select {
	case r := <-done:
		if r.err != nil { // the worker is gone or garbled: start afresh
			stopWorker(nil)
			return nil, true, fmt.Errorf("graphviz worker: %w", r.err)
		}
		return r.b, false, r.refused
	case <-ctx.Done():
		stopWorker(func() { <-done })
		return nil, false, TimeoutError()
	}
}

// exchange sends one request and reads its answer: the output, or the
// layout's refusal; err is the worker failing to answer at all.
func exchange(dot []byte, engine, format string) (out []byte, refused, err error) {
	if err := writeMessage(worker.in, workRequest{Engine: engine, Format: format, Size: len(dot)}, dot); err != nil {
		return nil, nil, err
	}
	line, err := worker.out.ReadBytes('\n')
	if err != nil {
		return nil, nil, err
	}
	var ans workAnswer
	if err := json.Unmarshal(line, &ans); err != nil {
		return nil, nil, fmt.Errorf("answer %q: %w", line, err)
	}
	switch {
	case ans.Invalid:
		return nil, site.Errorf(site.EInvalid, "%s", ans.Error), nil
	case ans.Error != "":
		return nil, errors.New(ans.Error), nil
	}
	out = make([]byte, ans.Size)
	_, err = io.ReadFull(worker.out, out)
	return out, nil, err
}

func startWorker() error {
	cmd := exec.Command(worker.exe)
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("graphviz worker: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("graphviz worker: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("graphviz worker: %w", err)
	}
	worker.cmd, worker.in, worker.out, worker.pid = cmd, bufio.NewWriterSize(in, 64<<10), bufio.NewReaderSize(out, 64<<10), cmd.Process.Pid
	return nil
}

// stopWorker kills the worker, runs drained (which waits until nothing
// reads its pipes any more), and reaps it.
func stopWorker(drained func()) {
	worker.cmd.Process.Kill()
	if drained != nil {
		drained()
	}
	worker.cmd.Wait()
	worker.cmd, worker.in, worker.out = nil, nil, nil
}
