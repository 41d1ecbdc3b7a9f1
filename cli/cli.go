// Package cli is siteplan's command line (docs/cli.md): one file per verb,
// the shared prologue of the verbs that open a database and take --project,
// and the wiring of serve.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"siteplan/diagram"
	"siteplan/store"
)

const usage = `usage:
  siteplan serve  [--addr 127.0.0.1:8080] [--db FILE] [--public-url URL] [--smtp smtp://user:pass@host:port --mail-from ADDR]
                  [--allow-private-fetch] [--trusted-proxies CIDR,...]
  siteplan import [--db FILE | --server URL] [--team T] [--name NAME] [--base-url URL] [--allow-private] SOURCE...
                  (SOURCE: a siteplan/1 JSON file, "-" for one on standard input, a Mermaid flowchart or mindmap
                  (.mmd, at --base-url), or a sitemap source: a site such as example.com, a sitemap, index, .gz or
                  text sitemap URL or file)
  siteplan import [--db FILE | --server URL] --project ID --propose [--title T] SOURCE...
                  (each source a proposal on the plan, which a person accepts in the editor; prints its number)
  siteplan check  [--json] [--allow-private] SOURCE   (exit 0: no errors, 1: errors found, 2: could not read the source)
  siteplan dump   [--db FILE | --server URL] --project ID
  siteplan export [--db FILE | --server URL] --project ID --out DIR [--gzip] [--max-urls N] [--split-by-section] [--leaves-only]
                  [--section PAGE_ID] [--location URL] [--footer-depth 1|2]
  siteplan diagram [--db FILE] --project ID --format svg|png|pdf|dot|graphml|mermaid --out FILE [--layout tree|lr|radial] [--depth N]
                  [--root PAGE_ID] [--color type|status] [--links=false] [--client] [--locale TAG]
                  [--paper a4|a3|letter|tabloid] [--orientation landscape|portrait] [--one-sheet] [--cover]
  siteplan user add    [--db FILE] --email E --name N --team T --role owner|editor|viewer   (password on stdin)
  siteplan share create [--db FILE] --project ID --role view|comment [--expires DURATION]  (prints the share URL path)
  siteplan version create [--db FILE | --server URL] --project ID --name NAME [--launched]   (prints the new version number alone;
                  --launched: the site went live with it, and a change that moves one of its URLs records a redirect)
  siteplan version list   [--db FILE] --project ID
  siteplan diff    [--db FILE] --project ID --from N [--to M] [--json]   (--to defaults to the current plan)
  siteplan restore [--db FILE] --project ID --version N
  siteplan redirects match   [--db FILE] --project ID [--allow-private] OLD_SOURCE...
                  (attach the old site's URLs and match them to the plan: a site, a sitemap, a crawl CSV
                  such as Screaming Frog's Internal export, or a list of URLs)
  siteplan redirects traffic [--db FILE] --project ID FILE.csv   (Search Console's Pages export or an Analytics CSV)
  siteplan redirects export  [--db FILE | --server URL] --project ID --format FORMAT --out FILE
                  (FORMAT: csv, nginx, apache, caddy, netlify, cloudflare-pages, vercel, vercel-bulk, cloudflare, shopify, wordpress, iis)
  siteplan redirects import  [--db FILE] --project ID FILE.csv   (from,to,status,accepted,confidence,reason)
  siteplan redirects status  [--db FILE | --server URL] --project ID [--json]
  siteplan verify  [--db FILE | --server URL] --project ID [--version N|--approved] --base URL [--allow-private]
                  [--concurrency 8] [--json] [--junit FILE]   (exit 0: as planned, 1: problems found, 2: could not run)
  siteplan lint    [--db FILE] --project ID [--json]   (the briefs' SEO checks; exit 0: clean, 1: problems found)
  siteplan handoff [--db FILE] --project ID --format wxr|routes --out FILE   (the pages and briefs for the CMS)
  siteplan webhook add [--db FILE] --team T --url URL [--format slack|json] [--secret S] [--events comment,reply,...]
  siteplan migrate --from DB --to DB   (copy everything between SQLite and PostgreSQL, either way, into a new database)
  siteplan backup  [--db FILE] --out FILE   (a consistent SQLite copy, while the server runs)
  siteplan treetest create  [--db FILE] --project ID [--version N] --tasks FILE.json [--name NAME] [--all-navigation]
                  [--tasks-each N] [--random]   (prints the study's id, then its participant link's path)
  siteplan treetest results [--db FILE] --study S [--json] [--segment KEY=VALUE]
  siteplan treetest correct [--db FILE] --study S --task K --add PATH   (mark another page correct afterwards)
  siteplan treetest export  [--db FILE] --study S --out DIR   (events.csv, outcomes.csv, results.json, definitions.csv)
  siteplan token create [--db FILE] --email E [--team T] [--team-token] [--scope read|write|admin] [--project ID]
                  [--expires 90d] [--name NAME]   (prints the API token once; it is kept hashed)
  siteplan token list   [--db FILE] --email E [--team T] [--team-token]
  siteplan token revoke [--db FILE] --email E [--team T] [--team-token] --id N
  (--server URL, or $SITEPLAN_SERVER, with an API token in $SITEPLAN_TOKEN: the verb asks a running server)
  siteplan mcp     [--db FILE | --server URL]   (the MCP server over stdio, as the token of $SITEPLAN_TOKEN)
  siteplan healthcheck [--url http://127.0.0.1:8080/healthz]   (exit 0 when the server answers 200: a container's HEALTHCHECK)
  siteplan ratecard set [--db FILE] (--team T | --project ID) FILE.json   (the team's rate card, or a project's in its place)
  siteplan estimate [--db FILE] --project ID [--version N] [--from N [--to M]] [--json | --csv | --xlsx FILE]
                  (what the plan costs by its rate card; a version by the card it kept; what changed between two)

T is a team's id or name; import may leave it out when the database has one team.
DURATION is Go's (90m, 36h) or days and weeks (7d, 2w).

--db (a SQLite file or a postgres:// URL) defaults to $SITEPLAN_DB, then ./siteplan.db.
siteplan VERB --help prints a verb's flags.
`

// verb runs one command with its own flags; fs already has --db.
type verb func(fs *flag.FlagSet, args []string, stdin io.Reader, stdout io.Writer) error

// verbs are the commands by name ("user add", "share create", "version
// create" by their two words).
var verbs = map[string]verb{
	"serve":          serveCmd,
	"import":         importCmd,
	"check":          checkCmd,
	"dump":           projectVerb(dumpCmd),
	"export":         projectVerb(exportCmd),
	"diagram":        onProject(diagramCmd),
	"user add":       userAddCmd,
	"share create":   onProject(shareCreateCmd),
	"version create": projectVerb(versionCreateCmd),
	"version list":   onProject(versionListCmd),
	"diff":           onProject(diffCmd),
	"restore":        onProject(restoreCmd),
	// A relaunch's redirect map (redirects.go).
	"redirects match":   onProject(redirectsMatchCmd),
	"redirects traffic": onProject(redirectsTrafficCmd),
	"redirects export":  projectVerb(redirectsExportCmd),
	"redirects import":  onProject(redirectsImportCmd),
	"redirects status":  projectVerb(redirectsStatusCmd),
	"verify":            verifyCmd,
	"lint":              onProject(lintCmd),
	"handoff":           onProject(handoffCmd),
	"webhook add":       webhookAddCmd,
	"migrate":           migrateCmd,
	"backup":            backupCmd,
	// Tree tests (treetest.go).
	"treetest create":  onProject(treetestCreateCmd),
	"treetest results": onStudy(treetestResultsCmd),
	"treetest correct": onStudy(treetestCorrectCmd),
	"treetest export":  onStudy(treetestExportCmd),
	// API tokens (token.go).
	"token create": tokenCreateCmd,
	"token list":   tokenListCmd,
	"token revoke": tokenRevokeCmd,
	"mcp":          mcpCmd,
	// Rate cards and estimates (estimate.go).
	"ratecard set": ratecardSetCmd,
	"estimate":     onProject(estimateCmd),
	"healthcheck":  healthcheckCmd,
}

// Main runs the command line of os.Args and exits with its status: 0, 1
// for an error, or the status a verb asks for (check and verify: 2).
func Main() {
	diagram.ServeIfWorker() // when serve started this process to lay out diagrams
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "siteplan:", err)
		var exit *exitError
		if errors.As(err, &exit) {
			os.Exit(exit.code)
		}
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("no command given\n" + strings.TrimRight(usage, "\n"))
	}
	name, args := args[0], args[1:]
	switch name {
	case "help", "-h", "--help":
		_, err := io.WriteString(stdout, usage)
		return err
	case "user", "share", "version", "redirects", "webhook", "treetest", "token", "ratecard":
		if len(args) == 0 {
			return fmt.Errorf("%s: say what to do: siteplan user add, siteplan share create, siteplan version create|list, siteplan redirects match|traffic|export|import|status, siteplan webhook add, siteplan treetest create|results|correct|export, siteplan token create|list|revoke\n%s", name, usage)
		}
		name, args = name+" "+args[0], args[1:]
	}
	cmd, ok := verbs[name]
	if !ok {
		return fmt.Errorf("unknown command %q\n%s", name, usage)
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.String("db", defaultDB(), "the database: a SQLite file or a postgres:// URL ($SITEPLAN_DB when set)")
	err := cmd(fs, args, stdin, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return help(fs, stdout)
	}
	return err
}

// parse reads the flags of a verb. Errors: flag.ErrHelp for -h or
// --help (run then prints the verb's help), or what is wrong, with the
// usage.
func parse(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		return flag.ErrHelp
	}
	return fmt.Errorf("%s: %v\n%s", fs.Name(), err, usage)
}

// help prints a verb's lines of the usage and its flags.
func help(fs *flag.FlagSet, stdout io.Writer) error {
	var b strings.Builder
	b.WriteString("usage:\n")
	in := false
	for line := range strings.Lines(usage) {
		switch {
		case strings.HasPrefix(line, "  siteplan "+fs.Name()+" "):
			in = true
		case !strings.HasPrefix(line, "                  "):
			in = false
		}
		if in {
			b.WriteString(line)
		}
	}
	b.WriteString("\nflags:\n")
	fs.SetOutput(&b)
	fs.PrintDefaults()
	_, err := io.WriteString(stdout, b.String())
	return err
}

func defaultDB() string {
	if v := os.Getenv("SITEPLAN_DB"); v != "" {
		return v
	}
	return "siteplan.db"
}

// openDB opens the database named by the verb's --db flag.
func openDB(fs *flag.FlagSet) (*store.Store, error) {
	return store.Open(fs.Lookup("db").Value.String())
}

// projectRun does a verb on project id of db.
type projectRun func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error

// onProject is a verb on one project, the prologue they share in one
// place: setup adds the verb's own flags to fs and returns check, what
// the verb does once they are parsed and before its database is opened
// (what is wrong with its flags; a read of the web), nil for nothing,
// and run.
func onProject(setup func(fs *flag.FlagSet) (check func() error, run projectRun)) verb {
	return projectVerb(func(fs *flag.FlagSet) (func() error, projectRun, remoteRun) {
		check, run := setup(fs)
		return check, run, nil
	})
}

// projectVerb is the prologue of the verbs on one project: setup adds
// the verb's flags and returns its check, its run on a database and,
// for the verbs that also run against a server (--server), its remote
// run (nil for none).
func projectVerb(setup func(fs *flag.FlagSet) (check func() error, run projectRun, remote remoteRun)) verb {
	return func(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
		project := fs.String("project", "", "project ID")
		check, run, remote := setup(fs)
		var server *string
		if remote != nil {
			server = serverFlag(fs)
		}
		if err := parse(fs, args); err != nil {
			return err
		}
		if check != nil {
			if err := check(); err != nil {
				return err
			}
		}
		if server != nil && *server != "" {
			return runRemote(fs, *server, *project, remote, stdout)
		}
		db, id, err := openProject(fs, *project)
		if err != nil {
			return err
		}
		defer db.Close()
		return run(context.Background(), db, id, stdout)
	}
}

// openProject opens the database of a verb on one project and reads its
// --project value (the project's id, as import printed it).
func openProject(fs *flag.FlagSet, project string) (*store.Store, int64, error) {
	id, err := strconv.ParseInt(project, 10, 64)
	if err != nil || id <= 0 {
		return nil, 0, fmt.Errorf("%s: --project ID is required (a number, as import printed it)", fs.Name())
	}
	db, err := openDB(fs)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", fs.Name(), err)
	}
	return db, id, nil
}

// writeFileWhole writes the file at path through write, whole or not at
// all: into a temporary file beside it, renamed into place when done.
func writeFileWhole(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".siteplan-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
