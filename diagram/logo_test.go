package diagram

import (
	"bytes"
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
	b, err := LogoPNG([]byte(svg))
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
		_, err := LogoPNG([]byte(r.svg))
		if site.ErrorCode(err) != site.EInvalid || !strings.Contains(site.ErrorMessage(err), r.want) {
			t.Errorf("%s: %v; want invalid, saying %q", r.name, err, r.want)
		}
	}
	if _, err := LogoPNG(make([]byte, site.MaxLogoBytes+1)); site.ErrorCode(err) != site.ETooLarge {
		t.Errorf("a logo over 512 KB: %v, want too_large", err)
	}
}
