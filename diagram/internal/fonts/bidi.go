package fonts

import (
	"bytes"
	"slices"
	"sync"
	"unicode"

	"github.com/go-fonts/dejavu/dejavusans"
	"github.com/go-fonts/dejavu/dejavusansbold"
	"github.com/go-text/typesetting/bidi"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
)

// The SVG and the scene hand their words to a browser, which sets
// right-to-left scripts itself. The PDF and PNG print characters left to
// right, one glyph each, so Visual puts a text with right-to-left letters
// in the order it is read on the page first (Unicode's bidi algorithm)
// and shapes its Arabic letters into the forms that join them (HarfBuzz,
// with DejaVu Sans's own tables). The joined forms are characters of
// their own (Arabic Presentation Forms), so both outputs print them
// through the font's cmap as they print any other text, and the PDF's
// text can still be selected and searched.

// shaper is what shaping one text needs: a HarfBuzz shaper and faces are
// not safe for concurrent use, so each render takes its own from a pool.
type shaper struct {
	hb           shaping.HarfbuzzShaper
	para         bidi.Paragraph
	regular, bld *font.Face
	out          []rune
}

// shapeFont is one weight of DejaVu Sans for HarfBuzz, with the character
// each of its glyphs stands for.
type shapeFont struct {
	font *font.Font
	char map[font.GID]rune
}

var shapeFonts = sync.OnceValue(func() [2]shapeFont {
	load := func(ttf []byte) shapeFont {
		f, err := font.ParseTTF(bytes.NewReader(ttf))
		if err != nil {
			panic("diagram: embedded DejaVu Sans: " + err.Error())
		}
		char := map[font.GID]rune{}
		for it := f.Cmap.Iter(); it.Next(); {
			r, g := it.Char()
			if old, ok := char[g]; !ok || r < old { // the base letter rather than its isolated form
				char[g] = r
			}
		}
		return shapeFont{f.Font, char}
	}
	return [2]shapeFont{load(dejavusans.TTF), load(dejavusansbold.TTF)}
})

var shapers = sync.Pool{New: func() any {
	fs := shapeFonts()
	return &shaper{regular: font.NewFace(fs[0].font), bld: font.NewFace(fs[1].font)}
}}

// Visual returns s in the order the PDF and PNG print it, left to right,
// with Arabic letters in their joining forms. Text without right-to-left
// characters is returned as it is.
func Visual(s string, bold bool) string {
	if !mayBeRTL(s) {
		return s
	}
	sh := shapers.Get().(*shaper)
	defer shapers.Put(sh)
	return sh.visual([]rune(s), bold)
}

// mayBeRTL reports whether s has a character of a right-to-left script,
// or a mark or control that makes text run right to left.
func mayBeRTL(s string) bool {
	for _, r := range s {
		switch {
		case r < 0x0590:
		case r < 0x0900, r >= 0xFB1D && r <= 0xFDFF, r >= 0xFE70 && r <= 0xFEFF,
			r >= 0x10800 && r <= 0x10FFF, r >= 0x1E800 && r <= 0x1EFFF,
			r == 0x200F, r == 0x202B, r == 0x202E, r == 0x2067, r == 0x061C:
			return true
		}
	}
	return false
}

// levelRun is a stretch of text at one bidi embedding level.
type levelRun struct {
	start, end int
	level      bidi.Level
}

func (sh *shaper) visual(text []rune, bold bool) string {
	res := sh.para.Segment(text, bidi.Neutral) // the first strong letter sets the direction
	runs := make([]levelRun, res.NumRuns())
	lowestOdd, highest := bidi.Level(127), bidi.Level(0)
	for i := range runs {
		r := res.Run(i)
		runs[i] = levelRun{r.Start, r.End, r.Level}
		highest = max(highest, r.Level)
		if r.Level%2 == 1 {
			lowestOdd = min(lowestOdd, r.Level)
		}
	}
	// Rule L2: from the highest level down to the lowest odd one, reverse
	// every stretch of runs at that level or above.
	for lvl := highest; lvl >= lowestOdd && lvl > 0; lvl-- {
		for i := 0; i < len(runs); {
			if runs[i].level < lvl {
				i++
				continue
			}
			j := i
			for j < len(runs) && runs[j].level >= lvl {
				j++
			}
			slices.Reverse(runs[i:j])
			i = j
		}
	}
	sh.out = sh.out[:0]
	for _, r := range runs {
		if r.level%2 == 0 {
			sh.out = append(sh.out, text[r.start:r.end]...)
		} else {
			sh.rtl(text, r.start, r.end, bold)
		}
	}
	return string(sh.out)
}

// rtl appends text[start:end], a right-to-left run, as HarfBuzz shapes it
// (its glyphs come left to right, mirrored brackets included), each glyph
// as the character it stands for. A glyph for no single character (or
// none in DejaVu Sans) is written as its cluster's own characters, for
// the fallback fonts to draw; combining marks follow their letter.
func (sh *shaper) rtl(text []rune, start, end int, bold bool) {
	fs, face := shapeFonts()[0], sh.regular
	if bold {
		fs, face = shapeFonts()[1], sh.bld
	}
	script := language.Common // of the first letter: a run may start with a bracket
	for _, r := range text[start:end] {
		if s := language.LookupScript(r); s != language.Common && s != language.Inherited {
			script = s
			break
		}
	}
	out := sh.hb.Shape(shaping.Input{
		Text: text, RunStart: start, RunEnd: end,
		Direction: di.DirectionRTL, Face: face, Script: script,
		Size: fixed.I(16), // any: only the glyphs are used
	})
	for i := 0; i < len(out.Glyphs); {
		cluster := out.Glyphs[i].TextIndex()
		j := i
		for j < len(out.Glyphs) && out.Glyphs[j].TextIndex() == cluster {
			j++
		}
		n := out.Glyphs[i].RunesCount()
		if !slices.ContainsFunc(text[cluster:cluster+n], func(r rune) bool { return !ignorable(r) }) {
			i = j // a direction mark or a joiner: it has done its work
			continue
		}
		from := len(sh.out)
		mapped := true
		for _, g := range out.Glyphs[i:j] {
			r, ok := fs.char[g.GlyphID]
			if !ok || g.GlyphID == 0 {
				mapped = false
				break
			}
			sh.out = append(sh.out, r)
		}
		if !mapped {
			sh.out = sh.out[:from]
			sh.out = append(sh.out, text[cluster:cluster+n]...)
		}
		// letters first, then the marks drawn over them
		c := sh.out[from:]
		slices.SortStableFunc(c, func(a, b rune) int { return boolInt(unicode.Is(unicode.Mn, a)) - boolInt(unicode.Is(unicode.Mn, b)) })
		i = j
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
