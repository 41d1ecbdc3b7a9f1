// Package sitemap reads other sites' sitemaps as search engines meet them:
// robots.txt, sitemaps, indexes, gzip, text sitemaps and CSV inventories,
// leniently and within the protocol's limits; checks them against its
// rules (siteplan check); and plans a site from its URLs (Planner). The
// files siteplan writes are package export's.
package sitemap

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"

	"siteplan/site"
)

// Opener fetches a URL from the web: its body, and the address it came
// from after redirects. The web package gives the reader one built on
// fetch, which refuses private addresses; this package never talks HTTP.
// A reading calls it from more than one goroutine at once.
type Opener func(ctx context.Context, url string) (body io.ReadCloser, final string, err error)

// Reader reads every sitemap a source leads to: a site (its robots.txt's
// Sitemap: lines, else /sitemap.xml), a sitemap, sitemap index or text
// sitemap by URL, or a file on disk.
type Reader struct {
	Web      Opener         // nil: sources on the web are refused
	Local    bool           // sources may be files on this machine: the CLI's, never a visitor's
	Progress func(Progress) // called after each file and every 10,000 URLs; may be nil
	MaxFiles int            // sitemap files read, and rows of the report, at most (default 1,000)
	MaxURLs  int            // past this many URLs the reading stops with EInvalid (0: no bound)
	Check    bool           // apply the URL rules to every URL (siteplan check)
	// Whole stops the reading at the first file read only in part
	// (Document.Cut), with EInvalid naming it: an import, which makes no
	// plan of part of a file, need read no further.
	Whole bool
}

// SourceFile is one file a reading read, or tried to.
type SourceFile struct {
	Loc   string `json:"loc"`             // its URL, or its path on disk
	Final string `json:"final,omitempty"` // where the URL led after redirects, if elsewhere
	From  string `json:"from,omitempty"`  // the robots.txt or index that named it; "" for the source itself
	Document
	Err string `json:"error,omitempty"` // why it could not be read at all; "" if it was
}

// Reading is what a reading found: the files in the order they were read,
// the first MaxFiles of them, and how many more were listed. A row's
// strings are clipped (site.Clip), so a report takes at most some 10 KB a row
// however long the addresses and errors a site sends.
type Reading struct {
	Source string `json:"source"`
	Robots string `json:"robots,omitempty"` // the robots.txt read, if the source was a site
	// RobotsNote says why the robots.txt gave no sitemap, when it gave
	// none and the usual /sitemap.xml was read instead.
	RobotsNote string        `json:"robots_note,omitempty"`
	Files      []*SourceFile `json:"files"`
	Unread     int           `json:"unread,omitempty"` // files listed past MaxFiles, neither read nor kept
	URLs       int           `json:"urls"`             // URLs found in urlsets and text sitemaps
}

// Errors counts the error problems, each as often as it was met, and
// the unreadable files of a reading.
func (r *Reading) Errors() int {
	n := 0
	for _, f := range r.Files {
		if f.Err != "" {
			n++
		}
		n += f.count(true)
	}
	return n
}

// Warnings counts the warnings of a reading, each as often as it was met.
func (r *Reading) Warnings() int {
	n := 0
	for _, f := range r.Files {
		n += f.count(false)
	}
	return n
}

// count counts the file's errors or warnings, each as often as met.
func (f *SourceFile) count(errs bool) int {
	n := 0
	for _, p := range f.Problems {
		if p.Error == errs {
			n += p.Count
		}
	}
	return n
}

// Read reads source and calls found for every URL of every urlset and
// text sitemap it leads to, with the file it is in (the Found is reused:
// copy what you keep). Files that cannot be read, and everything wrong
// with those that can, are in the report. The error is found's, ctx's, or
// an *UnreadableError when the source leads to nothing readable at all.
func (r *Reader) Read(ctx context.Context, source string, found func(*SourceFile, *Found) error) (*Reading, error) {
	rep := &Reading{Source: source}
	rd := r.start(ctx, rep, found)
	defer rd.finish()
	loc, site, err := r.classify(source)
	if err != nil {
		return rep, err
	}
	if site {
		err = rd.site(loc)
	} else {
		rd.listed++
		err = rd.read(loc, "", 0)
	}
	if err != nil {
		return rep, err
	}
	return rep, rd.readable()
}

func (r *Reader) start(ctx context.Context, rep *Reading, found func(*SourceFile, *Found) error) *reader {
	rd := &reader{Reader: r, ctx: ctx, rep: rep, found: found, seen: map[string]*SourceFile{}, maxFiles: r.MaxFiles, ahead: map[string]*pending{}}
	if rd.maxFiles <= 0 {
		rd.maxFiles = 1000
	}
	if r.Check {
		rd.rules = newRules()
	}
	return rd
}

// readable is an *UnreadableError if no file could be read.
func (rd *reader) readable() error {
	for _, f := range rd.rep.Files {
		if f.Err == "" {
			return nil
		}
	}
	return &UnreadableError{Source: rd.rep.Source, Why: rd.rep.Files[0].Err}
}

func (rd *reader) progress() {
	if rd.Progress != nil {
		n := len(rd.rep.Files) + rd.rep.Unread
		rd.Progress(Progress{Files: n, Listed: max(rd.listed, n), URLs: rd.rep.URLs})
	}
}

// Progress is how far a reading has got.
type Progress struct {
	Files  int // files read, or given up on
	Listed int // files known: the source, and those the robots.txt and indexes list
	URLs   int // URLs found
}

// ReadUpload reads a file a visitor sent, named name (its extension
// tells a CSV), as Read reads a source: the files an index in it lists
// are read from the web. Errors: as Read's.
func (r *Reader) ReadUpload(ctx context.Context, name string, body io.Reader, found func(*SourceFile, *Found) error) (*Reading, error) {
	rep := &Reading{Source: name}
	rd := r.start(ctx, rep, found)
	defer rd.finish()
	f := &SourceFile{Loc: name}
	rd.seen[name] = f
	rd.rep.Files = append(rd.rep.Files, f)
	rd.listed++
	p := rd.begin(name, func(context.Context) (io.ReadCloser, string, error) { return io.NopCloser(body), name, nil })
	<-p.opened
	if err := rd.readBody(f, p, 0); err != nil {
		return rep, err
	}
	return rep, rd.readable()
}

// UnreadableError is a source that led to no file that could be read.
type UnreadableError struct{ Source, Why string }

func (e *UnreadableError) Error() string {
	return "Could not read a sitemap from " + e.Source + ": " + e.Why
}

// classify tells a URL from a path: an existing file is read from disk;
// an http or https URL, or a bare domain such as example.com, from the
// web. A site's root (no path, or "/") means its robots.txt.
func (r *Reader) classify(source string) (loc string, isSite bool, err error) {
	s := strings.TrimSpace(source)
	if r.Local && !strings.Contains(s, "://") {
		if _, err := os.Stat(s); err == nil {
			return s, false, nil
		} else if looksLikeFile(s) {
			return "", false, &UnreadableError{Source: source, Why: "no such file."}
		}
	}
	if t := site.WithScheme(s); t != s && !strings.ContainsAny(s, "/\\") {
		s = t + "/" // a bare domain: its site
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false, &UnreadableError{Source: source, Why: "it is neither a file here nor an http(s) address or domain."}
	}
	if r.Web == nil {
		return "", false, &UnreadableError{Source: source, Why: "reading from the web is not available here."}
	}
	u.Fragment = ""
	return u.String(), (u.Path == "" || u.Path == "/") && u.RawQuery == "", nil
}

// looksLikeFile reports whether a source names a file rather than a
// domain: a path, or a name with a sitemap file's extension.
func looksLikeFile(s string) bool {
	if strings.ContainsAny(s, `/\`) || strings.HasPrefix(s, ".") {
		return true
	}
	ext := strings.ToLower(path.Ext(s))
	return ext == ".xml" || ext == ".gz" || ext == ".txt" || ext == ".csv" || ext == ".json"
}

type reader struct {
	*Reader
	ctx      context.Context
	rep      *Reading
	found    func(*SourceFile, *Found) error
	seen     map[string]*SourceFile
	rules    *rules
	maxFiles int
	listed   int // files known so far
	// Reading ahead (ahead.go): the files being read before their
	// turn, the files an index lists and how many of them were started.
	ahead   map[string]*pending
	queue   []string
	queued  int
	workers sync.WaitGroup
}

// site reads a site's robots.txt and follows its Sitemap: lines; without
// any, it reads /sitemap.xml.
func (rd *reader) site(root string) error {
	u, _ := url.Parse(root)
	robots := u.Scheme + "://" + u.Host + "/robots.txt"
	rd.rep.Robots = robots
	listed, why := rd.robots(robots)
	var from string
	if len(listed) > 0 {
		from = robots
	} else {
		listed = []string{u.Scheme + "://" + u.Host + "/sitemap.xml"}
		from = robots + " (" + why + "; tried the usual place)"
		rd.rep.RobotsNote = why
	}
	rd.listed += len(listed)
	for _, loc := range listed {
		if err := rd.read(loc, from, 0); err != nil {
			return err
		}
	}
	return nil
}

// robots returns the Sitemap: lines of a robots.txt (any case, as the
// protocol has it), or why there are none.
func (rd *reader) robots(loc string) ([]string, string) {
	body, _, err := rd.Web(rd.ctx, loc)
	if err != nil {
		return nil, "robots.txt could not be read: " + err.Error()
	}
	defer body.Close()
	var out []string
	sc := bufio.NewScanner(io.LimitReader(body, 500<<10)) // Google reads the first 500 KiB
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), "sitemap") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	if len(out) == 0 {
		return nil, "robots.txt has no Sitemap: line"
	}
	return out, ""
}

// stoppedWhile is the error of a file whose reading was cancelled or ran
// out of time.
const stoppedWhile = "the reading was stopped while this file was read"

// read reads one file, and for an index the files it lists. Past
// maxFiles rows a file is only counted: an index may list 50,000.
func (rd *reader) read(loc, from string, depth int) error {
	if err := rd.ctx.Err(); err != nil {
		return err
	}
	if len(rd.rep.Files) >= rd.maxFiles {
		rd.rep.Unread++
		return nil
	}
	f := &SourceFile{Loc: site.Clip(loc, site.MaxURLLen), From: from}
	rd.rep.Files = append(rd.rep.Files, f)
	if prev, ok := rd.seen[loc]; ok {
		f.Err = fmt.Sprintf("already read (named by %s); an index that lists itself or an earlier file makes a loop", cmp.Or(prev.From, "the source"))
		return nil
	}
	if len(loc) > site.MaxURLLen {
		f.Err = fmt.Sprintf("not read: its address is longer than the %d characters a sitemap's may have", site.MaxURLLen)
		return nil
	}
	rd.seen[loc] = f
	p := rd.fetch(loc)
	<-p.opened
	if p.final != loc {
		f.Final = site.Clip(p.final, site.MaxURLLen)
	}
	if err := p.openErr; err != nil {
		// Only the reading's own end stops it: a file that timed out
		// alone (no headers in time, a body too slow) fails alone,
		// though its error may say DeadlineExceeded too.
		if ctxErr := rd.ctx.Err(); ctxErr != nil {
			f.Err = stoppedWhile
			return ctxErr
		}
		// The row is under the file's address already: "answered 404
		// Not Found", not the address again.
		f.Err = site.Clip(strings.TrimPrefix(err.Error(), loc+" "), maxErrLen)
		rd.progress()
		return nil
	}
	return rd.readBody(f, p, depth)
}

// readBody reads file f, opened, and for an index the files it lists.
func (rd *reader) readBody(f *SourceFile, p *pending, depth int) error {
	loc, from, final := f.Loc, f.From, p.final
	var children []string
	var ps problems   // the URL rules' findings
	var stopped error // found's, or the URL limit's
	doc, err := p.take(func(d *Document, u *Found) error {
		if d.Kind == KindIndex {
			children = append(children, u.Loc)
			return nil
		}
		rd.rep.URLs++
		if rd.rep.URLs%10_000 == 0 {
			rd.progress()
		}
		if rd.MaxURLs > 0 && rd.rep.URLs > rd.MaxURLs {
			stopped = site.Errorf(site.EInvalid, "The site lists more than %d URLs, more than a reading here takes; the siteplan check and import commands read any number.", rd.MaxURLs)
			return stopped
		}
		if rd.rules != nil {
			rd.rules.check(&ps, final, u)
		}
		if rd.found == nil {
			return nil
		}
		f.Kind = d.Kind // known by now: found may ask
		stopped = rd.found(f, u)
		return stopped
	})
	nested := doc.Kind == KindIndex && depth > 0
	if nested {
		ps.add("nested-index", true, 0, "This sitemap index is listed by the index %s; the protocol allows no index inside an index, so the %d files it lists were not read.", from, len(children))
	}
	f.Document = *doc
	f.Problems = append(f.Problems, ps.list...)
	if !nested {
		rd.listed += len(children)
	}
	rd.progress()
	if stopped != nil {
		return stopped
	}
	if rd.Whole && doc.Cut != "" {
		return site.Errorf(site.EInvalid, "%s could not be read to its end: %s Nothing was imported; correct the file and import it again.", f.Loc, doc.Cut)
	}
	if err != nil {
		if ctxErr := rd.ctx.Err(); ctxErr != nil {
			f.Err = stoppedWhile
			return ctxErr
		}
		f.Err = site.Clip("reading stopped: "+err.Error(), maxErrLen)
		return nil
	}
	if nested {
		return nil
	}
	for i, child := range children { // none unless this is an index
		children[i] = rd.resolve(final, child)
	}
	rd.expect(children)
	for _, child := range children {
		if err := rd.read(child, loc, depth+1); err != nil {
			return err
		}
	}
	if rd.rep.Unread > 0 {
		rd.progress() // the files past the bound are counted as done
	}
	return nil
}

// resolve makes a location an index lists absolute, as the protocol
// wants it already.
func (rd *reader) resolve(index, loc string) string {
	u, err := url.Parse(loc)
	if err != nil || u.IsAbs() || !strings.Contains(index, "://") {
		return loc
	}
	base, err := url.Parse(index)
	if err != nil {
		return loc
	}
	return base.ResolveReference(u).String()
}

// open opens a file on disk or the web, and says where it came from.
func (rd *reader) open(ctx context.Context, loc string) (io.ReadCloser, string, error) {
	if !strings.Contains(loc, "://") && rd.Local {
		f, err := os.Open(loc)
		return f, loc, err
	}
	if rd.Web == nil {
		return nil, loc, errors.New("reading from the web is not available here")
	}
	body, final, err := rd.Web(ctx, loc)
	if final == "" {
		final = loc
	}
	return body, final, err
}

// maxErrLen bounds a file's error as a report keeps it.
const maxErrLen = 1000

// Size is roughly the bytes the reading keeps: its rows' strings and
// problems, and a row's own fields.
func (r *Reading) Size() int64 {
	n := int64(len(r.Source) + len(r.Robots) + len(r.RobotsNote))
	for _, f := range r.Files {
		n += 200 + int64(len(f.Loc)+len(f.Final)+len(f.From)+len(f.Err))
		for _, p := range f.Problems {
			n += 64 + int64(len(p.Rule)+len(p.Msg))
			for _, a := range p.Also {
				n += 16 + int64(len(a))
			}
		}
	}
	return n
}
