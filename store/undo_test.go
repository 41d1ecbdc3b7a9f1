package store

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/site"
)

// acmeFor imports testdata/acme.json and returns its project, the ids of
// its pages by title, and contexts in which Anna and Bob (editors) act.
func acmeFor(t *testing.T, db *Store) (int64, map[string]int64, context.Context, context.Context) {
	t.Helper()
	ctx := context.Background()
	doc, err := site.ReadDocumentFile("testdata/acme.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.Projects.ImportDocument(ctx, 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := db.Pages.Tree(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { ids[p.Title] = p.ID; return true })
	as := func(email, name string) context.Context {
		u, _, err := db.Accounts.AddUser(ctx, email, name, pw, "1", site.RoleEditor)
		if err != nil {
			t.Fatal(err)
		}
		return site.WithViewer(ctx, site.Viewer{UserID: u.ID, Name: name, Access: site.AccessEdit})
	}
	return pid, ids, as("anna@agency.example", "Anna"), as("bob@agency.example", "Bob")
}

// planState is everything an undo must give back: the project, every
// page by id with its fields and place, the links, and the comments.
func planState(t *testing.T, db *Store, pid int64) string {
	t.Helper()
	checkPositions(t, db)
	ctx := context.Background()
	doc, err := db.Projects.Document(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	var comments []string
	tr, _ := db.Pages.Tree(ctx, pid)
	tr.Walk(func(p *site.Page, _ int) bool {
		cs, err := db.Comments.Comments(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			comments = append(comments, c.PageTitle+": "+c.Body)
			for _, r := range c.Replies {
				comments = append(comments, c.PageTitle+": re: "+r.Body)
			}
		}
		return true
	})
	b, err := json.MarshalIndent(map[string]any{"doc": doc, "comments": comments}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// idOf finds a page of the plan by its title (0 if none).
func idOf(t *testing.T, db *Store, pid int64, title string) int64 {
	t.Helper()
	tr, err := db.Pages.Tree(context.Background(), pid)
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	tr.Walk(func(p *site.Page, _ int) bool {
		if p.Title == title {
			id = p.ID
		}
		return true
	})
	return id
}

func sameState(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Fatalf("%s: the plan differs.\n got %s\nwant %s", what, got, want)
	}
}

// TestEveryChangeInverts applies each kind of change, undoes it, redoes
// it and undoes it again: undo gives back the plan before, redo the plan
// after, to the ids, positions, links and comments.
func TestEveryChangeInverts(t *testing.T) {
	cases := []struct {
		name string
		verb string
		do   func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error
	}{
		{"create under a page", "create", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			p := site.NewPage("Careers")
			p.ProjectID, p.ParentID, p.Position = pid, ids["About us"], 0
			return db.Pages.CreatePage(ctx, &p)
		}},
		{"create with a numbered slug", "create", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			p := site.NewPage("Contact")
			p.ProjectID, p.ParentID, p.Position = pid, ids["Home"], 1
			return db.Pages.CreatePage(ctx, &p)
		}},
		{"rename", "rename", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			_, err := db.Pages.RenamePage(ctx, ids["Pricing"], "Plans", 1)
			return err
		}},
		{"edit fields", "edit", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			p, _ := db.Pages.Page(ctx, ids["Contact"])
			p.Status, p.Notes, p.Priority, p.Kind = "live", "new form", nil, site.KindPlaceholder
			return db.Pages.UpdatePage(ctx, &p)
		}},
		{"move under another page", "move", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			return db.Pages.MovePage(ctx, ids["Pricing"], ids["About us"], "", 0)
		}},
		{"move up among siblings", "move", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			return db.Pages.MovePage(ctx, ids["Contact"], ids["Home"], "", 1)
		}},
		{"move a root to the footer", "move", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			return db.Pages.MovePage(ctx, ids["Login"], 0, site.PlacementFooter, 0)
		}},
		{"delete a branch with links and comments", "delete", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			_, err := db.Pages.DeletePage(ctx, ids["Products"])
			return err
		}},
		{"duplicate", "duplicate", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			_, err := db.Pages.DuplicatePage(ctx, ids["Products"])
			return err
		}},
		{"paste", "paste", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			items, _ := site.ParseOutline("News\n  2026\n  2025\nEvents")
			_, err := db.Pages.InsertOutline(ctx, pid, ids["Home"], items)
			return err
		}},
		{"add a link", "link", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			return db.Links.AddLink(ctx, &site.Link{ProjectID: pid, FromID: ids["Team"], ToID: ids["Contact"], Label: "join us"})
		}},
		{"remove a link", "unlink", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			ls, _ := db.Links.Links(ctx, pid)
			return db.Links.DeleteLink(ctx, pid, ls[0].ID)
		}},
		{"settings", "settings", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			p, _ := db.Projects.Project(ctx, pid)
			p.TrailingSlash, p.DefaultChangefreq = true, "monthly"
			return db.Projects.UpdateProject(ctx, &p)
		}},
		{"rename the project", "settings", func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
			return db.Projects.RenameProject(ctx, pid, "Acme 2027")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := openTest(t)
			pid, ids, anna, _ := acmeFor(t, db)
			c := site.Comment{ProjectID: pid, PageID: ids["Pricing"], Author: "Client", Body: "Too expensive?"}
			if err := db.Comments.AddComment(context.Background(), &c, 0); err != nil {
				t.Fatal(err)
			}
			r := site.Comment{ProjectID: pid, PageID: ids["Pricing"], ParentID: c.ID, Author: "Anna", Body: "We will see."}
			if err := db.Comments.AddComment(context.Background(), &r, 0); err != nil {
				t.Fatal(err)
			}
			before := planState(t, db, pid)
			if err := tc.do(anna, db, pid, ids); err != nil {
				t.Fatal(err)
			}
			after := planState(t, db, pid)
			if after == before {
				t.Fatal("the change changed nothing")
			}
			ch, err := db.History.Undo(anna, pid)
			if err != nil {
				t.Fatal(err)
			}
			if ch.Verb != tc.verb || ch.Author != "Anna" {
				t.Errorf("undid %q by %q, want %q by Anna", ch.Verb, ch.Author, tc.verb)
			}
			sameState(t, "after undo", planState(t, db, pid), before)
			if _, err := db.History.Redo(anna, pid); err != nil {
				t.Fatal(err)
			}
			sameState(t, "after redo", planState(t, db, pid), after)
			if _, err := db.History.Undo(anna, pid); err != nil {
				t.Fatal(err)
			}
			sameState(t, "after a second undo", planState(t, db, pid), before)
			if _, err := db.History.Undo(anna, pid); site.ErrorCode(err) != site.EInvalid {
				t.Errorf("a second undo with nothing left: got %v, want invalid", err)
			}
		})
	}
}

// TestUndoConflicts: an undo meets what others did since. A field someone
// else changed is a conflict naming them, and nothing is applied; a field
// nobody touched is undone and theirs are kept.
func TestUndoConflicts(t *testing.T) {
	ctx := context.Background()
	t.Run("other fields are kept", func(t *testing.T) {
		db := openTest(t)
		pid, ids, anna, bob := acmeFor(t, db)
		if _, err := db.Pages.RenamePage(anna, ids["Pricing"], "Plans", 1); err != nil {
			t.Fatal(err)
		}
		p, _ := db.Pages.Page(ctx, ids["Pricing"])
		p.Status = "review"
		if err := db.Pages.UpdatePage(bob, &p); err != nil {
			t.Fatal(err)
		}
		if _, err := db.History.Undo(anna, pid); err != nil {
			t.Fatal(err)
		}
		got, _ := db.Pages.Page(ctx, ids["Pricing"])
		if got.Title != "Pricing" || got.Slug != "pricing" || got.Status != "review" {
			t.Errorf("got %q /%s %s, want Pricing /pricing with Bob's review", got.Title, got.Slug, got.Status)
		}
	})
	conflicts := []struct {
		name  string
		anna  func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error
		bob   func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error
		words []string // in the error
	}{
		{"renamed again",
			func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
				_, err := db.Pages.RenamePage(ctx, ids["Pricing"], "Plans", 1)
				return err
			},
			func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
				_, err := db.Pages.RenamePage(ctx, ids["Pricing"], "Offers", 2)
				return err
			},
			[]string{"Nothing was undone", "Bob renamed “Plans” to “Offers”"}},
		{"a page added under a new page",
			func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
				p := site.NewPage("Careers")
				p.ProjectID, p.ParentID = pid, ids["Home"]
				return db.Pages.CreatePage(ctx, &p)
			},
			func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
				careers := idOf(t, db, pid, "Careers")
				p := site.NewPage("Jobs")
				p.ProjectID, p.ParentID = pid, careers
				return db.Pages.CreatePage(ctx, &p)
			},
			[]string{"“Jobs” was added under a page this would delete", "Bob added “Jobs” under “Careers”"}},
		{"the parent of a deleted page deleted",
			func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
				_, err := db.Pages.DeletePage(ctx, ids["Pricing"])
				return err
			},
			func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
				_, err := db.Pages.DeletePage(ctx, ids["Products"])
				return err
			},
			[]string{"“Products” was deleted", "Bob deleted “Products”"}},
		{"a moved page moved again",
			func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
				return db.Pages.MovePage(ctx, ids["Pricing"], ids["About us"], "", 0)
			},
			func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
				return db.Pages.MovePage(ctx, ids["Pricing"], ids["Home"], "", 0)
			},
			[]string{"“Pricing” has changed", "Bob moved “Pricing” under “Home”"}},
		{"a link to a new page",
			func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
				p := site.NewPage("Careers")
				p.ProjectID, p.ParentID = pid, ids["Home"]
				return db.Pages.CreatePage(ctx, &p)
			},
			func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
				careers := idOf(t, db, pid, "Careers")
				return db.Links.AddLink(ctx, &site.Link{ProjectID: pid, FromID: ids["Team"], ToID: careers})
			},
			[]string{"“Team” was linked to “Careers”", "Bob linked “Team” to “Careers”"}},
		{"a URL taken since",
			func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
				_, err := db.Pages.RenamePage(ctx, ids["Contact"], "Get in touch", 1)
				return err
			},
			func(ctx context.Context, db *Store, pid int64, ids map[string]int64) error {
				p := site.NewPage("Contact")
				p.ProjectID, p.ParentID, p.Slug, p.SlugAuto = pid, ids["Home"], "contact", false
				return db.Pages.CreatePage(ctx, &p)
			},
			[]string{"Nothing was undone", "“Contact”"}},
	}
	for _, tc := range conflicts {
		t.Run(tc.name, func(t *testing.T) {
			db := openTest(t)
			pid, ids, anna, bob := acmeFor(t, db)
			if err := tc.anna(anna, db, pid, ids); err != nil {
				t.Fatal(err)
			}
			if err := tc.bob(bob, db, pid, ids); err != nil {
				t.Fatal(err)
			}
			before := planState(t, db, pid)
			_, err := db.History.Undo(anna, pid)
			wantCode(t, err, site.EConflict, "undo")
			for _, w := range tc.words {
				if !strings.Contains(site.ErrorMessage(err), w) {
					t.Errorf("the message %q does not say %q", site.ErrorMessage(err), w)
				}
			}
			sameState(t, "after a refused undo", planState(t, db, pid), before)
		})
	}
}

// TestUndoIsPerAuthor: undo takes the caller's own last change, whatever
// others did after it; redo follows; a new change ends the redo.
func TestUndoIsPerAuthor(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	pid, ids, anna, bob := acmeFor(t, db)
	if _, err := db.Pages.RenamePage(anna, ids["Pricing"], "Plans", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pages.RenamePage(bob, ids["Team"], "People", 1); err != nil {
		t.Fatal(err)
	}
	ch, err := db.History.Undo(anna, pid)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Summary != "renamed “Pricing” to “Plans”" {
		t.Errorf("Anna undid %q", ch.Summary)
	}
	if p, _ := db.Pages.Page(ctx, ids["Team"]); p.Title != "People" {
		t.Errorf("Bob's rename went: %q", p.Title)
	}
	if _, err := db.History.Redo(bob, pid); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("Bob redid Anna's undo: %v", err)
	}
	if _, err := db.Pages.RenamePage(anna, ids["Contact"], "Get in touch", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.Redo(anna, pid); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("redo after a new change: got %v, want invalid", err)
	}
	if p, _ := db.Pages.Page(ctx, ids["Pricing"]); p.Title != "Pricing" {
		t.Errorf("Pricing is %q", p.Title)
	}
}

// TestHistoryWithoutCopies: a hundred renames of a page of a large plan
// add a few kilobytes each to the log, never the plan.
func TestHistoryWithoutCopies(t *testing.T) {
	db := openTest(t)
	p, ids := newProject(t, db, strings.Repeat("Section\n  Page\n  Page\n", 200))
	ctx := site.WithViewer(context.Background(), site.Viewer{Name: "Anna"})
	var id int64
	for _, v := range ids {
		id = v
	}
	for i := range 100 {
		pg, _ := db.Pages.Page(ctx, id)
		if _, err := db.Pages.RenamePage(ctx, id, "Title "+string(rune('A'+i%26))+strings.Repeat("x", i), pg.Version); err != nil {
			t.Fatal(err)
		}
	}
	var n, bytes int
	if err := db.r.QueryRow(`SELECT count(*), sum(length(data)) FROM changes WHERE project_id = ? AND verb = 'rename'`, p.ID).Scan(&n, &bytes); err != nil {
		t.Fatal(err)
	}
	if n != 100 || bytes/n > 1000 {
		t.Errorf("got %d renames of %d bytes each, want 100 of under 1,000", n, bytes/max(n, 1))
	}
}

// TestMigrationKeepsPagesAndNeverReusesIDs opens a database of schema 6
// (made by the release before history), whose largest page id was
// deleted: its pages and links are kept, its pages are listed by slug
// for the URL rule (0009), and new pages never get an id a page had.
func TestMigrationKeepsPagesAndNeverReusesIDs(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	b, err := os.ReadFile("testdata/schema6.db")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pr, err := db.Projects.Project(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	links, _ := db.Links.Links(ctx, 1)
	if pr.PageCount != 11 || len(links) != 2 {
		t.Fatalf("got %d pages and %d links, want 11 and 2", pr.PageCount, len(links))
	}
	// The pages kept before the search index are found (0034, 0035).
	tr, err := db.Pages.Tree(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr.Walk(func(p *site.Page, _ int) bool {
		if found, err := db.Pages.Search(ctx, 1, p.Title, 0, 30); err != nil || len(found) == 0 || found[0].Page.Title != p.Title {
			t.Errorf("search %q after the migration: %+v %v", p.Title, found, err)
		}
		return true
	})
	for _, want := range []int64{13, 14} {
		p := site.NewPage("New")
		p.ProjectID = 1
		if err := db.Pages.CreatePage(ctx, &p); err != nil {
			t.Fatal(err)
		}
		if p.ID != want {
			t.Errorf("new page got id %d, want %d (12 was deleted before the migration)", p.ID, want)
		}
		if _, err := db.Pages.DeletePage(ctx, p.ID); err != nil {
			t.Fatal(err)
		}
	}
	checkSlugs(t, db)
	var n int
	db.w.QueryRow(`SELECT count(*) FROM page_slugs WHERE project_id = 1`).Scan(&n)
	if n != 11 {
		t.Errorf("%d pages listed by slug after the migration, want 11", n)
	}
}

// checkPositions checks the sibling-position invariant of every list of
// pages: positions 0..n-1, each once.
func checkPositions(t *testing.T, db *Store) {
	t.Helper()
	rows, err := db.w.Query(`SELECT project_id, coalesce(parent_id, 0), placement, count(*), min(position), max(position), count(DISTINCT position)
		FROM pages GROUP BY project_id, parent_id, placement
		HAVING min(position) <> 0 OR max(position) <> count(*) - 1 OR count(DISTINCT position) <> count(*)`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var project, parent int64
		var placement string
		var n, lo, hi, distinct int
		if err := rows.Scan(&project, &parent, &placement, &n, &lo, &hi, &distinct); err != nil {
			t.Fatal(err)
		}
		t.Errorf("project %d, under page %d (%s): %d pages at positions %d..%d, %d distinct", project, parent, placement, n, lo, hi, distinct)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
