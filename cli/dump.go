package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"siteplan/store"
)

// dumpCmd writes a project as a siteplan/1 document to stdout.
func dumpCmd(fs *flag.FlagSet) (check func() error, run projectRun, server remoteRun) {
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
			d, err := db.Projects.Document(ctx, id)
			if err != nil {
				return fmt.Errorf("dump: %w", err)
			}
			return d.Encode(stdout)
		}, func(ctx context.Context, r *remote, id int64, stdout io.Writer) error {
			b, err := r.call(ctx, "GET", project(id, "plan"), nil, nil)
			if err == nil {
				_, err = stdout.Write(b)
			}
			return err
		}
}
