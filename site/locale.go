package site

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// A localized plan lists its markets: one Locale each, one of them the
// default. The tree is shared; each page has a Variant per locale (its
// title, slug and brief there, and whether it is offered at all), and a
// page with its variants is one translation group by construction, so
// that every hreflang alternate the launch files name exists in the plan.

// Locale is one market of a plan: a BCP 47 tag and where its URLs live.
type Locale struct {
	Tag     string // canonical case: "de", "de-CH", "zh-Hant", "zh-Hant-TW"
	Default bool   // the default locale: its variant of a page is the page itself
	Prefix  string // a path under the project's base URL ("/de/"), or
	BaseURL string // a domain or subdomain of its own ("https://acme.de/"); neither: the base URL
}

// The states of a page's variant in a locale. NotOffered is a page that
// does not exist in that market, which is not the same as one not yet
// translated.
const (
	VariantPlanned     = "planned"
	VariantTranslating = "translating"
	VariantReady       = "ready"
	VariantNotOffered  = "not_offered"
)

// VariantStates lists the states in their order of progress.
var VariantStates = []string{VariantPlanned, VariantTranslating, VariantReady, VariantNotOffered}

// Variant is a page in one locale: what differs there from the page in
// the default locale. An empty Title or Slug is the default locale's.
type Variant struct {
	Title string
	Slug  string
	Path  string // a path override, as a page's
	State string
	// The brief's fields a translation carries.
	SEOTitle        string
	MetaDescription string
	H1              string
	Keyword         string
}

// Text is the variant in words, for a comparison: "ready · “Preise”
// /preise · SEO title “Preise | Acme”".
func (v Variant) Text() string {
	parts := []string{strings.ReplaceAll(v.State, "_", " ")}
	if v.Title != "" {
		parts = append(parts, "“"+v.Title+"”")
	}
	if v.Slug != "" {
		parts = append(parts, "/"+v.Slug)
	}
	if v.Path != "" {
		parts = append(parts, v.Path)
	}
	for _, f := range []struct{ name, v string }{{"SEO title", v.SEOTitle}, {"description", v.MetaDescription}, {"H1", v.H1}, {"keyword", v.Keyword}} {
		if f.v != "" {
			parts = append(parts, f.name+" “"+f.v+"”")
		}
	}
	return strings.Join(parts, " · ")
}

// Offered reports whether the page exists in the variant's locale.
func (v Variant) Offered() bool { return v.State != VariantNotOffered }

// XDefaultLocale is a plan's x-default when it names no page: each
// page's variant in the default locale.
const XDefaultLocale = "default-locale"

// mistakes are tags people write for a locale that is not what they
// mean, with the fix.
var mistakes = map[string]string{
	"en-uk": `"UK" is not a region code: use en-GB.`,
	"es-la": `"LA" is Laos: for Latin America name each country (es-MX, es-AR, …) or use es.`,
	"en-eu": `"EU" is not a country: name each country (en-IE, en-MT, …) or use en.`,
	"de-eu": `"EU" is not a country: name each country (de-DE, de-AT, …) or use de.`,
	"fr-eu": `"EU" is not a country: name each country (fr-FR, fr-BE, …) or use fr.`,
}

// ParseLocaleTag checks a locale's tag, a language from ISO 639-1 with
// an optional script (ISO 15924) and region (ISO 3166-1 alpha-2), and
// returns it in canonical case ("zh-hant-tw" is "zh-Hant-TW"). A tag
// that is wrong is refused (EInvalid) with the fix: "use en-GB" for
// en-UK, "use en-US" for en_US or us-en, a language for a region alone.
func ParseLocaleTag(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", Errorf(EInvalid, "A locale needs a language tag, such as de or de-CH.")
	}
	if fix, ok := mistakes[strings.ToLower(s)]; ok {
		return "", Errorf(EInvalid, "Locale %q: %s", s, fix)
	}
	if strings.Contains(s, "_") {
		return "", Errorf(EInvalid, "Locale %q: tags join their parts with a hyphen: use %s.", s, canonicalGuess(strings.ReplaceAll(s, "_", "-")))
	}
	parts := strings.Split(s, "-")
	lang := strings.ToLower(parts[0])
	if len(parts) == 1 && isRegion(strings.ToUpper(lang)) && (parts[0] == strings.ToUpper(parts[0]) || !isLanguage(lang)) { // "DE": written as a region
		return "", Errorf(EInvalid, "Locale %q is a region alone: add its language, such as %s-%s.", s, regionLanguage(strings.ToUpper(lang)), strings.ToUpper(lang))
	}
	if len(parts) == 2 && !isLanguage(lang) && isRegion(strings.ToUpper(lang)) && isLanguage(strings.ToLower(parts[1])) {
		return "", Errorf(EInvalid, "Locale %q puts the region first: use %s-%s.", s, strings.ToLower(parts[1]), strings.ToUpper(parts[0]))
	}
	if !isLanguage(lang) {
		return "", Errorf(EInvalid, "Locale %q: %q is not a two-letter language code of ISO 639-1 (such as en, de, nb).", s, parts[0])
	}
	out := []string{lang}
	rest := parts[1:]
	if len(rest) > 0 && len(rest[0]) == 4 {
		script := strings.ToUpper(rest[0][:1]) + strings.ToLower(rest[0][1:])
		if !isScript(script) {
			return "", Errorf(EInvalid, "Locale %q: %q is not a script code of ISO 15924 (such as Latn, Cyrl, Hans, Hant).", s, rest[0])
		}
		out, rest = append(out, script), rest[1:]
	}
	if len(rest) > 0 {
		region := strings.ToUpper(rest[0])
		if len(region) != 2 || !isRegion(region) {
			return "", Errorf(EInvalid, "Locale %q: %q is not a two-letter country code of ISO 3166-1 (such as GB, DE, CH).", s, rest[0])
		}
		out, rest = append(out, region), rest[1:]
	}
	if len(rest) > 0 {
		return "", Errorf(EInvalid, "Locale %q has more than a language, a script and a region: hreflang takes no more.", s)
	}
	return strings.Join(out, "-"), nil
}

// canonicalGuess is s in canonical case if it parses, else s.
func canonicalGuess(s string) string {
	if t, err := ParseLocaleTag(s); err == nil {
		return t
	}
	return s
}

// regionLanguage is a language spoken in a region, for an example.
func regionLanguage(region string) string {
	if l := strings.ToLower(region); isLanguage(l) {
		return l
	}
	if l, ok := map[string]string{"US": "en", "GB": "en", "AT": "de", "CH": "de", "BR": "pt", "MX": "es", "CN": "zh", "JP": "ja", "SE": "sv", "DK": "da", "NO": "nb"}[region]; ok {
		return l
	}
	return "xx"
}

// ISO 639-1's two-letter languages (the 183 in force), ISO 3166-1's
// assigned two-letter countries (249) and the ISO 15924 scripts a web
// site is written in.
const (
	iso639   = "aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu"
	iso3166  = "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
	iso15924 = "Arab Armn Beng Cyrl Deva Ethi Geor Grek Gujr Guru Hang Hani Hans Hant Hebr Hira Jpan Kana Khmr Knda Kore Laoo Latn Mlym Mong Mymr Orya Sinh Taml Telu Thaa Thai Tibt"
)

var (
	languages = wordSet(iso639)
	regions   = wordSet(iso3166)
	scripts   = wordSet(iso15924)
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

func isLanguage(s string) bool { return languages[s] }
func isRegion(s string) bool   { return regions[s] }
func isScript(s string) bool   { return scripts[s] }

// CheckLocales checks a plan's locales and puts their tags in canonical
// case: each tag valid and listed once, one default locale, each placed
// by a prefix under baseURL or a base URL of its own (not both), no two
// in the same place. It returns EInvalid naming the locale and the fix.
// No locales is a one-language plan, and valid.
func CheckLocales(baseURL string, locales []Locale) error {
	if len(locales) == 0 {
		return nil
	}
	seen, places, defaults := map[string]bool{}, map[string]string{}, 0
	for i := range locales {
		l := &locales[i]
		tag, err := ParseLocaleTag(l.Tag)
		if err != nil {
			return err
		}
		l.Tag = tag
		if seen[tag] {
			return Errorf(EInvalid, "Locale %s is listed twice.", tag)
		}
		seen[tag] = true
		if l.Default {
			defaults++
		}
		place, err := l.place(baseURL)
		if err != nil {
			return err
		}
		if other, dup := places[place]; dup {
			return Errorf(EInvalid, "Locales %s and %s both live at %s: give each a prefix or a base URL of its own.", other, tag, place)
		}
		places[place] = tag
	}
	if defaults != 1 {
		return Errorf(EInvalid, "A localized plan needs exactly one default locale; it has %d.", defaults)
	}
	return nil
}

// place checks where a locale's URLs live and returns that base URL.
func (l *Locale) place(baseURL string) (string, error) {
	switch {
	case l.Prefix != "" && l.BaseURL != "":
		return "", Errorf(EInvalid, "Locale %s has both a prefix and a base URL: keep one.", l.Tag)
	case l.BaseURL != "":
		u, err := url.Parse(l.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return "", Errorf(EInvalid, "Locale %s: base URL %q must be an absolute http or https URL, such as https://acme.de/.", l.Tag, l.BaseURL)
		}
		if !strings.HasSuffix(l.BaseURL, "/") {
			l.BaseURL += "/"
		}
		return NormalizeURL(l.BaseURL)
	case l.Prefix != "":
		p := l.Prefix
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		if !strings.HasSuffix(p, "/") {
			p += "/"
		}
		if strings.ContainsAny(p, "?#\\ ") || strings.Contains(p, "//") || p == "/" {
			return "", Errorf(EInvalid, "Locale %s: prefix %q must be a path such as /de/.", l.Tag, l.Prefix)
		}
		l.Prefix = p
		return NormalizeURL(strings.TrimSuffix(baseURL, "/") + p)
	}
	return NormalizeURL(baseURL)
}

// Base is where the locale's URLs start: its base URL, or the project's
// with its prefix.
func (l Locale) Base(projectBase string) string {
	switch {
	case l.BaseURL != "":
		return l.BaseURL
	case l.Prefix != "":
		return strings.TrimSuffix(projectBase, "/") + l.Prefix
	}
	return projectBase
}

// DefaultLocale is the plan's default locale; ok is false for a
// one-language plan.
func DefaultLocale(locales []Locale) (Locale, bool) {
	for _, l := range locales {
		if l.Default {
			return l, true
		}
	}
	return Locale{}, false
}

// CheckVariant checks a page's variant in a locale: a known state, a
// slug without a slash. It fills an empty state with planned.
func CheckVariant(tag string, v *Variant) error {
	if v.State == "" {
		v.State = VariantPlanned
	}
	if !slices.Contains(VariantStates, v.State) {
		return Errorf(EInvalid, "Variant %s: state %q must be one of %s.", tag, v.State, strings.Join(VariantStates, ", "))
	}
	if strings.Contains(v.Slug, "/") {
		return Errorf(EInvalid, "Variant %s: slug %q has a slash.", tag, v.Slug)
	}
	return nil
}

// String is a locale as people read it: "de (/de/)".
func (l Locale) String() string {
	switch {
	case l.BaseURL != "":
		return fmt.Sprintf("%s (%s)", l.Tag, l.BaseURL)
	case l.Prefix != "":
		return fmt.Sprintf("%s (%s)", l.Tag, l.Prefix)
	}
	return l.Tag
}

// InLocale is the page in the locale tagged tag of a plan whose default
// locale is def: its variant's title, slug and path where it has them.
// In another locale than the default, the page's own path override does
// not carry over (it names a URL of the default locale's): its variant
// has one of its own, or its URL follows the slugs.
func (p Page) InLocale(tag, def string) Page {
	v := p.Variants[tag]
	if tag != def {
		p.Path = v.Path
		if v.Slug != "" {
			p.Slug = v.Slug
		}
	}
	if v.Title != "" {
		p.Title = v.Title
	}
	return p
}

// Variant is the page's variant in the locale tagged tag: planned when
// the plan says nothing of it.
func (p *Page) Variant(tag string) Variant {
	v, ok := p.Variants[tag]
	if !ok || v.State == "" {
		v.State = VariantPlanned
	}
	return v
}

// Variant is page p in the locale tagged tag as the plan has it: its
// variant there; in a locale it has no variant in, planned under its own
// words, unless the page is not offered in the default locale either (a
// page of other markets exists only where it lists a variant).
func (t *Tree) Variant(p *Page, tag string) Variant {
	own, ok := p.Variants[tag]
	def, _ := DefaultLocale(t.Project.Locales)
	d, dok := p.Variants[def.Tag]
	return VariantOf(own, ok, d, dok)
}

// VariantOf is a page's variant in a locale as the plan has it, from
// what it holds: the page's variant there (own, if ok), and in the
// default locale (def, if dok). Without a variant of its own there it
// is planned under its own words, unless it is not offered in the
// default locale either: a page of other markets exists only where it
// lists a variant.
func VariantOf(own Variant, ok bool, def Variant, dok bool) Variant {
	if !ok {
		own = Variant{}
		if dok && !def.Offered() {
			own.State = VariantNotOffered
		}
	}
	if own.State == "" {
		own.State = VariantPlanned
	}
	return own
}

// Offered reports whether page p exists in the locale tagged tag.
func (t *Tree) Offered(p *Page, tag string) bool { return t.Variant(p, tag).Offered() }

// Locale is the plan's locale tagged tag.
func (pr *Project) Locale(tag string) (Locale, bool) {
	for _, l := range pr.Locales {
		if l.Tag == tag {
			return l, true
		}
	}
	return Locale{}, false
}

// ShownLocale is the locale a viewer asking for asked reads the plan
// in: the canonical tag of one of the plan's locales other than its
// default, else "" (the default locale's, or a tag it does not have).
func (pr *Project) ShownLocale(asked string) string {
	tag, err := ParseLocaleTag(asked)
	if asked == "" || err != nil {
		return ""
	}
	l, ok := pr.Locale(tag)
	if !ok || l.Default {
		return ""
	}
	return l.Tag
}

// TitleIn is the page's title in the locale tagged tag ("" the
// default's), and whether it is its own there: a variant without a title
// shows the default locale's, untranslated.
func (p *Page) TitleIn(tag string) (title string, translated bool) {
	if tag == "" {
		return p.Title, true
	}
	if v := p.Variants[tag]; v.Title != "" {
		return v.Title, true
	}
	return p.Title, false
}

// LocaleURL is a page's URL in the locale tagged tag, as a sitemap
// prints it: "" for a page without a URL of its own, one not offered in
// that locale, or a tag that is not one of the plan's locales. The
// first call for a locale derives the whole plan's paths there.
func (t *Tree) LocaleURL(id int64, tag string) string {
	p := t.byID[id]
	if p == nil || !t.Offered(p, tag) {
		return ""
	}
	lt := t.localized(tag)
	if lt == nil {
		return ""
	}
	return lt.URL(id)
}

// InLocale is the plan as the locale tagged tag sees it, for its
// launch files: the project at the locale's base URL, each page its
// variant there, a page not offered there out of both sitemaps (kept in
// the tree, for the paths of the pages below it), and no locales: a
// plan of one language, in which each page's one variant is its state
// in this locale. It is nil for a tag
// that is not one of the plan's locales. The tree it returns is its own.
func (t *Tree) InLocale(tag string) *Tree {
	lt := t.localized(tag)
	if lt == nil {
		return nil
	}
	pages := make([]Page, 0, len(lt.byID))
	for _, p := range lt.byID {
		q := *p
		v := t.Variant(t.byID[p.ID], tag)
		if !v.Offered() {
			q.InSitemap, q.InHTMLSitemap = false, false
		}
		q.Variants = map[string]Variant{tag: v} // its state here, as the plan has it (Tree.Variant)
		pages = append(pages, q)
	}
	pr := lt.Project
	pr.Locales, pr.XDefault = nil, 0 // one language: this locale's
	return NewTree(pr, pages)
}

// localized is the tree as the locale tagged tag sees it: the project
// at the locale's base URL, each page its variant there; nil for a tag
// that is not one of the plan's locales.
func (t *Tree) localized(tag string) *Tree {
	if lt, ok := t.inLocale[tag]; ok {
		return lt
	}
	l, ok := t.Project.Locale(tag)
	if !ok {
		return nil
	}
	def, _ := DefaultLocale(t.Project.Locales)
	pr := t.Project
	pr.BaseURL = l.Base(pr.BaseURL)
	pages := make([]Page, 0, len(t.byID))
	for _, p := range t.byID {
		pages = append(pages, p.InLocale(tag, def.Tag))
	}
	lt := NewTree(pr, pages)
	if t.inLocale == nil {
		t.inLocale = map[string]*Tree{}
	}
	t.inLocale[tag] = lt
	return lt
}

// LocaleOf is the locale of the plan an old site's URL u belongs to,
// and how many leading segments of u's path name it (to drop before its
// path is compared with the locale's): the locale whose URLs hold u (its
// domain and prefix; the longest wins), else one u's first path segment
// names (/de/, /fr-ch/, /fr_CH/, or /fr/ for the plan's only French
// locale: old sites mark their languages so), else the default locale
// with none. "" and 0 for a plan in one language.
func (pr *Project) LocaleOf(u string) (tag string, marker int) {
	def, ok := DefaultLocale(pr.Locales)
	if !ok {
		return "", 0
	}
	pu, err := url.Parse(strings.TrimSpace(u))
	if err != nil {
		return def.Tag, 0
	}
	segs := strings.FieldsFunc(pu.Path, func(r rune) bool { return r == '/' })
	best, bestLen := "", -1
	for _, l := range pr.Locales {
		b, err := url.Parse(l.Base(pr.BaseURL))
		if err != nil || !strings.EqualFold(b.Host, pu.Host) || !strings.HasPrefix(strings.ToLower(pu.Path+"/"), strings.ToLower(b.Path)) {
			continue
		}
		if n := len(strings.FieldsFunc(b.Path, func(r rune) bool { return r == '/' })); n > bestLen {
			best, bestLen = l.Tag, n
		}
	}
	if bestLen > 0 || len(segs) == 0 {
		return cmp.Or(best, def.Tag), max(bestLen, 0)
	}
	first := strings.ReplaceAll(strings.ToLower(segs[0]), "_", "-")
	var byLanguage []string
	for _, l := range pr.Locales {
		switch lt := strings.ToLower(l.Tag); {
		case lt == first:
			return l.Tag, 1
		case strings.SplitN(lt, "-", 2)[0] == first:
			byLanguage = append(byLanguage, l.Tag)
		}
	}
	if len(byLanguage) == 1 {
		return byLanguage[0], 1
	}
	return cmp.Or(best, def.Tag), 0
}

// URLIn is a page's URL in the locale tagged tag (LocaleURL), or its URL
// in a plan of one language (tag "").
func (t *Tree) URLIn(id int64, tag string) string {
	if tag == "" {
		return t.URL(id)
	}
	return t.LocaleURL(id, tag)
}

// WalkLocaleURLs visits every URL of the plan: in a localized plan each
// page's URL in each locale it is offered in, with the locale's tag;
// else each page's URL with "".
func (t *Tree) WalkLocaleURLs(fn func(p *Page, tag, url string)) {
	if len(t.Project.Locales) == 0 {
		t.WalkURLs(0, func(p *Page, u string) bool { fn(p, "", u); return true })
		return
	}
	for _, l := range t.Project.Locales {
		lt := t.localized(l.Tag)
		lt.WalkURLs(0, func(p *Page, u string) bool {
			if u != "" && t.Offered(t.byID[p.ID], l.Tag) {
				fn(t.byID[p.ID], l.Tag, u)
			}
			return true
		})
	}
}

// LocaleURLProblem checks that no two pages share a URL in any locale of
// the plan (in the default locale the store's URL rule already holds):
// EInvalid naming the locale, both pages and the URL, nil if none do.
func (t *Tree) LocaleURLProblem() error {
	def, _ := DefaultLocale(t.Project.Locales)
	for _, l := range t.Project.Locales {
		if l.Tag == def.Tag {
			continue
		}
		seen := map[string]*Page{}
		var err error
		t.Walk(func(p *Page, _ int) bool {
			u := t.LocaleURL(p.ID, l.Tag)
			if err != nil || u == "" {
				return err == nil
			}
			if other, dup := seen[u]; dup {
				err = Errorf(EInvalid, "In %s, “%s” and “%s” both have %s: give one of them another slug there.",
					l.Tag, Clip(other.InLocale(l.Tag, def.Tag).Title, 60), Clip(p.InLocale(l.Tag, def.Tag).Title, 60), u)
				return false
			}
			seen[u] = p
			return true
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Hreflang is one alternate of a page: its URL in a locale, or the
// x-default.
type Hreflang struct {
	Tag string // a locale's tag, or XDefault
	URL string
}

// XDefault is the hreflang of the alternate search engines show people
// whose language no locale matches.
const XDefault = "x-default"

// Hreflang lists a page's alternates as every launch file names them:
// its URL in each locale it is offered in, in the plan's order, then
// x-default (the page the plan names, else the page in the default
// locale, else in the first locale that has it); nil for a page with no
// URL in any locale. A page's list is the same whichever locale names
// it, so every alternate links back by construction.
func (t *Tree) Hreflang(id int64) []Hreflang {
	var out []Hreflang
	for _, l := range t.Project.Locales {
		if u := t.LocaleURL(id, l.Tag); u != "" {
			out = append(out, Hreflang{l.Tag, u})
		}
	}
	if len(out) == 0 {
		return nil
	}
	def, _ := DefaultLocale(t.Project.Locales)
	x := t.LocaleURL(id, def.Tag)
	if t.Project.XDefault != 0 {
		x = t.LocaleURL(t.Project.XDefault, def.Tag)
	}
	if x == "" {
		x = out[0].URL
	}
	return append(out, Hreflang{XDefault, x})
}
