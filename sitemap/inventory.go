package sitemap

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strings"

	"siteplan/site"
)

// sniffCSV is a CSV reader of in whose separator is the one its first
// line uses most: a comma, or the semicolon or tab spreadsheets and
// analytics exports write.
func sniffCSV(in *bufio.Reader) *csv.Reader {
	head, _ := in.Peek(4096)
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	cr := csv.NewReader(in)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	commas := bytes.Count(head, []byte(","))
	if n := bytes.Count(head, []byte(";")); n > commas {
		cr.Comma = ';'
	} else if n := bytes.Count(head, []byte("\t")); n > commas {
		cr.Comma = '\t'
	}
	return cr
}

// crawlColumns are the names crawlers and Search Console give the columns
// readCSV reads: Screaming Frog's "Internal" export (Address, Title 1,
// H1-1) and Search Console's "Pages" export (Top pages, Clicks), which is
// all many agencies have of an old site.
var crawlColumns = map[string][]string{
	"url":    {"address", "top pages"},
	"title":  {"title 1"},
	"h1":     {"h1-1"},
	"clicks": {"clicks"},
}

// readCSV reads a page inventory: a header row naming the columns (url
// required; title, type, status, assignee, notes, priority, changefreq,
// lastmod read; others ignored), separated by , or ;, then a row a page.
// A crawler's export is read too (crawlColumns); when it has a Status
// Code column, rows that did not answer 2xx or 3xx are left out, noted.
func readCSV(in *bufio.Reader, doc *Document, ps *problems, found func(*Document, *Found) error) error {
	doc.Kind = KindCSV
	cr := sniffCSV(in)
	header, err := cr.Read()
	if err != nil {
		ps.add("csv", true, 1, "The CSV file has no header row: %v.", err)
		return errStop
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if _, ok := col[h]; !ok {
			col[h] = i
		}
	}
	// A crawler's export (Screaming Frog's "Internal": Address, Title 1,
	// H1-1, Status Code) names its columns its own way.
	for name, aliases := range crawlColumns {
		for _, a := range aliases {
			if i, ok := col[a]; ok {
				if _, has := col[name]; !has {
					col[name] = i
				}
			}
		}
	}
	if _, ok := col["url"]; !ok {
		ps.add("csv", true, 1, "The CSV file's header row has no url column; name the columns url, title, type, status, assignee, notes, priority, changefreq, lastmod (or export a crawl with an Address column).")
		return errStop
	}
	_, crawled := col["status code"]
	briefed := slices.ContainsFunc(site.BriefColumns, func(c string) bool { _, ok := col[c]; return ok })
	cell := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return site.UndefuseCell(strings.TrimSpace(rec[i]))
		}
		return ""
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) { // reading the file
				ps.add("csv", true, 0, "The file could not be read to its end: %v.", err)
				return errStop
			}
			// FieldPos has no field to tell of after an error.
			ps.add("csv", true, pe.Line, "Line %d: %v; reading stopped there.", pe.Line, pe.Err)
			return errStop
		}
		line, _ := cr.FieldPos(0)
		f := Found{Loc: cell(rec, "url"), Line: line, Lastmod: cell(rec, "lastmod"), Changefreq: cell(rec, "changefreq"), Priority: cell(rec, "priority"),
			Title: cell(rec, "title"), Type: cell(rec, "type"), Status: cell(rec, "status"), Assignee: cell(rec, "assignee"), Notes: cell(rec, "notes")}
		if f.Loc == "" {
			ps.add("csv-url", false, line, "Line %d: a row without a url; rows without one were left out.", line)
			continue
		}
		f.H1 = cell(rec, "h1")
		if c := cell(rec, "clicks"); c != "" {
			f.Clicks, _ = clickCount(c) // a count that is no number is no count
		}
		if briefed {
			b := site.BriefFromCells(func(c string) string { return cell(rec, c) })
			f.Brief = &b
		}
		if code := cell(rec, "status code"); crawled && !(len(code) == 3 && (code[0] == '2' || code[0] == '3')) {
			ps.add("crawl-status", false, line, "Line %d: %s answered %q when crawled; rows that did not answer 2xx or 3xx were left out.", line, f.Loc, code)
			continue
		}
		doc.URLs++
		if err := found(doc, &f); err != nil {
			return foundErr{err}
		}
	}
}
