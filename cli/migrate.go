package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"siteplan/store"
)

// migrateCmd copies a whole database, SQLite or PostgreSQL, into a new
// one of either kind, and prints the rows of each table it copied.
func migrateCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	from := fs.String("from", "", "the database to copy: a SQLite file or a postgres:// URL")
	to := fs.String("to", "", "the new database: a SQLite file or a postgres:// URL")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *from == "" || *to == "" {
		return errors.New("migrate: --from and --to are both required (a SQLite file or a postgres:// URL)")
	}
	if *from == *to {
		return errors.New("migrate: --from and --to are the same database")
	}
	src, err := store.Open(*from)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer src.Close()
	dst, err := store.Open(*to)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer dst.Close()
	copied, err := store.Copy(context.Background(), src, dst)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var total int64
	for _, c := range copied {
		fmt.Fprintf(stdout, "%-16s %d\n", c.Table, c.Rows)
		total += c.Rows
	}
	_, err = fmt.Fprintf(stdout, "copied %d rows in %d tables; each table's count checked\n", total, len(copied))
	return err
}

// backupCmd writes a consistent SQLite copy of the database, which may
// be serving meanwhile.
func backupCmd(fs *flag.FlagSet, args []string, _ io.Reader, stdout io.Writer) error {
	out := fs.String("out", "", "the backup's file (SQLite)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("backup: --out FILE is required")
	}
	db, err := openDB(fs)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer db.Close()
	if err := store.Backup(context.Background(), db, *out); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	_, err = fmt.Fprintln(stdout, *out)
	return err
}
