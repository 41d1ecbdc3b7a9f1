package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"net/url"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// The store's SQL is written once, with SQLite's parameters (? and ?N)
// and integers for booleans, as SQLite keeps them. On PostgreSQL it runs
// through pgx's database/sql driver behind pgConn, which numbers the
// parameters PostgreSQL's way ($N) and passes booleans as 0 and 1, the
// way the schema keeps them there too; what differs beyond that is said
// in the SQL itself, by the backend (db.pg).

// isPostgres reports whether dsn names a PostgreSQL database
// (postgres:// or postgresql://) rather than a SQLite file.
func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Redacted is dsn as a log line may show it: a PostgreSQL URL without
// its password (and without the query, where a password may also sit),
// a SQLite path as it is.
func Redacted(dsn string) string {
	if !isPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://(unreadable URL)"
	}
	u.RawQuery, u.Fragment = "", ""
	return u.Redacted()
}

// openPostgres opens a pool of connections to the PostgreSQL database
// dsn names, and returns its configuration for connections of their own
// (the live listener's).
func openPostgres(dsn string) (*sql.DB, *pgx.ConnConfig, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, nil, err
	}
	// The store's queries are short; the JIT compiler, which PostgreSQL
	// turns on above a cost, took longer to compile one than to run it.
	if _, set := cfg.RuntimeParams["jit"]; !set {
		cfg.RuntimeParams["jit"] = "off"
	}
	return sql.OpenDB(pgConnector{stdlib.GetConnector(*cfg)}), cfg, nil
}

// pgConnector makes pgConns.
type pgConnector struct{ driver.Connector }

func (c pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &pgConn{conn.(*stdlib.Conn)}, nil
}

// pgConn is a pgx connection that takes the store's SQL: rebind numbers
// its parameters, CheckNamedValue passes its booleans as integers.
type pgConn struct{ *stdlib.Conn }

func (c *pgConn) Prepare(query string) (driver.Stmt, error) {
	return c.Conn.Prepare(rebind(query))
}

func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, rebind(query))
}

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, rebind(query), args)
}

func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.QueryContext(ctx, rebind(query), args)
}

// CheckNamedValue passes booleans as 0 and 1, for every statement,
// prepared or not; the rest as pgx takes it.
func (c *pgConn) CheckNamedValue(nv *driver.NamedValue) error {
	if b, ok := nv.Value.(bool); ok {
		nv.Value = int64(0)
		if b {
			nv.Value = int64(1)
		}
	}
	return nil
}

// rebind turns SQLite's parameters into PostgreSQL's: ?N is $N, and a
// bare ? is one more than the largest number before it, as SQLite
// counts. It leaves string literals, quoted names and comments alone.
func rebind(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 8)
	largest := 0
	for i := 0; i < len(q); {
		switch c := q[i]; {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) {
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c { // a doubled quote
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(q))
			b.WriteString(q[i:j])
			i = j
		case c == '-' && strings.HasPrefix(q[i:], "--"):
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j
		case c == '/' && strings.HasPrefix(q[i:], "/*"):
			j := strings.Index(q[i+2:], "*/")
			if j < 0 {
				j = len(q) - i - 4
			}
			b.WriteString(q[i : i+j+4])
			i += j + 4
		case c == '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			n := largest + 1
			if j > i+1 {
				n, _ = strconv.Atoi(q[i+1 : j])
			}
			largest = max(largest, n)
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}
