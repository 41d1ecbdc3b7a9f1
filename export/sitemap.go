package export

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"siteplan/site"
)

// Protocol limits per file (sitemaps.org 0.9).
const (
	MaxURLs  = 50_000
	MaxBytes = 52_428_800
)

const (
	xmlHeader   = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	urlsetOpen  = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	urlsetClose = "</urlset>\n"
	indexOpen   = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"
	indexClose  = "</sitemapindex>\n"
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

// escapedLen is len(appendEscaped(nil, s)) without building it.
func escapedLen(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '&':
			n += 4
		case '\'', '"':
			n += 5
		case '<', '>':
			n += 3
		}
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
	return append(b, "</url>\n"...)
}

// URLSetWriter streams a <urlset>, counting URLs and bytes as it goes so
// a caller can stop before a file passes the protocol's limits.
type URLSetWriter struct {
	w       *bufio.Writer
	buf     []byte
	URLs    int
	Bytes   int64
	Lastmod string // the newest lastmod written
	newest  time.Time
}

// NewURLSetWriter writes the XML declaration and the opening tag.
func NewURLSetWriter(w io.Writer) (*URLSetWriter, error) {
	u := &URLSetWriter{w: bufio.NewWriterSize(w, 64<<10)}
	n, err := u.w.WriteString(xmlHeader + urlsetOpen)
	u.Bytes = int64(n)
	return u, err
}

// Size returns how many bytes e takes as a <url> element.
func Size(e *Entry) int {
	n := len("<url><loc></loc></url>\n") + escapedLen(e.Loc)
	if e.Lastmod != "" {
		n += len("<lastmod></lastmod>") + len(e.Lastmod)
	}
	if e.Changefreq != "" {
		n += len("<changefreq></changefreq>") + len(e.Changefreq)
	}
	if e.Priority != "" {
		n += len("<priority></priority>") + len(e.Priority)
	}
	return n
}

// Write writes one entry.
func (u *URLSetWriter) Write(e *Entry) error {
	u.buf = appendURL(u.buf[:0], e)
	n, err := u.w.Write(u.buf)
	u.Bytes += int64(n)
	u.URLs++
	if e.Lastmod != u.Lastmod && e.Lastmod != "" { // most entries share one lastmod
		if t, ok := parseW3C(e.Lastmod); ok && (u.Lastmod == "" || t.After(u.newest)) {
			u.newest, u.Lastmod = t, e.Lastmod
		}
	}
	return err
}

// Close writes the closing tag and flushes; it does not close the
// underlying writer.
func (u *URLSetWriter) Close() error {
	n, err := u.w.WriteString(urlsetClose)
	u.Bytes += int64(n)
	if err != nil {
		return err
	}
	return u.w.Flush()
}

// parseW3C parses the lastmod forms siteplan accepts.
func parseW3C(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
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

// WriteIndex writes a <sitemapindex>. Errors: EInvalid past MaxURLs entries.
func WriteIndex(w io.Writer, entries []IndexEntry) error {
	if len(entries) > MaxURLs {
		return site.Errorf(site.EInvalid, "An index can list at most %d sitemaps, got %d.", MaxURLs, len(entries))
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
	MaxURLs   int   // per file; 0 or more than MaxURLs means MaxURLs
	MaxBytes  int64 // per file, uncompressed; 0 means MaxBytes
	Gzip      bool
	BySection bool
	Dir       string // directory URL the files are published in
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

// WriteSitemaps writes entries as sitemap.xml when they fit in one file,
// else as sitemap-N.xml (or sitemap-SECTION[-N].xml) files and a
// sitemapindex in sitemap.xml (several indexes past 50,000 files). Each
// file is checked against the limits before an entry is added, so none
// passes them; memory does not grow with the number of entries. It
// returns EInvalid when there is nothing to export.
func WriteSitemaps(out Output, entries []Entry, opt SitemapOptions) (Result, error) {
	if len(entries) == 0 {
		return Result{}, site.Errorf(site.EInvalid, "Nothing to export: no page of kind “page” with “In sitemap.xml” on has a URL inside %s.", opt.Dir)
	}
	maxURLs, maxBytes := opt.MaxURLs, opt.MaxBytes
	if maxURLs <= 0 || maxURLs > MaxURLs {
		maxURLs = MaxURLs
	}
	if maxBytes <= 0 || maxBytes > MaxBytes {
		maxBytes = MaxBytes
	}
	var secs *sections
	if opt.BySection {
		secs = &sections{dir: opt.Dir, names: map[string]string{}}
	}
	groups := split(entries, secs, maxURLs, maxBytes)
	var res Result
	res.URLs = len(entries)
	if len(groups) == 1 && !opt.BySection {
		f, _, err := writeURLSet(out, "sitemap.xml", entries, false)
		if err != nil {
			return res, err
		}
		res.Files = append(res.Files, f)
		res.Sitemaps = []string{opt.Dir + "sitemap.xml"}
		if opt.Gzip {
			gz, _, err := writeURLSet(out, "sitemap.xml.gz", entries, true)
			if err != nil {
				return res, err
			}
			res.Files = append(res.Files, gz)
		}
		return res, nil
	}
	index := make([]IndexEntry, 0, len(groups))
	write := func(g group, name, lastmod string, f File) {
		res.Files = append(res.Files, f)
		index = append(index, IndexEntry{Loc: opt.Dir + name, Lastmod: lastmod})
	}
	if opt.Gzip {
		if err := writeGzipParallel(out, entries, groups, write); err != nil {
			return res, err
		}
	} else {
		for _, g := range groups {
			name := g.name + ".xml"
			f, lastmod, err := writeURLSet(out, name, entries[g.from:g.to], false)
			if err != nil {
				return res, err
			}
			write(g, name, lastmod, f)
		}
	}
	for i := 0; i*MaxURLs < len(index); i++ {
		name := "sitemap.xml"
		if i > 0 {
			name = "sitemap-index-" + strconv.Itoa(i+1) + ".xml"
		}
		part := index[i*MaxURLs : min(len(index), (i+1)*MaxURLs)]
		wc, err := out.Create(name)
		if err != nil {
			return res, err
		}
		cw := &countingWriter{w: wc}
		if err := WriteIndex(cw, part); err != nil {
			wc.Close()
			return res, err
		}
		if err := wc.Close(); err != nil {
			return res, err
		}
		res.Files = append(res.Files, File{Name: name, URLs: len(part), Size: cw.n})
		res.Sitemaps = append(res.Sitemaps, opt.Dir+name)
	}
	return res, nil
}

type group struct {
	name     string
	from, to int
}

// split plans the files: runs of entries that fit the limits, named
// sitemap-N, or sitemap-SECTION[-N] when splitting by section (entries of
// a section are contiguous in outline order; a section seen again later
// continues its numbering).
func split(entries []Entry, secs *sections, maxURLs int, maxBytes int64) []group {
	bySection := secs != nil
	section := func(i int) string {
		if secs == nil {
			return ""
		}
		return secs.of(entries[i].Loc)
	}
	var groups []group
	counts := map[string]int{}
	start, n, size := 0, 0, int64(len(xmlHeader)+len(urlsetOpen)+len(urlsetClose))
	base := int64(len(xmlHeader) + len(urlsetOpen) + len(urlsetClose))
	name := func(sec string) string {
		if !bySection {
			counts[""]++
			return "sitemap-" + strconv.Itoa(counts[""])
		}
		counts[sec]++
		if counts[sec] == 1 {
			return "sitemap-" + sec
		}
		return "sitemap-" + sec + "-" + strconv.Itoa(counts[sec])
	}
	for i := range entries {
		es := int64(Size(&entries[i]))
		newSection := bySection && i > start && section(i) != section(start)
		if i > start && (newSection || n+1 > maxURLs || size+es > maxBytes) {
			groups = append(groups, group{name(section(start)), start, i})
			start, n, size = i, 0, base
		}
		n++
		size += es
	}
	return append(groups, group{name(section(start)), start, len(entries)})
}

// writeURLSet writes one urlset file and returns it with its newest lastmod.
func writeURLSet(out Output, name string, entries []Entry, gz bool) (File, string, error) {
	wc, err := out.Create(name)
	if err != nil {
		return File{}, "", err
	}
	cw := &countingWriter{w: wc}
	var w io.Writer = cw
	var zw *gzip.Writer
	if gz {
		zw, _ = gzip.NewWriterLevel(cw, gzip.DefaultCompression)
		w = zw
	}
	u, err := NewURLSetWriter(w)
	for i := 0; err == nil && i < len(entries); i++ {
		err = u.Write(&entries[i])
	}
	if err == nil {
		err = u.Close()
	}
	if err == nil && zw != nil {
		err = zw.Close()
	}
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return File{}, "", fmt.Errorf("write %s: %w", name, err)
	}
	return File{Name: name, URLs: u.URLs, Size: cw.n}, u.Lastmod, nil
}

// writeGzipParallel compresses the files of groups on every core into
// memory (a sitemap compresses to a few percent of its size), then writes
// them to out in order, so out need not be safe for concurrent use.
func writeGzipParallel(out Output, entries []Entry, groups []group, done func(g group, name, lastmod string, f File)) error {
	type result struct {
		mem     Memory
		lastmod string
		urls    int
		err     error
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	for start := 0; start < len(groups); start += workers {
		batch := groups[start:min(len(groups), start+workers)]
		results := make([]result, len(batch))
		var wg sync.WaitGroup
		for i, g := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := &results[i]
				var f File
				f, r.lastmod, r.err = writeURLSet(&r.mem, g.name+".xml.gz", entries[g.from:g.to], true)
				r.urls = f.URLs
			}()
		}
		wg.Wait()
		for i, g := range batch {
			r := &results[i]
			if r.err != nil {
				return r.err
			}
			name := g.name + ".xml.gz"
			wc, err := out.Create(name)
			if err != nil {
				return err
			}
			n, err := wc.Write(r.mem.Files[name].Bytes())
			if cerr := wc.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("write %s: %w", name, err)
			}
			done(g, name, r.lastmod, File{Name: name, URLs: r.urls, Size: int64(n)})
		}
	}
	return nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
