package workbook

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"siteplan/site"
)

func estimateFixture(t *testing.T) (*site.Estimate, site.RateCard) {
	t.Helper()
	card, err := site.ParseRateCard(strings.NewReader(`{"currency": "EUR", "hourly_rate": 95, "types": {"product": {"first_hours": 16, "each_hours": 1.5, "each_price": 12.5},
		"*": {"first_hours": 8, "each_hours": 2}}, "blocks": {"*": 0.5}, "per_100_words_hours": 0.25, "per_redirect_hours": 0.1,
		"fixed": [{"name": "Discovery", "hours": 24}], "margin_percent": 15}`))
	if err != nil {
		t.Fatal(err)
	}
	pages := []site.Page{{ID: 1, Title: "Home", Kind: site.KindPage, Placement: site.PlacementMain},
		{ID: 2, ParentID: 1, Title: "Shop", Kind: site.KindPage, Type: "product", Brief: site.Brief{WordTarget: 350}}}
	for i := 0; i < 5; i++ {
		pages = append(pages, site.Page{ID: int64(10 + i), ParentID: 2, Title: "P" + strconv.Itoa(i), Kind: site.KindPage, Type: "product", Position: i,
			Brief: site.Brief{Blocks: []site.Block{{Kind: "hero"}}}})
	}
	return card.Estimate(site.NewTree(site.Project{Name: "X", BaseURL: "https://x.example/"}, pages), 37), card
}

// TestEstimateXLSX reads the workbook back with the library: each
// amount's stored value is siteplan's, and the workbook's own formulas,
// calculated, come to the same lines and total.
func TestEstimateXLSX(t *testing.T) {
	e, card := estimateFixture(t)
	var b bytes.Buffer
	if err := WriteEstimate(&b, e, card, "Acme: estimate of the plan"); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i, l := range e.Lines {
		cell := "O" + strconv.Itoa(7+i)
		stored, _ := f.GetCellValue("Estimate", cell, excelize.Options{RawCellValue: true})
		calc, err := f.CalcCellValue("Estimate", cell, excelize.Options{RawCellValue: true})
		want := site.Major(l.AmountMinor, "EUR")
		if err != nil || !sameNumber(stored, want) || !sameNumber(calc, want) {
			t.Errorf("line %d (%s %s): stored %q, calculated %q (%v), want %s", i, l.Kind, l.Type, stored, calc, err, want)
		}
		if formula, _ := f.GetCellFormula("Estimate", cell); formula == "" {
			t.Errorf("line %d has no formula", i)
		}
	}
	total := "O" + strconv.Itoa(7+len(e.Lines))
	calc, err := f.CalcCellValue("Estimate", total, excelize.Options{RawCellValue: true})
	if err != nil || !sameNumber(calc, site.Major(e.TotalMinor, "EUR")) {
		t.Errorf("the total calculated %q (%v), want %s", calc, err, site.Major(e.TotalMinor, "EUR"))
	}
}

// sameNumber compares two decimals as numbers to the cent.
func sameNumber(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && int64(x*100+0.5) == int64(y*100+0.5)
}
