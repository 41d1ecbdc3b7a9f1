package sitemap

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"siteplan/site"
)

// MaxLineShown is how much of a line Lines gives: a sitemap written on
// one line is 50 MB long.
const MaxLineShown = 400

// Lines reads a file (gzipped or not, as ReadDocument would) as far as
// line+around and returns the number of the first line it gives and the
// lines from line-around to line+around, each cut at MaxLineShown
// bytes, so that a report can show where a problem is. It reads at most
// site.MaxSitemapBytes. Errors: the reading's; a line past the end gives fewer lines.
func Lines(r io.Reader, line, around int) (int, []string, error) {
	ex, err := Excerpts(r, []int{line}, around)
	return ex[0].First, ex[0].Lines, err
}

// Excerpt is the lines of a file around one of its lines.
type Excerpt struct {
	Line  int      // the line it is about
	First int      // the number of Lines[0]
	Lines []string // Line-around to Line+around, fewer at the file's end
}

// LinesAround is how many lines before and after a problem's line a
// report shows: kept with an uploaded file's reading, read again from a
// file on the web.
const LinesAround = 6

// Excerpts reads a file once, as Lines does, and returns the lines
// around each of lines, in their order. Errors: as Lines.
func Excerpts(r io.Reader, lines []int, around int) ([]Excerpt, error) {
	ex := make([]Excerpt, len(lines))
	last := 0
	for i, l := range lines {
		ex[i] = Excerpt{Line: l, First: max(1, l-around)}
		last = max(last, l+around)
	}
	br, _, err := unpack(r)
	if err != nil {
		return ex, err
	}
	in := bufio.NewReaderSize(&limited{r: br, left: site.MaxSitemapBytes}, 64<<10)
	var cur []byte
	for n := 1; n <= last; {
		chunk, err := in.ReadSlice('\n')
		if len(cur) < MaxLineShown {
			cur = append(cur, chunk[:min(len(chunk), MaxLineShown-len(cur))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the same line goes on
		}
		if len(chunk) > 0 || err == nil {
			for i := range ex {
				if e := &ex[i]; n >= e.First && n <= e.Line+around {
					e.Lines = append(e.Lines, shown(cur))
				}
			}
		}
		cur = cur[:0]
		n++
		if err == io.EOF { // the end, or site.MaxSitemapBytes
			break
		}
		if err != nil {
			return ex, err
		}
	}
	return ex, nil
}

// shown is a line as text: its end of line dropped, and what is not
// UTF-8 (a cut in the middle of a character) replaced.
func shown(b []byte) string {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
