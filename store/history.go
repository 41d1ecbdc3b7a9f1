package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"siteplan/site"
)

// History returns a project's changes, newest first: those before the
// change before (0: from the newest), at most limit, and with pageID
// only those that touched that page (its links included). A deletion
// whose pages are all still gone is Restorable.
// Errors: none of its own; a database error as it is.
func (db *History) History(ctx context.Context, projectID, pageID, before int64, limit int) ([]site.Change, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	q := `SELECT ` + changeCols + ` FROM changes c WHERE c.project_id = ? AND c.id < ? ORDER BY c.id DESC LIMIT ?`
	args := []any{projectID, before, limit}
	if pageID != 0 {
		q = `SELECT ` + changeCols + ` FROM change_pages p JOIN changes c ON c.id = p.change_id
			WHERE p.page_id = ? AND c.project_id = ? AND c.id < ? ORDER BY c.id DESC LIMIT ?`
		args = []any{pageID, projectID, before, limit}
	}
	list, err := collect(ctx, db.r, func(rows *sql.Rows) (site.Change, error) { return scanChange(rows) }, q, args...)
	if err != nil {
		return nil, err
	}
	for i := range list {
		c := &list[i]
		c.Restorable = c.Verb == "delete" && c.State == site.ChangeDone && !exists(ctx, db.r, projectID, c.PageID)
	}
	return list, nil
}

// RestoreDeleted brings back the branch a deletion took, with its ids,
// links (to pages that are still there) and comments, at its old place;
// later changes stay. It is a change of its own, which can be undone.
// Errors: ENotFound, EInvalid (not a deletion), EConflict (its parent is
// gone, or a page of it is back already).
func (db *History) RestoreDeleted(ctx context.Context, projectID, changeID int64) (site.Change, error) {
	var ch site.Change
	err := db.change(ctx, func(j *journal) error {
		ctx, tx := j.ctx, j.tx
		if err := j.inProject(projectID); err != nil {
			return err
		}
		var verb, data string
		var pageID int64
		if err := tx.QueryRowContext(ctx, `SELECT verb, data, page_id FROM changes WHERE id = ? AND project_id = ?`, changeID, projectID).
			Scan(&verb, &data, &pageID); err != nil {
			return notFound(err, "That change is not in this plan's history.")
		}
		if verb != "delete" {
			return site.Errorf(site.EInvalid, "Only deleted pages can be restored from the history; undo other changes instead.")
		}
		var old changeData
		if err := json.Unmarshal([]byte(data), &old); err != nil {
			return err
		}
		d := &changeData{Comments: old.Comments}
		back := map[int64]bool{}
		var root string
		for _, pd := range old.Pages {
			if pd.Before != nil && pd.After == nil {
				d.Pages = append(d.Pages, pageDelta{ID: pd.ID, After: pd.Before})
				back[pd.ID] = true
				if pd.ID == pageID {
					root = pd.Before.Title
				}
			}
		}
		for _, ld := range old.Links {
			from := back[ld.From] || exists(ctx, tx, projectID, ld.From)
			to := back[ld.To] || exists(ctx, tx, projectID, ld.To)
			if ld.Before != nil && ld.After == nil && from && to {
				d.Links = append(d.Links, linkDelta{ID: ld.ID, From: ld.From, To: ld.To, After: ld.Before})
			}
		}
		if err := j.touchData(d); err != nil {
			return err
		}
		a := &applier{ctx: ctx, tx: tx, projectID: projectID, self: changeID, failed: "Nothing was restored: "}
		if err := a.apply(d, true); err != nil {
			return err
		}
		j.verb, j.pageID = "restore", pageID
		j.summary = "restored “" + root + "”" + belowWords(len(d.Pages)-1)
		ch = site.Change{ProjectID: projectID, Verb: j.verb, Summary: j.summary, PageID: pageID, Author: authorName(site.ViewerFrom(ctx))}
		return nil
	})
	return ch, err
}
