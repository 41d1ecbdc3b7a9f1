package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"siteplan/store"
)

// dumpCmd writes a project as a siteplan/1 document to stdout.
func dumpCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		d, err := db.Projects.Document(ctx, id)
		if err != nil {
			return fmt.Errorf("dump: %w", err)
		}
		return d.Encode(stdout)
	}
}
