package diagram

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"io"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"siteplan/diagram/internal/fonts"
	"siteplan/site"
)

// MaxPNGPixels bounds a PNG's size and drawing time (docs/benchmarks.md);
// past it, the PDF or SVG serve better.
const MaxPNGPixels = 150_000_000

// diagramPad is the margin around a drawing, as the SVG has it (Graphviz's
// pad=0.3 inches).
const diagramPad = 0.3 * 72

// pngStripRows is how many pixel rows are drawn at once. A whole plan of
// 1,000 pages is 100 million pixels (400 MB to draw on); a strip of it is
// 13 MB.
var pngStripRows = 64

// writePNG rasterises the laid-out diagram at the options' dpi, a strip at a time,
// each encoded as soon as it is drawn. go-graphviz's own PNG renderer
// fills edges and drops node borders, so siteplan draws the PNG from the
// same layout as the PDF.
func (d *diagram) writePNG(w io.Writer, pic picture) error {
	k := float64(d.opt.dpi()) / 72
	lw, lh := pic.size()
	wpx := int(math.Ceil((lw + 2*diagramPad) * k))
	hpx := int(math.Ceil((lh + 2*diagramPad) * k))
	if wpx*hpx > MaxPNGPixels {
		return site.Errorf(site.ETooLarge, "At %d dpi this diagram would be %d × %d pixels, more than a PNG here may hold. Download the PDF or SVG, a smaller scale, or draw one branch.", d.opt.dpi(), wpx, hpx)
	}
	enc, err := newPNGWriter(w, wpx, hpx)
	if err != nil {
		return err
	}
	white := bytes.Repeat([]byte{0xff}, 4*wpx*min(pngStripRows, hpx))
	pix := make([]byte, len(white))
	c := &rasterCanvas{}
	p := &painter{c: c, scale: k,
		tx: func(x float64) float64 { return (x + diagramPad) * k },
		ty: func(y float64) float64 { return (lh - y + diagramPad) * k }}
	const bleed = 4 // points of line width and anti-aliasing past an object's points
	for y0 := 0; y0 < hpx; y0 += pngStripRows {
		y1 := min(y0+pngStripRows, hpx)
		copy(pix, white)
		c.img = &image.RGBA{Pix: pix[:4*wpx*(y1-y0)], Stride: 4 * wpx, Rect: image.Rect(0, y0, wpx, y1)}
		pic.draw(p, -diagramPad, float64(y0)/k-diagramPad-bleed, lw+diagramPad, float64(y1)/k-diagramPad+bleed)
		if err := enc.writeRows(c.img); err != nil {
			return err
		}
	}
	return enc.close()
}

// pngWriter encodes an opaque RGB PNG row by row: image/png needs the
// whole image at once. Rows are filtered "Up" (the difference from the
// row above: zero across a diagram's plain background), compressed as one
// zlib stream and cut into IDAT chunks.
type pngWriter struct {
	w         io.Writer
	z         *zlib.Writer
	idat      idatWriter
	prev, raw []byte // the last row, and this one, as RGB
	row       []byte // this row filtered, after its filter byte
}

func newPNGWriter(w io.Writer, width, height int) (*pngWriter, error) {
	if _, err := io.WriteString(w, "\x89PNG\r\n\x1a\n"); err != nil {
		return nil, err
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, 2 // 8 bits a sample, RGB; then deflate, adaptive filters, no interlace
	if err := writeChunk(w, "IHDR", ihdr[:]); err != nil {
		return nil, err
	}
	e := &pngWriter{w: w, idat: idatWriter{w: w}, prev: make([]byte, 3*width), raw: make([]byte, 3*width), row: make([]byte, 1+3*width)}
	e.z, _ = zlib.NewWriterLevel(&e.idat, zlib.BestSpeed)
	return e, nil
}

// writeRows encodes every row of img.
func (e *pngWriter) writeRows(img *image.RGBA) error {
	e.row[0] = 2 // filter "Up"
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		src := img.Pix[(y-img.Rect.Min.Y)*img.Stride:]
		for x, i := 0, 0; i < len(e.raw); x, i = x+4, i+3 {
			e.raw[i], e.raw[i+1], e.raw[i+2] = src[x], src[x+1], src[x+2]
		}
		for i, v := range e.raw {
			e.row[1+i] = v - e.prev[i]
		}
		if _, err := e.z.Write(e.row); err != nil {
			return err
		}
		e.prev, e.raw = e.raw, e.prev
	}
	return e.idat.err
}

func (e *pngWriter) close() error {
	if err := e.z.Close(); err != nil {
		return err
	}
	if err := e.idat.flush(); err != nil {
		return err
	}
	return writeChunk(e.w, "IEND", nil)
}

// idatWriter gathers compressed data into IDAT chunks of up to 256 KB.
type idatWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (c *idatWriter) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p...)
	if len(c.buf) >= 256<<10 {
		c.flush()
	}
	return len(p), c.err
}

func (c *idatWriter) flush() error {
	if len(c.buf) > 0 && c.err == nil {
		c.err = writeChunk(c.w, "IDAT", c.buf)
	}
	c.buf = c.buf[:0]
	return c.err
}

// writeChunk writes a PNG chunk: length, type, data and the CRC of the
// type and data.
func writeChunk(w io.Writer, typ string, data []byte) error {
	head := make([]byte, 8, 8+len(data)+4)
	binary.BigEndian.PutUint32(head, uint32(len(data)))
	copy(head[4:], typ)
	b := append(append(head, data...), 0, 0, 0, 0)
	binary.BigEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[4:len(b)-4]))
	_, err := w.Write(b)
	return err
}

// rasterCanvas draws on an image with anti-aliased paths and the
// embedded fonts.
type rasterCanvas struct {
	img       *image.RGBA
	z         vector.Rasterizer
	pen, fill color.RGBA
	penOK     bool
	fillOK    bool
	width     float64
	on, off   float64
	faces     map[faceKey]font.Face
}

func (c *rasterCanvas) setPen(col rgb, visible bool) {
	c.pen, c.penOK = color.RGBA{col.R, col.G, col.B, 255}, visible
}

func (c *rasterCanvas) setFill(col rgb, visible bool) {
	c.fill, c.fillOK = color.RGBA{col.R, col.G, col.B, 255}, visible
}

func (c *rasterCanvas) group(id, class, title string) {}
func (c *rasterCanvas) end()                          {}

func (c *rasterCanvas) setLineWidth(w float64)  { c.width = w }
func (c *rasterCanvas) setDash(on, off float64) { c.on, c.off = on, off }

// paint fills the path that build draws (relative to the box origin) in
// box, clipped to the image.
func (c *rasterCanvas) paint(pts []point, col color.RGBA, build func(z *vector.Rasterizer, dx, dy float64)) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		x0, y0, x1, y1 = math.Min(x0, p.X), math.Min(y0, p.Y), math.Max(x1, p.X), math.Max(y1, p.Y)
	}
	r := image.Rect(int(math.Floor(x0))-1, int(math.Floor(y0))-1, int(math.Ceil(x1))+1, int(math.Ceil(y1))+1).Intersect(c.img.Bounds())
	if r.Empty() {
		return
	}
	c.z.Reset(r.Dx(), r.Dy())
	build(&c.z, float64(r.Min.X), float64(r.Min.Y))
	c.z.Draw(c.img, r, image.NewUniform(col), image.Point{})
}

func (c *rasterCanvas) polygon(pts []point, fill bool) {
	if len(pts) < 2 {
		return
	}
	if fill && c.fillOK {
		c.paint(pts, c.fill, func(z *vector.Rasterizer, dx, dy float64) {
			z.MoveTo(float32(pts[0].X-dx), float32(pts[0].Y-dy))
			for _, p := range pts[1:] {
				z.LineTo(float32(p.X-dx), float32(p.Y-dy))
			}
			z.ClosePath()
		})
	}
	c.stroke(append(pts, pts[0]))
}

func (c *rasterCanvas) polyline(pts []point) { c.stroke(pts) }

func (c *rasterCanvas) bezier(pts []point, fill bool) {
	if fill && c.fillOK {
		c.paint(pts, c.fill, func(z *vector.Rasterizer, dx, dy float64) {
			z.MoveTo(float32(pts[0].X-dx), float32(pts[0].Y-dy))
			for i := 1; i+2 < len(pts); i += 3 {
				z.CubeTo(float32(pts[i].X-dx), float32(pts[i].Y-dy), float32(pts[i+1].X-dx), float32(pts[i+1].Y-dy), float32(pts[i+2].X-dx), float32(pts[i+2].Y-dy))
			}
			z.ClosePath()
		})
	}
	c.stroke(flatten(pts))
}

func (c *rasterCanvas) ellipse(at point, rx, ry float64, fill bool) {
	pts := make([]point, 49)
	for i := range pts {
		a := float64(i) * 2 * math.Pi / 48
		pts[i] = point{at.X + rx*math.Cos(a), at.Y + ry*math.Sin(a)}
	}
	c.polygon(pts[:48], fill)
}

// flatten turns cubic segments into a polyline.
func flatten(pts []point) []point {
	out := []point{pts[0]}
	for i := 1; i+2 < len(pts); i += 3 {
		p0, p1, p2, p3 := pts[i-1], pts[i], pts[i+1], pts[i+2]
		for s := 1; s <= 12; s++ {
			t := float64(s) / 12
			u := 1 - t
			a, b, cc, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
			out = append(out, point{a*p0.X + b*p1.X + cc*p2.X + d*p3.X, a*p0.Y + b*p1.Y + cc*p2.Y + d*p3.Y})
		}
	}
	return out
}

// stroke draws a polyline with the pen's width and dashes, each drawn
// piece as a thin rectangle.
func (c *rasterCanvas) stroke(pts []point) {
	if !c.penOK || len(pts) < 2 {
		return
	}
	half := math.Max(c.width, 1) / 2
	var quads [][4]point
	dashLeft, drawing := c.on, true
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		length := math.Hypot(b.X-a.X, b.Y-a.Y)
		if length == 0 {
			continue
		}
		ux, uy := (b.X-a.X)/length, (b.Y-a.Y)/length
		for pos := 0.0; pos < length; {
			step := length - pos
			if c.on > 0 && dashLeft < step {
				step = dashLeft
			}
			if drawing {
				s := point{a.X + ux*pos, a.Y + uy*pos}
				e := point{a.X + ux*(pos+step), a.Y + uy*(pos+step)}
				nx, ny := -uy*half, ux*half
				quads = append(quads, [4]point{{s.X + nx, s.Y + ny}, {e.X + nx, e.Y + ny}, {e.X - nx, e.Y - ny}, {s.X - nx, s.Y - ny}})
			}
			pos += step
			if c.on > 0 {
				if dashLeft -= step; dashLeft <= 0 {
					drawing = !drawing
					dashLeft = c.on
					if !drawing {
						dashLeft = c.off
					}
				}
			}
		}
	}
	// Each piece is painted on its own: one box around a long diagonal
	// edge would make the rasteriser sweep a large empty area.
	for _, q := range quads {
		c.paint(q[:], c.pen, func(z *vector.Rasterizer, dx, dy float64) {
			z.MoveTo(float32(q[0].X-dx), float32(q[0].Y-dy))
			for _, p := range q[1:] {
				z.LineTo(float32(p.X-dx), float32(p.Y-dy))
			}
			z.ClosePath()
		})
	}
}

// text draws a span where Graphviz placed it, a run per font. Graphviz
// measured it with Helvetica's metrics; a span that runs wider in the
// embedded fonts is shrunk to the width Graphviz gave it.
func (c *rasterCanvas) text(at point, s string, size float64, bold bool, align byte, width float64) {
	runs := fonts.Runs(fonts.Visual(s, bold), bold)
	measure := func(size float64) float64 {
		w := 0.0
		for _, r := range runs {
			w += fixedFloat(font.MeasureString(c.face(r.Face, size), r.Text))
		}
		return w
	}
	w := measure(size)
	if width > 0 && w > width*1.02 {
		size *= width / w
		w = measure(size)
	}
	dr := font.Drawer{Dst: c.img, Src: image.NewUniform(c.pen),
		Dot: fixed.Point26_6{X: fixed.Int26_6(alignX(at.X, w, align) * 64), Y: fixed.Int26_6(at.Y * 64)}}
	for _, r := range runs {
		dr.Face = c.face(r.Face, size)
		dr.DrawString(r.Text) // moves Dot to the end of the run
	}
}

func fixedFloat(v fixed.Int26_6) float64 { return float64(v) / 64 }

// faceKey is a font at a size in quarter pixels.
type faceKey struct {
	face    *fonts.Face
	quarter int
}

// face returns a font's face at a size. A parsed font is safe to share,
// its faces are not, so each canvas keeps its own.
func (c *rasterCanvas) face(f *fonts.Face, size float64) font.Face {
	key := faceKey{f, int(math.Round(size * 4))}
	if ff, ok := c.faces[key]; ok {
		return ff
	}
	if c.faces == nil {
		c.faces = map[faceKey]font.Face{}
	}
	ff, _ := opentype.NewFace(f.Font, &opentype.FaceOptions{Size: float64(key.quarter) / 4, DPI: 72, Hinting: font.HintingNone})
	c.faces[key] = ff
	return ff
}
