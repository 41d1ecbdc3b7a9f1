package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"siteplan/site"
	"siteplan/store"
)

// shareCreateCmd makes a share link and prints its path, the only copy of
// its token.
func shareCreateCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	role := fs.String("role", "", "view or comment")
	expires := fs.String("expires", "", "how long the link works; empty: until revoked")
	l := site.ShareLink{}
	check = func() error {
		l.Role = *role
		if *expires != "" {
			d, err := site.ParseDuration(*expires)
			if err != nil {
				return fmt.Errorf("share create: --expires: %w", err)
			}
			l.ExpiresAt = time.Now().Add(d)
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		l.ProjectID = id
		token, err := db.Sharing.CreateShareLink(ctx, &l)
		if err != nil {
			return fmt.Errorf("share create: %w", err)
		}
		_, err = fmt.Fprintf(stdout, "/s/%s\n", token)
		return err
	}
}
