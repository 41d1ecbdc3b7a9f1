package diagram

import (
	"container/heap"
	"math"
	"slices"

	"siteplan/diagram/internal/fonts"
	"siteplan/site"
)

// Cross-links are routed through the free space of a drawing: on a grid
// over the chart whose cells under a card (or the legend) are closed, a
// shortest path with few turns runs from a side of one card to a side
// of the other through the gaps between columns and levels, kept off
// the tree's connectors where it can be. Its corners are rounded, and its
// label goes on the longest straight stretch where it covers no card and
// no other label.

const (
	routeCell   = 8.0     // points a side of a grid cell
	routeCells  = 400_000 // past this many cells the cells grow
	routePad    = 4.0     // room kept around a card
	routeTurn   = 6       // what a turn costs, in cells
	routeNear   = 2       // what a cell on a connector costs extra
	routeShared = 20      // what a cell on a link routed before costs extra
	routeRadius = 6.0     // a corner's radius
	arrowLen    = 7.0
)

// router is the grid a drawing's cross-links are routed on.
type router struct {
	cell    float64
	cols    int
	rows    int
	cost    []uint8 // per cell: 0 free, routeBlocked closed, else extra cost
	w, h    float64
	taken   []box // labels placed so far
	blocked []box // cards and the legend, for labels
	// The search's state (cell*4 + direction), reused: its cost, the
	// state before it, and the search (gen) that set them.
	dist, prev []int32
	seen       []uint32
	gen        uint32
}

const routeBlocked = 255

// routeLinks routes the drawing's cross-links on its chart, and grows the
// chart to hold their labels.
func (d *diagram) routeLinks(ch *chart) {
	if !d.opt.Links {
		return
	}
	var links []site.Link
	for _, l := range d.links {
		if d.drawsLink(l) && d.byID[l.FromID] != d.byID[l.ToID] {
			links = append(links, l)
		}
	}
	ch.links = map[int64]curve{}
	if len(links) == 0 {
		return
	}
	r := newRouter(d, ch)
	for _, l := range links {
		a, b := d.byID[l.FromID], d.byID[l.ToID]
		cv := r.route(a, b)
		if l.Label != "" {
			w, h := fonts.Measure(l.Label, d.labelSize(9), false)+8, d.labelSize(9)+5
			var beside bool
			if cv.label, beside = r.placeLabel(cv.path, w, h); !beside {
				// No room beside the path: the link goes through its
				// label, at the free place that makes it shortest, so
				// that the label still reads as that link's.
				bestN := math.MaxInt
				for _, c := range r.spots(pathMiddle(cv.path), w, h) {
					if via, n := r.routeVia(a, b, c, w, h); n < bestN {
						cv, bestN = via, n
					}
				}
			}
			r.taken = append(r.taken, box{cv.label.X - w/2, cv.label.Y - h/2, cv.label.X + w/2, cv.label.Y + h/2})
			r.close(r.taken[len(r.taken)-1])
		}
		r.share(cv.path)
		ch.links[l.ID] = cv
	}
}

// close shuts the cells under a label to the links routed after it.
func (r *router) close(b box) {
	c0, r0 := r.at(point{b.x0, b.y0})
	c1, r1 := r.at(point{b.x1, b.y1})
	for y := r0; y <= r1; y++ {
		for x := c0; x <= c1; x++ {
			r.cost[y*r.cols+x] = routeBlocked
		}
	}
}

// share makes the cells a link runs through dearer for the links routed
// after it, so that two links share a lane only where there is no other.
func (r *router) share(path []point) {
	for i := 1; i < len(path); i++ {
		c0, r0 := r.at(point{min(path[i-1].X, path[i].X), min(path[i-1].Y, path[i].Y)})
		c1, r1 := r.at(point{max(path[i-1].X, path[i].X), max(path[i-1].Y, path[i].Y)})
		for y := r0; y <= r1; y++ {
			for x := c0; x <= c1; x++ {
				if i := y*r.cols + x; r.cost[i] != routeBlocked {
					r.cost[i] = max(r.cost[i], routeShared)
				}
			}
		}
	}
}

// routeVia routes a link from card a to card b through a label of w×h
// centred at c: into one side of the label and out of the other, the
// line hidden under the label's ground, the way out kept off the way
// in. It returns the route and its length in cells, math.MaxInt if
// there is no such way.
func (r *router) routeVia(a, b *card, c point, w, h float64) (curve, int) {
	lb := &card{x: c.X - w/2, y: c.Y - h/2, w: w, h: h}
	in := []port{}
	for _, p := range r.ports(lb) {
		if math.Abs(p.on.Y-c.Y) < 0.01 || math.Abs(p.on.X-c.X) < 0.01 { // the middle of a side
			in = append(in, p)
		}
	}
	best, bestN := curve{}, math.MaxInt
	for _, enter := range in {
		for _, leave := range in {
			if leave.dir != (enter.dir+2)%4 {
				continue // straight through the label, under its ground
			}
			first := r.search(r.ports(a), []port{enter})
			if first == nil {
				continue
			}
			one := r.pathOf(first, r.ports(a), []port{enter})
			saved := slices.Clone(r.cost)
			r.share(one)
			second := r.search([]port{leave}, r.ports(b))
			r.cost = saved
			if second == nil || len(first)+len(second) >= bestN {
				continue
			}
			cv := r.finish(append(one, r.pathOf(second, []port{leave}, r.ports(b))...))
			if !crosses(cv.path, box{c.X - w/2, c.Y - h/2, c.X + w/2, c.Y + h/2}) {
				continue // it doubled back before the label
			}
			cv.label = c
			best, bestN = cv, len(first)+len(second)
		}
	}
	return best, bestN
}

// crosses reports whether a path of straight segments runs through b.
func crosses(path []point, b box) bool {
	for i := 1; i < len(path); i++ {
		p, q := path[i-1], path[i]
		if min(p.X, q.X) < b.x1 && max(p.X, q.X) > b.x0 && min(p.Y, q.Y) < b.y1 && max(p.Y, q.Y) > b.y0 {
			return true
		}
	}
	return false
}

// spots lists free places for a label of w×h that a link can pass
// through, the nearest to mid in each of eight directions.
func (r *router) spots(mid point, w, h float64) []point {
	var out []point
	found := [8]bool{}
	for ring := 8.0; ring <= 480 && len(out) < 8; ring += 8 {
		for a := 0.0; a < 2*math.Pi; a += 4 / ring {
			dir := int(a/(math.Pi/4)) % 8
			if c := (point{mid.X + ring*math.Cos(a), mid.Y + ring*math.Sin(a)}); !found[dir] && r.free(c, w, h, routePad+r.cell) {
				out, found[dir] = append(out, c), true
			}
		}
	}
	return out
}

// newRouter closes the cells under the drawing's cards, legend and
// navigation headings, and marks those on its connectors.
func newRouter(d *diagram, ch *chart) *router {
	cell := routeCell
	for (ch.w/cell+1)*(ch.h/cell+1) > routeCells {
		cell *= 1.5
	}
	r := &router{cell: cell, cols: int(ch.w/cell) + 1, rows: int(ch.h/cell) + 1, w: ch.w, h: ch.h}
	r.cost = make([]uint8, r.cols*r.rows)
	mark := func(b box, v uint8) {
		c0, r0 := r.at(point{b.x0, b.y0})
		c1, r1 := r.at(point{b.x1, b.y1})
		for y := r0; y <= r1; y++ {
			for x := c0; x <= c1; x++ {
				if i := y*r.cols + x; r.cost[i] != routeBlocked {
					r.cost[i] = max(r.cost[i], v)
				}
			}
		}
	}
	for _, wr := range ch.wires {
		for i := 1; i < len(wr.pts); i++ {
			a, b := wr.pts[i-1], wr.pts[i]
			mark(box{min(a.X, b.X), min(a.Y, b.Y), max(a.X, b.X), max(a.Y, b.Y)}, routeNear)
		}
	}
	for _, c := range d.cards {
		b := box{c.x, c.y, c.x + c.w, c.y + c.h}
		r.blocked = append(r.blocked, b)
		mark(box{b.x0 - routePad, b.y0 - routePad, b.x1 + routePad, b.y1 + routePad}, routeBlocked)
	}
	closed := func(b box) {
		r.blocked = append(r.blocked, b)
		mark(box{b.x0 - routePad, b.y0 - routePad, b.x1 + routePad, b.y1 + routePad}, routeBlocked)
	}
	if l := ch.legend; l != nil {
		closed(*l)
	}
	for _, f := range ch.frames { // a navigation frame's heading
		closed(box{f.x, f.y, f.x + 2*framePad + fonts.Measure(frameLabel(f.placement), d.labelSize(10), true), f.y + framePad + frameLabelH - 4})
	}
	for _, h := range ch.hubs {
		closed(h.box)
	}
	return r
}

// at is the cell a point is in, clamped to the grid.
func (r *router) at(p point) (int, int) {
	x := min(max(int(p.X/r.cell), 0), r.cols-1)
	y := min(max(int(p.Y/r.cell), 0), r.rows-1)
	return x, y
}

// centre is the middle of a cell.
func (r *router) centre(x, y int) point {
	return point{(float64(x) + 0.5) * r.cell, (float64(y) + 0.5) * r.cell}
}

// The four directions a path takes, in cells.
var steps = [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

// port is where a route may leave or reach a card: the first free cell
// out from a point on one of its sides, the point and the direction out.
type port struct {
	x, y int
	on   point
	dir  int
}

// ports lists the free cells just outside a card's sides, a few a side.
func (r *router) ports(c *card) []port {
	var out []port
	add := func(on point, dir int) {
		p := point{on.X + float64(steps[dir][0])*(routePad+r.cell/2), on.Y + float64(steps[dir][1])*(routePad+r.cell/2)}
		if p.X < 0 || p.Y < 0 || p.X >= r.w || p.Y >= r.h {
			return
		}
		x, y := r.at(p)
		for k := 0; k < 3 && r.cost[y*r.cols+x] == routeBlocked; k++ {
			x, y = x+steps[dir][0], y+steps[dir][1]
			if x < 0 || y < 0 || x >= r.cols || y >= r.rows {
				return
			}
		}
		if r.cost[y*r.cols+x] != routeBlocked {
			out = append(out, port{x, y, on, dir})
		}
	}
	for _, f := range []float64{0.5, 0.25, 0.75} {
		add(point{c.x + c.w, c.y + c.h*f}, 0)
		add(point{c.x, c.y + c.h*f}, 2)
		add(point{c.x + c.w*f, c.y + c.h}, 1)
		add(point{c.x + c.w*f, c.y}, 3)
	}
	return out
}

// route finds the path from card a to card b: a shortest one through
// free cells with a cost for each turn; a plain curve if there is none.
func (r *router) route(a, b *card) curve {
	from, to := r.ports(a), r.ports(b)
	cells := r.search(from, to)
	if cells == nil {
		return plainCurve(a, b)
	}
	return r.finish(r.pathOf(cells, from, to))
}

// pathOf is the path along cells from one of the from ports to one of
// the to ports: out of a side, along the cells' centres, into a side.
// The straight runs next to the ends keep to the ports' lines, so that
// the path leaves and reaches them without a jog.
func (r *router) pathOf(cells [][2]int, from, to []port) []point {
	first, last := cells[0], cells[len(cells)-1]
	pa, pb := portAt(from, first), portAt(to, last)
	pts := make([]point, len(cells))
	for i, c := range cells {
		pts[i] = r.centre(c[0], c[1])
	}
	snap := func(idx []int, p port) {
		for _, i := range idx {
			if p.dir%2 == 0 { // a horizontal run at the port's height
				if cells[i][1] != cells[idx[0]][1] {
					return
				}
				pts[i].Y = p.on.Y
			} else {
				if cells[i][0] != cells[idx[0]][0] {
					return
				}
				pts[i].X = p.on.X
			}
		}
	}
	fwd, back := make([]int, len(cells)), make([]int, len(cells))
	for i := range cells {
		fwd[i], back[i] = i, len(cells)-1-i
	}
	snap(fwd, pa)
	snap(back, pb)
	pts = append([]point{pa.on}, pts...)
	return append(pts, pb.on)
}

// finish squares a path up, stops it short of its end for the arrow,
// and rounds its corners.
func (r *router) finish(pts []point) curve {
	pts = corners(squareUp(pts))
	tip := pts[len(pts)-1]
	prev := pts[len(pts)-2]
	dx, dy := tip.X-prev.X, tip.Y-prev.Y
	n := math.Max(math.Hypot(dx, dy), 0.01)
	cut := math.Min(arrowLen, n)
	pts[len(pts)-1] = point{tip.X - dx/n*cut, tip.Y - dy/n*cut}
	return curve{pts: rounded(pts), path: pts, tip: tip, label: pathMiddle(pts)}
}

// portAt is the port of a cell.
func portAt(ports []port, c [2]int) port {
	for _, p := range ports {
		if p.x == c[0] && p.y == c[1] {
			return p
		}
	}
	return ports[0]
}

// squareUp makes every segment of a path horizontal or vertical, adding
// a corner where two points differ in both.
func squareUp(pts []point) []point {
	out := []point{pts[0]}
	for _, p := range pts[1:] {
		q := out[len(out)-1]
		if math.Abs(p.X-q.X) > 0.01 && math.Abs(p.Y-q.Y) > 0.01 {
			if len(out) > 1 && math.Abs(out[len(out)-2].Y-q.Y) < 0.01 { // carry on as before
				out = append(out, point{p.X, q.Y})
			} else {
				out = append(out, point{q.X, p.Y})
			}
		}
		out = append(out, p)
	}
	return out
}

// corners keeps only the points where a path turns.
func corners(pts []point) []point {
	out := []point{pts[0]}
	for i := 1; i < len(pts)-1; i++ {
		a, b, c := out[len(out)-1], pts[i], pts[i+1]
		if math.Abs((b.X-a.X)*(c.Y-b.Y)-(b.Y-a.Y)*(c.X-b.X)) < 0.01 || (a == b) {
			continue
		}
		out = append(out, b)
	}
	return append(out, pts[len(pts)-1])
}

// rounded turns a path of straight segments into cubic segments with
// rounded corners: the points of a bezier path (1 + 3n).
func rounded(pts []point) []point {
	out := []point{pts[0]}
	line := func(q point) { p := out[len(out)-1]; out = append(out, p, q, q) }
	for i := 1; i < len(pts)-1; i++ {
		a, b, c := pts[i-1], pts[i], pts[i+1]
		la, lc := math.Hypot(b.X-a.X, b.Y-a.Y), math.Hypot(c.X-b.X, c.Y-b.Y)
		rad := math.Min(routeRadius, math.Min(la, lc)/2)
		if rad < 0.5 {
			line(b)
			continue
		}
		in := point{b.X - (b.X-a.X)/la*rad, b.Y - (b.Y-a.Y)/la*rad}
		outp := point{b.X + (c.X-b.X)/lc*rad, b.Y + (c.Y-b.Y)/lc*rad}
		line(in)
		k := 0.552
		out = append(out, point{in.X + (b.X-in.X)*k, in.Y + (b.Y-in.Y)*k}, point{outp.X + (b.X-outp.X)*k, outp.Y + (b.Y-outp.Y)*k}, outp)
	}
	line(pts[len(pts)-1])
	return out
}

// pathMiddle is the point halfway along a path.
func pathMiddle(pts []point) point {
	total := 0.0
	for i := 1; i < len(pts); i++ {
		total += math.Hypot(pts[i].X-pts[i-1].X, pts[i].Y-pts[i-1].Y)
	}
	half := total / 2
	for i := 1; i < len(pts); i++ {
		l := math.Hypot(pts[i].X-pts[i-1].X, pts[i].Y-pts[i-1].Y)
		if l >= half && l > 0 {
			return point{pts[i-1].X + (pts[i].X-pts[i-1].X)*half/l, pts[i-1].Y + (pts[i].Y-pts[i-1].Y)*half/l}
		}
		half -= l
	}
	return pts[0]
}

// search finds the cheapest way from any of the from ports to any of
// the to ports: first within a window round both cards, which is where
// nearly every link finds its way, then over the whole grid.
func (r *router) search(from, to []port) [][2]int {
	if len(from) == 0 || len(to) == 0 {
		return nil
	}
	w := window{r.cols, r.rows, -1, -1}
	for _, p := range append(slices.Clone(from), to...) {
		w = window{min(w.x0, p.x), min(w.y0, p.y), max(w.x1, p.x), max(w.y1, p.y)}
	}
	const margin = 24 // cells
	w = window{max(0, w.x0-margin), max(0, w.y0-margin), min(r.cols-1, w.x1+margin), min(r.rows-1, w.y1+margin)}
	if cells := r.searchIn(w, from, to); cells != nil {
		return cells
	}
	if w == (window{0, 0, r.cols - 1, r.rows - 1}) {
		return nil
	}
	return r.searchIn(window{0, 0, r.cols - 1, r.rows - 1}, from, to)
}

// window is a rectangle of cells, its corners included.
type window struct{ x0, y0, x1, y1 int }

// searchIn is A* over the window's cells: each step costs one and the
// cell's extra, each turn routeTurn. It returns the cells in order, or
// nil if no path joins the ports inside the window.
func (r *router) searchIn(w window, from, to []port) [][2]int {
	ww, wh := w.x1-w.x0+1, w.y1-w.y0+1
	n := ww * wh
	local := func(x, y int) int { return (y-w.y0)*ww + (x - w.x0) }
	goal := make(map[int]bool, len(to))
	tx, ty := 0.0, 0.0
	for _, p := range to {
		goal[local(p.x, p.y)] = true
		tx, ty = tx+float64(p.x-w.x0), ty+float64(p.y-w.y0)
	}
	tx, ty = tx/float64(len(to)), ty/float64(len(to))
	h := func(i int) int {
		x, y := float64(i%ww), float64(i/ww)
		d := math.Abs(x-tx) + math.Abs(y-ty) - 3 // ports spread round the card
		return max(0, int(d))
	}
	if len(r.dist) < 4*n {
		r.dist, r.prev, r.seen = make([]int32, 4*n), make([]int32, 4*n), make([]uint32, 4*n)
	}
	r.gen++
	gen := r.gen
	q := &stateQueue{}
	for _, p := range from {
		s := local(p.x, p.y)*4 + p.dir
		r.dist[s], r.prev[s], r.seen[s] = 0, -1, gen
		heap.Push(q, queued{s, h(s / 4)})
	}
	for limit := 8 * n; q.Len() > 0 && limit > 0; limit-- {
		cur := heap.Pop(q).(queued)
		s := cur.state
		cell, dir := s/4, s%4
		g := int(r.dist[s])
		if cur.f-h(cell) > g { // stale
			continue
		}
		if goal[cell] {
			var cells [][2]int
			for ; s >= 0; s = int(r.prev[s]) {
				c := [2]int{s/4%ww + w.x0, s/4/ww + w.y0}
				if len(cells) == 0 || cells[len(cells)-1] != c {
					cells = append(cells, c)
				}
			}
			slices.Reverse(cells)
			return cells
		}
		x, y := cell%ww, cell/ww
		for nd, st := range steps {
			if nd == (dir+2)%4 {
				continue
			}
			nx, ny := x+st[0], y+st[1]
			if nx < 0 || ny < 0 || nx >= ww || ny >= wh {
				continue
			}
			c := r.cost[(ny+w.y0)*r.cols+nx+w.x0]
			if c == routeBlocked {
				continue
			}
			ng := g + 1 + int(c)
			if nd != dir {
				ng += routeTurn
			}
			ni := ny*ww + nx
			ns := ni*4 + nd
			if r.seen[ns] == gen && int(r.dist[ns]) <= ng {
				continue
			}
			r.dist[ns], r.prev[ns], r.seen[ns] = int32(ng), int32(s), gen
			heap.Push(q, queued{ns, ng + h(ni)})
		}
	}
	return nil
}

type queued struct{ state, f int }

type stateQueue []queued

func (q stateQueue) Len() int           { return len(q) }
func (q stateQueue) Less(i, j int) bool { return q[i].f < q[j].f }
func (q stateQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *stateQueue) Push(x any)        { *q = append(*q, x.(queued)) }
func (q *stateQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// placeLabel finds the centre of a label of w×h on a path: on a straight
// stretch, the nearest the path's middle, where it covers no card, no
// label placed before and no other link; beside the path if nowhere on
// it. It reports false, with the path's middle, if there is no room.
func (r *router) placeLabel(path []point, w, h float64) (c point, beside bool) {
	mid := pathMiddle(path)
	free := func(c point) bool { return r.free(c, w, h, 1) }
	best, bestD := mid, math.Inf(1)
	for _, off := range []float64{0, 1, -1, 2, -2} { // on the line, then beside it
		for i := 1; i < len(path); i++ {
			a, b := path[i-1], path[i]
			l := math.Hypot(b.X-a.X, b.Y-a.Y)
			if l == 0 {
				continue
			}
			nx, ny := -(b.Y-a.Y)/l, (b.X-a.X)/l
			side := off * (h/2 + 3)
			if math.Abs(a.Y-b.Y) > 0.01 { // beside a vertical stretch: half the label's width away
				side = off * (w/2 + 3)
			}
			for t := 0.0; t <= l; t += 4 {
				c := point{a.X + (b.X-a.X)*t/l + nx*side, a.Y + (b.Y-a.Y)*t/l + ny*side}
				if d := math.Hypot(c.X-mid.X, c.Y-mid.Y); d < bestD && free(c) {
					best, bestD = c, d
				}
			}
		}
		if !math.IsInf(bestD, 1) {
			beside = true
			break
		}
	}
	return best, beside
}

// free reports whether a label of w×h centred at c stays inside the
// drawing, off the links routed before, and pad away from every card and
// label (at least 2 points).
func (r *router) free(c point, w, h, pad float64) bool {
	b := box{c.X - w/2, c.Y - h/2, c.X + w/2, c.Y + h/2}
	if b.x0 < 0 || b.y0 < 0 || b.x1 > r.w || b.y1 > r.h {
		return false
	}
	c0, r0 := r.at(point{b.x0, b.y0})
	c1, r1 := r.at(point{b.x1, b.y1})
	for y := r0; y <= r1; y++ {
		for x := c0; x <= c1; x++ {
			if r.cost[y*r.cols+x] == routeShared {
				return false
			}
		}
	}
	for _, o := range r.blocked {
		if overlap(b, o, pad) {
			return false
		}
	}
	for _, o := range r.taken {
		if overlap(b, o, max(pad, 2)) {
			return false
		}
	}
	return true
}

// overlap reports whether two boxes come within pad of each other.
func overlap(a, b box, pad float64) bool {
	return a.x0 < b.x1+pad && b.x0 < a.x1+pad && a.y0 < b.y1+pad && b.y0 < a.y1+pad
}
