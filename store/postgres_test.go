package store

import "testing"

// TestRebind: SQLite's parameters become PostgreSQL's, numbered as
// SQLite numbers them; literals, quoted names and comments keep theirs.
func TestRebind(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`SELECT * FROM t WHERE a = ? AND b = ?`, `SELECT * FROM t WHERE a = $1 AND b = $2`},
		{`WHERE (id = ?1 OR parent_id = ?1) AND x = ?`, `WHERE (id = $1 OR parent_id = $1) AND x = $2`},
		{`WHERE a = ? AND (u = ?3 OR s = ?4) AND z = ?`, `WHERE a = $1 AND (u = $3 OR s = $4) AND z = $5`},
		{`SELECT '?', "q?", 'it''s ?' FROM t WHERE a = ?`, `SELECT '?', "q?", 'it''s ?' FROM t WHERE a = $1`},
		{"SELECT 1 -- why?\nWHERE a = ?", "SELECT 1 -- why?\nWHERE a = $1"},
		{`SELECT /* ? */ a FROM t WHERE b = ?::json`, `SELECT /* ? */ a FROM t WHERE b = $1::json`},
		{`SELECT 'unclosed ?`, `SELECT 'unclosed ?`},
	} {
		if got := rebind(tc.in); got != tc.want {
			t.Errorf("rebind(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
