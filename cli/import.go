package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"

	"siteplan/fetch"
	"siteplan/site"
	"siteplan/sitemap"
	"siteplan/store"
)

// importCmd reads every source before writing any: a siteplan/1 document,
// or a site's sitemaps made into a plan. Then it imports each into the
// team in its own transaction and prints the new project IDs, one a line;
// what a sitemap import left out goes to standard error.
func importCmd(fs *flag.FlagSet, args []string, stdin io.Reader, stdout io.Writer) error {
	team := fs.String("team", "", "team id or name; may be left out when the database has one team")
	name := fs.String("name", "", "the new project's name (sitemap sources; default: the site's host)")
	allow := fs.Bool("allow-private", false, "allow loopback, private and link-local addresses (an intranet)")
	baseURL := fs.String("base-url", "", "the new project's base URL (Mermaid sources)")
	propose := fs.Bool("propose", false, "propose each source as changes to project --project instead of making a project; a person accepts them in the editor")
	project := fs.Int64("project", 0, "the project --propose proposes on")
	title := fs.String("title", "", "the proposal's title (--propose; default: the file's name)")
	server := serverFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	sources := fs.Args()
	if len(sources) == 0 {
		return errors.New("import: name at least one source: a JSON document (or - for standard input), a Mermaid diagram, a site, or a sitemap URL or file")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *propose || *project != 0 {
		if !*propose || *project <= 0 {
			return errors.New("import: --propose and --project ID go together: the project the sources are proposed on")
		}
		local := func() (proposer, error) {
			db, err := openDB(fs)
			return localProposals{db}, err
		}
		return proposeCmd(ctx, local, *server, *project, *title, sources, stdin, stdout)
	}
	if *server != "" {
		return importRemote(ctx, *server, sources, *name, *baseURL, stdin, stdout)
	}
	web := fetch.New(fetch.Options{AllowPrivate: *allow}).Open
	read := make([]readSourceResult, 0, len(sources))
	for _, src := range sources {
		r, err := readSource(ctx, src, *name, *baseURL, stdin, web)
		if err != nil {
			return fmt.Errorf("import %s: %w; nothing was imported", src, err)
		}
		for _, w := range r.warns {
			fmt.Fprintf(os.Stderr, "siteplan: import %s: %s\n", src, w.Reason)
		}
		read = append(read, r)
	}
	// What reading held (the paths' lookup, the readers' buffers) is
	// garbage now: hand it back before the writing, which holds the plans
	// and SQLite's page cache, so the two peaks do not add up.
	debug.FreeOSMemory()
	// The plans are held while they are written, beside SQLite's page
	// cache: the garbage the writing makes is collected at half the live
	// heap, not all of it, which lowers the peak at no cost in time
	// (docs/benchmarks.md).
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	db, err := openDB(fs)
	if err != nil {
		return err
	}
	defer db.Close()
	t, err := db.Teams.FindTeam(ctx, *team)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	// Every plan is written, each into a project nobody sees yet, before
	// any is shown: a plan the store refuses leaves nothing behind.
	imports := make([]*store.Import, 0, len(read))
	defer func() {
		for _, im := range imports {
			im.Discard()
		}
	}()
	for i, r := range read {
		im, err := db.Projects.BeginImport(ctx, t.ID, r.project)
		if err != nil {
			return fmt.Errorf("import %s: %w; nothing was imported", sources[i], err)
		}
		imports = append(imports, im)
		if err := r.add(im); err != nil {
			return fmt.Errorf("import %s: %w; nothing was imported", sources[i], err)
		}
		read[i].add = nil // the plan is written: let it go
	}
	// Commit fills the slug table from what was written; the plans are
	// garbage by now, and handing them back keeps them from adding to
	// its peak.
	debug.FreeOSMemory()
	for i, im := range imports {
		id, err := im.Commit()
		if err != nil {
			return fmt.Errorf("import %s: %w", sources[i], err)
		}
		fmt.Fprintln(stdout, id)
	}
	return nil
}

// readSourceResult is a source read: a project's settings, a way to add
// its pages to an import, and what reading left out.
type readSourceResult struct {
	project site.Project
	add     func(*store.Import) error
	warns   []site.Warning
}

// readSource reads one source: a siteplan/1 document from a file or
// standard input ("-"), a Mermaid diagram (at baseURL), else the sitemaps
// the source leads to, as a plan.
func readSource(ctx context.Context, src, name, baseURL string, stdin io.Reader, web sitemap.Opener) (readSourceResult, error) {
	if d, ok, err := readMermaidFile(src, name, baseURL); ok {
		if err != nil {
			return readSourceResult{}, err
		}
		return readSourceResult{project: d.Project.ToProject(), add: func(im *store.Import) error { return im.AddDocument(d) }}, nil
	}
	if src == "-" || isJSONFile(src) {
		var d *site.Document
		var err error
		if src == "-" {
			d, err = site.ParseDocument(stdin)
		} else {
			d, err = site.ReadDocumentFile(src)
		}
		if err == nil {
			err = d.Validate() // now, so that a bad document imports nothing of the others
		}
		if err != nil {
			return readSourceResult{}, err
		}
		var warns []site.Warning
		if note := d.HomeNote(); note != "" {
			warns = append(warns, site.Warning{Reason: note})
		}
		return readSourceResult{project: d.Project.ToProject(), add: func(im *store.Import) error { return im.AddDocument(d) }, warns: warns}, nil
	}
	rep, plan, more, err := (&sitemap.Reader{Web: web, Local: true}).ReadPlan(ctx, src, nil, name)
	if err != nil {
		return readSourceResult{}, err
	}
	var warns []site.Warning
	for _, f := range rep.Files {
		if f.Err != "" {
			warns = append(warns, site.Warning{Reason: f.Loc + " was not read: " + f.Err})
		}
	}
	return readSourceResult{project: plan.Project, add: func(im *store.Import) error { return im.AddAll(plan.Pages()) }, warns: append(warns, more...)}, nil
}

// isJSONFile reports whether path is a siteplan/1 document rather than a
// sitemap source: named .json, or starting (after a BOM and spaces) with {.
func isJSONFile(path string) bool {
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	b := bytes.TrimLeft(bytes.TrimPrefix(head[:n], []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

// importRemote sends each siteplan/1 document to the server, which
// makes a project of it in the token's team, and prints each new
// project's id. A sitemap source is the server's to read, in its
// editor: the command sends documents.
func importRemote(ctx context.Context, server string, sources []string, name, baseURL string, stdin io.Reader, stdout io.Writer) error {
	r, err := newRemote(server)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	for _, src := range sources {
		var b []byte
		if src == "-" {
			b, err = io.ReadAll(io.LimitReader(stdin, site.MaxDocumentBytes+1))
		} else {
			b, err = os.ReadFile(src)
		}
		if err != nil {
			return fmt.Errorf("import %s: with --server, a source is a siteplan/1 document or Mermaid file (or - for standard input): %w", src, err)
		}
		if isMermaid(src, b) {
			d, err := mermaidPlan(string(b), src, name, baseURL)
			if err != nil {
				return fmt.Errorf("import %s: %w", src, err)
			}
			if b, err = json.Marshal(d); err != nil {
				return err
			}
		}
		if _, err := site.ParseDocument(bytes.NewReader(b)); err != nil { // refused here, whole, before anything is sent
			return fmt.Errorf("import %s: with --server, a source is a siteplan/1 document: %w", src, err)
		}
		var p struct {
			ID int64 `json:"id"`
		}
		if _, err := r.call(ctx, "POST", "/projects", json.RawMessage(b), &p); err != nil {
			return fmt.Errorf("import %s: %w", src, err)
		}
		fmt.Fprintln(stdout, p.ID)
	}
	return nil
}

// readMermaidFile reads src as a new plan when it is a Mermaid file (ok).
func readMermaidFile(src, name, baseURL string) (*site.Document, bool, error) {
	if src == "-" {
		return nil, false, nil
	}
	f, err := os.Open(src)
	if err != nil {
		return nil, false, nil // not a file: a site or a URL
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	if !isMermaid(src, head[:n]) {
		return nil, false, nil // a sitemap or a document: read by its reader
	}
	rest, err := io.ReadAll(io.LimitReader(f, site.MaxDocumentBytes))
	if err != nil {
		return nil, true, err
	}
	d, err := mermaidPlan(string(head[:n])+string(rest), src, name, baseURL)
	return d, true, err
}
