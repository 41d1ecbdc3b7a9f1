// Package workbook writes the spreadsheets siteplan hands over as XLSX,
// with excelize: an estimate whose amounts are formulas a finance team
// can follow (hours × rate + price, rounded as the rate card rounds; the
// margin on the lines above it; the total their sum), each with the
// value siteplan computed stored beside it.
package workbook

import (
	"fmt"
	"io"
	"strconv"

	"github.com/xuri/excelize/v2"

	"siteplan/site"
)

// WriteEstimate writes an estimate as a workbook: the rate and the
// rounding in cells of their own, a row a line whose hours are the sum
// of its parts and whose amount is ROUND-ed (or MROUND-ed to the card's
// multiple) hours × rate + price, the margin on the sum of the lines
// above it, and the total their sum. Each formula's value is stored too,
// so a reader without a calculation engine sees siteplan's numbers.
func WriteEstimate(w io.Writer, e *site.Estimate, card site.RateCard, title string) error {
	f := excelize.NewFile()
	defer f.Close()
	const sheet = "Estimate"
	f.SetSheetName("Sheet1", sheet)
	digits := e.Digits
	major := func(minor int64) float64 { v, _ := strconv.ParseFloat(site.Major(minor, e.Currency), 64); return v }
	hoursVal := func(h site.Hours) float64 { v, _ := strconv.ParseFloat(h.String(), 64); return v }
	set := func(cell string, v any) { f.SetCellValue(sheet, cell, v) }
	set("A1", title)
	set("A2", "Currency")
	set("B2", e.Currency)
	set("A3", "Hourly rate")
	set("B3", major(card.HourlyRate))
	set("A4", "Round each amount to")
	set("B4", major(card.Rounding))
	heads := []string{"Kind", "Section", "Type", "Name", "Pages", "Templates", "Old URLs", "Template h", "Page h", "Block h", "Word h", "Locale h", "Hours", "Price", "Amount"}
	for i, h := range heads {
		cell, _ := excelize.CoordinatesToCellName(i+1, 6)
		set(cell, h)
	}
	round := fmt.Sprintf("ROUND(%%s,%d)", digits)
	if card.Rounding > 1 {
		round = "MROUND(%s,$B$4)"
	}
	row := 7
	first := row
	for _, l := range e.Lines {
		r := strconv.Itoa(row)
		for i, v := range []any{l.Kind, l.Section, l.Type, l.Name, l.Pages, l.Templates, l.Count} {
			cell, _ := excelize.CoordinatesToCellName(i+1, row)
			set(cell, v)
		}
		for i, h := range []site.Hours{l.TemplateHours, l.PageHours, l.BlockHours, l.WordHours, l.LocaleHours} {
			cell, _ := excelize.CoordinatesToCellName(8+i, row)
			set(cell, hoursVal(h))
		}
		set("N"+r, major(l.PriceMinor))
		set("M"+r, hoursVal(l.Hours))
		set("O"+r, major(l.AmountMinor))
		switch l.Kind {
		case site.LineMargin:
			f.SetCellFormula(sheet, "O"+r, fmt.Sprintf(round, fmt.Sprintf("SUM(O%d:O%d)*%d/10000", first, row-1, card.MarginBP)))
		case site.LinePages:
			f.SetCellFormula(sheet, "M"+r, fmt.Sprintf("SUM(H%s:L%s)", r, r))
			fallthrough
		default:
			f.SetCellFormula(sheet, "O"+r, fmt.Sprintf(round, "M"+r+"*$B$3+N"+r))
		}
		row++
	}
	r := strconv.Itoa(row)
	set("A"+r, "Total")
	set("E"+r, e.Pages)
	set("M"+r, hoursVal(e.TotalHours))
	set("O"+r, major(e.TotalMinor))
	f.SetCellFormula(sheet, "M"+r, fmt.Sprintf("SUM(M%d:M%d)", first, row-1))
	f.SetCellFormula(sheet, "O"+r, fmt.Sprintf("SUM(O%d:O%d)", first, row-1))
	money, err := f.NewStyle(&excelize.Style{NumFmt: 4}) // #,##0.00
	if err != nil {
		return err
	}
	if digits == 0 {
		money, _ = f.NewStyle(&excelize.Style{NumFmt: 3}) // #,##0
	}
	f.SetCellStyle(sheet, "N7", "O"+r, money)
	f.SetCellStyle(sheet, "B3", "B4", money)
	bold, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	f.SetCellStyle(sheet, "A6", "O6", bold)
	f.SetColWidth(sheet, "B", "D", 22)
	_, err = f.WriteTo(w)
	return err
}
