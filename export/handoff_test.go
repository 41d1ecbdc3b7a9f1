package export

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"siteplan/site"
)

// acmeWithBriefs is the store's sample plan, its Pricing page briefed.
func acmeWithBriefs(t *testing.T) *site.Tree {
	t.Helper()
	doc, err := site.ReadDocumentFile("../store/testdata/acme.json")
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := doc.Tree()
	pages := tr.Pages()
	for i := range pages {
		if pages[i].Title == "Pricing" {
			pages[i].Brief = site.Brief{SEOTitle: "Pricing | Acme", MetaDescription: "Plans & prices <2026>", H1: "Plans for every team", Keyword: "acme pricing",
				Blocks: []site.Block{{Kind: "hero", Note: "Photo"}, {Kind: "table", Note: "Three tiers & a <b>"}, {Kind: "faq"}}, WordTarget: 400}
		}
	}
	return site.NewTree(tr.Project, pages)
}

// TestWXR reads the WordPress export back with an XML parser: every
// page a draft page with the hierarchy WordPress makes the plan's
// addresses of, order and slugs, its blocks as Gutenberg block
// comments and its SEO fields in Yoast's keys; the main, utility and
// footer navigation as menus, external pages custom links and groups
// headings with their pages below.
func TestWXR(t *testing.T) {
	tr := acmeWithBriefs(t)
	acme, _ := site.ReadDocumentFile("../store/testdata/acme.json")
	_, links := acme.Tree()
	var buf bytes.Buffer
	if _, err := WriteWXR(&buf, tr, WXROptions{Links: links, At: time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	const wp = "http://wordpress.org/export/1.2/"
	var doc struct {
		Channel struct {
			Version string `xml:"http://wordpress.org/export/1.2/ wxr_version"`
			Terms   []struct {
				Taxonomy string `xml:"http://wordpress.org/export/1.2/ term_taxonomy"`
				Slug     string `xml:"http://wordpress.org/export/1.2/ term_slug"`
			} `xml:"http://wordpress.org/export/1.2/ term"`
			Items []struct {
				Title    string `xml:"title"`
				Content  string `xml:"http://purl.org/rss/1.0/modules/content/ encoded"`
				ID       int64  `xml:"http://wordpress.org/export/1.2/ post_id"`
				Name     string `xml:"http://wordpress.org/export/1.2/ post_name"`
				Status   string `xml:"http://wordpress.org/export/1.2/ status"`
				Parent   int64  `xml:"http://wordpress.org/export/1.2/ post_parent"`
				Order    int    `xml:"http://wordpress.org/export/1.2/ menu_order"`
				Type     string `xml:"http://wordpress.org/export/1.2/ post_type"`
				Category struct {
					Nicename string `xml:"nicename,attr"`
				} `xml:"category"`
				Meta []struct {
					Key   string `xml:"http://wordpress.org/export/1.2/ meta_key"`
					Value string `xml:"http://wordpress.org/export/1.2/ meta_value"`
				} `xml:"http://wordpress.org/export/1.2/ postmeta"`
			} `xml:"item"`
		} `xml:"channel"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	_ = wp
	if doc.Channel.Version != "1.2" || len(doc.Channel.Terms) != 3 || doc.Channel.Terms[1].Slug != "utility-navigation" {
		t.Errorf("channel: %+v", doc.Channel.Terms)
	}
	title := map[int64]string{0: "-"}
	var pages, menus []string
	meta := map[string]map[string]string{}
	for _, it := range doc.Channel.Items {
		title[it.ID] = it.Title
		m := map[string]string{}
		for _, kv := range it.Meta {
			m[kv.Key] = kv.Value
		}
		switch it.Type {
		case "page":
			pages = append(pages, fmt.Sprintf("%s(%s) under %s #%d %s", it.Title, it.Name, title[it.Parent], it.Order, it.Status))
			meta[it.Title] = m
			if it.Title == "Home" && !strings.Contains(it.Content, `<li><a href="https://www.acme.example/produkte/pricing">hero CTA</a></li>`) {
				t.Errorf("Home's cross-link is not in its content:\n%s", it.Content)
			}
			if it.Title == "Pricing" {
				for _, w := range []string{`<li><a href="https://www.acme.example/contact">Contact</a></li>`, `<!-- wp:heading {"level":1} -->`, `<h1 class="wp-block-heading">Plans for every team</h1>`,
					`<!-- wp:group {"layout":{"type":"constrained"},"metadata":{"name":"Table"}} -->`, `<p>Three tiers &amp; a &lt;b&gt;</p>`, `<p>FAQ</p>`} {
					if !strings.Contains(it.Content, w) {
						t.Errorf("Pricing's content lacks %s:\n%s", w, it.Content)
					}
				}
			}
		case "nav_menu_item":
			parent := title[mustInt(m["_menu_item_menu_item_parent"])]
			what := m["_menu_item_type"]
			if what == "custom" {
				what += " " + m["_menu_item_url"]
			} else {
				what += " " + title[mustInt(m["_menu_item_object_id"])]
			}
			menus = append(menus, fmt.Sprintf("%s: %s under %s, %s", it.Category.Nicename, it.Title, parent, what))
		}
	}
	// The home page's children at the top (WordPress would put a child of
	// the front page at /home/child/), the group a page of its own (its
	// slug is its pages' first segment), a non-ASCII slug as WordPress
	// keeps it.
	wantPages := []string{
		"Home() under - #0 draft", "About us(about-us) under - #1 draft", "Team(team) under About us #0 draft",
		"Products(produkte) under - #2 draft", "Pricing(pricing) under Products #0 draft", `Café & "Bar" <b>(caf%c3%a9) under Products #1 draft`,
		"Later(later) under - #3 draft", "Contact(contact) under - #4 draft", "Login(login) under - #5 draft", "Imprint(imprint) under - #6 draft",
		"Privacy(privacy) under - #7 draft",
	}
	if strings.Join(pages, "\n") != strings.Join(wantPages, "\n") {
		t.Errorf("pages\n got:\n%s\nwant:\n%s", strings.Join(pages, "\n"), strings.Join(wantPages, "\n"))
	}
	wantMenus := []string{
		"main-navigation: About us under -, post_type About us", "main-navigation: Team under About us, post_type Team",
		"main-navigation: Products under -, custom #", "main-navigation: Pricing under Products, post_type Pricing",
		`main-navigation: Café & "Bar" <b> under Products, post_type Café & "Bar" <b>`, "main-navigation: Later under -, post_type Later",
		"main-navigation: Blog under -, custom https://blog.acme.example/", "main-navigation: Contact under -, post_type Contact",
		"utility-navigation: Login under -, post_type Login",
		"footer-navigation: Imprint under -, post_type Imprint", "footer-navigation: Privacy under -, post_type Privacy",
	}
	if strings.Join(menus, "\n") != strings.Join(wantMenus, "\n") {
		t.Errorf("menus\n got:\n%s\nwant:\n%s", strings.Join(menus, "\n"), strings.Join(wantMenus, "\n"))
	}
	if m := meta["Pricing"]; m["_yoast_wpseo_title"] != "Pricing | Acme" || m["_yoast_wpseo_metadesc"] != "Plans & prices <2026>" ||
		m["_yoast_wpseo_focuskw"] != "acme pricing" || m["_siteplan_word_target"] != "400" {
		t.Errorf("Pricing's meta %v", m)
	}
	if xmllint, err := exec.LookPath("xmllint"); err == nil {
		f := filepath.Join(t.TempDir(), "plan.xml")
		os.WriteFile(f, buf.Bytes(), 0o644)
		if out, err := exec.Command(xmllint, "--noout", f).CombinedOutput(); err != nil {
			t.Errorf("xmllint: %v\n%s", err, out)
		}
	}
}

func mustInt(s string) int64 {
	var n int64
	fmt.Sscan(s, &n)
	return n
}

// TestRoutes: every page in outline order with its path, parent, order
// and brief, as a generator loops over them.
func TestRoutes(t *testing.T) {
	tr := acmeWithBriefs(t)
	var buf bytes.Buffer
	if err := WriteRoutes(&buf, tr); err != nil {
		t.Fatal(err)
	}
	var r Routes
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	key := map[string]string{"": "-"}
	var got []string
	for _, rt := range r.Routes {
		key[rt.Key] = rt.Title
		got = append(got, fmt.Sprintf("%s %s %q under %s #%d", rt.Kind, rt.Title, rt.Path, key[rt.Parent], rt.Order))
	}
	want := []string{
		`page Home "/" under - #0`, `page About us "/about-us" under Home #0`, `page Team "/about-us/team" under About us #0`,
		`group Products "" under Home #1`, `page Pricing "/produkte/pricing" under Products #0`, `page Café & "Bar" <b> "/produkte/caf%C3%A9" under Products #1`,
		`placeholder Later "/later" under Home #2`, `external Blog "" under Home #3`, `page Contact "/contact" under Home #4`,
		`page Login "/login" under - #1`, `page Imprint "/imprint" under - #2`, `page Privacy "/legal/privacy" under - #3`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("routes\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, rt := range r.Routes {
		if rt.Title == "Pricing" && (rt.Brief == nil || rt.Brief.H1 != "Plans for every team" || len(rt.Brief.Blocks) != 3) {
			t.Errorf("Pricing's brief %+v", rt.Brief)
		}
		if rt.Title == "Blog" && rt.URL != "https://blog.acme.example/" {
			t.Errorf("Blog's URL %q", rt.URL)
		}
	}
	if r.Format != "siteplan-routes/1" || r.BaseURL != "https://www.acme.example/" {
		t.Errorf("routes head %q %q", r.Format, r.BaseURL)
	}
	// A footer group's pages are the footer's, as inventory.csv says.
	foot := site.NewTree(site.Project{Name: "F", BaseURL: "https://f.example/"}, []site.Page{
		{ID: 1, Title: "Home", Kind: site.KindPage, Placement: site.PlacementMain},
		{ID: 2, Title: "Legal", Slug: "legal", Kind: site.KindGroup, Placement: site.PlacementFooter},
		{ID: 3, ParentID: 2, Title: "Imprint", Slug: "imprint", Kind: site.KindPage, Placement: site.PlacementMain},
	})
	buf.Reset()
	if err := WriteRoutes(&buf, foot); err != nil {
		t.Fatal(err)
	}
	r = Routes{}
	json.Unmarshal(buf.Bytes(), &r)
	for _, rt := range r.Routes {
		if want := map[string]string{"Home": "main", "Legal": "footer", "Imprint": "footer"}[rt.Title]; rt.Placement != want {
			t.Errorf("%s is in %q navigation, want %q", rt.Title, rt.Placement, want)
		}
	}
}
