package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"siteplan/fetch"
	"siteplan/site"
	"siteplan/sitemap"
)

// exitError ends the program with a status other than 1: check's 1
// (errors found, the report already printed) and 2 (the source could not
// be read).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// checkCmd reads every sitemap a source leads to and prints what search
// engines will reject (errors) and what they may make of the rest
// (warnings), grouped by file. Exit status 0: no errors; 1: errors
// found; 2: the source could not be read.
func checkCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	asJSON := fs.Bool("json", false, "print the report as JSON")
	allow := fs.Bool("allow-private", false, "allow loopback, private and link-local addresses (an intranet)")
	if err := parse(fs, args); err != nil {
		return &exitError{2, err}
	}
	if fs.NArg() != 1 {
		return &exitError{2, errors.New("check: name one source: a site (example.com), a sitemap URL or a file")}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rd := &sitemap.Reader{Web: fetch.New(fetch.Options{AllowPrivate: *allow}).Open, Local: true, Check: true}
	rep, err := rd.Read(ctx, fs.Arg(0), nil)
	if err != nil {
		return &exitError{2, fmt.Errorf("check: %w", err)}
	}
	n := rep.Errors()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			*sitemap.Reading
			Errors int `json:"errors"`
		}{rep, n}); err != nil {
			return err
		}
	} else if err := writeCheck(stdout, rep); err != nil {
		return err
	}
	if n > 0 {
		return &exitError{1, fmt.Errorf("check: %s", site.Plural(n, "error", "errors"))}
	}
	return nil
}

// writeCheck prints a reading as a report: the files read, then each
// file's errors and warnings.
func writeCheck(w io.Writer, rep *sitemap.Reading) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s, %s\n", rep.Source, site.Plural(len(rep.Files), "file", "files"), site.Plural(rep.URLs, "URL", "URLs"))
	if rep.Robots != "" && rep.RobotsNote != "" {
		fmt.Fprintf(&b, "robots.txt: %s gave no sitemap (%s); read /sitemap.xml, the usual place\n", rep.Robots, rep.RobotsNote)
	} else if rep.Robots != "" {
		fmt.Fprintf(&b, "robots.txt: %s\n", rep.Robots)
	}
	b.WriteString("\nFiles\n")
	for _, f := range rep.Files {
		fmt.Fprintf(&b, "  %s\n", f.Loc)
		switch {
		case f.Err != "":
			fmt.Fprintf(&b, "    not read: %s\n", f.Err)
		case f.Kind == sitemap.KindIndex:
			fmt.Fprintf(&b, "    sitemap index, %s, %s%s\n", site.Plural(f.URLs, "sitemap", "sitemaps"), site.Plural(int(f.Bytes), "byte", "bytes"), gzipNote(f.Gzip))
		default:
			fmt.Fprintf(&b, "    %s, %s, %s%s\n", kindName(f.Kind), site.Plural(f.URLs, "URL", "URLs"), site.Plural(int(f.Bytes), "byte", "bytes"), gzipNote(f.Gzip))
		}
		if f.Final != "" {
			fmt.Fprintf(&b, "    redirected to %s\n", f.Final)
		}
		if f.From != "" {
			fmt.Fprintf(&b, "    listed by %s\n", f.From)
		}
	}
	if rep.Unread > 0 {
		fmt.Fprintf(&b, "  and %s listed, not read: a reading reads the first %d\n", site.Plural(rep.Unread, "more file", "more files"), len(rep.Files))
	}
	for _, f := range rep.Files {
		if len(f.Problems) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s\n", f.Loc)
		for _, p := range f.Problems {
			what := "error"
			if !p.Error {
				what = "warning"
			}
			fmt.Fprintf(&b, "  %-7s %-13s %s\n", what, p.Rule, p.Msg)
			for _, also := range p.Also {
				fmt.Fprintf(&b, "  %-7s %-13s %s\n", "", "", also)
			}
			if rest := p.Count - 1 - len(p.Also); rest > 0 {
				fmt.Fprintf(&b, "  %-7s %-13s and %d more, %d in all\n", "", "", rest, p.Count)
			}
		}
	}
	fmt.Fprintf(&b, "\n%s, %s.\n", site.Plural(rep.Errors(), "error", "errors"), site.Plural(rep.Warnings(), "warning", "warnings"))
	_, err := io.WriteString(w, b.String())
	return err
}

func kindName(k string) string {
	if k == sitemap.KindText {
		return "text sitemap"
	}
	return "sitemap"
}

func gzipNote(gz bool) string {
	if gz {
		return " (gzip, size unpacked)"
	}
	return ""
}
