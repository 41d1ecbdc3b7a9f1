package web

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/sitemap"
)

// The routes of the command line's remaining verbs: a plan's diagram
// (siteplan diagram), its briefs' SEO checks (lint), a spreadsheet of
// redirect decisions (redirects import), a tree test's correct pages and
// files (treetest correct, export), and a check of any site's sitemaps
// (check).

// apiLint checks the plan's briefs as siteplan lint --json does.
func (s *Server) apiLint(c echo.Context) error {
	rep, err := s.lint(c)
	if err != nil {
		return err
	}
	if rep.Problems == nil {
		rep.Problems = []site.LintProblem{}
	}
	return c.JSON(http.StatusOK, rep)
}

// apiRedirectsImport sets the mappings of a spreadsheet (the body, CSV
// with the columns from,to,status,accepted,confidence,reason), as
// siteplan redirects import does; a bad row refuses it whole.
func (s *Server) apiRedirectsImport(c echo.Context) error {
	p := currentProject(c)
	ctx, done, err := s.heavyTurn(c, attachBudget)
	if err != nil {
		return err
	}
	defer done()
	t, err := s.store.pages.Tree(ctx, p.ID)
	if err != nil {
		return err
	}
	maps, err := site.ParseRedirectMap(c.Request().Body, t)
	if err != nil {
		return site.Errorf(site.EInvalid, "%s Nothing was imported.", site.ErrorMessage(err))
	}
	added, changed, err := s.store.redirects.SetMappings(ctx, p.ID, maps)
	if err != nil {
		return err
	}
	setChange(c, change{Kind: "redirects"})
	return c.JSON(http.StatusOK, map[string]int{"rows": len(maps), "added": added, "changed": changed})
}

// apiStudyCorrect adds and removes correct pages of a tree test's task
// ({"task": "1", "add": [12], "remove": [9]}), as siteplan treetest
// correct does; the results follow at once.
func (s *Server) apiStudyCorrect(c echo.Context) error {
	var in struct {
		Task   string  `json:"task"`
		Add    []int64 `json:"add"`
		Remove []int64 `json:"remove"`
	}
	if err := readJSON(c, &in); err != nil {
		return err
	}
	st, err := s.projectStudy(c)
	if err != nil {
		return err
	}
	task, ok := st.Task(in.Task)
	if !ok {
		return onField(site.Errorf(site.EInvalid, "Tree test %d has no task %q.", st.ID, in.Task), "task")
	}
	correct := slices.DeleteFunc(slices.Clone(task.Correct), func(id int64) bool { return slices.Contains(in.Remove, id) })
	for _, id := range in.Add {
		if !slices.Contains(correct, id) {
			correct = append(correct, id)
		}
	}
	if err := s.store.research.SetCorrect(c.Request().Context(), st.ID, task.Key, correct); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"task": task.Key, "correct": correct})
}

// apiCheck starts a check of a site's sitemaps ({"source": "example.com"},
// a sitemap URL too), as siteplan check does, in the background; it
// answers 202 with where to follow it.
func (s *Server) apiCheck(c echo.Context) error {
	var in struct {
		Source string `json:"source"`
	}
	if err := readJSON(c, &in); err != nil {
		return err
	}
	src := strings.TrimSpace(in.Source)
	if src == "" {
		return onField(site.Errorf(site.EInvalid, "Name a site (example.com) or the URL of a sitemap to check."), "source")
	}
	j, err := s.createSiteJob(c, site.Job{Kind: site.JobCheck, Source: src}, nil)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, apiPrefix+"checks/"+j.ID)
	return c.JSON(http.StatusAccepted, apiCheckOf(j))
}

// apiCheckResult is a check of a site: its job, and once done its report
// as siteplan check --json prints it.
type apiCheckResult struct {
	ID     string           `json:"id"`
	Source string           `json:"source"`
	State  string           `json:"state"`
	Error  string           `json:"error,omitempty"`
	Errors *int             `json:"errors,omitempty"`
	Report *sitemap.Reading `json:"report,omitempty"`
}

func apiCheckOf(j site.Job) apiCheckResult {
	return apiCheckResult{ID: j.ID, Source: j.Source, State: j.State, Error: j.Error}
}

// apiCheckState is a check's state, and its report once done.
func (s *Server) apiCheckState(c echo.Context) error {
	j, err := s.siteJob(c, true)
	if err == nil && j.Kind != site.JobCheck {
		err = site.Errorf(site.ENotFound, "No such check: its report is kept for an hour.")
	}
	if err != nil {
		return err
	}
	out := apiCheckOf(j)
	var rep sitemap.JobReport
	if j.State == site.JobDone && len(j.Report) > 0 {
		if err := json.Unmarshal(j.Report, &rep); err != nil {
			return err
		}
		if rep.Reading != nil {
			n := rep.Reading.Errors()
			out.Errors, out.Report = &n, rep.Reading
		}
	}
	return c.JSON(http.StatusOK, out)
}
