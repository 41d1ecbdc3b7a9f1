package export

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"siteplan/site"
)

// MaxPNGPixels bounds a PNG's memory (4 bytes a pixel while drawing).
const MaxPNGPixels = 120_000_000

// diagramPad is the margin around a drawing, as the SVG has it (Graphviz's
// pad=0.3 inches).
const diagramPad = 0.3 * 72

// writePNG rasterises the laid-out diagram at PNGDPI. go-graphviz's own
// PNG renderer fills edges and drops node borders, so siteplan draws the
// PNG from the same layout as the PDF.
func (d *Diagram) writePNG(w io.Writer, l *layout) error {
	k := float64(PNGDPI) / 72
	wpx := int(math.Ceil((l.width + 2*diagramPad) * k))
	hpx := int(math.Ceil((l.height + 2*diagramPad) * k))
	if wpx*hpx > MaxPNGPixels {
		return site.Errorf(site.ETooLarge, "At %d dpi this diagram would be %d × %d pixels, more than a PNG here may hold. Download the PDF or SVG, or draw one branch.", PNGDPI, wpx, hpx)
	}
	img := image.NewRGBA(image.Rect(0, 0, wpx, hpx))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	c := &rasterCanvas{img: img}
	p := &painter{c: c, scale: k,
		tx: func(x float64) float64 { return (x + diagramPad) * k },
		ty: func(y float64) float64 { return (l.height - y + diagramPad) * k }}
	p.drawLayout(l, -diagramPad, -diagramPad, l.width+diagramPad, l.height+diagramPad)
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return enc.Encode(w, img)
}

// rasterCanvas draws on an image with anti-aliased paths and the Go fonts.
type rasterCanvas struct {
	img       *image.RGBA
	z         vector.Rasterizer
	pen, fill color.RGBA
	penOK     bool
	fillOK    bool
	width     float64
	on, off   float64
	faces     map[[2]int]font.Face
}

func (c *rasterCanvas) setPen(col rgb, visible bool) {
	c.pen, c.penOK = color.RGBA{col.R, col.G, col.B, 255}, visible
}

func (c *rasterCanvas) setFill(col rgb, visible bool) {
	c.fill, c.fillOK = color.RGBA{col.R, col.G, col.B, 255}, visible
}

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

func (c *rasterCanvas) text(at point, s string, size float64, bold bool, align byte, width float64) {
	face := c.face(bold, size)
	w := fixedFloat(font.MeasureString(face, s))
	if width > 0 && w > width*1.02 {
		face = c.face(bold, size*width/w)
		w = fixedFloat(font.MeasureString(face, s))
	}
	x := at.X
	switch align {
	case 'c':
		x -= w / 2
	case 'r':
		x -= w
	}
	dr := font.Drawer{Dst: c.img, Src: image.NewUniform(c.pen), Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(at.Y * 64)}}
	dr.DrawString(s)
}

func fixedFloat(v fixed.Int26_6) float64 { return float64(v) / 64 }

// goFonts are the parsed Go fonts; a parsed font is safe to share, its
// faces are not, so each canvas keeps its own.
var goFonts = sync.OnceValue(func() [2]*opentype.Font {
	regular, _ := opentype.Parse(goregular.TTF)
	bold, _ := opentype.Parse(gobold.TTF)
	return [2]*opentype.Font{regular, bold}
})

// face returns a Go font face by weight and size (in quarter pixels).
func (c *rasterCanvas) face(bold bool, size float64) font.Face {
	key := [2]int{0, int(math.Round(size * 4))}
	if bold {
		key[0] = 1
	}
	if face, ok := c.faces[key]; ok {
		return face
	}
	if c.faces == nil {
		c.faces = map[[2]int]font.Face{}
	}
	face, _ := opentype.NewFace(goFonts()[key[0]], &opentype.FaceOptions{Size: float64(key[1]) / 4, DPI: 72, Hinting: font.HintingNone})
	c.faces[key] = face
	return face
}
