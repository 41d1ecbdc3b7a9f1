package diagram

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"siteplan/site"
)

// Diagram layouts.
const (
	LayoutTree   = "tree"   // top-down org chart
	LayoutLR     = "lr"     // left to right
	LayoutRadial = "radial" // mind map around the home page
)

// Layouts lists the diagram layouts in display order.
var Layouts = []string{LayoutTree, LayoutLR, LayoutRadial}

// What the node colour shows.
const (
	ColorByType   = "type"
	ColorByStatus = "status"
	// ColorByChange colours the pages of a comparison by Options.Marks:
	// added, removed, moved, renamed, changed.
	ColorByChange = "change"
	// ColorByCheck colours the pages of a launch check by Options.Marks:
	// CheckOK, CheckWarning, CheckError; a page without one was not
	// checked.
	ColorByCheck = "check"
	// ColorByTreeTest colours the pages of a tree test's task by
	// Options.Marks: TreeCorrect, TreeRightWay, TreeWrongWay,
	// TreeWrongChoice; a page without one was not visited.
	ColorByTreeTest = "treetest"
)

// What a tree test's task says of each page, as Options.Marks holds it.
const (
	TreeCorrect     = "correct answer"
	TreeRightWay    = "right way"
	TreeWrongWay    = "wrong way"
	TreeWrongChoice = "chosen, wrong"
)

// The results of a launch check, as Options.Marks holds them.
const (
	CheckOK      = "ok"
	CheckWarning = "warning"
	CheckError   = "error"
)

// Options choose what a diagram shows, how, and in which file format.
type Options struct {
	Format    string         // FormatSVG (default), FormatPNG, FormatPDF, FormatDOT, FormatGraphML or FormatMermaid
	Layout    string         // LayoutTree (default), LayoutLR or LayoutRadial
	ColorBy   string         // ColorByType (default) or ColorByStatus
	Links     bool           // draw cross-links as dashed arrows
	Root      int64          // draw only this page and its subtree; 0: the whole project
	Depth     int            // levels to draw (the top level is 1); 0: all
	Collapsed map[int64]bool // branches drawn closed, with a "+N pages" marker
	Comments  map[int64]int  // open comment threads per page, shown on its node
	Landings  map[int64]int  // old URLs an accepted redirect sends to each page (a relaunch), shown on its card
	// Figures are words on each card about what a page measured (a tree
	// test's "9 visits · 4 chose"), client version or not.
	Figures map[int64]string
	// Locale draws a localized plan in one of its locales (a tag): each
	// page's title and URL there, its state there on its card.
	Locale string
	Paper  string // PDF sheets: PaperA4 (default), PaperA3, PaperLetter or PaperTabloid
	// Orientation of the PDF's sheets: Landscape (default) or Portrait.
	Orientation string
	// OneSheet fits the whole drawing on one PDF sheet however small its
	// text, instead of an overview and a sheet per section.
	OneSheet bool
	// Cover starts the PDF with a cover sheet: project, client, agency,
	// date, version and approval.
	Cover bool
	Date  time.Time // printed in a PDF's title block; zero: now
	// Marks are what a comparison says of each page (site.MarkAdded, ...),
	// for ColorByChange, or a launch check's result (CheckOK, ...), for
	// ColorByCheck.
	Marks map[int64]string
	// Focus draws only these pages and their ancestors (nil: every page):
	// each card counts what it leaves out in its "+N pages" marker, as a
	// closed branch does. A comparison draws its changed pages so.
	Focus map[int64]bool
	// Notes are lines under a PDF's title: the version drawn, who approved it.
	Notes []string
	// Title says what the drawing is, on a PDF's cover and sheets: "Site
	// plan" when empty.
	Title string
	// Facts are labelled lines of a PDF (label, words): rows of its cover
	// and lines under each sheet's title, after the notes.
	Facts [][2]string
	// Appendix is text a PDF prints after its sheets, a heading and its
	// lines a section (a launch check's problems by rule); the other
	// formats leave it out.
	Appendix []Section
	// AppendixTitle heads the appendix's sheets ("Appendix" when empty).
	AppendixTitle string
	// Estimate, if set, is printed on a PDF's last sheets: a line a row
	// and its total; with EstimateTotalOnly, the total alone (what a
	// client is shown where the team says so).
	Estimate          *site.Estimate
	EstimateTotalOnly bool
	// Approved marks the branches signed off (page -> who signed), on
	// their cards, client version or not.
	Approved map[int64]string
	// Content lists each card's content blocks (its brief's) under its
	// title, a low-fidelity wireframe of the page, client version or not.
	Content bool
	// Client draws the client version: titles and colours only, without
	// paths, statuses, assignees or comments.
	Client bool
	// Scale is the PNG's resolution as a multiple of 96 dpi: 1, 2 (the
	// default, sharp on high-density screens and in print) or 3.
	Scale int
	// Palette is the team's page-type colours; a type it lacks takes the
	// next default (a plan drawn outside a team gets them all in name
	// order).
	Palette site.Palette
	// Accent is the theme's colour ("#rrggbb"): the home page's border,
	// the title block's rule; "": DefaultAccent.
	Accent string
	// Agency and ClientName are printed on a PDF's sheets and cover.
	Agency, ClientName string
	// Logo is the agency's logo as a PNG, printed on a PDF's sheets and
	// cover; the caller checks it (an image that does not decode is left
	// out).
	Logo []byte

	// The PDF's sheets (sheets.go) choose: compact cards; only these
	// children of Root (nil: all); pages drawn closed because their
	// branch continues on another sheet; cross-links to pages not drawn
	// printed on their cards as references to the sheet that draws them.
	compact bool
	kids    []int64
	cut     map[int64]bool
	refs    bool
	// Render's, for Locale: each page's state in that locale.
	states map[int64]string
}

// DefaultAccent is the accent colour of a project without a theme.
const DefaultAccent = "#2563eb"

// SetDefaults fills the options left empty with their defaults.
func (o *Options) SetDefaults() {
	if o.Format == "" {
		o.Format = FormatSVG
	}
	if o.Layout == "" {
		o.Layout = LayoutTree
	}
	if o.ColorBy == "" {
		o.ColorBy = ColorByType
	}
	if o.Paper == "" {
		o.Paper = PaperA4
	}
	if o.Orientation == "" {
		o.Orientation = Landscape
	}
	if o.Scale == 0 {
		o.Scale = 2
	}
	if o.Date.IsZero() {
		o.Date = time.Now()
	}
}

// Normalize fills defaults and checks the options against t. Render calls
// it; callers that parse options call it to answer bad input early.
// Errors: EInvalid, ENotFound (root).
func (o *Options) Normalize(t *site.Tree) error {
	o.SetDefaults()
	switch {
	case !slices.Contains(Formats, o.Format) && o.Format != FormatScene && o.Format != FormatView:
		return site.Errorf(site.EInvalid, "Diagram format must be one of %s.", strings.Join(Formats, ", "))
	case !slices.Contains(Layouts, o.Layout):
		return site.Errorf(site.EInvalid, "Layout must be one of %s.", strings.Join(Layouts, ", "))
	case !slices.Contains([]string{ColorByType, ColorByStatus, ColorByChange, ColorByCheck, ColorByTreeTest}, o.ColorBy):
		return site.Errorf(site.EInvalid, "Colour by must be “type” or “status”.")
	case !slices.Contains(Papers, o.Paper):
		return site.Errorf(site.EInvalid, "Paper must be one of %s.", strings.Join(Papers, ", "))
	case o.Orientation != Landscape && o.Orientation != Portrait:
		return site.Errorf(site.EInvalid, "Orientation must be landscape or portrait.")
	case o.Scale < 1 || o.Scale > 3:
		return site.Errorf(site.EInvalid, "PNG scale must be 1, 2 or 3.")
	case o.Depth < 0 || o.Depth > 100:
		return site.Errorf(site.EInvalid, "Depth must be a number from 0 (all levels) to 100.")
	case o.Root != 0 && t.Page(o.Root) == nil:
		return site.Errorf(site.ENotFound, "Page %d does not exist in this project.", o.Root)
	}
	if o.Locale != "" {
		tag, err := site.ParseLocaleTag(o.Locale)
		if _, ok := t.Project.Locale(tag); err != nil || !ok {
			var tags []string
			for _, l := range t.Project.Locales {
				tags = append(tags, l.Tag)
			}
			if len(tags) == 0 {
				return site.Errorf(site.EInvalid, "The plan has no locales: draw it without one.")
			}
			return site.Errorf(site.EInvalid, "Locale %q is not one of the plan's: %s.", o.Locale, strings.Join(tags, ", "))
		}
		o.Locale = tag
	}
	return nil
}

// Key returns a string that identifies the drawing the options make, for
// caching (the date is left out).
func (o Options) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%s|%t|%t|%s|%s|%t|%d|%d|%d|%t|%s|%q|%q|%x|%s|", o.Format, o.Paper, o.Orientation, o.OneSheet, o.Cover, o.Layout, o.ColorBy, o.Links, o.Root, o.Depth, o.Scale, o.Client, o.Accent,
		o.Agency, o.ClientName, sha256.Sum256(o.Logo), o.Locale)
	writeSet(&b, o.Collapsed)
	b.WriteString("|p:" + o.Palette.Key())
	b.WriteString("|c:")
	for _, id := range slices.Sorted(maps.Keys(o.Comments)) {
		if n := o.Comments[id]; n > 0 {
			fmt.Fprintf(&b, "%d=%d,", id, n)
		}
	}
	b.WriteString("|l:")
	for _, id := range slices.Sorted(maps.Keys(o.Landings)) {
		if n := o.Landings[id]; n > 0 {
			fmt.Fprintf(&b, "%d=%d,", id, n)
		}
	}
	b.WriteString("|g:")
	for _, id := range slices.Sorted(maps.Keys(o.Figures)) {
		fmt.Fprintf(&b, "%d=%q,", id, o.Figures[id])
	}
	b.WriteString("|m:")
	for _, id := range slices.Sorted(maps.Keys(o.Marks)) {
		fmt.Fprintf(&b, "%d=%s,", id, o.Marks[id])
	}
	b.WriteString("|f:")
	writeSet(&b, o.Focus)
	b.WriteString("|n:" + strings.Join(o.Notes, "\n"))
	fmt.Fprintf(&b, "|t:%q|f:%q|ap:%q|%q|content:%t|a:", o.Title, o.Facts, o.AppendixTitle, o.Appendix, o.Content)
	if e := o.Estimate; e != nil { // the lines' amounts say the estimate: any change of the plan or card changes one
		fmt.Fprintf(&b, "|e:%t:%s:%d:%d:", o.EstimateTotalOnly, e.Currency, e.TotalMinor, len(e.Lines))
		for _, l := range e.Lines {
			fmt.Fprintf(&b, "%q/%q/%q/%d/%d,", l.Section, l.Type, l.Name, l.Pages, l.AmountMinor)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(o.Approved)) {
		fmt.Fprintf(&b, "%d=%q,", id, o.Approved[id])
	}
	return b.String()
}

// writeSet writes the ids a set holds, in order.
func writeSet(b *strings.Builder, set map[int64]bool) {
	for _, id := range slices.Sorted(maps.Keys(set)) {
		if set[id] {
			b.WriteString(strconv.FormatInt(id, 10))
			b.WriteByte(',')
		}
	}
}

// Diagram file formats.
const (
	FormatSVG     = "svg"
	FormatPNG     = "png"
	FormatPDF     = "pdf"
	FormatDOT     = "dot"
	FormatGraphML = "graphml"
	// FormatMermaid is a Mermaid flowchart (mermaid.go).
	FormatMermaid = "mermaid"
	// FormatScene is the drawing as a scene (scene.go) for the browser to
	// paint on a <canvas>; FormatView is what the editor shows: SVG up to
	// ViewSVGMax pages, a scene past it (IsScene tells them apart). Neither
	// is a download.
	FormatScene = "scene"
	FormatView  = "view"
)

// Formats lists the formats a diagram downloads as.
var Formats = []string{FormatSVG, FormatPNG, FormatPDF, FormatDOT, FormatGraphML, FormatMermaid}

// Ext is the file extension of a format's download ("mmd" for Mermaid).
func Ext(format string) string {
	if format == FormatMermaid {
		return "mmd"
	}
	return format
}

// dpi is the PNG's resolution.
func (o Options) dpi() int { return 96 * o.Scale }

// Section is a heading and its lines, of a PDF's appendix.
type Section struct {
	Title string
	Lines []string
}
