package diagram

import (
	"context"
	"io"

	"siteplan/diagram/internal/graphviz"
	"siteplan/site"
)

// Result says what a render drew.
type Result struct {
	Pages int // pages drawn (a collapsed branch's pages are not)
	// A PDF's sheets (the cover and appendix not counted) and the size
	// in points its smallest words print at.
	Sheets int
	TextPt float64
}

// MaxNodes is the most pages one diagram draws; past it, draw a
// branch or fewer levels.
const MaxNodes = 20_000

// UseWorkerProcess makes every later Graphviz layout of this process run
// in a worker process: this program, started again. Its main must call
// ServeIfWorker before anything else.
func UseWorkerProcess() error { return graphviz.UseWorkerProcess() }

// ServeIfWorker returns at once unless this process was started as a
// Graphviz worker; then it serves layouts until its parent is done, and
// exits.
func ServeIfWorker() { graphviz.ServeIfWorker() }

// Render draws t with its cross-links to w, as opt says. It waits for
// Graphviz at most until ctx is done. Errors: EInvalid and ENotFound as
// Options.Normalize, ETooLarge (more than MaxNodes pages, a PNG past
// MaxPNGPixels, or the render timed out).
func Render(ctx context.Context, w io.Writer, t *site.Tree, links []site.Link, opt Options) (Result, error) {
	if err := opt.Normalize(t); err != nil {
		return Result{}, err
	}
	if ctx.Err() != nil { // given up on before it began
		return Result{}, graphviz.TimeoutError()
	}
	if opt.Locale != "" { // the plan as the locale sees it, each page's state there on its card
		opt.states = map[int64]string{}
		t.Walk(func(p *site.Page, _ int) bool {
			opt.states[p.ID] = t.Variant(p, opt.Locale).State
			return true
		})
		t = t.InLocale(opt.Locale)
	}
	d := newDiagram(t, links, opt)
	res := Result{Pages: d.pages}
	if d.pages > MaxNodes {
		return res, site.Errorf(site.ETooLarge, "The diagram would draw %d pages; at most %d fit in one diagram. Draw one branch or fewer levels.", d.pages, MaxNodes)
	}
	format := opt.Format
	if format == FormatView {
		format = FormatSVG
		if d.pages > ViewSVGMax {
			format = FormatScene
		}
	}
	if format == FormatPNG { // refuse before laying out what cannot fit
		k := float64(opt.dpi()) / 72
		if px := d.minArea() * k * k; px > MaxPNGPixels {
			return res, site.Errorf(site.ETooLarge, "At %d dpi this diagram would be at least %d megapixels, more than a PNG here may hold. Download the PDF or SVG, a smaller scale, or draw one branch or fewer levels.", opt.dpi(), int(px/1e6))
		}
	}
	if format == FormatDOT {
		return res, (&dotWriter{d}).write(w)
	}
	if format == FormatMermaid {
		return res, d.writeMermaid(w)
	}
	if format == FormatPDF { // laid out sheet by sheet
		var err error
		res.Sheets, res.TextPt, err = writePDF(ctx, w, d, links)
		return res, err
	}
	pic, boxes, err := d.picture(ctx, true)
	if err != nil {
		return res, err
	}
	switch format {
	case FormatSVG:
		return res, writeSVG(w, pic)
	case FormatPNG:
		return res, d.writePNG(w, pic)
	case FormatScene:
		return res, writeScene(w, pic, boxes)
	}
	return res, d.writeGraphML(w, boxes)
}

// picture places the diagram: an org chart siteplan lays out itself, or
// a radial diagram Graphviz places the cards of. It returns each page's
// card box (points, y down).
func (d *diagram) picture(ctx context.Context, withLegend bool) (picture, map[int64]box, error) {
	var ch *chart
	if d.opt.Layout == LayoutRadial {
		var err error
		if ch, err = d.radial(ctx, withLegend); err != nil {
			return nil, nil, err
		}
	} else {
		ch = d.arrange(withLegend)
	}
	boxes := make(map[int64]box, len(d.cards))
	for _, c := range d.cards {
		boxes[c.page.ID] = box{c.x, c.y, c.x + c.w, c.y + c.h}
	}
	return chartPicture{d, ch}, boxes, nil
}
