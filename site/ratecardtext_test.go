package site

import (
	"reflect"
	"strings"
	"testing"
)

// TestRateCardText: the documented card shown in its form and read back
// from it is the same card; a decimal comma and blank rows are what a
// person types; every field that cannot be read is named as the form
// names it, with what to fix.
func TestRateCardText(t *testing.T) {
	c := mustCard(t, issueCard)
	text := c.Text()
	if len(text.Types) != 2 || text.Types[0].Type != "product" || text.Types[1].Type != AnyKind || text.Types[0].EachHours != "1.5" ||
		text.HourlyRate != "95" || text.Margin != "15" || text.Fixed[0] != (FixedLineText{"Discovery", "24", ""}) {
		t.Errorf("the form shows %+v", text)
	}
	back, err := text.Card()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, c) {
		t.Errorf("read back from the form:\n%+v\nwant\n%+v", back, c)
	}

	typed := text
	typed.Types = append(typed.Types, TypeRateText{}, TypeRateText{Type: " blog ", EachHours: "0,75", EachPrice: "12,5"})
	typed.Blocks = append([]BlockRateText{{}}, typed.Blocks...)
	typed.Fixed = append(typed.Fixed, FixedLineText{}, FixedLineText{Name: "QA", Price: "1200.50"})
	got, err := typed.Card()
	if err != nil {
		t.Fatal(err)
	}
	if got.Types["blog"] != (TypeRate{EachHours: 7500, EachPrice: 1250}) || len(got.Types) != 3 || len(got.Blocks) != 1 ||
		len(got.Fixed) != 2 || got.Fixed[1] != (FixedLine{Name: "QA", Price: 120050}) {
		t.Errorf("typed rows read as %+v", got)
	}

	for _, tt := range []struct {
		edit         func(*RateCardText)
		field, words string
	}{
		{func(r *RateCardText) { r.HourlyRate = "95.555" }, "hourly_rate", "Hourly rate: 95.555 has more than 2 decimals"},
		{func(r *RateCardText) { r.HourlyRate = "" }, "hourly_rate", "give the rate"},
		{func(r *RateCardText) { r.HourlyRate = "ninety" }, "hourly_rate", "write a number such as 1.5, not “ninety”"},
		{func(r *RateCardText) { r.Types[1].EachHours = "-2" }, "types.1.each_hours", "Page type “*”, hours of each other page: -2 is negative"},
		{func(r *RateCardText) { r.Types[1].Type = "product" }, "types.1.type", "“product” has a row already above"},
		{func(r *RateCardText) { r.Types = append(r.Types, TypeRateText{EachHours: "2"}) }, "types.2.type", "Name the page type"},
		{func(r *RateCardText) { r.Blocks[0].Hours = "1." }, "blocks.0.hours", "write a number"},
		{func(r *RateCardText) { r.Fixed[0].Name = " " }, "fixed.0.name", "Give each fixed line a name"},
		{func(r *RateCardText) { r.Currency = "euro" }, "currency", "Currency: \"EURO\" is no ISO 4217 code"},
		{func(r *RateCardText) { r.Margin = "1500" }, "margin_percent", "Margin percent: at most 1000"},
		{func(r *RateCardText) { r.Clients = "all" }, "clients", "Clients: \"all\" is none"},
	} {
		r := c.Text()
		tt.edit(&r)
		_, err := r.Card()
		if ErrorCode(err) != EInvalid || !strings.Contains(ErrorFields(err)[tt.field], tt.words) {
			t.Errorf("%s: got %v %q, want %q", tt.field, err, ErrorFields(err), tt.words)
		}
	}
}
