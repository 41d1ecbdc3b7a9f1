package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"siteplan/site"
)

// The proposals through the API (and MCP's propose_changes): a program
// offers the plan as it would have it; a person, or a program with a
// write token, accepts it whole or a section at a time, or rejects it.

// apiProposal is a proposal with what it changes and its sections.
type apiProposal struct {
	site.Proposal
	URL      string                `json:"url"` // its page in the editor, from the server's root
	Changes  *site.Comparison      `json:"changes,omitempty"`
	Branches []site.ProposalBranch `json:"branches,omitempty"`
}

// apiProposalOf reads proposal n of project p with its changes.
func (s *Server) apiProposalOf(c echo.Context, p site.Project, n int) (apiProposal, error) {
	ctx, done, err := s.largeTurn(c)
	if err != nil {
		return apiProposal{}, err
	}
	defer done()
	prop, plans, err := s.store.proposals.Proposal(ctx, p.ID, n)
	if err != nil {
		return apiProposal{}, err
	}
	out := apiProposal{Proposal: prop, URL: proposalPath(p.ID, n)}
	if prop.Open() {
		out.Changes = plans.Comparison()
		out.Branches = site.ProposalBranches(site.Union(plans.Now, plans.Proposed), out.Changes.Marks())
	}
	return out, nil
}

// apiProposals lists a plan's proposals, newest first.
func (s *Server) apiProposals(c echo.Context) error {
	list, err := s.store.proposals.Proposals(c.Request().Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	pg, err := paginate(c, list, func(p site.Proposal) int64 { return int64(p.Number) })
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pg)
}

// apiPropose makes a proposal: {"title", "summary", "base_version",
// and one of "operations", "document", "mermaid"}.
func (s *Server) apiPropose(c echo.Context) error {
	var in proposalInput
	if err := readJSON(c, &in); err != nil {
		return err
	}
	p := currentProject(c)
	prop, err := s.propose(c.Request().Context(), p, in, site.SourceAPI)
	if err != nil {
		if site.ErrorCode(err) == site.EInvalid && strings.HasPrefix(site.ErrorMessage(err), "Give the proposal a title") {
			return onField(err, "title")
		}
		return err
	}
	out, err := s.apiProposalOf(c, p, prop.Number)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, apiPrefix+"projects/"+strconv.FormatInt(p.ID, 10)+"/proposals/"+strconv.Itoa(prop.Number))
	return c.JSON(http.StatusCreated, out)
}

// apiProposal reads one proposal, with its comments and what it still
// changes.
func (s *Server) apiProposal(c echo.Context) error {
	n, err := proposalParam(c)
	if err != nil {
		return err
	}
	out, err := s.apiProposalOf(c, currentProject(c), n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// apiAcceptProposal accepts a proposal: whole, or {"branch": page} for
// the section at that page (one of its branches). A page changed since
// where the proposal changes it is a conflict (409) naming who.
func (s *Server) apiAcceptProposal(c echo.Context) error {
	var in struct {
		Branch int64 `json:"branch"`
	}
	if c.Request().ContentLength != 0 {
		if err := readJSON(c, &in); err != nil {
			return err
		}
	}
	n, err := proposalParam(c)
	if err != nil {
		return err
	}
	p := currentProject(c)
	ch, err := s.store.proposals.AcceptProposal(c.Request().Context(), p.ID, n, in.Branch)
	if err != nil {
		return err
	}
	out, err := s.apiProposalOf(c, p, n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"summary": ch.Summary, "proposal": out})
}

// apiRejectProposal closes a proposal unaccepted.
func (s *Server) apiRejectProposal(c echo.Context) error {
	n, err := proposalParam(c)
	if err != nil {
		return err
	}
	p := currentProject(c)
	if err := s.store.proposals.RejectProposal(c.Request().Context(), p.ID, n); err != nil {
		return err
	}
	out, err := s.apiProposalOf(c, p, n)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// apiCommentOnProposal adds {"body"} to a proposal's conversation.
func (s *Server) apiCommentOnProposal(c echo.Context) error {
	var in struct {
		Body string `json:"body"`
	}
	if err := readJSON(c, &in); err != nil {
		return err
	}
	n, err := proposalParam(c)
	if err != nil {
		return err
	}
	cm, err := s.store.proposals.CommentOnProposal(c.Request().Context(), currentProject(c).ID, n, in.Body)
	if site.ErrorCode(err) == site.EInvalid {
		return onField(err, "body")
	} else if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, cm)
}

// apiReplacePlan makes the plan the siteplan/1 document sent, as one
// change that can be undone (pages keep their keys, "p12", as GET plan
// gives them; others are added; pages left out are deleted). With
// If-Match (the plan's ETag) a change since is refused (412).
func (s *Server) apiReplacePlan(c echo.Context) error {
	if ct := c.Request().Header.Get(echo.HeaderContentType); !strings.HasPrefix(ct, echo.MIMEApplicationJSON) {
		return site.Errorf(site.EInvalid, "Send the siteplan/1 document as JSON (Content-Type: application/json), not %q.", ct)
	}
	p := currentProject(c)
	var version int64
	if h := strings.TrimSpace(c.Request().Header.Get("If-Match")); h != "" && h != "*" {
		v, err := strconv.ParseInt(strings.TrimPrefix(strings.Trim(h, `"`), "v"), 10, 64)
		if err != nil {
			return site.Errorf(site.EStale, "If-Match %s is not an ETag of this plan: read the plan again for its ETag.", h)
		}
		version = v
	}
	d, err := site.ParseDocument(c.Request().Body)
	if err != nil {
		return err
	}
	ctx, done, err := s.largeTurn(c)
	if err != nil {
		return err
	}
	defer done()
	ch, err := s.store.history.ReplacePlan(ctx, p.ID, d, version)
	if err != nil {
		return err
	}
	now, err := s.store.projects.Project(ctx, p.ID)
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(now))
	return c.JSON(http.StatusOK, map[string]string{"summary": ch.Summary})
}
