package web

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/sitemap"
	"siteplan/verify"
)

// Launch checks through the API, as siteplan verify --server runs them:
// one is started as a job, followed until it ends, and its report read
// as siteplan verify --json prints it, or as JUnit.

// apiLaunchCheck is a launch check job as the API shows it.
type apiLaunchCheck struct {
	ID    string `json:"id"`
	State string `json:"state"`
	Base  string `json:"base"`
	What  string `json:"what"`
	Done  int    `json:"done"`
	Total int    `json:"total"`
	Error string `json:"error,omitempty"`
	// Report is the kept report's path once the check is done.
	Report string `json:"report,omitempty"`
}

// apiStartLaunchCheck starts a check of the site at "base" against the
// plan or "version" ("approved", or a number).
func (s *Server) apiStartLaunchCheck(c echo.Context) error {
	var in struct {
		Base    string `json:"base"`
		Version string `json:"version"`
	}
	if err := readJSON(c, &in); err != nil {
		return err
	}
	j, err := s.launchJob(c, in.Base, in.Version)
	if err != nil {
		return err
	}
	if j, err = s.createSiteJob(c, j, nil); err != nil {
		return err
	}
	out, err := s.apiLaunchView(c, j)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, apiPrefix+"projects/"+strconv.FormatInt(j.ProjectID, 10)+"/launch-checks/"+j.ID)
	return c.JSON(http.StatusAccepted, out)
}

// apiLaunchJob is the route's check (:jid) of the route's project,
// started by the viewer, with its report if withReport. Errors:
// ENotFound.
func (s *Server) apiLaunchJob(c echo.Context, withReport bool) (site.Job, error) {
	j, err := s.siteJob(c, withReport)
	if err == nil && (j.Kind != site.JobLaunch || j.ProjectID != currentProject(c).ID) {
		err = site.Errorf(site.ENotFound, "No such launch check of this plan: its state is kept for an hour.")
	}
	return j, err
}

// apiLaunchView is job j as the API shows it.
func (s *Server) apiLaunchView(c echo.Context, j site.Job) (apiLaunchCheck, error) {
	v, err := launchView(j)
	out := apiLaunchCheck{ID: j.ID, State: j.State, Base: v.Base, What: v.What, Done: v.Done, Total: v.Total, Error: j.Error}
	if j.State == site.JobDone {
		out.Report = apiPrefix + "projects/" + strconv.FormatInt(j.ProjectID, 10) + "/launch-checks/" + j.ID + "/report"
	}
	return out, err
}

// apiLaunchState shows a check's progress, and once done where its
// report is.
func (s *Server) apiLaunchState(c echo.Context) error {
	j, err := s.apiLaunchJob(c, false)
	if err != nil {
		return err
	}
	out, err := s.apiLaunchView(c, j)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// apiLaunchReport is a finished check's report: JSON as siteplan verify
// --json prints it, or with ?format=junit the JUnit XML of --junit.
func (s *Server) apiLaunchReport(c echo.Context) error {
	j, err := s.apiLaunchJob(c, true)
	if err != nil {
		return err
	}
	var jr sitemap.JobReport
	if err := unmarshalIf(j.Report, &jr); err != nil {
		return err
	}
	if j.State != site.JobDone || jr.LaunchCheck == 0 {
		return site.Errorf(site.EConflict, "The check has not finished (%s): ask again when its state is done.", j.State)
	}
	lc, err := s.store.launch.LaunchCheck(c.Request().Context(), j.ProjectID, jr.LaunchCheck)
	if err != nil {
		return err
	}
	rep, _, err := verify.ReadKept(lc.Report, lc.ID)
	if err != nil {
		return err
	}
	switch c.QueryParam("format") {
	case "", "json":
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		return c.JSONBlob(http.StatusOK, b)
	case "junit":
		c.Response().Header().Set(echo.HeaderContentType, "application/xml; charset=utf-8")
		c.Response().WriteHeader(http.StatusOK)
		return rep.JUnit(c.Response())
	}
	return site.Errorf(site.EInvalid, "A report's format is json or junit, not %q.", c.QueryParam("format"))
}
