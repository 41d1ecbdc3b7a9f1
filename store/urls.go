package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"

	"siteplan/site"
)

// claimURLs keeps the rule that no two pages of a project share a URL, for
// the pages in roots and every page below them (0 in roots: every page of
// the project), inside the transaction that changed them: a derived slug
// that collides gets the next free number, which is written back; a typed
// one is refused (site.Tree.ClaimURLs). It returns the new slug of each
// page it renumbered. Errors: EInvalid.
func claimURLs(ctx context.Context, tx *sql.Tx, projectID int64, roots []int64) (map[int64]string, error) {
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
	for _, p := range renamed {
		if _, err := tx.ExecContext(ctx, `UPDATE pages SET slug = ? WHERE id = ?`, p.Slug, p.ID); err != nil {
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
	const below = `WITH RECURSIVE sub(id) AS (SELECT value FROM json_each(?)
		UNION SELECT c.id FROM pages c JOIN sub ON c.parent_id = sub.id) `
	var open int
	if err := tx.QueryRowContext(ctx, below+`SELECT count(*) FROM pages WHERE id IN (SELECT id FROM sub)
		AND kind = 'page' AND (path != '' OR slug = '')`, string(ids)).Scan(&open); err != nil {
		return nil, err
	}
	if open > 0 {
		return all()
	}
	return queryPages(ctx, tx, false, `WITH RECURSIVE sub(id) AS (SELECT value FROM json_each(?)
			UNION SELECT c.id FROM pages c JOIN sub ON c.parent_id = sub.id),
		slugs(s) AS (SELECT DISTINCT slug FROM pages WHERE id IN (SELECT id FROM sub) AND slug != ''),
		near(id) AS (
			SELECT id FROM sub
			UNION SELECT id FROM pages WHERE project_id = ? AND (path != '' OR slug = ''
				OR slug IN (SELECT s FROM slugs) OR EXISTS (SELECT 1 FROM slugs WHERE pages.slug GLOB s || '-[0-9]*'))
			UNION SELECT p.parent_id FROM pages p JOIN near ON p.id = near.id WHERE p.parent_id IS NOT NULL)
		SELECT `+pageCols+` FROM pages WHERE id IN (SELECT id FROM near)`, string(ids), projectID)
}
