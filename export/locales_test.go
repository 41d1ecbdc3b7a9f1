package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"siteplan/site"
)

// hreflangURL is a <url> of a localized sitemap as read back.
type hreflangURL struct {
	Loc   string `xml:"loc"`
	Links []struct {
		Rel      string `xml:"rel,attr"`
		Hreflang string `xml:"hreflang,attr"`
		Href     string `xml:"href,attr"`
	} `xml:"http://www.w3.org/1999/xhtml link"`
}

// readLocalized reads every urlset file of a localized export: the
// <url>s of each locale's files, by locale tag (from the file's name).
func readLocalized(t *testing.T, m *Memory) map[string][]hreflangURL {
	t.Helper()
	out := map[string][]hreflangURL{}
	for _, name := range m.Names {
		if name == "sitemap.xml" {
			continue
		}
		var set struct {
			URLs []hreflangURL `xml:"url"`
		}
		if err := xml.Unmarshal(m.Files[name].Bytes(), &set); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tag := strings.TrimSuffix(strings.TrimPrefix(name, "sitemap-"), ".xml")
		if i := strings.LastIndexByte(tag, '-'); i > 0 && strings.Trim(tag[i+1:], "0123456789") == "" {
			tag = tag[:i] // sitemap-de-2.xml
		}
		out[tag] = append(out[tag], set.URLs...)
	}
	return out
}

// TestLocalizedSitemaps writes the sitemaps of a plan in three locales
// (prefixes and a domain of its own): a file per locale under the index,
// valid against both XSDs with the xhtml:link alternates, each <url>
// naming itself, every locale its page is offered in and x-default, and
// none where it is not.
func TestLocalizedSitemaps(t *testing.T) {
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := d.Tree()
	var m Memory
	res, warns, err := WriteLocalizedSitemaps(&m, tr, SitemapOptions{Dir: "https://www.acme.example/"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(m.Names, " "); got != "sitemap-en.xml sitemap-de.xml sitemap-fr-CH.xml sitemap.xml" {
		t.Errorf("files: %s", got)
	}
	if res.URLs != 3+3+3 || len(res.Sitemaps) != 1 || res.Sitemaps[0] != "https://www.acme.example/sitemap.xml" {
		t.Errorf("result: %+v", res)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Reason, "add “Sitemap: https://www.acme.example/sitemap.xml” to https://acme.ch/robots.txt") {
		t.Errorf("warnings: %+v", warns)
	}
	validate(t, "index", m.Files["sitemap.xml"].Bytes())
	for _, name := range m.Names[:3] {
		validate(t, "hreflang", m.Files[name].Bytes())
	}
	de := m.Files["sitemap-de.xml"].String()
	for _, s := range []string{
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">`,
		`<url><loc>https://www.acme.example/de/produkte/preise</loc><xhtml:link rel="alternate" hreflang="en" href="https://www.acme.example/en/products/pricing"/>` +
			`<xhtml:link rel="alternate" hreflang="de" href="https://www.acme.example/de/produkte/preise"/>` +
			`<xhtml:link rel="alternate" hreflang="x-default" href="https://www.acme.example/en/"/></url>`,
	} {
		if !strings.Contains(de, s) {
			t.Errorf("sitemap-de.xml lacks %s:\n%s", s, de)
		}
	}
	if strings.Contains(de, "magasins") || strings.Contains(m.Files["sitemap-en.xml"].String(), "swiss") {
		t.Errorf("a page not offered in a locale is in its sitemap:\n%s", de)
	}
	checkReciprocal(t, tr, readLocalized(t, &m))
}

// checkReciprocal checks hreflang as checkers do, against the plan: each
// <url> names itself, every other alternate's <url> names the same set
// back, x-default is there, and the set is exactly the locales the page
// is offered in.
func checkReciprocal(t *testing.T, tr *site.Tree, files map[string][]hreflangURL) {
	t.Helper()
	byLoc := map[string]hreflangURL{}
	for _, urls := range files {
		for _, u := range urls {
			byLoc[u.Loc] = u
		}
	}
	set := func(u hreflangURL) string {
		var out []string
		for _, l := range u.Links {
			if l.Rel != "alternate" {
				t.Errorf("%s: rel %q", u.Loc, l.Rel)
			}
			out = append(out, l.Hreflang+"="+l.Href)
		}
		slices.Sort(out)
		return strings.Join(out, " ")
	}
	pageOf := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool {
		for _, l := range tr.Project.Locales {
			if u := tr.LocaleURL(p.ID, l.Tag); u != "" {
				pageOf[u] = p.ID
			}
		}
		return true
	})
	for tag, urls := range files {
		for _, u := range urls {
			own := set(u)
			if !strings.Contains(" "+own+" ", " "+tag+"="+u.Loc+" ") {
				t.Errorf("%s (%s): no self reference in %s", u.Loc, tag, own)
			}
			if !strings.Contains(own, "x-default=") {
				t.Errorf("%s: no x-default", u.Loc)
			}
			var offered []string
			for _, l := range tr.Project.Locales {
				if x := tr.LocaleURL(pageOf[u.Loc], l.Tag); x != "" {
					offered = append(offered, l.Tag)
				}
			}
			for _, l := range u.Links {
				if l.Hreflang == "x-default" {
					continue
				}
				if !slices.Contains(offered, l.Hreflang) {
					t.Errorf("%s: an alternate for %s, where the page is not offered", u.Loc, l.Hreflang)
				}
				back, ok := byLoc[l.Href]
				if !ok {
					t.Errorf("%s: its %s alternate %s is in no sitemap", u.Loc, l.Hreflang, l.Href)
				} else if set(back) != own {
					t.Errorf("%s and its %s alternate disagree:\n%s\n%s", u.Loc, l.Hreflang, own, set(back))
				}
			}
			if len(u.Links) != len(offered)+1 {
				t.Errorf("%s: %d alternates, the page is offered in %v", u.Loc, len(u.Links), offered)
			}
		}
	}
}

// TestLocalizedSitemapsReciprocal: over random plans in random locales,
// some pages not offered in some markets and some with slugs of their
// own, every alternate links back, and files split past the limits.
func TestLocalizedSitemapsReciprocal(t *testing.T) {
	tags := []string{"en", "de", "fr-CH", "nb", "sv", "zh-Hant"}
	states := []string{site.VariantPlanned, site.VariantReady, site.VariantNotOffered}
	for seed := range 30 {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		n := 2 + r.IntN(len(tags)-1)
		locales := make([]site.Locale, n)
		for i := range n {
			locales[i] = site.Locale{Tag: tags[i], Default: i == 0, Prefix: "/" + strings.ToLower(tags[i]) + "/"}
		}
		if r.IntN(3) == 0 {
			locales[0].Prefix = "" // the default at the base URL
		}
		pr := site.Project{Name: "Random", BaseURL: "https://r.example/", Locales: locales}
		if err := pr.Validate(); err != nil {
			t.Fatal(err)
		}
		var pages []site.Page
		for i := range 40 + r.IntN(60) {
			p := site.NewPage(fmt.Sprintf("Page %d", i))
			p.ID = int64(i + 1)
			if i > 0 {
				p.ParentID = int64(1 + r.IntN(i))
			} else {
				p.Slug = ""
			}
			p.Position = i
			p.Variants = map[string]site.Variant{}
			for _, l := range locales {
				v := site.Variant{State: states[r.IntN(len(states))]}
				if r.IntN(2) == 0 && l.Tag != locales[0].Tag {
					v.Slug = fmt.Sprintf("%s-%d", strings.ToLower(l.Tag), i)
				}
				p.Variants[l.Tag] = v
			}
			pages = append(pages, p)
		}
		tr := site.NewTree(pr, pages)
		var m Memory
		if _, _, err := WriteLocalizedSitemaps(&m, tr, SitemapOptions{Dir: "https://r.example/", MaxURLs: 7}); err != nil {
			if site.ErrorCode(err) == site.EInvalid && strings.Contains(err.Error(), "Nothing to export") {
				continue
			}
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkReciprocal(t, tr, readLocalized(t, &m))
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
}

// TestExportLocalized: the export of a localized plan writes the index,
// a sitemap per locale, robots.txt naming the index, and each locale's
// sitemap.txt, footer and inventory in its own words and URLs.
func TestExportLocalized(t *testing.T) {
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := d.Tree()
	var m Memory
	rep, err := Export(&m, TreeSource(tr), Config{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range rep.Files {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	if got := strings.Join(names, " "); got != "footer-de.html footer-en.html footer-fr-CH.html inventory.csv robots.txt sitemap-de.txt sitemap-de.xml sitemap-en.txt sitemap-en.xml sitemap-fr-CH.txt sitemap-fr-CH.xml sitemap.xml" {
		t.Errorf("files: %s", got)
	}
	if got := m.Files["robots.txt"].String(); !strings.HasSuffix(got, "\nSitemap: https://www.acme.example/sitemap.xml\n") {
		t.Errorf("robots.txt: %q", got)
	}
	if got := m.Files["sitemap-de.txt"].String(); got != "https://www.acme.example/de/\nhttps://www.acme.example/de/produkte\nhttps://www.acme.example/de/produkte/preise\n" {
		t.Errorf("sitemap-de.txt: %q", got)
	}
	if f := m.Files["footer-de.html"].String(); !strings.Contains(f, "Preise") || !strings.Contains(f, `href="https://www.acme.example/de/produkte/preise"`) || strings.Contains(f, "Swiss") {
		t.Errorf("footer-de.html:\n%s", f)
	}
	if f := m.Files["footer-fr-CH.html"].String(); !strings.Contains(f, "Magasins") || strings.Contains(f, "Pricing") {
		t.Errorf("footer-fr-CH.html:\n%s", f)
	}
	// One inventory, a row per page and locale: its state there, its URL
	// there if it is offered.
	rows, err := csv.NewReader(bytes.NewReader(m.Files["inventory.csv"].Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, strings.Join(r[:5], " "))
	}
	want := []string{"locale state url title type",
		"en planned https://www.acme.example/en/ Home ", "en planned https://www.acme.example/en/products Products ",
		"en planned https://www.acme.example/en/products/pricing Pricing ", "en not_offered  Swiss stores ",
		"de planned https://www.acme.example/de/ Home ", "de ready https://www.acme.example/de/produkte Produkte ",
		"de planned https://www.acme.example/de/produkte/preise Preise ", "de not_offered  Swiss stores ",
		"fr-CH planned https://acme.ch/fr/ Home ", "fr-CH planned https://acme.ch/fr/products Products ",
		"fr-CH not_offered  Pricing ", "fr-CH translating https://acme.ch/fr/magasins Magasins "}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("inventory.csv:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Files[len(rep.Files)-2].Name != "inventory.csv" || rep.Files[len(rep.Files)-2].Size != int64(m.Files["inventory.csv"].Len()) {
		t.Errorf("the report's inventory: %+v", rep.Files[len(rep.Files)-2])
	}
	if _, err := Export(&Memory{}, TreeSource(tr), Config{BySection: true}); err == nil || !strings.Contains(err.Error(), "exported whole") {
		t.Errorf("a split by section: %v", err)
	}
}

// TestRoutesLocalized: the routes handoff of a localized plan has each
// page in each locale it is offered in, in that locale's words, under
// its parent's route there, with its alternates as Next.js takes them.
func TestRoutesLocalized(t *testing.T) {
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := d.Tree()
	var b strings.Builder
	if err := WriteRoutes(&b, tr); err != nil {
		t.Fatal(err)
	}
	var r Routes
	if err := json.Unmarshal([]byte(b.String()), &r); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Locales, " "); got != "en de fr-CH" {
		t.Errorf("locales: %s", got)
	}
	byKey := map[string]Route{}
	var keys []string
	for _, rt := range r.Routes {
		byKey[rt.Key] = rt
		keys = append(keys, rt.Key)
	}
	if got := strings.Join(keys, " "); got != "p1-en p2-en p3-en p1-de p2-de p3-de p1-fr-CH p2-fr-CH p4-fr-CH" {
		t.Errorf("routes: %s", got)
	}
	de := byKey["p3-de"]
	if de.Title != "Preise" || de.Path != "/de/produkte/preise" || de.Parent != "p2-de" || de.Locale != "de" || de.Group != "p3" ||
		de.Brief == nil || de.Brief.SEOTitle != "Preise | Acme" || de.Alternates == nil || de.Alternates.Canonical != "https://www.acme.example/de/produkte/preise" {
		t.Errorf("p3-de: %+v", de)
	}
	if got := de.Alternates.Languages; len(got) != 3 || got["en"] != "https://www.acme.example/en/products/pricing" || got["x-default"] != "https://www.acme.example/en/" {
		t.Errorf("p3-de's languages: %v", got)
	}
	if ch := byKey["p4-fr-CH"]; ch.Title != "Magasins" || ch.Parent != "p1-fr-CH" || ch.State != site.VariantTranslating || ch.URL != "https://acme.ch/fr/magasins" {
		t.Errorf("p4-fr-CH: %+v", ch)
	}
}

// TestWXRLocalized: the WordPress handoff of a localized plan has each
// page in each locale it is offered in, under its parent there, marked
// with the fields WPML's and Polylang's importers read: its language,
// its translation group, the language it was translated from.
func TestWXRLocalized(t *testing.T) {
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, links := d.Tree()
	var b strings.Builder
	if _, err := WriteWXR(&b, tr, WXROptions{Links: links}); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, []byte(b.String()))
	var doc struct {
		Items []struct {
			Title      string `xml:"title"`
			ID         int64  `xml:"http://wordpress.org/export/1.2/ post_id"`
			Name       string `xml:"http://wordpress.org/export/1.2/ post_name"`
			Parent     int64  `xml:"http://wordpress.org/export/1.2/ post_parent"`
			Type       string `xml:"http://wordpress.org/export/1.2/ post_type"`
			Categories []struct {
				Domain   string `xml:"domain,attr"`
				Nicename string `xml:"nicename,attr"`
			} `xml:"category"`
			Meta []struct {
				Key   string `xml:"http://wordpress.org/export/1.2/ meta_key"`
				Value string `xml:"http://wordpress.org/export/1.2/ meta_value"`
			} `xml:"http://wordpress.org/export/1.2/ postmeta"`
		} `xml:"channel>item"`
	}
	if err := xml.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatal(err)
	}
	type page struct {
		title, name, lang, group, source, pll string
		parent                                string // the parent item's title
	}
	titles := map[int64]string{}
	for _, it := range doc.Items {
		titles[it.ID] = it.Title
	}
	var got []string
	for _, it := range doc.Items {
		if it.Type != "page" {
			continue
		}
		p := page{title: it.Title, name: it.Name, parent: titles[it.Parent]}
		for _, m := range it.Meta {
			switch m.Key {
			case "_wpml_import_language_code":
				p.lang = m.Value
			case "_wpml_import_translation_group":
				p.group = m.Value
			case "_wpml_import_source_language_code":
				p.source = m.Value
			}
		}
		for _, c := range it.Categories {
			if c.Domain == "language" {
				p.pll = c.Nicename
			}
			if c.Domain == "post_translations" {
				p.pll += " " + c.Nicename
			}
		}
		got = append(got, fmt.Sprintf("%s /%s under %q: %s group %s from %q (%s)", p.title, p.name, p.parent, p.lang, p.group, p.source, p.pll))
	}
	want := []string{
		`Home / under "": en group 1 from "" (en pll_1)`,
		`Products /products under "": en group 2 from "" (en pll_2)`,
		`Pricing /pricing under "Products": en group 3 from "" (en pll_3)`,
		`Home / under "": de group 1 from "en" (de pll_1)`,
		`Produkte /produkte under "": de group 2 from "en" (de pll_2)`,
		`Preise /preise under "Produkte": de group 3 from "en" (de pll_3)`,
		`Home / under "": fr-ch group 1 from "en" (fr-ch pll_1)`,
		`Products /products under "": fr-ch group 2 from "en" (fr-ch pll_2)`,
		`Magasins /magasins under "": fr-ch group 4 from "en" (fr-ch pll_4)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pages:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// wellFormed checks XML with xmllint; without it, it skips, except
// under CI.
func wellFormed(t *testing.T, b []byte) {
	t.Helper()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but xmllint is missing")
		}
		t.Skip("xmllint not installed")
	}
	f := filepath.Join(t.TempDir(), "plan.xml")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(xmllint, "--noout", "--nonet", f).CombinedOutput(); err != nil {
		t.Errorf("xmllint: %v\n%s", err, out)
	}
}

// sitemapJS reads sitemaps with sitemap.js (the npm package "sitemap"),
// a parser that fails on any element or attribute it does not know:
// each file's <url>s with their hreflang alternates.
const sitemapJS = `import { createReadStream } from "node:fs";
import { XMLToSitemapItemStream, ErrorLevel } from "sitemap";
const out = {};
for (const f of process.argv.slice(1)) {
  const items = [];
  await new Promise((done, fail) => createReadStream(f).pipe(new XMLToSitemapItemStream({ level: ErrorLevel.THROW }))
    .on("data", (i) => items.push({ loc: i.url, links: i.links.map((l) => ({ hreflang: l.lang, href: l.url })) }))
    .on("end", done).on("error", fail));
  out[f] = items;
}
console.log(JSON.stringify(out));`

// TestLocalizedSitemapsSitemapJS reads the localized sitemaps back with
// sitemap.js's parser: it reads every file without a complaint, and
// finds in each <url> the alternates our own reading finds, reciprocal.
func TestLocalizedSitemapsSitemapJS(t *testing.T) {
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := d.Tree()
	var m Memory
	if _, _, err := WriteLocalizedSitemaps(&m, tr, SitemapOptions{Dir: "https://www.acme.example/", MaxURLs: 2}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	for _, name := range m.Names {
		if name == "sitemap.xml" {
			continue // the index
		}
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, m.Files[name].Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var read map[string][]struct {
		Loc   string `json:"loc"`
		Links []struct {
			Hreflang string `json:"hreflang"`
			Href     string `json:"href"`
		} `json:"links"`
	}
	node(t, sitemapJS, &read, files...)
	ours := readLocalized(t, &m)
	theirs := map[string][]hreflangURL{}
	for _, name := range m.Names[:len(m.Names)-1] {
		tag := strings.TrimSuffix(strings.TrimPrefix(name, "sitemap-"), ".xml")
		if i := strings.LastIndexByte(tag, '-'); i > 0 && strings.Trim(tag[i+1:], "0123456789") == "" {
			tag = tag[:i]
		}
		for _, u := range read[filepath.Join(dir, name)] {
			h := hreflangURL{Loc: u.Loc}
			for _, l := range u.Links {
				h.Links = append(h.Links, struct {
					Rel      string `xml:"rel,attr"`
					Hreflang string `xml:"hreflang,attr"`
					Href     string `xml:"href,attr"`
				}{"alternate", l.Hreflang, l.Href})
			}
			theirs[tag] = append(theirs[tag], h)
		}
	}
	if got, want := fmt.Sprint(theirs), fmt.Sprint(ours); got != want {
		t.Errorf("sitemap.js reads\n%s\nwe read\n%s", got, want)
	}
	if len(theirs["de"]) != 3 || len(theirs["de"][0].Links) == 0 {
		t.Errorf("sitemap.js read of de: %+v", theirs["de"])
	}
	checkReciprocal(t, tr, theirs)
}
