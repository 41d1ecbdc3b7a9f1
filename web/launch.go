package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"siteplan/diagram"
	"siteplan/site"
	"siteplan/sitemap"
	"siteplan/verify"
	"siteplan/views"
)

// The launch check holds the built site (production or staging) to the
// plan, or a version of it: a job of the live-site machinery (its turns,
// budget, progress and cancel), whose report the store keeps, the newest
// site.LaunchChecksKept of each plan, so that the next check says what
// changed.

// launchStore is what the launch check's pages read.
type launchStore interface {
	LaunchChecks(ctx context.Context, projectID int64, n int) ([]site.LaunchCheck, error)
	LaunchCheck(ctx context.Context, projectID, id int64) (site.LaunchCheck, error)
}

// launchPerGroup is how many problems of a rule the page lists.
const launchPerGroup = 100

// launchVersion is the version the form names: "" the plan now,
// "approved" the newest signed off, else a number. Errors: EInvalid.
func launchVersion(vs []site.Version, v string) (int, error) {
	switch v {
	case "":
		return 0, nil
	case "approved":
		if n := site.SignedOff(vs); n > 0 {
			return n, nil
		}
		return 0, site.Errorf(site.EInvalid, "No version of this plan is signed off: check the plan now, or a version.")
	}
	if n, err := strconv.Atoi(v); err == nil && slices.ContainsFunc(vs, func(ver site.Version) bool { return ver.Number == n }) {
		return n, nil
	}
	return 0, site.Errorf(site.EInvalid, "This plan has no version %q.", v)
}

// launchBase checks the form's base URL and takes out its user and
// password, if any (https://user:pass@staging.example/), which only the
// check may have: the base is shown on the page and in every report.
// Errors: EInvalid, naming the field.
func launchBase(s string) (base, userinfo string, err error) {
	s = strings.TrimSpace(s)
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		msg := "Enter where the site is served, such as https://staging.example.com/."
		return "", "", &site.Error{Code: site.EInvalid, Message: msg, Fields: map[string]string{"base": msg}}
	}
	if u.User != nil {
		userinfo, u.User = u.User.String(), nil
	}
	return u.String(), userinfo, nil
}

// startLaunchCheck starts a check of the site at the form's base URL
// against the plan or the version it names, and shows its progress.
func (s *Server) startLaunchCheck(c echo.Context) error {
	j, err := s.launchJob(c, c.FormValue("base"), c.FormValue("version"))
	if err != nil {
		return err
	}
	return s.startSiteJob(c, j, nil)
}

// launchJob is the job of a check of the site at base against the plan
// or the version named ("", "approved" or a number). Errors: EInvalid.
func (s *Server) launchJob(c echo.Context, baseURL, version string) (site.Job, error) {
	p := currentProject(c)
	base, userinfo, err := launchBase(baseURL)
	if err != nil {
		return site.Job{}, err
	}
	vs, err := s.store.history.Versions(c.Request().Context(), p.ID)
	if err != nil {
		return site.Job{}, err
	}
	n, err := launchVersion(vs, version)
	if err != nil {
		return site.Job{}, err
	}
	return site.Job{Kind: site.JobLaunch, Source: base, Credentials: userinfo, ProjectID: p.ID, Version: n}, nil
}

// launchView is a launch check job as the page shows it. Errors:
// EInternal (its progress does not decode).
func launchView(j site.Job) (views.LaunchJob, error) {
	var pr sitemap.JobProgress
	err := unmarshalIf(j.Progress, &pr)
	if pr.What == "" {
		pr.What = "the plan"
		if j.Version > 0 {
			pr.What = "version " + strconv.Itoa(j.Version)
		}
	}
	return views.LaunchJob{ID: j.ID, State: j.State, Base: j.Source, What: pr.What, Done: pr.Done, Total: pr.Total, Error: j.Error,
		Running: j.Running(), Waiting: j.State == site.JobWaiting, Writing: j.State == site.JobWriting}, err
}

// launchPage shows the Launch check: the form, the viewer's check while
// it runs, and the newest report with what changed since the one before.
func (s *Server) launchPage(c echo.Context) error {
	props, err := s.launchProps(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.Launch(props))
}

func (s *Server) launchProps(c echo.Context) (views.LaunchProps, error) {
	ctx := c.Request().Context()
	p := currentProject(c)
	props := views.LaunchProps{Layout: s.layout(c, "Launch check of "+p.Name), Project: p, Base: p.BaseURL}
	var err error
	if props.Versions, err = s.store.history.Versions(ctx, p.ID); err != nil {
		return props, err
	}
	props.Approved = site.SignedOff(props.Versions)
	cs, err := s.store.launch.LaunchChecks(ctx, p.ID, 2)
	if err != nil {
		return props, err
	}
	j, ok, err := s.store.jobs.NewestLaunchJob(ctx, viewer(c).UserID, p.ID)
	if err != nil {
		return props, err
	}
	if ok {
		v, err := launchView(j)
		if err != nil {
			return props, err
		}
		// An ended check shows its report; one that failed, why.
		if v.Running || v.Error != "" && (len(cs) == 0 || j.Ended.After(cs[0].At)) {
			props.Job = &v
		}
	}
	if len(cs) == 0 {
		return props, nil
	}
	props.Base = cs[0].Base
	rep, what, err := verify.ReadKept(cs[0].Report, cs[0].ID)
	if err != nil {
		return props, err
	}
	t, err := s.store.pages.Tree(ctx, p.ID) // to link problems to the pages the plan still has
	if err != nil {
		return props, err
	}
	props.Check = launchReport(cs[0], rep, what, t)
	if len(cs) > 1 {
		before, _, err := verify.ReadKept(cs[1].Report, cs[1].ID)
		if err != nil {
			return props, err
		}
		props.Check.Since = launchSince(cs[1], before, rep, cs[0].Base)
	}
	svg, err := s.drawCached(c, p.ID, launchKey(p, cs[0]), launchOptions(cs[0], rep, what, diagram.FormatSVG), func(ctx context.Context) (*site.Tree, []site.Link, error) {
		if cs[0].Version == 0 { // the plan now: read above
			links, err := s.store.links.Links(ctx, p.ID)
			return t, links, err
		}
		return s.checkedPlan(ctx, p, cs[0].Version)
	})
	if err != nil {
		props.Error = site.ErrorMessage(err)
	}
	props.SVG = string(svg)
	return props, nil
}

// checkedPlan is the plan a check checked, with its links, to draw.
func (s *Server) checkedPlan(ctx context.Context, p site.Project, version int) (*site.Tree, []site.Link, error) {
	if version > 0 {
		_, t, links, err := s.store.history.Version(ctx, p.ID, version)
		return t, links, err
	}
	t, err := s.store.pages.Tree(ctx, p.ID)
	if err != nil {
		return nil, nil, err
	}
	links, err := s.store.links.Links(ctx, p.ID)
	return t, links, err
}

// launchKey names a check's drawing in the cache: of the plan now, it
// changes with the plan.
func launchKey(p site.Project, lc site.LaunchCheck) string {
	k := fmt.Sprintf("%d|launch|%d", p.ID, lc.ID)
	if lc.Version == 0 {
		k += "|" + strconv.FormatInt(p.Version, 10)
	}
	return k
}

// launchOptions draw a check's plan coloured by its results: its PDF,
// with a cover to sign, is the launch report.
func launchOptions(lc site.LaunchCheck, rep *verify.Report, what, format string) diagram.Options {
	return diagram.Options{Format: format, Links: true, ColorBy: diagram.ColorByCheck, Marks: rep.Results(), Date: lc.At,
		Title: "Launch check", Cover: format == diagram.FormatPDF, Notes: []string{what},
		Facts: [][2]string{
			{"Site", rep.Base},
			{"Checked", lc.At.UTC().Format("2 January 2006, 15:04 UTC") + byName(lc.By)},
			{"Result", site.Counted(rep.Errors, "error", "errors") + ", " + site.Counted(rep.Warnings, "warning", "warnings") + " in " +
				site.Counted(rep.Pages, "page", "pages") + " and " + site.Counted(rep.OldURLs, "old URL", "old URLs")},
		},
		Appendix: launchAppendix(rep), AppendixTitle: "Problems found, by rule"}
}

// launchAppendix is the report's problems for the PDF, after the
// coloured plan: grouped by rule, as the page lists them, each with its
// page, URL and what was found.
func launchAppendix(rep *verify.Report) []diagram.Section {
	var out []diagram.Section
	at := map[string]int{}
	for _, p := range rep.Problems {
		i, ok := at[p.Rule]
		if !ok {
			i = len(out)
			at[p.Rule] = i
			out = append(out, diagram.Section{Title: verify.RuleTitles[p.Rule]})
		}
		mark := "! "
		if p.Severity == verify.Error {
			mark = "✕ "
		}
		line := mark + p.URL
		if p.Page != "" {
			line = mark + "“" + p.Page + "”, " + p.URL
		}
		out[i].Lines = append(out[i].Lines, line+": "+p.Message)
	}
	if rep.Omitted > 0 {
		out = append(out, diagram.Section{Title: "Not listed", Lines: []string{site.Counted(rep.Omitted, "more problem", "more problems") + " past the first kept (the JSON report counts them)."}})
	}
	return out
}

func byName(name string) string {
	if name == "" {
		return ""
	}
	return " by " + name
}

// launchReport is a check as the page shows it: its problems grouped by
// rule, each linked to its page while the plan has it.
func launchReport(lc site.LaunchCheck, rep *verify.Report, what string, now *site.Tree) *views.LaunchReport {
	r := &views.LaunchReport{ID: lc.ID, At: lc.At, By: lc.By, Base: rep.Base, What: what, Pages: rep.Pages, OldURLs: rep.OldURLs,
		Sitemaps: rep.Sitemaps, Errors: rep.Errors, Warnings: rep.Warnings, Omitted: rep.Omitted}
	for _, res := range rep.Results() {
		if res == verify.OK {
			r.OK++
		}
	}
	at := map[string]int{}
	for _, p := range rep.Problems {
		i, ok := at[p.Rule]
		if !ok {
			i = len(r.Groups)
			at[p.Rule] = i
			r.Groups = append(r.Groups, views.LaunchGroup{Rule: p.Rule, Title: verify.RuleTitles[p.Rule]})
		}
		g := &r.Groups[i]
		if p.Severity == verify.Error {
			g.Errors++
		} else {
			g.Warnings++
		}
		if len(g.Problems) == launchPerGroup {
			g.More++
			continue
		}
		g.Problems = append(g.Problems, problemView(p, now))
	}
	return r
}

// problemView is a problem as the page lists it, linked to its page
// while the plan now has it (now; nil: not linked).
func problemView(p verify.Problem, now *site.Tree) views.LaunchProblem {
	v := views.LaunchProblem{Rule: p.Rule, URL: p.URL, Page: p.Page, Message: p.Message, Severity: p.Severity}
	if p.PageID != 0 && now != nil && now.Page(p.PageID) != nil {
		v.PageID = p.PageID
	}
	return v
}

// launchSince is what changed from check before to check now: a problem
// is the same when its rule and URL are.
func launchSince(lc site.LaunchCheck, before, now *verify.Report, base string) *views.LaunchSince {
	s := &views.LaunchSince{At: lc.At, Errors: before.Errors, Warnings: before.Warnings, Partial: before.Omitted > 0 || now.Omitted > 0}
	if before.Base != base {
		s.Base = before.Base
	}
	s.New, s.MoreNew = notIn(now.Problems, before.Problems)
	s.Fixed, s.MoreFixed = notIn(before.Problems, now.Problems)
	return s
}

// notIn lists the problems of these that those have not (the same rule
// for the same URL), the first views.LaunchShown, and counts the rest.
func notIn(these, those []verify.Problem) ([]views.LaunchProblem, int) {
	key := func(p verify.Problem) string { return p.Rule + " " + p.URL }
	in := make(map[string]bool, len(those))
	for _, p := range those {
		in[key(p)] = true
	}
	var out []views.LaunchProblem
	more := 0
	for _, p := range these {
		switch {
		case in[key(p)]:
		case len(out) == views.LaunchShown:
			more++
		default:
			out = append(out, problemView(p, nil))
		}
	}
	return out, more
}

// newestCheck is the newest check kept of the project, read. Errors:
// ENotFound (none yet).
func (s *Server) newestCheck(c echo.Context) (site.LaunchCheck, *verify.Report, string, error) {
	cs, err := s.store.launch.LaunchChecks(c.Request().Context(), currentProject(c).ID, 1)
	if err != nil {
		return site.LaunchCheck{}, nil, "", err
	}
	if len(cs) == 0 {
		return site.LaunchCheck{}, nil, "", site.Errorf(site.ENotFound, "This plan has no launch check yet: run one first.")
	}
	rep, what, err := verify.ReadKept(cs[0].Report, cs[0].ID)
	return cs[0], rep, what, err
}

// launchDiagram downloads the newest check's diagram: its PDF is the
// launch report a client can sign.
func (s *Server) launchDiagram(c echo.Context) error {
	format, typ, err := downloadFormat(c)
	if err != nil {
		return err
	}
	lc, rep, what, err := s.newestCheck(c)
	if err != nil {
		return err
	}
	p := currentProject(c)
	b, err := s.drawCached(c, p.ID, launchKey(p, lc), launchOptions(lc, rep, what, format), func(ctx context.Context) (*site.Tree, []site.Link, error) {
		return s.checkedPlan(ctx, p, lc.Version)
	})
	if err != nil {
		return err
	}
	attach(c, p, "-launch-check."+format)
	return c.Blob(http.StatusOK, typ, b)
}

// launchJSON downloads the newest check's report as siteplan verify
// --json prints it.
func (s *Server) launchJSON(c echo.Context) error {
	_, rep, _, err := s.newestCheck(c)
	if err != nil {
		return err
	}
	attach(c, currentProject(c), "-launch-check.json")
	return c.JSON(http.StatusOK, rep)
}
