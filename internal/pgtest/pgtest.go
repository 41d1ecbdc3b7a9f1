// Package pgtest starts a throwaway PostgreSQL server for tests: Debian's
// postgresql package's initdb and pg_ctl into a temporary directory, run
// as an unprivileged user when the tests run as root, listening on a
// free loopback port only, with trust authentication. Each test takes a
// database of its own.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrMissing says that PostgreSQL's programs are not on this machine.
var ErrMissing = errors.New("PostgreSQL is not installed (Debian: apt-get install postgresql)")

// Server is a running throwaway PostgreSQL server.
type Server struct {
	dir  string // its data, socket and log
	bin  string // where initdb and pg_ctl are
	port int
	as   *user.User // the unprivileged user it runs as; nil: this process's
	next atomic.Int64
}

// bindir finds initdb and pg_ctl: on PATH, or in Debian's
// /usr/lib/postgresql/N/bin, the newest N.
func bindir() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		a, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		b, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return a > b
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", ErrMissing
}

// Start initialises and starts a server. Errors: ErrMissing, or what
// initdb or pg_ctl said.
func Start() (*Server, error) {
	bin, err := bindir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "siteplan-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, bin: bin}
	if os.Geteuid() == 0 { // PostgreSQL refuses to run as root
		for _, name := range []string{"postgres", "nobody"} {
			if s.as, err = user.Lookup(name); err == nil {
				break
			}
		}
		if s.as == nil {
			return nil, fmt.Errorf("running as root and no postgres or nobody user to run PostgreSQL as")
		}
		uid, _ := strconv.Atoi(s.as.Uid)
		gid, _ := strconv.Atoi(s.as.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	data := filepath.Join(dir, "data")
	if out, err := s.run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	opts := fmt.Sprintf("-h 127.0.0.1 -p %d -k %s -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", s.port, dir)
	if out, err := s.run("pg_ctl", "-D", data, "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pg_ctl start: %v: %s\n%s", err, out, log)
	}
	return s, nil
}

// run runs one of PostgreSQL's programs, as the server's user.
func (s *Server) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	if s.as != nil {
		uid, _ := strconv.ParseUint(s.as.Uid, 10, 32)
		gid, _ := strconv.ParseUint(s.as.Gid, 10, 32)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	}
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	return cmd.CombinedOutput()
}

// URL is the address of database db on the server.
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// NewDatabase creates a new, empty database and returns its URL.
func (s *Server) NewDatabase(ctx context.Context) (string, error) {
	name := fmt.Sprintf("t%d_%d", os.Getpid(), s.next.Add(1))
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return s.URL(name), nil
}

// DropDatabase drops a database NewDatabase made, ending its sessions.
func (s *Server) DropDatabase(ctx context.Context, url string) error {
	name := dbName(url)
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	return err
}

// dbName is the name of the database a URL of the server's names.
func dbName(url string) string {
	name := url[strings.LastIndexByte(url, '/')+1:]
	name, _, _ = strings.Cut(name, "?")
	return name
}

// Stop stops the server and removes its directory.
func (s *Server) Stop() error {
	out, err := s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop")
	os.RemoveAll(s.dir)
	if err != nil {
		return fmt.Errorf("pg_ctl stop: %v: %s", err, out)
	}
	return nil
}

// running is the server of a test binary run on PostgreSQL (Run).
var running *Server

// Run runs a test binary's tests, on SQLite or, when
// SITEPLAN_TEST_BACKEND=postgres, on a throwaway PostgreSQL server it
// starts for them and stops after. Without PostgreSQL on the machine
// that run is skipped, but fails under CI=true. It returns the exit
// code: func TestMain(m *testing.M) { os.Exit(pgtest.Run(m)) }.
func Run(m *testing.M) int {
	if os.Getenv("SITEPLAN_TEST_BACKEND") != "postgres" {
		return m.Run()
	}
	s, err := Start()
	if errors.Is(err, ErrMissing) && os.Getenv("CI") != "true" {
		fmt.Println("the PostgreSQL run is skipped:", err)
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting PostgreSQL:", err)
		return 1
	}
	running = s
	code := m.Run()
	if err := s.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	return code
}

// DSN is where a test's database is: a new file named file in its
// temporary directory, or, in a run on PostgreSQL, a new database on
// the run's server, dropped when the test ends.
func DSN(t testing.TB, file string) string {
	t.Helper()
	if running == nil {
		return filepath.Join(t.TempDir(), file)
	}
	url, err := running.NewDatabase(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { running.DropDatabase(context.Background(), url) })
	return url
}

// Running reports whether the test binary runs on PostgreSQL (Run).
func Running() bool { return running != nil }
