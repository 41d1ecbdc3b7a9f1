package store

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"siteplan/site"
)

// richDB fills db with a bit of everything: accounts and a session, a
// plan with history, an undo, a version, a comment thread, a share link,
// and a deleted page that had the largest id.
func richDB(t *testing.T, db *Store) (pid, deleted int64, anna context.Context) {
	t.Helper()
	pid, ids, anna, bob := acmeFor(t, db)
	ctx := context.Background()
	if _, err := db.Pages.RenamePage(anna, ids["Pricing"], "Plans", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pages.RenamePage(bob, ids["Team"], "People", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.Undo(bob, pid); err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.CreateVersion(anna, pid, "First draft"); err != nil {
		t.Fatal(err)
	}
	c := site.Comment{ProjectID: pid, PageID: ids["Contact"], Author: "Client", Body: "Add a map?"}
	if err := db.Comments.AddComment(ctx, &c, 0); err != nil {
		t.Fatal(err)
	}
	r := site.Comment{ProjectID: pid, PageID: ids["Contact"], ParentID: c.ID, Author: "Anna", Body: "Yes."}
	if err := db.Comments.AddComment(ctx, &r, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Sharing.CreateShareLink(ctx, &site.ShareLink{ProjectID: pid, Role: "comment"}); err != nil {
		t.Fatal(err)
	}
	u, _, err := db.Accounts.AddUser(ctx, "cy@client.example", "Cy", pw, "1", site.RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Accounts.CreateSession(ctx, u.ID, 1); err != nil {
		t.Fatal(err)
	}
	last := &site.Page{ProjectID: pid, ParentID: ids["Home"], Title: "Gone soon", Slug: "gone-soon", SlugAuto: true,
		Kind: site.KindPage, Placement: site.PlacementMain, Status: "planned", InSitemap: true, Position: -1}
	if err := db.Pages.CreatePage(anna, last); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pages.DeletePage(anna, last.ID); err != nil {
		t.Fatal(err)
	}
	return pid, last.ID, anna
}

// tables is every copied table's rows, as text, in order.
func tables(t *testing.T, db *Store) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, tb := range copyTables {
		rows, err := db.r.Query(`SELECT * FROM ` + tb.name)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals, ptrs := anyRow(len(cols))
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for i, v := range vals {
				if s, ok := v.([]byte); ok {
					v = string(s)
				}
				fmt.Fprintf(&b, "%s=%v ", cols[i], v)
			}
			out[tb.name] = append(out[tb.name], b.String())
		}
		rows.Close()
		slices.Sort(out[tb.name])
	}
	return out
}

// TestCopyThereAndBack: a database copied to a new one (PostgreSQL when
// the tests run on it) and back to a new SQLite file has every row of
// every table as it was, ids included; the copy's next page id comes
// after the deleted one's; its plan works; a database with data is
// refused as a target.
func TestCopyThereAndBack(t *testing.T) {
	ctx := context.Background()
	src, err := Open(filepath.Join(t.TempDir(), "src.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	pid, deleted, anna := richDB(t, src)
	mid := openTest(t)
	if _, err := Copy(ctx, src, mid); err != nil {
		t.Fatal(err)
	}
	back, err := Open(filepath.Join(t.TempDir(), "back.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	copied, err := Copy(ctx, mid, back)
	if err != nil {
		t.Fatal(err)
	}
	want := tables(t, src)
	for name, db := range map[string]*Store{"the copy": mid, "the copy back": back} {
		got := tables(t, db)
		for _, tb := range copyTables {
			if !slices.Equal(got[tb.name], want[tb.name]) {
				t.Errorf("%s: table %s differs:\ngot  %q\nwant %q", name, tb.name, got[tb.name], want[tb.name])
			}
		}
		doc, err := db.Projects.Document(ctx, pid)
		if err != nil || len(doc.Pages) == 0 {
			t.Fatalf("%s: dump: %v", name, err)
		}
		tr, _ := db.Pages.Tree(ctx, pid)
		p := &site.Page{ProjectID: pid, ParentID: tr.Roots(site.PlacementMain)[0].ID, Title: "FAQ", Slug: "faq", SlugAuto: true,
			Kind: site.KindPage, Placement: site.PlacementMain, Status: "planned", InSitemap: true, Position: -1}
		if err := db.Pages.CreatePage(ctx, p); err != nil {
			t.Fatal(err)
		}
		if p.ID <= deleted {
			t.Errorf("%s: a new page got id %d, not after the deleted %d", name, p.ID, deleted)
		}
		// Anna's last change, the deletion, is undone on the copy: the
		// page comes back with its id.
		if _, err := db.History.Undo(anna, pid); err != nil {
			t.Fatalf("%s: undo: %v", name, err)
		}
		if pg, err := db.Pages.Page(ctx, deleted); err != nil || pg.Title != "Gone soon" {
			t.Errorf("%s: the undone deletion gave back %q, %v", name, pg.Title, err)
		}
	}
	var pages int64
	for _, c := range copied {
		if c.Table == "pages" {
			pages = c.Rows
		}
	}
	if pages != int64(len(want["pages"])) {
		t.Errorf("Copy says %d pages, want %d", pages, len(want["pages"]))
	}
	if _, err := Copy(ctx, src, mid); site.ErrorCode(err) != site.EConflict {
		t.Errorf("copy into a database with data: got %v, want conflict", err)
	}
}

// TestBackupWhileWriting: a backup made while pages are being added is
// a database as it was at one moment: its page counts match its pages.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	p, ids := newProject(t, db, "Home")
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			pg := &site.Page{ProjectID: p.ID, ParentID: ids["Home"], Title: fmt.Sprint("Page ", i), Slug: fmt.Sprint("page-", i), SlugAuto: true,
				Kind: site.KindPage, Placement: site.PlacementMain, Status: "planned", InSitemap: true, Position: -1}
			if err := db.Pages.CreatePage(ctx, pg); err != nil {
				t.Error(err)
				return
			}
		}
	})
	path := filepath.Join(t.TempDir(), "backup.db")
	for range 3 {
		if err := Backup(ctx, db, path); err != nil {
			t.Fatal(err)
		}
		b, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var count, rows int
		if err := b.r.QueryRow(`SELECT page_count, (SELECT count(*) FROM pages WHERE project_id = projects.id) FROM projects WHERE id = ?`, p.ID).Scan(&count, &rows); err != nil {
			t.Fatal(err)
		}
		if count != rows || rows == 0 {
			t.Errorf("the backup counts %d pages and has %d", count, rows)
		}
		b.Close()
	}
	close(stop)
	wg.Wait()
}

// TestCopyTablesAreEveryTable: a table a migration adds is copied, or
// said not to be: copyTables and the schema agree.
func TestCopyTablesAreEveryTable(t *testing.T) {
	db := openTest(t)
	query := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if db.pg {
		query = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
	}
	names, err := collect(context.Background(), db.r, scanString, query)
	if err != nil {
		t.Fatal(err)
	}
	notCopied := []string{"schema_migrations", "rate_buckets", "api_idempotency", "live_events", "site_jobs", "site_job_chunks",
		"page_search", "page_search_config", "page_search_data", "page_search_idx"}
	var want []string
	for _, n := range names {
		if !slices.Contains(notCopied, n) {
			want = append(want, n)
		}
	}
	var got []string
	for _, tb := range copyTables {
		got = append(got, tb.name)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("copyTables %v, the schema's tables %v", got, want)
	}
}
