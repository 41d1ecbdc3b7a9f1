package web

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"siteplan/site"
	"siteplan/treetest"
	"siteplan/views"
)

// A tree test's participant page (/t/TOKEN): no account, a cookie per
// study that resumes the participant's session; each press in the tree
// is one event, recorded as it comes, and the page shows where the
// participant is from their events (treetest.Now). It reads nothing of
// the plan but its study's tree, and writes nothing but events.

// studyStore is what the participant's page reads and writes.
type studyStore interface {
	StudyByToken(ctx context.Context, token string) (site.Study, error)
	StudyTree(ctx context.Context, s site.Study) ([]site.TreeNode, error)
	Join(ctx context.Context, s site.Study, params map[string]string, tasks []string) (site.TreeParticipant, string, error)
	Participant(ctx context.Context, secret string) (site.TreeParticipant, error)
	ParticipantEvents(ctx context.Context, participantID int64) ([]site.TreeEvent, error)
	Record(ctx context.Context, p site.TreeParticipant, events []site.TreeEvent) error
}

// studyCookie names the cookie that resumes a participant of study id.
func studyCookie(id int64) string { return "siteplan_tt_" + strconv.FormatInt(id, 10) }

// maxStudyParams bounds the link parameters a participant keeps.
const maxStudyParams = 10

// participant is the study of the link's token and the request's
// participant of it (ok false when they have not started).
func (s *Server) participant(c echo.Context) (site.Study, site.TreeParticipant, bool, error) {
	ctx := c.Request().Context()
	st, err := s.store.studies.StudyByToken(ctx, c.Param("token"))
	if err != nil {
		return st, site.TreeParticipant{}, false, err
	}
	ck, err := c.Cookie(studyCookie(st.ID))
	if err != nil || ck.Value == "" {
		return st, site.TreeParticipant{}, false, nil
	}
	p, err := s.store.studies.Participant(ctx, ck.Value)
	if site.ErrorCode(err) == site.ENotFound || err == nil && p.StudyID != st.ID {
		return st, site.TreeParticipant{}, false, nil
	}
	return st, p, err == nil, err
}

// studyPage shows the participant where they are: the intro, their
// task (a reload collapses its tree: a start again), or the end.
func (s *Server) studyPage(c echo.Context) error {
	st, p, ok, err := s.participant(c)
	if err != nil {
		return err
	}
	main := views.StudyMainProps{Action: c.Request().URL.Path, Start: c.Request().URL.Path + "/start", Study: st, State: views.StudyIntro}
	if q := c.Request().URL.RawQuery; q != "" {
		main.Start += "?" + q // the link's parameters, kept for segments
	}
	switch {
	case !ok && !st.Open(s.now(), 0):
		main.State = views.StudyClosed
	case ok:
		if main, err = s.studyNow(c, st, p, "", 0); err != nil {
			return err
		}
	}
	main.CSRF = formToken(c)
	return render(c, http.StatusOK, views.Study(views.StudyProps{Layout: s.layout(c, "Tree test"), Main: main}))
}

// startStudy makes the visitor a participant: the tasks drawn for them,
// the link's parameters kept, a cookie to resume.
func (s *Server) startStudy(c echo.Context) error {
	st, _, ok, err := s.participant(c)
	if err != nil {
		return err
	}
	if !ok {
		params := map[string]string{}
		for k, vs := range c.QueryParams() {
			if len(params) < maxStudyParams && len(k) <= 40 && len(vs) > 0 && len(vs[0]) <= 100 {
				params[k] = vs[0]
			}
		}
		_, secret, err := s.store.studies.Join(c.Request().Context(), st, params, st.Draw(rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))))
		if err != nil {
			return err
		}
		c.SetCookie(&http.Cookie{Name: studyCookie(st.ID), Value: secret, Path: "/t/", MaxAge: int((30 * 24 * time.Hour).Seconds()),
			HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: c.Scheme() == "https"})
	}
	return c.Redirect(http.StatusSeeOther, "/t/"+url.PathEscape(c.Param("token")))
}

// studyStep records one press of the participant in their task's tree
// (open or close an item, choose it, skip the task) and shows where
// they are now.
func (s *Server) studyStep(c echo.Context) error {
	st, p, ok, err := s.participant(c)
	if err != nil {
		return err
	}
	if !ok {
		return c.Redirect(http.StatusSeeOther, "/t/"+url.PathEscape(c.Param("token")))
	}
	var act string
	var page int64
	switch {
	case c.FormValue("confidence") != "":
		act = site.TreeConfidence
		page, _ = strconv.ParseInt(c.FormValue("confidence"), 10, 64)
	case c.FormValue("timeout") != "":
		act = site.TreeTimeout
	case c.FormValue("skip") != "" && !st.NoSkip:
		act = site.TreeSkip
	case c.FormValue("choose") != "":
		act = site.TreeChoose
		page, _ = strconv.ParseInt(c.FormValue("choose"), 10, 64)
	case c.FormValue("open") != "":
		act = site.TreeOpen
		page, _ = strconv.ParseInt(c.FormValue("open"), 10, 64)
	}
	main, err := s.studyNow(c, st, p, act, page)
	if err != nil {
		return err
	}
	main.CSRF = formToken(c)
	if !isHTMX(c) { // a browser without the script: the whole page, as it is now (a redirect would start the task again)
		return render(c, http.StatusOK, views.Study(views.StudyProps{Layout: s.layout(c, "Tree test"), Main: main}))
	}
	return render(c, http.StatusOK, views.StudyMain(main))
}

// studyNow records what participant p did (act on page; "" for a look:
// a start of their task again) and returns their page as it is then.
func (s *Server) studyNow(c echo.Context, st site.Study, p site.TreeParticipant, act string, page int64) (views.StudyMainProps, error) {
	if !st.RevokedAt.IsZero() { // closed under them: nothing more is recorded
		return views.StudyMainProps{Study: st, State: views.StudyClosed}, nil
	}
	ctx := c.Request().Context()
	nodes, err := s.trees.get(ctx, s.store.studies, st)
	if err != nil {
		return views.StudyMainProps{}, err
	}
	events, err := s.store.studies.ParticipantEvents(ctx, p.ID)
	if err != nil {
		return views.StudyMainProps{}, err
	}
	now := treetest.Now(p, st.Tasks, nodes, events)
	task, _ := st.Task(now.Task)
	at := s.now().Sub(p.Started).Milliseconds()
	var rec []site.TreeEvent
	step := func(kind, key string, id int64) {
		rec = append(rec, site.TreeEvent{Participant: p.ID, Task: key, Kind: kind, PageID: id, At: at})
	}
	end := func(kind string, id int64) { // the task ends; the next starts with the tree collapsed, after the confidence question if it asks one
		step(kind, now.Task, id)
		if next := now.Number; !task.Confidence && next < len(p.Tasks) {
			step(site.TreeStart, p.Tasks[next], 0)
		}
	}
	overdue := task.TimeLimit > 0 && now.Started >= 0 && at-now.Started >= int64(task.TimeLimit)*1000
	switch {
	case now.Asking != "":
		if act == site.TreeConfidence && page >= 1 && page <= 7 {
			step(act, now.Asking, page)
			if next := now.Number; next < len(p.Tasks) {
				step(site.TreeStart, p.Tasks[next], 0)
			}
		}
	case now.Task == "":
	case overdue: // whatever the press, the time is up
		end(site.TreeTimeout, 0)
	case act == "":
		step(site.TreeStart, now.Task, 0)
	case act == site.TreeOpen && now.Open[page] && page != 0:
		step(site.TreeClose, now.Task, page)
	case act == site.TreeOpen && inTree(nodes, page):
		step(site.TreeOpen, now.Task, page)
	case act == site.TreeChoose && page == now.At && page != 0, act == site.TreeSkip:
		end(act, page)
	}
	if len(rec) > 0 {
		if err := s.store.studies.Record(ctx, p, rec); err != nil {
			return views.StudyMainProps{}, err
		}
		now = treetest.Now(p, st.Tasks, nodes, append(events, rec...))
	}
	main := views.StudyMainProps{Action: "/t/" + c.Param("token"), Study: st, State: views.StudyDone, Number: now.Number, Of: len(p.Tasks),
		Children: map[int64][]site.TreeNode{}, Open: now.Open, At: now.At, Arrived: act != site.TreeOpen}
	for _, n := range nodes {
		main.Children[n.Parent] = append(main.Children[n.Parent], n)
	}
	if t, ok := st.Task(now.Asking); ok {
		main.State, main.Task = views.StudyAsk, t
	} else if t, ok := st.Task(now.Task); ok {
		main.State, main.Task = views.StudyTask, t
		if t.TimeLimit > 0 {
			main.LeftMillis = max(0, int64(t.TimeLimit)*1000-(at-now.Started))
		}
	}
	return main, nil
}

// inTree reports whether id is an item of the study's tree.
func inTree(nodes []site.TreeNode, id int64) bool {
	for _, n := range nodes {
		if n.ID == id {
			return true
		}
	}
	return false
}

// studyTrees keeps the trees of the studies participants took lately: a
// study's tree is its version's navigation, which never changes, and
// reading it decodes the version's whole plan, which every press of
// every participant would otherwise do. Participants arriving together
// wait for one reading.
type studyTrees struct {
	mu sync.Mutex
	m  map[int64]*studyTree
}

// studyTree is one study's tree, read once.
type studyTree struct {
	once  sync.Once
	nodes []site.TreeNode
	err   error
}

// maxStudyTrees bounds the trees kept (a 2,000-item tree is some 100 KB).
const maxStudyTrees = 64

// get is study st's tree, read from db the first time.
func (k *studyTrees) get(ctx context.Context, db studyStore, st site.Study) ([]site.TreeNode, error) {
	k.mu.Lock()
	if k.m == nil || len(k.m) >= maxStudyTrees && k.m[st.ID] == nil {
		k.m = map[int64]*studyTree{} // start again: the studies running now come back at once
	}
	e := k.m[st.ID]
	if e == nil {
		e = &studyTree{}
		k.m[st.ID] = e
	}
	k.mu.Unlock()
	e.once.Do(func() { e.nodes, e.err = db.StudyTree(context.WithoutCancel(ctx), st) })
	if e.err != nil {
		k.mu.Lock()
		if k.m[st.ID] == e { // a failed reading is not kept: the next press tries again
			delete(k.m, st.ID)
		}
		k.mu.Unlock()
	}
	return e.nodes, e.err
}
