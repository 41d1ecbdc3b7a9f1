package diagram

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"image"
	"image/color"
	"io"
	"math"
	"time"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

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

// LogoBudget is the time an SVG logo may take to draw: a logo drawn
// in more is refused, and the drawing stops within a few milliseconds
// of it, or of its request ending (its scanner looks at the clock as it
// goes). A real logo draws in a few milliseconds.
const LogoBudget = 5 * time.Second

// LogoPNG turns an uploaded logo into the PNG a theme keeps: a PNG as
// site.NormalizeLogo takes it, an SVG drawn at 1,000 pixels on its longer
// side, so that nothing of the upload but pixels is kept (no script, no
// links, no metadata). An SVG whose drawing would need what is not drawn
// here (text, images, <use> references, which can also nest without end)
// is refused with what to do instead, and so is one that does not draw
// within LogoBudget or before ctx ends. Errors: EInvalid, ETooLarge, and
// ctx's.
func LogoPNG(ctx context.Context, b []byte) ([]byte, error) {
	if !isSVG(b) {
		return site.NormalizeLogo(b)
	}
	if len(b) > site.MaxLogoBytes {
		return nil, site.Errorf(site.ETooLarge, "The logo is %d KB; at most %d KB.", len(b)>>10, site.MaxLogoBytes>>10)
	}
	if err := checkSVGLogo(b); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, LogoBudget)
	defer cancel()
	img, err := drawSVGLogo(ctx, b)
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
// transparent ground, until ctx ends.
func drawSVGLogo(ctx context.Context, b []byte) (img *image.RGBA, err error) {
	defer func() { // the SVG library panics on some malformed paths; the scanner, when ctx ends
		if r := recover(); r != nil {
			img, err = nil, site.Errorf(site.EInvalid, "The SVG logo could not be drawn: upload a PNG instead.")
			if r == errOutOfTime {
				err = outOfTime(ctx)
			}
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
	img = image.NewRGBA(image.Rect(0, 0, w, h))
	scanner := &boxScanner{ctx: ctx, dst: img}
	scanner.Clear()
	dasher := rasterx.NewDasher(w, h, scanner)
	for _, p := range icon.SVGPaths {
		if ctx.Err() != nil {
			return nil, outOfTime(ctx)
		}
		p.DrawTransformed(dasher, 1, icon.Transform)
	}
	return img, nil
}

// errOutOfTime is the scanner's panic when its context ends mid-path.
var errOutOfTime = errors.New("out of time")

// outOfTime is the refusal of a logo whose drawing ctx ended: the
// budget, or the request gone.
func outOfTime(ctx context.Context) error {
	if errors.Is(context.Cause(ctx), context.Canceled) {
		return ctx.Err()
	}
	return site.Errorf(site.ETooLarge, "The SVG logo takes more than %d seconds to draw: simplify it (fewer, smaller shapes), or upload a PNG.", int(LogoBudget/time.Second))
}

// boxScanner is a rasterx.Scanner that rasterises each path over its own
// bounding box, not the whole image (rasterx's ScannerGV clears and
// scans every pixel of the image for every path: 50 ms a path at 1,000
// pixels, 100 paths in 10 s), onto an RGBA image, which x/image/vector
// paints in its fast path. It looks at its context every few thousand
// edges and stops the drawing (a panic drawSVGLogo recovers) once it
// ended, so no path can run on past the budget.
type boxScanner struct {
	ctx   context.Context
	dst   *image.RGBA
	r     vector.Rasterizer
	segs  []seg
	src   image.Image
	clip  image.Rectangle
	edges int
	min   fixed.Point26_6
	max   fixed.Point26_6
}

// seg is one point of a path: where a subpath starts (move) or the end
// of a line.
type seg struct {
	x, y fixed.Int26_6
	move bool
}

func (s *boxScanner) point(a fixed.Point26_6, move bool) {
	s.segs = append(s.segs, seg{a.X, a.Y, move})
	s.min.X, s.min.Y = min(s.min.X, a.X), min(s.min.Y, a.Y)
	s.max.X, s.max.Y = max(s.max.X, a.X), max(s.max.Y, a.Y)
	if s.edges++; s.edges&4095 == 0 && s.ctx.Err() != nil {
		panic(errOutOfTime)
	}
}

func (s *boxScanner) Start(a fixed.Point26_6) { s.point(a, true) }
func (s *boxScanner) Line(b fixed.Point26_6)  { s.point(b, false) }

// Draw paints the path gathered since Clear over its bounding box.
func (s *boxScanner) Draw() {
	box := image.Rect(s.min.X.Floor(), s.min.Y.Floor(), s.max.X.Ceil()+1, s.max.Y.Ceil()+1).Intersect(s.dst.Bounds())
	if s.clip != (image.Rectangle{}) {
		box = box.Intersect(s.clip)
	}
	if box.Empty() || s.src == nil {
		return
	}
	s.r.Reset(box.Dx(), box.Dy())
	ox, oy := float32(box.Min.X), float32(box.Min.Y)
	for _, p := range s.segs {
		x, y := float32(p.x)/64-ox, float32(p.y)/64-oy
		if p.move { // no close: the stroker sends an outline's two sides as two open subpaths, as ScannerGV takes them
			s.r.MoveTo(x, y)
		} else {
			s.r.LineTo(x, y)
		}
	}
	s.r.Draw(s.dst, box, s.src, box.Min)
	if s.ctx.Err() != nil {
		panic(errOutOfTime)
	}
}

// Clear forgets the path gathered.
func (s *boxScanner) Clear() {
	const far = fixed.Int26_6(math.MaxInt32)
	s.segs = s.segs[:0]
	s.min, s.max = fixed.Point26_6{X: far, Y: far}, fixed.Point26_6{X: -far, Y: -far}
}

func (s *boxScanner) GetPathExtent() fixed.Rectangle26_6 {
	return fixed.Rectangle26_6{Min: s.min, Max: s.max}
}

func (s *boxScanner) SetBounds(int, int)        {}
func (s *boxScanner) SetWinding(bool)           {} // as ScannerGV: non-zero only
func (s *boxScanner) SetClip(r image.Rectangle) { s.clip = r }

// SetColor sets what the next paths are painted with: a colour, or a
// gradient's function of the pixel.
func (s *boxScanner) SetColor(c any) {
	switch c := c.(type) {
	case color.Color:
		s.src = image.NewUniform(c)
	case rasterx.ColorFunc:
		s.src = funcImage(c)
	}
}

// funcImage is a gradient as an image, for the rasterizer's Draw.
type funcImage rasterx.ColorFunc

func (f funcImage) ColorModel() color.Model { return color.RGBAModel }
func (f funcImage) Bounds() image.Rectangle {
	return image.Rect(-1<<30, -1<<30, 1<<30, 1<<30)
}
func (f funcImage) At(x, y int) color.Color { return f(x, y) }
