package diagram

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"strings"
	"testing"

	"siteplan/site"
)

// TestLogoPNG: an SVG logo is drawn at 1,000 pixels on its longer side
// and kept as a PNG; what it would draw wrong or could blow up on is
// refused with what to do instead.
func TestLogoPNG(t *testing.T) {
	svg := `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><script>alert(1)</script>
<rect x="0" y="0" width="50" height="50" fill="#ff0000"/></svg>`
	b, err := LogoPNG(context.Background(), []byte(svg))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got.X != 1000 || got.Y != 500 {
		t.Errorf("the logo is %v pixels, want 1000×500", got)
	}
	if r, g, bl, a := img.At(250, 250).RGBA(); r>>8 != 255 || g != 0 || bl != 0 || a>>8 != 255 {
		t.Errorf("the left half is %v %v %v %v, want opaque red", r, g, bl, a)
	}
	if _, _, _, a := img.At(750, 250).RGBA(); a != 0 {
		t.Errorf("the right half has alpha %v, want transparent", a)
	}
	if bytes.Contains(b, []byte("alert")) {
		t.Error("the script survived in the PNG")
	}

	refused := []struct{ name, svg, want string }{
		{"text", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><text>Acme</text></svg>`, "outlines"},
		{"a use that uses itself", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><defs><g id="a"><use href="#a"/></g></defs><use href="#a"/></svg>`, "<use>"},
		{"an image", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><image href="http://example.com/x.png"/></svg>`, "embeds"},
		{"entities", `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"></svg>`, "entities"},
		{"deep nesting", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">` + strings.Repeat("<g>", 100) + strings.Repeat("</g>", 100) + `</svg>`, "nested deeper"},
		{"no size", `<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>`, "no size"},
		{"not XML", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><rect></svg>`, "well-formed"},
		{"a GIF", "GIF89a\x01\x00\x01\x00", "PNG or SVG"},
	}
	for _, r := range refused {
		_, err := LogoPNG(context.Background(), []byte(r.svg))
		if site.ErrorCode(err) != site.EInvalid || !strings.Contains(site.ErrorMessage(err), r.want) {
			t.Errorf("%s: %v; want invalid, saying %q", r.name, err, r.want)
		}
	}
	if _, err := LogoPNG(context.Background(), make([]byte, site.MaxLogoBytes+1)); site.ErrorCode(err) != site.ETooLarge {
		t.Errorf("a logo over 512 KB: %v, want too_large", err)
	}
}

// TestLogoPNGBudget: the hostile probe's logo (4,000 dashed paths with
// strokes 500 wide) is refused within the budget, naming it, and a
// drawing whose request ended stops with it; a logo of a thousand
// ordinary shapes draws well within the budget.
func TestLogoPNGBudget(t *testing.T) {
	hostile := func(n int, style string) []byte {
		var b strings.Builder
		b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000">`)
		for i := range n {
			fmt.Fprintf(&b, `<path d="M%d 0 L%d 1000" %s/>`, i%1000, (i*7)%1000, style)
		}
		b.WriteString(`</svg>`)
		return []byte(b.String())
	}
	if testing.Short() {
		t.Skip("draws for the budget, 5 s")
	}
	_, err := LogoPNG(context.Background(), hostile(4000, `stroke="#000" stroke-width="500" stroke-dasharray="1 1"`))
	if site.ErrorCode(err) != site.ETooLarge || !strings.Contains(site.ErrorMessage(err), "more than 5 seconds") {
		t.Errorf("the hostile logo: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LogoPNG(ctx, hostile(4000, `stroke="#000" stroke-width="500"`)); err != context.Canceled {
		t.Errorf("a drawing whose request ended: %v", err)
	}
	// A thousand small filled and stroked shapes: a busy real logo.
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000">`)
	for i := range 1000 {
		x, y := (i%40)*25, (i/40)*40
		fmt.Fprintf(&b, `<path d="M%d %d h20 v30 h-20 z" fill="#c33" stroke="#000" stroke-width="2"/>`, x, y)
	}
	b.WriteString(`</svg>`)
	ctx, cancel = context.WithTimeout(context.Background(), LogoBudget)
	defer cancel()
	if _, err := LogoPNG(ctx, []byte(b.String())); err != nil {
		t.Errorf("a logo of 1,000 shapes: %v", err)
	}
}

// TestLogoStrokes: strokes, dashed or not, are drawn where they run, and
// nowhere else.
func TestLogoStrokes(t *testing.T) {
	svg := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path d="M0 50 H100" stroke="#00aa00" stroke-width="10"/>` +
		`<path d="M50 0 V40" stroke="#0000ff" stroke-width="4" stroke-dasharray="10 10"/></svg>`
	b, err := LogoPNG(context.Background(), []byte(svg))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if r, g, b, a := img.At(500, 500).RGBA(); r != 0 || g != 0xaaaa || b != 0 || a != 0xffff {
		t.Errorf("the solid line's middle: %x %x %x %x", r, g, b, a)
	}
	if _, _, _, a := img.At(500, 800).RGBA(); a != 0 {
		t.Errorf("below the line: %x", a)
	}
	dash, gap := 0, 0
	for y := range 400 { // the dashed line, 0 to 40 of 100
		if _, _, b, a := img.At(500, y).RGBA(); a == 0xffff && b == 0xffff {
			dash++
		} else if a == 0 {
			gap++
		}
	}
	if dash < 100 || gap < 100 {
		t.Errorf("the dashed line: %d pixels drawn, %d gaps, want both", dash, gap)
	}
	if _, _, _, a := img.At(520, 20).RGBA(); a != 0 {
		t.Errorf("beside the dashed line: %x", a)
	}
}
