package export

import (
	"bufio"
	"encoding/csv"
	"io"
	"strings"

	"siteplan/site"
)

// WriteInventory writes inventory.csv: one row a page in outline order,
// every kind (a group's, a placeholder's url is empty), with its outline
// path ("Home > Products"). A cell a spreadsheet would take for a
// formula (=, +, -, @ first) is written after an apostrophe, which the
// CSV import takes off again.
func WriteInventory(w io.Writer, t *site.Tree) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	cw := csv.NewWriter(bw)
	if err := cw.Write(site.InventoryColumns); err != nil {
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
			row[i] = site.DefuseCell(row[i])
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
