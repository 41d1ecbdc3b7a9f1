package web

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// shareStore is what managing share links needs.
type shareStore interface {
	CreateShareLink(ctx context.Context, l *site.ShareLink) (string, error)
	ShareLinks(ctx context.Context, projectID int64) ([]site.ShareLink, error)
	RevokeShareLink(ctx context.Context, projectID, id int64) error
	Invite(ctx context.Context, token string) (site.Invite, site.Team, error)
	AcceptInvite(ctx context.Context, token string, userID int64) (int64, error)
	SignUpWithInvite(ctx context.Context, token, email, name, password string) (site.User, int64, error)
	UseShareLink(ctx context.Context, token string) (site.ShareLink, error)
	CreateInvite(ctx context.Context, teamID, byUserID int64, role string, ttl time.Duration) (string, error)
	Invites(ctx context.Context, teamID int64) ([]site.Invite, error)
	DeleteInvite(ctx context.Context, teamID, id int64) error
}

// openShareLink is where a share link leads: it remembers the link in a
// cookie and opens the project. The link is checked again on every
// request, so revoking or expiry takes effect at once.
func (s *Server) openShareLink(c echo.Context) error {
	token := c.Param("token")
	l, err := s.store.shares.UseShareLink(c.Request().Context(), token)
	if err != nil {
		return err
	}
	ttl := 365 * 24 * time.Hour
	if !l.ExpiresAt.IsZero() {
		ttl = time.Until(l.ExpiresAt)
	}
	s.setCookie(c, shareCookie, token, ttl)
	return c.Redirect(http.StatusSeeOther, "/projects/"+strconv.FormatInt(l.ProjectID, 10))
}

func (s *Server) sharingProps(c echo.Context, p site.Project) (views.ShareLinksProps, error) {
	links, err := s.store.shares.ShareLinks(c.Request().Context(), p.ID)
	return views.ShareLinksProps{ProjectID: p.ID, Links: links, Now: s.now()}, err
}

func (s *Server) sharing(c echo.Context) error {
	p := currentProject(c)
	props, err := s.sharingProps(c, p)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.Sharing(views.SharingProps{Layout: s.layout(c, "Share "+p.Name), Project: p, Links: props}))
}

func (s *Server) createShareLink(c echo.Context) error {
	p := currentProject(c)
	l := site.ShareLink{ProjectID: p.ID, Role: c.FormValue("role"), Label: c.FormValue("label")}
	if c.FormValue("choices") != "" { // the form's boxes, none ticked included; else the defaults
		form, _ := c.FormParams()
		l.Downloads, l.Statuses = append([]string{}, form["downloads"]...), form["statuses"]
	}
	var err error
	if v := c.FormValue("expires"); v != "" {
		var d time.Duration
		d, err = site.ParseDuration(v)
		l.ExpiresAt = s.now().Add(d)
	}
	var token string
	if err == nil {
		token, err = s.store.shares.CreateShareLink(c.Request().Context(), &l)
	}
	props, perr := s.sharingProps(c, p)
	if perr != nil {
		return perr
	}
	switch site.ErrorCode(err) {
	case "":
		props.NewURL = absURL(c, "/s/"+token)
		return render(c, http.StatusCreated, views.ShareLinks(props))
	case site.EInvalid:
		props.Error = site.ErrorMessage(err)
		return rerender(c, err, views.ShareLinks(props))
	}
	return err
}

func (s *Server) revokeShareLink(c echo.Context) error {
	p := currentProject(c)
	id, err := idParam(c, "sid")
	if err != nil {
		return err
	}
	if err := s.store.shares.RevokeShareLink(c.Request().Context(), p.ID, id); err != nil {
		return err
	}
	s.hub.kick(id)
	props, err := s.sharingProps(c, p)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ShareLinks(props))
}
