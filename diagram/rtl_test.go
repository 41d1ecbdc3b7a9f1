package diagram

import (
	"image"
	"image/color"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/unicode/norm"

	"siteplan/diagram/internal/fonts"
)

// TestRTLInPNG: the PNG paints a right-to-left title as its letters in
// the order they are read, right to left and joined: the same pixels as
// those letters drawn one after the other left to right.
func TestRTLInPNG(t *testing.T) {
	for _, tt := range []struct{ text, printed string }{
		{"שלום", "םולש"},
		{"سلام", "\u0645\uFEFC\uFEB3"},
	} {
		canvas := &rasterCanvas{img: image.NewRGBA(image.Rect(0, 0, 120, 40))}
		canvas.setPen(rgb{}, true)
		canvas.text(point{10, 30}, tt.text, 20, false, 'l', 0)

		want := image.NewRGBA(image.Rect(0, 0, 120, 40))
		dr := font.Drawer{Dst: want, Src: image.NewUniform(color.RGBA{0, 0, 0, 255}),
			Face: canvas.face(fonts.Chain(false)[0], 20), Dot: fixed.P(10, 30)}
		dr.DrawString(tt.printed)
		if !slices.Equal(canvas.img.Pix, want.Pix) {
			t.Errorf("the PNG does not paint %q as %q", tt.text, tt.printed)
		}
		if slices.Equal(want.Pix, image.NewRGBA(want.Rect).Pix) {
			t.Errorf("%q painted nothing", tt.printed)
		}
	}
}

// TestRTLInPDF: a Hebrew and an Arabic title read right to left in the
// PDF, word by word and letter by letter, and the Arabic letters are
// joined; pdftotext reads each word's letters in the order they are
// printed, left to right.
func TestRTLInPDF(t *testing.T) {
	d := prepared(t, "testdata/diagram-scripts.json", Options{})
	s := readPDF(t, draw(t, d, FormatPDF))
	reads := func(first string) (string, bool) { // the line starting, as read, with the word first
		for _, w := range s.pages[0].words {
			if norm.NFKC.String(reversed(w.Text)) != first {
				continue
			}
			var line []pdfWord
			for _, o := range s.pages[0].words {
				if o.YMin == w.YMin && o.XMin <= w.XMin && o.XMin > w.XMin-200 {
					line = append(line, o)
				}
			}
			sort.Slice(line, func(i, j int) bool { return line[i].XMin > line[j].XMin }) // right to left
			var read []string
			joined := false
			for _, o := range line {
				read = append(read, norm.NFKC.String(reversed(o.Text)))
				joined = joined || norm.NFKC.String(o.Text) != o.Text
			}
			return strings.Join(read, " "), joined
		}
		return "", false
	}
	for _, tt := range []struct {
		first, want string
		joined      bool
	}{
		{"שלום", "שלום עולם", false},
		{"مرحبا", "مرحبا بالعالم", true},
	} {
		got, joined := reads(tt.first)
		if got != tt.want {
			t.Errorf("read right to left, the PDF's line starting %q is %q, want %q", tt.first, got, tt.want)
		}
		if joined != tt.joined {
			t.Errorf("%q printed in joining forms: %v, want %v", tt.want, joined, tt.joined)
		}
	}
}

func reversed(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}
