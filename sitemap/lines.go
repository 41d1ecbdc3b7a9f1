package sitemap

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// MaxLineShown is how much of a line Lines gives: a sitemap written on
// one line is 50 MB long.
const MaxLineShown = 400

// Lines reads a file (gzipped or not, as ReadDocument would) as far as
// line+around and returns the number of the first line it gives and the
// lines from line-around to line+around, each cut at MaxLineShown
// bytes, so that a report can show where a problem is. It reads at most
// MaxBytes. Errors: the reading's; a line past the end gives fewer lines.
func Lines(r io.Reader, line, around int) (int, []string, error) {
	br, _, err := unpack(r)
	if err != nil {
		return 0, nil, err
	}
	lim := &limited{r: br, left: MaxBytes}
	in := bufio.NewReaderSize(lim, 64<<10)
	first := max(1, line-around)
	var lines []string
	var cur []byte
	for n := 1; n <= line+around; {
		chunk, err := in.ReadSlice('\n')
		if n >= first && len(cur) < MaxLineShown {
			cur = append(cur, chunk[:min(len(chunk), MaxLineShown-len(cur))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the same line goes on
		}
		if n >= first && (len(chunk) > 0 || err == nil) {
			lines = append(lines, shown(cur))
		}
		cur = cur[:0]
		n++
		if err == io.EOF { // the end, or MaxBytes
			break
		}
		if err != nil {
			return first, lines, err
		}
	}
	return first, lines, nil
}

// shown is a line as text: its end of line dropped, and what is not
// UTF-8 (a cut in the middle of a character) replaced.
func shown(b []byte) string {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
