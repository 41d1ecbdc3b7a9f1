package site

import (
	"strings"
	"testing"
)

func TestParseLocaleTag(t *testing.T) {
	tests := []struct {
		in, want string // want: the tag, or "!" and a part of the error
	}{
		{"de", "de"},
		{"de-CH", "de-CH"},
		{"EN-gb", "en-GB"},
		{"zh-Hant", "zh-Hant"},
		{"zh-hant-tw", "zh-Hant-TW"},
		{"sr-Latn", "sr-Latn"},
		{"nb", "nb"},
		{"en-UK", "!use en-GB"},
		{"es-LA", "!LA\" is Laos"},
		{"en_US", "!use en-US"},
		{"us-en", "!use en-US"},
		{"DE", "!a region alone: add its language, such as de-DE"},
		{"US", "!a region alone: add its language, such as en-US"},
		{"xx", "!not a two-letter language code"},
		{"eng", "!not a two-letter language code"},
		{"de-XY", "!not a two-letter country code"},
		{"de-DEU", "!not a two-letter country code"},
		{"zh-Abcd", "!not a script code"},
		{"de-CH-1901", "!more than a language, a script and a region"},
		{"", "!needs a language tag"},
		{"iw", "!not a two-letter language code"}, // withdrawn: he
	}
	for _, tt := range tests {
		got, err := ParseLocaleTag(tt.in)
		if want, bad := strings.CutPrefix(tt.want, "!"); bad {
			if err == nil || !strings.Contains(err.Error(), want) || ErrorCode(err) != EInvalid {
				t.Errorf("ParseLocaleTag(%q) = %q, %v; want an error with %q", tt.in, got, err, want)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseLocaleTag(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if n, m := len(languages), len(regions); n != 183 || m != 249 {
		t.Errorf("%d languages, %d regions; ISO 639-1 has 183 in force, ISO 3166-1 249 assigned", n, m)
	}
}

func TestCheckLocales(t *testing.T) {
	const base = "https://acme.example/"
	tests := []struct {
		name    string
		locales []Locale
		err     string
	}{
		{"none: one language", nil, ""},
		{"prefixes and a domain", []Locale{{Tag: "en", Default: true, Prefix: "/en/"}, {Tag: "de", Prefix: "de"}, {Tag: "fr-ch", BaseURL: "https://acme.ch/fr"}}, ""},
		{"the default at the base URL", []Locale{{Tag: "en", Default: true}, {Tag: "de", Prefix: "/de/"}}, ""},
		{"no default", []Locale{{Tag: "en"}, {Tag: "de", Prefix: "/de/"}}, "exactly one default locale; it has 0"},
		{"two defaults", []Locale{{Tag: "en", Default: true}, {Tag: "de", Default: true, Prefix: "/de/"}}, "it has 2"},
		{"twice", []Locale{{Tag: "en", Default: true}, {Tag: "EN", Prefix: "/en/"}}, "Locale en is listed twice"},
		{"same place", []Locale{{Tag: "en", Default: true, Prefix: "/x/"}, {Tag: "de", Prefix: "/x/"}}, "both live at https://acme.example/x/"},
		{"both", []Locale{{Tag: "en", Default: true, Prefix: "/en/", BaseURL: "https://acme.com/"}}, "both a prefix and a base URL"},
		{"bad base", []Locale{{Tag: "en", Default: true, BaseURL: "acme.com"}}, "must be an absolute http or https URL"},
		{"bad prefix", []Locale{{Tag: "en", Default: true, Prefix: "/a b/"}}, "must be a path such as /de/"},
		{"bad tag", []Locale{{Tag: "en-UK", Default: true}}, "use en-GB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckLocales(base, tt.locales)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("CheckLocales = %v, want %q", err, tt.err)
			}
		})
	}
	ls := []Locale{{Tag: "en", Default: true, Prefix: "/en/"}, {Tag: "de", Prefix: "de"}, {Tag: "fr-ch", BaseURL: "https://acme.ch/fr"}}
	if err := CheckLocales(base, ls); err != nil {
		t.Fatal(err)
	}
	if got := []string{ls[1].Prefix, ls[2].Tag, ls[2].BaseURL, ls[1].Base(base), ls[2].Base(base)}; strings.Join(got, " ") != "/de/ fr-CH https://acme.ch/fr/ https://acme.example/de/ https://acme.ch/fr/" {
		t.Errorf("canonical forms: %q", got)
	}
}

// TestLocaleURLs: a page's URL in each locale follows its variants'
// slugs under the locale's prefix or domain; a page not offered in a
// locale has none there; the document keeps it all through a round trip.
func TestLocaleURLs(t *testing.T) {
	const doc = `{"format": "siteplan/1",
  "project": {"name": "Acme", "base_url": "https://www.acme.example/", "x_default": "home",
    "locales": [{"tag": "en", "default": true, "prefix": "/en/"}, {"tag": "de", "prefix": "/de/"}, {"tag": "fr-ch", "base_url": "https://acme.ch/fr/"}]},
  "pages": [{"key": "home", "title": "Home", "slug": "", "children": [
    {"key": "products", "title": "Products", "variants": {"de": {"title": "Produkte", "slug": "produkte", "state": "ready"}},
      "children": [{"key": "pricing", "title": "Pricing", "variants": {
        "de": {"title": "Preise", "slug": "preise", "brief": {"seo_title": "Preise | Acme"}},
        "fr-CH": {"state": "not_offered"}}}]},
    {"key": "swiss", "title": "Swiss stores", "state": "not_offered", "variants": {"fr-CH": {"title": "Magasins", "slug": "magasins"}}}]}]}`
	d, err := ParseDocument(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := d.Tree()
	ids := map[string]int64{}
	tr.Walk(func(p *Page, _ int) bool { ids[p.Title] = p.ID; return true })
	tests := []struct {
		page, tag, want string
	}{
		{"Home", "en", "https://www.acme.example/en/"},
		{"Home", "de", "https://www.acme.example/de/"},
		{"Home", "fr-CH", "https://acme.ch/fr/"},
		{"Pricing", "en", "https://www.acme.example/en/products/pricing"},
		{"Pricing", "de", "https://www.acme.example/de/produkte/preise"},
		{"Pricing", "fr-CH", ""}, // not offered
		{"Products", "fr-CH", "https://acme.ch/fr/products"},
		{"Swiss stores", "en", ""}, // a Swiss page only
		{"Swiss stores", "fr-CH", "https://acme.ch/fr/magasins"},
		{"Pricing", "it", ""}, // no such locale
	}
	for _, tt := range tests {
		if got := tr.LocaleURL(ids[tt.page], tt.tag); got != tt.want {
			t.Errorf("LocaleURL(%s, %s) = %q, want %q", tt.page, tt.tag, got, tt.want)
		}
	}
	if v := tr.Page(ids["Pricing"]).Variant("de"); v.SEOTitle != "Preise | Acme" || v.State != VariantPlanned {
		t.Errorf("Pricing in de: %+v", v)
	}
	if tr.Project.XDefault != ids["Home"] {
		t.Errorf("x-default = %d, want Home's %d", tr.Project.XDefault, ids["Home"])
	}
	// Round trip: the document of the tree reads back the same.
	var buf strings.Builder
	if err := NewDocument(tr, nil).Encode(&buf); err != nil {
		t.Fatal(err)
	}
	again, err := ParseDocument(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	tr2, _ := again.Tree()
	for _, tt := range tests {
		if got := tr2.LocaleURL(ids[tt.page], tt.tag); got != tt.want {
			t.Errorf("after a round trip, LocaleURL(%s, %s) = %q, want %q", tt.page, tt.tag, got, tt.want)
		}
	}
	for _, s := range []string{`"state":"not_offered","variants":{"fr-CH"`, `"x_default":"p1"`, `"fr-CH":{"state":"not_offered"}`} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("the document lacks %s:\n%s", s, buf.String())
		}
	}
}

// TestLocalizedDocumentRefused: a document's locales and variants are
// checked with the page and field named.
func TestLocalizedDocumentRefused(t *testing.T) {
	const head = `{"format": "siteplan/1", "project": {"name": "A", "base_url": "https://a.example/"`
	tests := []struct{ doc, want string }{
		{head + `, "locales": [{"tag": "en-UK", "default": true}]}, "pages": [{"title": "Home"}]}`, "project: locales: Locale \"en-UK\": \"UK\" is not a region code: use en-GB."},
		{head + `}, "pages": [{"title": "Home", "variants": {"de": {"title": "Start"}}}]}`, "pages[0] (\"Home\"): variants: the project lists no locales"},
		{head + `, "locales": [{"tag": "en", "default": true}, {"tag": "de", "prefix": "/de/"}]}, "pages": [{"title": "Home", "variants": {"fr": {}}}]}`, "pages[0] (\"Home\"): variants: \"fr\" is not one of the project's locales"},
		{head + `, "locales": [{"tag": "en", "default": true}, {"tag": "de", "prefix": "/de/"}]}, "pages": [{"title": "Home", "variants": {"de": {"state": "done"}}}]}`, "Variant de: state \"done\" must be one of planned, translating, ready, not_offered"},
		{head + `, "locales": [{"tag": "en", "default": true}, {"tag": "de", "prefix": "/de/"}], "x_default": "nope"}, "pages": [{"title": "Home"}]}`, "project: x_default: no page has key \"nope\""},
	}
	for _, tt := range tests {
		_, err := ParseDocument(strings.NewReader(tt.doc))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseDocument = %v, want %q", err, tt.want)
		}
	}
}

// TestLocaleURLProblem: two pages with one URL in a locale are named.
func TestLocaleURLProblem(t *testing.T) {
	const doc = `{"format": "siteplan/1",
  "project": {"name": "A", "base_url": "https://a.example/", "locales": [{"tag": "en", "default": true}, {"tag": "de", "prefix": "/de/"}]},
  "pages": [{"title": "Home", "slug": "", "children": [
    {"title": "Prices", "variants": {"de": {"title": "Preise", "slug": "preise"}}},
    {"title": "Pricing", "variants": {"de": {"title": "Preisliste", "slug": "preise"}}}]}]}`
	d, err := ParseDocument(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := d.Tree()
	err = tr.LocaleURLProblem()
	if want := "In de, “Preise” and “Preisliste” both have https://a.example/de/preise: give one of them another slug there."; err == nil || err.Error() != want {
		t.Errorf("LocaleURLProblem = %v, want %q", err, want)
	}
}

// TestCompareVariants: a translation changed is a change of its page.
func TestCompareVariants(t *testing.T) {
	d, err := ReadDocumentFile("testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	from, _ := d.Tree()
	to, _ := d.Tree()
	var pricing *Page
	to.Walk(func(p *Page, _ int) bool {
		if p.Title == "Pricing" {
			pricing = p
		}
		return true
	})
	v := pricing.Variants["de"]
	v.Title, v.State = "Preisliste", VariantReady
	pricing.Variants["de"] = v
	c := Compare(from, to, nil, nil)
	if len(c.Changed) != 1 || len(c.Changed[0].Fields) != 1 {
		t.Fatalf("changed: %+v", c.Changed)
	}
	if f := c.Changed[0].Fields[0]; f.Field != "variant de" || f.From != "planned · “Preise” · /preise · SEO title “Preise | Acme”" || f.To != "ready · “Preisliste” · /preise · SEO title “Preise | Acme”" {
		t.Errorf("the change reads %+v", f)
	}
}
