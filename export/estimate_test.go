package export

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

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

// TestEstimateCSV: a row a line and the total, money in major units.
func TestEstimateCSV(t *testing.T) {
	e, _ := estimateFixture(t)
	var b bytes.Buffer
	if err := WriteEstimateCSV(&b, e); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	last := rows[len(rows)-1]
	if len(rows) != len(e.Lines)+2 || last[0] != "total" || last[14] != site.Major(e.TotalMinor, "EUR") || last[15] != "EUR" {
		t.Errorf("rows %q", rows)
	}
}
