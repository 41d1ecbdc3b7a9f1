package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"siteplan/site"
)

// shareCreateCmd makes a share link and prints its path, the only copy of
// its token.
func shareCreateCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	project := fs.String("project", "", "project ID")
	role := fs.String("role", "", "view or comment")
	expires := fs.String("expires", "", "how long the link works; empty: until revoked")
	if err := parse(fs, args); err != nil {
		return err
	}
	l := site.ShareLink{Role: *role}
	if *expires != "" {
		d, err := site.ParseDuration(*expires)
		if err != nil {
			return fmt.Errorf("share create: --expires: %w", err)
		}
		l.ExpiresAt = time.Now().Add(d)
	}
	db, id, err := openProject(fs, *project)
	if err != nil {
		return err
	}
	defer db.Close()
	l.ProjectID = id
	token, err := db.Sharing.CreateShareLink(context.Background(), &l)
	if err != nil {
		return fmt.Errorf("share create: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "/s/%s\n", token)
	return err
}
