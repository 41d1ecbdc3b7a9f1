package site

import (
	"strconv"
	"strings"
)

// OutlineItem is one line of a pasted outline.
type OutlineItem struct {
	Title    string
	Children []*OutlineItem
}

// OutlineHeight is how many levels an outline has.
func OutlineHeight(items []*OutlineItem) int {
	h := 0
	for _, it := range items {
		h = max(h, 1+OutlineHeight(it.Children))
	}
	return h
}

// MaxOutlineLines bounds one paste.
const MaxOutlineLines = 5000

// ParseOutline reads an indented outline: one title per line, indented with
// tabs or with 2 or 4 spaces per level (detected from the text). Leading list
// markers ("- ", "* ", "+ ", "• ") are dropped and blank lines skipped. A
// line indented deeper than one level below the previous one is taken as a
// child of it. It returns EInvalid for an empty outline or one that is too
// long.
func ParseOutline(text string) ([]*OutlineItem, error) {
	type line struct {
		indent int
		title  string
	}
	var lines []line
	unit := 0
	for _, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		ind := 0
		i := 0
		for ; i < len(raw) && (raw[i] == ' ' || raw[i] == '\t'); i++ {
			if raw[i] == '\t' {
				ind += 4
			} else {
				ind++
			}
		}
		title := strings.TrimSpace(raw[i:])
		for stripped := true; stripped; { // "- * x" is x
			stripped = false
			for _, m := range []string{"- ", "* ", "+ ", "• "} {
				if t, ok := strings.CutPrefix(title, m); ok {
					title, stripped = strings.TrimSpace(t), true
				}
			}
		}
		if title == "" {
			continue
		}
		if msg := TextProblem("Line "+strconv.Itoa(len(lines)+1), title, MaxTitleLen, false); msg != "" {
			return nil, Errorf(EInvalid, "%s", msg)
		}
		if ind > 0 && (unit == 0 || ind < unit) {
			unit = ind
		}
		lines = append(lines, line{ind, title})
		if len(lines) > MaxOutlineLines {
			return nil, Errorf(EInvalid, "The outline has more than %d lines; paste it in parts.", MaxOutlineLines)
		}
	}
	if len(lines) == 0 {
		return nil, Errorf(EInvalid, "The outline is empty: type one page title per line, indented to nest.")
	}
	if unit == 0 {
		unit = 1
	}
	var roots []*OutlineItem
	var stack []*OutlineItem // stack[d] is the last item at depth d
	for _, l := range lines {
		depth := l.indent / unit
		if depth > len(stack) {
			depth = len(stack)
		}
		it := &OutlineItem{Title: l.title}
		if depth == 0 {
			roots = append(roots, it)
		} else {
			parent := stack[depth-1]
			parent.Children = append(parent.Children, it)
		}
		stack = append(stack[:depth], it)
	}
	return roots, nil
}
