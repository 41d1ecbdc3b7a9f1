package sitemap

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"siteplan/site"
)

// The reading side of the protocol: sitemaps, indexes and text sitemaps
// as real sites serve them. The reader is lenient where sites are sloppy
// and says so (each leniency is a warning in the file's report), and
// strict where it matters: it stops at the protocol's limits, so a file
// costs at most site.MaxSitemapBytes of reading however it is compressed.

// Kinds of file a reading meets.
const (
	KindURLSet = "urlset"
	KindIndex  = "sitemapindex"
	KindText   = "text"
	KindCSV    = "csv" // a page inventory, read by import only
)

// Found is one URL a sitemap lists, its values as written (whitespace
// around them trimmed), and the line it starts on.
type Found struct {
	Loc, Lastmod, Changefreq, Priority string
	Line                               int
	// A CSV inventory's row also gives these; a crawl's also the H1.
	Title, Type, Status, Assignee, Notes, H1 string
	// Clicks are a Search Console export's, 0 when the row gives none.
	Clicks int
	// Brief is an inventory's row's brief, when it has brief columns.
	Brief *site.Brief
	// Alternates are a sitemap <url>'s hreflang alternates
	// (<xhtml:link rel="alternate" hreflang="…" href="…"/>), as written.
	Alternates []Alternate
}

// Alternate is one hreflang alternate a sitemap lists for a URL.
type Alternate struct {
	Hreflang, Href string
}

// xhtmlSpace is the namespace of the xhtml:link elements that carry a
// URL's hreflang alternates.
const xhtmlSpace = "http://www.w3.org/1999/xhtml"

// Problem is something wrong with a file: an error search engines would
// reject the file or the URL for, or a warning about what the reader
// forgave or what a search engine will make of it. A rule broken many
// times in a file is one Problem with its count and the first line.
type Problem struct {
	Rule  string `json:"rule"` // a short name, e.g. "namespace", "lastmod-zone"
	Error bool   `json:"error"`
	Line  int    `json:"line,omitempty"` // of the first time; 0: the file as a whole
	Count int    `json:"count"`
	Msg   string `json:"message"` // what is wrong and what to do, said of the first time
	// Also says the next times it was met, up to MaxAlso of them (eight
	// different URLs each listed twice are eight lines, not one URL
	// "8 times"); Count is every time.
	Also []string `json:"also,omitempty"`
}

// MaxAlso is how many times after the first a problem says, at most.
const MaxAlso = 9

// problems collects a file's problems, one per rule.
type problems struct {
	list []Problem
	at   map[string]int
	last int // the index in list of the problem met last
}

func (p *problems) add(rule string, isErr bool, line int, format string, args ...any) {
	p.addN(rule, isErr, line, 1, format, args...)
}

// addN adds a problem met n times, the first at line.
func (p *problems) addN(rule string, isErr bool, line, n int, format string, args ...any) {
	if i, ok := p.at[rule]; ok {
		q := &p.list[i]
		if n == 1 && len(q.Also) < MaxAlso {
			q.Also = append(q.Also, site.Clip(fmt.Sprintf(format, args...), maxErrLen))
		}
		q.Count += n
		p.last = i
		return
	}
	if p.at == nil {
		p.at = map[string]int{}
	}
	p.at[rule], p.last = len(p.list), len(p.list)
	p.list = append(p.list, Problem{Rule: rule, Error: isErr, Line: line, Count: n, Msg: site.Clip(fmt.Sprintf(format, args...), maxErrLen)})
}

// Document is what reading one file found besides its URLs.
type Document struct {
	Kind     string    `json:"kind,omitempty"`
	Gzip     bool      `json:"gzip"`
	Bytes    int64     `json:"bytes"` // read, uncompressed
	URLs     int       `json:"urls"`  // <url> entries, text lines, or an index's <sitemap> entries
	Problems []Problem `json:"problems"`
	// Cut says why reading stopped part way through a file that had
	// listed URLs already: the rest of them is lost ("" when the file
	// was read to its end, or nothing of it was usable). An import
	// refuses such a file rather than make a partial plan of it.
	Cut string `json:"cut,omitempty"`
}

// errStop ends a document's reading early; why is one of its problems.
var errStop = errors.New("stop")

// ReadDocument reads one sitemap, sitemap index or text sitemap, gzipped
// or not, and calls found for each URL it lists (for an index, each
// sitemap it names), with the document as read so far (its Kind is known). It stops at site.MaxSitemapBytes uncompressed bytes or site.MaxSitemapURLs
// entries, reporting either as an error. A file that is not a sitemap at
// all (an HTML page, an empty body) is an error problem too; the error
// returned is found's, or one reading r.
func ReadDocument(r io.Reader, found func(*Document, *Found) error) (*Document, error) {
	doc := &Document{}
	var ps problems
	br, gz, err := unpack(r)
	if err != nil {
		ps.add("gzip", true, 0, "The file starts as gzip but is not: %v.", err)
		doc.Problems = ps.list
		return doc, nil
	}
	doc.Gzip = gz
	lim := &limited{r: br, left: site.MaxSitemapBytes}
	in := bufio.NewReaderSize(lim, 64<<10)
	if skipBOM(in) {
		ps.add("bom", false, 1, "The file starts with a byte order mark; the protocol asks for UTF-8 without one.")
	}
	head, err := in.Peek(512)
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case len(head) == 0 && err != nil && err != io.EOF && doc.Gzip:
		ps.add("gzip", true, 0, "The gzip data is broken: %v.", err)
		err = errStop
	case len(trimmed) == 0 && err != nil && err != io.EOF:
		// The body failed before anything but blanks came (a server too
		// slow, a connection cut): the file's error, not an empty file.
	case len(trimmed) == 0:
		err = nil
		ps.add("empty", true, 0, "The file is empty.")
	case trimmed[0] == '<':
		err = readXML(in, lim, doc, &ps, found)
	default:
		doc.Kind = KindText
		err = readText(in, doc, &ps, found)
	}
	return done(doc, &ps, lim, err, "The file is larger than %d bytes uncompressed, the protocol's limit; reading stopped there. Split it and list the parts in a sitemap index.")
}

// ReadCSV reads a page inventory (see readCSV) as ReadDocument reads a
// sitemap: up to site.MaxSitemapBytes, each row with a url handed to found.
func ReadCSV(r io.Reader, found func(*Document, *Found) error) (*Document, error) {
	doc := &Document{}
	var ps problems
	lim := &limited{r: r, left: site.MaxSitemapBytes}
	in := bufio.NewReaderSize(lim, 64<<10)
	skipBOM(in)
	err := readCSV(in, doc, &ps, found)
	return done(doc, &ps, lim, err, "The file is larger than %d bytes; reading stopped there. Split it.")
}

// skipBOM reads past a UTF-8 byte order mark and says whether there was one.
func skipBOM(in *bufio.Reader) bool {
	if bom, _ := in.Peek(3); bytes.Equal(bom, []byte{0xEF, 0xBB, 0xBF}) {
		in.Discard(3)
		return true
	}
	return false
}

// done records what reading doc learned and returns the error to report:
// found's, or one reading the file. Stopping at a limit (tooLarge says
// which, with %d for site.MaxSitemapBytes) or at a problem is in the problems.
func done(doc *Document, ps *problems, lim *limited, err error, tooLarge string) (*Document, error) {
	doc.Bytes = site.MaxSitemapBytes - lim.left
	if lim.over {
		ps.add("size", true, 0, tooLarge, site.MaxSitemapBytes)
	}
	if (lim.over || errors.Is(err, errStop)) && doc.URLs > 0 && len(ps.list) > 0 {
		doc.Cut = ps.list[ps.last].Msg // the problem that stopped it
	}
	doc.Problems = ps.list
	var fe foundErr
	if errors.As(err, &fe) {
		return doc, fe.err
	}
	if err != nil && !errors.Is(err, errStop) && !lim.over {
		return doc, err
	}
	return doc, nil
}

// foundErr carries an error of the caller's found through the parsers.
type foundErr struct{ err error }

func (f foundErr) Error() string { return f.err.Error() }

// unpack reads r, gunzipped if it starts as gzip, and says which. The
// reader it returns is not buffered after the gzip layer: its caller's is.
func unpack(r io.Reader) (io.Reader, bool, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return br, false, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, true, err
	}
	zr.Multistream(false)
	return zr, true, nil
}

// limited reads at most left bytes and notes whether there were more,
// and the first error reading r.
type limited struct {
	r    io.Reader
	left int64
	over bool
	err  error
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left <= 0 {
		var one [1]byte
		for {
			n, err := l.r.Read(one[:])
			if n > 0 {
				l.over = true
				return 0, io.EOF
			}
			if err != nil {
				return 0, l.note(err)
			}
		}
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, l.note(err)
}

func (l *limited) note(err error) error {
	if err != nil && err != io.EOF && l.err == nil {
		l.err = err
	}
	return err
}

// entry is the <url> or <sitemap> being read.
type entry struct {
	Found
	field string // the child element whose text is being read
	text  strings.Builder
	open  bool
}

func readXML(in *bufio.Reader, lim *limited, doc *Document, ps *problems, found func(*Document, *Found) error) error {
	lex := &xmlScan{r: in, line: 1}
	dec := xml.NewDecoder(lex)
	dec.Entity = xml.HTMLEntity // &nbsp; and the like are read, and reported by the scan
	dec.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		if l := strings.ToLower(label); l != "utf-8" && l != "utf8" {
			ps.add("encoding", true, 1, "The file declares encoding %q; sitemaps must be UTF-8.", label)
			return nil, errStop
		}
		return r, nil
	}
	var (
		root, rootSpace string
		depth           int
		e               entry
		extensions      = map[string]int{}
	)
	line := func() int { l, _ := dec.InputPos(); return l }
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, errStop) || lim.over { // the size problem says why
				return errStop
			}
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				ps.add("xml", true, se.Line, "Line %d: the XML is broken (%s); search engines reject the whole file.", se.Line, se.Msg)
				return errStop
			}
			if lim.err == nil { // not reading but the XML: an unsupported version
				ps.add("xml", true, line(), "Line %d: the XML is broken (%s); search engines reject the whole file.", line(), strings.TrimPrefix(err.Error(), "xml: "))
				return errStop
			}
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch {
			case depth == 1:
				root, rootSpace = t.Name.Local, t.Name.Space
				switch root {
				case KindURLSet, KindIndex:
					doc.Kind = root
				default:
					what := "<" + root + ">"
					if strings.EqualFold(root, "html") {
						what = "an HTML page"
					}
					ps.add("not-sitemap", true, line(), "This is not a sitemap: it is %s, not <urlset> or <sitemapindex>.", what)
					return errStop
				}
				switch rootSpace {
				case site.SitemapNamespace:
				case "":
					ps.add("namespace", false, line(), "<%s> has no namespace; the protocol's is %s. Read anyway.", root, site.SitemapNamespace)
				default:
					ps.add("namespace", false, line(), "<%s> has the namespace %s, not the protocol's %s. Read anyway.", root, rootSpace, site.SitemapNamespace)
				}
			case depth == 2 && t.Name.Space == rootSpace && (t.Name.Local == "url" && root == KindURLSet || t.Name.Local == "sitemap" && root == KindIndex):
				e = entry{open: true}
				e.Line = line()
			case depth == 3 && e.open && t.Name.Space == rootSpace:
				e.field = t.Name.Local
				e.text.Reset()
			case depth == 3 && e.open && t.Name.Space != rootSpace:
				e.extension(t, extensions)
			case depth == 2:
				ps.add("element", false, line(), "<%s> is not part of <%s>; it was skipped.", t.Name.Local, root)
			}
		case xml.CharData:
			if e.field != "" {
				e.text.Write(t)
			}
		case xml.EndElement:
			switch {
			case depth == 3 && e.field != "":
				setField(&e, ps, root)
				e.field = ""
			case depth == 2 && e.open:
				e.open = false
				if e.Loc == "" {
					ps.add("loc-missing", true, e.Line, "Line %d: a <%s> has no <loc>; it was skipped.", e.Line, map[string]string{KindURLSet: "url", KindIndex: "sitemap"}[root])
					break
				}
				doc.URLs++
				if doc.URLs > site.MaxSitemapURLs {
					doc.URLs--
					ps.add("count", true, e.Line, "The file lists more than %d entries, the protocol's limit; reading stopped at line %d. Split it and list the parts in a sitemap index.", site.MaxSitemapURLs, e.Line)
					return errStop
				}
				if err := found(doc, &e.Found); err != nil {
					return foundErr{err}
				}
			}
			depth--
		}
	}
	if root == "" {
		ps.add("not-sitemap", true, 0, "This is not a sitemap: it has no root element.")
	}
	if lex.amp > 0 {
		ps.addN("escaping", true, lex.ampLine, lex.amp, "Line %d: an & is not escaped as &amp; (%d in the file); strict XML readers, search engines among them, reject the file.", lex.ampLine, lex.amp)
	}
	if lex.entity > 0 {
		ps.addN("entity", true, lex.entityLine, lex.entity, "Line %d: an entity XML does not define, such as &nbsp; (%d in the file); XML has only &amp; &lt; &gt; &apos; &quot;, and strict readers reject the file. Read as HTML's.", lex.entityLine, lex.entity)
	}
	if lex.cdata > 0 {
		ps.addN("cdata", false, lex.cdataLine, lex.cdata, "Line %d: values are wrapped in CDATA sections (%d); they were read, but plain escaped text is what the protocol shows.", lex.cdataLine, lex.cdata)
	}
	if len(extensions) > 0 {
		var names []string
		total := 0
		for _, n := range slices.Sorted(maps.Keys(extensions)) {
			names = append(names, fmt.Sprintf("%s (%d)", n, extensions[n]))
			total += extensions[n]
		}
		ps.addN("extensions", false, 0, total, "Extension elements were read and left out: %s.", strings.Join(names, ", "))
	}
	return nil
}

// extension reads an element of another namespace in an entry: an
// hreflang alternate (xhtml:link), else an extension counted in counts
// and left out.
func (e *entry) extension(t xml.StartElement, counts map[string]int) {
	if t.Name.Space == xhtmlSpace && t.Name.Local == "link" && isAlternate(t.Attr) {
		e.Alternates = appendAlternate(e.Alternates, t.Attr)
		return
	}
	counts[extensionName(t.Name)]++
}

// isAlternate reports whether an xhtml:link's attributes name an
// hreflang alternate (rel="alternate" with an hreflang and an href).
func isAlternate(attrs []xml.Attr) bool {
	a, rel := linkAttrs(attrs)
	return strings.EqualFold(rel, "alternate") && a.Hreflang != "" && a.Href != ""
}

// appendAlternate adds the hreflang alternate an xhtml:link names.
func appendAlternate(alts []Alternate, attrs []xml.Attr) []Alternate {
	a, _ := linkAttrs(attrs)
	return append(alts, a)
}

// linkAttrs reads an xhtml:link's hreflang, href and rel, trimmed.
func linkAttrs(attrs []xml.Attr) (a Alternate, rel string) {
	for _, at := range attrs {
		switch at.Name.Local {
		case "rel":
			rel = strings.TrimSpace(at.Value)
		case "hreflang":
			a.Hreflang = strings.TrimSpace(at.Value)
		case "href":
			a.Href = strings.TrimSpace(at.Value)
		}
	}
	return a, rel
}

// extensionName names an extension element by the short name its
// namespace usually has.
func extensionName(n xml.Name) string {
	for short, ns := range map[string]string{
		"image": "http://www.google.com/schemas/sitemap-image/1.1",
		"video": "http://www.google.com/schemas/sitemap-video/1.1",
		"news":  "http://www.google.com/schemas/sitemap-news/0.9",
		"xhtml": "http://www.w3.org/1999/xhtml",
	} {
		if n.Space == ns {
			return short + ":" + n.Local
		}
	}
	return n.Local
}

// setField stores the text read for one child of an entry, trimmed.
func setField(e *entry, ps *problems, root string) {
	raw := e.text.String()
	v := strings.TrimSpace(raw)
	if v != raw {
		ps.add("whitespace", false, e.Line, "Line %d: whitespace around <%s>'s value; it was trimmed.", e.Line, e.field)
	}
	switch e.field {
	case "loc":
		e.Loc = v
	case "lastmod":
		e.Lastmod = v
	case "changefreq":
		if root == KindURLSet {
			e.Changefreq = v
		}
	case "priority":
		if root == KindURLSet {
			e.Priority = v
		}
	}
}

func readText(in *bufio.Reader, doc *Document, ps *problems, found func(*Document, *Found) error) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	n := 0
	for sc.Scan() {
		n++
		raw := sc.Text()
		v := strings.TrimSpace(raw)
		if v == "" {
			ps.add("blank", false, n, "Line %d: blank line; blank lines were skipped.", n)
			continue
		}
		if v != raw && strings.TrimRight(raw, "\r") != v {
			ps.add("whitespace", false, n, "Line %d: whitespace around the URL; it was trimmed.", n)
		}
		if !utf8.ValidString(v) {
			ps.add("utf8", true, n, "Line %d: not UTF-8; text sitemaps must be UTF-8.", n)
			continue
		}
		if n == 1 && !strings.Contains(v, "://") {
			ps.add("not-sitemap", true, 1, "This is not a sitemap: it does not start with < (XML) or a URL (a text sitemap).")
			return errStop
		}
		doc.URLs++
		if doc.URLs > site.MaxSitemapURLs {
			doc.URLs--
			ps.add("count", true, n, "The file lists more than %d URLs, the protocol's limit; reading stopped at line %d.", site.MaxSitemapURLs, n)
			return errStop
		}
		if err := found(doc, &Found{Loc: v, Line: n}); err != nil {
			return foundErr{err}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			ps.add("line-length", true, n+1, "Line %d is longer than 64 KiB; reading stopped there.", n+1)
			return errStop
		}
		return err
	}
	return nil
}

// xmlScan passes XML through to the decoder, noting outside comments,
// CDATA sections and processing instructions each & that starts no
// entity or character reference (the commonest sitemap error), which it
// passes on as &amp; so the strict decoder reads the rest; each entity
// XML does not define (&nbsp;, which the decoder reads as HTML's); and
// each CDATA section. It keeps the line of the first of each.
type xmlScan struct {
	r     io.Reader
	line  int
	state int    // 0 text and markup, 1 comment, 2 CDATA, 3 processing instruction
	in    []byte // read, not yet looked at (the last few bytes of a read wait for the next)
	out   []byte // looked at; out[sent:] is not yet passed on
	sent  int
	eof   error

	amp, ampLine, entity, entityLine, cdata, cdataLine int
}

const scanKeep = 12 // bytes held back, to see markers and entities split across reads

func (s *xmlScan) Read(p []byte) (int, error) {
	for s.sent == len(s.out) {
		if s.eof != nil {
			return 0, s.eof
		}
		// Read into the room after what is held back; both buffers keep
		// their room from read to read.
		held := len(s.in)
		s.in = slices.Grow(s.in, 32<<10)[:held+32<<10]
		n, err := s.r.Read(s.in[held:])
		s.in = s.in[:held+n]
		if err != nil {
			s.eof = err
		}
		s.out, s.sent = s.out[:0], 0
		s.scan()
	}
	n := copy(p, s.out[s.sent:])
	s.sent += n
	return n, nil
}

var xmlEntities = map[string]bool{"amp": true, "lt": true, "gt": true, "apos": true, "quot": true}

// scan moves what it can of in to out.
func (s *xmlScan) scan() {
	b := s.in
	stop := len(b)
	if s.eof == nil {
		stop = max(0, len(b)-scanKeep)
	}
	i := 0
	for i < stop {
		c := b[i]
		switch s.state {
		case 0:
			switch {
			case c == '\n':
				s.line++
			case c == '&':
				name, ok := entityAt(b[i:])
				switch {
				case !ok:
					if s.amp == 0 {
						s.ampLine = s.line
					}
					s.amp++
					s.out = append(s.out, "&amp;"...)
					i++
					continue
				case name[0] != '#' && !xmlEntities[string(name)]:
					if s.entity == 0 {
						s.entityLine = s.line
					}
					s.entity++
				}
			case c == '<' && bytes.HasPrefix(b[i:], []byte("<!--")):
				s.state = 1
			case c == '<' && bytes.HasPrefix(b[i:], []byte("<![CDATA[")):
				if s.cdata == 0 {
					s.cdataLine = s.line
				}
				s.cdata++
				s.state = 2
			case c == '<' && i+1 < len(b) && b[i+1] == '?':
				s.state = 3
			}
		default:
			closer := [...]string{1: "-->", 2: "]]>", 3: "?>"}[s.state]
			if c == '\n' {
				s.line++
			} else if c == closer[0] && bytes.HasPrefix(b[i:], []byte(closer)) {
				s.out = append(s.out, closer...)
				i += len(closer)
				s.state = 0
				continue
			}
		}
		s.out = append(s.out, c)
		i++
	}
	s.in = append(s.in[:0], b[i:]...)
}

// entityAt returns the name of the entity or character reference b
// starts with (&name; &#digits; &#xhex;), or false.
func entityAt(b []byte) ([]byte, bool) {
	for j := 1; j < len(b) && j < scanKeep; j++ {
		c := b[j]
		switch {
		case c == ';':
			return b[1:j], j > 1
		case c == '#' && j == 1, c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-', c == '.':
		default:
			return nil, false
		}
	}
	return nil, false
}
