package store

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pgBaseline is PostgreSQL's first step, SQLite's steps 1 to it in one.
const pgBaseline = 24

// TestMigrationTimeline: both backends count their steps on one
// timeline: every number has a step on each, or one side's step says it
// is the other's alone and why ("-- postgres only: …", "-- sqlite only:
// …"); PostgreSQL's first step stands for SQLite's first 24.
func TestMigrationTimeline(t *testing.T) {
	steps := map[string]map[int]string{}
	last := 0
	for _, backend := range []string{"sqlite", "postgres"} {
		steps[backend] = map[int]string{}
		names, err := fs.Glob(migrations, "migrations/"+backend+"/*.sql")
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			var v int
			if _, err := fmt.Sscanf(path.Base(name), "%d_", &v); err != nil {
				t.Fatalf("%s: its name does not start with its number", name)
			}
			if other, ok := steps[backend][v]; ok {
				t.Errorf("%s and %s have one number", other, name)
			}
			body, _ := fs.ReadFile(migrations, name)
			steps[backend][v] = string(body)
			last = max(last, v)
		}
	}
	if !strings.HasPrefix(steps["postgres"][pgBaseline], "-- The PostgreSQL schema: SQLite's migrations 0001 to 0024 in one step") {
		t.Errorf("PostgreSQL's step %d does not say it is SQLite's first %d", pgBaseline, pgBaseline)
	}
	for v := 1; v <= last; v++ {
		lite, liteOK := steps["sqlite"][v]
		pg, pgOK := steps["postgres"][v]
		switch {
		case !liteOK:
			t.Errorf("step %04d has no SQLite migration: add one, or one that says \"-- postgres only:\" and why", v)
		case !pgOK && v < pgBaseline:
			// in PostgreSQL's first step
		case !pgOK:
			t.Errorf("step %04d has no PostgreSQL migration: add one, or one that says \"-- sqlite only:\" and why", v)
		case otherOnly("sqlite", lite) && otherOnly("postgres", pg):
			t.Errorf("step %04d says on each side that it is the other's", v)
		}
		for backend, body := range map[string]string{"sqlite": lite, "postgres": pg} {
			first, _, _ := strings.Cut(body, "\n")
			if strings.HasSuffix(first, " only:") {
				t.Errorf("%s step %04d says whose it is but not why", backend, v)
			}
		}
	}
}

// TestOneTimelineMovesOldDatabases: a SQLite database whose steps were
// counted before the backends shared one timeline (0028 to 0032 for
// what are now 0029 to 0033) opens with its steps renumbered, none
// applied twice; opening it again changes nothing.
func TestOneTimelineMovesOldDatabases(t *testing.T) {
	file := filepath.Join(t.TempDir(), "old.db")
	db, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	recorded := func(db *Store) []int {
		vs, err := collect(ctx, db.r, scanID, `SELECT version FROM schema_migrations ORDER BY version`)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]int, len(vs))
		for i, v := range vs {
			out[i] = int(v)
		}
		return out
	}
	want := recorded(db)
	// Back to the old count: no mark, no 0028, 0029 to 0033 one lower.
	for _, q := range []string{
		`DELETE FROM schema_migrations WHERE version IN (0, 28)`,
		`UPDATE schema_migrations SET version = version - 1 WHERE version > 28`,
	} {
		if _, err := db.w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	for range 2 {
		db, err := Open(file) // would apply 0033 again, and fail, without the move
		if err != nil {
			t.Fatal(err)
		}
		if got := recorded(db); !slices.Equal(got, want) {
			t.Errorf("recorded steps %v, want %v", got, want)
		}
		db.Close()
	}
}

// column is a column as TestSchemasAgree compares it.
type column struct {
	Type    string // integer, text, real or blob
	NotNull bool
	Default string // "" for none
}

// index is an index as TestSchemasAgree compares it: its table, its
// columns ("expr" for an expression) and whether it is unique or
// partial. Names differ between the backends for the indexes of UNIQUE
// constraints, so they are not compared.
type index struct {
	Table, Columns  string
	Unique, Partial bool
}

// schema is a database's tables with their columns, and its indexes.
type schema struct {
	Tables  map[string]map[string]column
	Indexes []index
}

// typeClass is a column type's kind, in either backend's words.
func typeClass(typ string) string {
	switch t := strings.ToLower(typ); {
	case strings.Contains(t, "int"):
		return "integer"
	case strings.Contains(t, "char"), strings.Contains(t, "text"):
		return "text"
	case strings.Contains(t, "real"), strings.Contains(t, "double"), strings.Contains(t, "float"), strings.Contains(t, "numeric"):
		return "real"
	case strings.Contains(t, "blob"), strings.Contains(t, "bytea"):
		return "blob"
	}
	return typ
}

// normDefault is a column default as both backends would write it:
// without PostgreSQL's casts and the parentheses either may add, and
// "now" for the time of the insert in UTC, RFC 3339 with milliseconds,
// which each backend writes in its own words.
func normDefault(d string) string {
	if d == "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')" || strings.HasPrefix(d, "to_char((now() AT TIME ZONE 'UTC'::text), 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'") {
		return "now"
	}
	for {
		before := d
		if i := strings.LastIndex(d, "::"); i > 0 && !strings.ContainsAny(d[i:], "')") {
			d = d[:i]
		}
		d = strings.TrimSpace(d)
		if strings.HasPrefix(d, "(") && strings.HasSuffix(d, ")") {
			d = d[1 : len(d)-1]
		}
		if d == before {
			return d
		}
	}
}

// schemaOf reads db's tables, columns and indexes.
func schemaOf(t *testing.T, db *Store) schema {
	t.Helper()
	ctx := context.Background()
	s := schema{Tables: map[string]map[string]column{}}
	add := func(table, name, typ string, notNull bool, def string, pk bool) {
		if s.Tables[table] == nil {
			s.Tables[table] = map[string]column{}
		}
		if strings.Contains(def, "nextval(") { // an identity, as SQLite's INTEGER PRIMARY KEY
			def = ""
		}
		s.Tables[table][name] = column{Type: typeClass(typ), NotNull: notNull || pk, Default: normDefault(def)}
	}
	if db.pg {
		rows, err := db.r.QueryContext(ctx, `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable = 'NO', coalesce(c.column_default, ''),
				EXISTS (SELECT 1 FROM information_schema.key_column_usage k JOIN information_schema.table_constraints tc
					ON tc.constraint_name = k.constraint_name AND tc.table_name = k.table_name
					WHERE tc.constraint_type = 'PRIMARY KEY' AND k.table_name = c.table_name AND k.column_name = c.column_name)
			FROM information_schema.columns c JOIN information_schema.tables tb ON tb.table_name = c.table_name AND tb.table_schema = c.table_schema
			WHERE c.table_schema = current_schema() AND tb.table_type = 'BASE TABLE'`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var table, name, typ, def string
			var notNull, pk bool
			if err := rows.Scan(&table, &name, &typ, &notNull, &def, &pk); err != nil {
				t.Fatal(err)
			}
			add(table, name, typ, notNull, def, pk)
		}
		rows.Close()
		rows, err = db.r.QueryContext(ctx, `SELECT t.relname, i.indisunique, i.indpred IS NOT NULL,
				(SELECT string_agg(CASE WHEN k = 0 THEN 'expr' ELSE (SELECT attname FROM pg_attribute WHERE attrelid = t.oid AND attnum = k) END, ',' ORDER BY n)
				 FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS u(k, n))
			FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
			WHERE ns.nspname = current_schema() AND NOT i.indisprimary`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var ix index
			if err := rows.Scan(&ix.Table, &ix.Unique, &ix.Partial, &ix.Columns); err != nil {
				t.Fatal(err)
			}
			s.Indexes = append(s.Indexes, ix)
		}
		rows.Close()
	} else {
		tables, err := collect(ctx, db.r, scanString, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
		if err != nil {
			t.Fatal(err)
		}
		for _, table := range tables {
			rows, err := db.r.QueryContext(ctx, `SELECT name, type, "notnull", coalesce(dflt_value, ''), pk FROM pragma_table_info(?)`, table)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var name, typ, def string
				var notNull bool
				var pk int
				if err := rows.Scan(&name, &typ, &notNull, &def, &pk); err != nil {
					t.Fatal(err)
				}
				add(table, name, typ, notNull, def, pk > 0)
			}
			rows.Close()
			rows, err = db.r.QueryContext(ctx, `SELECT l.name, l."unique", l.partial,
					(SELECT group_concat(coalesce(ii.name, 'expr'), ',') FROM (SELECT name FROM pragma_index_info(l.name) ORDER BY seqno) ii)
				FROM pragma_index_list(?) l WHERE l.origin != 'pk'`, table)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				ix := index{Table: table}
				var name string
				if err := rows.Scan(&name, &ix.Unique, &ix.Partial, &ix.Columns); err != nil {
					t.Fatal(err)
				}
				s.Indexes = append(s.Indexes, ix)
			}
			rows.Close()
		}
	}
	slices.SortFunc(s.Indexes, func(a, b index) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	return s
}

// TestSchemasAgree: both backends, migrated, have the same tables with
// the same columns (kind, nullability, default) and the same indexes;
// where they may not, schemaDifferences says why. It runs in the
// PostgreSQL run (make test), against a SQLite database beside it.
func TestSchemasAgree(t *testing.T) {
	pg := openTest(t)
	if !pg.pg {
		t.Skip("compares with PostgreSQL: runs in the PostgreSQL run (SITEPLAN_TEST_BACKEND=postgres)")
	}
	lite, err := Open(filepath.Join(t.TempDir(), "lite.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	a, b := schemaOf(t, lite), schemaOf(t, pg)
	for _, name := range slices.Sorted(maps.Keys(a.Tables)) {
		if schemaDifferences["table "+name] != "" {
			continue
		}
		if b.Tables[name] == nil {
			t.Errorf("table %s is SQLite's only", name)
			continue
		}
		for _, col := range slices.Sorted(maps.Keys(a.Tables[name])) {
			x, y := a.Tables[name][col], b.Tables[name][col]
			if x != y && schemaDifferences[name+"."+col] == "" {
				t.Errorf("%s.%s: SQLite %+v, PostgreSQL %+v", name, col, x, y)
			}
		}
		for col := range b.Tables[name] {
			if _, ok := a.Tables[name][col]; !ok && schemaDifferences[name+"."+col] == "" {
				t.Errorf("%s.%s is PostgreSQL's only", name, col)
			}
		}
	}
	for name := range b.Tables {
		if a.Tables[name] == nil && schemaDifferences["table "+name] == "" {
			t.Errorf("table %s is PostgreSQL's only", name)
		}
	}
	differs := func(ix index) bool {
		return schemaDifferences["table "+ix.Table] != "" || schemaDifferences["index "+ix.Table+"("+ix.Columns+")"] != ""
	}
	for _, ix := range a.Indexes {
		if !slices.Contains(b.Indexes, ix) && !differs(ix) {
			t.Errorf("index %+v is SQLite's only", ix)
		}
	}
	for _, ix := range b.Indexes {
		if !slices.Contains(a.Indexes, ix) && !differs(ix) {
			t.Errorf("index %+v is PostgreSQL's only", ix)
		}
	}
}

// schemaDifferences are where the backends' schemas differ on purpose,
// and why.
var schemaDifferences = map[string]string{
	"table live_events":  "the live hub's events between servers: SQLite has one server (web/relay.go)",
	"index users(email)": "one account an address in any case: SQLite's UNIQUE email COLLATE NOCASE, PostgreSQL's unique index on lower(email)",
	"index users(expr)":  "SQLite's lower(email) index serves the lookups; PostgreSQL's is the unique one",
	// The search's full-text index of the pages' words: SQLite's FTS5
	// table, kept by triggers; PostgreSQL's GIN index of to_tsvector.
	"table page_search":        "SQLite's full-text table of the pages' words (0034_page_search.sql)",
	"table page_search_config": "FTS5's own, of page_search",
	"table page_search_data":   "FTS5's own, of page_search",
	"table page_search_idx":    "FTS5's own, of page_search",
	"index pages(expr)":        "PostgreSQL's GIN index of the pages' words, SQLite's page_search",
}
