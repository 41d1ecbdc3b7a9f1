package diagram

import (
	"bytes"
	"encoding/xml"
	"image"
	"io"
	"math"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"

	"siteplan/site"
)

// logoSide is the longer side, in pixels, an SVG logo is drawn at: the
// PDF prints a logo at most about 3 cm wide, 1,000 pixels is 800 dpi.
const logoSide = 1000

// svgLogoLimits bound what an SVG logo may hold before it is drawn.
const (
	svgLogoElements = 20000
	svgLogoDepth    = 64
)

// LogoPNG turns an uploaded logo into the PNG a theme keeps: a PNG as
// site.NormalizeLogo takes it, an SVG drawn at 1,000 pixels on its longer
// side, so that nothing of the upload but pixels is kept (no script, no
// links, no metadata). An SVG whose drawing would need what is not drawn
// here (text, images, <use> references, which can also nest without end)
// is refused with what to do instead. Errors: EInvalid, ETooLarge.
func LogoPNG(b []byte) ([]byte, error) {
	if !isSVG(b) {
		return site.NormalizeLogo(b)
	}
	if len(b) > site.MaxLogoBytes {
		return nil, site.Errorf(site.ETooLarge, "The logo is %d KB; at most %d KB.", len(b)>>10, site.MaxLogoBytes>>10)
	}
	if err := checkSVGLogo(b); err != nil {
		return nil, err
	}
	img, err := drawSVGLogo(b)
	if err != nil {
		return nil, err
	}
	return site.EncodeLogo(img)
}

// isSVG says whether b starts like an SVG document: an XML declaration,
// comment or doctype before an <svg> element, within its first 1 KB.
func isSVG(b []byte) bool {
	head := b[:min(len(b), 1024)]
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	head = bytes.TrimLeft(head, " \t\r\n")
	return bytes.HasPrefix(head, []byte("<")) && bytes.Contains(head, []byte("<svg"))
}

// checkSVGLogo reads the SVG once as XML and refuses what would be drawn
// wrong or not at all, and documents too many or too deeply nested.
func checkSVGLogo(b []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	depth, n := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return site.Errorf(site.EInvalid, "The SVG logo is not well-formed XML (%v): export it again, or upload a PNG.", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			depth++
			n++
			if depth > svgLogoDepth || n > svgLogoElements {
				return site.Errorf(site.EInvalid, "The SVG logo has more than %d elements or is nested deeper than %d: simplify it, or upload a PNG.", svgLogoElements, svgLogoDepth)
			}
			switch el.Name.Local {
			case "text", "tspan", "textPath":
				return site.Errorf(site.EInvalid, "The SVG logo has text, which is not drawn: convert the text to outlines (paths) and upload it again, or upload a PNG.")
			case "image", "foreignObject":
				return site.Errorf(site.EInvalid, "The SVG logo embeds an image or other content: upload the image as a PNG instead.")
			case "use":
				return site.Errorf(site.EInvalid, "The SVG logo uses <use> references: export it with them expanded, or upload a PNG.")
			}
		case xml.EndElement:
			depth--
		case xml.Directive:
			if bytes.Contains(el, []byte("ENTITY")) {
				return site.Errorf(site.EInvalid, "The SVG logo declares entities: export it again without a DTD, or upload a PNG.")
			}
		}
	}
	return nil
}

// drawSVGLogo draws an SVG at logoSide pixels on its longer side, on a
// transparent ground.
func drawSVGLogo(b []byte) (img *image.NRGBA, err error) {
	defer func() { // the SVG library panics on some malformed paths
		if recover() != nil {
			img, err = nil, site.Errorf(site.EInvalid, "The SVG logo could not be drawn: upload a PNG instead.")
		}
	}()
	icon, err := oksvg.ReadIconStream(bytes.NewReader(b), oksvg.IgnoreErrorMode)
	if err != nil {
		return nil, site.Errorf(site.EInvalid, "The SVG logo could not be read (%v): export it again, or upload a PNG.", err)
	}
	vw, vh := icon.ViewBox.W, icon.ViewBox.H
	if !(vw > 0 && vh > 0) || math.IsInf(vw, 0) || math.IsInf(vh, 0) {
		return nil, site.Errorf(site.EInvalid, "The SVG logo has no size: give its <svg> a viewBox, or upload a PNG.")
	}
	scale := logoSide / math.Max(vw, vh)
	w, h := max(1, int(math.Round(vw*scale))), max(1, int(math.Round(vh*scale)))
	icon.SetTarget(0, 0, float64(w), float64(h))
	img = image.NewNRGBA(image.Rect(0, 0, w, h))
	scanner := rasterx.NewScannerGV(w, h, img, img.Bounds())
	icon.Draw(rasterx.NewDasher(w, h, scanner), 1)
	return img, nil
}
