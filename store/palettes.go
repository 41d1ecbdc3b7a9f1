package store

import (
	"context"
	"database/sql"
	"slices"
	"strings"

	"siteplan/site"
)

// TeamPalette returns a team's page-type colours: every type its plans
// have used (the pages' triggers add them), in first-use order.
func (db *DB) TeamPalette(ctx context.Context, teamID int64) (site.Palette, error) {
	return db.palette(ctx, `SELECT type, color FROM type_colors WHERE team_id = ? ORDER BY position`, teamID)
}

// ProjectPalette returns the page-type colours of a project's team (an
// empty palette if there is no such project).
func (db *DB) ProjectPalette(ctx context.Context, projectID int64) (site.Palette, error) {
	return db.palette(ctx, `SELECT type, color FROM type_colors
		WHERE team_id = (SELECT team_id FROM projects WHERE id = ?) ORDER BY position`, projectID)
}

func (db *DB) palette(ctx context.Context, query string, id int64) (site.Palette, error) {
	types, err := collect(ctx, db.r, func(rows *sql.Rows) (t site.TypeColor, err error) {
		return t, rows.Scan(&t.Type, &t.Color)
	}, query, id)
	if err != nil {
		return site.Palette{}, err
	}
	return site.NewPalette(types), nil
}

// SetTypeColors sets the colours a team chose for its page types, a
// type mapped to "" going back to its default. Errors: EInvalid naming
// the type whose colour is not #rrggbb or that the team's plans have not
// used; nothing is saved then.
func (db *DB) SetTypeColors(ctx context.Context, teamID int64, colors map[string]string) error {
	types := make([]string, 0, len(colors))
	for t := range colors {
		types = append(types, t)
	}
	slices.Sort(types)
	for _, t := range types {
		c, ok := site.ValidColor(colors[t])
		if !ok && c != "" {
			return site.Errorf(site.EInvalid, "The colour of “%s” must be written #rrggbb, like #6d9eeb.", t)
		}
		colors[t] = c
	}
	return db.tx(ctx, func(tx *sql.Tx) error {
		var unknown []string
		for _, t := range types {
			res, err := tx.ExecContext(ctx, `UPDATE type_colors SET color = ? WHERE team_id = ? AND type = ?`, colors[t], teamID, t)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				unknown = append(unknown, "“"+t+"”")
			}
		}
		if len(unknown) > 0 {
			return site.Errorf(site.EInvalid, "No page of this team has the type %s; reload the page to see the types in use.", strings.Join(unknown, ", "))
		}
		return nil
	})
}
