package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
)

// dumpCmd writes a project as a siteplan/1 document to stdout.
func dumpCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	project := fs.String("project", "", "project ID")
	if err := parse(fs, args); err != nil {
		return err
	}
	db, id, err := openProject(fs, *project)
	if err != nil {
		return err
	}
	defer db.Close()
	d, err := db.Projects.Document(context.Background(), id)
	if err != nil {
		return fmt.Errorf("dump: %w", err)
	}
	return d.Encode(stdout)
}
