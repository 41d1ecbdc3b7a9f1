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

// teamStore is what the team page needs.
type teamStore interface {
	Members(ctx context.Context, teamID int64) ([]site.Member, error)
	SetRole(ctx context.Context, teamID, userID int64, role string) error
	RemoveMember(ctx context.Context, teamID, userID int64) error
	CreateTeam(ctx context.Context, userID int64, name string) (site.Team, error)
	Memberships(ctx context.Context, userID int64) ([]site.Membership, error)
}

// absURL is path on the host the request came to.
func absURL(c echo.Context, path string) string {
	return c.Scheme() + "://" + c.Request().Host + path
}

func (s *Server) teamPage(c echo.Context) error {
	v := viewer(c)
	if v.Team.ID == 0 {
		return render(c, http.StatusOK, views.NoTeam(s.layout(c, "No team")))
	}
	ctx := c.Request().Context()
	members, err := s.store.teams.Members(ctx, v.Team.ID)
	if err != nil {
		return err
	}
	props := views.TeamProps{Layout: s.layout(c, v.Team.Name), Team: v.Team, Members: members, Me: v.UserID}
	if props.Colors, err = s.typeColors(c); err != nil {
		return err
	}
	if props.Templates, err = s.typeTemplates(c); err != nil {
		return err
	}
	if props.Theme, err = s.teamThemeProps(c); err != nil {
		return err
	}
	if props.Starters, err = s.store.starters.Starters(ctx, v.Team.ID); err != nil {
		return err
	}
	if v.TeamRole == site.RoleOwner {
		if props.Webhooks, err = s.webhooksProps(c); err != nil {
			return err
		}
		if props.Tokens, err = s.tokensProps(c, true); err != nil {
			return err
		}
		if props.RateCard, err = s.rateCardProps(c, v.Team.ID, 0); err != nil {
			return err
		}
	}
	if v.TeamRole == site.RoleOwner {
		if props.Invites.Invites, err = s.store.shares.Invites(ctx, v.Team.ID); err != nil {
			return err
		}
	}
	return render(c, http.StatusOK, views.Team(props))
}

func (s *Server) createInvite(c echo.Context) error {
	v := viewer(c)
	ctx := c.Request().Context()
	days, _ := strconv.Atoi(c.FormValue("days"))
	props := views.InvitesProps{}
	token, err := s.store.shares.CreateInvite(ctx, v.Team.ID, v.UserID, c.FormValue("role"), time.Duration(days)*24*time.Hour)
	status := http.StatusCreated
	switch site.ErrorCode(err) {
	case "":
		props.NewURL = absURL(c, "/invite/"+token)
	case site.EInvalid:
		props.Error, status = site.ErrorMessage(err), statusOf[site.EInvalid]
	default:
		return err
	}
	if props.Invites, err = s.store.shares.Invites(ctx, v.Team.ID); err != nil {
		return err
	}
	return render(c, status, views.Invites(props))
}

func (s *Server) deleteInvite(c echo.Context) error {
	id, err := idParam(c, "iid")
	if err != nil {
		return err
	}
	if err := s.store.shares.DeleteInvite(c.Request().Context(), viewer(c).Team.ID, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusOK)
}

func (s *Server) setRole(c echo.Context) error {
	uid, err := idParam(c, "uid")
	if err != nil {
		return err
	}
	if err := s.store.teams.SetRole(c.Request().Context(), viewer(c).Team.ID, uid, c.FormValue("role")); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.FlashOOB("Role changed to "+c.FormValue("role")+"."))
}

func (s *Server) removeMember(c echo.Context) error {
	uid, err := idParam(c, "uid")
	if err != nil {
		return err
	}
	if err := s.store.teams.RemoveMember(c.Request().Context(), viewer(c).Team.ID, uid); err != nil {
		return err
	}
	s.hub.kickUser(uid)
	return c.NoContent(http.StatusOK)
}

func (s *Server) leaveTeam(c echo.Context) error {
	v := viewer(c)
	if v.Team.ID == 0 {
		return site.Errorf(site.ENotFound, "You are not in a team.")
	}
	if err := s.store.teams.RemoveMember(c.Request().Context(), v.Team.ID, v.UserID); err != nil {
		return err
	}
	s.hub.kickUser(v.UserID)
	return redirect(c, "/")
}

func (s *Server) createTeam(c echo.Context) error {
	ctx := c.Request().Context()
	t, err := s.store.teams.CreateTeam(ctx, viewer(c).UserID, c.FormValue("name"))
	if err != nil {
		return err
	}
	return s.switchTo(c, t.ID)
}

func (s *Server) switchTeam(c echo.Context) error {
	id, err := idParam(c, "tid")
	if err != nil {
		return err
	}
	return s.switchTo(c, id)
}

func (s *Server) switchTo(c echo.Context, team int64) error {
	ck, err := c.Cookie(sessionCookie)
	if err != nil {
		return site.Errorf(site.EUnauthorized, "Log in first.")
	}
	if err := s.store.accounts.SwitchTeam(c.Request().Context(), ck.Value, team); err != nil {
		return err
	}
	return redirect(c, "/")
}
