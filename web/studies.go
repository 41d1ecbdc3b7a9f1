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
	"siteplan/treetest"
	"siteplan/views"
)

// Tree tests in the editor (the participant's page is treetests.go): a
// team sets a study up on a version of the plan, sends its link, and
// reads the results, computed from the events each time (package
// treetest), so a page marked correct afterwards counts at once.

// researchStore is what the editor's tree-test pages read and write.
type researchStore interface {
	Studies(ctx context.Context, projectID int64) ([]site.Study, error)
	Study(ctx context.Context, id int64) (site.Study, error)
	CreateStudy(ctx context.Context, s *site.Study) (string, error)
	StudyRecord(ctx context.Context, s site.Study) (site.StudyRecord, *site.Tree, error)
	SetCorrect(ctx context.Context, studyID int64, key string, pages []int64) error
	SetSpeeder(ctx context.Context, projectID, studyID, ms int64) error
	RevokeStudy(ctx context.Context, projectID, studyID int64) error
	NewStudyLink(ctx context.Context, projectID, studyID int64) (string, error)
}

// projectStudy is the study of the route's :sid, which must be the
// project's. Errors: ENotFound.
func (s *Server) projectStudy(c echo.Context) (site.Study, error) {
	return s.studyOf(c, c.Param("sid"))
}

// studyOf is the project's study whose id is id. Errors: ENotFound.
func (s *Server) studyOf(c echo.Context, id string) (site.Study, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return site.Study{}, site.Errorf(site.ENotFound, "No tree test %q.", id)
	}
	st, err := s.store.research.Study(c.Request().Context(), n)
	if err == nil && st.ProjectID != currentProject(c).ID {
		err = site.Errorf(site.ENotFound, "Tree test %d does not exist.", n)
	}
	return st, err
}

// studyState is a study's link's state, in words, and whether it takes
// new participants (its cap aside).
func (s *Server) studyState(st site.Study) (string, bool) {
	switch {
	case !st.RevokedAt.IsZero():
		return "closed", false
	case !st.ExpiresAt.IsZero() && !s.now().Before(st.ExpiresAt):
		return "expired", false
	case !st.ExpiresAt.IsZero():
		return "open until " + st.ExpiresAt.UTC().Format("2 January 2006"), true
	}
	return "open", true
}

// studiesPage lists the plan's tree tests.
func (s *Server) studiesPage(c echo.Context) error {
	p := currentProject(c)
	list, err := s.store.research.Studies(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	props := views.StudiesProps{Layout: s.layout(c, "Tree tests of "+p.Name), Project: p}
	for _, st := range list {
		state, _ := s.studyState(st)
		props.Studies = append(props.Studies, views.StudyRow{Study: st, State: state})
	}
	return render(c, http.StatusOK, views.Studies(props))
}

// newStudyPage is a new tree test's form on the version asked for (0:
// the plan as it is), with one task to fill.
func (s *Server) newStudyPage(c echo.Context) error {
	n, _ := strconv.Atoi(c.QueryParam("version"))
	st := site.Study{Version: n, Tasks: make([]site.TreeTask, 1)}
	props, err := s.studyForm(c, st)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.StudyForm(props))
}

// studyForm is the form's props for study st as filled so far: the
// versions to choose from and the pages of st's version.
func (s *Server) studyForm(c echo.Context, st site.Study) (views.StudyFormProps, error) {
	ctx := c.Request().Context()
	p := currentProject(c)
	vs, err := s.store.history.Versions(ctx, p.ID)
	if err != nil {
		return views.StudyFormProps{}, err
	}
	var t *site.Tree
	if st.Version == 0 {
		t, err = s.store.pages.Tree(ctx, p.ID)
	} else {
		_, t, _, err = s.store.history.Version(ctx, p.ID, st.Version)
	}
	if err != nil {
		return views.StudyFormProps{}, err
	}
	props := views.StudyFormProps{Layout: s.layout(c, "New tree test"), Project: p, Versions: vs, Study: st,
		Expires: c.FormValue("expires"), Speeder: strconv.FormatInt(st.SpeederMillis/1000, 10)}
	depth := map[int64]int{}
	all := site.Study{AllNavigation: true}
	nodes := all.Tree(t)
	for _, n := range nodes {
		depth[n.ID] = depth[n.Parent] + 1
		props.Pages = append(props.Pages, views.StudyPage{ID: n.ID, Label: n.Label, Depth: depth[n.ID] - 1,
			Branch: slices.ContainsFunc(nodes, func(m site.TreeNode) bool { return m.Parent == n.ID })})
	}
	return props, nil
}

// createStudy creates the tree test the form describes and shows its
// link once; "Add a task" (or a mistake) shows the form again, as
// typed.
func (s *Server) createStudy(c echo.Context) error {
	st, err := s.studyFromForm(c)
	if err == nil && c.FormValue("add") != "" {
		if len(st.Tasks) < site.MaxStudyTasks {
			st.Tasks = append(st.Tasks, site.TreeTask{})
		}
		props, err := s.studyForm(c, st)
		if err != nil {
			return err
		}
		return render(c, http.StatusOK, views.StudyForm(props))
	}
	var token string
	if err == nil {
		token, err = s.store.research.CreateStudy(c.Request().Context(), &st)
	}
	if site.ErrorCode(err) == site.EInvalid {
		props, ferr := s.studyForm(c, st)
		if ferr != nil {
			return ferr
		}
		props.Error = site.ErrorMessage(err)
		return rerender(c, err, views.StudyForm(props))
	}
	if err != nil {
		return err
	}
	return s.showStudyLink(c, st, token, http.StatusCreated)
}

// showStudyLink shows study st's participant link of token, once.
func (s *Server) showStudyLink(c echo.Context, st site.Study, token string, status int) error {
	return render(c, status, views.StudyLink(views.StudyLinkProps{Layout: s.layout(c, st.Name), Project: currentProject(c), Study: st,
		URL: absURL(c, "/t/"+url.PathEscape(token))}))
}

// studyFromForm reads a study from the new tree test's form. Errors:
// EInvalid (a duration that does not read).
func (s *Server) studyFromForm(c echo.Context) (site.Study, error) {
	num := func(name string) int {
		n, _ := strconv.Atoi(strings.TrimSpace(c.FormValue(name)))
		return n
	}
	st := site.Study{ProjectID: currentProject(c).ID, Version: num("version"), Name: c.FormValue("name"), AllNavigation: c.FormValue("all_navigation") != "",
		PerParticipant: num("per_participant"), Random: c.FormValue("random") != "", NoSkip: c.FormValue("skip") == "",
		Intro: c.FormValue("intro"), Thanks: c.FormValue("thanks"), MaxParticipants: num("max_participants"), SpeederMillis: int64(num("speeder")) * 1000}
	st.Root, _ = strconv.ParseInt(c.FormValue("root"), 10, 64)
	form, _ := c.FormParams()
	for i := 1; i <= min(num("tasks"), site.MaxStudyTasks); i++ {
		n := strconv.Itoa(i)
		t := site.TreeTask{Text: c.FormValue("text-" + n), TimeLimit: num("limit-" + n), Confidence: c.FormValue("confidence-"+n) != ""}
		for _, v := range form["correct-"+n] {
			if id, err := strconv.ParseInt(v, 10, 64); err == nil {
				t.Correct = append(t.Correct, id)
			}
		}
		st.Tasks = append(st.Tasks, t)
	}
	if v := strings.TrimSpace(c.FormValue("expires")); v != "" {
		d, err := site.ParseDuration(v)
		if err != nil {
			return st, err
		}
		st.ExpiresAt = s.now().Add(d)
	}
	return st, nil
}

// studyLoaded is a study with its results as a page or file shows them.
type studyLoaded struct {
	study    site.Study
	rec      site.StudyRecord
	tree     *site.Tree
	results  treetest.Results
	attempts []treetest.Attempt
	name     treetest.Namer
	segment  map[string]string
}

// loadResults computes the results of the route's study (:sid).
func (s *Server) loadResults(c echo.Context) (studyLoaded, error) {
	st, err := s.projectStudy(c)
	if err != nil {
		return studyLoaded{}, err
	}
	return s.resultsOf(c, st)
}

// resultsOf computes study st's results for the segment the query names
// (?segment=key%3Dvalue), speeders left out.
func (s *Server) resultsOf(c echo.Context, st site.Study) (studyLoaded, error) {
	l := studyLoaded{study: st}
	var err error
	if l.rec, l.tree, err = s.store.research.StudyRecord(c.Request().Context(), l.study); err != nil {
		return l, err
	}
	if k, v, ok := strings.Cut(c.QueryParam("segment"), "="); ok {
		l.segment = map[string]string{k: v}
	}
	l.results, l.attempts = treetest.Compute(l.study, l.rec, treetest.Options{Segment: l.segment, MinMillis: l.study.SpeederMillis})
	_, l.name = treetest.Paths(l.tree)
	return l, nil
}

// studyResults shows a study's results.
func (s *Server) studyResults(c echo.Context) error {
	l, err := s.loadResults(c)
	if err != nil {
		return err
	}
	p := currentProject(c)
	state, open := s.studyState(l.study)
	props := views.StudyResultsProps{Layout: s.layout(c, l.study.Name), Project: p, Study: l.study, State: state, Open: open,
		Joined: len(l.rec.Participants), Counted: l.results.Participants, Speeder: strconv.FormatInt(l.study.SpeederMillis/1000, 10)}
	if q := c.QueryParam("segment"); q != "" {
		props.Query = "?segment=" + url.QueryEscape(q)
	}
	for _, e := range l.results.Excluded {
		props.Excluded = append(props.Excluded, fmt.Sprintf("Participant %d: %s", e.Participant, e.Reason))
	}
	props.Segments = segments(l.rec.Participants, c.QueryParam("segment"))
	for _, d := range treetest.Definitions {
		props.Definitions = append(props.Definitions, [2]string{d.Name, d.Meaning})
	}
	for _, tr := range l.results.Tasks {
		props.Tasks = append(props.Tasks, taskView(tr, l, projectPath(p.ID, "treetests", strconv.FormatInt(l.study.ID, 10), "diagram")+"/"))
	}
	return render(c, http.StatusOK, views.StudyResults(props))
}

// segments are the values of the link parameters participants came
// with, each a choice of the results' filter.
func segments(parts []site.TreeParticipant, selected string) []views.StudySegment {
	seen := map[string]bool{}
	var out []views.StudySegment
	for _, p := range parts {
		for k, v := range p.Params {
			kv := k + "=" + v
			if !seen[kv] && len(seen) < 50 {
				seen[kv] = true
				out = append(out, views.StudySegment{Value: kv, Label: k + ": " + v, Selected: kv == selected})
			}
		}
	}
	slices.SortFunc(out, func(a, b views.StudySegment) int { return strings.Compare(a.Value, b.Value) })
	return out
}

// taskView is one task's results in words.
func taskView(tr treetest.TaskResult, l studyLoaded, diagram string) views.StudyTaskResult {
	ref := func(id int64) views.StudyPageRef {
		r := views.StudyPageRef{ID: id, Path: l.name(id)}
		if pg := l.tree.Page(id); pg != nil {
			r.Label = pg.Title
		}
		return r
	}
	v := views.StudyTaskResult{Key: tr.Key, Text: tr.Text, Diagram: diagram}
	task, _ := l.study.Task(tr.Key)
	for _, id := range task.Correct {
		v.Correct = append(v.Correct, ref(id))
	}
	count := func(in treetest.Interval, text string) views.StudyFigure {
		return views.StudyFigure{Name: text, Value: fmt.Sprintf("%s (%d of %d)", pct(in.P), in.X, in.N), Interval: fmt.Sprintf("95%%: %s–%s", pct(in.Low), pct(in.High))}
	}
	plain := func(name string, n int) views.StudyFigure {
		return views.StudyFigure{Name: name, Value: strconv.Itoa(n)}
	}
	v.Figures = []views.StudyFigure{count(tr.Success, "Success"), plain("Direct success", tr.DirectSuccess), plain("Indirect success", tr.IndirectSuccess),
		plain("Direct fail", tr.DirectFail), plain("Indirect fail", tr.IndirectFail), plain("Direct skip", tr.DirectSkip), plain("Indirect skip", tr.IndirectSkip),
		count(tr.Directness, "Directness"), count(tr.FirstClickSuccess, "First-click success"),
		{Name: "Time to choose", Value: "median " + seconds(tr.TimeMedian), Interval: "quartiles " + seconds(tr.TimeQ1) + "–" + seconds(tr.TimeQ3)}}
	if tr.TimedOut > 0 || task.TimeLimit > 0 {
		v.Figures = append(v.Figures, plain("Timed out", tr.TimedOut))
	}
	if task.Confidence {
		v.Figures = append(v.Figures, views.StudyFigure{Name: "Confidence (1–7)", Value: fmt.Sprintf("median %g", tr.ConfidenceMedian), Interval: fmt.Sprint(tr.Confidence)})
	}
	counts := func(cs []treetest.Count, of int) []views.StudyCount {
		var out []views.StudyCount
		for _, c := range cs {
			out = append(out, views.StudyCount{StudyPageRef: ref(c.PageID), N: c.N, Share: pct(float64(c.N) / float64(max(1, of))), Correct: c.Correct})
		}
		return out
	}
	v.Destinations, v.FirstClicks = counts(tr.Destinations, tr.Chosen), counts(tr.FirstClicks, tr.N)
	depth := map[int64]int{}
	for _, n := range l.rec.Nodes {
		depth[n.ID] = depth[n.Parent] + 1
	}
	for _, n := range tr.Paths {
		v.Paths = append(v.Paths, views.StudyPathRow{StudyPageRef: ref(n.PageID), Depth: depth[n.PageID] - 1, Visits: n.Visits, Back: n.Back, Chose: n.Chose,
			Of: tr.N, Right: n.Right, Correct: tr.IsCorrect(n.PageID)})
	}
	return v
}

// pct is a share as a whole percentage.
func pct(p float64) string { return strconv.Itoa(int(p*100+0.5)) + "%" }

// seconds is milliseconds as seconds to a tenth.
func seconds(ms int64) string { return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) + " s" }

// backToResults sends the browser to the study's results again, in the
// segment it came from.
func backToResults(c echo.Context, st site.Study) error {
	to := projectPath(st.ProjectID, "treetests", strconv.FormatInt(st.ID, 10))
	if q := c.QueryParam("segment"); q != "" {
		to += "?segment=" + url.QueryEscape(q)
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// setStudyCorrect marks a page correct for a task afterwards (op add),
// or no longer (op remove): the results count again from the events.
func (s *Server) setStudyCorrect(c echo.Context) error {
	st, err := s.projectStudy(c)
	if err != nil {
		return err
	}
	task, ok := st.Task(c.FormValue("task"))
	if !ok {
		return site.Errorf(site.ENotFound, "Tree test %d has no task %q.", st.ID, c.FormValue("task"))
	}
	page, _ := strconv.ParseInt(c.FormValue("page"), 10, 64)
	correct := slices.DeleteFunc(slices.Clone(task.Correct), func(id int64) bool { return id == page })
	if c.FormValue("op") == "add" {
		correct = append(correct, page)
	}
	if err := s.store.research.SetCorrect(c.Request().Context(), st.ID, task.Key, correct); err != nil {
		return err
	}
	return backToResults(c, st)
}

// setStudySpeeder sets the threshold under which participants are left
// out as speeders, in seconds.
func (s *Server) setStudySpeeder(c echo.Context) error {
	st, err := s.projectStudy(c)
	if err != nil {
		return err
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(c.FormValue("seconds")), 10, 64)
	if err != nil {
		return site.Errorf(site.EInvalid, "A speeder's threshold is a number of seconds (0: none).")
	}
	if err := s.store.research.SetSpeeder(c.Request().Context(), st.ProjectID, st.ID, sec*1000); err != nil {
		return err
	}
	return backToResults(c, st)
}

// revokeStudy closes a study's link.
func (s *Server) revokeStudy(c echo.Context) error {
	st, err := s.projectStudy(c)
	if err != nil {
		return err
	}
	if err := s.store.research.RevokeStudy(c.Request().Context(), st.ProjectID, st.ID); err != nil {
		return err
	}
	return backToResults(c, st)
}

// newStudyLink replaces a study's link and shows the new one, once.
func (s *Server) newStudyLink(c echo.Context) error {
	st, err := s.projectStudy(c)
	if err != nil {
		return err
	}
	token, err := s.store.research.NewStudyLink(c.Request().Context(), st.ProjectID, st.ID)
	if err != nil {
		return err
	}
	return s.showStudyLink(c, st, token, http.StatusOK)
}

// studyFile downloads a study's file: outcomes.csv, events.csv,
// results.json (in the page's segment) or definitions.csv.
func (s *Server) studyFile(c echo.Context) error {
	l, err := s.loadResults(c)
	if err != nil {
		return err
	}
	file := c.Param("file")
	write := map[string]func() error{
		"outcomes.csv": func() error { return treetest.WriteOutcomes(c.Response(), l.study.Tasks, l.attempts, l.name) },
		"events.csv": func() error {
			return treetest.WriteEvents(c.Response(), l.rec.Participants, l.rec.Events, l.rec.Nodes, l.name)
		},
		"results.json":    func() error { return treetest.WriteResultsJSON(c.Response(), l.results, l.name) },
		"definitions.csv": func() error { return treetest.WriteDefinitions(c.Response()) },
	}[file]
	if write == nil {
		return site.Errorf(site.ENotFound, "A tree test has no file %q.", file)
	}
	typ := "text/csv; charset=utf-8"
	if strings.HasSuffix(file, ".json") {
		typ = echo.MIMEApplicationJSON
	}
	c.Response().Header().Set(echo.HeaderContentType, typ)
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="treetest-%d-%s"`, l.study.ID, file))
	c.Response().WriteHeader(http.StatusOK)
	return write()
}

// studyDiagram draws the study's version coloured by a task's traffic
// and success (?task=K, else the first): the correct pages, the way to
// them and away, the wrong choices, each card with its visits and
// choices. Its PDF, with a cover, is the page for a sign-off packet.
func (s *Server) studyDiagram(c echo.Context) error {
	format, typ, err := downloadFormat(c)
	if err != nil {
		return err
	}
	l, err := s.loadResults(c)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(l.results.Tasks, func(tr treetest.TaskResult) bool { return tr.Key == c.QueryParam("task") })
	if i < 0 && c.QueryParam("task") != "" {
		return site.Errorf(site.ENotFound, "Tree test %d has no task %q.", l.study.ID, c.QueryParam("task"))
	}
	tr := l.results.Tasks[max(i, 0)]
	p := currentProject(c)
	b, err := s.drawCached(c, p.ID, fmt.Sprintf("%d|treetest|%d", p.ID, l.study.Version), studyDiagramOptions(l, tr, format), func(context.Context) (*site.Tree, []site.Link, error) {
		return l.tree, nil, nil
	})
	if err != nil {
		return err
	}
	attach(c, p, fmt.Sprintf("-tree-test-%d-task-%s.%s", l.study.ID, tr.Key, format))
	return c.Blob(http.StatusOK, typ, b)
}

// studyDiagramOptions colour a task's results on its study's version:
// each page's mark and figures, and for the PDF the task's figures and
// where participants chose.
func studyDiagramOptions(l studyLoaded, tr treetest.TaskResult, format string) diagram.Options {
	opt := diagram.Options{Format: format, ColorBy: diagram.ColorByTreeTest, Marks: map[int64]string{}, Figures: map[int64]string{},
		Title: "Tree test", Cover: format == diagram.FormatPDF, Date: l.study.CreatedAt,
		Notes: []string{l.study.Name + ", version " + strconv.Itoa(l.study.Version) + ": " + tr.Text},
		Facts: [][2]string{
			{"Task", tr.Text},
			{"Success", fmt.Sprintf("%s (%d of %d; 95%%: %s–%s), %d direct", pct(tr.Success.P), tr.Success.X, tr.N, pct(tr.Success.Low), pct(tr.Success.High), tr.DirectSuccess)},
			{"Directness", fmt.Sprintf("%s; first-click success %s", pct(tr.Directness.P), pct(tr.FirstClickSuccess.P))},
			{"Time", "median " + seconds(tr.TimeMedian) + " to choose"},
			{"Participants", strconv.Itoa(l.results.Participants)},
		}}
	for _, n := range tr.Paths {
		mark := diagram.TreeWrongWay
		switch {
		case tr.IsCorrect(n.PageID):
			mark = diagram.TreeCorrect
		case n.Chose > 0:
			mark = diagram.TreeWrongChoice
		case n.Right:
			mark = diagram.TreeRightWay
		}
		opt.Marks[n.PageID] = mark
		opt.Figures[n.PageID] = site.Plural(n.Visits, "visit", "visits") + " · " + strconv.Itoa(n.Chose) + " chose"
	}
	task, _ := l.study.Task(tr.Key)
	for _, id := range task.Correct { // the answers, visited or not
		opt.Marks[id] = diagram.TreeCorrect
	}
	where := diagram.Section{Title: "Where participants chose"}
	for _, d := range tr.Destinations {
		sign := "✕ "
		if d.Correct {
			sign = "✓ "
		}
		where.Lines = append(where.Lines, fmt.Sprintf("%s%s: %d (%s)", sign, l.name(d.PageID), d.N, pct(float64(d.N)/float64(max(1, tr.Chosen)))))
	}
	if n := tr.DirectSkip + tr.IndirectSkip; n > 0 {
		where.Lines = append(where.Lines, fmt.Sprintf("skipped: %d", n))
	}
	opt.Appendix, opt.AppendixTitle = []diagram.Section{where}, "Tree test: "+tr.Text
	return opt
}

// studyCompare sets two studies' tasks side by side (?a=S&b=T), matched
// by their text: success, directness and time in each, and the change
// of success ("54% → 81%").
func (s *Server) studyCompare(c echo.Context) error {
	p := currentProject(c)
	var loaded [2]studyLoaded
	for i, k := range []string{"a", "b"} {
		st, err := s.studyOf(c, c.QueryParam(k))
		if err != nil {
			return err
		}
		if loaded[i], err = s.resultsOf(c, st); err != nil {
			return err
		}
	}
	a, b := loaded[0], loaded[1]
	props := views.StudyCompareProps{Layout: s.layout(c, "Compare tree tests"), Project: p, A: a.study, B: b.study}
	cell := func(l studyLoaded, text string) (views.StudyCompareCell, treetest.Interval) {
		for _, tr := range l.results.Tasks {
			if strings.EqualFold(strings.TrimSpace(tr.Text), strings.TrimSpace(text)) {
				return views.StudyCompareCell{Has: true, N: tr.N, Success: pct(tr.Success.P), Directness: pct(tr.Directness.P), Time: seconds(tr.TimeMedian)}, tr.Success
			}
		}
		return views.StudyCompareCell{}, treetest.Interval{}
	}
	var xa, na, xb, nb int
	seen := map[string]bool{}
	for _, tr := range append(slices.Clone(a.results.Tasks), b.results.Tasks...) {
		key := strings.ToLower(strings.TrimSpace(tr.Text))
		if seen[key] {
			continue
		}
		seen[key] = true
		row := views.StudyCompareRow{Text: tr.Text}
		var sa, sb treetest.Interval
		row.A, sa = cell(a, tr.Text)
		row.B, sb = cell(b, tr.Text)
		if row.A.Has && row.B.Has {
			row.Change = pct(sa.P) + " → " + pct(sb.P)
			xa, na, xb, nb = xa+sa.X, na+sa.N, xb+sb.X, nb+sb.N
		}
		props.Rows = append(props.Rows, row)
	}
	props.Summary = fmt.Sprintf("Version %d vs version %d: success %s → %s over the tasks both asked", a.study.Version, b.study.Version,
		pct(float64(xa)/float64(max(1, na))), pct(float64(xb)/float64(max(1, nb))))
	return render(c, http.StatusOK, views.StudyCompare(props))
}
