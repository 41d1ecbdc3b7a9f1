package store

import (
	"context"
	"database/sql"
	"slices"
	"strings"

	"siteplan/site"
)

// Search returns at most limit pages of the plan that match q, but not
// page except: first those whose title starts with q, in title order,
// then those with q's words in a row anywhere in their title or slug,
// the last one cut short or not, whatever the case and accents
// (site.SearchKey); a blank q, the first pages in title
// order. It reads an index, never the whole plan, and each found page's
// ancestors for its URL. A guest's viewer sees the pages as their
// projection shows them. Errors: none of its own (a plan that is not
// there has no pages to find); a database error as it is.
func (db *Pages) Search(ctx context.Context, projectID int64, q string, except int64, limit int) ([]site.Found, error) {
	key := site.SearchKey(q)
	if key == "" && strings.TrimSpace(q) != "" {
		return nil, nil // nothing a title may hold: only signs
	}
	from, to := key, key+"\U0010FFFF" // the keys that start with key
	ids, err := collect(ctx, db.r, scanID, `SELECT id FROM pages WHERE project_id = ? AND search_key >= ? AND search_key < ? AND id <> ?
		ORDER BY search_key, id LIMIT ?`, projectID, from, to, except, limit)
	if err != nil {
		return nil, translate(err)
	}
	if len(ids) < limit && key != "" {
		pages, match, arg := db.wordsMatch(strings.Fields(key))
		more, err := collect(ctx, db.r, scanID, `SELECT p.id FROM `+pages+` WHERE `+match+` AND p.project_id = ?
			AND p.id <> ? AND NOT (p.search_key >= ? AND p.search_key < ?) LIMIT ?`, arg, projectID, except, from, to, limit-len(ids))
		if err != nil {
			return nil, translate(err)
		}
		slices.Sort(more) // the order pages came in, whichever order the index gave them
		ids = append(ids, more...)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	t, err := db.parts.Redirects.TreeOf(ctx, projectID, ids)
	if err != nil {
		return nil, err
	}
	out := make([]site.Found, 0, len(ids))
	for _, id := range ids {
		if p := t.Page(id); p != nil {
			found := site.Found{Page: *p, URL: t.Location(id)}
			site.ProjectionFrom(ctx).Page(&found.Page)
			out = append(out, found)
		}
	}
	return out, nil
}

// goSteps are the migrations' steps written in Go, by version, each run
// in its migration's transaction after its SQL: what SQL cannot compute.
var goSteps = map[int]func(ctx context.Context, tx *sql.Tx) error{34: fillSearch}

// fillSearch writes the search columns of the pages a database kept
// before it had them (0034_page_search.sql).
func fillSearch(ctx context.Context, tx *sql.Tx) error {
	type row struct {
		id          int64
		title, slug string
	}
	for last := int64(0); ; { // a batch at a time: a plan may have a million pages
		rows, err := collect(ctx, tx, func(r *sql.Rows) (x row, err error) { return x, r.Scan(&x.id, &x.title, &x.slug) },
			`SELECT id, title, slug FROM pages WHERE id > ? ORDER BY id LIMIT 5000`, last)
		if err != nil || len(rows) == 0 {
			return err
		}
		for _, r := range rows {
			if _, err := tx.ExecContext(ctx, `UPDATE pages SET search_key = ?, search_words = ? WHERE id = ?`,
				site.SearchKey(r.title), site.SearchWords(r.title, r.slug), r.id); err != nil {
				return err
			}
		}
		last = rows[len(rows)-1].id
	}
}
