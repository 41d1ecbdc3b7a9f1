package site

import (
	"context"
	"hash/fnv"
	"strconv"
	"strings"
)

// PaletteColors are the colours a team's page types take by default, in
// the order new types take them: twelve hues that a band's dark words
// read on and that tell apart side by side.
var PaletteColors = []string{
	"#6d9eeb", "#93c47d", "#f6b26b", "#c27ba0", "#76a5af", "#e06666",
	"#ffd966", "#8e7cc3", "#b08968", "#4fc1c9", "#a3b84a", "#f49ac2",
}

// PaletteMarks tell apart page types that share a colour: the first type
// with a colour has none, the next ones these, in order.
var PaletteMarks = []string{"", "◆", "●", "▲", "■", "★", "✚"}

// TypeColor is how a page type looks in the outline, on the diagram and
// in its legend: a colour, and a mark when an earlier type of the team
// has that colour too.
type TypeColor struct {
	Type  string
	Color string // "#rrggbb"
	Mark  string // "" or one of PaletteMarks
	// Chosen says the team chose the colour; else it is the default the
	// type took when it was first used.
	Chosen bool
}

// Palette is a team's page-type colours: every type its plans have used,
// in the order they were first used.
type Palette struct {
	Types  []TypeColor
	byType map[string]int
}

// NewPalette works out the looks of a team's types, given in first-use
// order with the colours the team chose ("" for the default). The n-th
// type used takes the n-th palette colour by default, so defaults never
// repeat until the colours run out and never change when the team
// chooses another type's colour; types that share a colour, chosen or
// not, get marks in first-use order.
func NewPalette(types []TypeColor) Palette {
	p := Palette{Types: make([]TypeColor, len(types)), byType: make(map[string]int, len(types))}
	seen := map[string]int{}
	for i, t := range types {
		t.Chosen = t.Color != ""
		if !t.Chosen {
			t.Color = PaletteColors[i%len(PaletteColors)]
		}
		t.Mark = PaletteMarks[seen[t.Color]%len(PaletteMarks)]
		seen[t.Color]++
		p.Types[i] = t
		p.byType[t.Type] = i
	}
	return p
}

// With returns the palette with the types it lacks added, in the order
// given, as if first used now: what a plan is drawn with outside a
// team (a document on the command line) or before its types are stored.
func (p Palette) With(types []string) Palette {
	var add []TypeColor
	adding := map[string]bool{}
	for _, t := range types {
		if _, ok := p.byType[t]; !ok && t != "" && !adding[t] {
			add = append(add, TypeColor{Type: t})
			adding[t] = true
		}
	}
	if len(add) == 0 {
		return p
	}
	all := make([]TypeColor, 0, len(p.Types)+len(add))
	for _, t := range p.Types {
		if !t.Chosen {
			t.Color = ""
		}
		all = append(all, t)
	}
	return NewPalette(append(all, add...))
}

// Of returns how a page type looks; a type the palette lacks has no
// colour ("").
func (p Palette) Of(pageType string) TypeColor {
	if i, ok := p.byType[pageType]; ok {
		return p.Types[i]
	}
	return TypeColor{Type: pageType}
}

// Key identifies the palette's looks, for caching what is drawn with it.
func (p Palette) Key() string {
	h := fnv.New64a()
	for _, t := range p.Types {
		h.Write([]byte(t.Type + "\x00" + t.Color + t.Mark + "\x00"))
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// ValidColor normalises a colour written #rrggbb (any case, spaces
// around); false if it is not one.
func ValidColor(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	return s, accentPattern.MatchString(s)
}

type paletteKey struct{}

// WithPalette returns ctx carrying the team's palette, for the views.
func WithPalette(ctx context.Context, p Palette) context.Context {
	return context.WithValue(ctx, paletteKey{}, p)
}

// PaletteFrom returns the palette ctx carries (an empty one if none).
func PaletteFrom(ctx context.Context) Palette {
	p, _ := ctx.Value(paletteKey{}).(Palette)
	return p
}
