package site

import (
	"bytes"
	"strings"
	"testing"
)

// The fuzz tests run their seeds with every go test; make test also runs
// each for a few seconds with -fuzz. None may panic, and every value they
// accept must come back unchanged through its own output.

// FuzzNormalizeURL: a normalised URL normalises to itself.
func FuzzNormalizeURL(f *testing.F) {
	for _, s := range []string{"https://example.com", "HTTP://Bücher.example:80/a b/%zz?q=ä#frag", "https://[::1]:8080/x", "https://example.com:08080/%2F%", "http://xn--bcher-kva.example/über"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := NormalizeURL(in)
		if err != nil {
			return
		}
		again, err := NormalizeURL(out)
		if err != nil || again != out {
			t.Fatalf("NormalizeURL(%q) = %q, which normalises to %q (%v)", in, out, again, err)
		}
	})
}

// outlineText writes items back as an outline, indented with tabs.
func outlineText(items []*OutlineItem) string {
	var b strings.Builder
	var walk func(list []*OutlineItem, depth int)
	walk = func(list []*OutlineItem, depth int) {
		for _, it := range list {
			b.WriteString(strings.Repeat("\t", depth) + it.Title + "\n")
			walk(it.Children, depth+1)
		}
	}
	walk(items, 0)
	return b.String()
}

// FuzzParseOutline: an outline that parses, written back, parses the same.
func FuzzParseOutline(f *testing.F) {
	for _, s := range []string{"Home\n  About\n    Team\nBlog", "- a\n\t* b\n\t\t+ c", "a\n        b\n  c\n", "• x\r\n  - - y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		items, err := ParseOutline(in)
		if err != nil {
			return
		}
		text := outlineText(items)
		again, err := ParseOutline(text)
		if err != nil || outlineText(again) != text {
			t.Fatalf("ParseOutline(%q) gave\n%s\nwhich parses to\n%s(%v)", in, text, outlineText(again), err)
		}
	})
}

// FuzzParseDocument: a document that parses encodes to one that parses
// and encodes the same.
func FuzzParseDocument(f *testing.F) {
	f.Add(`{"format":"siteplan/1","project":{"name":"A","base_url":"https://a.example"},"pages":[{"key":"h","title":"Home","slug":"","children":[{"key":"b","title":"B","priority":0.5,"lastmod":"2026-11-01T10:00:00+01:00"}]}],"links":[{"from":"h","to":"b","label":"x"}]}`)
	f.Add(`{"format":"siteplan/1","project":{"name":"Ü <&>","base_url":"HTTP://Bücher.example/de"},"pages":[{"title":"x","path":"/a?b","kind":"group","placement":"footer"}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		d, err := ParseDocument(strings.NewReader(in))
		if err != nil {
			return
		}
		var first, second bytes.Buffer
		if err := d.Encode(&first); err != nil {
			t.Fatal(err)
		}
		d2, err := ParseDocument(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("the encoding of an accepted document is refused: %v\n%s", err, first.String())
		}
		if err := d2.Encode(&second); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("encodings differ:\n%s\n%s", first.String(), second.String())
		}
	})
}
