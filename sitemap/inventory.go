package sitemap

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"

	"siteplan/site"
)

// InventoryColumns are inventory.csv's columns. url, title, type,
// status, assignee, notes, priority, changefreq and lastmod are the ones
// a CSV import reads back.
var InventoryColumns = []string{"url", "title", "type", "status", "assignee", "notes", "priority", "changefreq", "lastmod", "kind", "placement", "in_sitemap", "outline"}

// WriteInventory writes inventory.csv: one row a page in outline order,
// every kind (a group's, a placeholder's url is empty), with its outline
// path ("Home > Products"). A cell a spreadsheet would take for a
// formula (=, +, -, @ first) is written after an apostrophe, which the
// CSV import takes off again.
func WriteInventory(w io.Writer, t *site.Tree) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	cw := csv.NewWriter(bw)
	if err := cw.Write(InventoryColumns); err != nil {
		return err
	}
	var trail []*site.Page // the page's ancestors, and itself
	var err error
	t.WalkURLs(0, func(p *site.Page, url string) bool {
		for len(trail) > 0 && trail[len(trail)-1].ID != p.ParentID {
			trail = trail[:len(trail)-1]
		}
		trail = append(trail, p)
		titles := make([]string, len(trail))
		for i, a := range trail {
			titles[i] = a.Title
		}
		priority := ""
		if p.Priority != nil {
			priority = site.FormatPriority(*p.Priority)
		}
		inSitemap := "no"
		if p.InSitemap {
			inSitemap = "yes"
		}
		row := []string{url, p.Title, p.Type, p.Status, p.Assignee, p.Notes, priority, p.Changefreq, p.Lastmod,
			p.Kind, p.Placement, inSitemap, strings.Join(titles, " > ")}
		for i := range row {
			row[i] = defused(row[i])
		}
		err = cw.Write(row)
		return err == nil
	})
	if err != nil {
		return err
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// defused puts an apostrophe before a cell a spreadsheet would run as a
// formula.
func defused(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// undefused takes off the apostrophe defused put on.
func undefused(s string) string {
	if len(s) > 1 && s[0] == '\'' && strings.ContainsRune("=+-@\t\r", rune(s[1])) {
		return s[1:]
	}
	return s
}

// readCSV reads a page inventory: a header row naming the columns (url
// required; title, type, status, assignee, notes, priority, changefreq,
// lastmod read; others ignored), separated by , or ;, then a row a page.
func readCSV(in *bufio.Reader, doc *Document, ps *problems, found func(*Document, *Found) error) error {
	doc.Kind = KindCSV
	head, _ := in.Peek(4096)
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	cr := csv.NewReader(in)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	if bytes.Count(head, []byte(";")) > bytes.Count(head, []byte(",")) {
		cr.Comma = ';'
	}
	header, err := cr.Read()
	if err != nil {
		ps.add("csv", true, 1, "The CSV file has no header row: %v.", err)
		return errStop
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	if _, ok := col["url"]; !ok {
		ps.add("csv", true, 1, "The CSV file's header row has no url column; name the columns url, title, type, status, assignee, notes, priority, changefreq, lastmod.")
		return errStop
	}
	cell := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return undefused(strings.TrimSpace(rec[i]))
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
		doc.URLs++
		if err := found(doc, &f); err != nil {
			return foundErr{err}
		}
	}
}
