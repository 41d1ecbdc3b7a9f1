package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// historyStore is the change log, versions and sign-offs.
type historyStore interface {
	Undo(ctx context.Context, projectID int64) (site.Change, error)
	Redo(ctx context.Context, projectID int64) (site.Change, error)
	History(ctx context.Context, projectID, pageID, before int64, limit int) ([]site.Change, error)
	RestoreDeleted(ctx context.Context, projectID, changeID int64) (site.Change, error)
	CreateVersion(ctx context.Context, projectID int64, name string) (site.Version, error)
	LaunchVersion(ctx context.Context, projectID int64, name string) (site.Version, error)
	Versions(ctx context.Context, projectID int64) ([]site.Version, error)
	Version(ctx context.Context, projectID int64, number int) (site.Version, *site.Tree, []site.Link, error)
	RestoreVersion(ctx context.Context, projectID int64, number int) (site.Change, error)
	ReplacePlan(ctx context.Context, projectID int64, doc *site.Document, version int64) (site.Change, error)
	Approve(ctx context.Context, projectID int64, number int, pageID int64, name string) (site.Approval, error)
	VoidApproval(ctx context.Context, projectID int64, number int, id int64) error
	MarkChanged(ctx context.Context, projectID int64, vs []site.Version) error
}

// historyPage is how many changes the History panel shows at a time.
const historyPage = 50

// undo reverts the caller's own last change (POST /projects/ID/undo).
func (s *Server) undo(c echo.Context) error {
	ch, err := s.store.history.Undo(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	return s.afterFlip(c, "Undone", ch)
}

// redo reapplies the change the caller undid last.
func (s *Server) redo(c echo.Context) error {
	ch, err := s.store.history.Redo(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	return s.afterFlip(c, "Redone", ch)
}

// afterFlip answers an undo or redo: a notice for the editor's script,
// or for a plain form, the editor again.
func (s *Server) afterFlip(c echo.Context, what string, ch site.Change) error {
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, projectPath(currentProject(c).ID))
	}
	// Views other than the editor's (the Redirects view) reload on it.
	c.Response().Header().Set("HX-Trigger", "undone")
	_, err := s.store.pages.Page(c.Request().Context(), ch.PageID)
	gone := site.ErrorCode(err) == site.ENotFound
	if err != nil && !gone {
		return err
	}
	return render(c, http.StatusOK, views.Undone(what, ch, gone && ch.PageID != 0))
}

// history is the History panel, of the project or of one page
// (?page=ID), older changes from ?before=ID.
func (s *Server) history(c echo.Context) error {
	ctx := c.Request().Context()
	p := currentProject(c)
	props := views.HistoryProps{Project: p}
	pageID, err := queryID(c, "page")
	if err != nil {
		return err
	}
	before, err := queryID(c, "before")
	if err != nil {
		return err
	}
	if pageID != 0 {
		pg, err := s.store.pages.Page(ctx, pageID)
		if err != nil || pg.ProjectID != p.ID {
			return site.Errorf(site.ENotFound, "That page is not in this plan.")
		}
		props.Page = &pg
	}
	if err := s.loadChanges(ctx, &props, pageID, before); err != nil {
		return err
	}
	if before != 0 { // the next rows of a panel already shown
		return render(c, http.StatusOK, views.HistoryEntries(props))
	}
	return s.renderHistory(c, props)
}

// loadChanges fills props with one page of the history (of pageID, or
// of the whole project; before the change before, or from the newest)
// and notes where older changes start.
func (s *Server) loadChanges(ctx context.Context, props *views.HistoryProps, pageID, before int64) error {
	var err error
	if props.Changes, err = s.store.history.History(ctx, props.Project.ID, pageID, before, historyPage+1); err != nil {
		return err
	}
	if len(props.Changes) > historyPage {
		props.Changes = props.Changes[:historyPage]
		props.More = props.Changes[historyPage-1].ID
	}
	return nil
}

// renderHistory renders the whole panel with the sign-offs above it.
func (s *Server) renderHistory(c echo.Context, props views.HistoryProps) error {
	var err error
	if props.Versions, err = s.markedVersions(c); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.HistoryPanel(props))
}

// markedVersions lists the project's versions with their sign-offs
// marked changed since or not, taking a turn at the gate for a large plan.
func (s *Server) markedVersions(c echo.Context) ([]site.Version, error) {
	ctx, done, err := s.largeTurn(c)
	if err != nil {
		return nil, err
	}
	defer done()
	pid := currentProject(c).ID
	vs, err := s.store.history.Versions(ctx, pid)
	if err != nil {
		return nil, err
	}
	return vs, s.store.history.MarkChanged(ctx, pid, vs)
}

// restoreDeleted brings back the branch a deletion in the history took.
func (s *Server) restoreDeleted(c echo.Context) error {
	ctx := c.Request().Context()
	p := currentProject(c)
	cid, err := idParam(c, "cid")
	if err != nil {
		return err
	}
	ch, err := s.store.history.RestoreDeleted(ctx, p.ID, cid)
	if err != nil {
		return err
	}
	trigger(c, "page-saved", ch.PageID)
	props := views.HistoryProps{Project: p, Restored: ch.Sentence() + "."}
	if err := s.loadChanges(ctx, &props, 0, 0); err != nil {
		return err
	}
	return s.renderHistory(c, props)
}

// queryID reads an optional whole number (an id, a depth) from the query:
// 0 when absent. Errors: EInvalid.
func queryID(c echo.Context, name string) (int64, error) {
	v := strings.TrimSpace(c.QueryParam(name))
	if v == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id < 0 {
		return 0, site.Errorf(site.EInvalid, "%s must be a whole number, got %q.", name, v)
	}
	return id, nil
}
