package store

import (
	"io/fs"
	"os"
	"sync"
	"testing"

	"siteplan/internal/pgtest"
)

// The store's tests run on SQLite, and again on PostgreSQL when
// SITEPLAN_TEST_BACKEND=postgres (make test does both): a throwaway
// server for the run, a database for each test.
func TestMain(m *testing.M) { os.Exit(pgtest.Run(m)) }

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
	if err := db.r.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(files) {
		t.Errorf("%d migrations recorded (%v), want %d", n, err, len(files))
	}
}
