package export

import (
	"io"

	"siteplan/site"
)

// WriteInventory writes inventory.csv: one row a page in outline order,
// every kind (a group's, a placeholder's url is empty), with its outline
// path ("Home > Products"). A cell a spreadsheet would take for a
// formula (=, +, -, @ first) is written after an apostrophe, which the
// CSV import takes off again.
func WriteInventory(w io.Writer, t *site.Tree) error {
	in := newInventory(w, "")
	err := TreeSource(t).Walk(0, func(p *site.Page, path string, depth int) error {
		url := ""
		if p.HasURL() {
			url = t.Project.FinishURL(p, path)
		}
		return in.add(&visit{page: *p, path: path, depth: depth}, url)
	})
	if err != nil {
		return err
	}
	return in.flush()
}
