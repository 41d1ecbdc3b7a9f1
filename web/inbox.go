package web

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// inboxStore is each member's inbox and what they watch.
type inboxStore interface {
	Inbox(ctx context.Context, userID int64, limit int) ([]site.Notification, error)
	Unread(ctx context.Context, userID int64) (int, error)
	ReadNotification(ctx context.Context, userID, id int64) (site.Notification, error)
	ReadAll(ctx context.Context, userID int64) error
	Watch(ctx context.Context, userID, projectID int64, on bool) error
	Watching(ctx context.Context, userID, projectID int64) (bool, error)
	MentionNames(ctx context.Context, projectID int64) ([]string, error)
}

// inboxShown is how many notifications the inbox lists.
const inboxShown = 100

// unread is the top bar's count of the viewer's unread notifications (0
// for a share link's visitor, who has no inbox).
func (s *Server) unread(c echo.Context) int {
	v := viewer(c)
	if v.UserID == 0 || v.Share {
		return 0
	}
	n, err := s.store.inbox.Unread(c.Request().Context(), v.UserID)
	if err != nil {
		s.log.Error("counting unread notifications", "err", err)
	}
	return n
}

// inbox lists the viewer's notifications, newest first.
func (s *Server) inbox(c echo.Context) error {
	ns, err := s.store.inbox.Inbox(c.Request().Context(), viewer(c).UserID, inboxShown)
	if err != nil {
		return err
	}
	mail, err := s.store.mail.MailSettings(c.Request().Context(), viewer(c).UserID)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.Inbox(views.InboxProps{Layout: s.layout(c, "Inbox"), Notifications: ns, Mail: mail, Mailing: s.mailing}))
}

// openNotification marks a notification read and goes where it happened.
func (s *Server) openNotification(c echo.Context) error {
	id, _ := strconv.ParseInt(c.Param("nid"), 10, 64)
	n, err := s.store.inbox.ReadNotification(c.Request().Context(), viewer(c).UserID, id)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, n.Path)
}

// readAll marks every notification of the viewer read.
func (s *Server) readAll(c echo.Context) error {
	if err := s.store.inbox.ReadAll(c.Request().Context(), viewer(c).UserID); err != nil {
		return err
	}
	return redirect(c, "/inbox")
}

// watch makes the viewer a watcher of the project, or not (on=0): they
// hear of its comments and sign-offs in their inbox.
func (s *Server) watch(c echo.Context) error {
	p := currentProject(c)
	on := c.FormValue("on") != "0"
	if err := s.store.inbox.Watch(c.Request().Context(), viewer(c).UserID, p.ID, on); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.WatchButton(p.ID, on))
}
