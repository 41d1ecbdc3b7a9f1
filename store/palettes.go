package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"

	"siteplan/site"
)

// TeamPalette returns a team's page-type colours: every type its plans
// have used (the pages' triggers add them), in first-use order.
// Errors: none of its own; a database error as it is.
func (db *Themes) TeamPalette(ctx context.Context, teamID int64) (site.Palette, error) {
	return db.palette(ctx, `SELECT type, color FROM type_colors WHERE team_id = ? ORDER BY position`, teamID)
}

// ProjectPalette returns the page-type colours of a project's team (an
// empty palette if there is no such project).
// Errors: none of its own; a database error as it is.
func (db *Themes) ProjectPalette(ctx context.Context, projectID int64) (site.Palette, error) {
	return db.palette(ctx, `SELECT type, color FROM type_colors
		WHERE team_id = (SELECT team_id FROM projects WHERE id = ?) ORDER BY position`, projectID)
}

func (db *conn) palette(ctx context.Context, query string, id int64) (site.Palette, error) {
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
func (db *Themes) SetTypeColors(ctx context.Context, teamID int64, colors map[string]string) error {
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

// TypeTemplates returns the templates of a team's page types: the
// blocks a page of each starts with (types without one are left out).
// Errors: those of the database.
func (db *Themes) TypeTemplates(ctx context.Context, teamID int64) (map[string][]site.Block, error) {
	out := map[string][]site.Block{}
	rows, err := db.r.QueryContext(ctx, `SELECT type, blocks FROM type_colors WHERE team_id = ? AND blocks != ''`, teamID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var ty, text string
		if err := rows.Scan(&ty, &text); err != nil {
			return nil, err
		}
		var bs []site.Block
		if err := json.Unmarshal([]byte(text), &bs); err != nil {
			return nil, err
		}
		out[ty] = bs
	}
	return out, rows.Err()
}

// PostTypes returns the WordPress post types a project's team hands its
// page types off as, those other than page. Errors: ENotFound.
func (db *Themes) PostTypes(ctx context.Context, projectID int64) (map[string]string, error) {
	return db.postTypes(ctx, `SELECT c.type, c.post_type FROM type_colors c JOIN projects p ON p.team_id = c.team_id
		WHERE p.id = ? AND c.post_type != ''`, projectID)
}

// TeamPostTypes is PostTypes of a team.
// Errors: none of its own; a database error as it is.
func (db *Themes) TeamPostTypes(ctx context.Context, teamID int64) (map[string]string, error) {
	return db.postTypes(ctx, `SELECT type, post_type FROM type_colors WHERE team_id = ? AND post_type != ''`, teamID)
}

func (db *conn) postTypes(ctx context.Context, query string, id int64) (map[string]string, error) {
	out := map[string]string{}
	rows, err := db.r.QueryContext(ctx, query, id)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	for rows.Next() {
		var ty, pt string
		if err := rows.Scan(&ty, &pt); err != nil {
			return nil, err
		}
		out[ty] = pt
	}
	return out, rows.Err()
}

// ProjectTemplates returns TypeTemplates of a project's team.
// Errors: none of its own; a database error as it is.
func (db *Themes) ProjectTemplates(ctx context.Context, projectID int64) (map[string][]site.Block, error) {
	var team int64
	if err := db.r.QueryRowContext(ctx, `SELECT team_id FROM projects WHERE id = ?`, projectID).Scan(&team); err != nil {
		return nil, translate(err)
	}
	return db.TypeTemplates(ctx, team)
}

// SetTypeTemplate sets the blocks a page of a team's type starts with
// (none: no template) and the WordPress post type it hands off as (""
// for page). Errors: EInvalid (a block that is wrong, a post type
// WordPress would not take, a type the team's plans have not used).
func (db *Themes) SetTypeTemplate(ctx context.Context, teamID int64, typ string, blocks []site.Block, postType string) error {
	blocks, err := site.NormalizeBlocks(blocks)
	if err != nil {
		return err
	}
	if postType, err = site.NormalizePostType(postType); err != nil {
		return err
	}
	text := ""
	if len(blocks) > 0 {
		b, _ := json.Marshal(blocks) // strings and bools: never an error
		text = string(b)
	}
	res, err := db.w.ExecContext(ctx, `UPDATE type_colors SET blocks = ?, post_type = ? WHERE team_id = ? AND type = ?`, text, postType, teamID, typ)
	if err != nil {
		return translate(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return site.Errorf(site.EInvalid, "No page of this team has the type “%s”; reload the page to see the types in use.", typ)
	}
	return nil
}

// startBlocks gives p, taking the type it has (new, or another than
// was), the blocks of its type's template, when it has none of its own:
// a new product page starts with the product template's blocks.
func startBlocks(ctx context.Context, tx *sql.Tx, p *site.Page, was string) error {
	if p.Type == "" || p.Type == was || len(p.Brief.Blocks) > 0 {
		return nil
	}
	var text string
	err := tx.QueryRowContext(ctx, `SELECT blocks FROM type_colors WHERE team_id = (SELECT team_id FROM projects WHERE id = ?) AND type = ?`,
		p.ProjectID, p.Type).Scan(&text)
	if err == sql.ErrNoRows || text == "" {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(text), &p.Brief.Blocks); err != nil {
		return err
	}
	for i := range p.Brief.Blocks {
		p.Brief.Blocks[i].Required = false
	}
	return nil
}
