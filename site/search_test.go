package site

import "testing"

func TestSearchKey(t *testing.T) {
	for _, tc := range []struct{ in, key, words string }{
		{"Über uns", "uber uns", "uber uns ueber uns"},
		{"Straße & Co.", "strasse co", "strasse co"},
		{"Ça va?", "ca va", "ca va"},
		{"Page 55", "page 55", "page 55"},
		{"  Café  &  \"Bar\" <b> ", "cafe bar b", "cafe bar b"},
		{"Ünïcödé", "unicode", "unicode uenicoede"},
		{"!?", "", ""},
	} {
		if got := SearchKey(tc.in); got != tc.key {
			t.Errorf("SearchKey(%q) = %q, want %q", tc.in, got, tc.key)
		}
		if got := SearchWords(tc.in, ""); got != tc.words {
			t.Errorf("SearchWords(%q) = %q, want %q", tc.in, got, tc.words)
		}
	}
	if got := SearchWords("Products", "produkte"); got != "products produkte" {
		t.Errorf("with the slug: %q", got)
	}
}
