package export

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"siteplan/internal/golden"
	"siteplan/site"
)

// loadTree reads a siteplan/1 document into an in-memory tree.
func loadTree(t testing.TB, path string) *site.Tree {
	t.Helper()
	d, err := site.ReadDocumentFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := d.Tree()
	return tr
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct{ doc, name string }{
		{"../store/testdata/acme.json", "acme"},
		{"testdata/hostile.json", "hostile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := loadTree(t, tc.doc)
			out := &Memory{}
			rep, err := Export(out, TreeSource(tr), Config{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"sitemap.xml", "sitemap.txt", "robots.txt", "footer.html"} {
				golden.Check(t, tc.name+"."+f, out.Files[f].Bytes())
			}
			var warns []string
			for _, w := range rep.Warnings {
				warns = append(warns, w.Title+": "+w.Reason)
			}
			golden.Check(t, tc.name+".warnings", []byte(strings.Join(warns, "\n")+"\n"))
			validate(t, "sitemap", out.Files["sitemap.xml"].Bytes())
			if got, want := parseLocs(t, out.Files["sitemap.xml"].Bytes()), strings.Fields(out.Files["sitemap.txt"].String()); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("sitemap.xml and sitemap.txt list different URLs:\n%v\n%v", got, want)
			}
		})
	}
}

func TestHostileWarnings(t *testing.T) {
	tr := loadTree(t, "testdata/hostile.json")
	_, warns, err := Collect(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Outside":    "outside the sitemap's directory",
		"Other host": "another host",
		"Duplicate":  "same URL as “Space”",
		"Session":    "session-id",
	}
	got := map[string]string{}
	for _, w := range warns {
		got[w.Title] += w.Reason
	}
	for title, reason := range want {
		if !strings.Contains(got[title], reason) {
			t.Errorf("warning for %q = %q, want it to say %q", title, got[title], reason)
		}
	}
}

// parseLocs reads back a urlset with encoding/xml.
func parseLocs(t testing.TB, b []byte) []string {
	t.Helper()
	var set struct {
		XMLName xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
		URLs    []struct {
			Loc string `xml:"loc"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(b, &set); err != nil {
		t.Fatalf("sitemap does not parse: %v", err)
	}
	var locs []string
	for _, u := range set.URLs {
		locs = append(locs, u.Loc)
	}
	return locs
}

// validate checks b against both published variants of the XSD with
// xmllint. Without xmllint or the schemas it skips, except under CI.
func validate(t *testing.T, kind string, b []byte) {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "schemas")
	xmllint, err := exec.LookPath("xmllint")
	if _, serr := os.Stat(dir); err != nil || serr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but xmllint (%v) or %s (%v) is missing", err, dir, serr)
		}
		t.Logf("XSD validation skipped: xmllint or %s missing", dir)
		return
	}
	schemas := map[string][]string{"sitemap": {"sitemap.xsd", "sitemap-2.xsd"}, "index": {"siteindex.xsd", "siteindex-2.xsd"},
		"hreflang": {"sitemap-hreflang.xsd", "sitemap-2-hreflang.xsd"}}[kind]
	f := filepath.Join(t.TempDir(), "doc.xml")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range schemas {
		out, err := exec.Command(xmllint, "--noout", "--nonet", "--schema", filepath.Join(dir, s), f).CombinedOutput()
		if err != nil {
			t.Errorf("%s does not validate against %s: %v\n%s", kind, s, err, out)
		}
	}
}

// flat makes a tree of n pages below a home page, with URLs padded to
// urlLen characters when urlLen > 0.
func flat(n, urlLen int) *site.Tree {
	pr := site.Project{Name: "Flat", BaseURL: "https://flat.example/"}
	pages := make([]site.Page, 0, n)
	for i := 0; i < n; i++ {
		p := site.NewPage("P")
		p.ID, p.Position = int64(i+1), i
		p.Slug, p.SlugAuto = "p"+strconv.Itoa(i), false
		if urlLen > 0 {
			p.Slug += "-" + strings.Repeat("x", urlLen-len(pr.BaseURL)-len(p.Slug)-1)
		}
		p.Lastmod = "2026-01-" + strconv.Itoa(10+i%20)
		pages = append(pages, p)
	}
	return site.NewTree(pr, pages)
}

func TestSplitBoundaries(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		urlLen  int
		maxURLs int
		files   []string // sitemap files besides the index, in order
		index   bool
		lastmod string // of the first file in the index: the newest inside it
	}{
		{"50,000 fit one file", 50_000, 0, 0, []string{"sitemap.xml"}, false, ""},
		{"50,001 split in two", 50_001, 0, 0, []string{"sitemap-1.xml", "sitemap-2.xml"}, true, "2026-01-29"},
		{"max-urls 3 on 10 pages", 10, 0, 3, []string{"sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap-4.xml"}, true, "2026-01-12"},
		{"long URLs split before 50 MB", 26_000, 2048, 0, []string{"sitemap-1.xml", "sitemap-2.xml"}, true, "2026-01-29"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := Select(TreeSource(flat(tt.n, tt.urlLen)), Options{})
			if err != nil {
				t.Fatal(err)
			}
			out := &Memory{}
			res, err := WriteSitemaps(out, sel.Each, SitemapOptions{MaxURLs: tt.maxURLs, Dir: sel.Dir})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			total := 0
			for _, f := range res.Files {
				if f.Name == "sitemap.xml" && tt.index {
					continue
				}
				names = append(names, f.Name)
				b := out.Files[f.Name].Bytes()
				if len(b) > site.MaxSitemapBytes {
					t.Errorf("%s has %d bytes, over %d", f.Name, len(b), site.MaxSitemapBytes)
				}
				locs := parseLocs(t, b)
				if len(locs) > site.MaxSitemapURLs || (tt.maxURLs > 0 && len(locs) > tt.maxURLs) {
					t.Errorf("%s has %d URLs", f.Name, len(locs))
				}
				total += len(locs)
			}
			if strings.Join(names, ",") != strings.Join(tt.files, ",") {
				t.Errorf("files = %v, want %v", names, tt.files)
			}
			if total != tt.n {
				t.Errorf("URLs across files = %d, want %d", total, tt.n)
			}
			if tt.index {
				var idx struct {
					Maps []struct {
						Loc     string `xml:"loc"`
						Lastmod string `xml:"lastmod"`
					} `xml:"sitemap"`
				}
				if err := xml.Unmarshal(out.Files["sitemap.xml"].Bytes(), &idx); err != nil {
					t.Fatal(err)
				}
				if len(idx.Maps) != len(tt.files) || idx.Maps[0].Loc != "https://flat.example/sitemap-1.xml" || idx.Maps[0].Lastmod != tt.lastmod {
					t.Errorf("index = %+v", idx.Maps)
				}
				if tt.n <= 50 {
					validate(t, "index", out.Files["sitemap.xml"].Bytes())
					for _, f := range tt.files {
						validate(t, "sitemap", out.Files[f].Bytes())
					}
				}
			}
		})
	}
}

func TestGzipAndSections(t *testing.T) {
	tr := loadTree(t, "../store/testdata/acme.json")
	out := &Memory{}
	rep, err := Export(out, TreeSource(tr), Config{Gzip: true, BySection: true})
	if err != nil {
		t.Fatal(err)
	}
	var idx struct {
		Maps []struct {
			Loc string `xml:"loc"`
		} `xml:"sitemap"`
	}
	if err := xml.Unmarshal(out.Files["sitemap.xml"].Bytes(), &idx); err != nil {
		t.Fatal(err)
	}
	var locs []string
	all := 0
	for _, m := range idx.Maps {
		locs = append(locs, strings.TrimPrefix(m.Loc, "https://www.acme.example/"))
		name := locs[len(locs)-1]
		if out.Files[name] == nil {
			t.Fatalf("the index names %s, which was not written", name)
		}
		zr, err := gzip.NewReader(bytes.NewReader(out.Files[name].Bytes()))
		if err != nil {
			t.Fatalf("%s is not gzip: %v", name, err)
		}
		b, _ := io.ReadAll(zr)
		all += len(parseLocs(t, b))
		validate(t, "sitemap", b)
	}
	want := "sitemap-home.xml.gz sitemap-about-us.xml.gz sitemap-produkte.xml.gz sitemap-contact.xml.gz sitemap-imprint.xml.gz sitemap-legal.xml.gz"
	if strings.Join(locs, " ") != want {
		t.Errorf("index names %v, want %s", locs, want)
	}
	if all != rep.URLs || all != 8 {
		t.Errorf("URLs in the gzip files = %d, report says %d, want 8", all, rep.URLs)
	}
	validate(t, "index", out.Files["sitemap.xml"].Bytes())
}

func TestNothingToExport(t *testing.T) {
	p := site.NewPage("Only a group")
	p.ID, p.Kind = 1, site.KindGroup
	_, err := Export(&Memory{}, TreeSource(site.NewTree(site.Project{BaseURL: "https://x.example/"}, []site.Page{p})), Config{})
	if site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "Nothing to export") {
		t.Errorf("err = %v, want invalid saying nothing to export", err)
	}
}

// TestDirOutput: into a directory, sitemap.txt and inventory.csv (written
// aside while the plan is read) land with the permissions of the other
// files, and an export that fails leaves none of them, hidden or not.
func TestDirOutput(t *testing.T) {
	dir := t.TempDir()
	if _, err := Export(DirOutput(dir), TreeSource(loadTree(t, "../store/testdata/acme.json")), Config{}); err != nil {
		t.Fatal(err)
	}
	robots, err := os.Stat(filepath.Join(dir, "robots.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sitemap.txt", "inventory.csv"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.Mode() != robots.Mode() || fi.Size() == 0 {
			t.Errorf("%s: %v, mode %v, %d bytes; robots.txt's mode is %v", name, err, fi.Mode(), fi.Size(), robots.Mode())
		}
	}
	names := func(dir string) []string {
		entries, _ := os.ReadDir(dir)
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	if got := names(dir); len(got) != 5 {
		t.Errorf("files: %v, want the five of the export", got)
	}
	empty := t.TempDir()
	p := site.NewPage("Only a group")
	p.ID, p.Kind = 1, site.KindGroup
	if _, err := Export(DirOutput(empty), TreeSource(site.NewTree(site.Project{BaseURL: "https://x.example/"}, []site.Page{p})), Config{}); err == nil {
		t.Fatal("nothing to export, yet no error")
	}
	if got := names(empty); len(got) != 0 {
		t.Errorf("a failed export left %v", got)
	}
}

func TestLeavesOnlyAndSection(t *testing.T) {
	tr := loadTree(t, "../store/testdata/acme.json")
	locs := func(opt Options) string {
		entries, _, err := Collect(tr, opt)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, e := range entries {
			s = append(s, strings.TrimPrefix(e.Loc, "https://www.acme.example/"))
		}
		return strings.Join(s, " ")
	}
	if got, want := locs(Options{LeavesOnly: true}), "about-us/team produkte/pricing produkte/caf%C3%A9 contact imprint legal/privacy"; got != want {
		t.Errorf("leaves only = %s, want %s", got, want)
	}
	if got, want := locs(Options{Section: 2}), "about-us about-us/team"; got != want {
		t.Errorf("section About = %s, want %s", got, want)
	}
	if got, want := locs(Options{Location: "https://www.acme.example/produkte/"}), "produkte/pricing produkte/caf%C3%A9"; got != want {
		t.Errorf("location /produkte/ = %s, want %s", got, want)
	}
}

func TestSchemeTwinWarning(t *testing.T) {
	a, b := site.NewPage("Secure"), site.NewPage("Plain")
	a.ID, b.ID, b.Position = 1, 2, 1
	a.Slug, a.SlugAuto = "x", false
	b.Path = "http://twin.example/x"
	tr := site.NewTree(site.Project{BaseURL: "https://twin.example/"}, []site.Page{a, b})
	_, warns, err := Collect(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warns {
		got = append(got, w.Title+": "+w.Reason)
	}
	if s := strings.Join(got, "\n"); !strings.Contains(s, "Plain: the same path is also in the sitemap under the other scheme, as “Secure”") {
		t.Errorf("warnings = %s", s)
	}
}

func TestEscapedLen(t *testing.T) {
	for _, v := range []string{"", "plain", `a&b'c"d<e>f`, "&&&", "café & <b>"} {
		if got, want := escapedLen(v), len(appendEscaped(nil, v)); got != want {
			t.Errorf("escapedLen(%q) = %d, written %d", v, got, want)
		}
	}
}

// TestHashSet: the set of written URLs' hashes keeps every one of many
// distinct hashes as it grows, and tells them from others.
func TestHashSet(t *testing.T) {
	s := newHashSet()
	for i := uint64(1); i <= 100_000; i++ {
		if !s.add(i * 0x9e3779b97f4a7c15) {
			t.Fatalf("hash %d taken for a repeat", i)
		}
	}
	for i := uint64(1); i <= 100_000; i++ {
		if !s.has(i*0x9e3779b97f4a7c15) || s.add(i*0x9e3779b97f4a7c15) {
			t.Fatalf("hash %d lost", i)
		}
		if s.has(i*0x9e3779b97f4a7c15 + 1) {
			t.Fatalf("hash %d+1 found, never added", i)
		}
	}
	if len(s.slots) > 4*100_000 {
		t.Errorf("%d slots for 100,000 hashes", len(s.slots))
	}
}

// TestSeveralIndexes: past 50,000 sitemap files the index itself splits,
// and robots.txt must name every index.
func TestSeveralIndexes(t *testing.T) {
	sel, err := Select(TreeSource(flat(50_002, 0)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := &Memory{}
	res, err := WriteSitemaps(out, sel.Each, SitemapOptions{MaxURLs: 1, Dir: sel.Dir})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"https://flat.example/sitemap.xml", "https://flat.example/sitemap-index-2.xml"}
	if strings.Join(res.Sitemaps, " ") != strings.Join(want, " ") {
		t.Fatalf("indexes = %v, want %v", res.Sitemaps, want)
	}
	count := func(name string) int { return strings.Count(out.Files[name].String(), "<sitemap>") }
	if a, b := count("sitemap.xml"), count("sitemap-index-2.xml"); a != site.MaxSitemapURLs || b != 2 {
		t.Errorf("index sizes = %d, %d; want %d and 2", a, b, site.MaxSitemapURLs)
	}
	var robots bytes.Buffer
	WriteRobots(&robots, res.Sitemaps)
	if got := strings.Count(robots.String(), "Sitemap: "); got != 2 {
		t.Errorf("robots.txt names %d sitemaps, want 2", got)
	}
}

// TestFooterTooLong: a footer sitemap past FooterMaxLinks links is
// warned of, with what depth 1 would list; one within it is not.
func TestFooterTooLong(t *testing.T) {
	home := &site.DocPage{Title: "Home", Slug: new(string)}
	for s := range 20 {
		sec := &site.DocPage{Title: "Section " + strconv.Itoa(s)}
		for u := range 10 {
			sec.Children = append(sec.Children, &site.DocPage{Title: "Topic " + strconv.Itoa(s) + "." + strconv.Itoa(u)})
		}
		home.Children = append(home.Children, sec)
	}
	d := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "Big", BaseURL: "https://big.example/"}, Pages: []*site.DocPage{home}}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	tr, _ := d.Tree()
	warned := func(depth int) string {
		rep, err := Export(&Memory{}, TreeSource(tr), Config{FooterDepth: depth})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range rep.Warnings {
			if w.Title == "footer.html" {
				return w.Reason
			}
		}
		return ""
	}
	if got := warned(2); got != "it lists 221 links: past 150 a footer is a wall of links, not a way around the site; with footer depth 1 (the sections alone) it lists 21" {
		t.Errorf("depth 2: %q", got)
	}
	if got := warned(1); got != "" {
		t.Errorf("depth 1: %q", got)
	}
}
