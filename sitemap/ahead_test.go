package sitemap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"siteplan/site"
)

// countedBody is a file's body that counts what was read of it and
// whether it was closed.
type countedBody struct {
	r      io.Reader
	read   *atomic.Int64
	closed *atomic.Bool
}

func (b countedBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read.Add(int64(n))
	return n, err
}

func (b countedBody) Close() error { b.closed.Store(true); return nil }

// TestReadAhead: the next file an index lists is fetched while the URLs
// of one are handed to found, which still sees every URL in file order;
// a file runs only a few batches ahead of found, and when found stops
// the reading, the files' reading stops too, and is over when Read
// returns.
func TestReadAhead(t *testing.T) {
	big := make([]string, site.MaxSitemapURLs)
	for i := range big {
		big[i] = fmt.Sprintf("https://example.com/p/%d", i)
	}
	files := map[string][]byte{
		"https://example.com/index.xml": indexOf("https://example.com/1.xml", "https://example.com/2.xml", "https://example.com/3.xml"),
		"https://example.com/1.xml":     urlsetOf(big...),
		"https://example.com/2.xml":     urlsetOf("https://example.com/two"),
		"https://example.com/3.xml":     urlsetOf("https://example.com/three"),
	}
	var mu sync.Mutex
	opened := map[string]chan struct{}{}
	read := map[string]*atomic.Int64{}
	closed := map[string]*atomic.Bool{}
	for loc := range files {
		opened[loc], read[loc], closed[loc] = make(chan struct{}), &atomic.Int64{}, &atomic.Bool{}
	}
	open := func(_ context.Context, loc string) (io.ReadCloser, string, error) {
		mu.Lock()
		defer mu.Unlock()
		close(opened[loc]) // a file opened twice panics
		return countedBody{bytes.NewReader(files[loc]), read[loc], closed[loc]}, loc, nil
	}
	waitOpened := func(loc string) bool {
		select {
		case <-opened[loc]:
			return true
		case <-time.After(10 * time.Second):
			return false
		}
	}

	var got []string
	rep, err := (&Reader{Web: open}).Read(context.Background(), "https://example.com/index.xml", func(_ *SourceFile, u *Found) error {
		if len(got) == 0 && !waitOpened("https://example.com/2.xml") {
			t.Error("2.xml was not fetched while 1.xml's URLs were taken")
		}
		got = append(got, u.Loc)
		return nil
	})
	if err != nil || rep.URLs != site.MaxSitemapURLs+2 {
		t.Fatalf("read: %v, %d URLs", err, rep.URLs)
	}
	want := append(big, "https://example.com/two", "https://example.com/three")
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Error("the URLs were not handed over in file order")
	}

	// Untaken, 1.xml is read only until aheadBatches batches wait; when
	// found stops at its first URL, the reading of 1.xml and of 2.xml
	// (started ahead) stop, and are over when the reading finishes.
	for loc := range files {
		opened[loc], read[loc], closed[loc] = make(chan struct{}), &atomic.Int64{}, &atomic.Bool{}
	}
	rd := (&Reader{Web: open}).start(context.Background(), &Reading{}, nil)
	rd.expect([]string{"https://example.com/1.xml", "https://example.com/2.xml", "https://example.com/3.xml"})
	p := rd.fetch("https://example.com/1.xml")
	for deadline := time.Now().Add(10 * time.Second); len(p.batches) < cap(p.batches); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("1.xml: %d batches wait, want %d", len(p.batches), cap(p.batches))
		}
	}
	// What was read: the batches waiting, one being filled, and what the
	// parser buffers (two 64 KiB buffers and the decoder's).
	if n, bound := read["https://example.com/1.xml"].Load(), int64((aheadBatches+1)*aheadBatch*len("<url><loc>https://example.com/p/49999</loc></url>\n")+200<<10); n > bound {
		t.Errorf("1.xml: %d bytes read while nobody took it, want at most %d", n, bound)
	}
	stop := errors.New("enough")
	if _, err := p.take(func(*Document, *Found) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("take: got %v, want found's error", err)
	}
	rd.finish()
	for _, loc := range []string{"https://example.com/1.xml", "https://example.com/2.xml"} {
		if !closed[loc].Load() {
			t.Errorf("%s is still being read after the reading finished", loc)
		}
	}
	select {
	case <-opened["https://example.com/3.xml"]:
		t.Error("3.xml was read ahead of its turn")
	default:
	}
}
