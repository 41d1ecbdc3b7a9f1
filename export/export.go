package export

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"siteplan/site"
)

// Config is everything one export needs.
type Config struct {
	Options
	MaxURLs     int
	Gzip        bool
	BySection   bool
	FooterDepth int // 1 or 2; 0 means 2
	// Locale, in the export of one locale of a localized plan: the
	// locale column inventory.csv's rows start with, and no header (the
	// localized export writes one file, a row per page and locale).
	Locale string
}

// Report says what an export wrote and what it left out.
type Report struct {
	Result
	Warnings []site.Warning
}

// Export writes all launch files of a plan into out: the sitemap file(s),
// sitemap.txt, robots.txt, footer.html and inventory.csv. It reads the
// plan once: each page, as it comes, goes into the sitemap being filled
// (gzipped on the other cores), sitemap.txt, inventory.csv and, near the
// top of the tree, the footer; so what it holds does not grow with the
// plan but for a hash of each URL. sitemap.txt and inventory.csv are
// written aside and put in place only when the export succeeds. Errors:
// EInvalid (nothing to export, bad location), ENotFound (section).
//
// A localized plan (one with locales) is exported by exportLocalized.
func Export(out Output, src site.PlanReader, cfg Config) (Report, error) {
	if len(src.Project().Locales) > 0 {
		return exportLocalized(out, src, cfg)
	}
	sel, err := Select(src, cfg.Options)
	if err != nil {
		return Report{}, err
	}
	text, inv := newSideFile(out, "sitemap.txt"), newSideFile(out, "inventory.csv")
	defer text.discard()
	defer inv.discard()
	tw := bufio.NewWriterSize(text, 64<<10)
	rows := newInventory(inv, cfg.Locale)
	foot := &footerNodes{depth: cfg.FooterDepth}
	split := newSplitter(out, SitemapOptions{MaxURLs: cfg.MaxURLs, Gzip: cfg.Gzip, BySection: cfg.BySection, Dir: sel.Dir})
	proj := src.Project()
	// side feeds a page to the footer (which links any kind of page to
	// where it points) and the inventory (the URL of a page that has one).
	side := func(v *visit, url string) error {
		loc := url
		if !v.page.HasURL() {
			loc = proj.FinishURL(&v.page, v.path)
		}
		foot.add(v, loc)
		return rows.add(v, url)
	}
	whole := cfg.Section == 0 // else the footer and the inventory are the whole plan's, read again
	err = sel.pass(func(v *visit, url string, e *Entry) error {
		if e != nil {
			if err := split.add(e); err != nil {
				return err
			}
			tw.WriteString(e.Loc)
			tw.WriteByte('\n')
		}
		if !whole {
			return nil
		}
		return side(v, url)
	})
	if err == nil && !whole {
		err = walk(src, 0, func(v *visit) error {
			url := ""
			if v.page.HasURL() {
				url = proj.FinishURL(&v.page, v.path)
			}
			return side(v, url)
		})
	}
	res, err := split.close(err)
	rep := Report{Result: res, Warnings: sel.Warnings()}
	if err != nil {
		return rep, err
	}
	if err := tw.Flush(); err != nil {
		return rep, err
	}
	if err := rows.flush(); err != nil {
		return rep, err
	}
	f, err := text.commit(res.URLs)
	if err != nil {
		return rep, err
	}
	rep.Files = append(rep.Files, f)
	if f, err = create(out, "robots.txt", 0, func(w io.Writer) error { return WriteRobots(w, res.Sitemaps) }); err != nil {
		return rep, err
	}
	rep.Files = append(rep.Files, f)
	main, footer := foot.links()
	if n := countLinks(main) + countLinks(footer); n > FooterMaxLinks {
		w := site.Warning{Title: "footer.html", Reason: fmt.Sprintf("it lists %s links: past %d a footer is a wall of links, not a way around the site", site.Thousands(n), FooterMaxLinks)}
		if foot.depth != 1 {
			one := *foot
			one.depth = 1
			m1, f1 := one.links()
			w.Reason += fmt.Sprintf("; with footer depth 1 (the sections alone) it lists %s", site.Thousands(countLinks(m1)+countLinks(f1)))
		}
		rep.Warnings = append(rep.Warnings, w)
	}
	if f, err = create(out, "footer.html", 0, func(w io.Writer) error {
		return footerTmpl.ExecuteTemplate(w, "nav", footerData{proj.Name, main, footer})
	}); err != nil {
		return rep, err
	}
	rep.Files = append(rep.Files, f)
	if f, err = inv.commit(0); err != nil {
		return rep, err
	}
	rep.Files = append(rep.Files, f)
	return rep, nil
}

// FooterMaxLinks is how many links a footer sitemap may list before the
// export warns: past it, people scan rather than read it.
const FooterMaxLinks = 150

// countLinks counts the links of a footer's list, the children's too.
func countLinks(ls []FooterLink) int {
	n := 0
	for _, l := range ls {
		if l.Href != "" {
			n++
		}
		n += countLinks(l.Children)
	}
	return n
}

// sideFile is a file an export writes while it reads the plan, beside
// the sitemaps: into the directory under a hidden name, renamed at the
// end; into memory; or, for an output that takes one file at a time (a
// zip), into a temporary file copied in at the end. Until commit it is
// not among the output's files.
type sideFile struct {
	out  Output
	name string
	w    io.Writer
	n    int64
	tmp  *os.File      // a directory's hidden file, or a temporary one
	mem  *bytes.Buffer // a Memory output's
	err  error
}

func newSideFile(out Output, name string) *sideFile {
	f := &sideFile{out: out, name: name}
	switch o := out.(type) {
	case *Memory:
		f.mem = &bytes.Buffer{}
		f.w = f.mem
	case DirOutput:
		f.tmp, f.err = hiddenFile(string(o), name)
		f.w = f.tmp
	default:
		f.tmp, f.err = os.CreateTemp("", "siteplan-export-*")
		f.w = f.tmp
	}
	return f
}

// hiddenFile creates ".name.N" in dir with the permissions os.Create
// gives (a temporary file's are the owner's alone, and a web server
// must read what it is renamed to).
func hiddenFile(dir, name string) (*os.File, error) {
	for {
		f, err := os.OpenFile(filepath.Join(dir, "."+name+"."+strconv.FormatUint(rand.Uint64(), 36)), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !os.IsExist(err) {
			return f, err
		}
	}
}

func (f *sideFile) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.w.Write(p)
	f.n += int64(n)
	f.err = err
	return n, err
}

// commit puts the file among the output's.
func (f *sideFile) commit(urls int) (File, error) {
	if f.err != nil {
		return File{}, f.err
	}
	file := File{Name: f.name, URLs: urls, Size: f.n}
	switch o := f.out.(type) {
	case *Memory:
		w, _ := o.Create(f.name)
		_, err := w.Write(f.mem.Bytes())
		f.mem = nil
		return file, err
	case DirOutput:
		if err := f.tmp.Close(); err != nil {
			return File{}, err
		}
		err := os.Rename(f.tmp.Name(), filepath.Join(string(o), f.name))
		f.tmp = nil
		return file, err
	}
	if _, err := f.tmp.Seek(0, io.SeekStart); err != nil {
		return File{}, err
	}
	return create(f.out, f.name, urls, func(w io.Writer) error {
		_, err := io.Copy(w, f.tmp)
		return err
	})
}

// discard removes what is left of a file that was not committed, or the
// temporary file a committed one was copied from.
func (f *sideFile) discard() {
	if f.tmp != nil {
		f.tmp.Close()
		os.Remove(f.tmp.Name())
	}
}

// inventory writes inventory.csv's rows as the pages come, as
// encoding/csv would write them (a header it writes with it), but
// straight into a buffer: the million rows of a large plan were a
// quarter of its export.
type inventory struct {
	w      io.Writer
	locale string // a localized plan's rows' first cell
	buf    []byte
	trail  []byte // the outline path of the page's parent, then its own
	blocks []byte // the page's blocks cell, written
	ends   []int  // where each level's part of the trail ends
	err    error
}

// newInventory starts inventory.csv: its header, or for locale (one
// locale of a localized plan, whose export writes the header) rows that
// start with the locale's cell.
func newInventory(w io.Writer, locale string) *inventory {
	in := &inventory{w: w, locale: locale, buf: make([]byte, 0, 64<<10)}
	if locale == "" {
		in.buf = inventoryHeader(in.buf, false)
	}
	return in
}

// inventoryHeader appends inventory.csv's header row, with the locale
// and the page's state there first for a localized plan's.
func inventoryHeader(b []byte, localized bool) []byte {
	if localized {
		b = append(b, "locale,state,"...)
	}
	for i, c := range site.InventoryColumns {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCSV(b, c)
	}
	return append(b, '\n')
}

// add writes a page's row.
func (in *inventory) add(v *visit, url string) error {
	if in.err != nil {
		return in.err
	}
	p := &v.page
	in.ends = in.ends[:min(len(in.ends), v.depth-1)]
	in.trail = in.trail[:0]
	if n := len(in.ends); n > 0 {
		in.trail = in.trail[:in.ends[n-1]]
		in.trail = append(in.trail, " > "...)
	}
	in.trail = append(in.trail, p.Title...)
	in.ends = append(in.ends, len(in.trail))
	priority := ""
	if p.Priority != nil {
		priority = site.FormatPriority(*p.Priority)
	}
	inSitemap := "no"
	if p.InSitemap {
		inSitemap = "yes"
	}
	b := in.buf
	if in.locale != "" { // its state in the locale; not offered there, no URL there
		v := p.Variant(in.locale)
		b = append(append(append(appendCSV(b, in.locale), ','), v.State...), ',')
		if !v.Offered() {
			url = ""
		}
	}
	for i, f := range [...]string{url, p.Title, p.Type, p.Status, p.Assignee, p.Notes, priority, p.Changefreq, p.Lastmod, p.Kind, p.Placement, inSitemap} {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCSV(b, f)
	}
	b = append(b, ',')
	b = appendCSV(b, in.trail)
	// The brief's cells, site.BriefColumns.
	br := &p.Brief
	for _, f := range [...]string{br.SEOTitle, br.MetaDescription, br.H1, br.Keyword, br.Intent} {
		b = appendCSV(append(b, ','), f)
	}
	in.blocks = site.AppendBlockLines(in.blocks[:0], br.Blocks)
	b = appendCSV(append(b, ','), in.blocks)
	b = append(b, ',')
	if br.WordTarget > 0 {
		b = strconv.AppendInt(b, int64(br.WordTarget), 10)
	}
	for _, f := range [...]string{br.Owner, br.Due} {
		b = appendCSV(append(b, ','), f)
	}
	in.buf = append(b, '\n')
	if len(in.buf) >= 60<<10 {
		return in.flush()
	}
	return nil
}

func (in *inventory) flush() error {
	if in.err == nil && len(in.buf) > 0 {
		_, in.err = in.w.Write(in.buf)
		in.buf = in.buf[:0]
	}
	return in.err
}

// appendCSV appends a field as encoding/csv writes it, after
// site.DefuseCell: quoted if it holds a quote, comma or line break or
// begins with a space, quotes doubled.
func appendCSV[T string | []byte](b []byte, f T) []byte {
	if len(f) == 0 {
		return b
	}
	defused := site.FormulaStart(f[0]) // site.DefuseCell puts an apostrophe first
	quote := string(f) == `\.` || needsQuote(f)
	if !quote && !defused { // a defused cell begins with the apostrophe
		quote = f[0] < utf8.RuneSelf && unicode.IsSpace(rune(f[0])) || f[0] >= utf8.RuneSelf && startsWithSpace(f)
	}
	if quote {
		b = append(b, '"')
	}
	if defused {
		b = append(b, '\'')
	}
	if !quote {
		return append(b, f...)
	}
	for { // each quote doubled, the runs between them copied whole
		i := indexByte(f, '"')
		if i < 0 {
			b = append(b, f...)
			break
		}
		b = append(append(b, f[:i+1]...), '"')
		f = f[i+1:]
	}
	return append(b, '"')
}

// csvSpecial are the bytes that make encoding/csv quote a cell.
var csvSpecial = [256]bool{',': true, '"': true, '\n': true, '\r': true}

// needsQuote reports whether f holds a byte of csvSpecial: a short cell
// (most of an inventory's) in one loop over its bytes, a long one (a
// brief's) in four vectorised scans.
func needsQuote[T string | []byte](f T) bool {
	if len(f) < 64 {
		for i := 0; i < len(f); i++ {
			if csvSpecial[f[i]] {
				return true
			}
		}
		return false
	}
	return indexByte(f, ',') >= 0 || indexByte(f, '"') >= 0 || indexByte(f, '\n') >= 0 || indexByte(f, '\r') >= 0
}

// indexByte is strings' and bytes' for either: the inventory's cells are
// strings, its outline path bytes.
func indexByte[T string | []byte](f T, c byte) int {
	switch v := any(f).(type) {
	case string:
		return strings.IndexByte(v, c)
	case []byte:
		return bytes.IndexByte(v, c)
	}
	return -1
}

// startsWithSpace reports whether f begins with a space that is not ASCII.
func startsWithSpace[T string | []byte](f T) bool {
	r, _ := utf8.DecodeRuneInString(string(f[:min(len(f), utf8.UTFMax)]))
	return unicode.IsSpace(r)
}
