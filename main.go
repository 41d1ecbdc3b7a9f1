// Command siteplan plans a website's structure: a web editor for the page
// tree and a CLI for scripts (see DESIGN.md section 6). main only wires
// things together.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"siteplan/site"
	"siteplan/static"
	"siteplan/store"
	"siteplan/web"
)

const usage = `usage:
  siteplan serve  [--addr 127.0.0.1:8080] [--db FILE]
  siteplan import [--db FILE] PATH...          (PATH "-" reads standard input)
  siteplan dump   [--db FILE] --project ID

--db defaults to $SITEPLAN_DB, then ./siteplan.db.
`

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "siteplan:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("no command given\n" + usage)
	}
	verb, args := args[0], args[1:]
	fs := flag.NewFlagSet(verb, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dbPath := fs.String("db", defaultDB(), "SQLite database file")
	switch verb {
	case "serve":
		addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
		if err := parse(fs, args); err != nil {
			return err
		}
		return serve(*addr, *dbPath)
	case "import":
		if err := parse(fs, args); err != nil {
			return err
		}
		return importDocs(*dbPath, fs.Args(), stdin, stdout)
	case "dump":
		project := fs.String("project", "", "project ID")
		if err := parse(fs, args); err != nil {
			return err
		}
		return dump(*dbPath, *project, stdout)
	case "help", "-h", "--help":
		_, err := io.WriteString(stdout, usage)
		return err
	}
	return fmt.Errorf("unknown command %q\n%s", verb, usage)
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%s: %v\n%s", fs.Name(), err, usage)
	}
	return nil
}

func defaultDB() string {
	if v := os.Getenv("SITEPLAN_DB"); v != "" {
		return v
	}
	return "siteplan.db"
}

func serve(addr, dbPath string) error {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	db, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	srv := web.New(db, static.FS, log)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	hs := &http.Server{Addr: addr, Handler: srv.Echo, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.ListenAndServe() }()
	log.Info("siteplan is running", "url", "http://"+addr, "db", dbPath)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return hs.Shutdown(shutdown)
}

// importDocs validates every document before writing any, then imports
// each in its own transaction and prints the new project IDs.
func importDocs(dbPath string, paths []string, stdin io.Reader, stdout io.Writer) error {
	if len(paths) == 0 {
		return errors.New("import: name at least one JSON document (or - for standard input)")
	}
	docs := make([]*site.Document, 0, len(paths))
	for _, path := range paths {
		d, err := readDocument(path, stdin)
		if err != nil {
			return fmt.Errorf("import %s: %w; nothing was imported", path, err)
		}
		docs = append(docs, d)
	}
	db, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	team, err := db.DefaultTeam(ctx)
	if err != nil {
		return err
	}
	for i, d := range docs {
		id, err := db.ImportDocument(ctx, team.ID, d)
		if err != nil {
			return fmt.Errorf("import %s: %w", paths[i], err)
		}
		fmt.Fprintln(stdout, id)
	}
	return nil
}

func readDocument(path string, stdin io.Reader) (*site.Document, error) {
	if path == "-" {
		return site.ParseDocument(stdin)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return site.ParseDocument(f)
}

func dump(dbPath, project string, stdout io.Writer) error {
	id, err := strconv.ParseInt(project, 10, 64)
	if err != nil || id <= 0 {
		return errors.New("dump: --project ID is required (a number, as import printed it)")
	}
	db, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	d, err := db.Document(context.Background(), id)
	if err != nil {
		return fmt.Errorf("dump: %w", err)
	}
	return d.Encode(stdout)
}
