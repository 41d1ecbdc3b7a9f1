package graphviz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"siteplan/site"
)

// hangEnv makes a test worker read its requests and never answer.
const hangEnv = "DIAGRAM_TEST_WORKER_HANGS"

// TestMain lets this test binary be its own Graphviz worker.
func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" && os.Getenv(hangEnv) == "1" {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
	ServeIfWorker()
	os.Exit(m.Run())
}

// inWorker makes the test's renders run in a worker process.
func inWorker(t *testing.T) {
	t.Helper()
	if err := UseWorkerProcess(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		gv.lock <- struct{}{}
		if worker.cmd != nil {
			stopWorker(nil)
		}
		worker.exe = ""
		<-gv.lock
	})
}

// TestWorkerDrawsAsThisProcess: a graph laid out in a worker process
// is the one this process lays out, the node positions the radial
// diagrams are drawn from, and Graphviz's refusals come back as
// they are.
func TestWorkerDrawsAsThisProcess(t *testing.T) {
	var dot bytes.Buffer
	dot.WriteString(`digraph { root=p0; node [shape=plaintext]; `)
	for i := 1; i < 40; i++ {
		fmt.Fprintf(&dot, `p%d [label=<<table border="1"><tr><td>Page %d</td></tr></table>>]; p%d -> p%d; `, i, i, (i-1)/3, i)
	}
	dot.WriteString("}")
	want := map[string][]byte{}
	for _, f := range []string{Positions} {
		b, err := Render(context.Background(), dot.Bytes(), Twopi, f)
		if err != nil {
			t.Fatalf("%s in this process: %v", f, err)
		}
		want[f] = b
	}
	inWorker(t)
	for f, w := range want {
		b, err := Render(context.Background(), dot.Bytes(), Twopi, f)
		if err != nil {
			t.Fatalf("%s in a worker: %v", f, err)
		}
		if !bytes.Equal(b, w) {
			t.Errorf("%s laid out in a worker differs from this process's (%d bytes, want %d)", f, len(b), len(w))
		}
	}
	if worker.cmd == nil || worker.pid == os.Getpid() {
		t.Fatalf("no worker process ran the layouts")
	}
	_, err := Render(context.Background(), []byte("digraph {"), "dot", Positions)
	if site.ErrorCode(err) != site.EInvalid {
		t.Errorf("bad DOT in a worker: %v, want EInvalid", err)
	}
	if _, err := Render(context.Background(), []byte("digraph { a -> b }"), "dot", Positions); err != nil {
		t.Errorf("the worker after a refusal: %v", err)
	}
}

// TestWorkerStoppedWhenGivenUp: a layout given up on ends its worker at
// once (it does not run on, holding Graphviz from the next render), and
// the next render starts another worker. So does a worker that died.
func TestWorkerStoppedWhenGivenUp(t *testing.T) {
	inWorker(t)
	t.Setenv(hangEnv, "1") // this worker reads the request and never answers
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := Render(ctx, []byte("digraph { a -> b }"), "dot", Positions)
	if site.ErrorCode(err) != site.ETooLarge {
		t.Fatalf("a layout that never ends: %v, want the timeout error", err)
	}
	hung := worker.pid
	if err := syscall.Kill(hung, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the worker of a layout given up on still runs (signal 0: %v)", err)
	}

	os.Unsetenv(hangEnv)
	// The next renders get a (generous) deadline, so that a worker left
	// hanging fails the test instead of blocking it.
	small := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := Render(ctx, []byte("digraph { a -> b }"), "dot", Positions)
		return err
	}
	if err := small(); err != nil {
		t.Fatalf("the render after one given up on: %v", err)
	}
	if worker.pid == hung {
		t.Errorf("the next render used the stopped worker")
	}

	killed := worker.pid
	syscall.Kill(killed, syscall.SIGKILL) // as the kernel does to a worker using too much memory
	worker.cmd.Wait()
	if err := small(); err != nil {
		t.Fatalf("the render after the worker was killed: %v", err)
	}
	if worker.pid == killed {
		t.Errorf("the render after the worker was killed used it")
	}
}
