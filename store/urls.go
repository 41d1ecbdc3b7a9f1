package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"

	"siteplan/site"
)

// claimURLs keeps the rule that no two pages of a project share a URL, for
// the pages in roots and every page below them (0 in roots: every page of
// the project), inside the transaction that changed them: a derived slug
// that collides gets the next free number, which is written back; a typed
// one is refused (site.Tree.ClaimURLs). It returns the new slug of each
// page it renumbered. Errors: EInvalid.
//
// A journal, if given, notes the pages renumbered.
func claimURLs(ctx context.Context, tx *sql.Tx, j *journal, projectID int64, roots []int64) (map[int64]string, error) {
	pr, err := scanProject(tx.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ?`, projectID))
	if err != nil {
		return nil, err
	}
	pages, err := urlPages(ctx, tx, projectID, roots)
	if err != nil {
		return nil, err
	}
	renamed, err := site.NewTree(pr, pages).ClaimURLs(roots)
	if err != nil {
		return nil, err
	}
	slugs := make(map[int64]string, len(renamed))
	if j != nil {
		ids := make([]int64, len(renamed))
		for i, p := range renamed {
			ids[i] = p.ID
		}
		if err := j.touch(ids...); err != nil {
			return nil, err
		}
	}
	for _, p := range renamed {
		if _, err := tx.ExecContext(ctx, `UPDATE pages SET slug = ?, search_words = ? WHERE id = ?`, p.Slug, site.SearchWords(p.Title, p.Slug), p.ID); err != nil {
			return nil, err
		}
		slugs[p.ID] = p.Slug
	}
	return slugs, nil
}

// urlPages loads what the URLs of roots and the pages below them can
// collide with, with every page's ancestors so its URL can be derived:
// those pages themselves, and the pages whose URL could equal one of
// theirs, which are the pages with one of their slugs or a numbered
// variant of it ("faq-2"), with a path override, or with an empty slug.
// When a claiming page has an empty slug or a path override, any page
// could collide with it, and the whole project is loaded.
func urlPages(ctx context.Context, tx *sql.Tx, projectID int64, roots []int64) ([]site.Page, error) {
	all := func() ([]site.Page, error) {
		return queryPages(ctx, tx, false, `SELECT `+pageCols+` FROM pages WHERE project_id = ?`, projectID)
	}
	if slices.Contains(roots, 0) {
		return all()
	}
	ids, err := json.Marshal(roots)
	if err != nil {
		return nil, err
	}
	// The claiming pages and their slugs, first: a query that reads them
	// inside its own filter would walk the subtree once per page.
	var below []int64
	var slugs []string
	open := false
	// Two steps, the subtree's ids and then their rows: PostgreSQL
	// expects a recursive walk to find hundreds of rows and would join
	// them by reading every page of every plan; given the list, it looks
	// each up by its key (and SQLite does either way).
	sub, err := collect(ctx, tx, scanID, `WITH RECURSIVE sub(id) AS (SELECT CAST(value AS BIGINT) FROM json_each(?)
			UNION SELECT c.id FROM pages c JOIN sub ON c.parent_id = sub.id)
		SELECT id FROM sub`, string(ids))
	if err != nil {
		return nil, err
	}
	subJSON, _ := json.Marshal(sub)
	rows, err := tx.QueryContext(ctx, `SELECT id, slug, kind = 'page' AND (path != '' OR slug = '')
		FROM pages WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, string(subJSON))
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		var slug string
		var any bool
		if err := rows.Scan(&id, &slug, &any); err != nil {
			rows.Close()
			return nil, err
		}
		below = append(below, id)
		if slug != "" && !slices.Contains(slugs, slug) {
			slugs = append(slugs, slug)
		}
		open = open || any
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// SQLite allows 500 terms in a compound query: a large branch
	// (moved, pasted, duplicated) loads the project instead.
	if open || len(slugs) > 150 {
		return all()
	}
	belowJSON, _ := json.Marshal(below)
	// Each part reads an index: a slug, its numbered variants ("faq-2"
	// sorts between "faq-" and "faq."), both in page_slugs, and path
	// overrides and empty slugs. Each slug is a query of its own: one
	// condition with them all, or a json_each joined in, makes SQLite
	// walk every page of the project.
	args := []any{string(belowJSON), projectID}
	var parts strings.Builder
	for _, sl := range slugs {
		parts.WriteString("\n\t\t\tUNION SELECT page_id FROM page_slugs WHERE project_id = ?2 AND slug = ?")
		parts.WriteString("\n\t\t\tUNION SELECT page_id FROM page_slugs WHERE project_id = ?2 AND slug > ? AND slug < ?")
		args = append(args, sl, sl+"-", sl+".")
	}
	near, err := collect(ctx, tx, scanID, `WITH RECURSIVE near(id) AS (
			SELECT CAST(value AS BIGINT) FROM json_each(?1)
			UNION SELECT id FROM pages WHERE project_id = ?2 AND (path != '' OR slug = '')`+parts.String()+`
			UNION SELECT p.parent_id FROM pages p JOIN near ON p.id = near.id WHERE p.parent_id IS NOT NULL)
		SELECT id FROM near`, args...)
	if err != nil {
		return nil, err
	}
	nearJSON, _ := json.Marshal(near)
	return queryPages(ctx, tx, false, `SELECT `+pageCols+` FROM pages WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, string(nearJSON))
}
