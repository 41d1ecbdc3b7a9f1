package export

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"siteplan/site"
)

const (
	xmlHeader  = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	urlsetOpen = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	// A localized plan's urlset declares the namespace of its hreflang
	// alternates.
	urlsetLocalized = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n"
	urlsetClose     = "</urlset>\n"
	indexOpen       = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	indexClose      = "</sitemapindex>\n"
)

// escaper writes the five entities the sitemaps protocol names. (encoding/xml
// would write numeric references for quotes; both are valid XML, these are
// what the protocol's own table shows.) Control characters cannot occur:
// URLs are percent-encoded and the other values are validated.
var escaper = strings.NewReplacer("&", "&amp;", "'", "&apos;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")

// appendEscaped appends s with the five entities escaped.
func appendEscaped(b []byte, s string) []byte {
	if escapedLen(s) == len(s) {
		return append(b, s...)
	}
	return append(b, escaper.Replace(s)...)
}

// escapeExtra is how many bytes escaping adds to each byte value.
var escapeExtra = [256]uint8{'&': 4, '\'': 5, '"': 5, '<': 3, '>': 3}

// escapedLen is len(appendEscaped(nil, s)) without building it.
func escapedLen(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		n += int(escapeExtra[s[i]])
	}
	return n
}

// appendURL appends one <url> element.
func appendURL(b []byte, e *Entry) []byte {
	b = append(b, "<url><loc>"...)
	b = appendEscaped(b, e.Loc)
	b = append(b, "</loc>"...)
	if e.Lastmod != "" {
		b = append(b, "<lastmod>"...)
		b = append(b, e.Lastmod...)
		b = append(b, "</lastmod>"...)
	}
	if e.Changefreq != "" {
		b = append(b, "<changefreq>"...)
		b = append(b, e.Changefreq...)
		b = append(b, "</changefreq>"...)
	}
	if e.Priority != "" {
		b = append(b, "<priority>"...)
		b = append(b, e.Priority...)
		b = append(b, "</priority>"...)
	}
	for _, a := range e.Alternates { // after priority: the XSD's order
		b = append(b, `<xhtml:link rel="alternate" hreflang="`...)
		b = appendEscaped(b, a.Hreflang)
		b = append(b, `" href="`...)
		b = appendEscaped(b, a.Href)
		b = append(b, `"/>`...)
	}
	return append(b, "</url>\n"...)
}

// newest tracks the newest lastmod of a file.
type newest struct {
	lastmod string
	t       time.Time
}

func (n *newest) see(lastmod string) {
	if lastmod == n.lastmod || lastmod == "" { // most entries share one lastmod
		return
	}
	if t, ok := parseW3C(lastmod); ok && (n.lastmod == "" || t.After(n.t)) {
		n.t, n.lastmod = t, lastmod
	}
}

// parseW3C parses the lastmod forms siteplan accepts.
func parseW3C(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02", time.RFC3339Nano, "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// IndexEntry is one <sitemap> of an index.
type IndexEntry struct {
	Loc     string
	Lastmod string
}

// WriteIndex writes a <sitemapindex>. Errors: EInvalid past site.MaxSitemapURLs entries.
func WriteIndex(w io.Writer, entries []IndexEntry) error {
	if len(entries) > site.MaxSitemapURLs {
		return site.Errorf(site.EInvalid, "An index can list at most %d sitemaps, got %d.", site.MaxSitemapURLs, len(entries))
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(xmlHeader + indexOpen)
	for _, e := range entries {
		bw.Write(appendEscaped([]byte("<sitemap><loc>"), e.Loc))
		bw.WriteString("</loc>")
		if e.Lastmod != "" {
			bw.WriteString("<lastmod>" + e.Lastmod + "</lastmod>")
		}
		bw.WriteString("</sitemap>\n")
	}
	bw.WriteString(indexClose)
	return bw.Flush()
}

// File is one file an export wrote.
type File struct {
	Name string
	URLs int   // URLs in a sitemap, sitemaps in an index
	Size int64 // bytes written (compressed for .gz)
}

// Output creates the files of an export: a directory, a zip, memory.
type Output interface {
	Create(name string) (io.WriteCloser, error)
}

// SitemapOptions shape how the sitemap files are split.
type SitemapOptions struct {
	MaxURLs   int   // per file; 0 or more than site.MaxSitemapURLs means site.MaxSitemapURLs
	MaxBytes  int64 // per file, uncompressed; 0 means site.MaxSitemapBytes
	Gzip      bool
	BySection bool
	Dir       string // directory URL the files are published in
	// Localized: the entries carry hreflang alternates and their
	// sections are locale tags, a file (or more) each under one index.
	Localized bool
}

// Result lists what WriteSitemaps wrote and the URLs robots.txt should name.
type Result struct {
	Files    []File
	URLs     int
	Sitemaps []string // absolute URLs for robots.txt: the index(es), or the one sitemap
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// WriteSitemaps streams entries into sitemap.xml when they fit in one
// file, else into sitemap-N.xml (or sitemap-SECTION[-N].xml) files and a
// sitemapindex in sitemap.xml (several indexes past 50,000 files). An entry
// goes into the current file only if the file stays within the limits, so
// none passes them. It holds at most a few files' bytes at a time (gzip
// runs on every core), so memory does not grow with the number of entries.
// It returns EInvalid when there is nothing to export.
func WriteSitemaps(out Output, entries Entries, opt SitemapOptions) (Result, error) {
	s := newSplitter(out, opt)
	return s.close(entries(s.add))
}

// close ends the files after the last entry (err: what stopped the
// entries, if anything), writes the index or indexes, and says what was
// written. It returns EInvalid when there was nothing to export.
func (s *splitter) close(err error) (Result, error) {
	if err == nil {
		err = s.finish()
	}
	s.stop()
	if err == nil {
		err = s.err()
	}
	if err != nil {
		return s.res, err
	}
	if s.res.URLs == 0 {
		return s.res, site.Errorf(site.EInvalid, "Nothing to export: no page of kind “page” with “In sitemap.xml” on has a URL inside %s.", s.opt.Dir)
	}
	for i := 0; i*site.MaxSitemapURLs < len(s.index); i++ {
		name := "sitemap.xml"
		if i > 0 {
			name = "sitemap-index-" + strconv.Itoa(i+1) + ".xml"
		}
		part := s.index[i*site.MaxSitemapURLs : min(len(s.index), (i+1)*site.MaxSitemapURLs)]
		f, err := create(s.out, name, len(part), func(w io.Writer) error { return WriteIndex(w, part) })
		if err != nil {
			return s.res, err
		}
		s.res.Files = append(s.res.Files, f)
		s.res.Sitemaps = append(s.res.Sitemaps, s.opt.Dir+name)
	}
	return s.res, nil
}

// create writes one file of out with fn and returns what it wrote.
func create(out Output, name string, urls int, fn func(io.Writer) error) (File, error) {
	wc, err := out.Create(name)
	if err != nil {
		return File{}, err
	}
	cw := &countingWriter{w: wc}
	err = fn(cw)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return File{}, fmt.Errorf("write %s: %w", name, err)
	}
	return File{Name: name, URLs: urls, Size: cw.n}, nil
}

// writeBytes returns a create function that writes b.
func writeBytes(b []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}
}

// chunk is one urlset file: its bytes, built in memory, and once
// compressed its gzip bytes.
type chunk struct {
	name    string
	section string
	buf     []byte
	gz      bytes.Buffer
	urls    int
	newest  newest
	err     error
	done    chan struct{}
}

// splitter cuts a stream of entries into files and hands them to the
// writer: in order, and through gzip workers when compressing.
type splitter struct {
	out      Output
	opt      SitemapOptions
	maxURLs  int
	maxBytes int
	secs     *sections
	counts   map[string]int
	cur      *chunk // the file being filled
	held     *chunk // the first full file, held until a second shows whether an index is needed
	split    bool
	work     chan *chunk // to the gzip workers
	order    chan *chunk // to the writer, in file order
	workers  sync.WaitGroup
	writer   sync.WaitGroup
	failed   atomic.Pointer[error]
	res      Result
	index    []IndexEntry
}

func newSplitter(out Output, opt SitemapOptions) *splitter {
	s := &splitter{out: out, opt: opt, maxURLs: opt.MaxURLs, maxBytes: int(opt.MaxBytes), counts: map[string]int{}, split: opt.BySection || opt.Localized}
	if s.maxURLs <= 0 || s.maxURLs > site.MaxSitemapURLs {
		s.maxURLs = site.MaxSitemapURLs
	}
	if s.maxBytes <= 0 || s.maxBytes > site.MaxSitemapBytes {
		s.maxBytes = site.MaxSitemapBytes
	}
	if opt.BySection {
		s.secs = &sections{dir: opt.Dir, names: map[string]string{}}
	}
	workers := 1
	if opt.Gzip {
		workers = max(1, runtime.GOMAXPROCS(0))
	}
	s.order = make(chan *chunk, workers+1)
	s.writer.Add(1)
	go s.write()
	if opt.Gzip {
		s.work = make(chan *chunk) // handed straight to an idle worker: fewer files in memory
		for range workers {
			s.workers.Add(1)
			go s.compress()
		}
	}
	return s
}

// add puts e into the current file, or starts a new file when e would take
// the current one past a limit or into another section. (It appends first
// and takes the entry back in the rare case that it does not fit.)
func (s *splitter) add(e *Entry) error {
	sec := e.Section
	if s.secs != nil && sec == "" {
		sec = s.secs.of(e.Loc)
	}
	if c := s.cur; c != nil && (sec != c.section || c.urls+1 > s.maxURLs) {
		if err := s.emit(); err != nil {
			return err
		}
	}
	if s.cur == nil {
		s.cur = s.chunk(sec)
	}
	c := s.cur
	n := len(c.buf)
	if c.buf = appendURL(c.buf, e); len(c.buf)+len(urlsetClose) > s.maxBytes && c.urls > 0 {
		c.buf = c.buf[:n]
		if err := s.emit(); err != nil {
			return err
		}
		c = s.chunk(sec)
		s.cur, c.buf = c, appendURL(c.buf, e)
	}
	c.urls++
	c.newest.see(e.Lastmod)
	s.res.URLs++
	return nil
}

// chunks recycles file buffers across exports: a full file is a few
// megabytes, and building each one from scratch kept the garbage collector
// busy rescanning the tree.
var chunks = sync.Pool{New: func() any { return &chunk{buf: make([]byte, 0, 64<<10)} }}

// chunk returns an empty file.
func (s *splitter) chunk(section string) *chunk {
	c := chunks.Get().(*chunk)
	c.buf, c.urls, c.newest, c.err = c.buf[:0], 0, newest{}, nil
	c.gz.Reset()
	c.section, c.done = section, make(chan struct{})
	if s.opt.Localized {
		c.buf = append(c.buf, xmlHeader+urlsetLocalized...)
	} else {
		c.buf = append(c.buf, xmlHeader+urlsetOpen...)
	}
	return c
}

// emit closes the current file and sends it on. The first file waits in
// held: if no second file comes, it is the single sitemap.xml.
func (s *splitter) emit() error {
	c := s.cur
	s.cur = nil
	c.buf = append(c.buf, urlsetClose...)
	if !s.split {
		if s.held == nil {
			s.held = c
			return nil
		}
		s.split = true
		if err := s.send(s.held); err != nil {
			return err
		}
		s.held = nil
	}
	return s.send(c)
}

// send names a file of a split export and queues it for writing.
func (s *splitter) send(c *chunk) error {
	if err := s.err(); err != nil {
		return err
	}
	s.counts[c.section]++
	switch n := s.counts[c.section]; {
	case !s.opt.BySection && !s.opt.Localized:
		c.name = "sitemap-" + strconv.Itoa(n)
	case n == 1:
		c.name = "sitemap-" + c.section
	default:
		c.name = "sitemap-" + c.section + "-" + strconv.Itoa(n)
	}
	c.name += ".xml"
	if s.opt.Gzip {
		c.name += ".gz"
		s.work <- c
	} else {
		close(c.done)
	}
	s.order <- c
	return nil
}

// finish emits the last file; when there was only one, it is sitemap.xml.
func (s *splitter) finish() error {
	if s.cur != nil {
		if err := s.emit(); err != nil {
			return err
		}
	}
	c := s.held
	if c == nil {
		return nil
	}
	f, err := create(s.out, "sitemap.xml", c.urls, writeBytes(c.buf))
	if err != nil {
		return err
	}
	s.res.Files = append(s.res.Files, f)
	s.res.Sitemaps = []string{s.opt.Dir + "sitemap.xml"}
	if s.opt.Gzip {
		if err := gzipChunk(c, nil); err != nil {
			return err
		}
		f, err := create(s.out, "sitemap.xml.gz", c.urls, writeBytes(c.gz.Bytes()))
		if err != nil {
			return err
		}
		s.res.Files = append(s.res.Files, f)
	}
	return nil
}

// stop waits for the workers and the writer to finish.
func (s *splitter) stop() {
	if s.work != nil {
		close(s.work)
		s.workers.Wait()
	}
	close(s.order)
	s.writer.Wait()
}

// err returns the first error of the writer.
func (s *splitter) err() error {
	if p := s.failed.Load(); p != nil {
		return *p
	}
	return nil
}

// compress is a gzip worker.
func (s *splitter) compress() {
	defer s.workers.Done()
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
	for c := range s.work {
		c.err = gzipChunk(c, zw)
		close(c.done)
	}
}

// gzipChunk compresses c.buf into c.gz, with zw when given.
func gzipChunk(c *chunk, zw *gzip.Writer) error {
	if zw == nil {
		zw, _ = gzip.NewWriterLevel(&c.gz, gzip.DefaultCompression)
	} else {
		zw.Reset(&c.gz)
	}
	if _, err := zw.Write(c.buf); err != nil {
		return err
	}
	return zw.Close()
}

// write writes the files in order as they are ready and lists them in the
// index. After a failure it only drains the queue.
func (s *splitter) write() {
	defer s.writer.Done()
	for c := range s.order {
		<-c.done
		err := c.err
		if err == nil && s.err() == nil {
			data := c.buf
			if s.opt.Gzip {
				data = c.gz.Bytes()
			}
			var f File
			if f, err = create(s.out, c.name, c.urls, writeBytes(data)); err == nil {
				s.res.Files = append(s.res.Files, f)
				s.index = append(s.index, IndexEntry{Loc: s.opt.Dir + c.name, Lastmod: c.newest.lastmod})
			}
		}
		if err != nil {
			s.failed.CompareAndSwap(nil, &err)
		}
		chunks.Put(c)
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
