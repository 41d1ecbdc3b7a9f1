package web

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"siteplan/diagram"
	"siteplan/site"
	"siteplan/views"
)

// proposalStore is what the proposals' routes (pages, API, MCP) use.
type proposalStore interface {
	Propose(ctx context.Context, projectID int64, draft site.ProposalDraft) (site.Proposal, error)
	Proposals(ctx context.Context, projectID int64) ([]site.Proposal, error)
	Proposal(ctx context.Context, projectID int64, number int) (site.Proposal, *site.ProposalPlans, error)
	OpenProposals(ctx context.Context, projectID int64) (int, error)
	AcceptProposal(ctx context.Context, projectID int64, number int, branch int64) (site.Change, error)
	RejectProposal(ctx context.Context, projectID int64, number int) error
	CommentOnProposal(ctx context.Context, projectID int64, number int, body string) (site.ProposalComment, error)
}

// proposalInput is a proposal as the API and MCP take it: the plan as a
// siteplan/1 document, as operations on the plan, or as a Mermaid
// diagram (one of the three), on the plan now or on a version.
type proposalInput struct {
	Title       string            `json:"title"`
	Summary     string            `json:"summary,omitempty"`
	BaseVersion int               `json:"base_version,omitempty"`
	Operations  []site.ProposalOp `json:"operations,omitempty"`
	Document    *site.Document    `json:"document,omitempty"`
	Mermaid     string            `json:"mermaid,omitempty"`
}

// propose makes the proposal in of project p, from source. Errors:
// EInvalid (the input), those of Propose.
func (s *Server) propose(ctx context.Context, p site.Project, in proposalInput, source string) (site.Proposal, error) {
	draft := site.ProposalDraft{Title: in.Title, Summary: in.Summary, Source: source, Version: in.BaseVersion, Doc: in.Document}
	given := 0
	for _, has := range []bool{len(in.Operations) > 0, in.Document != nil, in.Mermaid != ""} {
		if has {
			given++
		}
	}
	if given != 1 {
		return site.Proposal{}, site.Errorf(site.EInvalid, "Send the proposal one way: operations, a document or a Mermaid diagram.")
	}
	if in.Document != nil {
		draft.Settings = true
		return s.store.proposals.Propose(ctx, p.ID, draft)
	}
	base, err := s.planDocument(ctx, p.ID, in.BaseVersion)
	if err != nil {
		return site.Proposal{}, err
	}
	if in.Mermaid != "" {
		if draft.Doc, err = site.ParseMermaid(in.Mermaid, base); err != nil {
			return site.Proposal{}, err
		}
		if source == site.SourceEditor {
			draft.Source = site.SourceMermaid
		}
	} else {
		if err := base.ApplyOps(in.Operations); err != nil {
			return site.Proposal{}, err
		}
		draft.Doc = base
	}
	return s.store.proposals.Propose(ctx, p.ID, draft)
}

// planDocument is the plan now (version 0) or a version's as a document.
func (s *Server) planDocument(ctx context.Context, projectID int64, version int) (*site.Document, error) {
	if version == 0 {
		return s.store.projects.Document(ctx, projectID)
	}
	_, t, links, err := s.store.history.Version(ctx, projectID, version)
	if err != nil {
		return nil, err
	}
	return site.NewDocument(t, links), nil
}

// proposalsPage lists a plan's proposals.
func (s *Server) proposalsPage(c echo.Context) error {
	return s.renderProposals(c, http.StatusOK, "", "")
}

func (s *Server) renderProposals(c echo.Context, status int, title, problem string) error {
	p := currentProject(c)
	list, err := s.store.proposals.Proposals(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	return render(c, status, views.Proposals(views.ProposalsProps{Layout: s.layout(c, "Proposals for "+p.Name), Project: p, Proposals: list,
		CanEdit: viewer(c).Access >= site.AccessEdit, Title: title, Problem: problem}))
}

// proposeFile proposes the plan as an uploaded document or Mermaid
// diagram.
func (s *Server) proposeFile(c echo.Context) error {
	p := currentProject(c)
	title := c.FormValue("title")
	in := proposalInput{Title: title}
	failed := func(err error) error {
		if code := site.ErrorCode(err); code != site.EInvalid && code != site.EConflict {
			return err
		}
		return s.renderProposals(c, statusOf[site.ErrorCode(err)], title, site.ErrorMessage(err))
	}
	fh, err := c.FormFile("file")
	if err != nil {
		return failed(site.Errorf(site.EInvalid, "Choose a siteplan/1 document (.json) or a Mermaid diagram (.mmd) to propose."))
	}
	f, err := fh.Open()
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReader(io.LimitReader(f, site.MaxDocumentBytes+1))
	if first, _ := r.Peek(64); bytes.HasPrefix(bytes.TrimSpace(first), []byte("{")) {
		if in.Document, err = site.ParseDocument(r); err != nil {
			return failed(err)
		}
	} else {
		b, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		if len(b) > site.MaxDocumentBytes {
			return failed(site.Errorf(site.ETooLarge, "The diagram is larger than %d MB.", site.MaxDocumentBytes>>20))
		}
		in.Mermaid = string(b)
	}
	prop, err := s.propose(c.Request().Context(), p, in, site.SourceEditor)
	if err != nil {
		return failed(err)
	}
	return c.Redirect(http.StatusSeeOther, proposalPath(p.ID, prop.Number))
}

func proposalPath(projectID int64, number int, parts ...string) string {
	return projectPath(projectID, append([]string{"proposals", strconv.Itoa(number)}, parts...)...)
}

func proposalParam(c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n <= 0 {
		return 0, site.Errorf(site.ENotFound, "No such proposal.")
	}
	return n, nil
}

// proposalView reads a proposal with what it changes: the props of its
// page, the tree its diagram draws (the plan as it would be, with the
// pages it removes put back) and the diagram's cache key.
func (s *Server) proposalView(c echo.Context) (views.ProposalProps, *site.Tree, []site.Link, string, error) {
	p := currentProject(c)
	props := views.ProposalProps{Project: p, Whole: c.QueryParam("whole") == "1"}
	n, err := proposalParam(c)
	if err != nil {
		return props, nil, nil, "", err
	}
	ctx, done, err := s.largeTurn(c)
	if err != nil {
		return props, nil, nil, "", err
	}
	defer done()
	prop, plans, err := s.store.proposals.Proposal(ctx, p.ID, n)
	if err != nil {
		return props, nil, nil, "", err
	}
	props.Proposal, props.Diff = prop, plans.Comparison()
	union := site.Union(plans.Now, plans.Proposed)
	props.Branches = site.ProposalBranches(union, props.Diff.Marks())
	v := viewer(c)
	props.CanDecide, props.CanComment = v.Access >= site.AccessEdit, v.Access >= site.AccessComment
	key := fmt.Sprintf("prop|%d|%d|%d|%s|%t", p.ID, n, p.Version, prop.State, props.Whole)
	return props, union, plans.ProposedLinks, key, nil
}

func proposalOptions(props views.ProposalProps, format string) diagram.Options {
	opt := diagram.Options{Format: format, Links: true, ColorBy: diagram.ColorByChange, Marks: props.Diff.Marks(),
		Notes: []string{"What " + props.Proposal.Label() + " changes"}}
	if !props.Whole && len(opt.Marks) > 0 {
		opt.Focus = make(map[int64]bool, len(opt.Marks))
		for id := range opt.Marks {
			opt.Focus[id] = true
		}
	}
	return opt
}

// proposal shows one proposal.
func (s *Server) proposal(c echo.Context) error {
	return s.renderProposal(c, http.StatusOK, "")
}

func (s *Server) renderProposal(c echo.Context, status int, problem string) error {
	props, t, links, key, err := s.proposalView(c)
	if err != nil {
		return err
	}
	props.Layout, props.Problem = s.layout(c, props.Proposal.Label()), problem
	if props.Proposal.Open() {
		svg, err := s.drawCached(c, props.Project.ID, key, proposalOptions(props, diagram.FormatSVG), loaded(t, links))
		if err != nil {
			props.Error = site.ErrorMessage(err)
		}
		props.SVG = string(svg)
	} else {
		props.Error = "The proposal is " + props.Proposal.State + ": the plan's history has what it changed."
	}
	return render(c, status, views.ProposalPage(props))
}

// proposalDiagram downloads a proposal's diagram.
func (s *Server) proposalDiagram(c echo.Context) error {
	format, typ, err := downloadFormat(c)
	if err != nil {
		return err
	}
	props, t, links, key, err := s.proposalView(c)
	if err != nil {
		return err
	}
	b, err := s.drawCached(c, props.Project.ID, key, proposalOptions(props, format), loaded(t, links))
	if err != nil {
		return err
	}
	attach(c, currentProject(c), "-proposal-"+strconv.Itoa(props.Proposal.Number)+"."+format)
	return c.Blob(http.StatusOK, typ, b)
}

// acceptProposal accepts a proposal whole, or the section a form names
// (branch); a conflict shows the proposal again with its message.
func (s *Server) acceptProposal(c echo.Context) error {
	p := currentProject(c)
	n, err := proposalParam(c)
	if err != nil {
		return err
	}
	var branch int64
	if b := c.FormValue("branch"); b != "" {
		if branch, err = strconv.ParseInt(b, 10, 64); err != nil {
			return site.Errorf(site.EInvalid, "No such section %q.", b)
		}
	}
	if _, err := s.store.proposals.AcceptProposal(c.Request().Context(), p.ID, n, branch); err != nil {
		if code := site.ErrorCode(err); code == site.EConflict || code == site.EInvalid {
			return s.renderProposal(c, statusOf[code], site.ErrorMessage(err))
		}
		return err
	}
	if branch == 0 {
		return c.Redirect(http.StatusSeeOther, projectPath(p.ID))
	}
	return c.Redirect(http.StatusSeeOther, proposalPath(p.ID, n))
}

// rejectProposal closes a proposal unaccepted.
func (s *Server) rejectProposal(c echo.Context) error {
	p := currentProject(c)
	n, err := proposalParam(c)
	if err != nil {
		return err
	}
	if err := s.store.proposals.RejectProposal(c.Request().Context(), p.ID, n); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, projectPath(p.ID, "proposals"))
}

// commentOnProposal adds a comment to a proposal.
func (s *Server) commentOnProposal(c echo.Context) error {
	p := currentProject(c)
	n, err := proposalParam(c)
	if err != nil {
		return err
	}
	if _, err := s.store.proposals.CommentOnProposal(c.Request().Context(), p.ID, n, c.FormValue("body")); err != nil {
		if site.ErrorCode(err) == site.EInvalid {
			return s.renderProposal(c, statusOf[site.EInvalid], site.ErrorMessage(err))
		}
		return err
	}
	return c.Redirect(http.StatusSeeOther, proposalPath(p.ID, n)+"#proposal-comments")
}
