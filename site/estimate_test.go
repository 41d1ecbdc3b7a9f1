package site

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// issueCard is the rate card docs/cli.md shows.
const issueCard = `{"currency": "EUR", "hourly_rate": 95, "types": {"product": {"first_hours": 16, "each_hours": 1.5},
	"*": {"first_hours": 8, "each_hours": 2}}, "blocks": {"*": 0.5}, "per_100_words_hours": 0.25,
	"fixed": [{"name": "Discovery", "hours": 24}], "margin_percent": 15}`

func mustCard(t *testing.T, js string) RateCard {
	t.Helper()
	c, err := ParseRateCard(strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestParseRateCard reads the documented card exactly (no float on the
// way), writes it back as it reads it, and refuses what it cannot hold.
func TestParseRateCard(t *testing.T) {
	c := mustCard(t, issueCard)
	if c.Currency != "EUR" || c.HourlyRate != 9500 || c.Types["product"].EachHours != 15000 || c.Blocks["*"] != 5000 ||
		c.Per100Words != 2500 || c.MarginBP != 1500 || c.Fixed[0].Hours != 240000 || c.Rounding != 1 {
		t.Errorf("read %+v", c)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if back := mustCard(t, string(b)); back.HourlyRate != c.HourlyRate || back.Types["*"] != c.Types["*"] || back.MarginBP != c.MarginBP {
		t.Errorf("written back %s, read again %+v", b, back)
	}
	if jpy := mustCard(t, `{"currency": "jpy", "hourly_rate": 12000}`); jpy.HourlyRate != 12000 || jpy.Currency != "JPY" {
		t.Errorf("yen have no minor unit: %+v", jpy)
	}
	for _, tt := range []struct{ js, want string }{
		{`{"currency": "euro", "hourly_rate": 95}`, "currency"},
		{`{"currency": "EUR", "hourly_rate": 95.555}`, "hourly_rate: 95.555 has more than 2 decimals"},
		{`{"currency": "EUR", "hourly_rate": 1e3}`, "without an exponent"},
		{`{"currency": "EUR", "hourly_rate": 95, "types": {"x": {"each_hours": -1}}}`, "types.x.each_hours: -1 is negative"},
		{`{"currency": "EUR", "hourly_rate": 95, "colour": "red"}`, "unknown field"},
		{`{"currency": "EUR", "hourly_rate": 95, "fixed": [{"hours": 2}]}`, "fixed[0]: name"},
	} {
		if _, err := ParseRateCard(strings.NewReader(tt.js)); ErrorCode(err) != EInvalid || !strings.Contains(ErrorMessage(err), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.js, err, tt.want)
		}
	}
}

// estimateFixture is a hand-computed plan: Home (landing), Shop with a
// product template and 3 products (two blocks each), About (no type,
// 600 words), a placeholder and a group that cost nothing.
func estimateFixture(products int) *Tree {
	pages := []Page{
		{ID: 1, Title: "Home", Kind: KindPage, Placement: PlacementMain, Type: "landing"},
		{ID: 2, ParentID: 1, Title: "Shop", Kind: KindGroup, Position: 0},
		{ID: 3, ParentID: 1, Title: "About", Kind: KindPage, Position: 1, Brief: Brief{WordTarget: 600}},
		{ID: 4, ParentID: 1, Title: "Later", Kind: KindPlaceholder, Position: 2},
	}
	for i := 0; i < products; i++ {
		pages = append(pages, Page{ID: int64(10 + i), ParentID: 2, Title: "Product " + strconv.Itoa(i), Kind: KindPage, Type: "product", Position: i,
			Brief: Brief{Blocks: []Block{{Kind: "hero"}, {Kind: "text"}}}})
	}
	return NewTree(Project{Name: "Fixture", BaseURL: "https://fixture.example/"}, pages)
}

// TestEstimateByHand: each line of the fixture's estimate as computed by
// hand with the documented card, the margin on the sum, the total the
// sum of the lines; and between two versions, "+14 product pages".
func TestEstimateByHand(t *testing.T) {
	c := mustCard(t, issueCard)
	e := c.Estimate(estimateFixture(4), 0)
	type line struct {
		section, typ string
		pages        int
		hours        string
		amount       int64
	}
	// Home: landing at "*": 8 h template = €760.
	// About: no type: its own template at "*" 8 h + 600 words × 0.25 / 100 = 1.5 h → 9.5 h = €902.50.
	// Shop: product template 16 h + 3 × 1.5 h + 4 × 2 blocks × 0.5 h = 24.5 h = €2,327.50.
	// Discovery 24 h = €2,280. Sum €6,270.00; margin 15% = €940.50; total €7,210.50.
	want := []line{{"Home", "landing", 1, "8", 76000}, {"Shop", "product", 4, "24.5", 232750}, {"About", "", 1, "9.5", 90250}}
	if len(e.Lines) != 5 {
		t.Fatalf("lines %+v", e.Lines)
	}
	for i, w := range want {
		l := e.Lines[i]
		if l.Section != w.section || l.Type != w.typ || l.Pages != w.pages || l.Hours.String() != w.hours || l.AmountMinor != w.amount {
			t.Errorf("line %d: %+v, want %+v", i, l, w)
		}
	}
	if f := e.Lines[3]; f.Kind != LineFixed || f.AmountMinor != 228000 {
		t.Errorf("fixed %+v", f)
	}
	if m := e.Lines[4]; m.Kind != LineMargin || m.AmountMinor != 94050 || m.Name != "Margin 15%" {
		t.Errorf("margin %+v", m)
	}
	if e.TotalMinor != 721050 || e.TotalHours.String() != "66" || e.Pages != 6 || Money(e.TotalMinor, "EUR") != "€7,210.50" {
		t.Errorf("total %d (%s), %s h, %d pages", e.TotalMinor, Money(e.TotalMinor, "EUR"), e.TotalHours, e.Pages)
	}
	// 14 more products: 14 × (1.5 + 1) = 35 h = €3,325; the margin grows
	// by 15% of it, €498.75.
	changes := CompareEstimates(e, c.Estimate(estimateFixture(18), 0))
	var words []string
	for _, ch := range changes {
		words = append(words, ch.Words("EUR"))
	}
	if got := strings.Join(words, "; "); got != "+14 product pages, +35 h, +€3,325.00; Margin 15%, +€498.75" {
		t.Errorf("changes: %s", got)
	}
}

// TestEstimateLarge computes a 10,000-page plan's estimate and checks it
// against an independent computation with exact fractions: every line's
// amount, and the totals equal the sum of the lines to the cent.
func TestEstimateLarge(t *testing.T) {
	card := mustCard(t, `{"currency": "CHF", "hourly_rate": 137.35, "types": {"product": {"first_hours": 16.25, "each_hours": 1.33, "each_price": 4.05},
		"article": {"first_hours": 6, "each_hours": 0.75}, "*": {"first_hours": 8, "each_hours": 2}},
		"blocks": {"hero": 1.25, "faq": 0.4, "*": 0.15}, "per_100_words_hours": 0.17, "per_locale_hours": 0.35, "per_redirect_hours": 0.05,
		"fixed": [{"name": "Discovery", "hours": 24}, {"name": "QA", "hours": 12.5, "price": 300}], "margin_percent": 12.5, "rounding": 0.05}`)
	var pages []Page
	types := []string{"product", "article", "landing", ""}
	kinds := []string{"hero", "text", "faq", "cards"}
	pages = append(pages, Page{ID: 1, Title: "Home", Kind: KindPage, Placement: PlacementMain})
	for i := 2; len(pages) < 10_000; i++ {
		parent := int64(1)
		if i > 12 {
			parent = int64(2 + i%11)
		}
		p := Page{ID: int64(i), ParentID: parent, Title: "Page " + strconv.Itoa(i), Kind: KindPage, Type: types[i%len(types)], Position: i,
			Brief: Brief{WordTarget: (i * 37) % 1500}}
		if i%17 == 0 {
			p.Kind = KindPlaceholder
		}
		for b := 0; b < i%5; b++ {
			p.Brief.Blocks = append(p.Brief.Blocks, Block{Kind: kinds[(i+b)%len(kinds)]})
		}
		if i%3 == 0 {
			p.Variants = map[string]Variant{"fr": {State: VariantNotOffered}}
		}
		pages = append(pages, p)
	}
	pr := Project{Name: "Large", BaseURL: "https://large.example/", Locales: []Locale{{Tag: "de", Default: true, Prefix: "/de/"}, {Tag: "fr", Prefix: "/fr/"}, {Tag: "it", Prefix: "/it/"}}}
	tr := NewTree(pr, pages)
	e := card.Estimate(tr, 1234)

	// The independent computation: each line's hours as an exact
	// fraction, from the pages in outline order.
	rat := func(s string) *big.Rat { r, _ := new(big.Rat).SetString(s); return r }
	rate, unit := rat("137.35"), rat("0.05")
	round := func(amount *big.Rat) int64 { // to a multiple of 0.05, half up, in cents
		q := new(big.Rat).Quo(amount, unit)
		n := new(big.Int).Quo(new(big.Int).Add(new(big.Int).Mul(q.Num(), big.NewInt(2)), q.Denom()), new(big.Int).Mul(q.Denom(), big.NewInt(2)))
		return n.Int64() * 5
	}
	first := map[string]string{"product": "16.25", "article": "6"}
	each := map[string]string{"product": "1.33", "article": "0.75"}
	block := map[string]string{"hero": "1.25", "faq": "0.4"}
	type acc struct{ hours, price *big.Rat }
	lines := map[string]*acc{}
	seen := map[string]bool{}
	var order []string
	tr.Walk(func(p *Page, _ int) bool {
		if p.Kind != KindPage {
			return true
		}
		k := tr.Section(p.ID).Title + "|" + p.Type
		a := lines[k]
		if a == nil {
			a = &acc{new(big.Rat), new(big.Rat)}
			lines[k] = a
			order = append(order, k)
		}
		f, ok := first[p.Type]
		if !ok {
			f = "8"
		}
		ea, ok := each[p.Type]
		if !ok {
			ea = "2"
		}
		if !seen[p.Type] {
			seen[p.Type] = true
			a.hours.Add(a.hours, rat(f))
		} else {
			a.hours.Add(a.hours, rat(ea))
			if p.Type == "product" {
				a.price.Add(a.price, rat("4.05"))
			}
		}
		for _, b := range p.Brief.Blocks {
			h, ok := block[b.Kind]
			if !ok {
				h = "0.15"
			}
			a.hours.Add(a.hours, rat(h))
		}
		a.hours.Add(a.hours, new(big.Rat).Mul(big.NewRat(int64(p.Brief.WordTarget), 100), rat("0.17")))
		offered := 1 // it
		if p.Variants["fr"].State != VariantNotOffered {
			offered++
		}
		a.hours.Add(a.hours, new(big.Rat).Mul(big.NewRat(int64(offered), 1), rat("0.35")))
		return true
	})
	var sub int64
	for i, k := range order {
		a := lines[k]
		want := round(new(big.Rat).Add(new(big.Rat).Mul(a.hours, rate), a.price))
		if got := e.Lines[i].AmountMinor; got != want {
			t.Fatalf("line %d (%s): %d, want %d", i, k, got, want)
		}
		sub += want
	}
	for _, extra := range []struct{ hours, price string }{{"61.7", "0"}, {"24", "0"}, {"12.5", "300"}} { // 1,234 × 0.05 h of redirects
		sub += round(new(big.Rat).Add(new(big.Rat).Mul(rat(extra.hours), rate), rat(extra.price)))
	}
	margin := round(new(big.Rat).Mul(new(big.Rat).SetFrac64(sub, 100), rat("0.125")))
	if e.TotalMinor != sub+margin {
		t.Errorf("total %d, want %d", e.TotalMinor, sub+margin)
	}
	var sumAmounts int64
	var sumHours Hours
	for _, l := range e.Lines {
		sumAmounts += l.AmountMinor
		sumHours += l.Hours
	}
	if sumAmounts != e.TotalMinor || sumHours != e.TotalHours {
		t.Errorf("the lines add up to %d and %s h, the totals say %d and %s h", sumAmounts, sumHours, e.TotalMinor, e.TotalHours)
	}
	built := 0
	for _, p := range pages {
		if p.Kind == KindPage {
			built++
		}
	}
	if e.Pages != built {
		t.Errorf("%d pages estimated, want the %d of kind page", e.Pages, built)
	}
}

// BenchmarkEstimate10k prices a 10,000-page plan, against summarizing
// it (the Summary panel's counts) in the same run.
func BenchmarkEstimate10k(b *testing.B) {
	card, _ := ParseRateCard(strings.NewReader(issueCard))
	pages := []Page{{ID: 1, Title: "Home", Kind: KindPage, Placement: PlacementMain}}
	for i := 2; i <= 10_000; i++ {
		pages = append(pages, Page{ID: int64(i), ParentID: int64(1 + (i-2)/100), Title: "P", Kind: KindPage, Type: []string{"product", "article", ""}[i%3],
			Position: i, Brief: Brief{WordTarget: 600, Blocks: []Block{{Kind: "hero"}, {Kind: "text"}, {Kind: "faq"}}}})
	}
	tr := NewTree(Project{Name: "B", BaseURL: "https://b.example/"}, pages)
	b.Run("summarize", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tr.Summarize()
		}
	})
	b.Run("estimate", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			card.Estimate(tr, 0)
		}
	})
}
