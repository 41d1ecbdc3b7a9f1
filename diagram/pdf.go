package diagram

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"image"
	_ "image/png" // logos
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"siteplan/diagram/internal/fonts"
	"siteplan/site"
)

// Paper sizes for PDF diagrams.
const (
	PaperA4      = "a4"
	PaperA3      = "a3"
	PaperLetter  = "letter"
	PaperTabloid = "tabloid"
)

// Papers lists the paper sizes in display order.
var Papers = []string{PaperA4, PaperA3, PaperLetter, PaperTabloid}

// Orientations of the PDF's sheets.
const (
	Landscape = "landscape"
	Portrait  = "portrait"
)

// The PDF draws at most maxScale (a small plan is not blown up past
// readable), inside margins of about 1 cm, with a footer line.
const (
	maxScale = 1.4
	margin   = 28.0 // points
	footerH  = 14.0
)

// writePDF prints the diagram d prepares on sheets of the paper its
// options choose, as vector paths and selectable text: one sheet if it
// fits legibly, else an overview and a sheet per section (sheets.go);
// first a cover if asked for.
func writePDF(ctx context.Context, w io.Writer, d *diagram, links []site.Link) (sheets int, textPt float64, err error) {
	o := d.opt
	orient := "L"
	if o.Orientation == Portrait {
		orient = "P"
	}
	pdf := fpdf.NewCustom(&fpdf.InitType{OrientationStr: orient, UnitStr: "pt", SizeStr: o.Paper})
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetMargins(0, 0, 0)
	pdf.SetCompression(true)
	pdf.SetTitle(d.tree.Project.Name+" — "+strings.ToLower(d.title()), true)
	pdf.SetCreator("siteplan", true)
	pdf.SetCreationDate(o.Date)
	pdf.SetModificationDate(o.Date)
	tx := &pdfText{pdf: pdf, added: map[*fonts.Face]bool{}}
	pageW, pageH := pdf.GetPageSize()
	logo := registerLogo(pdf, o.Logo)

	headerH := d.titleBlockHeight(tx, pageW)
	ax, ay := margin, margin+headerH
	b := &book{ctx: ctx, t: d.tree, links: links, opt: o, area: point{pageW - 2*margin, pageH - ay - margin - footerH}}
	if err := b.plan(); err != nil {
		return 0, 0, err
	}
	textPt = math.Inf(1)
	for _, sh := range b.sheets {
		for _, dr := range sh.drawings() {
			if dr.d != nil {
				textPt = min(textPt, dr.scale*minTextPt/legible(dr.d.opt.compact))
			}
		}
	}
	if o.Cover {
		d.cover(tx, pageW, pageH, logo, b.sheets)
	}
	for i, sh := range b.sheets {
		pdf.AddPage()
		d.titleBlock(tx, pageW, logo, b.describe(i))
		d.footer(tx, pageW, pageH, i+1, len(b.sheets))
		pdf.ClipRect(ax, ay, b.area.X, b.area.Y, false)
		for _, dr := range sh.drawings() {
			printDrawing(pdf, tx, dr, point{ax, ay}, b.area, len(sh.also) > 0)
		}
		pdf.ClipEnd()
	}
	if len(o.Appendix) > 0 {
		d.appendix(tx, pageW, pageH, logo)
	}
	if o.Estimate != nil {
		d.estimateSheet(tx, pageW, pageH, logo)
	}
	return len(b.sheets), textPt, pdf.Output(w)
}

// appendix prints the options' sections of text after the sheets, page
// after page under the title block: each heading, then its lines,
// wrapped to the page's width.
func (d *diagram) appendix(tx *pdfText, pageW, pageH float64, logo *pdfLogo) {
	const size, lineH, headH = 9.0, 12.0, 18.0
	pdf := tx.pdf
	top, bottom, width := margin+d.titleBlockHeight(tx, pageW)+6, pageH-margin, pageW-2*margin
	y := bottom // a new page at once
	page := func() {
		pdf.AddPage()
		d.titleBlock(tx, pageW, logo, cmp.Or(d.opt.AppendixTitle, "Appendix"))
		y = top
	}
	for _, s := range d.opt.Appendix {
		if y+headH+lineH > bottom {
			page()
		}
		y += headH
		setColor(pdf, d.accent())
		tx.text(margin, y, clipWidth(s.Title, 11, true, width), 11, true)
		y += 4
		setColor(pdf, textColor)
		for _, l := range s.Lines {
			for _, w := range wrapWidth(l, size, false, width-12, 4) {
				if y+lineH > bottom {
					page()
				}
				y += lineH
				tx.text(margin+12, y, w, size, false)
			}
		}
		y += 6
	}
}

// printDrawing prints a sheet's drawing into the drawing area at a: its
// window if it is a tile, at its place if it is packed with others, else
// centred.
func printDrawing(pdf *fpdf.Fpdf, tx *pdfText, sh *sheet, a, area point, packed bool) {
	lw, lh := sh.pic.size()
	s, aw, ah := sh.scale, area.X, area.Y
	// The window of the drawing on this sheet, in points, y down.
	wx0, wy0 := float64(sh.col)*aw/s, float64(sh.row)*ah/s
	wx1, wy1 := wx0+aw/s, wy0+ah/s
	ox, oy := a.X, a.Y
	switch {
	case packed:
		ox, oy = ox+sh.at.X, oy+sh.at.Y
	case sh.cols == 0: // centre a drawing that fits
		ox += (aw - lw*s) / 2
		oy += (ah - lh*s) / 2
	}
	pt := &painter{c: &pdfCanvas{pdf: pdf, tx: tx}, scale: s,
		tx: func(x float64) float64 { return ox + (x-wx0)*s },
		ty: func(y float64) float64 { return oy + (lh-y-wy0)*s }}
	sh.pic.draw(pt, wx0, wy0, wx1, wy1)
}

// describe says what sheet i shows, for its title block: which section,
// what continues where, which tile.
func (b *book) describe(i int) string {
	sh := b.sheets[i]
	var parts []string
	if len(b.sheets) > 1 {
		parts = append(parts, fmt.Sprintf("Sheet %d of %d", i+1, len(b.sheets)))
	}
	switch {
	case len(sh.also) > 0:
		parts = append(parts, b.sectionNames(sh))
	case sh.root != nil && sh.overview:
		parts = append(parts, "Section "+trail(b.t, sh.root)+": its top levels")
	case sh.root != nil && sh.parts > 1:
		parts = append(parts, fmt.Sprintf("Section %s, part %d of %d", trail(b.t, sh.root), sh.part, sh.parts))
	case sh.root != nil:
		parts = append(parts, "Section "+trail(b.t, sh.root))
	case sh.overview:
		parts = append(parts, "Overview of the top levels")
	}
	if from := sheetList(sh, i+1); from != "" {
		parts = append(parts, "continued from "+from)
	}
	if sh.overview && i+1 < len(b.sheets) {
		parts = append(parts, "“on sheet N” marks a branch that continues")
	}
	if sh.cols > 0 {
		parts = append(parts, fmt.Sprintf("part %d of %d (row %d, column %d)", sh.row*sh.cols+sh.col+1, sh.rows*sh.cols, sh.row+1, sh.col+1))
	}
	return strings.Join(parts, " · ")
}

// sectionNames names the sections a packed sheet draws, the first few
// by name.
func (b *book) sectionNames(sh *sheet) string {
	var names []string
	lead := "Sections "
	for _, dr := range sh.drawings() {
		if dr.overview {
			lead = "Overview of the top levels; sections "
			if dr.root != nil {
				lead = "Section " + trail(b.t, dr.root) + ": its top levels; sections "
			}
			continue
		}
		name := dr.root.Title
		if dr.parts > 1 {
			name += fmt.Sprintf(" (part %d of %d)", dr.part, dr.parts)
		}
		if len(names) == 0 || names[len(names)-1] != name {
			names = append(names, name)
		}
	}
	const shown = 5
	if len(names) > shown {
		names = append(names[:shown], "and "+site.Plural(len(names)-shown, "more", "more"))
	}
	return lead + strings.Join(names, ", ")
}

// sheetList lists the other sheets the drawings of sheet number n
// continue from: "sheet 1", "sheets 1, 2"; "" for none.
func sheetList(sh *sheet, n int) string {
	var from []string
	for _, dr := range sh.drawings() {
		if s := strconv.Itoa(dr.from); dr.from > 0 && dr.from != n && !slices.Contains(from, s) {
			from = append(from, s)
		}
	}
	if len(from) == 1 {
		return "sheet " + from[0]
	}
	if len(from) > 1 {
		return "sheets " + strings.Join(from, ", ")
	}
	return ""
}

// keyItem is one entry of a PDF's key: a colour, or how a kind of page
// or a cross-link is drawn.
type keyItem struct {
	label string
	fill  string // a colour's swatch
	shape string // or a shape: a kind of page, or "link"
}

// key lists the colours of the legend, then the shapes.
func (d *diagram) key() []keyItem {
	var out []keyItem
	for _, it := range d.legend {
		out = append(out, keyItem{label: it.Label, fill: it.Fill})
	}
	for _, k := range site.Kinds {
		out = append(out, keyItem{label: k, shape: k})
	}
	if d.opt.Links {
		out = append(out, keyItem{label: "cross-link", shape: "link"})
	}
	return out
}

// The title block: the project's name, a line of facts, a line that says
// what the sheet shows, the notes, then the key.
const (
	noteLine = 13.0 // the height of a line under the title
	keyTop   = margin + 44.0 + noteLine
	logoH    = 30.0 // the logo's height in the title block
)

// legendAt places the key's items in rows under the title, the shapes
// apart from the colours, and returns each item's baseline position.
func (d *diagram) legendAt(tx *pdfText, pageW float64, key []keyItem) []point {
	at := make([]point, len(key))
	x, y := margin, keyTop+noteLine*float64(len(d.noteLines()))
	for i, it := range key {
		if i > 0 && it.shape != "" && key[i-1].shape == "" {
			x += 12
		}
		wi := 14 + tx.width(it.label, keySize, false) + 12
		if it.shape != "" {
			wi += 10
		}
		if x > margin && x+wi > pageW-margin {
			x, y = margin, y+12
		}
		at[i] = point{x, y}
		x += wi
	}
	return at
}

// titleBlockHeight is the height of the title block with its key.
func (d *diagram) titleBlockHeight(tx *pdfText, pageW float64) float64 {
	at := d.legendAt(tx, pageW, d.key())
	if len(at) == 0 {
		return 68 + noteLine
	}
	return at[len(at)-1].Y - margin + 24
}

// title says what the drawing is.
func (d *diagram) title() string {
	if d.opt.Title != "" {
		return d.opt.Title
	}
	return "Site plan"
}

// noteLines are the lines under a sheet's title: the notes, then the
// facts.
func (d *diagram) noteLines() []string {
	lines := slices.Clone(d.opt.Notes)
	for _, f := range d.opt.Facts {
		lines = append(lines, f[0]+": "+f[1])
	}
	return lines
}

// titleBlock prints the project name, date, page count, what the sheet
// shows, the notes, the key and the logo.
func (d *diagram) titleBlock(tx *pdfText, pageW float64, logo *pdfLogo, sheet string) {
	o, pdf := d.opt, tx.pdf
	right := pageW - margin
	if logo != nil {
		lw := logo.w * logoH / logo.h
		pdf.ImageOptions(logo.name, right-lw, margin, lw, logoH, false, fpdf.ImageOptions{}, 0, "")
		right -= lw + 12
	}
	setColor(pdf, textColor)
	tx.text(margin, margin+14, clipWidth(d.tree.Project.Name, 16, true, right-margin), 16, true)
	info := []string{d.title(), o.Date.Format("2 January 2006"), site.Plural(d.tree.Len(), "page", "pages")}
	if d.pages != d.tree.Len() {
		info[2] += " (" + strconv.Itoa(d.pages) + " shown)"
	}
	info = append(info, "colour: "+map[string]string{ColorByType: "page type", ColorByStatus: "status", ColorByChange: "change", ColorByCheck: "launch check", ColorByTreeTest: "tree test"}[d.opt.ColorBy])
	if o.ClientName != "" {
		info = append(info, "for "+o.ClientName)
	}
	if o.Agency != "" {
		info = append(info, "by "+o.Agency)
	}
	setColor(pdf, mutedColor)
	tx.text(margin, margin+30, clipWidth(strings.Join(info, " · "), 9, false, right-margin), 9, false)
	setColor(pdf, d.accent())
	tx.text(margin, margin+30+noteLine, clipWidth(sheet, 9, true, pageW-2*margin), 9, true)
	setColor(pdf, textColor)
	for i, n := range d.noteLines() {
		tx.text(margin, margin+30+noteLine*float64(i+2), clipWidth(n, 9, i == 0, pageW-2*margin), 9, i == 0)
	}
	setColor(pdf, mutedColor)
	y := keyTop
	key := d.key()
	for i, at := range d.legendAt(tx, pageW, key) {
		keySymbol(pdf, key[i], at)
		textX := at.X + 14
		if key[i].shape != "" {
			textX += 10
		}
		tx.text(textX, at.Y, key[i].label, keySize, false)
		y = at.Y
	}
	pdf.SetDashPattern(nil, 0)
	c := hex(d.accent())
	pdf.SetDrawColor(int(c.R), int(c.G), int(c.B))
	pdf.SetLineWidth(1)
	pdf.Line(margin, y+6, pageW-margin, y+6)
}

// footer prints the sheet's number at the bottom right, and who made the
// plan for whom at the left.
func (d *diagram) footer(tx *pdfText, pageW, pageH float64, n, of int) {
	o, pdf := d.opt, tx.pdf
	y := pageH - margin + 4
	setColor(pdf, mutedColor)
	num := fmt.Sprintf("%d / %d", n, of)
	tx.text(pageW-margin-tx.width(num, 8, false), y, num, 8, false)
	left := d.tree.Project.Name + " · " + strings.ToLower(d.title())
	if o.ClientName != "" {
		left += " for " + o.ClientName
	}
	if o.Agency != "" {
		left += " · " + o.Agency
	}
	tx.text(margin, y, clipWidth(left, 8, false, pageW-2*margin-60), 8, false)
}

// setColor makes a "#rrggbb" colour the PDF's text colour.
func setColor(pdf *fpdf.Fpdf, s string) {
	c := hex(s)
	pdf.SetTextColor(int(c.R), int(c.G), int(c.B))
}

// pdfLogo is the agency's logo registered in the PDF.
type pdfLogo struct {
	name string
	w, h float64 // pixels
}

// registerLogo adds a PNG logo to the PDF; nil if there is none or it
// does not decode.
func registerLogo(pdf *fpdf.Fpdf, b []byte) *pdfLogo {
	if len(b) == 0 {
		return nil
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || format != "png" || cfg.Width == 0 || cfg.Height == 0 {
		return nil
	}
	pdf.RegisterImageOptionsReader("logo", fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(b))
	if pdf.Err() {
		pdf.ClearError()
		return nil
	}
	return &pdfLogo{name: "logo", w: float64(cfg.Width), h: float64(cfg.Height)}
}

// keySymbol draws a key item's swatch or shape left of its baseline
// position, as the diagram draws that colour, kind of page or link.
func keySymbol(pdf *fpdf.Fpdf, it keyItem, at point) {
	pen := func(hex string, width float64, dash ...float64) {
		c, _ := parseColor(hex)
		pdf.SetDrawColor(int(c.R), int(c.G), int(c.B))
		pdf.SetLineWidth(width)
		pdf.SetDashPattern(dash, 0)
	}
	pdf.SetFillColor(255, 255, 255)
	switch it.shape {
	case "":
		c, _ := parseColor(it.fill)
		pdf.SetFillColor(int(c.R), int(c.G), int(c.B))
		pen("#94a3b8", 0.5)
		pdf.Rect(at.X, at.Y-7, 9, 9, "DF")
	case site.KindGroup:
		pen(mutedColor, 1.4)
		pdf.Rect(at.X, at.Y-7, 19, 9, "DF")
	case "link":
		pen(linkColor, 0.8, 2, 1.5)
		pdf.Line(at.X, at.Y-2.5, at.X+19, at.Y-2.5)
	default:
		switch it.shape {
		case site.KindPlaceholder:
			pen(mutedColor, 0.6, 2, 1.5)
		case site.KindExternal:
			pen(externalColor, 1.2, 0.6, 1.2)
		default:
			pen(mutedColor, 0.6)
		}
		pdf.RoundedRect(at.X, at.Y-7, 19, 9, 2.5, "1234", "DF")
	}
	pdf.SetDashPattern(nil, 0)
}

// keySize is the size of the key's labels.
const keySize = 8

// pdfCanvas draws on the current PDF page.
type pdfCanvas struct {
	pdf       *fpdf.Fpdf
	tx        *pdfText
	pen, fill bool
}

func (c *pdfCanvas) setPen(col rgb, visible bool) {
	c.pen = visible
	c.pdf.SetDrawColor(int(col.R), int(col.G), int(col.B))
	c.pdf.SetTextColor(int(col.R), int(col.G), int(col.B))
}

func (c *pdfCanvas) setFill(col rgb, visible bool) {
	c.fill = visible
	c.pdf.SetFillColor(int(col.R), int(col.G), int(col.B))
}

func (c *pdfCanvas) group(id, class, title string) {}
func (c *pdfCanvas) end()                          {}

func (c *pdfCanvas) setLineWidth(w float64) { c.pdf.SetLineWidth(w) }

func (c *pdfCanvas) setDash(on, off float64) {
	if on == 0 {
		c.pdf.SetDashPattern(nil, 0)
		return
	}
	c.pdf.SetDashPattern([]float64{on, off}, 0)
}

// style is fpdf's paint style for a shape, "" for nothing to paint.
func (c *pdfCanvas) style(fill bool) string {
	switch {
	case fill && c.fill && c.pen:
		return "DF"
	case fill && c.fill:
		return "F"
	case c.pen:
		return "D"
	}
	return ""
}

func (c *pdfCanvas) polygon(pts []point, fill bool) {
	if s := c.style(fill); s != "" {
		fp := make([]fpdf.PointType, len(pts))
		for i, p := range pts {
			fp[i] = fpdf.PointType{X: p.X, Y: p.Y}
		}
		c.pdf.Polygon(fp, s)
	}
}

func (c *pdfCanvas) polyline(pts []point) {
	if !c.pen || len(pts) < 2 {
		return
	}
	c.pdf.MoveTo(pts[0].X, pts[0].Y)
	for _, p := range pts[1:] {
		c.pdf.LineTo(p.X, p.Y)
	}
	c.pdf.DrawPath("D")
}

func (c *pdfCanvas) bezier(pts []point, fill bool) {
	s := c.style(fill)
	if s == "" {
		return
	}
	c.pdf.MoveTo(pts[0].X, pts[0].Y)
	for i := 1; i+2 < len(pts); i += 3 {
		c.pdf.CurveBezierCubicTo(pts[i].X, pts[i].Y, pts[i+1].X, pts[i+1].Y, pts[i+2].X, pts[i+2].Y)
	}
	if fill {
		c.pdf.ClosePath()
	}
	c.pdf.DrawPath(s)
}

func (c *pdfCanvas) ellipse(at point, rx, ry float64, fill bool) {
	if s := c.style(fill); s != "" {
		c.pdf.Ellipse(at.X, at.Y, rx, ry, 0, s)
	}
}

// text prints a span where Graphviz placed it. Graphviz measured it with
// Helvetica's metrics; a span that runs wider in the embedded fonts is
// shrunk to the width Graphviz gave it.
func (c *pdfCanvas) text(at point, s string, size float64, bold bool, align byte, width float64) {
	w := c.tx.width(s, size, bold)
	if width > 0 && w > width*1.02 {
		size *= width / w
		w = c.tx.width(s, size, bold)
	}
	c.tx.text(alignX(at.X, w, align), at.Y, s, size, bold)
}

// pdfText prints text in the embedded fonts, a run per font, adding each
// font to the PDF when text first needs it (the CJK font is large: a PDF
// without CJK text neither pays for it nor carries it). fpdf embeds characters up to U+FFFF only
// (past that its font subsetting panics), so an emoji or another
// character beyond is drawn as its glyph's outline: visible, not
// selectable.
type pdfText struct {
	pdf   *fpdf.Fpdf
	added map[*fonts.Face]bool
	buf   sfnt.Buffer
}

// piece is a run's text up to U+FFFF, or one character beyond.
type piece struct {
	face    *fonts.Face
	text    string
	outline bool
}

// pieces splits s into what fpdf prints and what is drawn as outlines.
func (t *pdfText) pieces(s string, bold bool) []piece {
	var out []piece
	for _, r := range fonts.Runs(fonts.Visual(s, bold), bold) {
		start := 0
		for i, ch := range r.Text {
			if ch <= 0xFFFF {
				continue
			}
			if i > start {
				out = append(out, piece{face: r.Face, text: r.Text[start:i]})
			}
			out = append(out, piece{face: r.Face, text: string(ch), outline: true})
			start = i + utf8.RuneLen(ch)
		}
		if start < len(r.Text) {
			out = append(out, piece{face: r.Face, text: r.Text[start:]})
		}
	}
	return out
}

// use makes f the PDF's current font at size.
func (t *pdfText) use(f *fonts.Face, size float64) {
	if !t.added[f] {
		t.pdf.AddUTF8FontFromBytes(f.Name, "", f.TTF)
		t.added[f] = true
	}
	t.pdf.SetFont(f.Name, "", size)
}

// glyph returns the glyph of an outline piece's character.
func (t *pdfText) glyph(p piece) sfnt.GlyphIndex {
	r, _ := utf8.DecodeRuneInString(p.text)
	i, _ := p.face.Font.GlyphIndex(&t.buf, r)
	return i
}

// pieceWidth is how wide a piece prints at size.
func (t *pdfText) pieceWidth(p piece, size float64) float64 {
	if p.outline {
		adv, err := p.face.Font.GlyphAdvance(&t.buf, t.glyph(p), fixed.Int26_6(size*64), font.HintingNone)
		if err != nil {
			return 0
		}
		return float64(adv) / 64
	}
	t.use(p.face, size)
	return t.pdf.GetStringWidth(p.text)
}

// width is how wide s prints at size.
func (t *pdfText) width(s string, size float64, bold bool) float64 {
	w := 0.0
	for _, p := range t.pieces(s, bold) {
		w += t.pieceWidth(p, size)
	}
	return w
}

// text prints s with its baseline starting at (x, y), in the text colour.
func (t *pdfText) text(x, y float64, s string, size float64, bold bool) {
	for _, p := range t.pieces(s, bold) {
		if p.outline {
			t.outline(p, x, y, size)
		} else {
			t.use(p.face, size)
			t.pdf.Text(x, y, p.text)
		}
		x += t.pieceWidth(p, size)
	}
}

// outline fills the glyph of an outline piece at (x, y) in the text
// colour.
func (t *pdfText) outline(p piece, x, y, size float64) {
	segs, err := p.face.Font.LoadGlyph(&t.buf, t.glyph(p), fixed.Int26_6(size*64), nil)
	if err != nil || len(segs) == 0 {
		return
	}
	pdf := t.pdf
	fr, fg, fb := pdf.GetFillColor()
	tr, tg, tb := pdf.GetTextColor()
	pdf.SetFillColor(tr, tg, tb)
	pt := func(a fixed.Point26_6) (float64, float64) { return x + float64(a.X)/64, y + float64(a.Y)/64 }
	open := false
	for _, sg := range segs {
		switch sg.Op {
		case sfnt.SegmentOpMoveTo:
			if open {
				pdf.ClosePath()
			}
			pdf.MoveTo(pt(sg.Args[0]))
			open = true
		case sfnt.SegmentOpLineTo:
			pdf.LineTo(pt(sg.Args[0]))
		case sfnt.SegmentOpQuadTo:
			cx, cy := pt(sg.Args[0])
			ex, ey := pt(sg.Args[1])
			pdf.CurveTo(cx, cy, ex, ey)
		case sfnt.SegmentOpCubeTo:
			c1x, c1y := pt(sg.Args[0])
			c2x, c2y := pt(sg.Args[1])
			ex, ey := pt(sg.Args[2])
			pdf.CurveBezierCubicTo(c1x, c1y, c2x, c2y, ex, ey)
		}
	}
	pdf.ClosePath()
	pdf.DrawPath("F") // non-zero winding, as TrueType outlines are drawn
	pdf.SetFillColor(fr, fg, fb)
}
