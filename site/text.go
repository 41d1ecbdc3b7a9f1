package site

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// TextProblem says what is wrong with text a person typed, or "": it must
// be valid UTF-8, at most max characters long (characters, not bytes: 120
// Japanese characters are 360 bytes), and hold no control character; a
// multiline text (notes, comments) may hold line breaks and tabs. what
// names the field, capitalised.
func TextProblem(what, s string, max int, multiline bool) string {
	if !utf8.ValidString(s) {
		return what + " is not valid UTF-8 text."
	}
	if utf8.RuneCountInString(s) > max {
		return fmt.Sprintf("%s is longer than %s characters.", what, Thousands(max))
	}
	for _, r := range s {
		if multiline && (r == '\n' || r == '\t' || r == '\r') {
			continue
		}
		if unicode.IsControl(r) {
			return fmt.Sprintf("%s has a control character (U+%04X): remove it.", what, r)
		}
	}
	return ""
}

// Thousands writes n with comma separators: 10,000.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// LinkLabelProblem says what is wrong with a cross-link's label, or "".
func LinkLabelProblem(label string) string {
	return TextProblem("The link label", label, MaxShortLen, false)
}
