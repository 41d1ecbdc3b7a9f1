package store

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"testing"
	"time"

	"siteplan/internal/pgtest"
	"siteplan/site"
)

// The store's tests run on SQLite, and again on PostgreSQL when
// SITEPLAN_TEST_BACKEND=postgres (make test does both): a throwaway
// server for the run, a database for each test.
func TestMain(m *testing.M) { os.Exit(pgtest.Run(m)) }

// twoInstances opens one new database twice, each with its own pools,
// as two servers do.
func twoInstances(t *testing.T) [2]*Store {
	t.Helper()
	dsn := testDSN(t)
	var dbs [2]*Store
	for i := range dbs {
		db, err := Open(dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs[i] = db
	}
	return dbs
}

// testDSN is where a test's database is (pgtest.DSN).
func testDSN(t testing.TB) string { return pgtest.DSN(t, "test.db") }

// TestMigrateTogether: servers that start together on one new database
// migrate it once between them, and all open it.
func TestMigrateTogether(t *testing.T) {
	dsn := testDSN(t)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			db, err := Open(dsn)
			if err == nil {
				err = db.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("server %d: %v", i, err)
		}
	}
	db, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	backend := "sqlite"
	if db.pg {
		backend = "postgres"
	}
	files, _ := fs.Glob(migrations, "migrations/"+backend+"/*.sql")
	var n int
	if err := db.r.QueryRow(`SELECT count(*) FROM schema_migrations WHERE version > 0`).Scan(&n); err != nil || n != len(files) {
		t.Errorf("%d migrations recorded (%v), want %d", n, err, len(files))
	}
}

// TestWritersOnTwoInstances: two servers, each with its own pool, write
// one plan at once. The URL rule numbers the same derived slug on both,
// version numbers do not repeat, and each author's undo, on either
// server, takes back their own changes and nobody else's.
func TestWritersOnTwoInstances(t *testing.T) {
	dbs := twoInstances(t)
	pid, ids, anna, bob := acmeFor(t, dbs[0])
	const n = 12
	var wg sync.WaitGroup
	errs := make(chan error, 4*n)
	for i := range n {
		db := dbs[i%2]
		wg.Go(func() {
			errs <- db.Pages.CreatePage(anna, &site.Page{ProjectID: pid, ParentID: ids["Home"], Title: "FAQ", Slug: "faq", SlugAuto: true,
				Kind: site.KindPage, Placement: site.PlacementMain, Status: "planned", InSitemap: true, Position: -1})
		})
		wg.Go(func() {
			_, err := db.History.CreateVersion(bob, pid, fmt.Sprint("v", i))
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	tr, err := dbs[1].Pages.Tree(context.Background(), pid)
	if err != nil {
		t.Fatal(err)
	}
	slugs := map[string]bool{}
	tr.Walk(func(p *site.Page, _ int) bool {
		if p.Title == "FAQ" {
			slugs[p.Slug] = true
		}
		return true
	})
	for i := range n {
		want := "faq"
		if i > 0 {
			want = fmt.Sprint("faq-", i+1)
		}
		if !slugs[want] {
			t.Errorf("no FAQ page has the slug %q: got %v", want, slugs)
		}
	}
	vs, err := dbs[0].History.Versions(context.Background(), pid)
	if err != nil {
		t.Fatal(err)
	}
	numbers := map[int]bool{}
	for _, v := range vs {
		numbers[v.Number] = true
	}
	if len(vs) != n || len(numbers) != n {
		t.Errorf("got %d versions with %d numbers, want %d of each", len(vs), len(numbers), n)
	}

	// Anna renames on one server while Bob renames on the other; then
	// Anna undoes on Bob's server.
	pages := []string{"Pricing", "Team", "Contact", "Imprint"}
	for i, title := range pages {
		wg.Go(func() {
			ctx, db := anna, dbs[0]
			if i%2 == 1 {
				ctx, db = bob, dbs[1]
			}
			if _, err := db.Pages.RenamePage(ctx, ids[title], title+" renamed", 1); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for range 2 {
		if _, err := dbs[1].History.Undo(anna, pid); err != nil {
			t.Fatal(err)
		}
	}
	for i, title := range pages {
		want := title // Anna's, undone
		if i%2 == 1 {
			want = title + " renamed" // Bob's, kept
		}
		if p, _ := dbs[0].Pages.Page(context.Background(), ids[title]); p.Title != want {
			t.Errorf("page %q is %q, want %q", title, p.Title, want)
		}
	}
}

// TestPlansWriteSideBySide: on PostgreSQL a write to one plan, a comment
// among them, does not wait for a write to another, and a write to the
// same plan waits for the first to end.
func TestPlansWriteSideBySide(t *testing.T) {
	db := openTest(t)
	if !db.pg {
		t.Skip("SQLite has one writer")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	a, aids := newProject(t, db, "Home\n  About")
	b, bids := newProject(t, db, "Home\n  About")
	held, release := make(chan struct{}), make(chan struct{})
	open := make(chan error, 1)
	go func() {
		open <- db.change(ctx, func(j *journal) error {
			if err := j.inProject(a.ID); err != nil {
				return err
			}
			close(held)
			<-release
			return site.Errorf(site.EInvalid, "rolled back")
		})
	}()
	<-held
	rename := func(id int64, title string) error {
		p, err := db.Pages.Page(ctx, id)
		if err == nil {
			_, err = db.Pages.RenamePage(ctx, id, title, p.Version)
		}
		return err
	}
	if err := rename(bids["About"], "B's about"); err != nil {
		t.Fatalf("a write to another plan while one is open: %v", err)
	}
	cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
	defer ccancel()
	if err := db.Comments.AddComment(cctx, &site.Comment{ProjectID: b.ID, PageID: bids["About"], Author: "Ana", Body: "Fine."}, 0); err != nil {
		t.Fatalf("a comment on another plan while one is open: %v", err)
	}
	sameDone := make(chan error, 1)
	go func() { sameDone <- rename(aids["About"], "A's about") }()
	// The write to the same plan waits on its lock.
	for {
		var waiting bool
		if err := db.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted)`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting {
			break
		}
		select {
		case err := <-sameDone:
			t.Fatalf("a write to the same plan ran while its plan's write was open: %v", err)
		case <-ctx.Done():
			t.Fatal("the write to the same plan never waited")
		case <-time.After(10 * time.Millisecond):
		}
	}
	close(release)
	if err := <-open; site.ErrorCode(err) != site.EInvalid {
		t.Fatalf("the open write: %v", err)
	}
	if err := <-sameDone; err != nil {
		t.Fatalf("the write to the same plan, once the first ended: %v", err)
	}
}
