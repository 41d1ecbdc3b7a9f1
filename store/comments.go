package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"siteplan/site"
)

// AddComment stores c: a new thread on c.PageID, or a reply when
// c.ParentID names a thread on the same page. c.ID and c.CreatedAt are
// set. A reply reopens a resolved thread. Errors: EInvalid, ENotFound.
func (db *Comments) AddComment(ctx context.Context, c *site.Comment, shareLinkID int64) error {
	c.Author, c.Body = strings.TrimSpace(c.Author), strings.TrimSpace(c.Body)
	if err := site.ValidateComment(c.Author, c.Body); err != nil {
		return err
	}
	c.CreatedAt = db.Now()
	// A comment is its plan's write: on PostgreSQL it waits for that
	// plan's writes, not for every plan's (projectTx).
	return db.projectTx(ctx, func(tx *sql.Tx) error {
		if err := db.lockProject(ctx, tx, c.ProjectID); err != nil {
			return err
		}
		var pid int64
		err := tx.QueryRowContext(ctx, `SELECT project_id FROM pages WHERE id = ?`, c.PageID).Scan(&pid)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && pid != c.ProjectID) {
			return site.Errorf(site.ENotFound, "The page was deleted in the meantime.")
		} else if err != nil {
			return err
		}
		if shareLinkID != 0 { // a guest on a share link: never in a member's name
			var taken bool
			if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id
				JOIN projects p ON p.team_id = m.team_id WHERE p.id = ? AND lower(u.name) = lower(?))`, c.ProjectID, c.Author).Scan(&taken); err != nil {
				return err
			}
			if taken {
				msg := fmt.Sprintf("“%s” is the name of someone on the agency's team: sign with a name of your own, such as “%s (%s)”.", c.Author, c.Author, "your company")
				return &site.Error{Code: site.EInvalid, Message: msg, Fields: map[string]string{"author": msg}}
			}
		}
		if c.ParentID != 0 {
			var page int64
			var parent sql.NullInt64
			err := tx.QueryRowContext(ctx, `SELECT page_id, parent_id FROM comments WHERE id = ?`, c.ParentID).Scan(&page, &parent)
			if errors.Is(err, sql.ErrNoRows) || (err == nil && (page != c.PageID || parent.Valid)) {
				return site.Errorf(site.ENotFound, "The comment to reply to no longer exists.")
			} else if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE comments SET resolved_at = NULL, resolved_by = '' WHERE id = ?`, c.ParentID); err != nil {
				return err
			}
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO comments (project_id, page_id, parent_id, user_id, share_link_id, author, body, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			c.ProjectID, c.PageID, nullID(c.ParentID), nullID(c.UserID), nullID(shareLinkID), c.Author, c.Body, fmtTime(c.CreatedAt)).Scan(&c.ID); err != nil {
			return err
		}
		if err := commented(ctx, tx, c.ProjectID); err != nil {
			return err
		}
		if err := db.lockTeamOf(ctx, tx, c.ProjectID); err != nil { // the team's webhooks count what they hold
			return err
		}
		kind := site.EventComment
		if c.ParentID != 0 {
			kind = site.EventReply
		}
		return db.enqueue(ctx, tx, site.Event{Kind: kind, ProjectID: c.ProjectID, PageID: c.PageID, Actor: c.By(), ActorID: c.UserID,
			ThreadID: c.ParentID, Body: c.Body, At: c.CreatedAt})
	})
}

const commentCols = `c.id, c.project_id, c.page_id, coalesce(c.parent_id, 0), c.author, coalesce(c.user_id, 0), c.body,
	c.created_at, c.resolved_at, c.resolved_by, p.title`

func queryComments(ctx context.Context, q querier, query string, args ...any) ([]site.Comment, error) {
	return collect(ctx, q, func(rows *sql.Rows) (site.Comment, error) {
		var c site.Comment
		var created, resolved sql.NullString
		err := rows.Scan(&c.ID, &c.ProjectID, &c.PageID, &c.ParentID, &c.Author, &c.UserID, &c.Body,
			&created, &resolved, &c.ResolvedBy, &c.PageTitle)
		c.CreatedAt, c.ResolvedAt = parseTime(created), parseTime(resolved)
		return c, err
	}, query, args...)
}

// threads nests replies under their threads, keeping the order.
func threads(all []site.Comment) []site.Comment {
	var out []site.Comment
	at := map[int64]int{}
	for _, c := range all {
		if c.ParentID == 0 {
			at[c.ID] = len(out)
			out = append(out, c)
		}
	}
	for _, c := range all {
		if i, ok := at[c.ParentID]; ok && c.ParentID != 0 {
			out[i].Replies = append(out[i].Replies, c)
		}
	}
	return out
}

// Comments returns the threads of a page, oldest first, open and resolved.
// Errors: none of its own; a database error as it is.
func (db *Comments) Comments(ctx context.Context, pageID int64) ([]site.Comment, error) {
	all, err := queryComments(ctx, db.r, `SELECT `+commentCols+` FROM comments c JOIN pages p ON p.id = c.page_id
		WHERE c.page_id = ? ORDER BY c.id`, pageID)
	return threads(all), err
}

// OpenComments returns the open threads of a project with their replies,
// newest thread first.
// Errors: none of its own; a database error as it is.
func (db *Comments) OpenComments(ctx context.Context, projectID int64) ([]site.Comment, error) {
	all, err := queryComments(ctx, db.r, `SELECT `+commentCols+` FROM comments c JOIN pages p ON p.id = c.page_id
		WHERE c.project_id = ? AND coalesce(c.parent_id, c.id) IN
			(SELECT id FROM comments WHERE project_id = ? AND parent_id IS NULL AND resolved_at IS NULL)
		ORDER BY coalesce(c.parent_id, c.id) DESC, c.id`, projectID, projectID)
	return threads(all), err
}

// OpenCommentCounts returns how many open threads each page of a project
// has; pages without any are left out.
// Errors: none of its own; a database error as it is.
func (db *Comments) OpenCommentCounts(ctx context.Context, projectID int64) (map[int64]int, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT page_id, count(*) FROM comments
		WHERE project_id = ? AND parent_id IS NULL AND resolved_at IS NULL GROUP BY page_id`, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}

// Comment returns one comment of a project. Errors: ENotFound.
func (db *Comments) Comment(ctx context.Context, projectID, id int64) (site.Comment, error) {
	cs, err := queryComments(ctx, db.r, `SELECT `+commentCols+` FROM comments c JOIN pages p ON p.id = c.page_id
		WHERE c.id = ? AND c.project_id = ?`, id, projectID)
	if err == nil && len(cs) == 0 {
		err = site.Errorf(site.ENotFound, "That comment no longer exists.")
	}
	if err != nil {
		return site.Comment{}, err
	}
	return cs[0], nil
}

// ResolveComment resolves (or, with resolved false, reopens) the thread
// a comment belongs to, naming who did it. Errors: ENotFound.
func (db *Comments) ResolveComment(ctx context.Context, projectID, id int64, by string, resolved bool) error {
	return db.projectTx(ctx, func(tx *sql.Tx) error {
		if err := db.lockProject(ctx, tx, projectID); err != nil {
			return err
		}
		at, who := any(nil), ""
		if resolved {
			at, who = fmtTime(db.Now()), by
		}
		res, err := tx.ExecContext(ctx, `UPDATE comments SET resolved_at = ?, resolved_by = ?
			WHERE id = (SELECT coalesce(parent_id, id) FROM comments WHERE id = ? AND project_id = ?)`, at, who, id, projectID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return site.Errorf(site.ENotFound, "That comment no longer exists.")
		}
		return commented(ctx, tx, projectID)
	})
}

// commented counts a comment written or resolved on the project's pages
// (site.Project.CommentVersion).
func commented(ctx context.Context, tx *sql.Tx, projectID int64) error {
	_, err := tx.ExecContext(ctx, `UPDATE projects SET comment_version = comment_version + 1 WHERE id = ?`, projectID)
	return err
}
