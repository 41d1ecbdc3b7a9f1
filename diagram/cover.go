package diagram

import (
	"fmt"
	"strings"

	"github.com/go-pdf/fpdf"

	"siteplan/site"
)

// cover prints the PDF's cover sheet: the agency's logo (or name), the
// project and its address, who it is for, the date and the version, what
// the sheets after hold, and the sign-offs, or a box to sign in.
func (d *diagram) cover(tx *pdfText, pageW, pageH float64, logo *pdfLogo, sheets []*sheet) {
	o, pdf := d.opt, tx.pdf
	pdf.AddPage()
	acc := hex(d.accent())
	pdf.SetFillColor(int(acc.R), int(acc.G), int(acc.B))
	pdf.Rect(0, 0, pageW, 10, "F")
	left, width := 2*margin, pageW-4*margin
	y := 2 * margin
	switch {
	case logo != nil:
		h := min(48.0, logo.h)
		w := logo.w * h / logo.h
		if w > width/2 {
			w, h = width/2, logo.h*(width/2)/logo.w
		}
		pdf.ImageOptions(logo.name, left, y, w, h, false, fpdf.ImageOptions{}, 0, "")
	case o.Agency != "":
		setColor(pdf, textColor)
		tx.text(left, y+16, clipWidth(o.Agency, 16, true, width), 16, true)
	}
	y = pageH * 0.3
	setColor(pdf, d.accent())
	tx.text(left, y, strings.ToUpper(d.title()), 11, true)
	y += 40
	setColor(pdf, textColor)
	for _, line := range wrapWidth(d.tree.Project.Name, 30, true, width, 3) {
		tx.text(left, y, line, 30, true)
		y += 36
	}
	setColor(pdf, mutedColor)
	tx.text(left, y, clipWidth(d.tree.Project.BaseURL, 12, false, width), 12, false)
	y += 34
	setColor(pdf, textColor)
	if o.ClientName != "" {
		tx.text(left, y, clipWidth("Prepared for "+o.ClientName, 14, false, width), 14, false)
		y += 20
	}
	if o.Agency != "" {
		tx.text(left, y, clipWidth("by "+o.Agency, 14, false, width), 14, false)
		y += 20
	}
	y += 16
	version := "Working plan (not a saved version)"
	approvals := []string(nil)
	if len(o.Notes) > 0 {
		version, approvals = o.Notes[0], o.Notes[1:]
	}
	rows := [][2]string{
		{"Date", o.Date.Format("2 January 2006")},
		{"Version", version},
	}
	rows = append(rows, o.Facts...)
	rows = append(rows, [2]string{"Pages", d.pageSummary()}, [2]string{"Sheets", sheetSummary(sheets)})
	for _, r := range rows {
		setColor(pdf, mutedColor)
		tx.text(left, y, r[0], 10, true)
		setColor(pdf, textColor)
		tx.text(left+80, y, clipWidth(r[1], 10, false, width-80), 10, false)
		y += 16
	}
	y += 14
	setColor(pdf, mutedColor)
	tx.text(left, y, "Approval", 10, true)
	setColor(pdf, textColor)
	if len(approvals) > 0 {
		for _, a := range approvals {
			tx.text(left+80, y, clipWidth(a, 10, false, width-80), 10, false)
			y += 16
		}
		return
	}
	// A box to sign in: name, date, signature.
	pdf.SetDrawColor(148, 163, 184)
	pdf.SetLineWidth(0.6)
	pdf.SetDashPattern(nil, 0)
	bw := min(width-80, 420.0)
	pdf.Rect(left+80, y-10, bw, 58, "D")
	for i, label := range []string{"Name", "Date", "Signature"} {
		x := left + 80 + float64(i)*bw/3
		setColor(pdf, mutedColor)
		tx.text(x+6, y+42, label, 8, false)
		if i > 0 {
			pdf.Line(x, y-10, x, y+48)
		}
	}
}

// pageSummary counts the plan's pages by placement and kind, as a
// proposal's estimate wants them.
func (d *diagram) pageSummary() string {
	n, byKind := 0, map[string]int{}
	d.tree.Walk(func(p *site.Page, _ int) bool {
		n++
		byKind[p.Kind]++
		return true
	})
	parts := []string{site.Plural(n, "page", "pages")}
	for _, k := range site.Kinds {
		if k != site.KindPage && byKind[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", byKind[k], k))
		}
	}
	return strings.Join(parts, " · ")
}

// sheetSummary says what the sheets after the cover hold.
func sheetSummary(sheets []*sheet) string {
	if len(sheets) == 1 {
		return "1 sheet: the whole plan"
	}
	sections := 0
	for _, s := range sheets[1:] {
		for _, dr := range s.drawings() {
			if dr.from > 0 && dr.col == 0 && dr.row == 0 && dr.part <= 1 {
				sections++
			}
		}
	}
	out := site.Plural(len(sheets), "sheet", "sheets") + ": an overview"
	if sections > 0 {
		out += " and " + site.Plural(sections, "section", "sections")
	}
	return out
}
