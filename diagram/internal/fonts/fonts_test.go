package fonts

import (
	"strings"
	"testing"

	"golang.org/x/image/font/sfnt"
)

// TestVisual: the PDF and PNG print a text with right-to-left letters in
// the order it is read on the page: runs of right-to-left letters reversed
// with their brackets mirrored, numbers and left-to-right words kept as
// they read, Arabic letters in the forms that join them, direction marks
// dropped; other text is left as it is.
func TestVisual(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Home", "Home"},
		{"Kontakt ✉ Team", "Kontakt ✉ Team"},
		{"שלום עולם", "םלוע םולש"},
		{"שלום (עולם) 2026", "2026 (םלוע) םולש"},
		{"Über uns — שלום", "Über uns — םולש"},
		{"שלום Team עולם", "םלוע Team םולש"},
		// seen initial, lam-alef final (one glyph), meem alone (its base letter)
		{"سلام", "\u0645\uFEFC\uFEB3"},
		// meem initial, reh final, hah initial, beh medial, alef final; then beh initial, ...
		{"مرحبا بالعالم", "\uFEE2\uFEDF\uFE8E\uFECC\uFEDF\uFE8E\uFE91 \uFE8E\uFE92\uFEA3\uFEAE\uFEE3"},
		{"(سلام)", "(\u0645\uFEFC\uFEB3)"}, // a run starting with a bracket is shaped as Arabic too
		{"\u200fשלום\u200f", "םולש"},
		{"שלום 🏠", "🏠 םולש"},
	}
	for _, tt := range tests {
		for _, bold := range []bool{false, true} {
			if got := Visual(tt.text, bold); got != tt.want {
				t.Errorf("Visual(%q, bold %v) = %q %U, want %q %U", tt.text, bold, got, []rune(got), tt.want, []rune(tt.want))
			}
		}
	}
}

// TestFontRuns: each character is drawn by the first embedded font that
// has it, a character none has by a visible U+FFFD, and invisible
// joiners and variation selectors not at all.
func TestFontRuns(t *testing.T) {
	tests := []struct {
		text string
		bold bool
		want string
	}{
		{"Home", false, "sans:Home"},
		{"Home", true, "sans-bold:Home"},
		{"Home 🏠", false, "sans:Home |symbols:🏠"},
		{"日本語 page", true, "cjk:日本語|sans-bold: page"},
		{"שלום مرحبا Ωμέγα Русский", false, "sans:שלום مرحبا Ωμέγα Русский"},
		{"✉️ 👩\u200d👩\u200d👧", false, "sans:✉ |symbols:👩👩👧"},
		{"x\U000FFFFDy", false, "sans:x\uFFFDy"},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range Runs(tt.text, tt.bold) {
			got = append(got, r.Face.Name+":"+r.Text)
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("runs(%q) = %q, want %q", tt.text, strings.Join(got, "|"), tt.want)
		}
	}
	var buf sfnt.Buffer
	if !Chain(false)[0].Has(&buf, Replacement) || !Chain(true)[0].Has(&buf, Replacement) {
		t.Error("the first font has no U+FFFD glyph: a missing character would print as nothing")
	}
}
