package web

import (
	"os"
	"testing"

	"siteplan/internal/pgtest"
)

// The handlers' tests run on SQLite, and again on PostgreSQL when
// SITEPLAN_TEST_BACKEND=postgres (make test runs those that do not drive
// a browser so): a throwaway server, a database for each test.
func TestMain(m *testing.M) { os.Exit(pgtest.Run(m)) }
