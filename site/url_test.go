package site

import (
	"strings"
	"testing"
)

func TestNormalizeURL(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"bare host gets slash", "https://example.com", "https://example.com/"},
		{"port without leading zeros", "https://example.com:08080/a", "https://example.com:8080/a"},
		{"highest port", "https://example.com:65535/", "https://example.com:65535/"},
		{"scheme and host lower-cased", "HTTPS://WWW.Example.COM/About", "https://www.example.com/About"},
		{"IDN host to punycode", "https://bücher.example/", "https://xn--bcher-kva.example/"},
		{"non-ASCII path UTF-8 encoded", "https://example.com/über/straße", "https://example.com/%C3%BCber/stra%C3%9Fe"},
		{"space encoded", "https://example.com/a b", "https://example.com/a%20b"},
		{"valid escape kept", "https://example.com/a%20b", "https://example.com/a%20b"},
		{"lower-case escape upper-cased", "https://example.com/a%c3%bc", "https://example.com/a%C3%BC"},
		{"stray percent", "https://example.com/100%/x%zz", "https://example.com/100%25/x%25zz"},
		{"fragment dropped", "https://example.com/a#top", "https://example.com/a"},
		{"default https port dropped", "https://example.com:443/a", "https://example.com/a"},
		{"default http port dropped", "http://example.com:80/", "http://example.com/"},
		{"other port kept", "http://example.com:8080/", "http://example.com:8080/"},
		{"query kept and encoded", "https://example.com/s?q=a b&x='1'", "https://example.com/s?q=a%20b&x='1'"},
		{"angle brackets and quotes encoded", `https://example.com/<a>"b"`, "https://example.com/%3Ca%3E%22b%22"},
		{"ampersand kept", "https://example.com/a&b", "https://example.com/a&b"},
		{"trailing slash kept", "https://example.com/a/", "https://example.com/a/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NormalizeURL(tt.in)
			if err != nil {
				t.Fatalf("NormalizeURL(%q) error: %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("NormalizeURL(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNormalizeURLRefuses(t *testing.T) {
	for _, in := range []string{"", "example.com", "/a/b", "ftp://example.com/", "https://", "https://user:pw@example.com/", "https://example.com:80a/", "https://exa mple.com/",
		"https://example.com:0/", "https://example.com:99999/", "https://example.com:65536/"} {
		if got, err := NormalizeURL(in); err == nil {
			t.Errorf("NormalizeURL(%q) = %q, want an error", in, got)
		} else if ErrorCode(err) != EInvalid {
			t.Errorf("NormalizeURL(%q) code = %q, want invalid", in, ErrorCode(err))
		}
	}
}

// TestURLNormalizerRemembersOnlyTheSameHost: one normalizer given the
// URLs of TestNormalizeURL and TestNormalizeURLRefuses in turn, each
// twice and then with the scheme of the one before, gives what
// NormalizeURL gives: the host it remembers is used only for the same
// host and scheme (https://example.com:443 keeps no port, http:// does).
func TestURLNormalizerRemembersOnlyTheSameHost(t *testing.T) {
	ins := []string{"https://example.com:443/a", "http://example.com:443/a", "https://Example.com/", "https://bücher.example/",
		"https://example.com:08080/a", "https://exa mple.com/", "https://example.com/b", "ftp://example.com/", "https://example.com:65536/"}
	for _, in := range []string{"HTTPS://WWW.Example.COM/About", "https://example.com:80/", "http://example.com:80/"} {
		ins = append(ins, in, in)
	}
	var n URLNormalizer
	for _, in := range ins {
		want, wantErr := NormalizeURL(in)
		got, err := n.Normalize(in)
		if got != want || (err == nil) != (wantErr == nil) {
			t.Errorf("Normalize(%q) = %q, %v; want %q, %v", in, got, err, want, wantErr)
		}
	}
}

func TestWithScheme(t *testing.T) {
	for _, tt := range []struct{ typed, want string }{
		{"aurora-outdoor.example", "https://aurora-outdoor.example"},
		{" www.example.com/de/ ", "https://www.example.com/de/"},
		{"http://example.com", "http://example.com"},
		{"ftp://example.com", "ftp://example.com"},
		{"localhost", "localhost"},       // no domain: refused as typed
		{"/a/b", "/a/b"},                 // a path
		{".example.com", ".example.com"}, // not a host
		{"exa mple.com", "exa mple.com"}, // a space
		{"", ""},
	} {
		if got := WithScheme(tt.typed); got != tt.want {
			t.Errorf("WithScheme(%q) = %q, want %q", tt.typed, got, tt.want)
		}
	}
}

func TestNormalizeBaseURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://example.com", "https://example.com/"},
		{"https://example.com/de", "https://example.com/de/"},
		{"https://Example.com/de/", "https://example.com/de/"},
	}
	for _, tt := range tests {
		got, err := NormalizeBaseURL(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("NormalizeBaseURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := NormalizeBaseURL("https://example.com/?a=1"); err == nil {
		t.Error("NormalizeBaseURL with a query: want an error")
	}
}

func TestScopeProblem(t *testing.T) {
	dir := "https://example.com/de/"
	tests := []struct {
		u    string
		ok   bool
		name string
	}{
		{"https://example.com/de/", true, "directory itself"},
		{"https://example.com/de/a", true, "inside"},
		{"https://example.com/en/a", false, "outside directory"},
		{"https://other.example/de/a", false, "other host"},
		{"http://example.com/de/a", false, "other scheme"},
		{"https://example.com/de/" + string(make([]byte, 0)) + longPath(2100), false, "too long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ScopeProblem(tt.u, dir)
			if (got == "") != tt.ok {
				t.Errorf("ScopeProblem(%.60q) = %q, want ok=%v", tt.u, got, tt.ok)
			}
		})
	}
}

func longPath(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a'
	}
	return string(b)
}

func TestTreeURLs(t *testing.T) {
	slug := func(s string) (string, bool) { return s, false }
	_ = slug
	mk := func(id, parent int64, pos int, title, sl, kind, path string) Page {
		p := NewPage(title)
		p.ID, p.ParentID, p.Position = id, parent, pos
		p.Slug, p.SlugAuto, p.Kind, p.Path = sl, false, kind, path
		return p
	}
	pages := []Page{
		mk(1, 0, 0, "Home", "", KindPage, ""),
		mk(2, 1, 0, "About", "about", KindPage, ""),
		mk(3, 2, 0, "Team", "team", KindPage, ""),
		mk(4, 1, 1, "Products", "produkte", KindGroup, ""),
		mk(5, 4, 0, "Über", "über uns", KindPage, ""),
		mk(6, 1, 2, "Group no slug", "", KindGroup, ""),
		mk(7, 6, 0, "Contact", "contact", KindPage, ""),
		mk(8, 1, 3, "Legacy", "legacy", KindPage, "/old/path"),
		mk(9, 8, 0, "Under legacy", "child", KindPage, ""),
		mk(10, 1, 4, "Abs", "abs", KindPage, "https://EXAMPLE.com/x#y"),
		mk(11, 1, 5, "Percent", "100%", KindPage, ""),
		mk(12, 1, 6, "Later", "later", KindPlaceholder, ""),
		mk(13, 1, 7, "Blog", "blog", KindExternal, "https://blog.example.org/"),
	}
	tests := []struct {
		base  string
		slash bool
		id    int64
		want  string
	}{
		{"https://example.com/", false, 1, "https://example.com/"},
		{"https://example.com/", false, 2, "https://example.com/about"},
		{"https://example.com/", true, 2, "https://example.com/about/"},
		{"https://example.com/", true, 1, "https://example.com/"},
		{"https://example.com/de/", false, 1, "https://example.com/de/"},
		{"https://example.com/de/", false, 3, "https://example.com/de/about/team"},
		{"https://example.com/", false, 4, ""},
		{"https://example.com/", false, 5, "https://example.com/produkte/%C3%BCber%20uns"},
		{"https://example.com/", false, 7, "https://example.com/contact"},
		{"https://example.com/de/", false, 8, "https://example.com/old/path"},
		{"https://example.com/de/", true, 8, "https://example.com/old/path"},
		{"https://example.com/de/", false, 9, "https://example.com/old/path/child"},
		{"https://example.com/", false, 10, "https://example.com/x"},
		{"https://example.com/", false, 11, "https://example.com/100%25"},
		{"https://example.com/", false, 12, ""},
		{"https://example.com/", false, 13, ""},
	}
	for _, tt := range tests {
		tr := NewTree(Project{BaseURL: tt.base, TrailingSlash: tt.slash}, append([]Page(nil), pages...))
		if got := tr.URL(tt.id); got != tt.want {
			t.Errorf("base %s slash=%v: URL(%d %q) = %q, want %q", tt.base, tt.slash, tt.id, tr.Page(tt.id).Title, got, tt.want)
		}
	}
	tr := NewTree(Project{BaseURL: "https://example.com/"}, append([]Page(nil), pages...))
	if got := tr.Location(13); got != "https://blog.example.org/" {
		t.Errorf("Location(external) = %q", got)
	}
}

// TestClaimURLs: a derived slug that another page's URL has gets the next
// free number, a typed slug or path that collides is refused naming the
// other page, and pages below a claiming page are claimed with it.
func TestClaimURLs(t *testing.T) {
	page := func(id, parent int64, pos int, title string, edit func(*Page)) Page {
		p := NewPage(title)
		p.ID, p.ParentID, p.Position = id, parent, pos
		if edit != nil {
			edit(&p)
		}
		return p
	}
	typed := func(slug string) func(*Page) { return func(p *Page) { p.Slug, p.SlugAuto = slug, false } }
	base := []Page{
		page(1, 0, 0, "FAQ", nil),
		page(2, 0, 1, "Team", nil),
		page(3, 2, 0, "Anna", nil),
		page(4, 0, 2, "Legal", func(p *Page) { p.Kind = KindGroup }),
	}
	tests := []struct {
		name    string
		add     []Page
		claim   []int64
		slugs   map[int64]string // slugs after the claim
		field   string           // a refusal: the field at fault
		message string           // and words of its message
	}{
		{"a new FAQ beside FAQ gets faq-2", []Page{page(10, 0, 3, "FAQ", nil)}, []int64{10}, map[int64]string{10: "faq-2", 1: "faq"}, "", ""},
		{"and the next faq-3", []Page{page(10, 0, 3, "FAQ", nil), page(11, 0, 4, "FAQ", nil)}, []int64{10, 11}, map[int64]string{10: "faq-2", 11: "faq-3"}, "", ""},
		{"a typed slug that collides is refused", []Page{page(10, 0, 3, "Help", typed("faq"))}, []int64{10}, nil, "slug", "“FAQ” already has this URL"},
		{"a typed path that collides is refused", []Page{page(10, 0, 3, "Help", func(p *Page) { p.Path = "/team/anna" })}, []int64{10}, nil, "path", "“Anna” already has this URL"},
		{"/faq/ is not /faq", []Page{page(10, 0, 3, "Help", func(p *Page) { p.Path = "/faq/" })}, []int64{10}, map[int64]string{10: "help"}, "", ""},
		{"a group has no URL to collide", []Page{page(10, 0, 3, "FAQ", func(p *Page) { p.Kind = KindGroup })}, []int64{10}, map[int64]string{10: "faq"}, "", ""},
		{"a branch moved beside its twin is numbered, its pages follow", []Page{page(10, 0, 3, "Team", nil), page(11, 10, 0, "Anna", nil)}, []int64{10},
			map[int64]string{10: "team-2", 11: "anna"}, "", ""},
		{"a page below the claim collides too", []Page{page(10, 0, 3, "Staff", nil), page(11, 10, 0, "Boss", func(p *Page) { p.Path = "/team" })}, []int64{10}, nil, "path", "“Team” already has this URL"},
		{"claiming everything keeps the first of twins", []Page{page(10, 0, 3, "FAQ", nil)}, []int64{0}, map[int64]string{1: "faq", 10: "faq-2"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := NewTree(Project{BaseURL: "https://example.com/"}, append(append([]Page(nil), base...), tt.add...))
			renamed, err := tr.ClaimURLs(tt.claim)
			if tt.field != "" {
				if ErrorCode(err) != EInvalid || !strings.Contains(ErrorFields(err)[tt.field], tt.message) {
					t.Fatalf("err = %v, fields %v; want EInvalid on %s saying %q", err, ErrorFields(err), tt.field, tt.message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for id, want := range tt.slugs {
				if got := tr.Page(id).Slug; got != want {
					t.Errorf("page %d slug = %q, want %q", id, got, want)
				}
			}
			seen := map[string]int64{}
			tr.Walk(func(p *Page, _ int) bool {
				if u := tr.URL(p.ID); u != "" && seen[u] != 0 {
					t.Errorf("pages %d and %d share %s", seen[u], p.ID, u)
				} else {
					seen[u] = p.ID
				}
				return true
			})
			for _, p := range renamed {
				if p.Slug == Slugify(p.Title) {
					t.Errorf("page %d reported renamed but keeps %q", p.ID, p.Slug)
				}
			}
		})
	}
}
