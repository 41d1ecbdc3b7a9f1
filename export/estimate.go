package export

import (
	"encoding/csv"
	"io"
	"strconv"

	"siteplan/site"
)

// An estimate as CSV, a line a row (package workbook writes it as XLSX).

// estimateColumns are the CSV's columns (the workbook's say the same in words).
var estimateColumns = []string{"kind", "section", "type", "name", "pages", "templates", "count", "template_hours", "page_hours",
	"block_hours", "word_hours", "locale_hours", "hours", "price", "amount"}

// WriteEstimateCSV writes an estimate a line a row, then its total; money
// in major units with the currency's digits ("4650.00").
func WriteEstimateCSV(w io.Writer, e *site.Estimate) error {
	cw := csv.NewWriter(w)
	cw.Write(append(estimateColumns, "currency"))
	money := func(minor int64) string { return site.Major(minor, e.Currency) }
	for _, l := range e.Lines {
		cw.Write([]string{l.Kind, l.Section, l.Type, l.Name, num(l.Pages), num(l.Templates), num(l.Count), hours(l.TemplateHours),
			hours(l.PageHours), hours(l.BlockHours), hours(l.WordHours), hours(l.LocaleHours), l.Hours.String(), money(l.PriceMinor),
			money(l.AmountMinor), e.Currency})
	}
	cw.Write([]string{"total", "", "", "", strconv.Itoa(e.Pages), "", "", "", "", "", "", "", e.TotalHours.String(), "", money(e.TotalMinor), e.Currency})
	cw.Flush()
	return cw.Error()
}

func num(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func hours(h site.Hours) string {
	if h == 0 {
		return ""
	}
	return h.String()
}
