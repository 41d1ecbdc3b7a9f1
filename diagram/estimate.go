package diagram

import (
	"siteplan/diagram/internal/fonts"
	"siteplan/site"
)

// estimateSheet prints the options' estimate after the sheets, under the
// title block "Estimate": a row a line (what, pages, hours, amount, the
// numbers aligned right), rules between them, and the total in bold; or
// the total alone.
func (d *diagram) estimateSheet(tx *pdfText, pageW, pageH float64, logo *pdfLogo) {
	const size, lineH = 9.5, 16.0
	e, pdf := d.opt.Estimate, tx.pdf
	top, bottom := margin+d.titleBlockHeight(tx, pageW)+10, pageH-margin
	right := pageW - margin
	cols := [3]float64{right - 230, right - 130, right} // the right edges of pages, hours, amount
	y := bottom
	row := func(cells [4]string, bold bool) {
		if y+lineH > bottom {
			pdf.AddPage()
			d.titleBlock(tx, pageW, logo, "Estimate, "+e.Currency)
			y = top
			if !d.opt.EstimateTotalOnly {
				setColor(pdf, mutedColor)
				head := [4]string{"", "Pages", "Hours", "Amount"}
				for i, h := range head[1:] {
					tx.text(cols[i]-fonts.Measure(h, 8, true), y+10, h, 8, true)
				}
				y += lineH
			}
		}
		y += lineH
		setColor(pdf, textColor)
		tx.text(margin, y-4, clipWidth(cells[0], size, bold, cols[0]-margin-60), size, bold)
		for i, c := range cells[1:] {
			tx.text(cols[i]-fonts.Measure(c, size, bold), y-4, c, size, bold)
		}
		pdf.SetDrawColor(226, 232, 240)
		pdf.SetLineWidth(0.5)
		pdf.Line(margin, y, right, y)
	}
	if !d.opt.EstimateTotalOnly {
		for _, l := range e.Lines {
			what, pages := l.Label(), ""
			switch l.Kind {
			case site.LinePages:
				pages = num(float64(l.Pages))
			case site.LineRedirects:
				what += " (" + site.Plural(l.Count, "old URL", "old URLs") + ")"
			}
			hours := ""
			if l.Hours != 0 {
				hours = l.Hours.String() + " h"
			}
			row([4]string{what, pages, hours, site.Money(l.AmountMinor, e.Currency)}, false)
		}
	}
	row([4]string{"Total", num(float64(e.Pages)), e.TotalHours.String() + " h", site.Money(e.TotalMinor, e.Currency)}, true)
}
