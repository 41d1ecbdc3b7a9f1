package sitemap

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"siteplan/site"
)

// FuzzReadDocument: whatever a server sends, the reader returns (never
// panics), stays within the protocol's limits, and gives every URL and
// problem a line that is in the file.
func FuzzReadDocument(f *testing.F) {
	f.Add([]byte(urlset))
	f.Add([]byte(`<?xml version="1.0"?><sitemapindex xmlns="` + site.SitemapNamespace + `"><sitemap><loc>https://e.com/a.xml</loc></sitemap></sitemapindex>`))
	f.Add([]byte("\ufeffhttps://example.com/a\n\nhttps://example.com/b\r\n"))
	f.Add([]byte(`<urlset xmlns="http://www.google.com/schemas/sitemap/0.9"><url><loc> <![CDATA[https://e.com/?a=1&b=2]]> </loc><lastmod>2026-11-01T10:00:00</lastmod></url></urlset>`))
	f.Add([]byte(`<urlset xmlns="` + site.SitemapNamespace + `"><url><loc>https://e.com/?a=1&b=2&nbsp;</loc></url>`))
	f.Add([]byte("<!DOCTYPE html><html><body>Not found</body></html>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		n := 0
		doc, err := ReadDocument(bytes.NewReader(data), func(_ *Document, u *Found) error {
			n++
			if u.Line < 1 || u.Line > lines && !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
				t.Errorf("URL %q on line %d of %d", u.Loc, u.Line, lines)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("reading bytes: %v", err)
		}
		if doc.Bytes > site.MaxSitemapBytes || n > site.MaxSitemapURLs || doc.URLs > site.MaxSitemapURLs {
			t.Errorf("read %d bytes and %d URLs (%d entries), past the limits", doc.Bytes, n, doc.URLs)
		}
		for _, p := range doc.Problems {
			if p.Rule == "" || p.Msg == "" || p.Count < 1 || p.Line < 0 || p.Line > lines && !doc.Gzip {
				t.Errorf("problem %+v in a file of %d lines", p, lines)
			}
		}
	})
}

// FuzzReadRoundTrip: a urlset written with every value escaped reads
// back exactly, each URL on its line, with no error.
func FuzzReadRoundTrip(f *testing.F) {
	f.Add("https://example.com/a?x=1&y=<2>\nhttps://example.com/café 'quoted' \"too\"\nhttps://example.com/%20")
	f.Fuzz(func(t *testing.T, in string) {
		var locs []string
		for _, l := range strings.Split(in, "\n") {
			if l = strings.TrimSpace(l); l != "" && utf8.ValidString(l) && strings.IndexFunc(l, unicode.IsControl) < 0 && len(locs) < 100 {
				locs = append(locs, l)
			}
		}
		var b bytes.Buffer
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="` + site.SitemapNamespace + `">` + "\n")
		for _, l := range locs {
			b.WriteString("<url><loc>")
			if err := xml.EscapeText(&b, []byte(l)); err != nil {
				t.Skip(err)
			}
			b.WriteString("</loc></url>\n")
		}
		b.WriteString("</urlset>\n")
		var got []string
		doc, err := ReadDocument(bytes.NewReader(b.Bytes()), func(_ *Document, u *Found) error {
			if want := len(got) + 3; u.Line != want {
				t.Errorf("%q read on line %d, want %d", u.Loc, u.Line, want)
			}
			got = append(got, u.Loc)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(locs) {
			t.Errorf("read back %q, want %q", got, locs)
		}
		for _, p := range doc.Problems {
			if p.Error {
				t.Errorf("problem %+v in\n%s", p, b.String())
			}
		}
	})
}

// FuzzReadCSV: whatever file is uploaded as a page inventory, the reader
// returns (never panics) within the limits, every row it hands on has a
// URL and a line that is in the file and is counted, and nothing is an
// error but found's.
func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("url,title,status\nhttps://example.com/,Home,live\nhttps://example.com/a,\"A, b\",planned\n"))
	f.Add([]byte("\ufeffURL;Title\nhttps://example.com/;Start\n\"https://example.com/q\"\"x\";Q\n"))
	f.Add([]byte("title\nno url column\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, n := bytes.Count(data, []byte("\n"))+1, 0
		doc, err := ReadCSV(bytes.NewReader(data), func(_ *Document, u *Found) error {
			n++
			if u.Loc == "" || u.Line < 1 || u.Line > lines {
				t.Errorf("row %+v in a file of %d lines", u, lines)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("reading bytes: %v", err)
		}
		if doc.Bytes > site.MaxSitemapBytes || doc.URLs != n {
			t.Errorf("read %d bytes; %d rows counted, %d handed on", doc.Bytes, doc.URLs, n)
		}
		for _, p := range doc.Problems {
			if p.Rule == "" || p.Msg == "" || p.Count < 1 || p.Line < 0 || p.Line > lines+1 {
				t.Errorf("problem %+v in a file of %d lines", p, lines)
			}
		}
	})
}

// FuzzExcerpts: the lines a report shows around a problem's line are
// the file's lines there, each cut at MaxLineShown bytes, as a plain
// split of the file gives them.
func FuzzExcerpts(f *testing.F) {
	f.Add([]byte("<urlset>\r\n<url><loc>https://e.com/a&b</loc></url>\n\n</urlset>"), uint16(2), uint8(1))
	f.Add([]byte(strings.Repeat("x", 1000)+"é\nshort\n"), uint16(1), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, line uint16, around uint8) {
		if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			return // gzip: read unpacked
		}
		l, a := int(line)+1, int(around)%8
		raw := strings.SplitAfter(string(data), "\n")
		if raw[len(raw)-1] == "" {
			raw = raw[:len(raw)-1] // after the last end of line, no line
		}
		var want []string
		for n := max(1, l-a); n <= l+a && n <= len(raw); n++ {
			s := raw[n-1][:min(len(raw[n-1]), MaxLineShown)]
			want = append(want, strings.ToValidUTF8(strings.TrimRight(s, "\r\n"), "\uFFFD"))
		}
		first, got, err := Lines(bytes.NewReader(data), l, a)
		if err != nil {
			t.Fatal(err)
		}
		if first != max(1, l-a) || fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
			t.Errorf("line %d±%d: from %d %q, want %q", l, a, first, got, want)
		}
	})
}
