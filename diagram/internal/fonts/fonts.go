// Package fonts measures and shapes the words of the diagrams the
// diagram package prints itself (PDF, PNG): the embedded fonts and their
// fallback chain, the width of a text, and right-to-left text put in the
// order it is printed.
package fonts

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/go-fonts/dejavu/dejavusans"
	"github.com/go-fonts/dejavu/dejavusansbold"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The PDF and PNG draw text with DejaVu Sans, and fall back glyph by glyph
// to a CJK font, then to a symbol font with emoji. A character none of
// them has prints as U+FFFD, visibly, and never stops a download.
var (
	//go:embed DroidSansFallbackFull.ttf
	cjkTTF []byte
	//go:embed Symbola_hint.ttf
	symbolTTF []byte
)

// Face is one font file the PDF and PNG draw with.
type Face struct {
	Name string // the PDF's font name
	TTF  []byte
	Font *sfnt.Font
}

// Has reports whether the face has a glyph for r.
func (f *Face) Has(buf *sfnt.Buffer, r rune) bool {
	i, err := f.Font.GlyphIndex(buf, r)
	return err == nil && i != 0
}

// fontSet is the fallback chain of each weight.
type fontSet struct {
	regular, bold []*Face
}

// Chain is the fallback chain of a weight, its first face first.
func Chain(bold bool) []*Face {
	if bold {
		return fonts().bold
	}
	return fonts().regular
}

// fonts parses the fonts once; a parsed sfnt.Font is safe to share.
var fonts = sync.OnceValue(func() *fontSet {
	load := func(name string, ttf []byte) *Face {
		f, err := sfnt.Parse(ttf)
		if err != nil {
			panic("diagram: embedded font " + name + ": " + err.Error())
		}
		return &Face{Name: name, TTF: ttf, Font: f}
	}
	cjk, symbols := load("cjk", cjkTTF), load("symbols", symbolTTF)
	return &fontSet{
		regular: []*Face{load("sans", dejavusans.TTF), cjk, symbols},
		bold:    []*Face{load("sans-bold", dejavusansbold.TTF), cjk, symbols},
	}
})

// Replacement is what a character no font has prints as.
const Replacement = '\uFFFD'

// Run is a piece of text drawn in one face.
type Run struct {
	Face *Face
	Text string
}

// Runs splits s into pieces, each in the first face of the weight's chain
// that has all its characters. Characters no face has become U+FFFD in the
// first face; invisible format characters (joiners, variation selectors)
// are dropped.
func Runs(s string, bold bool) []Run {
	chain := Chain(bold)
	var buf sfnt.Buffer
	var out []Run
	var b strings.Builder
	var cur *Face
	for _, r := range s {
		if ignorable(r) {
			continue
		}
		f := chain[0]
		if i := slices.IndexFunc(chain, func(c *Face) bool { return c.Has(&buf, r) }); i >= 0 {
			f = chain[i]
		} else {
			r = Replacement
		}
		if f != cur && b.Len() > 0 {
			out = append(out, Run{cur, b.String()})
			b.Reset()
		}
		cur = f
		b.WriteRune(r)
	}
	if b.Len() > 0 {
		out = append(out, Run{cur, b.String()})
	}
	return out
}

// ignorable reports characters that draw nothing by themselves: format
// characters (zero-width joiners, direction marks) and variation
// selectors, which emoji sequences are full of.
func ignorable(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r)
}

// Measure returns how wide s prints at size in the embedded fonts, which
// run wider than the Helvetica Graphviz measures with: text wrapped or
// clipped to a width by this measure fits it in every output.
func Measure(s string, size float64, bold bool) float64 {
	w := 0.0
	for _, r := range s {
		w += advances.of(r, bold)
	}
	return w * size
}

// advances caches each character's advance at a size of one point.
var advances = &advanceCache{m: map[advanceKey]float64{}}

type advanceKey struct {
	r    rune
	bold bool
}

type advanceCache struct {
	mu  sync.Mutex
	m   map[advanceKey]float64
	buf sfnt.Buffer
}

func (c *advanceCache) of(r rune, bold bool) float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := advanceKey{r, bold}
	if a, ok := c.m[k]; ok {
		return a
	}
	a := 0.0
	if !ignorable(r) {
		chain := Chain(bold)
		f, ch := chain[0], Replacement
		if i := slices.IndexFunc(chain, func(f *Face) bool { return f.Has(&c.buf, r) }); i >= 0 {
			f, ch = chain[i], r
		}
		if g, err := f.Font.GlyphIndex(&c.buf, ch); err == nil {
			const ppem = 1000
			if adv, err := f.Font.GlyphAdvance(&c.buf, g, fixed.I(ppem), font.HintingNone); err == nil {
				a = float64(adv) / 64 / ppem
			}
		}
	}
	c.m[k] = a
	return a
}
