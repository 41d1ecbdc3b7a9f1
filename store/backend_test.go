package store

import (
	"os"
	"testing"

	"siteplan/internal/pgtest"
)

// The store's tests run on SQLite, and again on PostgreSQL when
// SITEPLAN_TEST_BACKEND=postgres (make test does both): a throwaway
// server for the run, a database for each test.
func TestMain(m *testing.M) { os.Exit(pgtest.Run(m)) }

// testDSN is where a test's database is (pgtest.DSN).
func testDSN(t testing.TB) string { return pgtest.DSN(t, "test.db") }
