// Command siteplan plans a website's structure: a web editor for the page
// tree and a CLI for scripts (see DESIGN.md section 6). main only wires
// things together.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"siteplan/export"
	"siteplan/site"
	"siteplan/static"
	"siteplan/store"
	"siteplan/web"
)

const usage = `usage:
  siteplan serve  [--addr 127.0.0.1:8080] [--db FILE]
  siteplan import [--db FILE] PATH...          (PATH "-" reads standard input)
  siteplan dump   [--db FILE] --project ID
  siteplan export [--db FILE] --project ID --out DIR [--gzip] [--max-urls N] [--split-by-section] [--leaves-only]
                  [--section PAGE_ID] [--location URL] [--footer-depth 1|2]
  siteplan diagram [--db FILE] --project ID --format svg|png|pdf|dot|graphml --out FILE [--layout tree|lr|radial] [--depth N]
                  [--root PAGE_ID] [--color type|status] [--links=false] [--paper a4|a3]
  siteplan user add    [--db FILE] --email E --name N --team T --role owner|editor|viewer   (password on stdin)
  siteplan share create [--db FILE] --project ID --role view|comment [--expires DURATION]  (prints the share URL path)

DURATION is Go's (90m, 36h) or days and weeks (7d, 2w).

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
	case "export":
		project := fs.String("project", "", "project ID")
		out := fs.String("out", "", "output directory")
		var cfg export.Config
		fs.BoolVar(&cfg.Gzip, "gzip", false, "gzip each sitemap file")
		fs.IntVar(&cfg.MaxURLs, "max-urls", export.MaxURLs, "URLs per sitemap file")
		fs.BoolVar(&cfg.BySection, "split-by-section", false, "one sitemap per top-level section")
		fs.BoolVar(&cfg.LeavesOnly, "leaves-only", false, "only pages without children")
		fs.Int64Var(&cfg.Section, "section", 0, "export only this page's subtree")
		fs.StringVar(&cfg.Location, "location", "", "URL of the directory the sitemap is published in")
		fs.IntVar(&cfg.FooterDepth, "footer-depth", 2, "levels of the main tree in footer.html (1 or 2)")
		if err := parse(fs, args); err != nil {
			return err
		}
		return exportFiles(*dbPath, *project, *out, cfg, stdout)
	case "diagram":
		project := fs.String("project", "", "project ID")
		format := fs.String("format", "", "svg, png, pdf, dot or graphml")
		out := fs.String("out", "", "output file")
		paper := fs.String("paper", export.PaperA4, "PDF paper: a4 or a3 (landscape)")
		var opt export.DiagramOptions
		fs.StringVar(&opt.Layout, "layout", export.LayoutTree, "tree, lr or radial")
		fs.StringVar(&opt.ColorBy, "color", export.ColorByType, "colour nodes by type or status")
		fs.IntVar(&opt.Depth, "depth", 0, "levels to draw; 0: all")
		fs.Int64Var(&opt.Root, "root", 0, "draw only this page's branch")
		fs.BoolVar(&opt.Links, "links", true, "draw cross-links")
		if err := parse(fs, args); err != nil {
			return err
		}
		return diagramFile(*dbPath, *project, *format, *out, *paper, opt, stdout)
	case "user", "share":
		if len(args) == 0 || (verb == "user" && args[0] != "add") || (verb == "share" && args[0] != "create") {
			return fmt.Errorf("%s: say what to do: siteplan user add, siteplan share create\n%s", verb, usage)
		}
		args = args[1:]
		if verb == "user" {
			email := fs.String("email", "", "e-mail address")
			name := fs.String("name", "", "display name")
			team := fs.String("team", "", "team id or name (a new name makes a team)")
			role := fs.String("role", "", "owner, editor or viewer")
			if err := parse(fs, args); err != nil {
				return err
			}
			return addUser(*dbPath, *email, *name, *team, *role, stdin, stdout)
		}
		project := fs.String("project", "", "project ID")
		role := fs.String("role", "", "view or comment")
		expires := fs.String("expires", "", "how long the link works; empty: until revoked")
		if err := parse(fs, args); err != nil {
			return err
		}
		return createShare(*dbPath, *project, *role, *expires, stdout)
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
	hs.RegisterOnShutdown(srv.Close) // end live-update streams
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

func projectID(verb, project string) (int64, error) {
	id, err := strconv.ParseInt(project, 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("%s: --project ID is required (a number, as import printed it)", verb)
	}
	return id, nil
}

func dump(dbPath, project string, stdout io.Writer) error {
	id, err := projectID("dump", project)
	if err != nil {
		return err
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

// exportFiles writes the launch files of a project into dir and prints a
// report: files, URL counts, warnings.
func exportFiles(dbPath, project, dir string, cfg export.Config, stdout io.Writer) error {
	id, err := projectID("export", project)
	if err != nil {
		return err
	}
	if dir == "" {
		return errors.New("export: --out DIR is required")
	}
	if cfg.MaxURLs < 1 || cfg.MaxURLs > export.MaxURLs {
		return fmt.Errorf("export: --max-urls must be between 1 and %d", export.MaxURLs)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	db, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	t, err := db.ExportTree(context.Background(), id)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	rep, err := export.Export(export.DirOutput(dir), t, cfg)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	fmt.Fprintf(stdout, "Exported %d URLs of %q into %s\n", rep.URLs, t.Project.Name, dir)
	for _, f := range rep.Files {
		fmt.Fprintf(stdout, "  %-28s %10d bytes", f.Name, f.Size)
		if f.URLs > 0 {
			fmt.Fprintf(stdout, "  %d URLs", f.URLs)
		}
		fmt.Fprintln(stdout)
	}
	for _, s := range rep.Sitemaps {
		fmt.Fprintf(stdout, "robots.txt: Sitemap: %s\n", s)
	}
	for _, w := range rep.Warnings {
		kind := "warning"
		if w.Info {
			kind = "note"
		}
		if w.Title != "" {
			fmt.Fprintf(stdout, "%s: %q (page %d): %s\n", kind, w.Title, w.PageID, w.Reason)
		} else {
			fmt.Fprintf(stdout, "%s: %s\n", kind, w.Reason)
		}
	}
	return nil
}

// diagramFile draws a project's diagram into a file.
func diagramFile(dbPath, project, format, out, paper string, opt export.DiagramOptions, stdout io.Writer) error {
	id, err := projectID("diagram", project)
	if err != nil {
		return err
	}
	switch {
	case !slices.Contains(export.DiagramFormats, format):
		return fmt.Errorf("diagram: --format must be one of %s", strings.Join(export.DiagramFormats, ", "))
	case out == "":
		return errors.New("diagram: --out FILE is required")
	case paper != export.PaperA4 && paper != export.PaperA3:
		return errors.New("diagram: --paper must be a4 or a3")
	}
	db, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	t, err := db.Tree(ctx, id)
	if err != nil {
		return fmt.Errorf("diagram: %w", err)
	}
	links, err := db.Links(ctx, id)
	if err != nil {
		return fmt.Errorf("diagram: %w", err)
	}
	d, err := export.NewDiagram(t, links, opt)
	if err != nil {
		return fmt.Errorf("diagram: %w", err)
	}
	b, err := d.Render(ctx, format, export.PDFOptions{Paper: paper, Date: time.Now()})
	if err != nil {
		return fmt.Errorf("diagram: %w", err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return fmt.Errorf("diagram: %w", err)
	}
	fmt.Fprintf(stdout, "Wrote %s: %d bytes, %d of %d pages drawn\n", out, len(b), d.Visible, t.Len())
	return nil
}

// addUser creates an account or resets its password (read from the first
// line of stdin) and gives it a role in a team.
func addUser(dbPath, email, name, team, role string, stdin io.Reader, stdout io.Writer) error {
	switch {
	case email == "" || name == "" || team == "" || role == "":
		return errors.New("user add: --email, --name, --team and --role are all required")
	}
	line, err := bufio.NewReader(io.LimitReader(stdin, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("user add: read the password from standard input: %w", err)
	}
	password := strings.TrimRight(line, "\r\n")
	if password == "" {
		return errors.New("user add: give the password on standard input, e.g. printf '%s\\n' \"$PASSWORD\" | siteplan user add --email E --name N --team T --role R")
	}
	db, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	u, created, err := db.AddUser(context.Background(), email, name, password, team, role)
	if err != nil {
		return fmt.Errorf("user add: %w", withFields(err))
	}
	what := "password reset for"
	if created {
		what = "created"
	}
	_, err = fmt.Fprintf(stdout, "%s %s (user %d), %s of team %s\n", what, u.Email, u.ID, role, team)
	return err
}

// withFields adds the per-field messages of a validation error to it.
func withFields(err error) error {
	f := site.ErrorFields(err)
	if len(f) == 0 {
		return err
	}
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + f[k]
	}
	return errors.New(strings.Join(parts, "; "))
}

// createShare makes a share link and prints its path, the only copy of
// its token.
func createShare(dbPath, project, role, expires string, stdout io.Writer) error {
	id, err := projectID("share create", project)
	if err != nil {
		return err
	}
	l := site.ShareLink{ProjectID: id, Role: role}
	if expires != "" {
		d, err := site.ParseDuration(expires)
		if err != nil {
			return fmt.Errorf("share create: --expires: %w", err)
		}
		l.ExpiresAt = time.Now().Add(d)
	}
	db, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	token, err := db.CreateShareLink(context.Background(), &l)
	if err != nil {
		return fmt.Errorf("share create: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "/s/%s\n", token)
	return err
}
