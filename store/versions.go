package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"siteplan/site"
)

// snapshot is a whole plan as a version keeps it (gzip'd JSON): the
// settings, every page with its id, every link.
type snapshot struct {
	Project site.DocProject `json:"project"`
	Pages   []pageSnap      `json:"pages"`
	Links   []linkSnap      `json:"links"`
	Olds    []oldSnap       `json:"olds,omitempty"` // the old site's URLs and their mappings
}

type pageSnap struct {
	ID int64 `json:"id"`
	pageState
}

type linkSnap struct {
	ID    int64  `json:"id"`
	From  int64  `json:"from"`
	To    int64  `json:"to"`
	Label string `json:"label,omitempty"`
}

// takeSnapshot reads the plan as it is, inside q's transaction.
func takeSnapshot(ctx context.Context, q querier, projectID int64) (*snapshot, error) {
	pr, err := scanProject(q.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ? AND p.importing = 0`, projectID))
	if err != nil {
		return nil, notFound(err, "Project %d does not exist.", projectID)
	}
	s := &snapshot{Project: site.DocProjectOf(&pr)}
	pages, err := queryPagesSized(ctx, q, false, pr.PageCount, `SELECT `+pageCols+` FROM pages WHERE project_id = ?`, projectID)
	if err != nil {
		return nil, err
	}
	if err := readVariants(ctx, q, projectID, pages); err != nil {
		return nil, err
	}
	s.Pages = make([]pageSnap, len(pages))
	for i := range pages {
		s.Pages[i] = pageSnap{pages[i].ID, *stateOf(&pages[i])}
	}
	s.Links, err = collect(ctx, q, func(rows *sql.Rows) (linkSnap, error) {
		var l linkSnap
		return l, rows.Scan(&l.ID, &l.From, &l.To, &l.Label)
	}, `SELECT id, from_id, to_id, label FROM links WHERE project_id = ? ORDER BY id`, projectID)
	if err != nil {
		return nil, err
	}
	s.Olds, err = snapshotOlds(ctx, q, projectID)
	return s, err
}

func (s *snapshot) encode() ([]byte, error) { return encodeGzip(s) }

func decodeSnapshot(b []byte) (*snapshot, error) {
	var s snapshot
	return &s, decodeGzip(b, &s)
}

// encodeGzip is v as gzip'd JSON, as versions and proposals keep plans.
func encodeGzip(v any) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		return nil, err
	}
	if err := json.NewEncoder(zw).Encode(v); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeGzip reads what encodeGzip wrote into v.
func decodeGzip(b []byte, v any) error {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return json.NewDecoder(io.LimitReader(zr, 1<<30)).Decode(v)
}

// tree is the snapshot as a tree of project pr (its settings as the
// snapshot has them) and its links.
func (s *snapshot) tree(pr site.Project) (*site.Tree, []site.Link) {
	projectID := pr.ID
	pages := make([]site.Page, len(s.Pages))
	for i := range s.Pages {
		pages[i] = s.Pages[i].page(s.Pages[i].ID, projectID)
	}
	st := s.Project
	pr.Name, pr.BaseURL, pr.TrailingSlash, pr.DefaultChangefreq = st.Name, st.BaseURL, st.TrailingSlash, st.DefaultChangefreq
	pr.DefaultPriority, pr.Lastmod, pr.SitemapLocation, pr.PageCount = st.DefaultPriority, st.Lastmod, st.SitemapLocation, len(pages)
	pr.Locales, pr.XDefault = st.ToProject().Locales, site.PageKeyID(st.XDefault)
	t := site.NewTree(pr, pages)
	links := make([]site.Link, len(s.Links))
	for i, l := range s.Links {
		links[i] = site.Link{ID: l.ID, ProjectID: projectID, FromID: l.From, ToID: l.To, Label: l.Label}
		if p := t.Page(l.From); p != nil {
			links[i].FromTitle = p.Title
		}
		if p := t.Page(l.To); p != nil {
			links[i].ToTitle = p.Title
		}
	}
	return t, links
}

// CreateVersion names the plan as it is now ("Kickoff") and returns the
// new version, numbered from 1 in each project. Errors: EInvalid (the
// name), ENotFound.
func (db *History) CreateVersion(ctx context.Context, projectID int64, name string) (site.Version, error) {
	return db.createVersion(ctx, projectID, name, false)
}

// LaunchVersion is CreateVersion for the plan the site went live with:
// the version is marked launched and its URLs are kept, so that from now
// on a change that moves one records its redirect (launch.go). Errors:
// EInvalid (the name), ENotFound.
func (db *History) LaunchVersion(ctx context.Context, projectID int64, name string) (site.Version, error) {
	return db.createVersion(ctx, projectID, name, true)
}

func (db *conn) createVersion(ctx context.Context, projectID int64, name string, launched bool) (site.Version, error) {
	var v site.Version
	name, err := site.ValidateVersionName(name)
	if err != nil {
		return v, err
	}
	who := site.ViewerFrom(ctx)
	v = site.Version{ProjectID: projectID, Name: name, Author: authorName(who), CreatedAt: db.Now().UTC().Truncate(time.Millisecond)}
	// The plan is read in a read transaction, one consistent state of it,
	// so that writers (of every team) do not wait while a large plan is
	// read and compressed; only the insert takes the write lock.
	rtx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return v, err
	}
	s, err := takeSnapshot(ctx, rtx, projectID)
	if err == nil {
		err = rtx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM changes WHERE project_id = ?`, projectID).Scan(&v.ChangeID)
	}
	card := "" // the rate card in force: the version's estimate is priced by it for good
	if err == nil {
		card, err = cardText(ctx, rtx, projectID)
	}
	rtx.Rollback()
	if err != nil {
		return v, err
	}
	blob, err := s.encode()
	if err != nil {
		return v, err
	}
	v.PageCount = len(s.Pages)
	err = db.tx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(number), 0) + 1 FROM versions WHERE project_id = ?`, projectID).Scan(&v.Number); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO versions (project_id, number, name, user_id, author, created_at, change_id, page_count, snapshot, launched, rate_card)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, projectID, v.Number, v.Name, nullID(who.UserID), v.Author,
			fmtTime(v.CreatedAt), v.ChangeID, v.PageCount, blob, launched, card).Scan(&v.ID); err != nil {
			return err
		}
		if err := db.enqueue(ctx, tx, site.Event{Kind: site.EventVersion, ProjectID: projectID, Actor: v.Author, Version: v.Label(), At: v.CreatedAt}); err != nil || !launched {
			return err
		}
		return keepLaunchedURLs(ctx, tx, projectID, s)
	})
	v.Launched = launched
	return v, err
}

// authorName is who a change or version is by.
func authorName(v site.Viewer) string {
	if v.Name == "" {
		return "The command line"
	}
	return v.Name
}

const versionCols = `id, project_id, number, name, author, created_at, change_id, page_count, launched`

func scanVersion(row interface{ Scan(...any) error }) (site.Version, error) {
	var v site.Version
	var at string
	err := row.Scan(&v.ID, &v.ProjectID, &v.Number, &v.Name, &v.Author, &at, &v.ChangeID, &v.PageCount, &v.Launched)
	v.CreatedAt, _ = time.Parse(timeFormat, at)
	return v, err
}

// Versions lists a project's versions, newest first, each with its
// approvals (oldest first). ChangedSince is left false: see MarkChanged.
// Errors: none of its own; a database error as it is.
func (db *History) Versions(ctx context.Context, projectID int64) ([]site.Version, error) {
	vs, err := collect(ctx, db.r, func(rows *sql.Rows) (site.Version, error) { return scanVersion(rows) },
		`SELECT `+versionCols+` FROM versions WHERE project_id = ? ORDER BY number DESC`, projectID)
	if err != nil {
		return nil, err
	}
	as, err := approvals(ctx, db.r, `v.project_id = ?`, projectID)
	if err != nil {
		return nil, err
	}
	at := make(map[int64]int, len(vs))
	for i := range vs {
		at[vs[i].ID] = i
	}
	for _, a := range as {
		v := &vs[at[a.VersionID]]
		v.Approvals = append(v.Approvals, a)
	}
	return vs, nil
}

// approvals lists the approvals where cond holds (on approvals a and
// their versions v), oldest first.
func approvals(ctx context.Context, q querier, cond string, arg any) ([]site.Approval, error) {
	return collect(ctx, q, func(rows *sql.Rows) (site.Approval, error) {
		var a site.Approval
		var at, signer, statuses string
		var voided, seen sql.NullString
		err := rows.Scan(&a.ID, &a.VersionID, &a.PageID, &a.PageTitle, &a.Name, &at, &signer, &a.UserID, &a.LinkLabel, &voided, &a.VoidedBy,
			&seen, &statuses, &a.Locale)
		a.At, _ = time.Parse(timeFormat, at)
		a.Seen = seen.String
		if signer == signerLink {
			a.Projection = &site.Projection{Statuses: strings.Fields(statuses)}
		}
		a.Member, a.ByLink = signer == signerMember, signer == signerLink
		if voided.Valid {
			a.VoidedAt, _ = time.Parse(timeFormat, voided.String)
		}
		return a, err
	}, `SELECT a.id, a.version_id, coalesce(a.page_id, 0), a.page_title, a.name, a.created_at, a.signer, coalesce(a.user_id, 0),
		a.link_label, a.voided_at, a.voided_by, a.seen_digest, coalesce(l.statuses, ''), a.locale
		FROM approvals a JOIN versions v ON v.id = a.version_id LEFT JOIN share_links l ON l.id = a.share_link_id
		WHERE `+cond+` ORDER BY a.id`, arg)
}

// Who signs (approvals.signer).
const (
	signerMember = "member"
	signerLink   = "link"
)

// Version returns one version of a project, with its approvals, and the
// plan it keeps. Errors: ENotFound.
func (db *History) Version(ctx context.Context, projectID int64, number int) (site.Version, *site.Tree, []site.Link, error) {
	pr, err := db.parts.Projects.Project(ctx, projectID)
	if err != nil {
		return site.Version{}, nil, nil, err
	}
	v, t, links, err := db.versionOf(ctx, pr, number)
	if err != nil {
		return v, nil, nil, err
	}
	v.Approvals, err = approvals(ctx, db.r, `a.version_id = ?`, v.ID)
	return v, t, links, err
}

// PlanAt returns the plan as it is (number 0) or as version number
// keeps it, with its old URLs (the redirect map); the version is zero
// for the plan now. Errors: ENotFound.
func (db *History) PlanAt(ctx context.Context, projectID int64, number int) (site.Version, *site.Tree, []site.OldURL, error) {
	if number == 0 {
		t, err := db.parts.Pages.Tree(ctx, projectID)
		if err != nil {
			return site.Version{}, nil, nil, err
		}
		olds, _, err := db.parts.Redirects.OldURLs(ctx, projectID, site.OldFilter{})
		return site.Version{}, t, olds, err
	}
	v, t, _, err := db.Version(ctx, projectID, number)
	if err != nil {
		return v, nil, nil, err
	}
	olds, err := db.parts.Redirects.VersionOldURLs(ctx, projectID, number)
	return v, t, olds, err
}

// versionOf reads version number of project pr and the plan it keeps.
// Errors: ENotFound.
func (db *conn) versionOf(ctx context.Context, pr site.Project, number int) (site.Version, *site.Tree, []site.Link, error) {
	var blob []byte
	v, err := scanVersion(scanPlus{db.r.QueryRowContext(ctx, `SELECT `+versionCols+`, snapshot FROM versions WHERE project_id = ? AND number = ?`,
		pr.ID, number), []any{&blob}})
	if err != nil {
		return v, nil, nil, notFound(err, "This plan has no version %d.", number)
	}
	s, err := decodeSnapshot(blob)
	if err != nil {
		return v, nil, nil, err
	}
	t, links := s.tree(pr)
	site.ProjectionFrom(ctx).Tree(t)
	return v, t, links, nil
}

// RestoreVersion makes the plan what version number was: its settings,
// pages (with their ids), places and links. Pages added since are
// deleted, with their comments kept in the history. It is one change,
// which can be undone. Errors: ENotFound.
func (db *History) RestoreVersion(ctx context.Context, projectID int64, number int) (site.Change, error) {
	var ch site.Change
	err := db.change(ctx, func(j *journal) error {
		ctx, tx := j.ctx, j.tx
		if err := j.inProject(projectID); err != nil {
			return err
		}
		// Launched URLs the restore takes away wait for a person in the
		// Redirects view: a restore has nobody to ask where they go.
		j.gone = &site.Decision{Verb: site.DecideReopen}
		var blob []byte
		var name string
		if err := tx.QueryRowContext(ctx, `SELECT name, snapshot FROM versions WHERE project_id = ? AND number = ?`, projectID, number).
			Scan(&name, &blob); err != nil {
			return notFound(err, "This plan has no version %d.", number)
		}
		want, err := decodeSnapshot(blob)
		if err != nil {
			return err
		}
		now, err := takeSnapshot(ctx, tx, projectID)
		if err != nil {
			return err
		}
		d := transition(now, want)
		if err := j.touchData(d); err != nil {
			return err
		}
		if err := j.touchProject(); err != nil {
			return err
		}
		var back []int64
		for _, pd := range d.Pages {
			if pd.Before == nil {
				back = append(back, pd.ID)
			}
		}
		if d.Comments, err = keptComments(ctx, tx, projectID, back); err != nil {
			return err
		}
		a := &applier{ctx: ctx, tx: tx, projectID: projectID, failed: "The version was not restored: "}
		if err := a.apply(d, true); err != nil {
			return err
		}
		j.comments = d.Comments
		j.verb, j.summary = "restore", "restored version "+strconv.Itoa(number)+" “"+name+"”"
		ch = site.Change{ProjectID: projectID, Verb: j.verb, Summary: j.summary, Author: authorName(site.ViewerFrom(ctx))}
		return nil
	})
	return ch, err
}

// transition is what takes a plan from one snapshot to another: every
// page, link and setting that differs.
func transition(from, to *snapshot) *changeData {
	d := &changeData{}
	a := make(map[int64]*pageState, len(from.Pages))
	for i := range from.Pages {
		a[from.Pages[i].ID] = &from.Pages[i].pageState
	}
	b := make(map[int64]*pageState, len(to.Pages))
	for i := range to.Pages {
		b[to.Pages[i].ID] = &to.Pages[i].pageState
	}
	ids := make([]int64, 0, len(a)+len(b))
	for id := range a {
		ids = append(ids, id)
	}
	for id := range b {
		if a[id] == nil {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		x, y := a[id], b[id]
		if x != nil && y != nil && x.same(y) && x.Pos == y.Pos {
			continue
		}
		d.Pages = append(d.Pages, pageDelta{ID: id, Before: x, After: y})
	}
	la := map[linkKey]linkSnap{}
	for _, l := range from.Links {
		la[linkKey{l.From, l.To}] = l
	}
	lb := map[linkKey]linkSnap{}
	for _, l := range to.Links {
		lb[linkKey{l.From, l.To}] = l
	}
	for _, l := range from.Links {
		k := linkKey{l.From, l.To}
		if m, ok := lb[k]; !ok || m.Label != l.Label {
			d.Links = append(d.Links, linkDelta{ID: l.ID, From: l.From, To: l.To, Before: &l.Label, After: labelOf(lb, k)})
		}
	}
	for _, l := range to.Links {
		k := linkKey{l.From, l.To}
		if _, ok := la[k]; !ok {
			d.Links = append(d.Links, linkDelta{ID: l.ID, From: l.From, To: l.To, After: &l.Label})
		}
	}
	if !from.Project.Equal(to.Project) {
		d.Project = &projectDelta{Before: from.Project, After: to.Project}
	}
	oldTransition(d, from.Olds, to.Olds)
	return d
}

func labelOf(m map[linkKey]linkSnap, k linkKey) *string {
	l, ok := m[k]
	if !ok {
		return nil
	}
	return &l.Label
}

// Approve records the viewer's sign-off of version number: the whole
// plan (pageID 0) or the branch at pageID as the version has it. A
// member of the team signs with their account's name, as a member; a
// visitor through a share link with the name they type, and the link's
// label is kept. A signer's earlier sign-off of the same version and
// scope is replaced, so one link holds one sign-off a scope however often
// it signs. Errors: EInvalid (the name), ENotFound.
func (db *History) Approve(ctx context.Context, projectID int64, number int, pageID int64, name string) (site.Approval, error) {
	who := site.ViewerFrom(ctx)
	a := site.Approval{PageID: pageID, At: db.Now().UTC().Truncate(time.Millisecond), Member: who.UserID != 0 && !who.Share,
		UserID: who.UserID, ByLink: who.ShareLinkID != 0, Locale: who.Locale}
	var err error
	if a.Member {
		name = who.Name
	}
	if a.Name, err = site.ValidateApprover(name); err != nil {
		return a, err
	}
	v, t, _, err := db.Version(ctx, projectID, number)
	if err != nil {
		return a, err
	}
	a.VersionID = v.ID
	if pageID != 0 {
		p := t.Page(pageID)
		if p == nil {
			return a, site.Errorf(site.ENotFound, "Version %d has no such page.", number)
		}
		a.PageTitle, _ = p.TitleIn(a.Locale)
	}
	signer := ""
	switch {
	case a.Member:
		signer = signerMember
	case a.ByLink:
		signer = signerLink
	}
	// What the signer sees of the branch now, in their projection (the
	// store reads the plan in it): "changed since approval" is a change
	// of this, never an edit made before the sign-off.
	now, err := db.parts.Pages.Tree(ctx, projectID)
	if err != nil {
		return a, err
	}
	nowLinks, err := db.parts.Links.Links(ctx, projectID)
	if err != nil {
		return a, err
	}
	seen := (*site.Projection)(nil).DigestIn(now, nowLinks, pageID, a.Locale)
	err = db.tx(ctx, func(tx *sql.Tx) error {
		if a.ByLink {
			if err := tx.QueryRowContext(ctx, `SELECT label FROM share_links WHERE id = ?`, who.ShareLinkID).Scan(&a.LinkLabel); err != nil {
				return notFound(err, "This share link no longer exists.")
			}
		}
		if a.Member || a.ByLink {
			if _, err := tx.ExecContext(ctx, `DELETE FROM approvals WHERE version_id = ? AND coalesce(page_id, 0) = ? AND voided_at IS NULL
				AND (user_id = ?3 AND signer = 'member' OR share_link_id = ?4) AND locale = ?5`, v.ID, pageID, nullID(who.UserID), nullID(who.ShareLinkID), a.Locale); err != nil {
				return err
			}
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO approvals (version_id, page_id, page_title, name, share_link_id, created_at, signer, user_id, link_label, seen_digest, locale)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, v.ID, nullID(pageID), a.PageTitle, a.Name, nullID(who.ShareLinkID), fmtTime(a.At),
			signer, nullID(who.UserID), a.LinkLabel, seen, a.Locale).Scan(&a.ID); err != nil {
			return err
		}
		e := site.Event{Kind: site.EventSignoff, ProjectID: projectID, Actor: a.By(), Version: v.Label(), At: a.At}
		if a.Member {
			e.ActorID = who.UserID
		}
		if pageID != 0 && t.Page(pageID) != nil {
			e.PageID = pageID
		}
		return db.enqueue(ctx, tx, e)
	})
	return a, err
}

// VoidApproval voids sign-off id of version number: it stays listed, as
// voided by the viewer, and no longer counts. Errors: ENotFound (no such
// sign-off in force).
func (db *History) VoidApproval(ctx context.Context, projectID int64, number int, id int64) error {
	by := authorName(site.ViewerFrom(ctx))
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE approvals SET voided_at = ?, voided_by = ? WHERE id = ? AND voided_at IS NULL
			AND version_id = (SELECT id FROM versions WHERE project_id = ? AND number = ?)`, fmtTime(db.Now().UTC()), by, id, projectID, number)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return site.Errorf(site.ENotFound, "No such sign-off in force on version %d.", number)
		}
		return nil
	})
}

// MarkChanged sets ChangedSince on the approvals of vs (versions of
// projectID): whether the plan now differs from the version in what was
// approved.
//
// Each sign-off is held in its signer's own projection, whoever asks: a
// client's is changed only by what a client could see, and from what the
// signer saw when signing (Approval.Seen), so never by an edit made
// before. A sign-off made before fingerprints were kept compares the
// version with the plan, in the same projection.
// Errors: ENotFound (no such project).
func (db *History) MarkChanged(ctx context.Context, projectID int64, vs []site.Version) error {
	whole := site.WithViewer(ctx, site.Viewer{}) // the plan as it is: each signer's projection is applied below
	var now *site.Tree
	var nowLinks []site.Link
	nowDigest := map[string]string{} // by projection and branch: many sign-offs share one
	for i := range vs {
		if len(vs[i].Approvals) == 0 {
			continue
		}
		if now == nil {
			var err error
			if now, err = db.parts.Pages.Tree(whole, projectID); err != nil {
				return err
			}
			if nowLinks, err = db.parts.Links.Links(whole, projectID); err != nil {
				return err
			}
		}
		var then *site.Tree
		var thenLinks []site.Link
		for k := range vs[i].Approvals {
			a := &vs[i].Approvals[k]
			if a.Voided() {
				continue
			}
			seen := a.Seen
			if seen == "" {
				if then == nil {
					var err error
					if _, then, thenLinks, err = db.versionOf(whole, now.Project, vs[i].Number); err != nil {
						return err
					}
				}
				seen = a.Projection.DigestIn(then, thenLinks, a.PageID, a.Locale)
			}
			k := a.Projection.Key() + "|" + strconv.FormatInt(a.PageID, 10) + "|" + a.Locale
			if _, ok := nowDigest[k]; !ok {
				nowDigest[k] = a.Projection.DigestIn(now, nowLinks, a.PageID, a.Locale)
			}
			a.ChangedSince = seen != nowDigest[k]
		}
	}
	return nil
}

// keptComments finds the comments the pages in ids had when they were
// deleted, in the changes that deleted them, newest first.
func keptComments(ctx context.Context, tx *sql.Tx, projectID int64, ids []int64) ([]commentRow, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	want := map[int64]bool{}
	for _, id := range ids {
		want[id] = true
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	datas, err := collect(ctx, tx, scanString, `SELECT data FROM changes WHERE project_id = ? AND data LIKE '%"comments":[%' AND id IN
		(SELECT change_id FROM change_pages WHERE page_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))) ORDER BY id DESC`, projectID, string(list))
	if err != nil {
		return nil, err
	}
	var out []commentRow
	for _, data := range datas {
		var d changeData
		if err := json.Unmarshal([]byte(data), &d); err != nil {
			return nil, err
		}
		found := map[int64]bool{}
		for _, c := range d.Comments {
			if want[c.PageID] {
				out = append(out, c)
				found[c.PageID] = true
			}
		}
		for id := range found {
			delete(want, id) // the newest deletion of a page tells its comments
		}
	}
	slices.SortFunc(out, func(a, b commentRow) int { return int(a.ID - b.ID) })
	return out, nil
}

// ReplacePlan makes the plan what document doc says, as one change that
// can be undone: a page whose key names a page of the plan ("p12", as
// dump writes them) is that page, any other is added, a page of the plan
// the document leaves out is deleted; the settings are the document's.
// Launched URLs it takes away wait in the Redirects view. With version
// non-zero, a plan whose version is another is left as it is (EStale).
// Errors: EInvalid (the document, a typed URL two pages would share),
// ENotFound, EConflict, EStale.
func (db *History) ReplacePlan(ctx context.Context, projectID int64, doc *site.Document, version int64) (site.Change, error) {
	var ch site.Change
	if err := doc.Validate(); err != nil {
		return ch, err
	}
	err := db.change(ctx, func(j *journal) error {
		ctx, tx := j.ctx, j.tx
		if err := j.inProject(projectID); err != nil {
			return err
		}
		j.gone = &site.Decision{Verb: site.DecideReopen}
		now, err := takeSnapshot(ctx, tx, projectID)
		if err != nil {
			return err
		}
		pr, err := scanProject(tx.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ?`, projectID))
		if err != nil {
			return err
		}
		if version != 0 && pr.Version != version {
			return site.Errorf(site.EStale, "The plan has changed since version %d (it is at %d now): read it again, then send your change.", version, pr.Version)
		}
		want, err := docSnapshot(now, pr, doc, true)
		if err != nil {
			return err
		}
		d := proposalChanges(now, want, pr)
		if err := j.newPages(d, &changeData{}); err != nil {
			return err
		}
		if err := j.touchData(d); err != nil {
			return err
		}
		if err := j.touchProject(); err != nil {
			return err
		}
		a := &applier{ctx: ctx, tx: tx, projectID: projectID, failed: "The plan was not replaced: "}
		if err := a.apply(d, true); err != nil {
			return err
		}
		j.comments = d.Comments
		j.verb, j.summary = "replace", "replaced the plan with a document ("+site.Plural(len(d.Pages), "page", "pages")+" changed)"
		ch = site.Change{ProjectID: projectID, Verb: j.verb, Summary: j.summary, Author: authorName(site.ViewerFrom(ctx))}
		return nil
	})
	return ch, err
}
