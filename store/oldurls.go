package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"siteplan/site"
)

// The old site a relaunch replaces (site.OldURL): its URLs and where each
// goes. Rows are part of the plan: a change notes them before and after
// (oldDelta, like a page's), so that a review's decisions are in the
// history, undone and redone, and kept by versions. Attaching an old site
// or its clicks is recorded in the history but not undoable: it may be
// 200,000 rows, and attaching again is the way back.

// likeEscaper makes a text match itself in a LIKE pattern with ESCAPE '\'.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// oldState is an old URL's row as the history keeps it.
type oldState struct {
	URL      string  `json:"url"`
	Title    string  `json:"title,omitempty"`
	H1       string  `json:"h1,omitempty"`
	Clicks   int     `json:"clicks,omitempty"`
	Disp     string  `json:"disp"`
	Page     int64   `json:"page,omitempty"`
	Status   int     `json:"status,omitempty"`
	Conf     float64 `json:"conf,omitempty"`
	Reason   string  `json:"reason,omitempty"`
	Accepted bool    `json:"accepted,omitempty"`
	Manual   bool    `json:"manual,omitempty"`
}

// oldDelta is one old URL a change touched; nil: it was not there.
type oldDelta struct {
	ID     int64     `json:"id"`
	Before *oldState `json:"before,omitempty"`
	After  *oldState `json:"after,omitempty"`
}

const oldCols = `id, url, title, h1, clicks, disposition, coalesce(page_id, 0), status, confidence, reason, accepted, manual`

func scanOld(row interface{ Scan(...any) error }) (int64, oldState, error) {
	var id int64
	var s oldState
	err := row.Scan(&id, &s.URL, &s.Title, &s.H1, &s.Clicks, &s.Disp, &s.Page, &s.Status, &s.Conf, &s.Reason, &s.Accepted, &s.Manual)
	return id, s, err
}

func (s *oldState) oldURL(id int64) site.OldURL {
	return site.OldURL{ID: id, OldPage: site.OldPage{URL: s.URL, Title: s.Title, H1: s.H1, Clicks: s.Clicks},
		Mapping: site.Mapping{From: s.URL, Disposition: s.Disp, PageID: s.Page, Status: s.Status, Confidence: s.Conf,
			Reason: s.Reason, Accepted: s.Accepted}, Manual: s.Manual}
}

// stateOfMapping is an old URL's row: what is known of it, where it goes.
func stateOfMapping(o site.OldPage, m site.Mapping, manual bool) oldState {
	s := oldState{URL: o.URL, Title: o.Title, H1: o.H1, Clicks: o.Clicks, Disp: m.Disposition, Page: m.PageID, Status: m.Status,
		Conf: m.Confidence, Reason: m.Reason, Accepted: m.Accepted, Manual: manual}
	if s.Disp == "" {
		s.Disp = site.DispositionReview
	}
	if s.Disp == site.DispositionRetire {
		s.Page, s.Status = 0, 410
	}
	return s
}

// loadOlds reads the old URLs in ids as they are now; one that is not
// there is missing from the map.
func loadOlds(ctx context.Context, q querier, projectID int64, ids []int64) (map[int64]*oldState, error) {
	out := make(map[int64]*oldState, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT `+oldCols+` FROM old_urls WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?)) AND +project_id = ?`,
		string(list), projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		id, s, err := scanOld(rows)
		if err != nil {
			return nil, err
		}
		out[id] = &s
	}
	return out, rows.Err()
}

// touchOlds notes the old URLs in ids as they are before the change.
func (j *journal) touchOlds(ids []int64) error {
	var fresh []int64
	for _, id := range ids {
		if _, ok := j.olds[id]; !ok {
			fresh = append(fresh, id)
		}
	}
	now, err := loadOlds(j.ctx, j.tx, j.projectID, fresh)
	if err != nil {
		return err
	}
	for _, id := range fresh {
		j.olds[id] = &oldDelta{ID: id, Before: now[id]}
		j.oldOrder = append(j.oldOrder, id)
	}
	return nil
}

// touchOldsWhere notes the project's old URLs a condition on old_urls
// selects, read in one query, and returns their ids.
func (j *journal) touchOldsWhere(cond string, args ...any) ([]int64, error) {
	rows, err := j.tx.QueryContext(j.ctx, `SELECT `+oldCols+` FROM old_urls WHERE project_id = ? AND (`+cond+`)`,
		append([]any{j.projectID}, args...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		id, s, err := scanOld(rows)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
		if _, ok := j.olds[id]; !ok {
			j.olds[id] = &oldDelta{ID: id, Before: &s}
			j.oldOrder = append(j.oldOrder, id)
		}
	}
	return ids, rows.Err()
}

// oldDeltas are the old URLs the change touched, as they are after it.
func (j *journal) oldDeltas() ([]oldDelta, error) {
	after, err := loadOlds(j.ctx, j.tx, j.projectID, j.oldOrder)
	if err != nil {
		return nil, err
	}
	var out []oldDelta
	for _, id := range j.oldOrder {
		od := j.olds[id]
		od.After = after[id]
		if od.Before == nil && od.After == nil || od.Before != nil && od.After != nil && *od.Before == *od.After {
			continue
		}
		out = append(out, *od)
	}
	return out, nil
}

// putOld writes an old URL's row: inserted under its id when it is not
// there, else updated; nil deletes it.
func putOld(ctx context.Context, tx *sql.Tx, projectID, id int64, s *oldState) error {
	if s == nil {
		_, err := tx.ExecContext(ctx, `DELETE FROM old_urls WHERE id = ? AND project_id = ?`, id, projectID)
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO old_urls (id, project_id, url, section, title, h1, clicks, disposition, page_id, status,
			confidence, reason, accepted, manual) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET url = excluded.url, section = excluded.section, title = excluded.title, h1 = excluded.h1,
			clicks = excluded.clicks, disposition = excluded.disposition, page_id = excluded.page_id, status = excluded.status,
			confidence = excluded.confidence, reason = excluded.reason, accepted = excluded.accepted, manual = excluded.manual`,
		id, projectID, s.URL, site.OldSection(s.URL), s.Title, s.H1, s.Clicks, s.Disp, nullID(s.Page), s.Status, s.Conf, s.Reason,
		s.Accepted, s.Manual)
	return err
}

// insertOld adds an old URL and notes it in the journal.
func (j *journal) insertOld(s *oldState) (int64, error) {
	var id int64
	err := j.tx.QueryRowContext(j.ctx, `INSERT INTO old_urls (project_id, url, section, title, h1, clicks, disposition, page_id, status,
			confidence, reason, accepted, manual) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		j.projectID, s.URL, site.OldSection(s.URL), s.Title, s.H1, s.Clicks, s.Disp, nullID(s.Page), s.Status, s.Conf, s.Reason,
		s.Accepted, s.Manual).Scan(&id)
	if err == nil {
		j.olds[id] = &oldDelta{ID: id}
		j.oldOrder = append(j.oldOrder, id)
	}
	return id, err
}

// AttachOldSite gives the project its old site's URLs, with the mapping
// proposed for each (proposed[i] for olds[i], as sitemap.Match gives
// them). Attaching again merges: new URLs are added, URLs the old site
// no longer has are removed, and the others take the new title, H1 and
// proposal, but those a person decided keep their mapping. Clicks are
// kept where olds has none. The change is in the history, not undoable.
// Errors: EInvalid (no URL, more than site.MaxOldURLs, a proposal for
// another URL), ENotFound.
func (db *Redirects) AttachOldSite(ctx context.Context, projectID int64, olds []site.OldPage, proposed []site.Mapping) (site.AttachReport, error) {
	var rep site.AttachReport
	olds, proposed, err := oldSiteOf(olds, proposed)
	if err != nil {
		return rep, err
	}
	err = db.change(ctx, func(j *journal) error {
		if err := j.inProject(projectID); err != nil {
			return err
		}
		if err := checkProject(j.ctx, j.tx, projectID); err != nil {
			return err
		}
		have, err := heldOldURLs(j.ctx, j.tx, projectID)
		if err != nil {
			return err
		}
		if err := mergeOldURLs(j.ctx, j.tx, projectID, have, olds, proposed, &rep); err != nil {
			return err
		}
		if err := removeUnseenOldURLs(j.ctx, j.tx, projectID, have, &rep); err != nil {
			return err
		}
		j.verb, j.undoable, j.always = "attach", false, true
		j.summary = "attached the old site: " + site.Counted(rep.Added+rep.Kept, "URL", "URLs") + " (" + strconv.Itoa(rep.Added) + " new, " +
			strconv.Itoa(rep.Removed) + " gone)"
		return nil
	})
	return rep, err
}

// oldSiteOf checks an old site to attach and gives every old URL as a
// plan keeps it (site.OldURLOf), its proposal with it; the caller's
// lists are not changed. Errors: EInvalid.
func oldSiteOf(olds []site.OldPage, proposed []site.Mapping) ([]site.OldPage, []site.Mapping, error) {
	if len(proposed) != len(olds) {
		return nil, nil, site.Errorf(site.EInvalid, "Every old URL needs its proposal.")
	}
	if len(olds) == 0 { // attaching nothing would remove the whole map
		return nil, nil, site.Errorf(site.EInvalid, "The old site lists no URL; nothing was attached.")
	}
	if len(olds) > site.MaxOldURLs {
		return nil, nil, site.Errorf(site.EInvalid, "The old site has %d URLs; a plan holds at most %d. Attach the sections that matter, or split the old site.", len(olds), site.MaxOldURLs)
	}
	cloned := false // copied only when a URL changes: at 200,000 URLs a copy is 30 MB
	for i := range olds {
		u, err := site.OldURLOf(olds[i].URL)
		if err != nil {
			return nil, nil, err
		}
		if u == olds[i].URL {
			continue
		}
		if !cloned {
			olds, proposed, cloned = slices.Clone(olds), slices.Clone(proposed), true
		}
		if proposed[i].From == olds[i].URL {
			proposed[i].From = u
		}
		olds[i].URL = u
	}
	return olds, proposed, nil
}

// heldOld is an old URL a plan holds, while an attach merges into it.
type heldOld struct {
	id   int64
	was  oldState
	seen bool // the old site attached lists it
}

// heldOldURLs reads the old URLs a plan holds, by URL.
func heldOldURLs(ctx context.Context, tx *sql.Tx, projectID int64) (map[string]*heldOld, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+oldCols+` FROM old_urls WHERE project_id = ?`, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	have := map[string]*heldOld{}
	for rows.Next() {
		var h heldOld
		if h.id, h.was, err = scanOld(rows); err != nil {
			return nil, err
		}
		have[h.was.URL] = &h
	}
	return have, rows.Err()
}

// mergeOldURLs writes each old URL attached over what the plan holds:
// new ones added, the others given the new title, H1 and proposal, but
// those a person decided keep their mapping. It marks in have the URLs
// it met. Errors: EInvalid (a proposal for another URL).
func mergeOldURLs(ctx context.Context, tx *sql.Tx, projectID int64, have map[string]*heldOld, olds []site.OldPage, proposed []site.Mapping, rep *site.AttachReport) error {
	keepDecided, err := tx.PrepareContext(ctx, `UPDATE old_urls SET title = ?, h1 = ?, clicks = ? WHERE id = ?`)
	if err != nil {
		return err
	}
	defer keepDecided.Close()
	upsert, err := tx.PrepareContext(ctx, `INSERT INTO old_urls (project_id, url, section, title, h1, clicks, disposition, page_id,
			status, confidence, reason, accepted) VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT id FROM pages WHERE id = ? AND project_id = ?1), ?, ?, ?, ?)
		ON CONFLICT (project_id, url) DO UPDATE SET title = excluded.title, h1 = excluded.h1, clicks = excluded.clicks,
			disposition = excluded.disposition, page_id = excluded.page_id, status = excluded.status, confidence = excluded.confidence,
			reason = excluded.reason, accepted = excluded.accepted, manual = 0`)
	if err != nil {
		return err
	}
	defer upsert.Close()
	for i, o := range olds {
		if proposed[i].From != o.URL {
			return site.Errorf(site.EInvalid, "The proposal for %s is for %s.", o.URL, proposed[i].From)
		}
		h := have[o.URL]
		if h != nil && h.seen {
			continue // listed twice
		}
		clicks := o.Clicks
		if h != nil {
			h.seen = true
			if clicks == 0 {
				clicks = h.was.Clicks
			}
			rep.Kept++
			if h.was.Manual {
				rep.KeptDecided++
				if h.was.Title != o.Title || h.was.H1 != o.H1 || h.was.Clicks != clicks {
					if _, err := keepDecided.ExecContext(ctx, o.Title, o.H1, clicks, h.id); err != nil {
						return err
					}
				}
				continue
			}
		} else {
			rep.Added++
			have[o.URL] = &heldOld{seen: true}
		}
		s := stateOfMapping(o, proposed[i], false)
		s.Clicks = clicks
		if s.Accepted {
			rep.Accepted++
		}
		if h != nil && h.was == s { // the same as before: nothing to write
			continue
		}
		if _, err := upsert.ExecContext(ctx, projectID, s.URL, site.OldSection(s.URL), s.Title, s.H1, clicks, s.Disp, nullID(s.Page),
			s.Status, s.Conf, s.Reason, s.Accepted); err != nil {
			return err
		}
	}
	return nil
}

// removeUnseenOldURLs removes the old URLs the old site attached no
// longer lists, and sends a mapping to a page of the plan that is not
// one (gone since the match was read) back to a person.
func removeUnseenOldURLs(ctx context.Context, tx *sql.Tx, projectID int64, have map[string]*heldOld, rep *site.AttachReport) error {
	var gone []int64
	for _, h := range have {
		if !h.seen {
			gone = append(gone, h.id)
		}
	}
	rep.Removed = len(gone)
	if len(gone) > 0 {
		list, _ := json.Marshal(gone)
		if _, err := tx.ExecContext(ctx, `DELETE FROM old_urls WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, string(list)); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, `UPDATE old_urls SET disposition = 'review', accepted = 0, confidence = 0,
		reason = 'its page was deleted while the old site was matched'
		WHERE project_id = ? AND disposition IN ('redirect', 'keep') AND page_id IS NULL`, projectID)
	return err
}

// checkProject refuses a project that is not there (or still importing).
func checkProject(ctx context.Context, q querier, projectID int64) error {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM projects WHERE id = ? AND importing = 0`, projectID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return site.Errorf(site.ENotFound, "Project %d does not exist.", projectID)
	}
	return nil
}

// SetClicks attaches traffic to the project's old URLs: clicks by URL,
// matched exactly, else without the scheme and a trailing slash. It
// returns how many old URLs got clicks and the URLs of clicks that
// matched none (up to 10, and how many). Recorded in the history, not
// undoable. A file that matches no old URL changes nothing. Errors:
// ENotFound; EInvalid for clicks that match no old URL, or none.
func (db *Redirects) SetClicks(ctx context.Context, projectID int64, clicks map[string]int) (matched int, unknown []string, unknownCount int, err error) {
	err = db.change(ctx, func(j *journal) error {
		ctx, tx := j.ctx, j.tx
		if err := j.inProject(projectID); err != nil {
			return err
		}
		if err := checkProject(ctx, tx, projectID); err != nil {
			return err
		}
		exact, err := oldIDs(ctx, tx, projectID)
		if err != nil {
			return err
		}
		byLoose := make(map[string]int64, len(exact))
		for u, id := range exact {
			byLoose[looseURL(u)] = id
		}
		if _, err := tx.ExecContext(ctx, `UPDATE old_urls SET clicks = 0 WHERE project_id = ?`, projectID); err != nil {
			return err
		}
		set, err := tx.PrepareContext(ctx, `UPDATE old_urls SET clicks = clicks + ? WHERE id = ?`)
		if err != nil {
			return err
		}
		defer set.Close()
		got := map[int64]bool{}
		for _, u := range slices.Sorted(maps.Keys(clicks)) { // in URL order: the examples of URLs not found are the same each time
			n := clicks[u]
			id, ok := exact[u]
			if !ok {
				id, ok = byLoose[looseURL(u)]
			}
			if !ok {
				unknownCount++
				if len(unknown) < 10 {
					unknown = append(unknown, u)
				}
				continue
			}
			got[id] = true
			if _, err := set.ExecContext(ctx, n, id); err != nil {
				return err
			}
		}
		matched = len(got)
		switch { // a file that matches nothing changes nothing: the clicks there were stay
		case len(clicks) == 0:
			return site.Errorf(site.EInvalid, "The file lists no page with clicks; nothing was changed.")
		case matched == 0:
			return site.Errorf(site.EInvalid, "None of the file's %s is an old URL of this plan (such as %s): is it this site's export? Nothing was changed.",
				site.Counted(len(clicks), "page", "pages"), site.Clip(unknown[0], 120))
		}
		j.verb, j.undoable, j.always = "traffic", false, true
		j.summary = "attached the clicks of " + site.Counted(matched, "old URL", "old URLs")
		return nil
	})
	return matched, unknown, unknownCount, err
}

// oldIDs maps the project's old URLs to their ids.
func oldIDs(ctx context.Context, q querier, projectID int64) (map[string]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, url FROM old_urls WHERE project_id = ?`, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var id int64
		var u string
		if err := rows.Scan(&id, &u); err != nil {
			return nil, err
		}
		out[u] = id
	}
	return out, rows.Err()
}

// looseURL is a URL without its scheme and trailing slash, host in lower
// case: how analytics exports and crawls may differ on one page.
func looseURL(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	host, rest, _ := strings.Cut(u, "/")
	return strings.ToLower(host) + "/" + strings.TrimSuffix(rest, "/")
}

// oldWhere is the SQL condition of a filter, and its arguments.
func oldWhere(f *site.OldFilter) (string, []any) {
	var cond []string
	var args []any
	switch f.Show {
	case site.ShowAwaiting:
		cond = append(cond, "accepted = 0")
	case site.ShowLow:
		cond = append(cond, "accepted = 0 AND (disposition != 'review' OR page_id IS NOT NULL)")
	case site.ShowUnmatched:
		cond = append(cond, "accepted = 0 AND disposition = 'review' AND page_id IS NULL")
	case site.ShowRetired:
		cond = append(cond, "disposition = 'retire'")
	case site.ShowAccepted: // counted apart from the retired, as the figures are
		cond = append(cond, "accepted = 1 AND disposition != 'retire'")
	}
	if f.Section != "" {
		cond = append(cond, "section = ?")
		args = append(args, f.Section)
	}
	if f.MinClicks > 0 {
		cond = append(cond, "clicks >= ?")
		args = append(args, f.MinClicks)
	}
	if f.Search != "" {
		cond = append(cond, `lower(url) LIKE ? ESCAPE '\'`)
		args = append(args, "%"+likeEscaper.Replace(strings.ToLower(f.Search))+"%")
	}
	if len(cond) == 0 {
		return "true", nil
	}
	return strings.Join(cond, " AND "), args
}

// OldURLs lists the project's old URLs f selects, most clicks first, a
// page of them (f.Offset, f.Limit), and how many f selects in all.
// Errors: EInvalid (the filter), ENotFound.
func (db *Redirects) OldURLs(ctx context.Context, projectID int64, f site.OldFilter) ([]site.OldURL, int, error) {
	return db.oldURLs(ctx, projectID, f, nil)
}

// RedirectView is what the Redirects view shows: the figures and a page
// of the old URLs f selects, with how many it selects, the figures read
// once. Errors: EInvalid (the filter), ENotFound.
func (db *Redirects) RedirectView(ctx context.Context, projectID int64, f site.OldFilter) (site.RedirectStatus, []site.OldURL, int, error) {
	st, err := db.RedirectStatus(ctx, projectID)
	if err != nil {
		return st, nil, 0, err
	}
	list, total, err := db.oldURLs(ctx, projectID, f, &st)
	return st, list, total, err
}

// oldURLs is OldURLs, counting by the figures st when it can (nil: read
// them when needed).
func (db *conn) oldURLs(ctx context.Context, projectID int64, f site.OldFilter, st *site.RedirectStatus) ([]site.OldURL, int, error) {
	if err := f.Validate(); err != nil {
		return nil, 0, err
	}
	if st == nil {
		if err := checkProject(ctx, db.r, projectID); err != nil {
			return nil, 0, err
		}
	}
	cond, args := oldWhere(&f)
	args = append([]any{projectID}, args...)
	total, err := db.oldCount(ctx, projectID, f, cond, args, st)
	if err != nil {
		return nil, 0, err
	}
	limit, size := math.MaxInt64, total // no limit: every row
	if f.Limit > 0 {
		limit, size = f.Limit, min(total, f.Limit)
	}
	list, err := collectSized(ctx, db.r, size, func(rows *sql.Rows) (site.OldURL, error) {
		id, s, err := scanOld(rows)
		return s.oldURL(id), err
	}, `SELECT `+oldCols+` FROM old_urls WHERE project_id = ? AND `+cond+` ORDER BY clicks DESC, url LIMIT ? OFFSET ?`,
		append(args, limit, f.Offset)...)
	return list, total, err
}

// oldCount is how many old URLs f selects: from the figures (st, or
// read) when it selects by review state alone, else counted.
func (db *conn) oldCount(ctx context.Context, projectID int64, f site.OldFilter, cond string, args []any, known *site.RedirectStatus) (int, error) {
	if f.Section == "" && f.MinClicks == 0 && f.Search == "" && f.Show != site.ShowRetired {
		var st site.RedirectStatus
		var err error
		if known != nil {
			st = *known
		} else {
			st, err = db.parts.Redirects.RedirectStatus(ctx, projectID)
		}
		switch f.Show {
		case site.ShowAll:
			return st.OldURLs, err
		case site.ShowAwaiting:
			return st.Awaiting, err
		case site.ShowLow:
			return st.Awaiting - st.Unmatched, err
		case site.ShowUnmatched:
			return st.Unmatched, err
		case site.ShowAccepted:
			return st.Accepted, err
		}
	}
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM old_urls WHERE project_id = ? AND `+cond, args...).Scan(&n)
	return n, err
}

// Proposals is how many of the old URLs f selects (every page of it) an
// accept would change: not accepted yet, with a proposal (a page, a kept
// URL, or retiring). Errors: EInvalid (the filter), ENotFound.
func (db *Redirects) Proposals(ctx context.Context, projectID int64, f site.OldFilter) (int, error) {
	if err := f.Validate(); err != nil {
		return 0, err
	}
	cond, args := oldWhere(&f)
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM old_urls WHERE project_id = ? AND `+cond+
		` AND accepted = 0 AND (disposition != 'review' OR page_id IS NOT NULL)`, append([]any{projectID}, args...)...).Scan(&n)
	return n, err
}

// OldSections lists the sections of the project's old site (first path
// segments), with how many old URLs each holds, largest first.
// Errors: none of its own; a database error as it is.
func (db *Redirects) OldSections(ctx context.Context, projectID int64) ([]site.Count, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.Count, error) {
		var c site.Count
		return c, rows.Scan(&c.Name, &c.N)
	}, `SELECT section, count(*) FROM old_urls WHERE project_id = ? GROUP BY section ORDER BY count(*) DESC, section`, projectID)
}

// RedirectStatus sums up the project's old URLs. Errors: ENotFound.
func (db *Redirects) RedirectStatus(ctx context.Context, projectID int64) (site.RedirectStatus, error) {
	var s site.RedirectStatus
	if err := checkProject(ctx, db.r, projectID); err != nil {
		return s, err
	}
	err := db.r.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(CASE WHEN accepted = 1 AND disposition != 'retire' THEN 1 ELSE 0 END), 0), coalesce(sum(1 - accepted), 0),
			coalesce(sum(CASE WHEN accepted = 0 AND disposition = 'review' AND page_id IS NULL THEN 1 ELSE 0 END), 0),
			coalesce(sum(CASE WHEN accepted = 1 AND disposition = 'retire' THEN 1 ELSE 0 END), 0), coalesce(sum(clicks), 0),
			coalesce(sum(CASE WHEN accepted = 1 AND disposition IN ('redirect', 'keep') THEN 0 ELSE clicks END), 0)
		FROM old_urls WHERE project_id = ?`, projectID).
		Scan(&s.OldURLs, &s.Accepted, &s.Awaiting, &s.Unmatched, &s.Retired, &s.Clicks, &s.ClicksAtRisk)
	return s, err
}

// Landings counts the old URLs an accepted redirect sends to each page.
// Errors: none of its own; a database error as it is.
func (db *Redirects) Landings(ctx context.Context, projectID int64) (map[int64]int, error) {
	out := map[int64]int{}
	rows, err := db.r.QueryContext(ctx, `SELECT page_id, count(*) FROM old_urls WHERE project_id = ? AND page_id IS NOT NULL
		AND accepted = 1 AND disposition = 'redirect' GROUP BY page_id`, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}

// Decide applies a person's decision to old URLs: those in ids, or when
// ids is nil every one filter selects (a bulk decision). Accepting takes
// what was proposed and skips the URLs with no proposal; a redirect goes
// to a page of the plan that has a URL. It is one change, undoable, and
// returns how many old URLs it changed. Errors: EInvalid, ENotFound.
func (db *Redirects) Decide(ctx context.Context, projectID int64, ids []int64, filter *site.OldFilter, d site.Decision) (int, error) {
	if err := d.Validate(); err != nil {
		return 0, err
	}
	if ids == nil && filter == nil {
		return 0, site.Errorf(site.EInvalid, "Choose the old URLs to decide.")
	}
	var n int
	err := db.change(ctx, func(j *journal) error {
		ctx, tx := j.ctx, j.tx
		if err := j.inProject(projectID); err != nil {
			return err
		}
		if err := checkProject(ctx, tx, projectID); err != nil {
			return err
		}
		var cond string
		var args []any
		if ids != nil {
			list, _ := json.Marshal(ids)
			cond, args = "id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))", []any{string(list)}
		} else {
			if err := filter.Validate(); err != nil {
				return err
			}
			cond, args = oldWhere(filter)
		}
		var target string
		switch d.Verb {
		case site.DecideAccept:
			cond += " AND accepted = 0 AND (disposition = 'retire' OR page_id IS NOT NULL)"
		case site.DecideRedirect:
			var kind string
			err := tx.QueryRowContext(ctx, `SELECT title, kind FROM pages WHERE id = ? AND project_id = ?`, d.PageID, projectID).Scan(&target, &kind)
			if err != nil {
				return notFound(err, "Page %d is not a page of this plan.", d.PageID)
			}
			if kind != site.KindPage {
				return site.Errorf(site.EInvalid, "“%s” has no URL of its own (it is a %s); choose a page to redirect to.", target, kind)
			}
		}
		touched, err := j.touchOldsWhere(cond, args...)
		if err != nil {
			return err
		}
		if ids != nil && len(touched) < len(ids) && d.Verb != site.DecideAccept {
			return site.Errorf(site.ENotFound, "Some of these old URLs are gone; reload the list.")
		}
		n = len(touched)
		list, _ := json.Marshal(touched)
		who := authorName(site.ViewerFrom(ctx))
		var q string
		var qargs []any
		switch d.Verb {
		case site.DecideAccept:
			q, qargs = `UPDATE old_urls SET accepted = 1, manual = 1`, nil
		case site.DecideRedirect:
			q, qargs = `UPDATE old_urls SET disposition = 'redirect', page_id = ?, status = ?, confidence = 1, reason = ?, accepted = 1, manual = 1`,
				[]any{d.PageID, d.Status, "chosen by " + who}
		case site.DecideRetire:
			q, qargs = `UPDATE old_urls SET disposition = 'retire', page_id = NULL, status = 410, confidence = 1, reason = ?, accepted = 1, manual = 1`,
				[]any{"retired by " + who}
		case site.DecideReopen:
			q, qargs = `UPDATE old_urls SET accepted = 0, manual = 0`, nil
		}
		if _, err := tx.ExecContext(ctx, q+` WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, append(qargs, string(list))...); err != nil {
			return err
		}
		j.verb = "redirects"
		j.summary = decideWords(d, n, target, j)
		return nil
	})
	return n, err
}

// decideWords says what a decision did: "accepted 1,234 redirects",
// "redirected /old-page to “Pricing”".
func decideWords(d site.Decision, n int, target string, j *journal) string {
	what := site.Counted(n, "old URL", "old URLs")
	if n == 1 && len(j.oldOrder) == 1 && j.olds[j.oldOrder[0]].Before != nil {
		what = j.olds[j.oldOrder[0]].Before.URL
	}
	switch d.Verb {
	case site.DecideAccept:
		if n == 1 {
			return "accepted the mapping of " + what
		}
		return "accepted the mappings of " + what
	case site.DecideRedirect:
		return "redirected " + what + " to “" + target + "”"
	case site.DecideRetire:
		return "retired " + what + " (410)"
	}
	return "reopened " + what + " for review"
}

// SetMappings sets the mappings of old URLs as a person gives them (a
// map edited in a spreadsheet): each Mapping's From is an old URL, added
// if the project does not hold it, and its PageID a page of the plan (0
// for a retirement or one left for review). It is one change, undoable,
// and returns how many old URLs it added and changed. Errors: EInvalid,
// ENotFound.
func (db *Redirects) SetMappings(ctx context.Context, projectID int64, maps []site.Mapping) (added, changed int, err error) {
	maps = slices.Clone(maps)
	for i := range maps {
		if maps[i].From, err = site.OldURLOf(maps[i].From); err != nil {
			return 0, 0, err
		}
	}
	err = db.change(ctx, func(j *journal) error {
		ctx, tx := j.ctx, j.tx
		if err := j.inProject(projectID); err != nil {
			return err
		}
		if err := checkProject(ctx, tx, projectID); err != nil {
			return err
		}
		ids, err := oldIDs(ctx, tx, projectID)
		if err != nil {
			return err
		}
		var held []int64
		for _, m := range maps {
			if id, ok := ids[m.From]; ok {
				held = append(held, id)
			}
		}
		if err := j.touchOlds(held); err != nil {
			return err
		}
		for _, m := range maps {
			if m.PageID != 0 {
				var n int
				if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pages WHERE id = ? AND project_id = ?`, m.PageID, projectID).Scan(&n); err != nil {
					return err
				}
				if n == 0 {
					return site.Errorf(site.EInvalid, "%s goes to page %d, which is not a page of this plan.", m.From, m.PageID)
				}
			}
			id, ok := ids[m.From]
			if !ok {
				s := stateOfMapping(site.OldPage{URL: m.From}, m, true)
				if _, err := j.insertOld(&s); err != nil {
					return err
				}
				added++
				continue
			}
			was := j.olds[id].Before
			s := stateOfMapping(site.OldPage{URL: m.From, Title: was.Title, H1: was.H1, Clicks: was.Clicks}, m, true)
			if !sameMapping(&s, was) {
				changed++
				if err := putOld(ctx, tx, projectID, id, &s); err != nil {
					return err
				}
			}
		}
		j.verb = "redirects"
		j.summary = "imported a redirect map: " + site.Counted(added, "old URL", "old URLs") + " added, " + strconv.Itoa(changed) + " changed"
		return nil
	})
	return added, changed, err
}

// sameMapping reports whether two rows send their old URL to the same
// place the same way (a redirect's status 0 is a 301).
func sameMapping(a, b *oldState) bool {
	status := func(s *oldState) int {
		if s.Disp == site.DispositionRedirect && s.Status == 0 {
			return 301
		}
		return s.Status
	}
	return a.Disp == b.Disp && a.Page == b.Page && status(a) == status(b) && a.Accepted == b.Accepted
}

// applyOlds takes the old URLs of d to one side; what each must be now
// was checked by checkOlds.
func (a *applier) applyOlds(d *changeData, forward bool) error {
	// Deletions first, so that a URL leaving one row is free for another.
	for pass := 0; pass < 2; pass++ {
		for _, od := range d.Olds {
			t := od.After
			if !forward {
				t = od.Before
			}
			if (t == nil) != (pass == 0) {
				continue
			}
			if err := putOld(a.ctx, a.tx, a.projectID, od.ID, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkOlds finds the first old URL not as the apply expects it.
func (a *applier) checkOlds(d *changeData, forward bool) error {
	ids := make([]int64, len(d.Olds))
	for i, od := range d.Olds {
		ids[i] = od.ID
	}
	cur, err := loadOlds(a.ctx, a.tx, a.projectID, ids)
	if err != nil {
		return err
	}
	for _, od := range d.Olds {
		e := od.Before
		if !forward {
			e = od.After
		}
		c := cur[od.ID]
		if (c == nil) != (e == nil) || c != nil && *c != *e {
			u := ""
			if e != nil {
				u = e.URL
			} else if c != nil {
				u = c.URL
			}
			return site.Errorf(site.EConflict, "%sthe redirect of %s has changed since.", a.failed, u)
		}
	}
	return nil
}

// snapshotOlds reads the project's old URLs for a version.
func snapshotOlds(ctx context.Context, q querier, projectID int64) ([]oldSnap, error) {
	return collect(ctx, q, func(rows *sql.Rows) (oldSnap, error) {
		id, s, err := scanOld(rows)
		return oldSnap{id, s}, err
	}, `SELECT `+oldCols+` FROM old_urls WHERE project_id = ? ORDER BY id`, projectID)
}

type oldSnap struct {
	ID int64 `json:"id"`
	oldState
}

// oldTransition adds to d what takes the old URLs from one snapshot's to
// another's.
func oldTransition(d *changeData, from, to []oldSnap) {
	b := make(map[int64]*oldState, len(to))
	for i := range to {
		b[to[i].ID] = &to[i].oldState
	}
	a := make(map[int64]bool, len(from))
	for i := range from {
		x := &from[i]
		a[x.ID] = true
		if y := b[x.ID]; y == nil || *y != x.oldState {
			d.Olds = append(d.Olds, oldDelta{ID: x.ID, Before: &x.oldState, After: y})
		}
	}
	for i := range to {
		if !a[to[i].ID] {
			d.Olds = append(d.Olds, oldDelta{ID: to[i].ID, After: &to[i].oldState})
		}
	}
}

// OldURL returns one old URL of the project. Errors: ENotFound.
func (db *Redirects) OldURL(ctx context.Context, projectID, id int64) (site.OldURL, error) {
	oid, s, err := scanOld(db.r.QueryRowContext(ctx, `SELECT `+oldCols+` FROM old_urls WHERE id = ? AND project_id = ?`, id, projectID))
	if err != nil {
		return site.OldURL{}, notFound(err, "This old URL is not in the plan any more; reload the list.")
	}
	return s.oldURL(oid), nil
}

// TreeOf loads the pages in ids with their ancestors, enough to know
// each one's URL (site.Tree.URL), without reading the whole plan.
// Errors: ENotFound.
func (db *Redirects) TreeOf(ctx context.Context, projectID int64, ids []int64) (*site.Tree, error) {
	pr, err := db.parts.Projects.Project(ctx, projectID)
	if err != nil {
		return nil, err
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	// +project_id: the pages are found by their ids, the plan only
	// checked; SQLite's planner would otherwise read the whole plan by
	// its index.
	pages, err := queryPages(ctx, db.r, false, `WITH RECURSIVE up(id) AS (
			SELECT CAST(value AS BIGINT) FROM json_each(?)
			UNION SELECT p.parent_id FROM pages p JOIN up ON p.id = up.id WHERE p.parent_id IS NOT NULL)
		SELECT `+pageCols+` FROM pages WHERE id IN (SELECT id FROM up) AND +project_id = ?`, string(list), projectID)
	if err != nil {
		return nil, err
	}
	return site.NewTree(pr, pages), nil
}

// VersionOldURLs returns the old URLs version number of the project kept,
// with their mappings. Errors: ENotFound.
func (db *Redirects) VersionOldURLs(ctx context.Context, projectID int64, number int) ([]site.OldURL, error) {
	var blob []byte
	if err := db.r.QueryRowContext(ctx, `SELECT snapshot FROM versions WHERE project_id = ? AND number = ?`, projectID, number).Scan(&blob); err != nil {
		return nil, notFound(err, "This plan has no version %d.", number)
	}
	s, err := decodeSnapshot(blob)
	if err != nil {
		return nil, err
	}
	out := make([]site.OldURL, len(s.Olds))
	for i := range s.Olds {
		out[i] = s.Olds[i].oldURL(s.Olds[i].ID)
	}
	return out, nil
}
