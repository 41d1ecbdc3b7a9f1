package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"siteplan/site"
)

// importCmd validates every document before writing any, then imports
// each into the team in its own transaction and prints the new project
// IDs, one a line.
func importCmd(fs *flag.FlagSet, args []string, stdin io.Reader, stdout io.Writer) error {
	team := fs.String("team", "", "team id or name; may be left out when the database has one team")
	if err := parse(fs, args); err != nil {
		return err
	}
	paths := fs.Args()
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
	db, err := openDB(fs)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	t, err := db.FindTeam(ctx, *team)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	for i, d := range docs {
		id, err := db.ImportDocument(ctx, t.ID, d)
		if err != nil {
			return fmt.Errorf("import %s: %w", paths[i], err)
		}
		fmt.Fprintln(stdout, id)
	}
	return nil
}

// readDocument parses a siteplan/1 document from a file, or from stdin
// for "-".
func readDocument(path string, stdin io.Reader) (*site.Document, error) {
	if path == "-" {
		return site.ParseDocument(stdin)
	}
	return site.ReadDocumentFile(path)
}
