package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"siteplan/site"
)

// oldMap is the project's old URLs as one line each: URL, disposition,
// target page, status, accepted.
func oldMap(t *testing.T, db *Store, pid int64) string {
	t.Helper()
	list, _, err := db.Redirects.OldURLs(context.Background(), pid, site.OldFilter{})
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(context.Background(), pid)
	var b strings.Builder
	for _, o := range list {
		to := ""
		if p := tr.Page(o.PageID); p != nil {
			to = p.Title
		}
		fmt.Fprintf(&b, "%s %s %q %d %v\n", strings.TrimPrefix(o.URL, "https://old.acme.example"), o.Disposition, to, o.Status, o.Accepted)
	}
	return b.String()
}

// attachAcme attaches four old URLs to the acme plan: one sure, one
// proposed below the bar, one unmatched, one with clicks.
func attachAcme(t *testing.T, db *Store, pid int64, ids map[string]int64) {
	t.Helper()
	olds := []site.OldPage{
		{URL: "https://old.acme.example/about.html", Title: "About"},
		{URL: "https://old.acme.example/prices", Title: "Prices"},
		{URL: "https://old.acme.example/legacy", Title: "Legacy"},
		{URL: "https://old.acme.example/contact-us", Title: "Contact", Clicks: 40},
	}
	maps := []site.Mapping{
		{From: olds[0].URL, Disposition: site.DispositionRedirect, PageID: ids["About us"], Status: 301, Confidence: 0.95, Reason: "same slug", Accepted: true},
		{From: olds[1].URL, Disposition: site.DispositionRedirect, PageID: ids["Pricing"], Status: 301, Confidence: 0.6, Reason: "merged"},
		{From: olds[2].URL, Disposition: site.DispositionReview, Reason: "no page matches"},
		{From: olds[3].URL, Disposition: site.DispositionRedirect, PageID: ids["Contact"], Status: 301, Confidence: 0.9, Reason: "title", Accepted: true},
	}
	rep, err := db.Redirects.AttachOldSite(context.Background(), pid, olds, maps)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added != 4 || rep.Accepted != 2 {
		t.Fatalf("attach: %+v, want 4 added, 2 accepted", rep)
	}
}

// TestOldURLsReview attaches an old site, reviews it (accept, retarget,
// retire, bulk accept), and undoes and redoes each decision; a version
// keeps the map and a restore brings it back.
func TestOldURLsReview(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	attachAcme(t, db, pid, ids)
	st, err := db.Redirects.RedirectStatus(context.Background(), pid)
	if err != nil {
		t.Fatal(err)
	}
	if want := (site.RedirectStatus{OldURLs: 4, Accepted: 2, Awaiting: 2, Unmatched: 1, Clicks: 40}); st != want {
		t.Fatalf("status %+v, want %+v", st, want)
	}
	// A search is for the text typed: "%" and "_" are themselves, and
	// the case does not matter.
	for search, want := range map[string]int{"LEGACY": 1, "leg_cy": 0, "%": 0, "/": 4} {
		if _, n, err := db.Redirects.OldURLs(anna, pid, site.OldFilter{Search: search}); err != nil || n != want {
			t.Errorf("search %q: %d old URLs (%v), want %d", search, n, err, want)
		}
	}
	attached := oldMap(t, db, pid)
	v, err := db.History.CreateVersion(anna, pid, "Map proposed")
	if err != nil {
		t.Fatal(err)
	}

	steps := []struct {
		name string
		do   func() (int, error)
		want int
	}{
		{"accept one", func() (int, error) {
			list, _, _ := db.Redirects.OldURLs(anna, pid, site.OldFilter{Search: "prices"})
			return db.Redirects.Decide(anna, pid, []int64{list[0].ID}, nil, site.Decision{Verb: site.DecideAccept})
		}, 1},
		{"redirect one", func() (int, error) {
			list, _, _ := db.Redirects.OldURLs(anna, pid, site.OldFilter{Search: "legacy"})
			return db.Redirects.Decide(anna, pid, []int64{list[0].ID}, nil, site.Decision{Verb: site.DecideRedirect, PageID: ids["Team"], Status: 308})
		}, 1},
		{"retire awaiting", func() (int, error) {
			return db.Redirects.Decide(anna, pid, nil, &site.OldFilter{Show: site.ShowAwaiting}, site.Decision{Verb: site.DecideRetire})
		}, 0},
		{"reopen all", func() (int, error) {
			return db.Redirects.Decide(anna, pid, nil, &site.OldFilter{}, site.Decision{Verb: site.DecideReopen})
		}, 4},
		{"bulk accept", func() (int, error) {
			return db.Redirects.Decide(anna, pid, nil, &site.OldFilter{Show: site.ShowAwaiting}, site.Decision{Verb: site.DecideAccept})
		}, 4},
	}
	for _, s := range steps {
		before := oldMap(t, db, pid)
		n, err := s.do()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if n != s.want {
			t.Fatalf("%s: changed %d, want %d", s.name, n, s.want)
		}
		after := oldMap(t, db, pid)
		if n > 0 && after == before {
			t.Fatalf("%s: nothing changed", s.name)
		}
		if n == 0 {
			continue
		}
		if _, err := db.History.Undo(anna, pid); err != nil {
			t.Fatalf("%s: undo: %v", s.name, err)
		}
		sameState(t, s.name+" undone", oldMap(t, db, pid), before)
		if _, err := db.History.Redo(anna, pid); err != nil {
			t.Fatalf("%s: redo: %v", s.name, err)
		}
		sameState(t, s.name+" redone", oldMap(t, db, pid), after)
	}
	final := oldMap(t, db, pid)
	for _, want := range []string{`/legacy redirect "Team" 308 true`, `/prices redirect "Pricing" 301 true`} {
		if !strings.Contains(final, want) {
			t.Errorf("the map lacks %q:\n%s", want, final)
		}
	}
	st, _ = db.Redirects.RedirectStatus(context.Background(), pid)
	if st.Accepted != 4 || st.ClicksAtRisk != 0 {
		t.Errorf("after review: %+v", st)
	}

	// History says what each decision did.
	hist, err := db.History.History(context.Background(), pid, 0, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, c := range hist {
		said = append(said, c.Summary)
	}
	for _, want := range []string{"attached the old site: 4 URLs (4 new, 0 gone)", "redirected https://old.acme.example/legacy to “Team”", "accepted the mappings of 4 old URLs"} {
		if !strings.Contains(strings.Join(said, "\n"), want) {
			t.Errorf("history lacks %q:\n%s", want, strings.Join(said, "\n"))
		}
	}

	// A version keeps the map; restoring it brings it back, undoably.
	if _, err := db.History.RestoreVersion(anna, pid, v.Number); err != nil {
		t.Fatal(err)
	}
	sameState(t, "restored", oldMap(t, db, pid), attached)
	if _, err := db.History.Undo(anna, pid); err != nil {
		t.Fatal(err)
	}
	sameState(t, "restore undone", oldMap(t, db, pid), final)
}

// TestAttachAgainMerges re-attaches an old site: decisions a person made
// stay, new URLs come, vanished ones go, clicks stay.
func TestAttachAgainMerges(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	attachAcme(t, db, pid, ids)
	list, _, _ := db.Redirects.OldURLs(anna, pid, site.OldFilter{Search: "legacy"})
	if _, err := db.Redirects.Decide(anna, pid, []int64{list[0].ID}, nil, site.Decision{Verb: site.DecideRetire}); err != nil {
		t.Fatal(err)
	}
	olds := []site.OldPage{
		{URL: "https://old.acme.example/legacy", Title: "Legacy"},
		{URL: "https://old.acme.example/contact-us", Title: "Contact us"},
		{URL: "https://old.acme.example/new", Title: "New"},
	}
	maps := []site.Mapping{
		{From: olds[0].URL, Disposition: site.DispositionRedirect, PageID: ids["Home"], Confidence: 0.9, Accepted: true},
		{From: olds[1].URL, Disposition: site.DispositionReview},
		{From: olds[2].URL, Disposition: site.DispositionReview},
	}
	rep, err := db.Redirects.AttachOldSite(context.Background(), pid, olds, maps)
	if err != nil {
		t.Fatal(err)
	}
	if want := (site.AttachReport{Added: 1, Removed: 2, Kept: 2, KeptDecided: 1}); rep != want {
		t.Errorf("report %+v, want %+v", rep, want)
	}
	got := oldMap(t, db, pid)
	want := "/contact-us review \"\" 0 false\n/legacy retire \"\" 410 true\n/new review \"\" 0 false\n"
	sameState(t, "merged", got, want)
	st, _ := db.Redirects.RedirectStatus(context.Background(), pid)
	if st.Clicks != 40 || st.ClicksAtRisk != 40 {
		t.Errorf("clicks %d at risk %d, want 40 and 40", st.Clicks, st.ClicksAtRisk)
	}
	// An old site with no URL would remove the whole map: refused.
	if _, err := db.Redirects.AttachOldSite(context.Background(), pid, nil, nil); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("attaching nothing: %v", err)
	}
	sameState(t, "after attaching nothing", oldMap(t, db, pid), want)
	if _, _, err := db.Redirects.OldURLs(anna, pid, site.OldFilter{Show: "nonsense"}); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("a bad filter: %v", err)
	}
}

// TestLaunchedURLsRedirect launches the plan, then renames, moves and
// deletes pages: each launched URL that moves gets its redirect in the
// same change, undo takes it away, a page moved back keeps its URL, and
// a deletion asks where its visitors go.
func TestLaunchedURLsRedirect(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	// Before launch, a rename records nothing.
	if _, err := db.Pages.RenamePage(anna, ids["Contact"], "Contact form", 1); err != nil {
		t.Fatal(err)
	}
	if got := oldMap(t, db, pid); got != "" {
		t.Fatalf("before launch: %s", got)
	}
	if _, err := db.History.LaunchVersion(anna, pid, "Live"); err != nil {
		t.Fatal(err)
	}
	const base = "https://www.acme.example"
	page := func(title string) site.Page {
		p, err := db.Pages.Page(anna, ids[title])
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Renaming "About us" moves it and "Team" below it.
	about := page("About us")
	if _, err := db.Pages.RenamePage(anna, about.ID, "Company", about.Version); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{base + "/about-us": "Company", base + "/about-us/team": "Team"}
	checkRedirects(t, db, pid, want)
	if _, err := db.History.Undo(anna, pid); err != nil {
		t.Fatal(err)
	}
	checkRedirects(t, db, pid, map[string]string{})
	if _, err := db.History.Redo(anna, pid); err != nil {
		t.Fatal(err)
	}
	// Moving Team again: its launched URL follows (one hop), and the
	// URL it had in between was never launched.
	if err := db.Pages.MovePage(anna, ids["Team"], ids["Home"], "", 0); err != nil {
		t.Fatal(err)
	}
	want[base+"/about-us/team"] = "Team"
	checkRedirects(t, db, pid, want)
	// Renaming Company back gives it its launched URL again: kept, not
	// redirected.
	about = page("About us")
	if _, err := db.Pages.RenamePage(anna, about.ID, "About us", about.Version); err != nil {
		t.Fatal(err)
	}
	delete(want, base+"/about-us")
	checkRedirects(t, db, pid, want)
	list, _, _ := db.Redirects.OldURLs(anna, pid, site.OldFilter{Search: "/about-us"})
	for _, o := range list {
		if o.URL == base+"/about-us" && o.Disposition != site.DispositionKeep {
			t.Errorf("%s is a page's URL again, yet %s", o.URL, o.Disposition)
		}
	}
	// A deletion of launched pages asks where they go.
	if _, err := db.Pages.DeletePage(anna, ids["Pricing"]); site.ErrorCode(err) != site.EInvalid || !strings.Contains(site.ErrorMessage(err), "1 URL of the launched site") {
		t.Fatalf("delete without a say: %v", err)
	}
	if _, err := db.Pages.DeletePageTo(anna, ids["Pricing"], &site.Decision{Verb: site.DecideRedirect, PageID: ids["Contact"]}); err != nil {
		t.Fatal(err)
	}
	want[base+"/produkte/pricing"] = "Contact form"
	checkRedirects(t, db, pid, want)
	if _, err := db.Pages.DeletePageTo(anna, ids["Imprint"], &site.Decision{Verb: site.DecideRetire}); err != nil {
		t.Fatal(err)
	}
	want[base+"/imprint"] = "410"
	checkRedirects(t, db, pid, want)
	// Deleting the target of redirects sends them on: still one hop.
	if _, err := db.Pages.DeletePageTo(anna, ids["Contact"], &site.Decision{Verb: site.DecideRedirect, PageID: ids["Home"]}); err != nil {
		t.Fatal(err)
	}
	want[base+"/produkte/pricing"] = "Home"
	want[base+"/contact-form"] = "Home"
	checkRedirects(t, db, pid, want)
}

// checkRedirects compares the project's accepted redirects (URL ->
// target page's title, or "410") with want.
func checkRedirects(t *testing.T, db *Store, pid int64, want map[string]string) {
	t.Helper()
	list, _, err := db.Redirects.OldURLs(context.Background(), pid, site.OldFilter{Show: site.ShowAccepted})
	if err != nil {
		t.Fatal(err)
	}
	retired, _, err := db.Redirects.OldURLs(context.Background(), pid, site.OldFilter{Show: site.ShowRetired}) // counted apart
	if err != nil {
		t.Fatal(err)
	}
	list = append(list, retired...)
	tr, _ := db.Pages.Tree(context.Background(), pid)
	got := map[string]string{}
	for _, o := range list {
		switch o.Disposition {
		case site.DispositionRedirect:
			got[o.URL] = "?"
			if p := tr.Page(o.PageID); p != nil {
				got[o.URL] = p.Title
			}
		case site.DispositionRetire:
			got[o.URL] = "410"
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("redirects\n got %v\nwant %v", got, want)
	}
}

// TestRestoreAfterLaunch restores a version from before launch that
// lacks a launched page: the restore goes through, and the page's
// launched URL waits for review, as nobody was asked where it goes.
func TestRestoreAfterLaunch(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	v, err := db.History.CreateVersion(anna, pid, "Before")
	if err != nil {
		t.Fatal(err)
	}
	p := site.Page{ProjectID: pid, ParentID: ids["Home"], Title: "Careers", Slug: "careers", SlugAuto: true, Kind: site.KindPage, Placement: site.PlacementMain, Status: "planned", InSitemap: true}
	if err := db.Pages.CreatePage(anna, &p); err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.LaunchVersion(anna, pid, "Live"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.RestoreVersion(anna, pid, v.Number); err != nil {
		t.Fatalf("restore after launch: %v", err)
	}
	list, _, _ := db.Redirects.OldURLs(anna, pid, site.OldFilter{Show: site.ShowUnmatched})
	if len(list) != 1 || list[0].URL != "https://www.acme.example/careers" {
		t.Errorf("awaiting review after the restore: %+v", list)
	}
}

// TestAttachRefusesBadOldURLs: old URLs are kept normalised (a NUL or a
// quote percent-encoded), and an attach holding one no map can carry (a
// 20 MB URL, text that is not UTF-8) is refused whole, nothing written.
func TestAttachRefusesBadOldURLs(t *testing.T) {
	db := openTest(t)
	pid, ids, _, _ := acmeFor(t, db)
	ctx := context.Background()
	attach := func(urls ...string) error {
		var olds []site.OldPage
		var maps []site.Mapping
		for _, u := range urls {
			olds = append(olds, site.OldPage{URL: u})
			maps = append(maps, site.Mapping{From: u, Disposition: site.DispositionRedirect, PageID: ids["Home"], Status: 301, Accepted: true})
		}
		_, err := db.Redirects.AttachOldSite(ctx, pid, olds, maps)
		return err
	}
	if err := attach("https://old.example/a\x00b", `https://old.example/contact?ref="home"`); err != nil {
		t.Fatal(err)
	}
	olds, _, _ := db.Redirects.OldURLs(ctx, pid, site.OldFilter{})
	var got []string
	for _, o := range olds {
		got = append(got, o.URL)
	}
	slices.Sort(got)
	if want := []string{"https://old.example/a%00b", "https://old.example/contact?ref=%22home%22"}; !slices.Equal(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}
	for _, bad := range []string{"https://old.example/" + strings.Repeat("x", 20<<20), "https://old.example/\xff"} {
		if err := attach("https://old.example/fine", bad); site.ErrorCode(err) != site.EInvalid {
			t.Errorf("%.40q: %v", bad, err)
		}
	}
	if olds, _, _ := db.Redirects.OldURLs(ctx, pid, site.OldFilter{}); len(olds) != 2 {
		t.Errorf("a refused attach changed the map: %d old URLs", len(olds))
	}
}

// TestRetargetAfterLaunchRetold: an old URL that redirects to a page
// keeps going there when the page moves after launch, and its reason
// says where the page is now, not where the matcher found it.
func TestRetargetAfterLaunchRetold(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	old := site.OldPage{URL: "https://www.acme.example/prices.html"}
	m := site.Mapping{From: old.URL, Disposition: site.DispositionRedirect, PageID: ids["Pricing"], Status: 301, Confidence: 0.9,
		Reason: "same slug, moved to /produkte/pricing", Accepted: true}
	if _, err := db.Redirects.AttachOldSite(anna, pid, []site.OldPage{old}, []site.Mapping{m}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.LaunchVersion(anna, pid, "Live"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pages.Move(anna, ids["Pricing"], ids["About us"], "", 0); err != nil {
		t.Fatal(err)
	}
	list, _, err := db.Redirects.OldURLs(anna, pid, site.OldFilter{Search: "prices"})
	if err != nil || len(list) != 1 {
		t.Fatalf("%v %v", list, err)
	}
	if o := list[0]; o.PageID != ids["Pricing"] || !strings.HasPrefix(o.Reason, "its page “Pricing” moved after launch to https://www.acme.example/about-us/pricing") {
		t.Errorf("after the move: page %d, reason %q", o.PageID, o.Reason)
	}
}

// TestProposalsShownFromFigures: where the figures tell how many
// proposals a filter shows (site.RedirectStatus.ProposalsShown), they
// tell what counting them says.
func TestProposalsShownFromFigures(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	var olds []site.OldPage
	var maps []site.Mapping
	for i, m := range []site.Mapping{
		{Disposition: site.DispositionRedirect, PageID: ids["Pricing"], Status: 301, Confidence: 1, Accepted: true},
		{Disposition: site.DispositionRedirect, PageID: ids["Contact"], Status: 301, Confidence: 0.6},
		{Disposition: site.DispositionReview, PageID: ids["Team"], Confidence: 0.4},
		{Disposition: site.DispositionReview},
		{Disposition: site.DispositionReview},
	} {
		o := site.OldPage{URL: fmt.Sprintf("https://www.acme.example/old/%d", i)}
		m.From = o.URL
		olds, maps = append(olds, o), append(maps, m)
	}
	if _, err := db.Redirects.AttachOldSite(anna, pid, olds, maps); err != nil {
		t.Fatal(err)
	}
	st, err := db.Redirects.RedirectStatus(anna, pid)
	if err != nil {
		t.Fatal(err)
	}
	for _, show := range site.OldShows {
		f := site.OldFilter{Show: show}
		want, err := db.Redirects.Proposals(anna, pid, f)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := st.ProposalsShown(f); ok && got != want {
			t.Errorf("show %q: the figures say %d proposals, counting says %d", show, got, want)
		}
	}
	if n, _ := st.ProposalsShown(site.OldFilter{}); n != 2 {
		t.Errorf("%d proposals shown, want 2", n)
	}
}

// TestLaunchedLocaleURLsRedirect: after launch every locale's URLs are
// the launched site's; a new slug in one locale records a redirect for
// that locale's URLs (the page's and those below it) to the page in the
// same locale, undo takes it away, and a launched page made not offered
// in a locale leaves its URL there waiting for a person.
func TestLaunchedLocaleURLsRedirect(t *testing.T) {
	db := openTest(t)
	u, _, err := db.Accounts.AddUser(context.Background(), "anna@agency.example", "Anna", pw, "1", site.RoleEditor)
	if err != nil {
		t.Fatal(err)
	}
	ctx := site.WithViewer(context.Background(), site.Viewer{UserID: u.ID, Name: "Anna", Access: site.AccessEdit})
	doc, err := site.ReadDocumentFile("../site/testdata/localized.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.Projects.ImportDocument(ctx, 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	tr, _ := db.Pages.Tree(ctx, pid)
	tr.Walk(func(p *site.Page, _ int) bool { ids[p.Title] = p.ID; return true })
	if _, err := db.History.LaunchVersion(ctx, pid, "Live"); err != nil {
		t.Fatal(err)
	}
	const de = "https://www.acme.example/de/"
	targets := func() map[string]string { // accepted redirects: old URL -> the URL it goes to
		olds, _, err := db.Redirects.OldURLs(ctx, pid, site.OldFilter{})
		if err != nil {
			t.Fatal(err)
		}
		tr, _ := db.Pages.Tree(ctx, pid)
		got := map[string]string{}
		for i, m := range tr.Mappings(olds) {
			got[olds[i].URL] = m.Disposition + " " + m.To
		}
		return got
	}
	if err := db.Pages.SetVariant(ctx, pid, ids["Products"], "de", site.Variant{Title: "Sortiment", Slug: "sortiment", State: site.VariantReady}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		de + "produkte":        "redirect " + de + "sortiment",
		de + "produkte/preise": "redirect " + de + "sortiment/preise",
	}
	if got := targets(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after a new de slug:\n got %v\nwant %v", got, want)
	}
	if _, err := db.History.Undo(ctx, pid); err != nil {
		t.Fatal(err)
	}
	if got := targets(); len(got) != 0 {
		t.Fatalf("after undo: %v", got)
	}
	if err := db.Pages.SetVariant(ctx, pid, ids["Pricing"], "de", site.Variant{Title: "Preise", Slug: "preise", State: site.VariantNotOffered}); err != nil {
		t.Fatal(err)
	}
	got := targets()
	if len(got) != 1 || got[de+"produkte/preise"] != "review " {
		t.Fatalf("Pricing no longer offered in de: %v", got)
	}
	olds, _, _ := db.Redirects.OldURLs(ctx, pid, site.OldFilter{})
	if len(olds) != 1 || !strings.Contains(olds[0].Reason, "not offered in de after launch") {
		t.Errorf("its reason: %+v", olds)
	}
}
