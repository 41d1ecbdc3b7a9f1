package diagram

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/go-fonts/dejavu/dejavusans"
	"github.com/go-fonts/dejavu/dejavusansbold"
	"golang.org/x/image/font/sfnt"
)

// The PDF and PNG draw text with DejaVu Sans, and fall back glyph by glyph
// to a CJK font, then to a symbol font with emoji. A character none of
// them has prints as U+FFFD, visibly, and never stops a download.
var (
	//go:embed fonts/DroidSansFallbackFull.ttf
	cjkTTF []byte
	//go:embed fonts/Symbola_hint.ttf
	symbolTTF []byte
)

// face is one font file the PDF and PNG draw with.
type face struct {
	name string // the PDF's font name
	ttf  []byte
	font *sfnt.Font
}

// has reports whether the face has a glyph for r.
func (f *face) has(buf *sfnt.Buffer, r rune) bool {
	i, err := f.font.GlyphIndex(buf, r)
	return err == nil && i != 0
}

// fontSet is the fallback chain of each weight.
type fontSet struct {
	regular, bold []*face
}

// fonts parses the fonts once; a parsed sfnt.Font is safe to share.
var fonts = sync.OnceValue(func() *fontSet {
	load := func(name string, ttf []byte) *face {
		f, err := sfnt.Parse(ttf)
		if err != nil {
			panic("diagram: embedded font " + name + ": " + err.Error())
		}
		return &face{name: name, ttf: ttf, font: f}
	}
	cjk, symbols := load("cjk", cjkTTF), load("symbols", symbolTTF)
	return &fontSet{
		regular: []*face{load("sans", dejavusans.TTF), cjk, symbols},
		bold:    []*face{load("sans-bold", dejavusansbold.TTF), cjk, symbols},
	}
})

// replacement is what a character no font has prints as.
const replacement = '\uFFFD'

// run is a piece of text drawn in one face.
type run struct {
	face *face
	text string
}

// runs splits s into pieces, each in the first face of the weight's chain
// that has all its characters. Characters no face has become U+FFFD in the
// first face; invisible format characters (joiners, variation selectors)
// are dropped.
func (fs *fontSet) runs(s string, bold bool) []run {
	chain := fs.regular
	if bold {
		chain = fs.bold
	}
	var buf sfnt.Buffer
	var out []run
	var b strings.Builder
	var cur *face
	for _, r := range s {
		if ignorable(r) {
			continue
		}
		f := chain[0]
		if i := slices.IndexFunc(chain, func(c *face) bool { return c.has(&buf, r) }); i >= 0 {
			f = chain[i]
		} else {
			r = replacement
		}
		if f != cur && b.Len() > 0 {
			out = append(out, run{cur, b.String()})
			b.Reset()
		}
		cur = f
		b.WriteRune(r)
	}
	if b.Len() > 0 {
		out = append(out, run{cur, b.String()})
	}
	return out
}

// ignorable reports characters that draw nothing by themselves: format
// characters (zero-width joiners, direction marks) and variation
// selectors, which emoji sequences are full of.
func ignorable(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r)
}
