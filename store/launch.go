package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"maps"
	"slices"

	"siteplan/site"
)

// After launch the map keeps itself right. A version marked launched
// keeps its URLs (launched_urls); from then on every change that moves
// one of them (a new slug, a move, a path override, a delete, a new base
// URL) records where it went as an old URL redirected to the page, in the
// change's own transaction and in its rows, so that undoing the change
// removes the redirect. Redirects name their page, not its URL: when the
// page moves again, every redirect to it follows, and each launched URL
// still resolves in one hop.

// keepLaunchedURLs keeps the URLs of a launched version's plan.
func keepLaunchedURLs(ctx context.Context, tx *sql.Tx, projectID int64, s *snapshot) error {
	pr, err := scanProject(tx.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ?`, projectID))
	if err != nil {
		return err
	}
	t, _ := s.tree(pr)
	var urls []string
	t.WalkLocaleURLs(func(_ *site.Page, _, u string) { // every locale's, in a localized plan
		if u != "" {
			urls = append(urls, u)
		}
	})
	list, err := json.Marshal(urls)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO launched_urls (project_id, url) SELECT CAST(? AS BIGINT), value FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`, projectID, string(list))
	return err
}

// moves reports whether the change deleted the page or gave it a state
// that can give it, or the pages below it, another URL (in a locale: a
// slug, a path, or whether it is offered there).
func (pd *pageDelta) moves() bool {
	a, b := pd.Before, pd.After
	return a != nil && (b == nil || a.Parent != b.Parent || a.Placement != b.Placement || a.Slug != b.Slug || a.Path != b.Path || a.Kind != b.Kind ||
		!maps.EqualFunc(a.Variants, b.Variants, func(x, y site.Variant) bool {
			return x.Slug == y.Slug && x.Path == y.Path && x.Offered() == y.Offered()
		}))
}

// movesBase reports whether the change gave the project a base URL,
// trailing-slash policy or locales that move every URL.
func (d *changeData) movesBase() bool {
	return d.Project != nil && (d.Project.Before.BaseURL != d.Project.After.BaseURL || d.Project.Before.TrailingSlash != d.Project.After.TrailingSlash ||
		!slices.Equal(d.Project.Before.Locales, d.Project.After.Locales))
}

// launchRedirects records, for a change of a launched plan, a redirect
// for every launched URL the change moved or deleted (d holds the pages
// as they were and are). A deleted page's launched URLs go where j.gone
// says; without a say the change is refused. Old URLs a page now has
// again are kept, no longer redirected. Errors: EInvalid.
func (j *journal) launchRedirects(d *changeData) error {
	moving := d.movesBase()
	for _, pd := range d.Pages {
		moving = moving || pd.moves()
	}
	if !moving {
		return nil
	}
	var launched bool
	if err := j.tx.QueryRowContext(j.ctx, `SELECT EXISTS (SELECT 1 FROM launched_urls WHERE project_id = ?)`, j.projectID).Scan(&launched); err != nil || !launched {
		return err
	}
	before, after, err := j.plansAround(d)
	if err != nil {
		return err
	}
	moved := movedURLs(before, after)
	if len(moved) == 0 {
		return nil
	}
	isLaunched, err := j.launchedAmong(moved)
	if err != nil {
		return err
	}
	if err := j.refuseLostURLs(moved, isLaunched, after); err != nil {
		return err
	}
	if err := j.redirectMoved(moved, isLaunched); err != nil {
		return err
	}
	if err := j.retold(moved, after); err != nil {
		return err
	}
	return j.keepReturned(before, after)
}

// plansAround is the plan after the change d, and before it: the same
// pages with the rows the change touched as they were.
func (j *journal) plansAround(d *changeData) (before, after *site.Tree, err error) {
	pr, err := scanProject(j.tx.QueryRowContext(j.ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ?`, j.projectID))
	if err != nil {
		return nil, nil, err
	}
	pages, err := j.movedPages(d, pr)
	if err != nil {
		return nil, nil, err
	}
	was := make(map[int64]*pageState, len(d.Pages))
	for i := range d.Pages {
		was[d.Pages[i].ID] = d.Pages[i].Before
	}
	prior := make([]site.Page, 0, len(pages))
	for i := range pages {
		if ps, ok := was[pages[i].ID]; !ok {
			prior = append(prior, pages[i])
		} else if ps != nil {
			prior = append(prior, ps.page(pages[i].ID, j.projectID))
		}
	}
	for _, pd := range d.Pages { // deleted by the change
		if pd.Before != nil && pd.After == nil {
			prior = append(prior, pd.Before.page(pd.ID, j.projectID))
		}
	}
	prPrior := pr
	if d.Project != nil {
		b := d.Project.Before
		prPrior.BaseURL, prPrior.TrailingSlash = b.BaseURL, b.TrailingSlash
		prPrior.Locales = nil
		for _, l := range b.Locales {
			prPrior.Locales = append(prPrior.Locales, site.Locale(l))
		}
	}
	return site.NewTree(prPrior, prior), site.NewTree(pr, pages), nil
}

// urlMove is a URL of the plan before a change that the change moved.
type urlMove struct {
	from string
	page int64 // where it is now; 0: deleted
	// unoffered: the page is still there, but no longer offered in the
	// URL's locale (tag): its URL waits for a person, not refused.
	unoffered bool
	tag       string
}

// movedURLs lists the URLs of before (in each locale, in a localized
// plan) that after moves or deletes.
func movedURLs(before, after *site.Tree) []urlMove {
	var moved []urlMove
	before.WalkLocaleURLs(func(p *site.Page, tag, u string) {
		if now := after.URLIn(p.ID, tag); u != "" && now != u {
			m := urlMove{from: u, tag: tag}
			if now != "" {
				m.page = p.ID
			} else if q := after.Page(p.ID); q != nil && tag != "" && !after.Offered(q, tag) {
				m.unoffered = true
			}
			moved = append(moved, m)
		}
	})
	return moved
}

// launchedAmong says which of the moved URLs the launched site had.
func (j *journal) launchedAmong(moved []urlMove) (map[string]bool, error) {
	from := make([]string, len(moved))
	for i, m := range moved {
		from[i] = m.from
	}
	list, _ := json.Marshal(from)
	rows, err := j.tx.QueryContext(j.ctx, `SELECT url FROM launched_urls WHERE project_id = ? AND url IN (SELECT value FROM json_each(?))`,
		j.projectID, string(list))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	isLaunched := map[string]bool{}
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			return nil, err
		}
		isLaunched[u] = true
	}
	return isLaunched, rows.Err()
}

// refuseLostURLs refuses a change that deletes launched URLs unless the
// change says where they go (j.gone), to a page that keeps a URL.
// It returns EInvalid.
func (j *journal) refuseLostURLs(moved []urlMove, isLaunched map[string]bool, after *site.Tree) error {
	lost := 0
	for _, m := range moved {
		if isLaunched[m.from] && m.page == 0 && !m.unoffered {
			lost++
		}
	}
	if lost > 0 && j.gone == nil {
		return site.Errorf(site.EInvalid, "This would delete %s of the launched site. Choose a page they redirect to, or retire them (410).",
			site.Counted(lost, "URL", "URLs"))
	}
	if lost > 0 && j.gone.Verb == site.DecideRedirect && after.URL(j.gone.PageID) == "" {
		return site.Errorf(site.EInvalid, "The page the deleted URLs redirect to must stay in the plan and have a URL.")
	}
	return nil
}

// redirectMoved records a redirect for each launched URL the change
// moved, and for each it deleted what j.gone says.
func (j *journal) redirectMoved(moved []urlMove, isLaunched map[string]bool) error {
	why := "moved after launch: " + j.summary
	for _, m := range moved {
		if !isLaunched[m.from] {
			continue
		}
		s := oldState{URL: m.from, Disp: site.DispositionRedirect, Page: m.page, Status: 301, Conf: 1, Reason: why, Accepted: true, Manual: true}
		switch {
		case m.unoffered:
			s.Disp, s.Status, s.Conf, s.Accepted, s.Manual = site.DispositionReview, 0, 0, false, false
			s.Reason = "not offered in " + m.tag + " after launch: " + j.summary + "; choose a page to redirect to, or retire it"
		case m.page == 0:
			switch j.gone.Verb {
			case site.DecideRedirect:
				s.Page, s.Status = j.gone.PageID, j.gone.Status
			case site.DecideRetire:
				s.Disp, s.Status, s.Reason = site.DispositionRetire, 410, "deleted after launch: "+j.summary
			default:
				s.Disp, s.Status, s.Conf, s.Accepted, s.Manual, s.Reason = site.DispositionReview, 0, 0, false, false, "deleted after launch: "+j.summary
			}
		}
		if err := j.setOldByURL(&s); err != nil {
			return err
		}
	}
	return nil
}

// retold gives the old URLs that redirect to a page whose URL the change
// moved (other than its launched URLs, which redirectMoved wrote) a
// reason that says where the page is now: the one they had named where
// it was.
func (j *journal) retold(moved []urlMove, after *site.Tree) error {
	from := map[string]bool{} // the moved URLs
	var ids []int64
	for _, m := range moved {
		if m.page != 0 {
			from[m.from] = true
			ids = append(ids, m.page)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	list, _ := json.Marshal(ids)
	olds, err := j.touchOldsWhere(`page_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) AND disposition = 'redirect'`, string(list))
	if err != nil {
		return err
	}
	for _, id := range olds {
		was := j.olds[id].Before
		if was == nil || from[was.URL] {
			continue // a launched URL itself: redirectMoved wrote it
		}
		s := *was
		p := after.Page(s.Page)
		if p == nil {
			continue
		}
		to, _ := after.TargetURL(s.Page, s.URL)
		s.Reason = "its page “" + p.Title + "” moved after launch to " + to + " (" + j.summary + ")"
		if err := putOld(j.ctx, j.tx, j.projectID, id, &s); err != nil {
			return err
		}
	}
	return nil
}

// keepReturned keeps a URL a page has again as that page's, not a
// redirect (a page moved back).
func (j *journal) keepReturned(before, after *site.Tree) error {
	var now []string
	nowPage := map[string]int64{}
	after.WalkLocaleURLs(func(p *site.Page, tag, u string) {
		if u != "" && before.URLIn(p.ID, tag) != u {
			now = append(now, u)
			nowPage[u] = p.ID
		}
	})
	list, _ := json.Marshal(now)
	ids, err := j.touchOldsWhere(`url IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return err
	}
	for _, id := range ids {
		s := *j.olds[id].Before
		if p := nowPage[s.URL]; p != 0 {
			s.Disp, s.Page, s.Status, s.Conf, s.Accepted, s.Reason = site.DispositionKeep, p, 0, 1, true, "a page of the plan has this URL again"
			if err := putOld(j.ctx, j.tx, j.projectID, id, &s); err != nil {
				return err
			}
		}
	}
	return nil
}

// movedPages loads the pages whose URLs the change d may have moved
// (the branches of the pages it moved, renamed or re-pathed) with the
// pages above them, then and now: enough to know their URLs before and
// after, without reading the whole plan; a new base URL moves every URL,
// and loads it all.
func (j *journal) movedPages(d *changeData, pr site.Project) ([]site.Page, error) {
	ctx, tx := j.ctx, j.tx
	if d.movesBase() {
		pages, err := queryPagesSized(ctx, tx, false, pr.PageCount, `SELECT `+pageCols+` FROM pages WHERE project_id = ?`, j.projectID)
		if err == nil && (len(pr.Locales) > 0 || len(d.Project.Before.Locales) > 0) {
			err = readVariants(ctx, tx, j.projectID, pages)
		}
		return pages, err
	}
	var roots, above []int64
	for _, pd := range d.Pages {
		if !pd.moves() {
			continue
		}
		roots = append(roots, pd.ID)
		above = append(above, pd.ID, pd.Before.Parent)
		if pd.After != nil {
			above = append(above, pd.After.Parent)
		}
	}
	if j.gone != nil && j.gone.PageID != 0 { // where deleted URLs go: its URL is checked
		above = append(above, j.gone.PageID)
	}
	r, _ := json.Marshal(roots)
	a, _ := json.Marshal(above)
	pages, err := queryPages(ctx, tx, false, `WITH RECURSIVE down(id) AS (SELECT CAST(value AS BIGINT) FROM json_each(?1) UNION SELECT c.id FROM pages c JOIN down ON c.parent_id = down.id),
			up(id) AS (SELECT CAST(value AS BIGINT) FROM json_each(?2) UNION SELECT p.parent_id FROM pages p JOIN up ON p.id = up.id WHERE p.parent_id IS NOT NULL)
		SELECT `+pageCols+` FROM pages WHERE (id IN (SELECT id FROM down) OR id IN (SELECT id FROM up)) AND project_id = ?3`,
		string(r), string(a), j.projectID)
	if err != nil || len(pr.Locales) == 0 {
		return pages, err
	}
	return pages, readPagesVariants(ctx, tx, pages)
}

// setOldByURL writes the old URL s names: the row with its URL, noted
// first, or a new one.
func (j *journal) setOldByURL(s *oldState) error {
	ids, err := j.touchOldsWhere(`url = ?`, s.URL)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		_, err := j.insertOld(s)
		return err
	}
	was := j.olds[ids[0]].Before
	s.Title, s.H1, s.Clicks = was.Title, was.H1, was.Clicks
	return putOld(j.ctx, j.tx, j.projectID, ids[0], s)
}

// retarget sends the old URLs that redirect into a branch about to be
// deleted (ids) where j.gone says, or back to review, so that no redirect
// points at a page that is gone.
func (j *journal) retarget(ids []int64, title string) error {
	list, _ := json.Marshal(ids)
	olds, err := j.touchOldsWhere(`page_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, string(list))
	if err != nil || len(olds) == 0 {
		return err
	}
	for _, id := range olds {
		s := *j.olds[id].Before
		switch {
		case j.gone != nil && j.gone.Verb == site.DecideRedirect:
			s.Disp, s.Page, s.Status, s.Conf, s.Accepted = site.DispositionRedirect, j.gone.PageID, j.gone.Status, 1, true
			s.Reason = "its page “" + title + "” was deleted; sent on"
		case j.gone != nil && j.gone.Verb == site.DecideRetire:
			s.Disp, s.Page, s.Status, s.Conf, s.Accepted = site.DispositionRetire, 0, 410, 1, true
			s.Reason = "its page “" + title + "” was deleted"
		default:
			s.Disp, s.Page, s.Status, s.Conf, s.Accepted, s.Manual = site.DispositionReview, 0, 0, 0, false, false
			s.Reason = "its page “" + title + "” was deleted"
		}
		if err := putOld(j.ctx, j.tx, j.projectID, id, &s); err != nil {
			return err
		}
	}
	return nil
}

// LaunchedCount is how many URLs of the branch at id (itself included)
// the launched site has: what deleting the branch would take from it.
// Errors: ENotFound (no such project).
func (db *Pages) LaunchedCount(ctx context.Context, projectID, id int64) (int, error) {
	pr, err := db.parts.Projects.Project(ctx, projectID)
	if err != nil {
		return 0, err
	}
	var n int
	if err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM launched_urls WHERE project_id = ?`, projectID).Scan(&n); err != nil || n == 0 {
		return 0, err
	}
	// The branch and the pages above it: enough to know its URLs.
	pages, err := queryPages(ctx, db.r, false, `WITH RECURSIVE down(id) AS (SELECT CAST(?1 AS BIGINT) UNION ALL SELECT c.id FROM pages c JOIN down ON c.parent_id = down.id),
			up(id) AS (SELECT parent_id FROM pages WHERE id = ?1 AND parent_id IS NOT NULL
				UNION SELECT p.parent_id FROM pages p JOIN up ON p.id = up.id WHERE p.parent_id IS NOT NULL)
		SELECT `+pageCols+` FROM pages WHERE (id IN (SELECT id FROM down) OR id IN (SELECT id FROM up)) AND project_id = ?2`, id, projectID)
	if err != nil {
		return 0, err
	}
	var urls []string
	site.NewTree(pr, pages).WalkURLs(id, func(_ *site.Page, u string) bool {
		if u != "" {
			urls = append(urls, u)
		}
		return true
	})
	list, _ := json.Marshal(urls)
	err = db.r.QueryRowContext(ctx, `SELECT count(*) FROM launched_urls WHERE project_id = ? AND url IN (SELECT value FROM json_each(?))`,
		projectID, string(list)).Scan(&n)
	return n, err
}
