package sitemap

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"siteplan/site"
)

// ReadOld reads the URLs of a relaunch's old site from sources as Read
// reads each (a site, a sitemap, index or text sitemap, a page inventory
// or a crawler's CSV export, a plain list of URLs), in their order, each
// URL once, with the title and H1 a crawl gives. It stops past max URLs.
// The readings are returned for their problems. Errors: as Read's;
// EInvalid for more than max URLs, or none.
func (r *Reader) ReadOld(ctx context.Context, sources []string, max int) ([]site.OldPage, []*Reading, error) {
	c := oldCollector{max: max, seen: map[string]bool{}, skipped: map[*SourceFile]*Problem{}}
	var reps []*Reading
	for _, src := range sources {
		rep, err := r.Read(ctx, src, c.found)
		c.note()
		reps = append(reps, rep)
		if err != nil {
			return nil, reps, err
		}
	}
	if len(c.out) == 0 {
		return nil, reps, noURLs(strings.Join(sources, ", "), reps...)
	}
	return c.out, reps, nil
}

// noURLs says that a reading found no URL, and the first error that
// says why. Errors: EInvalid.
func noURLs(source string, reps ...*Reading) error {
	for _, rep := range reps {
		for _, f := range rep.Files {
			for _, p := range f.Problems {
				if p.Error {
					return site.Errorf(site.EInvalid, "%s lists no URL: %s", source, p.Msg)
				}
			}
		}
	}
	return site.Errorf(site.EInvalid, "%s lists no URL.", source)
}

// ReadOldUpload is ReadOld for a file a visitor sent, named name.
func (r *Reader) ReadOldUpload(ctx context.Context, name string, body io.Reader, max int) ([]site.OldPage, *Reading, error) {
	c := oldCollector{max: max, seen: map[string]bool{}, skipped: map[*SourceFile]*Problem{}}
	rep, err := r.ReadUpload(ctx, name, body, c.found)
	c.note()
	if err != nil {
		return nil, rep, err
	}
	if len(c.out) == 0 {
		return nil, rep, noURLs(name, rep)
	}
	return c.out, rep, nil
}

// oldCollector gathers an old site's URLs, each once, up to max.
type oldCollector struct {
	max     int
	seen    map[string]bool
	out     []site.OldPage
	skipped map[*SourceFile]*Problem // the entries left out, being no URL, by file
}

func (c *oldCollector) found(sf *SourceFile, f *Found) error {
	if !absoluteHTTP(f.Loc) {
		p := c.skipped[sf]
		if p == nil {
			p = &Problem{Rule: "not-a-url", Error: true, Line: f.Line,
				Msg: fmt.Sprintf("Line %d: %q is no absolute http or https URL; it was left out of the old site.", f.Line, site.Clip(f.Loc, 80))}
			c.skipped[sf] = p
		}
		p.Count++
		return nil
	}
	if c.seen[f.Loc] {
		return nil
	}
	if len(c.out) == c.max {
		return site.Errorf(site.EInvalid, "The old site has more than %d URLs; a plan holds at most %d. Attach the sections that matter.", c.max, c.max)
	}
	c.seen[f.Loc] = true
	c.out = append(c.out, site.OldPage{URL: f.Loc, Title: f.Title, H1: f.H1, Clicks: f.Clicks})
	return nil
}

// note adds to each file read the entries left out of it, being no URL.
func (c *oldCollector) note() {
	for sf, p := range c.skipped {
		if sf != nil {
			sf.Problems = append(sf.Problems, *p)
		}
	}
	clear(c.skipped)
}

// clickCount reads a count of clicks as exports write it, with thousands
// separators ("1,200", "1 200", "1'200"). Errors: a count that is no
// number, or below 0.
func clickCount(s string) (int, error) {
	c, err := strconv.Atoi(strings.NewReplacer(",", "", " ", "", "\u00a0", "", "'", "").Replace(strings.TrimSpace(s)))
	if err == nil && c < 0 {
		err = errors.New("a negative count")
	}
	return c, err
}

// absoluteHTTP reports whether loc is an absolute http or https URL with
// a host: what an old site's URL must be to be matched and redirected.
func absoluteHTTP(loc string) bool {
	u, err := url.Parse(loc)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// Traffic exports' columns: the page and its clicks, as Search Console's
// "Pages" export ("Top pages", "Clicks") and Analytics' CSV exports
// ("Landing page", "Page path and screen class"; "Sessions", "Views")
// name them.
var (
	pageColumns  = []string{"top pages", "page", "url", "address", "landing page", "landing page + query string", "page path and screen class", "page path", "page location"}
	clickColumns = []string{"clicks", "sessions", "views", "screen page views", "pageviews", "entrances", "users"}
)

// ReadClicks reads a traffic export (Search Console or Analytics CSV):
// the clicks of each page, summed when a page is listed twice. A path
// without a host ("/pricing", as Analytics gives it) is resolved against
// base. Comment lines (#) and blank lines before the header are skipped;
// numbers may carry thousands separators. Errors: EInvalid, naming the
// line, for a file without the columns or with a count that is no
// number.
func ReadClicks(r io.Reader, base string) (map[string]int, error) {
	in := bufio.NewReader(r)
	skipBOM(in)
	// Analytics starts with # comment lines and a blank one.
	line := 0
	for {
		b, err := in.Peek(1)
		if err != nil || (b[0] != '#' && b[0] != '\n' && b[0] != '\r') {
			break
		}
		if _, err := in.ReadString('\n'); err != nil {
			break
		}
		line++
	}
	cr := sniffCSV(in)
	header, err := cr.Read()
	if err != nil {
		return nil, site.Errorf(site.EInvalid, "The traffic file has no header row.")
	}
	find := func(names []string) int {
		for _, n := range names {
			for i, h := range header {
				if strings.EqualFold(strings.TrimSpace(h), n) {
					return i
				}
			}
		}
		return -1
	}
	pc, cc := find(pageColumns), find(clickColumns)
	if pc < 0 || cc < 0 {
		return nil, site.Errorf(site.EInvalid, "The traffic file needs a page column (Top pages, Page, Landing page, URL) and a clicks column (Clicks, Sessions, Views); its header is %q.",
			strings.Join(header, ","))
	}
	baseURL, _ := url.Parse(base)
	out := map[string]int{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, site.Errorf(site.EInvalid, "Line %d of the traffic file: %v.", pe.Line+line, pe.Err)
			}
			return nil, err
		}
		n, _ := cr.FieldPos(0)
		if pc >= len(rec) || cc >= len(rec) {
			continue
		}
		page := strings.TrimSpace(rec[pc])
		if page == "" || strings.EqualFold(page, "(not set)") || strings.EqualFold(page, "total") || strings.EqualFold(page, "grand total") {
			continue
		}
		if strings.TrimSpace(rec[cc]) == "" {
			continue
		}
		c, err := clickCount(rec[cc])
		if err != nil {
			return nil, site.Errorf(site.EInvalid, "Line %d of the traffic file: %q is not a number of clicks.", n+line, rec[cc])
		}
		if !strings.Contains(page, "://") && baseURL != nil && baseURL.Host != "" {
			if ref, err := url.Parse(page); err == nil {
				page = baseURL.ResolveReference(ref).String()
			}
		}
		out[page] += c
	}
}
