package store

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"siteplan/export"
	"siteplan/internal/sitegen"
	"siteplan/site"
)

func openTest(t testing.TB) *Store {
	t.Helper()
	db, err := Open(testDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// newProject creates a project whose tree is given as an outline.
func newProject(t *testing.T, db *Store, outline string) (*site.Project, map[string]int64) {
	t.Helper()
	ctx := context.Background()
	p := &site.Project{TeamID: 1, Name: "Test", BaseURL: "https://example.com/"}
	if err := db.Projects.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	items, err := site.ParseOutline(outline)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pages.InsertOutline(ctx, p.ID, 0, items); err != nil {
		t.Fatal(err)
	}
	tr, err := db.Pages.Tree(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	tr.Walk(func(pg *site.Page, _ int) bool { ids[pg.Title] = pg.ID; return true })
	return p, ids
}

// shape renders the tree as "A(B C) D" and checks that positions are dense.
func shape(t *testing.T, db *Store, projectID int64) string {
	t.Helper()
	tr, err := db.Pages.Tree(context.Background(), projectID)
	if err != nil {
		t.Fatal(err)
	}
	var render func(id int64) string
	render = func(id int64) string {
		var parts []string
		pos := map[string]int{}
		for _, p := range tr.Children(id) {
			if p.Position != pos[p.Placement] {
				t.Errorf("page %q has position %d, want %d (dense)", p.Title, p.Position, pos[p.Placement])
			}
			pos[p.Placement]++
			s := p.Title
			if p.Placement != site.PlacementMain {
				s = p.Placement + ":" + s
			}
			if kids := render(p.ID); kids != "" {
				s += "(" + kids + ")"
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, " ")
	}
	return render(0)
}

func TestMovePage(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		page      string
		parent    string // "" for a root
		placement string
		position  int
		want      string
	}{
		{"down among siblings", "A", "", "", 2, "Home B(B1) A(A1 A2) C"},
		{"up among siblings", "C", "", "", 1, "Home C A(A1 A2) B(B1)"},
		{"under another page", "C", "A", "", 0, "Home A(C A1 A2) B(B1)"},
		{"to the end with -1", "A1", "B", "", -1, "Home A(A2) B(B1 A1) C"},
		{"position past the end clamps", "B1", "A", "", 99, "Home A(A1 A2 B1) B C"},
		{"out to the root", "A2", "", "", 1, "Home A2 A(A1) B(B1) C"},
		{"into the footer", "C", "", "footer", 0, "Home A(A1 A2) B(B1) footer:C"},
		{"child to the first place", "A2", "A", "", 0, "Home A(A2 A1) B(B1) C"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openTest(t)
			p, ids := newProject(t, db, "A\n  A1\n  A2\nB\n  B1\nC")
			if err := db.Pages.MovePage(ctx, ids[tt.page], ids[tt.parent], tt.placement, tt.position); err != nil {
				t.Fatal(err)
			}
			if got := shape(t, db, p.ID); got != tt.want {
				t.Errorf("after move: %s, want %s", got, tt.want)
			}
		})
	}
}

func TestMoveRefusesCycles(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	p, ids := newProject(t, db, "A\n  A1\n    A11\nB")
	for _, target := range []string{"A", "A1", "A11"} {
		err := db.Pages.MovePage(ctx, ids["A"], ids[target], "", 0)
		if site.ErrorCode(err) != site.EInvalid {
			t.Errorf("move A under %s: err = %v, want invalid", target, err)
		}
	}
	if got, want := shape(t, db, p.ID), "Home A(A1(A11)) B"; got != want {
		t.Errorf("tree changed by a refused move: %s, want %s", got, want)
	}
	q, _ := newProject(t, db, "X")
	if err := db.Pages.MovePage(ctx, ids["B"], q.ID+1000, "", 0); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("move under a missing page: err = %v, want not_found", err)
	}
}

func TestMoveAcrossProjectsRefused(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	_, a := newProject(t, db, "A")
	_, b := newProject(t, db, "B")
	if err := db.Pages.MovePage(ctx, a["A"], b["B"], "", 0); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("move under another project's page: err = %v, want not_found", err)
	}
}

func TestDeleteCascades(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	p, ids := newProject(t, db, "A\n  A1\n    A11\nB\nC")
	for _, l := range [][2]string{{"B", "A11"}, {"A1", "C"}, {"B", "C"}} {
		if err := db.Links.AddLink(ctx, &site.Link{ProjectID: p.ID, FromID: ids[l[0]], ToID: ids[l[1]]}); err != nil {
			t.Fatal(err)
		}
	}
	n, err := db.Pages.DeletePage(ctx, ids["A"])
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("DeletePage removed %d pages, want 3", n)
	}
	if got, want := shape(t, db, p.ID), "Home B C"; got != want {
		t.Errorf("after delete: %s, want %s", got, want)
	}
	links, err := db.Links.Links(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 1 || links[0].FromTitle != "B" || links[0].ToTitle != "C" {
		t.Errorf("links after delete = %+v, want only B->C", links)
	}
	if _, err := db.Pages.DeletePage(ctx, ids["A"]); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("second delete: err = %v, want not_found", err)
	}
}

func TestDuplicatePage(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	p, ids := newProject(t, db, "A\n  A1\n  A2\nB")
	if err := db.Links.AddLink(ctx, &site.Link{ProjectID: p.ID, FromID: ids["A1"], ToID: ids["A2"], Label: "next"}); err != nil {
		t.Fatal(err)
	}
	id, err := db.Pages.DuplicatePage(ctx, ids["A"])
	if err != nil {
		t.Fatal(err)
	}
	if got, want := shape(t, db, p.ID), "Home A(A1 A2) A (copy)(A1 A2) B"; got != want {
		t.Errorf("after duplicate: %s, want %s", got, want)
	}
	cp, _ := db.Pages.Page(ctx, id)
	if cp.Slug != "a-copy" {
		t.Errorf("copy slug = %q, want a-copy", cp.Slug)
	}
	links, _ := db.Links.Links(ctx, p.ID)
	if len(links) != 2 {
		t.Fatalf("links = %d, want the original and its copy", len(links))
	}
	if links[1].FromID == ids["A1"] || links[1].Label != "next" {
		t.Errorf("copied link = %+v, want a link between the copies", links[1])
	}
}

func TestUpdatePageStale(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	_, ids := newProject(t, db, "About")
	tab1, _ := db.Pages.Page(ctx, ids["About"])
	tab2 := tab1
	tab1.Title = "About us"
	if err := db.Pages.UpdatePage(ctx, &tab1); err != nil {
		t.Fatal(err)
	}
	if tab1.Slug != "about-us" {
		t.Errorf("derived slug after rename = %q, want about-us", tab1.Slug)
	}
	tab2.Notes = "from the other tab"
	if err := db.Pages.UpdatePage(ctx, &tab2); site.ErrorCode(err) != site.EConflict {
		t.Fatalf("stale update: err = %v, want conflict", err)
	}
	got, _ := db.Pages.Page(ctx, ids["About"])
	if got.Title != "About us" || got.Notes != "" {
		t.Errorf("stale update changed the page: %+v", got)
	}
	bad := got
	bad.Title = ""
	if err := db.Pages.UpdatePage(ctx, &bad); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("empty title: err = %v, want invalid", err)
	}
}

func TestCreatePagePositions(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	p, ids := newProject(t, db, "A\nB")
	np := site.NewPage("Between")
	np.ProjectID, np.Position = p.ID, 2
	if err := db.Pages.CreatePage(ctx, &np); err != nil {
		t.Fatal(err)
	}
	child := site.NewPage("Child")
	child.ProjectID, child.ParentID, child.Position, child.Placement = p.ID, ids["B"], -1, "footer"
	if err := db.Pages.CreatePage(ctx, &child); err != nil {
		t.Fatal(err)
	}
	if got, want := shape(t, db, p.ID), "Home A Between B(Child)"; got != want {
		t.Errorf("after inserts: %s, want %s", got, want)
	}
}

func TestPagesToDepth(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	p, ids := newProject(t, db, "A\n  A1\n    A11\nB")
	pages, shown, err := db.Pages.PagesToDepth(ctx, p.ID, 2, 100)
	if err != nil || shown != 2 {
		t.Fatalf("shown %d, %v; want level 2", shown, err)
	}
	got := map[string]int{}
	for _, pg := range pages {
		got[pg.Title] = pg.ChildCount
	}
	want := map[string]int{"Home": 0, "A": 1, "A1": 1, "B": 0}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PagesToDepth(2) = %v, want %v", got, want)
	}
	if n, _ := db.Pages.DescendantCount(ctx, ids["A"]); n != 2 {
		t.Errorf("DescendantCount(A) = %d, want 2", n)
	}
	// At most limit pages: as deep as they fit, else the first roots.
	roots := len(want) - 1 // all but A1
	if pages, shown, _ := db.Pages.PagesToDepth(ctx, p.ID, 99, roots); shown != 1 || len(pages) != roots {
		t.Errorf("limit %d: %d pages to level %d, want the %d roots", roots, len(pages), shown, roots)
	}
	if pages, shown, _ := db.Pages.PagesToDepth(ctx, p.ID, 99, 2); shown != 0 || len(pages) != 2 {
		t.Errorf("limit 2: %d pages to level %d, want 2 roots and level 0", len(pages), shown)
	}
	if _, shown, _ := db.Pages.PagesToDepth(ctx, p.ID, 99, 100); shown != 99 {
		t.Errorf("all pages fit: level %d, want the 99 asked for", shown)
	}
}

func TestImportRefusesBadDocumentAsAWhole(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	bad := `{"format":"siteplan/1","project":{"name":"X","base_url":"https://x.example/"},
		"pages":[{"title":"Home","children":[{"title":"Ok"},{"title":"Bad","priority":1.5}]}]}`
	d := &site.Document{}
	if err := json.Unmarshal([]byte(bad), d); err != nil {
		t.Fatal(err)
	}
	_, err := db.Projects.ImportDocument(ctx, 1, d)
	if site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), `"Bad"`) || !strings.Contains(err.Error(), "priority") {
		t.Fatalf("err = %v, want invalid naming page \"Bad\" and priority", err)
	}
	projects, _ := db.Projects.Projects(ctx, 1)
	if len(projects) != 0 {
		t.Errorf("a refused import left %d projects", len(projects))
	}
}

// TestDocumentRoundTrip imports a document, dumps it, imports the dump and
// dumps again: both dumps and the original must describe the same plan.
func TestDocumentRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	f, err := os.Open("testdata/acme.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	orig, err := site.ParseDocument(f)
	if err != nil {
		t.Fatal(err)
	}
	orig.Project.SitemapLocation = "https://www.acme.example/sitemaps/"
	id, err := db.Projects.ImportDocument(ctx, 1, orig)
	if err != nil {
		t.Fatal(err)
	}
	dump1, err := db.Projects.Document(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := dump1.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	again, err := site.ParseDocument(&buf)
	if err != nil {
		t.Fatalf("dump does not parse: %v", err)
	}
	id2, err := db.Projects.ImportDocument(ctx, 1, again)
	if err != nil {
		t.Fatal(err)
	}
	dump2, _ := db.Projects.Document(ctx, id2)
	want := canonical(orig)
	for i, d := range []*site.Document{dump1, dump2} {
		if got := canonical(d); got != want {
			t.Errorf("dump %d differs from the imported document:\n got %s\nwant %s", i+1, got, want)
		}
	}
}

// canonical renders a document with defaults filled and keys replaced by
// titles, so equivalent documents compare equal.
func canonical(d *site.Document) string {
	titles := map[string]string{}
	var walk func([]*site.DocPage, bool) []map[string]any
	walk = func(list []*site.DocPage, root bool) []map[string]any {
		var out []map[string]any
		for _, dp := range list {
			titles[dp.Key] = dp.Title
			p := dp.ToPage()
			if !root {
				p.Placement = ""
			}
			out = append(out, map[string]any{"page": p, "children": walk(dp.Children, false)})
		}
		return out
	}
	pages := walk(d.Pages, true)
	var links []string
	for _, l := range d.Links {
		links = append(links, titles[l.From]+"->"+titles[l.To]+":"+l.Label)
	}
	b, _ := json.Marshal(map[string]any{"project": d.Project.ToProject(), "pages": pages, "links": links})
	return string(b)
}

// TestOutlineExportsTheSame: an export streamed from the database
// (Outline) writes the files an export of the whole tree writes, byte for
// byte, for the whole plan, a section and its leaves only, after moves
// that put the pages out of the order they were stored in; a section
// that is not there is not found before anything is written.
func TestOutlineExportsTheSame(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	f, _ := os.Open("testdata/acme.json")
	defer f.Close()
	d, err := site.ParseDocument(f)
	if err != nil {
		t.Fatal(err)
	}
	id, err := db.Projects.ImportDocument(ctx, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	full, _ := db.Pages.Tree(ctx, id)
	var about, contact, team int64
	full.Walk(func(p *site.Page, _ int) bool {
		switch p.Title {
		case "About us":
			about = p.ID
		case "Contact":
			contact = p.ID
		case "Team":
			team = p.ID
		}
		return true
	})
	if err := db.Pages.MovePage(ctx, contact, about, site.PlacementMain, 0); err != nil { // now before Team
		t.Fatal(err)
	}
	p := site.NewPage("Extra")
	p.ProjectID, p.ParentID, p.Notes, p.Assignee = id, team, "a note, \"quoted\"\non two lines", "Ana"
	if err := db.Pages.CreatePage(ctx, &p); err != nil {
		t.Fatal(err)
	}
	full, _ = db.Pages.Tree(ctx, id)
	outline, err := db.Pages.Outline(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// The fields no export writes come as the tree has them too.
	fields := func(p *site.Page) string {
		return fmt.Sprintf("%q %v %q %q %q %q", p.Path, site.FormatPriority(*cmp.Or(p.Priority, new(float64))), p.Changefreq, p.Lastmod, p.Assignee, p.Notes)
	}
	if err := outline.Walk(0, func(p *site.Page, _ string, _ int) error {
		if got, want := fields(p), fields(full.Page(p.ID)); got != want {
			t.Errorf("page %d from the outline: %s, want %s", p.ID, got, want)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []export.Config{
		{Gzip: true, BySection: true},
		{MaxURLs: 2, FooterDepth: 1},
		{Options: export.Options{Section: about, LeavesOnly: true}},
	} {
		a, b := &export.Memory{}, &export.Memory{}
		ra, err := export.Export(a, export.TreeSource(full), cfg)
		if err != nil {
			t.Fatal(err)
		}
		rb, err := export.Export(b, outline, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Names) != len(b.Names) || len(a.Names) < 5 || fmt.Sprint(ra) != fmt.Sprint(rb) {
			t.Fatalf("%+v: files %v vs %v, reports %v vs %v", cfg, a.Names, b.Names, ra, rb)
		}
		for name, buf := range a.Files {
			if !bytes.Equal(buf.Bytes(), b.Files[name].Bytes()) {
				t.Errorf("%+v: %s differs between the tree and the outline:\n%s\n%s", cfg, name, buf, b.Files[name])
			}
		}
	}
	out := &export.Memory{}
	if _, err := export.Export(out, outline, export.Config{Options: export.Options{Section: 999_999}}); site.ErrorCode(err) != site.ENotFound || len(out.Names) != 0 {
		t.Errorf("a section not there: %v, files %v", err, out.Names)
	}
}

// TestOutlineRows: the outline comes a stretch at a time, and going on
// from where each stretch says gives every row of the open branches
// once, in outline order, and no other project's.
func TestOutlineRows(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	p, ids := newProject(t, db, "A\n  A1\n    A1a\n    A1b\n  A2\nB\n  B1\n    B1a\nC\n  C1\nD")
	newProject(t, db, "X\n  X1")
	tr, err := db.Pages.Tree(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []int{1, 2, 3} {
		var want []string
		tr.Walk(func(pg *site.Page, depth int) bool {
			want = append(want, pg.Title)
			return depth < level
		})
		open := func(_ *site.Page, depth int) bool { return depth < level }
		for _, limit := range []int{1, 2, 3, 100} {
			// rows is the list from goes on with, as the page ends up
			// once every "more" row has been loaded in its place.
			var rows func(from site.OutlineFrom) []string
			rows = func(from site.OutlineFrom) []string {
				pages, more, err := db.Pages.OutlineRows(ctx, p.ID, from, open, limit)
				if err != nil || len(pages) > limit {
					t.Fatalf("level %d, %d rows from %+v: %d pages, %v", level, limit, from, len(pages), err)
				}
				part := site.NewTree(*p, pages)
				var out []string
				var list func(parent int64)
				list = func(parent int64) {
					for _, pg := range part.Children(parent) {
						out = append(out, pg.Title)
						list(pg.ID)
					}
					for _, m := range more {
						if m.Parent == parent {
							out = append(out, rows(m)...)
						}
					}
				}
				list(from.Parent)
				return out
			}
			got := rows(site.OutlineFrom{Placement: site.PlacementMain, Depth: 1})
			if !slices.Equal(got, want) {
				t.Errorf("level %d, %d rows at a time: %v, want %v", level, limit, got, want)
			}
		}
	}

	// A list goes on after a page that has since moved away: nothing.
	if err := db.Pages.MovePage(ctx, ids["A1"], ids["C"], site.PlacementMain, 0); err != nil {
		t.Fatal(err)
	}
	never := func(*site.Page, int) bool { return false }
	pages, more, err := db.Pages.OutlineRows(ctx, p.ID, site.OutlineFrom{Parent: ids["A"], Placement: site.PlacementMain, After: ids["A1"], Depth: 2}, never, 10)
	if err != nil || len(pages) != 0 || len(more) != 0 {
		t.Errorf("going on after a page moved away: %d pages, %v, %v", len(pages), more, err)
	}
	pages, _, err = db.Pages.OutlineRows(ctx, p.ID, site.OutlineFrom{Parent: ids["C"], Placement: site.PlacementMain, After: ids["A1"], Depth: 2}, never, 10)
	if err != nil || len(pages) != 1 || pages[0].Title != "C1" || pages[0].ChildCount != 0 {
		t.Errorf("C's children after A1: %+v, %v", pages, err)
	}
	// A root moved to the footer: the main roots after it are none.
	if err := db.Pages.MovePage(ctx, ids["B"], 0, site.PlacementFooter, 0); err != nil {
		t.Fatal(err)
	}
	pages, _, err = db.Pages.OutlineRows(ctx, p.ID, site.OutlineFrom{Placement: site.PlacementMain, After: ids["B"], Depth: 1}, never, 10)
	if err != nil || len(pages) != 0 {
		t.Errorf("the main roots after a root now in the footer: %d pages, %v", len(pages), err)
	}
}

// TestImportInChunks: a large import is written a chunk at a time into a
// project nobody sees until it is complete; other writes go on between
// chunks; an import that fails leaves nothing; one a crash left behind is
// removed when the database is opened again.
func TestImportInChunks(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	other, _ := newProject(t, db, "Elsewhere")
	doc := sitegen.Document("Big", 4, 10, 299) // 12,045 pages: three chunks
	defer func(n int) { importChunk = n }(importChunk)
	importChunk = 5000
	chunks := 0
	importChunkDone = func(id int64) {
		chunks++
		if _, err := db.Projects.Project(ctx, id); site.ErrorCode(err) != site.ENotFound {
			t.Errorf("chunk %d: the importing project is visible: %v", chunks, err)
		}
		if _, _, err := db.Projects.ProjectWithPalette(ctx, id); site.ErrorCode(err) != site.ENotFound {
			t.Errorf("chunk %d: the importing project is visible with its palette: %v", chunks, err)
		}
		if list, _ := db.Projects.Projects(ctx, 1); len(list) != 1 {
			t.Errorf("chunk %d: the team lists %d projects, want only the finished one", chunks, len(list))
		}
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		pg := site.NewPage("Edit " + strconv.Itoa(chunks))
		pg.ProjectID, pg.Position = other.ID, -1
		if err := db.Pages.CreatePage(wctx, &pg); err != nil {
			t.Errorf("chunk %d: another project's edit waits: %v", chunks, err)
		}
	}
	defer func() { importChunkDone = nil }()
	id, err := db.Projects.ImportDocument(ctx, 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	if chunks < 3 {
		t.Errorf("%d chunks, want 3", chunks)
	}
	if p, err := db.Projects.Project(ctx, id); err != nil || p.PageCount != doc.CountPages() {
		t.Fatalf("after the import: %+v, %v", p, err)
	}
	checkSlugs(t, db)
	checkForeignKeys(t, db)

	// Failing in the middle: nothing is left.
	cctx, cancel := context.WithCancel(ctx)
	importChunkDone = func(int64) { cancel() }
	if _, err := db.Projects.ImportDocument(cctx, 1, doc); err == nil {
		t.Fatal("an import cancelled after its first chunk succeeded")
	}
	var n int
	db.w.QueryRow(`SELECT count(*) FROM projects WHERE importing = 1`).Scan(&n)
	var pages int
	db.w.QueryRow(`SELECT count(*) FROM pages WHERE project_id NOT IN (SELECT id FROM projects)`).Scan(&pages)
	if n != 0 || pages != 0 {
		t.Errorf("a failed import left %d projects and %d pages", n, pages)
	}
	checkSlugs(t, db)
	checkForeignKeys(t, db)

	// A crash: an unfinished import goes at once when the process that
	// wrote it is gone, or it is this process's and no import of it owns
	// it; one untouched for ten minutes goes whoever wrote it. One that
	// a running process writes stays, and so does one of this process's
	// imports.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.w.Exec(`INSERT INTO projects (team_id, name, base_url, importing, import_owner, updated_at) VALUES
		(1, 'crashed', 'https://c.example/', 1, '', '2020-01-01T00:00:00.000Z'),
		(1, 'running', 'https://r.example/', 1, '', ?3),
		(1, 'died', 'https://d.example/', 1, ?1, ?3),
		(1, 'another process', 'https://a.example/', 1, '1-x', ?3),
		(1, 'orphan of ours', 'https://o.example/', 1, ?2, ?3)`,
		strconv.Itoa(dead.Process.Pid)+"-x", db.owner, fmtTime(time.Now())); err != nil {
		t.Fatal(err)
	}
	ours, err := db.Projects.BeginImport(ctx, 1, site.Project{Name: "ours", BaseURL: "https://ours.example/"})
	if err != nil {
		t.Fatal(err)
	}
	// On PostgreSQL a process id names no process of another machine's
	// server: the dead one's import waits for its ten minutes.
	removed, kept := 3, "running,another process,ours"
	if db.pg {
		removed, kept = 2, "running,died,another process,ours"
	}
	if n, err := db.Projects.RemoveLeftovers(ctx); err != nil || n != removed {
		t.Fatalf("removed %d, %v; want %d", n, err, removed)
	}
	var names []string
	rows, _ := db.w.Query(`SELECT name FROM projects WHERE importing = 1 ORDER BY id`)
	for rows.Next() {
		var s string
		rows.Scan(&s)
		names = append(names, s)
	}
	rows.Close()
	if got, want := strings.Join(names, ","), kept; got != want {
		t.Errorf("unfinished imports after the clean-up: %v, want %v", got, want)
	}
	if _, err := ours.Add(1, site.NewPage("Home")); err != nil {
		t.Fatal(err)
	}
	if _, err := ours.Commit(); err != nil {
		t.Errorf("this process's import after the clean-up: %v", err)
	}
	checkSlugs(t, db)
	checkForeignKeys(t, db)
}

// TestImportAcrossChunks: a chunk is written while the next is added,
// and what joins pages of different chunks still comes out right: each
// page under its parent, links between chunks, and a URL taken by a
// page of a chunk written before, refused naming that page.
func TestImportAcrossChunks(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	defer func(n int) { importChunk = n }(importChunk)
	importChunk = 5000
	doc := func(lastPath string) *site.Document {
		d := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "Chunks", BaseURL: "https://c.example/"}}
		home := &site.DocPage{Key: "home", Title: "Home", Slug: new(string)}
		for s := range 3 {
			sec := &site.DocPage{Key: "s" + strconv.Itoa(s), Title: "Section " + strconv.Itoa(s)}
			for i := range 4000 {
				sec.Children = append(sec.Children, &site.DocPage{Key: fmt.Sprintf("p%d-%d", s, i), Title: fmt.Sprintf("Page %d-%d", s, i)})
			}
			home.Children = append(home.Children, sec)
		}
		last := home.Children[2].Children[3999]
		if lastPath != "" {
			last.Path = &lastPath
		}
		d.Pages = []*site.DocPage{home}
		d.Links = []site.DocLink{{From: "p2-3999", To: "p0-7"}, {From: "p0-7", To: "p1-3000"}, {From: "home", To: "p2-3999"}}
		return d
	}
	id, err := db.Projects.ImportDocument(ctx, 1, doc(""))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := db.Pages.Tree(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	titles := map[int64]string{}
	tr.Walk(func(p *site.Page, _ int) bool {
		titles[p.ID] = p.Title
		var s, i int
		switch parent := tr.Page(p.ParentID); {
		case p.Title == "Home":
		case fmt.Sprintf("Section %d", p.Position) == p.Title:
			if parent == nil || parent.Title != "Home" {
				t.Errorf("%s is not under Home", p.Title)
			}
		default:
			if n, _ := fmt.Sscanf(p.Title, "Page %d-%d", &s, &i); n != 2 || i != p.Position || parent == nil || parent.Title != "Section "+strconv.Itoa(s) {
				t.Errorf("%s is at %d under %v", p.Title, p.Position, parent)
			}
		}
		return true
	})
	if len(titles) != 12004 {
		t.Errorf("%d pages, want 12,004", len(titles))
	}
	links, _ := db.Links.Links(ctx, id)
	var got []string
	for _, l := range links {
		got = append(got, titles[l.FromID]+" -> "+titles[l.ToID])
	}
	slices.Sort(got)
	if want := "Home -> Page 2-3999, Page 0-7 -> Page 1-3000, Page 2-3999 -> Page 0-7"; strings.Join(got, ", ") != want {
		t.Errorf("links: %s; want %s", strings.Join(got, ", "), want)
	}

	_, err = db.Projects.ImportDocument(ctx, 1, doc("/section-0/page-0-7"))
	if site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "“Page 0-7”") {
		t.Errorf("the last page taking a URL of the first chunk: %v, want EInvalid naming Page 0-7", err)
	}
	var n int
	db.w.QueryRow(`SELECT count(*) FROM projects`).Scan(&n)
	if n != 1 {
		t.Errorf("%d projects after a failed import, want the one before", n)
	}
	checkSlugs(t, db)
	checkForeignKeys(t, db)
}

// TestImportKeepsEachField: an import writes most pages without the
// columns that are seldom set (defaultRest); a page with any one of
// them set, among plain pages, keeps it, as does every other field.
func TestImportKeepsEachField(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	no, prio := false, 0.8
	set := []func(*site.DocPage){
		func(p *site.DocPage) { path := "/elsewhere/" + p.Title; p.Path = &path },
		func(p *site.DocPage) { p.Type = "landing" },
		func(p *site.DocPage) { p.Status = site.Statuses[len(site.Statuses)-1] },
		func(p *site.DocPage) { p.Assignee = "Ana" },
		func(p *site.DocPage) { p.Notes = "Keep the old copy." },
		func(p *site.DocPage) { p.InSitemap = &no },
		func(p *site.DocPage) { p.InHTMLSitemap = &no },
		func(p *site.DocPage) { p.Priority = &prio },
		func(p *site.DocPage) { p.Changefreq = "weekly" },
		func(p *site.DocPage) { p.Lastmod = "2026-11-01T10:00:00+01:00" },
		func(p *site.DocPage) { p.Kind = site.KindGroup },
		func(p *site.DocPage) { slug := "typed-" + strings.TrimPrefix(p.Title, "Page "); p.Slug = &slug },
	}
	home := &site.DocPage{Title: "Home", Slug: new(string)}
	for i := range 250 { // two statements of 100 pages, then 52 of one
		pg := &site.DocPage{Title: "Page " + strconv.Itoa(i)}
		if j := i % 100; j < len(set) {
			set[j](pg)
		}
		home.Children = append(home.Children, pg)
	}
	footer := &site.DocPage{Title: "Imprint", Placement: site.PlacementFooter}
	d := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "Fields", BaseURL: "https://f.example/"}, Pages: []*site.DocPage{footer, home}}
	id, err := db.Projects.ImportDocument(ctx, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(ctx, id)
	got := map[string]site.Page{}
	tr.Walk(func(p *site.Page, _ int) bool {
		got[p.Title] = *p
		return true
	})
	fields := func(p site.Page) site.Page {
		p.ID, p.ProjectID, p.ParentID, p.Position, p.Version, p.ChildCount = 0, 0, 0, 0, 0, 0
		return p
	}
	for _, dp := range append([]*site.DocPage{footer, home}, home.Children...) {
		want := dp.ToPage()
		if g := fields(got[dp.Title]); !reflect.DeepEqual(g, fields(want)) {
			t.Errorf("%s:\n got %+v\nwant %+v", dp.Title, g, fields(want))
		}
	}
}

// TestPageCountFollowsWrites: the page count kept on the project follows
// every write that adds or removes pages.
func TestPageCountFollowsWrites(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	p, ids := newProject(t, db, "Shop\n  About\n    Team\n    Jobs\n  Blog\nContact") // and the home page a project starts with
	count := func(step string, want int) {
		t.Helper()
		got, err := db.Projects.Project(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.PageCount != want {
			t.Errorf("after %s: PageCount = %d, want %d", step, got.PageCount, want)
		}
	}
	count("the outline", 7)
	post := site.NewPage("Post")
	post.ProjectID, post.ParentID, post.Position = p.ID, ids["Blog"], -1
	if err := db.Pages.CreatePage(ctx, &post); err != nil {
		t.Fatal(err)
	}
	count("adding a page", 8)
	if _, err := db.Pages.DuplicatePage(ctx, ids["About"]); err != nil {
		t.Fatal(err)
	}
	count("duplicating a branch of 3", 11)
	if _, err := db.Pages.DeletePage(ctx, ids["About"]); err != nil {
		t.Fatal(err)
	}
	count("deleting a branch of 3", 8)
	other, _ := newProject(t, db, "Elsewhere")
	count("another project", 8)
	if err := db.Projects.DeleteProject(ctx, other.ID); err != nil {
		t.Fatal(err)
	}
	count("deleting another project", 8)
	other, _ = newProject(t, db, "Elsewhere\n  Again")
	if _, err := db.w.Exec(`DELETE FROM projects WHERE id = ?`, other.ID); err != nil {
		t.Fatal(err)
	}
	count("another project's pages going with it", 8)
	checkSlugs(t, db)
}

// TestEveryWriteBumpsTheVersion: a new project is at version 1, and each
// write to it bumps the version by one, so that whatever is keyed by the
// version (the server's drawings) is never served stale. Adding a page
// once did not bump it: the editor's diagram left new pages out.
func TestEveryWriteBumpsTheVersion(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	p, ids := newProject(t, db, "Home\n  Pricing\n  About")
	version := func() int64 {
		t.Helper()
		q, err := db.Projects.Project(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		return q.Version
	}
	fresh := &site.Project{TeamID: 1, Name: "Fresh", BaseURL: "https://example.com/"}
	if err := db.Projects.CreateProject(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	if q, _ := db.Projects.Project(ctx, fresh.ID); q.Version != 1 {
		t.Errorf("a new project is at version %d, want 1", q.Version)
	}
	writes := []struct {
		name  string
		write func() error
	}{
		{"create a page", func() error {
			pg := site.NewPage("FAQ")
			pg.ProjectID, pg.ParentID, pg.Position = p.ID, ids["Pricing"], -1
			return db.Pages.CreatePage(ctx, &pg)
		}},
		{"rename a page", func() error {
			pg, err := db.Pages.Page(ctx, ids["About"])
			if err != nil {
				return err
			}
			_, err = db.Pages.RenamePage(ctx, pg.ID, "About us", pg.Version)
			return err
		}},
		{"move a page", func() error { return db.Pages.MovePage(ctx, ids["About"], ids["Pricing"], "", 0) }},
		{"link two pages", func() error {
			return db.Links.AddLink(ctx, &site.Link{ProjectID: p.ID, FromID: ids["Home"], ToID: ids["Pricing"]})
		}},
		{"duplicate a page", func() error { _, err := db.Pages.DuplicatePage(ctx, ids["Pricing"]); return err }},
		{"delete a page", func() error { _, err := db.Pages.DeletePage(ctx, ids["About"]); return err }},
	}
	for _, w := range writes {
		before := version()
		if err := w.write(); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		if got := version(); got != before+1 {
			t.Errorf("%s: version %d, then %d; want %d", w.name, before, got, before+1)
		}
	}
}

// TestImportPages: pages given in outline order land under the last page
// one level up, in order; a derived slug another page's URL has is
// numbered; a page out of order, a typed URL taken, a utility page below
// the roots or a bad field ends the import with a message naming the
// page, and leaves nothing behind.
func TestImportPages(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	pr := site.Project{Name: "Stream", BaseURL: "https://s.example/"}
	page := func(title, slug string) site.Page {
		p := site.NewPage(title)
		if slug != "-" {
			p.Slug, p.SlugAuto = slug, false
		}
		return p
	}
	type step struct {
		depth int
		page  site.Page
	}
	seq := func(steps ...step) iter.Seq2[int, site.Page] {
		return func(yield func(int, site.Page) bool) {
			for _, s := range steps {
				if !yield(s.depth, s.page) {
					return
				}
			}
		}
	}
	util := page("Login", "login")
	util.Placement = site.PlacementUtility
	id, err := db.Projects.ImportPages(ctx, 1, pr, seq(
		step{1, page("Home", "")},
		step{2, page("FAQ", "-")},
		step{3, page("Shipping", "-")},
		step{2, page("FAQ", "-")}, // faq-2
		step{1, util},
	))
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(ctx, id)
	var got []string
	tr.Walk(func(p *site.Page, depth int) bool {
		got = append(got, strings.Repeat(">", depth-1)+tr.URL(p.ID))
		return true
	})
	want := "https://s.example/ >https://s.example/faq >>https://s.example/faq/shipping >https://s.example/faq-2 https://s.example/login"
	if strings.Join(got, " ") != want {
		t.Errorf("imported\n%s\nwant\n%s", strings.Join(got, " "), want)
	}

	bad := page("Bad", "bad")
	bad.Changefreq = "sometimes"
	for _, c := range []struct {
		name  string
		pages iter.Seq2[int, site.Page]
		msg   string
	}{
		{"out of order", seq(step{1, page("Home", "")}, step{3, page("Deep", "deep")}), "“Deep” comes at depth 3 after a page at depth 1"},
		{"typed URL taken", seq(step{1, page("Home", "")}, step{2, page("A", "a")}, step{2, page("Also A", "a")}), "“Also A” would have the URL https://s.example/a, which “A” already has"},
		{"typed URL taken a chunk before", seq(step{1, page("Home", "")}, step{2, page("A", "a")}, step{2, page("B", "b")}, step{2, page("Also A", "a")}), "which “A” already has"},
		{"utility below a root", seq(step{1, page("Home", "")}, step{2, util}), "only root pages can be placed"},
		{"bad field", seq(step{1, page("Home", "")}, step{2, bad}), "“Bad”: changefreq"},
		{"no pages", seq(), "no pages"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func(n int) { importChunk = n }(importChunk)
			importChunk = 2 // "A" is written before "Also A" comes
			before, _ := db.Projects.Projects(ctx, 1)
			_, err := db.Projects.ImportPages(ctx, 1, pr, c.pages)
			if site.ErrorCode(err) != site.EInvalid || !strings.Contains(site.ErrorMessage(err), c.msg) {
				t.Errorf("got %v, want EInvalid with %q", err, c.msg)
			}
			after, _ := db.Projects.Projects(ctx, 1)
			var n int
			db.w.QueryRow(`SELECT count(*) FROM projects WHERE importing = 1`).Scan(&n)
			if len(after) != len(before) || n != 0 {
				t.Errorf("a failed import left a project behind (%d listed, %d importing)", len(after)-len(before), n)
			}
		})
	}
}
