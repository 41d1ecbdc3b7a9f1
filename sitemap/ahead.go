package sitemap

import (
	"context"
	"io"
	"path"
	"strings"

	"siteplan/site"
)

// Each file a reading reads is fetched and parsed by a goroutine of its
// own, which hands the entries over in batches; the reader's goroutine
// takes them in file order and does the rest (found, the URL rules,
// progress), as if it had parsed the file itself. So parsing, the
// slower half, runs beside what found does with the URLs (planning an
// import), and the next file an index lists is fetched while one is
// being taken. What waits in between is bounded by entries, not files:
// a file runs at most aheadBatches batches ahead of its taker, and at
// most readAhead files are read before their turn.
const (
	aheadBatch   = 512 // entries a batch
	aheadBatches = 8   // batches a file may have waiting
	readAhead    = 1   // files read before their turn
)

// batch is entries of one file, in order, and the file's kind.
type batch struct {
	kind  string
	found []Found
}

// pending is a file being read by its goroutine.
type pending struct {
	opened  chan struct{} // closed once the file is open (or could not be): final and openErr are set
	final   string
	openErr error
	batches chan batch // closed once the file is read: doc and err are set
	doc     *Document
	err     error
	cancel  context.CancelFunc
}

// opener opens one file for a pending reading.
type opener func(ctx context.Context) (io.ReadCloser, string, error)

// begin starts reading the file at loc, which open opens.
func (rd *reader) begin(loc string, open opener) *pending {
	ctx, cancel := context.WithCancel(rd.ctx)
	p := &pending{opened: make(chan struct{}), batches: make(chan batch, aheadBatches), cancel: cancel}
	rd.workers.Add(1)
	go func() {
		defer rd.workers.Done()
		defer close(p.batches)
		body, final, err := open(ctx)
		p.final, p.openErr = final, err
		close(p.opened)
		if err != nil {
			return
		}
		defer body.Close()
		readFile := ReadDocument
		if strings.EqualFold(path.Ext(loc), ".csv") {
			readFile = ReadCSV
		}
		var b batch
		send := func() error {
			select {
			case p.batches <- b:
				b = batch{}
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		p.doc, p.err = readFile(body, func(d *Document, u *Found) error {
			if b.found == nil {
				b = batch{kind: d.Kind, found: make([]Found, 0, aheadBatch)}
			}
			if b.found = append(b.found, *u); len(b.found) == aheadBatch {
				return send()
			}
			return nil
		})
		if len(b.found) > 0 { // what was read before an error is handed over too, as when found saw it at once
			if err := send(); err != nil && p.err == nil {
				p.err = err
			}
		}
	}()
	return p
}

// take hands found each entry of the file in order, and returns the
// document and the error of its reading; an error of found's stops the
// reading and is returned.
func (p *pending) take(found func(*Document, *Found) error) (*Document, error) {
	defer p.cancel()
	for b := range p.batches {
		d := Document{Kind: b.kind}
		for i := range b.found {
			if err := found(&d, &b.found[i]); err != nil {
				p.cancel()
				for range p.batches { // until the goroutine has stopped and set doc
				}
				return p.doc, err
			}
		}
	}
	return p.doc, p.err
}

// expect names the files an index lists, to be read in this order: the
// next ones are read ahead while one is taken.
func (rd *reader) expect(locs []string) {
	rd.queue, rd.queued = locs, 0
	rd.fill()
}

// fill starts the files expected next, up to readAhead, that the reading
// will read: not read already, and within the bound on files.
func (rd *reader) fill() {
	for len(rd.ahead) < readAhead && rd.queued < len(rd.queue) {
		loc := rd.queue[rd.queued]
		rd.queued++
		if _, ok := rd.seen[loc]; ok || rd.ahead[loc] != nil || len(loc) > site.MaxURLLen || len(rd.rep.Files)+len(rd.ahead) >= rd.maxFiles {
			continue
		}
		rd.ahead[loc] = rd.begin(loc, func(ctx context.Context) (io.ReadCloser, string, error) { return rd.open(ctx, loc) })
	}
}

// fetch returns the reading of the file at loc: the one started ahead,
// or one started now.
func (rd *reader) fetch(loc string) *pending {
	p := rd.ahead[loc]
	if p == nil {
		p = rd.begin(loc, func(ctx context.Context) (io.ReadCloser, string, error) { return rd.open(ctx, loc) })
	}
	delete(rd.ahead, loc)
	rd.fill()
	return p
}

// finish stops the files read ahead that were not taken, and waits for
// every goroutine of the reading.
func (rd *reader) finish() {
	for _, p := range rd.ahead {
		p.cancel()
	}
	rd.workers.Wait()
}
