package sitemap

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"siteplan/export"
	"siteplan/site"
)

// shape renders a document's pages as "Title[kind slug path](children)".
func shape(ps []*site.DocPage) string {
	var b []string
	for _, p := range ps {
		s := p.Title
		var notes []string
		if p.Kind != "" {
			notes = append(notes, p.Kind)
		}
		if p.Path != nil {
			notes = append(notes, "path "+*p.Path)
		} else if p.Slug != nil {
			notes = append(notes, "/"+*p.Slug)
		}
		s += "[" + strings.Join(notes, " ") + "]"
		if len(p.Children) > 0 {
			s += "(" + shape(p.Children) + ")"
		}
		b = append(b, s)
	}
	return strings.Join(b, " ")
}

// planOf plans locs and checks that the plan exports exactly the URLs of
// the site's host (those a sitemap may hold: 2,048 characters at most).
func planOf(t *testing.T, locs ...string) (*site.Document, []site.Warning) {
	t.Helper()
	pl := NewPlanner()
	for _, l := range locs {
		pl.Add(&Found{Loc: l})
	}
	doc, warns, err := pl.Document("Imported")
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(); err != nil {
		t.Fatalf("the plan is not a valid document: %v\n%s", err, shape(doc.Pages))
	}
	tr, _ := doc.Tree()
	entries, _, err := export.Collect(tr, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, e := range entries {
		got = append(got, e.Loc)
	}
	for _, l := range locs {
		if n, err := site.NormalizeURL(l); err == nil && len(n) <= site.MaxURLLen && strings.HasPrefix(n, doc.Project.BaseURL) && !slices.Contains(want, n) {
			want = append(want, n)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the plan exports\n%s\nwant the URLs read\n%s\nplan: %s", strings.Join(got, "\n"), strings.Join(want, "\n"), shape(doc.Pages))
	}
	return doc, warns
}

// wantWarnings checks that warns has a warning saying each of wants.
func wantWarnings(t *testing.T, warns []site.Warning, wants ...string) {
	t.Helper()
	var reasons []string
	for _, w := range warns {
		reasons = append(reasons, w.Reason)
	}
	for _, want := range wants {
		if !slices.ContainsFunc(reasons, func(r string) bool { return strings.Contains(r, want) }) {
			t.Errorf("warnings %q lack %q", reasons, want)
		}
	}
}

// TestPlan: URLs become pages by path, a missing level a group carrying
// its slug, a URL with a query a page with a path override beside its
// path's page, "/" the home page; titles come from the last segment; what
// a slug cannot give back stays as an override; other hosts are left
// out, and duplicates imported once, each said so. Exporting the plan
// gives back exactly the URLs read (planOf checks it).
func TestPlan(t *testing.T) {
	doc, warns := planOf(t,
		"https://www.example.com/",
		"https://www.example.com/products",
		"https://www.example.com/products/widgets/blue-widget",
		"https://www.example.com/products/widgets",
		"https://www.example.com/legal/imprint",
		"https://www.example.com/search?q=blue+widgets",
		"https://www.example.com/products/list?page=2",
		"https://www.example.com/about-us.html",
		"https://www.example.com/caf%C3%A9_menu",
		"https://www.example.com/%7Etilde",
		"https://www.example.com/blog/",
		"https://WWW.example.com/products",
		"https://other.example/x",
		"/relative",
	)
	want := "Home[/](Products[/products](Widgets[/widgets](Blue widget[/blue-widget]) List[group /list](List (page=2)[path /products/list?page=2])) " +
		"Legal[group /legal](Imprint[/imprint]) Search[group /search](Search (q=blue+widgets)[path /search?q=blue+widgets]) " +
		"About us[/about-us.html] Café menu[/café_menu] ~tilde[path /%7Etilde] Blog[path /blog/])"
	if got := shape(doc.Pages); got != want {
		t.Errorf("plan\n%s\nwant\n%s", got, want)
	}
	if doc.Project.BaseURL != "https://www.example.com/" || doc.Project.TrailingSlash {
		t.Errorf("project %+v", doc.Project)
	}
	wantWarnings(t, warns, "1 URL on https://other.example left out: the site is on https://www.example.com", "1 URL listed more than once",
		`1 entry left out as not absolute http(s) URLs, such as "/relative"`)
}

// TestPlanQueryOrder: pages come in the order read; a URL with a query
// goes under its path's page (a listing's next pages under the listing),
// whether its path was read before it or after.
func TestPlanQueryOrder(t *testing.T) {
	doc, _ := planOf(t,
		"https://example.com/",
		"https://example.com/blog",
		"https://example.com/blog/hello",
		"https://example.com/contact",
		"https://example.com/blog?page=2",
		"https://example.com/blog?page=3",
		"https://example.com/news?x=1",
		"https://example.com/news",
		"https://example.com/?utm=1",
	)
	want := "Home[/](Blog[/blog](Hello[/hello] Blog (page=2)[path /blog?page=2] Blog (page=3)[path /blog?page=3]) " +
		"Contact[/contact] News[/news](News (x=1)[path /news?x=1]) Home (utm=1)[path /?utm=1])"
	if got := shape(doc.Pages); got != want {
		t.Errorf("plan\n%s\nwant\n%s", got, want)
	}
}

// TestPlanOddPaths: a path listed with and without a trailing slash is
// two URLs, and two pages; a path with an empty segment keeps it as an
// override under its path's parent (an absolute one where it would start
// with //); a URL over
// 2,048 characters is left out, and said so; a segment of spaces or
// control characters keeps its title as written.
func TestPlanOddPaths(t *testing.T) {
	long := "https://example.com/" + strings.Repeat("x", 2100)
	doc, warns := planOf(t,
		"https://example.com/",
		"https://example.com/blog",
		"https://example.com/shop/",
		"https://example.com/blog/",
		"https://example.com/shop",
		"https://example.com/blog/",
		"https://example.com/a//b",
		"https://example.com//",
		"https://example.com/%20",
		"https://example.com/%00",
		long,
	)
	want := "Home[/](Blog[/blog] Blog (/blog/)[path /blog/] Shop[path /shop/] Shop (/shop)[path /shop] " +
		"A[group /a](B (/a//b)[path /a//b]) Home (//)[path https://example.com//] %20[/ ] %00[/%00])"
	if got := shape(doc.Pages); got != want {
		t.Errorf("plan\n%s\nwant\n%s", got, want)
	}
	wantWarnings(t, warns, "1 URL listed more than once", "1 URL longer than 2,048 characters left out")
}

// TestPlanTrailingSlash: a site whose URLs end in "/" gets the policy,
// not an override per page; the odd one out keeps its own.
func TestPlanTrailingSlash(t *testing.T) {
	doc, _ := planOf(t,
		"https://example.com/",
		"https://example.com/about/",
		"https://example.com/about/team/",
		"https://example.com/contact/",
		"https://example.com/feed.xml",
	)
	if !doc.Project.TrailingSlash {
		t.Error("the project's trailing-slash policy is off")
	}
	if got, want := shape(doc.Pages), "Home[/](About[/about](Team[/team]) Contact[/contact] Feed[path /feed.xml])"; got != want {
		t.Errorf("plan\n%s\nwant\n%s", got, want)
	}
}

// TestPlanValues: lastmod, changefreq and priority are kept per page;
// invalid ones are left out, and said so.
func TestPlanValues(t *testing.T) {
	pl := NewPlanner()
	pl.Add(&Found{Loc: "https://example.com/a", Lastmod: "2026-11-01T10:00:00+01:00", Changefreq: "weekly", Priority: "0.8"})
	pl.Add(&Found{Loc: "https://example.com/b", Lastmod: "2026-11-01T10:00:00", Changefreq: "Weekly", Priority: "2"})
	doc, warns, err := pl.Document("V")
	if err != nil {
		t.Fatal(err)
	}
	a, b := doc.Pages[0].Children[0], doc.Pages[0].Children[1]
	if a.Lastmod != "2026-11-01T10:00:00+01:00" || a.Changefreq != "weekly" || a.Priority == nil || *a.Priority != 0.8 {
		t.Errorf("a kept %q %q %v", a.Lastmod, a.Changefreq, a.Priority)
	}
	if b.Lastmod != "" || b.Changefreq != "" || b.Priority != nil {
		t.Errorf("b kept invalid values %q %q %v", b.Lastmod, b.Changefreq, b.Priority)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Reason, "3 values left out as invalid (lastmod, changefreq, priority, status and the like), the first on https://example.com/b") {
		t.Errorf("warnings %+v", warns)
	}
	if _, _, err := NewPlanner().Document("Empty"); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("an empty plan: %v", err)
	}
}

// TestClipTitle: a title is clipped at 300 characters, not bytes.
func TestClipTitle(t *testing.T) {
	long := strings.Repeat("ع", 200) // 400 bytes, 200 characters
	if got := clipTitle(long); got != long {
		t.Errorf("a 200-character title was clipped to %d characters", utf8.RuneCountInString(got))
	}
	if got := clipTitle(strings.Repeat("ع", 301)); utf8.RuneCountInString(got) != 300 || !strings.HasSuffix(got, "...") {
		t.Errorf("a 301-character title became %d characters: %q", utf8.RuneCountInString(got), got[len(got)-10:])
	}
}

// The tests read a plan as a native document; siteplan itself writes a
// plan page by page (Plan.Pages).

// Document returns the plan as a native document.
func (p *Plan) Document() *site.Document {
	d := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: p.Project.Name, BaseURL: p.Project.BaseURL, TrailingSlash: p.Project.TrailingSlash}}
	var stack []*site.DocPage // the last page at each depth
	for depth, pg := range p.Pages() {
		dp := &site.DocPage{Title: pg.Title, Slug: ptr(pg.Slug), Type: pg.Type, Assignee: pg.Assignee, Notes: pg.Notes,
			Priority: pg.Priority, Changefreq: pg.Changefreq, Lastmod: pg.Lastmod}
		if pg.Kind != site.KindPage { // the defaults left out, as a document writer would
			dp.Kind = pg.Kind
		}
		if pg.Status != site.StatusPlanned {
			dp.Status = pg.Status
		}
		if pg.Path != "" {
			dp.Path = ptr(pg.Path)
		}
		if !pg.Brief.Empty() {
			dp.Brief = ptr(pg.Brief.Clone())
		}
		stack = append(stack[:depth-1], dp)
		if depth == 1 {
			d.Pages = append(d.Pages, dp)
		} else {
			stack[depth-2].Children = append(stack[depth-2].Children, dp)
		}
	}
	return d
}

// Document returns the plan of the site's URLs as a native document (see
// Plan). Errors: EInvalid when no URL could be placed.
func (pl *Planner) Document(name string) (*site.Document, []site.Warning, error) {
	p, warns, err := pl.Plan(name)
	if err != nil {
		return nil, nil, err
	}
	return p.Document(), warns, nil
}

func ptr[T any](v T) *T { return &v }

// isURL reports whether s is a URL a plan takes.
func isURL(s string) bool {
	n, err := site.NormalizeURL(s)
	return err == nil && len(n) <= site.MaxURLLen
}

// FuzzPlan: whatever paths a site lists, in whatever order, the plan is a
// valid document that exports exactly the URLs read (planOf checks both).
func FuzzPlan(f *testing.F) {
	f.Add("/\n/blog\n/blog/hello\n/contact\n/blog?page=2\n/blog?page=3\n/news?x=1\n/news\n/?utm=1")
	f.Add("/products/list?page=2\n/products\n/products/list\n/products/list?page=3\n/legal/imprint\n/legal?x\n/%7Etilde\n/blog/")
	f.Fuzz(func(t *testing.T, paths string) {
		lines := strings.Split(paths, "\n")
		if len(lines) > 64 {
			lines = lines[:64]
		}
		var locs []string
		for _, p := range lines {
			if l := "https://example.com/" + strings.TrimPrefix(p, "/"); isURL(l) {
				locs = append(locs, l)
			}
		}
		if len(locs) > 0 { // else nothing to plan, an error
			planOf(t, locs...)
		}
	})
}

// TestPlanManyHosts: URLs on many other hosts are said host by host for
// the first few, then counted in one warning, so what a job keeps of an
// import does not grow with the hosts a site lists.
func TestPlanManyHosts(t *testing.T) {
	locs := []string{"https://www.example.com/", "https://www.example.com/a"}
	for i := range 500 {
		locs = append(locs, fmt.Sprintf("https://h%d.example/x", i), fmt.Sprintf("https://h%d.example/y", i))
	}
	_, warns := planOf(t, locs...)
	if len(warns) != maxOrigins+1 {
		t.Errorf("%d warnings, want %d", len(warns), maxOrigins+1)
	}
	wantWarnings(t, warns, "2 URLs on https://h0.example left out", "980 URLs on 490 more hosts left out too.")
}
