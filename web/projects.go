package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"siteplan/diagram"
	"siteplan/site"
	"siteplan/views"
)

// projectStore is what the project list, settings, import and download need.
type projectStore interface {
	Projects(ctx context.Context, teamID int64) ([]site.Project, error)
	CreateProject(ctx context.Context, p *site.Project) error
	UpdateProject(ctx context.Context, p *site.Project) error
	RenameProject(ctx context.Context, id int64, name string) error
	DeleteProject(ctx context.Context, id int64) error
	ImportDocument(ctx context.Context, teamID int64, d *site.Document) (int64, error)
	Document(ctx context.Context, projectID int64) (*site.Document, error)
	Project(ctx context.Context, id int64) (site.Project, error)
	ProjectWithPalette(ctx context.Context, id int64) (site.Project, site.Palette, error)
}

// idParam parses a numeric path parameter. Errors: ENotFound.
func idParam(c echo.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, site.Errorf(site.ENotFound, "No such %s.", strings.TrimSuffix(name, "id"))
	}
	return id, nil
}

// project returns the :id project, which inProject has loaded and
// checked the viewer may see. Errors: ENotFound.
func (s *Server) project(c echo.Context) (site.Project, error) {
	p := currentProject(c)
	if p.ID == 0 {
		return p, site.Errorf(site.ENotFound, "No such project.")
	}
	return p, nil
}

// projectTree checks the :id project like project does, then loads its
// pages with load. Errors: ENotFound.
func (s *Server) projectTree(c echo.Context, load func(context.Context, int64) (*site.Tree, error)) (*site.Tree, error) {
	p, err := s.project(c)
	if err != nil {
		return nil, err
	}
	return load(c.Request().Context(), p.ID)
}

func (s *Server) listProjects(c echo.Context) error {
	return s.renderProjects(c, http.StatusOK, views.ProjectForm{}, views.ImportForm{})
}

func (s *Server) renderProjects(c echo.Context, status int, f views.ProjectForm, imp views.ImportForm) error {
	team := viewer(c).Team
	if team.ID == 0 {
		return render(c, http.StatusOK, views.NoTeam(s.layout(c, "No team")))
	}
	list, err := s.store.projects.Projects(c.Request().Context(), team.ID)
	if err != nil {
		return err
	}
	if f.Starters, err = s.store.starters.Starters(c.Request().Context(), team.ID); err != nil {
		return err
	}
	return render(c, status, views.Projects(views.ProjectsProps{Layout: s.layout(c, "Projects"), Projects: list, Form: f, Import: imp}))
}

func (s *Server) createProject(c echo.Context) error {
	ctx := c.Request().Context()
	p := site.Project{TeamID: viewer(c).Team.ID, Name: c.FormValue("name"), BaseURL: site.WithScheme(c.FormValue("base_url"))}
	starter, _ := strconv.ParseInt(c.FormValue("starter"), 10, 64)
	var err error
	if starter != 0 {
		err = s.fromStarter(c, &p, starter)
	} else {
		err = s.store.projects.CreateProject(ctx, &p)
	}
	if site.ErrorCode(err) == site.EInvalid {
		f := views.ProjectForm{Name: p.Name, BaseURL: c.FormValue("base_url"), Starter: starter, Errors: site.ErrorFields(err)}
		if isHTMX(c) {
			var serr error
			if f.Starters, serr = s.store.starters.Starters(ctx, p.TeamID); serr != nil {
				return serr
			}
			return rerender(c, err, views.CreateProjectForm(f))
		}
		return s.renderProjects(c, statusOf[site.EInvalid], f, views.ImportForm{})
	} else if err != nil {
		return err
	}
	return redirect(c, "/projects/"+strconv.FormatInt(p.ID, 10))
}

// redirect sends htmx to url with HX-Redirect and others with a 303.
func redirect(c echo.Context, url string) error {
	if isHTMX(c) {
		c.Response().Header().Set("HX-Redirect", url)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, url)
}

func (s *Server) importProject(c echo.Context) error {
	ctx := c.Request().Context()
	fh, err := c.FormFile("file")
	if err != nil {
		return s.importFailed(c, site.Errorf(site.EInvalid, "Choose a .json file to import."))
	}
	f, err := fh.Open()
	if err != nil {
		return err
	}
	defer f.Close()
	doc, err := site.ParseDocument(f)
	if err != nil {
		return s.importFailed(c, err)
	}
	id, err := s.store.projects.ImportDocument(ctx, viewer(c).Team.ID, doc)
	if err != nil {
		return s.importFailed(c, err)
	}
	return redirect(c, "/projects/"+strconv.FormatInt(id, 10))
}

func (s *Server) importFailed(c echo.Context, err error) error {
	if site.ErrorCode(err) != site.EInvalid {
		return err
	}
	f := views.ImportForm{Error: site.ErrorMessage(err)}
	if isHTMX(c) {
		return rerender(c, err, views.ImportProjectForm(f))
	}
	return s.renderProjects(c, statusOf[site.EInvalid], views.ProjectForm{}, f)
}

func (s *Server) renameProjectForm(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ProjectRenameForm(p, ""))
}

func (s *Server) renameProject(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.store.projects.RenameProject(ctx, p.ID, c.FormValue("name")); site.ErrorCode(err) == site.EInvalid {
		p.Name = c.FormValue("name")
		return rerender(c, err, views.ProjectRenameForm(p, site.ErrorFields(err)["name"]))
	} else if err != nil {
		return err
	}
	if p, err = s.store.projects.Project(ctx, p.ID); err != nil {
		return err
	}
	setChange(c, change{Kind: "project"})
	return render(c, http.StatusOK, views.ProjectRow(p))
}

func (s *Server) confirmDeleteProject(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	msg := "Delete “" + p.Name + "” with its " + strconv.Itoa(p.PageCount) + " pages and their links? This cannot be undone; download the JSON first to keep a copy."
	return render(c, http.StatusOK, views.ConfirmDialog(views.ConfirmProps{Title: "Delete project", Message: msg, Action: "/projects/" + strconv.FormatInt(p.ID, 10), Method: "delete", Confirm: "Delete project"}))
}

func (s *Server) deleteProject(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	if err := s.store.projects.DeleteProject(c.Request().Context(), p.ID); err != nil {
		return err
	}
	setChange(c, change{Kind: "deleted"})
	return redirect(c, "/")
}

func (s *Server) settings(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	t, err := s.store.themes.Theme(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	props := views.SettingsProps{Layout: s.layout(c, p.Name+" settings"), Project: p, Priority: priorityText(p.DefaultPriority),
		Theme: views.ThemeProps{Project: p, Theme: t, DefaultAccent: diagram.DefaultAccent}}
	if props.RateCard, err = s.projectRateCard(c, p); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.Settings(props))
}

// localesForm reads the settings form's locale rows: a tag each (a row
// without one is left out), a prefix or a URL of its own, and the
// default's row. site.CheckLocales, on save, says what is wrong.
func localesForm(c echo.Context) []site.Locale {
	form, _ := c.FormParams()
	tags, places := form["locale_tag"], form["locale_place"]
	def := c.FormValue("locale_default")
	var out []site.Locale
	for i, tag := range tags {
		place := ""
		if i < len(places) {
			place = strings.TrimSpace(places[i])
		}
		if strings.TrimSpace(tag) == "" {
			continue
		}
		l := site.Locale{Tag: strings.TrimSpace(tag), Default: def == strconv.Itoa(i)}
		if strings.Contains(place, "://") || strings.HasPrefix(place, "www.") {
			l.BaseURL = site.WithScheme(place)
		} else {
			l.Prefix = place
		}
		out = append(out, l)
	}
	return out
}

func (s *Server) saveSettings(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	props := views.SettingsProps{Layout: s.layout(c, p.Name+" settings")}
	if props.RateCard, err = s.projectRateCard(c, p); err != nil {
		return err
	}
	p.Name = c.FormValue("name")
	p.BaseURL = site.WithScheme(c.FormValue("base_url"))
	p.TrailingSlash = c.FormValue("trailing_slash") == "1"
	p.DefaultChangefreq = c.FormValue("default_changefreq")
	p.Lastmod = strings.TrimSpace(c.FormValue("lastmod"))
	p.SitemapLocation = c.FormValue("sitemap_location")
	p.Locales = localesForm(c)
	p.Version, _ = strconv.ParseInt(c.FormValue("version"), 10, 64)
	props.Priority = c.FormValue("default_priority")
	fields := site.FieldErrors{}
	var msg string
	if p.DefaultPriority, msg = site.ParsePriority(props.Priority); msg != "" {
		fields.Add("default_priority", msg)
	}
	err = fields.Err()
	if err == nil {
		err = s.store.projects.UpdateProject(c.Request().Context(), &p)
	}
	switch site.ErrorCode(err) {
	case "":
		setChange(c, change{Kind: "project"})
		props.Project, props.Saved, props.Priority = p, true, priorityText(p.DefaultPriority)
		return render(c, http.StatusOK, views.SettingsForm(props))
	case site.EInvalid:
		props.Project, props.Errors = p, site.ErrorFields(err)
		return rerender(c, err, views.SettingsForm(props))
	case site.EConflict:
		fresh, ferr := s.store.projects.Project(c.Request().Context(), p.ID)
		if ferr != nil {
			return ferr
		}
		props.Project, props.Message, props.Priority = fresh, site.ErrorMessage(err), priorityText(fresh.DefaultPriority)
		return rerender(c, err, views.SettingsForm(props))
	}
	return err
}

func priorityText(p *float64) string {
	if p == nil {
		return ""
	}
	return site.FormatPriority(*p)
}

func (s *Server) downloadDocument(c echo.Context) error {
	p, err := s.project(c)
	if err != nil {
		return err
	}
	doc, err := s.store.projects.Document(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	attach(c, p, ".siteplan.json")
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	c.Response().WriteHeader(http.StatusOK)
	return doc.Encode(c.Response())
}
