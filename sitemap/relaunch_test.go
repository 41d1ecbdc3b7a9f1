package sitemap

import (
	"encoding/csv"
	"net/url"
	"os"
	"sort"
	"testing"

	"siteplan/site"
)

// relaunchSample reads the shared relaunch sample: the old site's crawl,
// the new plan and the answer key made by hand.
func relaunchSample(t testing.TB) (*site.Tree, []site.OldPage, map[string][2]string) {
	t.Helper()
	dir := "../testdata/relaunch-sample/" // a copy of ../shared/relaunch-sample
	doc, err := site.ReadDocumentFile(dir + "new-plan.json")
	if err != nil {
		t.Skip("no relaunch sample:", err)
	}
	tr, _ := doc.Tree()
	rows := sampleCSV(t, dir+"old-crawl.csv")
	var old []site.OldPage
	for _, r := range rows[1:] {
		old = append(old, site.OldPage{URL: r[0], Title: r[3], H1: r[4]})
	}
	truth := map[string][2]string{}
	for _, r := range sampleCSV(t, dir+"truth.csv")[1:] {
		truth[r[0]] = [2]string{r[1], r[2]}
	}
	return tr, old, truth
}

func sampleCSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestMatchRelaunchSample measures the matcher against the sample's
// answer key: of the old URLs that have a target, the share that get it
// accepted; of the accepted, the share that are right; and no retired
// URL sent to a page.
func TestMatchRelaunchSample(t *testing.T) {
	tr, old, truth := relaunchSample(t)
	got := Match(tr, old)
	targeted, right, accepted, retiredSent := 0, 0, 0, 0
	missed := map[string]int{}
	wrong := map[string][]string{}
	for _, m := range got {
		want := truth[m.From]
		if m.Accepted && m.To != "" {
			accepted++
		}
		if want[0] == "410" {
			if m.Accepted && m.To != "" {
				retiredSent++
				wrong[want[1]] = append(wrong[want[1]], m.From+" -> "+m.To+" ("+m.Reason+")")
			}
			continue
		}
		targeted++
		switch {
		case m.Accepted && m.To == want[0]:
			right++
		case m.Accepted:
			wrong[want[1]] = append(wrong[want[1]], m.From+" -> "+m.To+", want "+want[0]+" ("+m.Reason+")")
		default:
			missed[want[1]]++
		}
	}
	recall, precision := float64(right)/float64(targeted), float64(right)/float64(max(accepted, 1))
	t.Logf("%d old URLs: %d of %d with a target accepted right (%.1f%%), %d accepted, %.2f%% right; missed by kind %v",
		len(old), right, targeted, 100*recall, accepted, 100*precision, missed)
	kinds := make([]string, 0, len(wrong))
	for k := range wrong {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		for i, w := range wrong[k] {
			if i < 3 {
				t.Logf("wrong (%s, %d): %s", k, len(wrong[k]), w)
			}
		}
	}
	if recall < 0.95 || precision < 0.99 || retiredSent > 0 {
		t.Errorf("recall %.3f (want ≥ 0.95), precision %.4f (want ≥ 0.99), %d retired URLs sent to a page (want 0)", recall, precision, retiredSent)
	}
}

// TestMatchRules: the rules one by one on a small plan, each mapping with
// its reason; what no rule places waits for a person, never sent home.
func TestMatchRules(t *testing.T) {
	doc := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "New", BaseURL: "https://new.example/"}}
	home := &site.DocPage{Title: "Home", Slug: new(string)}
	careers := &site.DocPage{Title: "Careers", Children: []*site.DocPage{{Title: "Senior web developer", Slug: ptr("senior-web-developer-1009")}, {Title: "Junior buyer", Slug: ptr("junior-buyer-1003")}}}
	products := &site.DocPage{Title: "Products", Children: []*site.DocPage{{Title: "Care Therapy 600"}, {Title: "Tents"}}}
	home.Children = []*site.DocPage{careers, products, {Title: "Contact"}}
	doc.Pages = []*site.DocPage{home}
	tr, _ := doc.Tree()
	b := "https://old.example/"
	old := []site.OldPage{
		{URL: "https://new.example/contact", Title: "Contact | Old"},                          // keep
		{URL: b + "index.php", Title: "Welcome | Old"},                                        // same path: home
		{URL: b + "shop/care-therapy-600.html", Title: "Care Therapy 600 | Old"},              // same slug
		{URL: b + "Shop/Care-Therapy-600.html?utm_source=x", Title: "Care Therapy 600 | Old"}, // variant
		{URL: b + "camping/tents-for-every-season.html", Title: "Tents | Old"},                // title
		{URL: b + "jobs/view.php?id=1008", Title: "Senior web developer | Old"},               // a record sharing its title: not guessed
		{URL: b + "jobs/view.php?id=1009", Title: "Senior web developer | Old"},               // not guessed either
		{URL: b + "jobs/view.php?id=1003", Title: "Junior buyer | Old"},                       // title
		{URL: b + "totally-unknown.html", Title: "Something else | Old"},                      // review
	}
	got := Match(tr, old)
	want := []struct {
		disposition, to string
		accepted        bool
	}{
		{site.DispositionKeep, "https://new.example/contact", true},
		{site.DispositionRedirect, "https://new.example/", true},
		{site.DispositionRedirect, "https://new.example/products/care-therapy-600", true},
		{site.DispositionRedirect, "https://new.example/products/care-therapy-600", true},
		{site.DispositionRedirect, "https://new.example/products/tents", true},
		{site.DispositionReview, "", false},
		{site.DispositionReview, "", false},
		{site.DispositionRedirect, "https://new.example/careers/junior-buyer-1003", true},
		{site.DispositionReview, "", false},
	}
	for i, w := range want {
		g := got[i]
		if g.Disposition != w.disposition || g.To != w.to || g.Accepted != w.accepted || g.Reason == "" {
			t.Errorf("%s: %s %q accepted %t (%s); want %s %q accepted %t", old[i].URL, g.Disposition, g.To, g.Accepted, g.Reason, w.disposition, w.to, w.accepted)
		}
	}
}

// BenchmarkMatchRelaunch matches the sample's 3,454 old URLs against its
// 2,689-page plan (target: 12,000 URLs in 20 s and 400 MB), beside a
// yardstick measured in the same run: reading the crawl (encoding/csv)
// and parsing each of its URLs.
func BenchmarkMatchRelaunch(b *testing.B) {
	tr, old, _ := relaunchSample(b)
	b.Run("match", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Match(tr, old)
		}
		b.ReportMetric(float64(len(old)), "urls")
	})
	b.Run("read-crawl", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, r := range sampleCSV(b, "../testdata/relaunch-sample/old-crawl.csv")[1:] {
				url.Parse(r[0])
			}
		}
	})
}

// TestMatchSaysWhichPagesMatch: an old URL that two pages match equally
// waits for a person, and its reason names them; one that nothing
// matches says so.
func TestMatchSaysWhichPagesMatch(t *testing.T) {
	doc := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "New", BaseURL: "https://new.example/"}}
	doc.Pages = []*site.DocPage{
		{Title: "About", Children: []*site.DocPage{{Title: "Team"}}},
		{Title: "Company", Children: []*site.DocPage{{Title: "Team"}}},
	}
	tr, _ := doc.Tree()
	got := Match(tr, []site.OldPage{{URL: "https://old.example/people/team.html"}, {URL: "https://old.example/xyz.html"}})
	if g := got[0]; g.Disposition != site.DispositionReview || g.Reason != "2 pages match its slug “team”: /about/team, /company/team; choose one" {
		t.Errorf("two pages match: %s %q", g.Disposition, g.Reason)
	}
	if g := got[1]; g.Reason != "no page of the plan matches its path, slug, query or title" {
		t.Errorf("none matches: %q", g.Reason)
	}
}

// TestMatchLocalized: in a localized plan an old URL is matched among the
// pages of its locale (by its domain and prefix, or a language folder of
// the old site), by that locale's slugs and titles, to that locale's URL;
// never to a page the locale does not offer.
func TestMatchLocalized(t *testing.T) {
	doc, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := doc.Tree()
	b := "https://www.acme.example/"
	old := []site.OldPage{
		{URL: b + "de/produkte/preise.html"},                // de, same path
		{URL: b + "de/preisliste", Title: "Preise | Acme"},  // de, its title
		{URL: b + "products/pricing"},                       // no language folder: the default locale's
		{URL: b + "en/products/"},                           // the default locale's prefix
		{URL: "https://acme.ch/fr/magasins"},                // fr-CH's domain: kept
		{URL: b + "fr/pricing"},                             // a French folder: fr-CH, which has no Pricing
		{URL: b + "de/swiss-stores", Title: "Swiss stores"}, // de has no Swiss stores
	}
	got := Match(tr, old)
	want := []struct{ disposition, to string }{
		{site.DispositionRedirect, b + "de/produkte/preise"},
		{site.DispositionRedirect, b + "de/produkte/preise"},
		{site.DispositionRedirect, b + "en/products/pricing"},
		{site.DispositionRedirect, b + "en/products"},
		{site.DispositionKeep, "https://acme.ch/fr/magasins"},
		{site.DispositionReview, ""},
		{site.DispositionReview, ""},
	}
	for i, w := range want {
		if g := got[i]; g.Disposition != w.disposition || g.To != w.to {
			t.Errorf("%s: %s %q (%s); want %s %q", old[i].URL, g.Disposition, g.To, g.Reason, w.disposition, w.to)
		}
	}
	// The map follows the plan: a redirect goes to its page in the old
	// URL's locale, and waits for a person where the page is not offered.
	ids := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { ids[p.Title] = p.ID; return true })
	ms := tr.Mappings([]site.OldURL{
		{OldPage: site.OldPage{URL: b + "de/alt"}, Mapping: site.Mapping{Disposition: site.DispositionRedirect, PageID: ids["Pricing"], Status: 301, Accepted: true}},
		{OldPage: site.OldPage{URL: b + "de/filialen"}, Mapping: site.Mapping{Disposition: site.DispositionRedirect, PageID: ids["Swiss stores"], Status: 301, Accepted: true}},
	})
	if ms[0].To != b+"de/produkte/preise" || !ms[0].Accepted {
		t.Errorf("a de old URL to Pricing: %+v", ms[0])
	}
	if ms[1].Disposition != site.DispositionReview || ms[1].Reason != "its page is not offered in de" {
		t.Errorf("a de old URL to Swiss stores: %+v", ms[1])
	}
}
