package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// An estimate is what building a plan costs by a team's rate card: a
// line for each section and page type (the first page of a type costs
// its template, the rest their content, plus their briefs' content
// blocks and words and their locales), one for the redirect map's old
// URLs to review, the fixed lines, and the margin. Hours are kept in
// ten-thousandths of an hour and money in minor units (cents), never in
// floats: every line's amount is rounded once, and the total is the sum
// of the lines, to the cent, wherever it is computed.

// Hours is an amount of time in ten-thousandths of an hour (1.5 h is
// 15000), exact for the rate card's hundredths and a word's share of a
// hundred words.
type Hours int64

// HourUnit is one hour in Hours.
const HourUnit Hours = 10000

// String writes hours as a decimal without trailing zeros: "31.5".
func (h Hours) String() string { return decimalText(int64(h), 4) }

// MarshalJSON writes hours as a JSON number: 31.5.
func (h Hours) MarshalJSON() ([]byte, error) { return []byte(h.String()), nil }

// decimalText writes n / 10^scale exactly, without trailing zeros.
func decimalText(n int64, scale int) string {
	s := fixedPoint(n, scale)
	if strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// fixedPoint writes n / 10^scale exactly, with all scale digits:
// 465000 at scale 2 is "4650.00".
func fixedPoint(n int64, scale int) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.FormatInt(n, 10)
	if scale > 0 {
		for len(s) <= scale {
			s = "0" + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// parseDecimal reads a JSON number as an integer of 10^-scale units,
// exactly: "1.5" at scale 2 is 150. Errors: a number with more decimals
// than scale, in exponent form, negative, or too large.
func parseDecimal(n json.Number, scale int) (int64, error) {
	s := n.String()
	if strings.ContainsAny(s, "eE") {
		return 0, fmt.Errorf("write %s without an exponent", s)
	}
	if strings.HasPrefix(s, "-") {
		return 0, fmt.Errorf("%s is negative", s)
	}
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > scale {
		return 0, fmt.Errorf("%s has more than %d decimals", s, scale)
	}
	frac += strings.Repeat("0", scale-len(frac))
	if len(whole) > 12 {
		return 0, fmt.Errorf("%s is too large", s)
	}
	v, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s is no number", s)
	}
	return v, nil
}

// RateCard is what a team (or one project) charges.
type RateCard struct {
	Currency    string              // ISO 4217 code, upper case
	HourlyRate  int64               // in minor units
	Types       map[string]TypeRate // by page type; "*" any other, and pages without one
	Blocks      map[string]Hours    // a content block, by kind; "*" any other
	Per100Words Hours               // per 100 words of a brief's word target
	PerLocale   Hours               // a page in each locale besides the default it is offered in
	PerRedirect Hours               // an old URL of the redirect map to review
	Fixed       []FixedLine         // discovery, QA, launch
	MarginBP    int64               // the margin in basis points (15% is 1500)
	Rounding    int64               // each line's amount a multiple of this, in minor units (1: the cent)
	Clients     string              // what a client on a share link sees of an estimate: ClientsNone or ClientsTotal
}

// What clients see of an estimate: nothing (the default), or its total,
// which their sign-off then covers.
const (
	ClientsNone  = "none"
	ClientsTotal = "total"
)

// TypeRate is a page type's rate: the first page of the type (its
// template) and each other one, in hours and, added to them, a price.
type TypeRate struct {
	FirstHours, EachHours Hours
	FirstPrice, EachPrice int64 // minor units
}

// FixedLine is a line every estimate has.
type FixedLine struct {
	Name  string
	Hours Hours
	Price int64 // minor units, added to the hours' amount
}

// Whose rate card is in force on a project.
const (
	CardOfProject = "project" // its own, in place of its team's
	CardOfTeam    = "team"
)

// AnyKind is the rate card's key for any other type or block kind.
const AnyKind = "*"

// minorDigits are the currencies whose minor unit is not the hundredth
// (ISO 4217); every other has two digits.
var minorDigits = map[string]int{"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
	"UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0, "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3}

// MinorDigits is how many digits a currency's minor unit has (EUR 2,
// JPY 0, KWD 3).
func MinorDigits(currency string) int {
	if d, ok := minorDigits[currency]; ok {
		return d
	}
	return 2
}

// rateCardJSON is the rate card as people write it (docs/cli.md): money
// in major units, hours as decimals.
type rateCardJSON struct {
	Currency         string                  `json:"currency"`
	HourlyRate       json.Number             `json:"hourly_rate"`
	Types            map[string]typeRateJSON `json:"types,omitempty"`
	Blocks           map[string]json.Number  `json:"blocks,omitempty"`
	Per100WordsHours json.Number             `json:"per_100_words_hours,omitempty"`
	PerLocaleHours   json.Number             `json:"per_locale_hours,omitempty"`
	PerRedirectHours json.Number             `json:"per_redirect_hours,omitempty"`
	Fixed            []fixedLineJSON         `json:"fixed,omitempty"`
	MarginPercent    json.Number             `json:"margin_percent,omitempty"`
	Rounding         json.Number             `json:"rounding,omitempty"`
	Clients          string                  `json:"clients,omitempty"`
}

type typeRateJSON struct {
	FirstHours json.Number `json:"first_hours,omitempty"`
	EachHours  json.Number `json:"each_hours,omitempty"`
	FirstPrice json.Number `json:"first_price,omitempty"`
	EachPrice  json.Number `json:"each_price,omitempty"`
}

type fixedLineJSON struct {
	Name  string      `json:"name"`
	Hours json.Number `json:"hours,omitempty"`
	Price json.Number `json:"price,omitempty"`
}

// Bounds of a rate card.
const (
	maxRateKinds  = 500
	maxFixedLines = 50
)

// ParseRateCard reads a rate card's JSON (docs/cli.md). Errors:
// EInvalid naming the field to fix.
func ParseRateCard(r io.Reader) (RateCard, error) {
	var in rateCardJSON
	dec := json.NewDecoder(io.LimitReader(r, 1<<20))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return RateCard{}, Errorf(EInvalid, "The rate card is not the JSON siteplan reads: %v.", err)
	}
	return in.card()
}

func (in rateCardJSON) card() (RateCard, error) {
	c := RateCard{Currency: strings.ToUpper(strings.TrimSpace(in.Currency)), Types: map[string]TypeRate{}, Blocks: map[string]Hours{}}
	if len(c.Currency) != 3 || strings.Trim(c.Currency, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return c, Errorf(EInvalid, "currency: %q is no ISO 4217 code; write one such as EUR, USD or CHF.", clip(in.Currency))
	}
	digits := MinorDigits(c.Currency)
	var err error
	num := func(field string, n json.Number, scale int) int64 {
		if err != nil || n == "" {
			return 0
		}
		v, e := parseDecimal(n, scale)
		if e != nil {
			err = Errorf(EInvalid, "%s: %v.", field, e)
		}
		return v
	}
	hours := func(field string, n json.Number) Hours { return Hours(num(field, n, 2)) * (HourUnit / 100) }
	c.HourlyRate = num("hourly_rate", in.HourlyRate, digits)
	if len(in.Types)+len(in.Blocks) > maxRateKinds || len(in.Fixed) > maxFixedLines {
		return c, Errorf(EInvalid, "The rate card has more than %d types and blocks or %d fixed lines.", maxRateKinds, maxFixedLines)
	}
	for name, t := range in.Types {
		f := "types." + name
		c.Types[strings.TrimSpace(name)] = TypeRate{FirstHours: hours(f+".first_hours", t.FirstHours), EachHours: hours(f+".each_hours", t.EachHours),
			FirstPrice: num(f+".first_price", t.FirstPrice, digits), EachPrice: num(f+".each_price", t.EachPrice, digits)}
	}
	for kind, h := range in.Blocks {
		c.Blocks[strings.TrimSpace(kind)] = hours("blocks."+kind, h)
	}
	c.Per100Words = hours("per_100_words_hours", in.Per100WordsHours)
	c.PerLocale = hours("per_locale_hours", in.PerLocaleHours)
	c.PerRedirect = hours("per_redirect_hours", in.PerRedirectHours)
	for i, f := range in.Fixed {
		name := strings.TrimSpace(f.Name)
		if name == "" || len(name) > 100 {
			return c, Errorf(EInvalid, "fixed[%d]: name: give each fixed line a name of at most 100 characters (“Discovery”).", i)
		}
		c.Fixed = append(c.Fixed, FixedLine{Name: name, Hours: hours(fmt.Sprintf("fixed[%d].hours", i), f.Hours), Price: num(fmt.Sprintf("fixed[%d].price", i), f.Price, digits)})
	}
	c.MarginBP = num("margin_percent", in.MarginPercent, 2)
	c.Rounding = num("rounding", in.Rounding, digits)
	if c.Rounding == 0 {
		c.Rounding = 1
	}
	if err == nil && c.MarginBP > 100_000 {
		err = Errorf(EInvalid, "margin_percent: at most 1000.")
	}
	switch c.Clients = strings.TrimSpace(in.Clients); c.Clients {
	case "":
		c.Clients = ClientsNone
	case ClientsNone, ClientsTotal:
	default:
		if err == nil {
			err = Errorf(EInvalid, "clients: %q is none (clients see no estimate) or total (they see its total, which their sign-off covers).", clip(in.Clients))
		}
	}
	return c, err
}

// MarshalJSON writes the card as ParseRateCard reads it.
func (c RateCard) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(c.written())
	return bytes.TrimSpace(b.Bytes()), err
}

// written is the card as people write it: its JSON, and the amounts its
// form shows (RateCard.Text).
func (c RateCard) written() rateCardJSON {
	digits := MinorDigits(c.Currency)
	money := func(v int64) json.Number {
		if v == 0 {
			return ""
		}
		return json.Number(decimalText(v, digits))
	}
	hours := func(h Hours) json.Number {
		if h == 0 {
			return ""
		}
		return json.Number(h.String())
	}
	out := rateCardJSON{Currency: c.Currency, HourlyRate: json.Number(decimalText(c.HourlyRate, digits)), Types: map[string]typeRateJSON{},
		Blocks: map[string]json.Number{}, Per100WordsHours: hours(c.Per100Words), PerLocaleHours: hours(c.PerLocale),
		PerRedirectHours: hours(c.PerRedirect)}
	for name, t := range c.Types {
		out.Types[name] = typeRateJSON{hours(t.FirstHours), hours(t.EachHours), money(t.FirstPrice), money(t.EachPrice)}
	}
	for kind, h := range c.Blocks {
		out.Blocks[kind] = hours(h)
	}
	for _, f := range c.Fixed {
		out.Fixed = append(out.Fixed, fixedLineJSON{f.Name, hours(f.Hours), money(f.Price)})
	}
	if c.MarginBP != 0 {
		out.MarginPercent = json.Number(decimalText(c.MarginBP, 2))
	}
	if c.Rounding > 1 {
		out.Rounding = money(c.Rounding)
	}
	if c.Clients != ClientsNone {
		out.Clients = c.Clients
	}
	return out
}

// typeRate is the rate of a page type: its own, else "*".
func (c *RateCard) typeRate(typ string) TypeRate {
	if r, ok := c.Types[typ]; ok && typ != "" {
		return r
	}
	return c.Types[AnyKind]
}

// blockHours are a content block's hours: its kind's, else "*".
func (c *RateCard) blockHours(kind string) Hours {
	if h, ok := c.Blocks[kind]; ok {
		return h
	}
	return c.Blocks[AnyKind]
}

// amount is what hours and a price cost, rounded.
func (c *RateCard) amount(h Hours, price int64) int64 {
	return c.round(int64(h)*c.HourlyRate+price*int64(HourUnit), int64(HourUnit)) // in minor units × HourUnit
}

// round is exact / scale minor units rounded to the card's multiple
// (half up; amounts are never negative): the one place an amount, a
// line's or the margin's, is rounded.
func (c *RateCard) round(exact, scale int64) int64 {
	unit := c.Rounding * scale
	return (exact + unit/2) / unit * c.Rounding
}

// Estimate is what a plan costs by a rate card.
type Estimate struct {
	Currency   string         `json:"currency"`
	Digits     int            `json:"minor_unit_digits"`
	Lines      []EstimateLine `json:"lines"`
	Pages      int            `json:"pages"`
	TotalHours Hours          `json:"total_hours"`
	TotalMinor int64          `json:"total_minor"`
}

// Kinds of estimate line.
const (
	LinePages     = "pages"
	LineRedirects = "redirects"
	LineFixed     = "fixed"
	LineMargin    = "margin"
)

// EstimateLine is one line of an estimate: the pages of a type in a
// section (with what their hours are made of), the redirect map, a fixed
// line, or the margin.
type EstimateLine struct {
	Kind        string `json:"kind"`
	Section     string `json:"section,omitempty"`
	Type        string `json:"type,omitempty"` // "" for pages without a type
	Name        string `json:"name,omitempty"` // a fixed line's
	Pages       int    `json:"pages,omitempty"`
	Templates   int    `json:"templates,omitempty"` // pages charged as their type's first
	Count       int    `json:"count,omitempty"`     // old URLs to review
	Hours       Hours  `json:"hours"`
	AmountMinor int64  `json:"amount_minor"`
	// What a pages line's hours are made of.
	TemplateHours Hours `json:"template_hours,omitempty"`
	PageHours     Hours `json:"page_hours,omitempty"`
	BlockHours    Hours `json:"block_hours,omitempty"`
	WordHours     Hours `json:"word_hours,omitempty"`
	LocaleHours   Hours `json:"locale_hours,omitempty"`
	PriceMinor    int64 `json:"price_minor,omitempty"` // the types' prices added
}

// Label names a line for people: "Shop · product" ("Shop · no type"
// for pages without one), else its name.
func (l EstimateLine) Label() string {
	if l.Kind != LinePages {
		return l.Name
	}
	if l.Type == "" {
		return l.Section + " · no type"
	}
	return l.Section + " · " + l.Type
}

// Estimated reports whether a page is part of an estimate: a page of
// kind page (groups, placeholders and external pages are not built).
func Estimated(p *Page) bool { return p.Kind == KindPage }

// Estimate computes what plan t costs by card, with oldURLs old URLs of
// its redirect map to review: pages lines in outline order of their
// sections, then the redirects, the fixed lines and the margin.
func (c *RateCard) Estimate(t *Tree, oldURLs int) *Estimate {
	e := &Estimate{Currency: c.Currency, Digits: MinorDigits(c.Currency), Lines: []EstimateLine{}}
	def, _ := DefaultLocale(t.Project.Locales)
	seen := map[string]bool{} // the types whose first page was charged
	at := map[[2]string]int{} // section, type -> line index
	t.Walk(func(p *Page, _ int) bool {
		if !Estimated(p) {
			return true
		}
		sec := t.Section(p.ID)
		k := [2]string{sec.Title + "\x00" + strconv.FormatInt(sec.ID, 10), p.Type}
		i, ok := at[k]
		if !ok {
			i = len(e.Lines)
			at[k] = i
			e.Lines = append(e.Lines, EstimateLine{Kind: LinePages, Section: sec.Title, Type: p.Type})
		}
		l := &e.Lines[i]
		l.Pages++
		r := c.typeRate(p.Type)
		key := p.Type
		if _, own := c.Types[p.Type]; !own || p.Type == "" {
			key = AnyKind + p.Type // each type its own template, even at the "*" rate
		}
		if !seen[key] {
			seen[key] = true
			l.Templates++
			l.TemplateHours += r.FirstHours
			l.PriceMinor += r.FirstPrice
		} else {
			l.PageHours += r.EachHours
			l.PriceMinor += r.EachPrice
		}
		for _, b := range p.Brief.Blocks {
			l.BlockHours += c.blockHours(b.Kind)
		}
		l.WordHours += Hours(int64(p.Brief.WordTarget) * int64(c.Per100Words) / 100)
		l.LocaleHours += c.PerLocale * Hours(offeredElsewhere(p, t.Project.Locales, def.Tag))
		return true
	})
	for i := range e.Lines {
		l := &e.Lines[i]
		l.Hours = l.TemplateHours + l.PageHours + l.BlockHours + l.WordHours + l.LocaleHours
		l.AmountMinor = c.amount(l.Hours, l.PriceMinor)
		e.Pages += l.Pages
	}
	if oldURLs > 0 && c.PerRedirect > 0 {
		h := c.PerRedirect * Hours(oldURLs)
		e.Lines = append(e.Lines, EstimateLine{Kind: LineRedirects, Name: "Redirects to review", Count: oldURLs, Hours: h, AmountMinor: c.amount(h, 0)})
	}
	for _, f := range c.Fixed {
		e.Lines = append(e.Lines, EstimateLine{Kind: LineFixed, Name: f.Name, Hours: f.Hours, AmountMinor: c.amount(f.Hours, f.Price)})
	}
	var sub int64
	for _, l := range e.Lines {
		e.TotalHours += l.Hours
		sub += l.AmountMinor
	}
	if c.MarginBP != 0 {
		m := c.round(sub*c.MarginBP, 10000) // basis points
		e.Lines = append(e.Lines, EstimateLine{Kind: LineMargin, Name: "Margin " + decimalText(c.MarginBP, 2) + "%", AmountMinor: m})
		sub += m
	}
	e.TotalMinor = sub
	return e
}

// ToReview counts the old URLs of a redirect map a person reviews: those
// the plan does not keep at the same URL (an estimate's redirect line).
func ToReview(olds []OldURL) int {
	n := 0
	for _, o := range olds {
		if o.Disposition != DispositionKeep {
			n++
		}
	}
	return n
}

// offeredElsewhere counts the locales besides the default a page is
// offered in.
func offeredElsewhere(p *Page, locales []Locale, def string) int {
	n := 0
	for _, l := range locales {
		if l.Tag != def && p.Variants[l.Tag].State != VariantNotOffered {
			n++
		}
	}
	return n
}

// Major writes an amount of minor units in major units with all the
// currency's digits: 465000 EUR is "4650.00", 12000 JPY "12000".
func Major(minor int64, currency string) string { return fixedPoint(minor, MinorDigits(currency)) }

// Money writes an amount of minor units in a currency for people:
// "€4,650.00", "CHF 1,200.50", "¥12,000".
func Money(minor int64, currency string) string {
	neg := minor < 0
	if neg {
		minor = -minor
	}
	whole, frac, _ := strings.Cut(Major(minor, currency), ".")
	n, _ := strconv.ParseInt(whole, 10, 64)
	s := Thousands(int(n))
	if frac != "" {
		s += "." + frac
	}
	sign := ""
	if neg {
		sign = "−"
	}
	if sym, ok := currencySymbols[currency]; ok {
		return sign + sym + s
	}
	return sign + currency + " " + s
}

// currencySymbols are the currencies Money writes with a symbol; others
// with their code.
var currencySymbols = map[string]string{"EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥"}

// EstimateChange is what differs between two estimates for one page
// type (all sections together), or a fixed or other line.
type EstimateChange struct {
	Kind        string `json:"kind"`
	Type        string `json:"type,omitempty"`
	Name        string `json:"name,omitempty"`
	Pages       int    `json:"pages"`
	Hours       Hours  `json:"hours"`
	AmountMinor int64  `json:"amount_minor"`
}

// CompareEstimates lists what changed from estimate a to b, by page
// type, then the other lines; lines that did not change are left out.
// The changes add up to b's total less a's.
func CompareEstimates(a, b *Estimate) []EstimateChange {
	key := func(l EstimateLine) [3]string { return [3]string{l.Kind, l.Type, l.Name} }
	sum := map[[3]string]*EstimateChange{}
	var order [][3]string
	add := func(list []EstimateLine, sign int64) {
		for _, l := range list {
			k := key(l)
			ch := sum[k]
			if ch == nil {
				ch = &EstimateChange{Kind: l.Kind, Type: l.Type, Name: l.Name}
				sum[k] = ch
				order = append(order, k)
			}
			ch.Pages += int(sign) * l.Pages
			ch.Hours += Hours(sign) * l.Hours
			ch.AmountMinor += sign * l.AmountMinor
		}
	}
	add(a.Lines, -1)
	add(b.Lines, 1)
	var out []EstimateChange
	for _, k := range order {
		if ch := sum[k]; ch.Pages != 0 || ch.Hours != 0 || ch.AmountMinor != 0 {
			out = append(out, *ch)
		}
	}
	return out
}

// EstimateComparison is what changed from one estimate to another, as
// the API and siteplan estimate --from N --json write it.
type EstimateComparison struct {
	From           string           `json:"from,omitempty"` // what each priced: "version 2", "the plan now"
	To             string           `json:"to,omitempty"`
	Currency       string           `json:"currency"`
	Changes        []EstimateChange `json:"changes"`
	TotalMinorFrom int64            `json:"total_minor_from"`
	TotalMinorTo   int64            `json:"total_minor_to"`
}

// ChangesTo is what changed from estimate e to b: CompareEstimates (an
// empty list when nothing did) and both totals.
func (e *Estimate) ChangesTo(b *Estimate) EstimateComparison {
	changes := CompareEstimates(e, b)
	if changes == nil {
		changes = []EstimateChange{}
	}
	return EstimateComparison{Currency: b.Currency, Changes: changes, TotalMinorFrom: e.TotalMinor, TotalMinorTo: b.TotalMinor}
}

// Words says a change for people: "+14 product pages, +31 h, +€4,650.00".
func (ch EstimateChange) Words(currency string) string {
	sign := func(neg bool) string {
		if neg {
			return "−"
		}
		return "+"
	}
	var parts []string
	if ch.Pages != 0 {
		what := "pages"
		if ch.Type != "" {
			what = ch.Type + " pages"
		}
		if ch.Pages == 1 || ch.Pages == -1 {
			what = strings.TrimSuffix(what, "s")
		}
		parts = append(parts, sign(ch.Pages < 0)+strconv.Itoa(max(ch.Pages, -ch.Pages))+" "+what)
	} else if ch.Name != "" {
		parts = append(parts, ch.Name)
	}
	if ch.Hours != 0 {
		parts = append(parts, sign(ch.Hours < 0)+decimalText(int64(max(ch.Hours, -ch.Hours)), 4)+" h")
	}
	parts = append(parts, sign(ch.AmountMinor < 0)+Money(max(ch.AmountMinor, -ch.AmountMinor), currency))
	return strings.Join(parts, ", ")
}
