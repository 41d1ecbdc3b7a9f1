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

// webhookStore keeps a team's webhooks.
type webhookStore interface {
	AddWebhook(ctx context.Context, w *site.Webhook) error
	Webhooks(ctx context.Context, teamID int64) ([]site.Webhook, error)
	DeleteWebhook(ctx context.Context, teamID, id int64) error
}

// webhooksProps is the team page's webhooks section.
func (s *Server) webhooksProps(c echo.Context) (views.WebhooksProps, error) {
	ws, err := s.store.webhooks.Webhooks(c.Request().Context(), viewer(c).Team.ID)
	return views.WebhooksProps{Webhooks: ws, CanEdit: true}, err
}

// addWebhook adds a webhook to the viewer's team; its secret is shown
// once, whole.
func (s *Server) addWebhook(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	w := site.Webhook{TeamID: viewer(c).Team.ID, URL: form.Get("url"), Format: form.Get("format"), Secret: strings.TrimSpace(form.Get("secret")), Events: form["events"]}
	err = s.store.webhooks.AddWebhook(c.Request().Context(), &w)
	if err != nil && site.ErrorCode(err) != site.EInvalid {
		return err
	}
	props, perr := s.webhooksProps(c)
	if perr != nil {
		return perr
	}
	if err != nil {
		props.Form = views.WebhookForm{URL: w.URL, Format: w.Format, Secret: w.Secret, Events: w.Events, Errors: site.ErrorFields(err)}
		if len(props.Form.Errors) == 0 {
			props.Form.Errors = map[string]string{"url": site.ErrorMessage(err)}
		}
		return render(c, statusOf[site.EInvalid], views.Webhooks(props))
	}
	props.Added = &w
	return render(c, http.StatusCreated, views.Webhooks(props))
}

// deleteWebhook deletes one of the team's webhooks and what waits for it.
func (s *Server) deleteWebhook(c echo.Context) error {
	id, _ := strconv.ParseInt(c.Param("wid"), 10, 64)
	if err := s.store.webhooks.DeleteWebhook(c.Request().Context(), viewer(c).Team.ID, id); err != nil {
		return err
	}
	props, err := s.webhooksProps(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.Webhooks(props))
}
