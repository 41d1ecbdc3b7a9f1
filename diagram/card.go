package diagram

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"siteplan/diagram/internal/fonts"
	"siteplan/site"
)

// A page is drawn as a card: a band in the colour of its type (or
// status, or change) that names it, then the title in a readable size,
// then its path, and its status and assignee where the diagram shows
// them (a client's does not). Cards have one width and a height that
// follows what they say, measured here, so that siteplan can place them
// itself (chart.go) and paint them (paint.go); a radial diagram gives
// Graphviz plain boxes of their sizes to place (radial.go), and the DOT
// export writes them as tables of exactly that size (writeCard).
const (
	cardW         = 184.0 // points
	cardInner     = cardW - 2
	cardPad       = 8.0 // text inset from the border
	bandH         = 18.0
	bandSize      = 7.5
	titleSize     = 12.0
	titleLineH    = 15.0
	smallSize     = 8.5
	smallLineH    = 13.0
	cardTop       = 5.0 // under the band
	cardBottom    = 6.0
	maxTitleLines = 4
	// A compact card, for a sheet that must hold many pages, is the
	// band's colour in a strip and the title: every word on it is 12 pt,
	// so it stays legible printed at half size.
	compactBandH = 6.0
	compactLines = 3
	// The content view: a box a block, at most maxCardBlocks of them.
	blockLineH    = 15.0
	blockGap      = 4.0
	maxCardBlocks = 10
	// cardFill is every card's background: a white no other shape uses,
	// so a card is found among the shapes Graphviz drew in a radial
	// layout (layout.cards).
	cardFill = "#fffffe"
)

// Marks before a card's band label.
const (
	markHome        = "⌂"
	markGroup       = "▤"
	markPlaceholder = "◌"
	markExternal    = "↗"
)

// card is what a page's card says, measured.
type card struct {
	page      *site.Page
	depth     int    // 1 for the top of the drawing
	hidden    int    // pages below it not drawn
	sheet     int    // the PDF sheet its hidden branch continues on; 0: none
	sheetHere bool   // that sheet is the one it is on (sections packed together)
	band      string // the colour's meaning and the kind, with its mark
	fill      string // the band's colour
	title     []string
	path      string   // "" when hidden
	meta      string   // status and assignee; "" when hidden
	blocks    []string // the content blocks in words, a box each (Options.Content)
	comments  int
	bandH     float64
	moreSize  float64 // the size of the line that says what is not drawn
	refs      []ref   // on a PDF sheet: cross-links to pages drawn on other sheets
	moreRefs  int     // and how many more there are
	w, h      float64
	x, y      float64 // top left, y down (chart), once placed
}

// more says how many pages below the card are not drawn, and where
// they are if they continue on another sheet.
func (c *card) more() string {
	if c.sheetHere {
		return "▸ " + site.Plural(c.hidden, "page", "pages") + " on this sheet"
	}
	if c.sheet > 0 {
		return "▸ " + site.Plural(c.hidden, "page", "pages") + " on sheet " + strconv.Itoa(c.sheet)
	}
	return "▸ " + site.Plural(c.hidden, "page", "pages") + " not shown"
}

// ref is a cross-link from a card to a page another sheet of the PDF
// draws: "→ Pricing, sheet 3".
type ref struct {
	to    *site.Page
	sheet int  // the sheet that draws it, once the book is planned; 0: none does
	here  bool // it is on the card's own sheet too
}

// refLines says where the card's cross-links lead, a line each, its
// words clipped to the card but for the sheet number.
func (c *card) refLines() []string {
	out := make([]string, 0, len(c.refs)+1)
	room := cardInner - 2*cardPad
	for _, r := range c.refs {
		where := " (not drawn)"
		switch {
		case r.here:
			where = ", this sheet"
		case r.sheet > 0:
			where = ", sheet " + strconv.Itoa(r.sheet)
		}
		title := clipWidth(r.to.Title, c.moreSize, false, room-fonts.Measure("→ "+where, c.moreSize, false))
		out = append(out, "→ "+title+where)
	}
	if c.moreRefs > 0 {
		out = append(out, "→ "+site.Plural(c.moreRefs, "more cross-link", "more cross-links")+" to other sheets")
	}
	return out
}

// moreLineH is the height of the line that says what is not drawn.
func (c *card) moreLineH() float64 { return c.moreSize + 4.5 }

// leaf reports whether the card is drawn with nothing below it.
func (c *card) leaf(t *site.Tree) bool { return c.hidden == 0 && len(t.Children(c.page.ID)) == 0 }

// cardFace names a card's face: its page's, full or compact.
type cardFace struct {
	page    int64
	compact bool
}

// newCard measures the card of a page: its face, measured once a
// drawing (or once for all the trial drawings of a PDF's sheets, which
// share d.faces), and what is below it.
func (d *diagram) newCard(p *site.Page, depth, hidden int) *card {
	k := cardFace{p.ID, d.opt.compact}
	face, ok := d.faces[k]
	if !ok {
		face = d.face(p)
		if d.faces != nil {
			d.faces[k] = face
		}
	}
	c := face // a copy: the face's slices are never written
	c.depth, c.hidden = depth, hidden
	if hidden > 0 {
		c.h += c.moreLineH()
	}
	return &c
}

// face measures the card of a page with nothing below it.
func (d *diagram) face(p *site.Page) card {
	c := card{page: p, fill: d.fill(p), w: cardW, bandH: bandH, moreSize: smallSize}
	lines := maxTitleLines
	if d.opt.compact { // the title alone: no band label, path or status
		c.bandH, c.moreSize, lines = compactBandH, titleSize, compactLines
	} else {
		d.details(&c)
	}
	title := p.Title
	switch {
	case d.opt.compact && d.opt.ColorBy == ColorByType: // no band label to carry the type's mark
		title = marked(d.marks[p.Type], title)
	case d.opt.compact && (d.opt.ColorBy == ColorByCheck || d.opt.ColorBy == ColorByTreeTest): // nor the result's word
		title = marked(checkSigns[d.checkMark(p)], title)
	}
	c.title = wrapWidth(title, titleSize, true, cardInner-2*cardPad, lines)
	bw, _ := d.border(p)
	c.h = float64(2*bw) + c.bandH + cardTop + titleLineH*float64(len(c.title)) + cardBottom
	for _, s := range []string{c.path, c.meta} {
		if s != "" {
			c.h += smallLineH
		}
	}
	if d.opt.Content && !d.opt.compact {
		c.blocks = blockLines(p.Brief.Blocks)
		if len(c.blocks) > 0 {
			c.h += blockGap + blockLineH*float64(len(c.blocks))
		}
	}
	return c
}

// blockLines are a page's content blocks as its card lists them, each
// clipped to the card: "Hero — Big photo", the last saying how many more
// there are past maxCardBlocks.
func blockLines(blocks []site.Block) []string {
	room := cardInner - 2*cardPad - 8
	var out []string
	for i, b := range blocks {
		if i == maxCardBlocks-1 && len(blocks) > maxCardBlocks {
			out = append(out, "+ "+site.Plural(len(blocks)-i, "more block", "more blocks"))
			break
		}
		s := site.BlockLabels[b.Kind]
		if b.Note != "" {
			s += " — " + b.Note
		}
		out = append(out, clipWidth(s, smallSize, false, room))
	}
	return out
}

// details writes what a full card says besides its title: the band's
// label, and (but in the client version) the path, the status line and
// the open comments.
func (d *diagram) details(c *card) {
	p := c.page
	var band []string
	if key := d.bandLabel(p); key != "" {
		band = append(band, key)
	}
	if p.Kind != site.KindPage {
		band = append(band, p.Kind)
	}
	c.band = strings.ToUpper(strings.Join(band, " · "))
	if m := kindMark(p); m != "" {
		c.band = strings.TrimSpace(m + " " + c.band)
	}
	if who, ok := d.opt.Approved[p.ID]; ok { // a branch signed off: on the band, seen in the client version too
		c.band = clipWidth("✔ APPROVED BY "+strings.ToUpper(who)+" · "+c.band, bandSize, true, cardInner-2*cardPad-26)
	}
	if !d.opt.Client {
		if path := d.path(p); path != "" && (p.Kind != site.KindGroup || p.Slug != "") {
			c.path = clipWidth(path, smallSize, false, cardInner-2*cardPad)
		}
		meta := statusLabel(p.Status)
		if p.Assignee != "" {
			meta += " · " + p.Assignee
		}
		if st, ok := d.opt.states[p.ID]; ok { // drawn in a locale: the page's state there
			meta += " · " + d.opt.Locale + ": " + strings.ReplaceAll(st, "_", " ")
		}
		if n := d.opt.Landings[p.ID]; n > 0 { // a relaunch's old URLs redirected here
			meta += " · ↩ " + site.Plural(n, "old URL", "old URLs")
		}
		if m := d.opt.Marks[p.ID]; m != "" && d.opt.ColorBy == ColorByChange {
			meta += " · " + m // in words too, not by colour alone
		}
		if d.opt.ColorBy == ColorByCheck {
			meta += " · " + d.checkMark(p)
		}
		c.meta = clipWidth(meta, smallSize, false, cardInner-2*cardPad-10)
		c.comments = d.opt.Comments[p.ID]
	}
	if f := d.opt.Figures[p.ID]; f != "" { // measured, not internal: the client version shows it too
		if c.meta != "" {
			f = c.meta + " · " + f
		}
		c.meta = clipWidth(f, smallSize, false, cardInner-2*cardPad-10)
	}
}

// kindMark is the sign a card's band starts with: the home page's, or
// its kind's.
func kindMark(p *site.Page) string {
	if p.IsHome() {
		return markHome
	}
	return map[string]string{site.KindGroup: markGroup, site.KindPlaceholder: markPlaceholder, site.KindExternal: markExternal}[p.Kind]
}

// bandLabel names what a card's colour means: its type, status or change.
func (d *diagram) bandLabel(p *site.Page) string {
	switch d.opt.ColorBy {
	case ColorByStatus:
		return statusLabel(p.Status)
	case ColorByChange:
		return d.opt.Marks[p.ID]
	case ColorByCheck, ColorByTreeTest:
		return d.checkMark(p)
	}
	if p.IsHome() && p.Type == "" {
		return "home"
	}
	return marked(d.marks[p.Type], p.Type)
}

// border is a card's outline: the home page's in the accent colour,
// external pages' in theirs.
func (d *diagram) border(p *site.Page) (width int, color string) {
	switch {
	case p.IsHome():
		return 2, d.accent()
	case p.Kind == site.KindGroup:
		return 2, mutedColor
	case p.Kind == site.KindExternal:
		return 2, externalColor
	}
	return 1, cardBorder
}

// cardStyle is a card's border style: dashed for a placeholder, dotted
// for an external page.
func (d *dotWriter) cardStyle(p *site.Page) string {
	switch p.Kind {
	case site.KindPlaceholder:
		return ` style="dashed"`
	case site.KindExternal:
		return ` style="dotted"`
	}
	return ""
}

// writeCard writes a card as an HTML-like table of the card's size: a
// row for the band, one per title line (Graphviz's own line spacing is
// too tight), then the path, the status line and what is not drawn. In
// a stack the card's table is a cell's content and carries the page's id
// and link; a card of its own is a node that carries them.
func (d *dotWriter) writeCard(bw *bufio.Writer, c *card, linked bool) {
	p := c.page
	width, color := d.border(p)
	fmt.Fprintf(bw, `<table fixedsize="true" width="%s" height="%s" border="%d" cellborder="0" cellspacing="0" cellpadding="0" color=%q bgcolor=%q%s`,
		num(c.w), num(c.h), width, color, cardFill, d.cardStyle(p))
	if linked {
		fmt.Fprintf(bw, ` id="p%d" href="#p%d" tooltip="%s"`, p.ID, p.ID, d.text(p.Title))
	}
	bw.WriteString(">")
	inner := c.w - 2*float64(width)
	pill := 0.0
	if c.comments > 0 {
		pill = 26
	}
	band := "" // an empty <b></b> makes Graphviz drop the whole label
	if c.band != "" {
		band = fmt.Sprintf(`<font point-size="8">&#160;&#160;</font><font point-size="%s" color=%q><b>%s</b></font>`, num(bandSize), inkColor, d.text(c.band))
	}
	fmt.Fprintf(bw, `<tr><td fixedsize="true" width="%s" height="%s" bgcolor=%q align="left" cellpadding="0">%s</td>`,
		num(inner-pill), num(c.bandH), c.fill, band)
	if pill > 0 {
		fmt.Fprintf(bw, `<td fixedsize="true" width="%s" height="%s" bgcolor=%q align="center" cellpadding="0" tooltip="%s"><font point-size="%s" color=%q><b>✎%d</b></font></td>`,
			num(pill), num(bandH), c.fill, site.Plural(c.comments, "open comment", "open comments"), num(bandSize+0.5), commentColor, c.comments)
	}
	bw.WriteString("</tr>")
	span := 1
	if pill > 0 {
		span = 2
	}
	// Graphviz pads a cell on all sides, and warns when the padding
	// leaves no room for a line: text is inset by no-break spaces instead.
	used := c.bandH
	row := func(h float64, content string) {
		used += h
		if content != "" {
			content = `<font point-size="8">&#160;&#160;</font>` + content
		}
		fmt.Fprintf(bw, `<tr><td colspan="%d" fixedsize="true" width="%s" height="%s" align="left" cellpadding="0">%s</td></tr>`, span, num(inner), num(h), content)
	}
	row(cardTop, "")
	for _, line := range c.title {
		row(titleLineH, fmt.Sprintf(`<font point-size="%s"><b>%s</b></font>`, num(titleSize), d.text(line)))
	}
	if c.path != "" {
		row(smallLineH, fmt.Sprintf(`<font point-size="%s" color=%q>%s</font>`, num(smallSize), mutedColor, d.text(c.path)))
	}
	if c.meta != "" {
		row(smallLineH, fmt.Sprintf(`<font point-size="%s" color=%q>●</font><font point-size="%s" color=%q> %s</font>`,
			num(smallSize), statusColors[p.Status], num(smallSize), mutedColor, d.text(c.meta)))
	}
	if len(c.blocks) > 0 {
		row(blockGap, "")
		for _, b := range c.blocks {
			used += blockLineH
			fmt.Fprintf(bw, `<tr><td colspan="%d" fixedsize="true" width="%s" height="%s" align="left" cellpadding="0" bgcolor=%q><font point-size="8">&#160;&#160;&#160;</font><font point-size="%s" color=%q>%s</font></td></tr>`,
				span, num(inner), num(blockLineH), blockFill, num(smallSize), textColor, d.text(b))
		}
	}
	if c.hidden > 0 {
		row(c.moreLineH(), fmt.Sprintf(`<font point-size="%s" color=%q>%s</font>`, num(c.moreSize), mutedColor, c.more()))
	}
	row(c.h-2*float64(width)-used, "") // down to the bottom of a card as tall as its level's tallest
	bw.WriteString("</table>")
}

// rtl reports whether s reads right to left: whether its first letter is
// of a script written that way.
func rtl(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko, unicode.Samaritan, unicode.Mandaic, unicode.Adlam)
		}
	}
	return false
}

// num writes a size in points with at most two decimals.
func num(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// wrapWidth breaks s into at most maxLines lines no wider than width at
// size (the last one clipped with an ellipsis), at spaces where it can.
func wrapWidth(s string, size float64, bold bool, width float64, maxLines int) []string {
	var lines []string
	line := ""
	fits := func(t string) bool { return fonts.Measure(t, size, bold) <= width }
	for _, word := range strings.Fields(s) {
		for !fits(word) { // a word too long for any line is cut
			cut := fitPrefix(word, size, bold, width)
			if line != "" {
				lines, line = append(lines, line), ""
			}
			lines = append(lines, word[:cut])
			word = word[cut:]
		}
		switch {
		case line == "":
			line = word
		case fits(line + " " + word):
			line += " " + word
		default:
			lines, line = append(lines, line), word
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	if len(lines) > maxLines {
		rest := strings.Join(lines[maxLines-1:], " ")
		lines = append(lines[:maxLines-1], clipWidth(rest+"…", size, bold, width))
	}
	return lines
}

// fitPrefix is the length in bytes of the longest prefix of s (at least
// one character) no wider than width.
func fitPrefix(s string, size float64, bold bool, width float64) int {
	w, end := 0.0, 0
	for i, r := range s {
		w += fonts.Measure(string(r), size, bold)
		if w > width && i > 0 {
			return i
		}
		end = i + utf8.RuneLen(r)
	}
	return end
}

// clipWidth shortens s with an ellipsis to fit width at size.
func clipWidth(s string, size float64, bold bool, width float64) string {
	if fonts.Measure(s, size, bold) <= width {
		return s
	}
	cut := fitPrefix(s, size, bold, width-fonts.Measure("…", size, bold))
	return strings.TrimRight(s[:cut], " ") + "…"
}
