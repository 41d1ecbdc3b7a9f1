package web

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/views"
)

// mailStore is what the inbox's e-mail settings and the unsubscribe
// links read and write.
type mailStore interface {
	ServerKey(ctx context.Context, name string) ([]byte, error)
	MailSettings(ctx context.Context, userID int64) (site.MailSettings, error)
	SetMailSettings(ctx context.Context, userID int64, m site.MailSettings) error
}

// unsubscribeUser is the account an unsubscribe link names, if its
// token is right. Errors: ENotFound (a link that is wrong or forged).
func (s *Server) unsubscribeUser(c echo.Context) (int64, error) {
	id, _ := strconv.ParseInt(c.QueryParam("u"), 10, 64)
	key, err := s.store.mail.ServerKey(c.Request().Context(), site.UnsubscribeKey)
	if err != nil {
		return 0, err
	}
	if !site.UnsubscribeValid(key, id, c.QueryParam("t")) {
		return 0, site.Errorf(site.ENotFound, "This link to stop e-mails is not right: copy it whole from the e-mail.")
	}
	return id, nil
}

// unsubscribePage asks, without a login, whether to stop the e-mails.
func (s *Server) unsubscribePage(c echo.Context) error {
	if _, err := s.unsubscribeUser(c); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.Unsubscribe(s.layout(c, "Stop e-mails"), c.Request().URL.RequestURI(), false))
}

// unsubscribe stops the e-mails of the account the link names.
func (s *Server) unsubscribe(c echo.Context) error {
	id, err := s.unsubscribeUser(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	m, err := s.store.mail.MailSettings(ctx, id)
	if err != nil {
		return err
	}
	m.Mode = site.MailOff
	if err := s.store.mail.SetMailSettings(ctx, id, m); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.Unsubscribe(s.layout(c, "E-mails stopped"), "", true))
}

// setMailMode sets how the viewer's notifications are e-mailed: the
// mode, and a digest's hour and time zone.
func (s *Server) setMailMode(c echo.Context) error {
	m := site.MailSettings{Mode: c.FormValue("mode"), DigestHour: site.DefaultDigestHour, TimeZone: c.FormValue("time_zone")}
	if h := c.FormValue("digest_hour"); h != "" {
		var err error
		if m.DigestHour, err = strconv.Atoi(h); err != nil {
			return site.Errorf(site.EInvalid, "The digest's hour must be a number from 0 to 23, not %q.", h)
		}
	}
	if err := s.store.mail.SetMailSettings(c.Request().Context(), viewer(c).UserID, m); err != nil {
		return err
	}
	return redirect(c, "/inbox")
}
