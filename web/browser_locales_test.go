package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
)

// importLocalized imports the localized plan of site/testdata into team
// 1, and gives its id and its pages' ids by title.
func importLocalized(t *testing.T, db interface {
	ImportDocument(context.Context, int64, *site.Document) (int64, error)
}, tree func(int64) *site.Tree) (int64, map[string]int64) {
	t.Helper()
	d, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.ImportDocument(context.Background(), 1, d)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	tree(pid).Walk(func(p *site.Page, _ int) bool { ids[p.Title] = p.ID; return true })
	return pid, ids
}

// TestBrowserLocaleSwitch: the outline's locale switcher shows the one
// tree in another locale, its titles there and the default locale's in
// grey where there is none yet, each row's state there; a rename in
// that locale names the page there and nowhere else; the address keeps
// the locale over a reload, and the default locale comes back as it was.
func TestBrowserLocaleSwitch(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	tree := func(pid int64) *site.Tree {
		tr, err := db.Pages.Tree(bg, pid)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	pid, ids := importLocalized(t, db.Projects, tree)
	shownIn := func(tag string) chromedp.Action {
		return waitJS(fmt.Sprintf(`document.getElementById("outline").dataset.locale === %q && !document.querySelector(".htmx-request")`, tag))
	}
	row := func(id int64) string { return fmt.Sprintf("#title-%d", id) }
	run(t, ctx, "open the plan in its default locale",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		settled(),
		titleShown("Pricing"),
		waitJS(`!document.querySelector("#outline .untranslated, #outline .vstate")`),
	)
	run(t, ctx, "switch to de",
		chromedp.SetValue(`select[name=locale]`, "de", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector("select[name=locale]").dispatchEvent(new Event("change", {bubbles: true}))`, nil),
		shownIn("de"),
		settled(),
		titleShown("Produkte"), titleShown("Preise"),
		waitJS(fmt.Sprintf(`document.querySelector(%q).matches(".untranslated") && document.querySelector(%q).textContent === "Home"`, row(ids["Home"]), row(ids["Home"]))),
		waitJS(fmt.Sprintf(`!document.querySelector(%q).matches(".untranslated")`, row(ids["Products"]))),
		waitJS(fmt.Sprintf(`document.querySelector("#node-%d > .row > .vstate").textContent === "de: not offered"`, ids["Swiss stores"])),
		waitJS(fmt.Sprintf(`!document.querySelector("#node-%d > .row > .vstate") && document.querySelector("#node-%d > .row > .vstate").textContent === "de: planned"`, ids["Products"], ids["Home"])), // ready: nothing left to do there
		waitJS(`new URLSearchParams(location.search).get("locale") === "de"`),
	)
	run(t, ctx, "rename Home in de with F2",
		chromedp.Focus(row(ids["Home"]), chromedp.ByQuery),
		chromedp.KeyEvent(kb.F2),
		waitJS(fieldFocused),
		chromedp.KeyEvent("Startseite"+kb.Enter),
		renamedSelected("Startseite"),
		waitJS(fmt.Sprintf(`!document.querySelector(%q).matches(".untranslated")`, row(ids["Home"]))),
		waitJS(`!document.querySelector("#outline .pending")`),
	)
	waitFor(t, func() bool { return tree(pid).Page(ids["Home"]).Variants["de"].Title == "Startseite" }, "the de title to be stored")
	tr := tree(pid)
	if home := tr.Page(ids["Home"]); home.Title != "Home" || home.Variants["de"].Slug != "" {
		t.Errorf("Home is %q, in de %+v: a rename in de names the page there alone, and the home page keeps no slug", home.Title, home.Variants["de"])
	}
	if got := tr.LocaleURL(ids["Home"], "de"); got != "https://www.acme.example/de/" {
		t.Errorf("Home in de is at %s", got)
	}
	run(t, ctx, "a reload keeps the locale",
		chromedp.Reload(),
		settled(),
		shownIn("de"),
		titleShown("Startseite"),
		waitJS(`document.querySelector("select[name=locale]").value === "de"`),
	)
	run(t, ctx, "back to the default locale",
		chromedp.SetValue(`select[name=locale]`, "en", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector("select[name=locale]").dispatchEvent(new Event("change", {bubbles: true}))`, nil),
		shownIn(""),
		settled(),
		titleShown("Home"), titleShown("Pricing"),
		waitJS(`!document.querySelector("#outline .untranslated, #outline .vstate")`),
		waitJS(`!new URLSearchParams(location.search).has("locale")`),
	)
	noProblems(t, ctx, "switching locales")
}

// TestBrowserLocaleSignOff: a client on a share link reads a localized
// plan in one of its locales (the outline, the page card and the
// diagram in that locale's words) and signs off that locale alone; the
// sign-off says so, and an edit of another locale leaves it in force
// where one of its own locale reports it changed.
func TestBrowserLocaleSignOff(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	tree := func(pid int64) *site.Tree {
		tr, err := db.Pages.Tree(bg, pid)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	pid, ids := importLocalized(t, db.Projects, tree)
	if _, err := db.History.CreateVersion(bg, pid, "Client review"); err != nil {
		t.Fatal(err)
	}
	l := site.ShareLink{ProjectID: pid, Role: site.ShareComment, Label: "Anna at Acme DE"}
	token, err := db.Sharing.CreateShareLink(bg, &l)
	if err != nil {
		t.Fatal(err)
	}
	client := otherBrowser(t, ctx)
	run(t, client, "open the share link and read the plan in de",
		chromedp.Navigate(base+"/s/"+token),
		chromedp.WaitVisible(`#locale-bar`, chromedp.ByQuery),
		clickAt(`#locale-bar a[href$="locale=de"]`),
		waitJS(`new URLSearchParams(location.search).get("locale") === "de" && document.querySelector('#locale-bar a[aria-current]')?.textContent.startsWith("de")`),
		settled(),
		waitJS(`document.getElementById("outline").dataset.locale === "de"`),
		waitJS(`[...document.querySelectorAll("#outline a.title")].map(a => a.textContent).join(",") === "Home,Produkte,Preise,Swiss stores"`),
		waitJS(`[...document.querySelectorAll("#diagram text, #diagram canvas")].length > 0`),
	)
	var drawn string
	run(t, client, "the diagram is drawn in de",
		waitJS(`!!document.querySelector("#diagram [data-scene], #diagram svg")`),
		chromedp.Evaluate(`document.querySelector("#diagram [data-scene]")?.dataset.scene || document.querySelector("#diagram svg").textContent`, &drawn),
	)
	if !strings.Contains(drawn, "locale=de") && !strings.Contains(drawn, "Produkte") {
		t.Errorf("the diagram is not the plan in de: %.300s", drawn)
	}
	run(t, client, "the client's PDF is the plan in de", // the downloads' links carry the locale the pane was drawn in
		waitJS(`[...document.querySelectorAll("#diagram a[download]")].some(a => a.pathname.endsWith("/diagram/pdf") && new URL(a.href).searchParams.get("locale") === "de")`),
	)
	run(t, client, "the page card in de",
		clickAt(`#tab-outline`),
		clickAt(fmt.Sprintf(`#title-%d`, ids["Pricing"])),
		waitJS(`document.querySelector("#details .card-title")?.textContent === "Preise"`),
		waitJS(`document.querySelector("#details .card-url code")?.textContent === "https://www.acme.example/de/produkte/preise"`),
	)
	run(t, client, "sign off de",
		chromedp.SendKeys(`form.quick-approve input[name=name]`, "Anna Berger", chromedp.ByQuery),
		waitJS(`document.querySelector("form.quick-approve button").textContent.endsWith(" in de")`),
		clickAt(`form.quick-approve button`),
		chromedp.WaitVisible(`#approved-notice`, chromedp.ByQuery),
		waitJS(`new URLSearchParams(location.search).get("locale") === "de"`),
	)
	vs, err := db.History.Versions(bg, pid)
	if err != nil || len(vs) != 1 || len(vs[0].Approvals) != 1 {
		t.Fatalf("versions %+v, %v", vs, err)
	}
	if a := vs[0].Approvals[0]; a.Locale != "de" || a.What() != "the whole plan in de" || a.Name != "Anna Berger" {
		t.Errorf("the sign-off: %+v, %q", a, a.What())
	}
	changed := func() bool {
		vs, err := db.History.Versions(bg, pid)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.History.MarkChanged(bg, pid, vs); err != nil {
			t.Fatal(err)
		}
		return vs[0].Approvals[0].ChangedSince
	}
	if err := db.Pages.SetVariant(bg, pid, ids["Pricing"], "fr-CH", site.Variant{Title: "Tarifs", State: site.VariantReady}); err != nil {
		t.Fatal(err)
	}
	if changed() {
		t.Error("an edit in fr-CH changed the sign-off of de")
	}
	if err := db.Pages.SetVariant(bg, pid, ids["Pricing"], "de", site.Variant{Title: "Preisliste", Slug: "preise", State: site.VariantReady}); err != nil {
		t.Fatal(err)
	}
	if !changed() {
		t.Error("an edit in de left the sign-off of de as it was")
	}
	run(t, client, "the versions page says what was signed off",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d/versions/1?locale=de", base, pid)),
		waitJS(`document.body.textContent.includes("approved the whole plan in de")`),
		waitJS(`document.getElementById("approve-button").textContent === "Approve the whole plan of Version 1 “Client review” in de"`),
	)
	noProblems(t, client, "signing off a locale")
}

// TestBrowserCoverage: the Locales page shows every page's state in
// every locale; its filter answers "what is missing in de"; setting a
// branch not offered in a locale sets each of its pages there, says how
// many, and shows that locale.
func TestBrowserCoverage(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	tree := func(pid int64) *site.Tree {
		tr, err := db.Pages.Tree(bg, pid)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	pid, ids := importLocalized(t, db.Projects, tree)
	cell := func(title string, col int) string { // a page's cell in a locale's column (1: en)
		return fmt.Sprintf(`document.querySelector("#cov-%d td:nth-of-type(%d) .state")?.textContent`, ids[title], col)
	}
	run(t, ctx, "open the Locales page from the editor",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		settled(),
		clickAt(`.editor-nav a[href$="/locales"]`),
		chromedp.WaitVisible(`table.coverage`, chromedp.ByQuery),
		waitJS(`document.querySelectorAll("table.coverage tbody tr").length === 4`),
		waitJS(cell("Products", 2)+` === "ready" && `+cell("Pricing", 3)+` === "not offered" && `+cell("Swiss stores", 1)+` === "not offered"`),
	)
	run(t, ctx, "what is missing in de",
		chromedp.SetValue(`form.filters:not(#branch-state) select[name=locale]`, "de", chromedp.ByQuery),
		chromedp.SetValue(`form.filters:not(#branch-state) select[name=state]`, "missing", chromedp.ByQuery),
		clickAt(`form.filters:not(#branch-state) button[type=submit]`),
		waitJS(`new URLSearchParams(location.search).get("state") === "missing"`),
		chromedp.WaitVisible(`table.coverage`, chromedp.ByQuery),
		waitJS(fmt.Sprintf(`[...document.querySelectorAll("table.coverage tbody tr")].map(r => r.id).join() === "cov-%d,cov-%d"`, ids["Home"], ids["Pricing"])),
		waitJS(`document.getElementById("coverage-count").textContent.includes("of 2 pages")`),
	)
	run(t, ctx, "Products and below it: not offered in fr-CH",
		chromedp.SetValue(`#branch-state select[name=page]`, fmt.Sprint(ids["Products"]), chromedp.ByQuery),
		chromedp.SetValue(`#branch-state select[name=locale]`, "fr-CH", chromedp.ByQuery),
		chromedp.SetValue(`#branch-state select[name=state]`, site.VariantNotOffered, chromedp.ByQuery),
		clickAt(`#branch-state button[type=submit]`),
		chromedp.WaitVisible(`#coverage-notice`, chromedp.ByQuery),
		waitJS(`document.getElementById("coverage-notice").textContent.startsWith("Set 1 page")`), // Pricing was not offered there already
		waitJS(`new URLSearchParams(location.search).get("locale") === "fr-CH"`),
	)
	tr := tree(pid)
	if !(!tr.Offered(tr.Page(ids["Products"]), "fr-CH") && !tr.Offered(tr.Page(ids["Pricing"]), "fr-CH") && tr.Offered(tr.Page(ids["Products"]), "de")) {
		t.Errorf("after the branch: Products in fr-CH %+v, in de %+v", tr.Variant(tr.Page(ids["Products"]), "fr-CH"), tr.Variant(tr.Page(ids["Products"]), "de"))
	}
	noProblems(t, ctx, "the Locales page")
}
