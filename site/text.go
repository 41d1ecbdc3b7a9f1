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
		if multiline && (r == '\n' || r == '\t' || r == '\r' || r == '\u2028' || r == '\u2029') {
			continue
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return fmt.Sprintf("%s has a control character (U+%04X): remove it.", what, r)
		}
	}
	return ""
}

// NameProblem says what is wrong with a name others see beside what its
// bearer did (a person's, a team's, a share link's label), or "":
// TextProblem's rules, and no invisible character that would make it
// pass for another name: bidirectional embeddings, overrides and isolates
// (U+202E shows what follows backwards), zero-width spaces, the byte
// order mark and the like (Unicode's format characters). A zero-width
// joiner or non-joiner between two letters is how Persian, Indic scripts
// and emoji are written, and stays.
func NameProblem(what, s string, max int) string {
	if msg := TextProblem(what, s, max, false); msg != "" {
		return msg
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.Is(unicode.Cf, r) {
			continue
		}
		if (r == '\u200c' || r == '\u200d') && i > 0 && i < len(rs)-1 && isLetter(rs[i-1]) && isLetter(rs[i+1]) {
			continue
		}
		return fmt.Sprintf("%s has an invisible character (U+%04X) that could make it pass for another: remove it.", what, r)
	}
	return ""
}

// isLetter reports whether r is a letter, a mark or a symbol (an emoji):
// what a joiner may stand between.
func isLetter(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.So)
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
