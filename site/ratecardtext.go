package site

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// RateCardText is a rate card as its form shows and sends it: every
// amount the decimal a person types ("1.5", or "1,5"), money in the
// currency's major units, and a row for each page type, block kind and
// fixed line. Blank rows are no rows.
type RateCardText struct {
	Currency, HourlyRate                string
	Types                               []TypeRateText
	Blocks                              []BlockRateText
	Per100Words, PerLocale, PerRedirect string // hours
	Fixed                               []FixedLineText
	Margin, Rounding, Clients           string // percent; a multiple in major units; ClientsNone or ClientsTotal
}

// TypeRateText is a page type's row: its name ("*" any other type).
type TypeRateText struct{ Type, FirstHours, EachHours, FirstPrice, EachPrice string }

// BlockRateText is a content block kind's row ("*" any other kind).
type BlockRateText struct{ Kind, Hours string }

// FixedLineText is a fixed line's row.
type FixedLineText struct{ Name, Hours, Price string }

func (r TypeRateText) blank() bool  { return r == TypeRateText{} }
func (r BlockRateText) blank() bool { return r == BlockRateText{} }
func (r FixedLineText) blank() bool { return r == FixedLineText{} }

// Text is the card as its form shows it: types and block kinds by name,
// "*" last; fixed lines in their order.
func (c RateCard) Text() RateCardText {
	w := c.written()
	t := RateCardText{Currency: w.Currency, HourlyRate: w.HourlyRate.String(), Per100Words: w.Per100WordsHours.String(),
		PerLocale: w.PerLocaleHours.String(), PerRedirect: w.PerRedirectHours.String(), Margin: w.MarginPercent.String(),
		Rounding: w.Rounding.String(), Clients: c.Clients}
	for _, name := range rateKeys(w.Types) {
		r := w.Types[name]
		t.Types = append(t.Types, TypeRateText{name, r.FirstHours.String(), r.EachHours.String(), r.FirstPrice.String(), r.EachPrice.String()})
	}
	for _, kind := range rateKeys(w.Blocks) {
		t.Blocks = append(t.Blocks, BlockRateText{kind, w.Blocks[kind].String()})
	}
	for _, f := range w.Fixed {
		t.Fixed = append(t.Fixed, FixedLineText{f.Name, f.Hours.String(), f.Price.String()})
	}
	return t
}

// rateKeys are a map's keys by name, AnyKind last.
func rateKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == AnyKind) != (keys[j] == AnyKind) {
			return keys[j] == AnyKind
		}
		return keys[i] < keys[j]
	})
	return keys
}

// Card reads the form's card as ParseRateCard reads its JSON. Errors:
// EInvalid with a message for each field to fix, named as the form
// names it ("hourly_rate", "types.2.each_hours", "fixed.0.name").
func (t RateCardText) Card() (RateCard, error) {
	errs := FieldErrors{}
	currency := strings.ToUpper(strings.TrimSpace(t.Currency))
	digits := MinorDigits(currency)
	num := func(field, label, s string, scale int) json.Number {
		s = strings.TrimSpace(s)
		if !strings.Contains(s, ".") && strings.Count(s, ",") == 1 {
			s = strings.Replace(s, ",", ".", 1) // a decimal comma
		}
		if s == "" {
			return ""
		}
		if !isDecimal(strings.TrimPrefix(s, "-")) {
			errs.Add(field, label+": write a number such as 1.5, not “"+clip(s)+"”.")
		} else if _, err := parseDecimal(json.Number(s), scale); err != nil {
			errs.Add(field, label+": "+err.Error()+".")
		}
		return json.Number(s)
	}
	in := rateCardJSON{Currency: currency, HourlyRate: num("hourly_rate", "Hourly rate", t.HourlyRate, digits), Types: map[string]typeRateJSON{},
		Blocks: map[string]json.Number{}, Per100WordsHours: num("per_100_words_hours", "Per 100 words", t.Per100Words, 2),
		PerLocaleHours: num("per_locale_hours", "Per locale", t.PerLocale, 2), PerRedirectHours: num("per_redirect_hours", "Per old URL", t.PerRedirect, 2),
		MarginPercent: num("margin_percent", "Margin", t.Margin, 2), Rounding: num("rounding", "Rounding", t.Rounding, digits), Clients: t.Clients}
	if in.HourlyRate == "" {
		errs.Add("hourly_rate", "Hourly rate: give the rate an hour costs, such as 95.")
	}
	for i, r := range t.Types {
		if r.blank() {
			continue
		}
		f, name := "types."+strconv.Itoa(i)+".", strings.TrimSpace(r.Type)
		label := "Page type “" + clip(name) + "”"
		switch _, dup := in.Types[name]; {
		case name == "":
			errs.Add(f+"type", "Name the page type (or * for any other type).")
		case dup:
			errs.Add(f+"type", label+" has a row already above.")
		}
		in.Types[name] = typeRateJSON{num(f+"first_hours", label+", first page hours", r.FirstHours, 2), num(f+"each_hours", label+", hours of each other page", r.EachHours, 2),
			num(f+"first_price", label+", first page price", r.FirstPrice, digits), num(f+"each_price", label+", price of each other page", r.EachPrice, digits)}
	}
	for i, r := range t.Blocks {
		if r.blank() {
			continue
		}
		f, kind := "blocks."+strconv.Itoa(i)+".", strings.TrimSpace(r.Kind)
		switch _, dup := in.Blocks[kind]; {
		case kind == "":
			errs.Add(f+"kind", "Name the block kind (or * for any other kind).")
		case dup:
			errs.Add(f+"kind", "Block kind “"+clip(kind)+"” has a row already above.")
		}
		in.Blocks[kind] = num(f+"hours", "Block kind “"+clip(kind)+"”, hours", r.Hours, 2)
	}
	for i, r := range t.Fixed {
		if r.blank() {
			continue
		}
		f, name := "fixed."+strconv.Itoa(i)+".", strings.TrimSpace(r.Name)
		if name == "" || len(name) > 100 {
			errs.Add(f+"name", "Give each fixed line a name of at most 100 characters (“Discovery”).")
		}
		in.Fixed = append(in.Fixed, fixedLineJSON{name, num(f+"hours", "“"+clip(name)+"”, hours", r.Hours, 2), num(f+"price", "“"+clip(name)+"”, price", r.Price, digits)})
	}
	if err := errs.Err(); err != nil {
		return RateCard{}, err
	}
	c, err := in.card()
	if field, rest, ok := strings.Cut(ErrorMessage(err), ": "); ok && !strings.Contains(field, " ") {
		// currency, clients, margin_percent: the field the message starts with
		errs.Add(field, strings.ToUpper(field[:1])+strings.ReplaceAll(field[1:], "_", " ")+": "+rest)
		return RateCard{}, errs.Err()
	}
	return c, err
}

// isDecimal tells whether s is digits, or digits, a point and digits.
func isDecimal(s string) bool {
	whole, frac, point := strings.Cut(s, ".")
	digits := func(d string) bool { return d != "" && strings.Trim(d, "0123456789") == "" }
	return digits(whole) && (!point || digits(frac))
}

// ExampleRateCard is the card docs/cli.md shows: a team's form starts
// with it.
const ExampleRateCard = `{"currency": "EUR", "hourly_rate": 95, "types": {"product": {"first_hours": 16, "each_hours": 1.5},
	"*": {"first_hours": 8, "each_hours": 2}}, "blocks": {"*": 0.5}, "per_100_words_hours": 0.25,
	"fixed": [{"name": "Discovery", "hours": 24}], "margin_percent": 15}`
