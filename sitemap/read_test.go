package sitemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"siteplan/site"
)

// readAll reads one document and returns its URLs (locs) and its
// problems as "rule:line:count" (an error marked with !).
func readAll(t *testing.T, r io.Reader) (*Document, []Found, []string) {
	t.Helper()
	var got []Found
	doc, err := ReadDocument(r, func(_ *Document, f *Found) error { got = append(got, *f); return nil })
	if err != nil {
		t.Fatal(err)
	}
	var ps []string
	for _, p := range doc.Problems {
		mark := ""
		if p.Error {
			mark = "!"
		}
		ps = append(ps, fmt.Sprintf("%s%s:%d:%d", mark, p.Rule, p.Line, p.Count))
	}
	return doc, got, ps
}

func locs(fs []Found) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.Loc)
	}
	return strings.Join(s, " ")
}

func gz(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Write(b)
	z.Close()
	return buf.Bytes()
}

const urlset = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/</loc><lastmod>2026-11-01T10:00:00+01:00</lastmod><changefreq>daily</changefreq><priority>1.0</priority></url>
<url><loc>https://example.com/a&amp;b</loc></url>
</urlset>
`

// TestReadDocument: what the reader reads of each kind of file, what it
// forgives (each a warning) and what it refuses (each an error naming the
// line), however the file is compressed.
func TestReadDocument(t *testing.T) {
	file := func(name string) string {
		b, err := os.ReadFile("testdata/read/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		name, in   string
		kind, locs string
		problems   string
	}{
		{"urlset", urlset, KindURLSet, "https://example.com/ https://example.com/a&b", ""},
		{"index", `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/s1.xml.gz</loc><lastmod>2026-11-01</lastmod></sitemap><sitemap><loc>https://example.com/s2.xml</loc></sitemap></sitemapindex>`,
			KindIndex, "https://example.com/s1.xml.gz https://example.com/s2.xml", ""},
		{"no namespace", `<urlset><url><loc>https://example.com/</loc></url></urlset>`, KindURLSet, "https://example.com/", "namespace:1:1"},
		{"sloppy", file("sloppy.xml"), KindURLSet, "https://www.example.com/search?q=widgets&page=2 https://www.example.com/a?x=1&y=2",
			"namespace:2:1 whitespace:3:2 !loc-missing:15:1 !escaping:5:1 cdata:10:1"},
		{"extensions", file("extensions.xml"), KindURLSet, "https://www.example.com/products/blue-widget https://www.example.com/videos/tour https://www.example.com/news/launch",
			"extensions:0:4"}, // its xhtml:link alternate is read (Found.Alternates)
		{"bom and blank lines", file("bom-blank.txt"), KindText, "https://www.example.com/ https://www.example.com/about https://www.example.com/contact",
			"bom:1:1 blank:2:2 whitespace:4:1"},
		{"xml with a BOM", "\uFEFF" + urlset, KindURLSet, "https://example.com/ https://example.com/a&b", "bom:1:1"},
		{"html", "<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>404</body></html>", "", "", "!not-sitemap:2:1"},
		{"empty", "  \n", "", "", "!empty:0:1"},
		{"prose", "Not Found\n", KindText, "", "!not-sitemap:1:1"},
		{"broken", "<urlset xmlns=\"" + site.SitemapNamespace + "\">\n<url><loc>https://example.com/</loc></url>\n<url><loc>https://example.com/b</url>\n</urlset>", KindURLSet, "https://example.com/", "!xml:3:1"},
		{"undefined entity", `<urlset xmlns="` + site.SitemapNamespace + `"><url><loc>https://example.com/caf&eacute;&#233;&#xE9;</loc></url></urlset>`, KindURLSet, "https://example.com/cafééé", "!entity:1:1"},
		{"latin-1", `<?xml version="1.0" encoding="ISO-8859-1"?><urlset/>`, "", "", "!encoding:1:1"},
		{"xml 2.0", "<?xml version=\"2.0\"?>\n<urlset/>", "", "", "!xml:1:1"},
		{"stray element", `<urlset xmlns="` + site.SitemapNamespace + `"><foo/><url><loc>https://example.com/</loc></url></urlset>`, KindURLSet, "https://example.com/", "element:1:1"},
	}
	for _, tt := range tests {
		for _, zipped := range []bool{false, true} {
			in := []byte(tt.in)
			if zipped {
				in = gz(t, in)
			}
			doc, got, ps := readAll(t, bytes.NewReader(in))
			name := fmt.Sprintf("%s (gzip %v)", tt.name, zipped)
			if doc.Kind != tt.kind {
				t.Errorf("%s: kind %q, want %q", name, doc.Kind, tt.kind)
			}
			if locs(got) != tt.locs {
				t.Errorf("%s: read\n%s\nwant\n%s", name, locs(got), tt.locs)
			}
			if strings.Join(ps, " ") != tt.problems {
				t.Errorf("%s: problems %q, want %q", name, strings.Join(ps, " "), tt.problems)
			}
			if doc.Gzip != zipped {
				t.Errorf("%s: Gzip = %v", name, doc.Gzip)
			}
		}
	}
}

// TestReadValues: a URL's values are read as written, trimmed, with the
// line the entry starts on.
func TestReadValues(t *testing.T) {
	_, got, _ := readAll(t, strings.NewReader(urlset))
	want := Found{Loc: "https://example.com/", Lastmod: "2026-11-01T10:00:00+01:00", Changefreq: "daily", Priority: "1.0", Line: 3}
	if len(got) != 2 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("read %+v, want first %+v", got, want)
	}
}

// TestReadLimits: a file past 50,000 URLs is read up to the limit and
// reported; a gzip bomb (64 MiB of XML from 64 KiB) stops at
// 52,428,800 bytes inflated.
func TestReadLimits(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`<urlset xmlns="` + site.SitemapNamespace + `">` + "\n")
	for i := range site.MaxSitemapURLs + 5 {
		fmt.Fprintf(&b, "<url><loc>https://example.com/p%d</loc></url>\n", i)
	}
	b.WriteString("</urlset>\n")
	doc, got, ps := readAll(t, &b)
	if len(got) != site.MaxSitemapURLs || doc.URLs != site.MaxSitemapURLs || strings.Join(ps, " ") != "!count:50002:1" {
		t.Errorf("50,005 URLs: read %d (%d), problems %q; want 50,000 and a count error at line 50,002", len(got), doc.URLs, ps)
	}

	bomb := gz(t, append([]byte(`<urlset xmlns="`+site.SitemapNamespace+`"><url><loc>https://example.com/</loc></url>`), bytes.Repeat([]byte(" "), 64<<20)...))
	if len(bomb) > 128<<10 {
		t.Fatalf("the bomb is %d bytes compressed", len(bomb))
	}
	doc, got, ps = readAll(t, bytes.NewReader(bomb))
	if doc.Bytes != site.MaxSitemapBytes || len(got) != 1 || strings.Join(ps, " ") != "!size:0:1" {
		t.Errorf("the gzip bomb: read %d bytes, %d URLs, problems %q; want %d, 1 and a size error", doc.Bytes, len(got), ps, site.MaxSitemapBytes)
	}
}

// BenchmarkReadDocument reads a sitemap of 50,000 URLs with lastmod, the
// protocol's largest by count: MB/s of XML read.
func BenchmarkReadDocument(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="` + site.SitemapNamespace + `">` + "\n")
	for i := range site.MaxSitemapURLs {
		fmt.Fprintf(&buf, "<url><loc>https://www.example.com/section-%d/page-%d</loc><lastmod>2026-11-01</lastmod></url>\n", i%40, i)
	}
	buf.WriteString("</urlset>\n")
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		if _, err := ReadDocument(bytes.NewReader(buf.Bytes()), func(*Document, *Found) error { n++; return nil }); err != nil || n != site.MaxSitemapURLs {
			b.Fatalf("read %d URLs, %v", n, err)
		}
	}
}

// TestReadBrokenGzip: a file with a gzip header and broken data is a
// gzip error, not an empty file.
func TestReadBrokenGzip(t *testing.T) {
	broken := append(gz(t, []byte(urlset))[:10], bytes.Repeat([]byte{0xff}, 40)...)
	doc, got, ps := readAll(t, bytes.NewReader(broken))
	if len(got) != 0 || !doc.Gzip || strings.Join(ps, " ") != "!gzip:0:1" {
		t.Errorf("broken gzip: %d URLs, gzip %v, problems %q", len(got), doc.Gzip, ps)
	}
}

// TestReadFailsBeforeContent: a body that fails before anything but
// blanks came (a server too slow) is the file's error, not an empty
// file.
func TestReadFailsBeforeContent(t *testing.T) {
	slow := errors.New("sent less than 1024 bytes a second")
	_, err := ReadDocument(io.MultiReader(strings.NewReader("   "), iotest.ErrReader(slow)), func(*Document, *Found) error { return nil })
	if !errors.Is(err, slow) {
		t.Errorf("got %v, want the body's error", err)
	}
	doc, err := ReadDocument(strings.NewReader("  \n "), func(*Document, *Found) error { return nil })
	if err != nil || len(doc.Problems) != 1 || doc.Problems[0].Rule != "empty" {
		t.Errorf("a file of blanks: %v %+v", err, doc.Problems)
	}
}

// TestReadAlternates: a localized sitemap's xhtml:link alternates are
// read with their <url> (other links and other extensions are not), and
// are no extension left out.
func TestReadAlternates(t *testing.T) {
	const doc = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>https://example.com/de/preise</loc>
 <xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/pricing"/>
 <xhtml:link rel="alternate" hreflang="de" href=" https://example.com/de/preise "/>
 <xhtml:link rel="amphtml" href="https://example.com/amp/de/preise"/>
 <xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/en/pricing"/></url>
<url><loc>https://example.com/de/</loc><image:image><image:loc>https://example.com/a.png</image:loc></image:image></url>
</urlset>`
	_, got, ps := readAll(t, strings.NewReader(doc))
	if len(got) != 2 {
		t.Fatalf("read %d URLs", len(got))
	}
	if s := fmt.Sprint(got[0].Alternates); s != "[{en https://example.com/en/pricing} {de https://example.com/de/preise} {x-default https://example.com/en/pricing}]" {
		t.Errorf("alternates: %s", s)
	}
	if got[1].Alternates != nil {
		t.Errorf("a URL without alternates: %v", got[1].Alternates)
	}
	if strings.Join(ps, " ") != "extensions:0:2" {
		t.Errorf("problems: %v", ps) // the amphtml link and the image, left out
	}
}
