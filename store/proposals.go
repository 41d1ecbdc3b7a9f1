package store

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"
	"time"

	"siteplan/site"
)

// A proposal keeps what accepting the rest of it would do: a changeData
// (the pages' and links' states before and after, as the history keeps
// a change), made by comparing the plan it was proposed on with the plan
// as the proposal would have it. Accepting applies it (or the part of it
// in one branch) with the applier that undo and restore use, so a page
// someone changed since, in a field the proposal changes too, stops it
// with a message that names who; pages it adds carry negative ids until
// the acceptance gives them ids of the plan.

// Propose records a proposal of project projectID: the plan as
// draft.Doc has it, compared with the plan now or with version
// draft.Version. Errors: EInvalid (the draft, the document, a typed URL
// two pages would share, a proposal that changes nothing), ENotFound,
// EConflict (too many open proposals).
func (db *Proposals) Propose(ctx context.Context, projectID int64, draft site.ProposalDraft) (site.Proposal, error) {
	var p site.Proposal
	if err := site.ValidateProposal(&draft); err != nil {
		return p, err
	}
	if draft.Doc == nil {
		return p, site.Errorf(site.EInvalid, "The proposal has no plan: send a siteplan/1 document, operations or a Mermaid diagram.")
	}
	if err := draft.Doc.Validate(); err != nil {
		return p, err
	}
	base, pr, change, err := db.proposalBase(ctx, projectID, draft.Version)
	if err != nil {
		return p, err
	}
	want, err := docSnapshot(base, pr, draft.Doc, draft.Settings)
	if err != nil {
		return p, err
	}
	d := proposalChanges(base, want, pr)
	if len(d.Pages)+len(d.Links) == 0 && d.Project == nil {
		return p, site.Errorf(site.EInvalid, "The proposal changes nothing: its plan is the plan as it is.")
	}
	blob, err := encodeGzip(d)
	if err != nil {
		return p, err
	}
	who := site.ViewerFrom(ctx)
	p = site.Proposal{ProjectID: projectID, Title: draft.Title, Summary: draft.Summary, Source: draft.Source, Author: authorName(who),
		Version: draft.Version, State: site.ProposalOpen, Pages: len(d.Pages), Links: len(d.Links), CreatedAt: db.Now().UTC().Truncate(time.Millisecond)}
	err = db.tx(ctx, func(tx *sql.Tx) error {
		var open int
		if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce((SELECT max(number) FROM proposals WHERE project_id = ?1), 0) + 1
			FROM proposals WHERE project_id = ?1 AND state = 'open'`, projectID).Scan(&open, &p.Number); err != nil {
			return err
		}
		if open >= site.MaxOpenProposals {
			return site.Errorf(site.EConflict, "This plan has %d open proposals: accept or reject some first.", open)
		}
		return tx.QueryRowContext(ctx, `INSERT INTO proposals (project_id, number, title, summary, source, user_id, author, base_version,
			base_change, page_count, link_count, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			projectID, p.Number, p.Title, p.Summary, p.Source, nullID(who.UserID), p.Author, p.Version, change, p.Pages, p.Links,
			blob, fmtTime(p.CreatedAt)).Scan(&p.ID)
	})
	return p, err
}

// proposalBase reads the plan a proposal is made on, in one read
// transaction: the plan now (version 0) or a version's, with the
// project and the plan's last change.
func (db *Proposals) proposalBase(ctx context.Context, projectID int64, version int) (*snapshot, site.Project, int64, error) {
	var pr site.Project
	var change int64
	rtx, err := db.r.BeginTx(ctx, db.snapshot())
	if err != nil {
		return nil, pr, 0, err
	}
	defer rtx.Rollback()
	if pr, err = scanProject(rtx.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ? AND p.importing = 0`, projectID)); err != nil {
		return nil, pr, 0, notFound(err, "Project %d does not exist.", projectID)
	}
	if err := rtx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM changes WHERE project_id = ?`, projectID).Scan(&change); err != nil {
		return nil, pr, 0, err
	}
	if version == 0 {
		s, err := takeSnapshot(ctx, rtx, projectID)
		return s, pr, change, err
	}
	var blob []byte
	if err := rtx.QueryRowContext(ctx, `SELECT snapshot FROM versions WHERE project_id = ? AND number = ?`, projectID, version).Scan(&blob); err != nil {
		return nil, pr, 0, notFound(err, "This plan has no version %d.", version)
	}
	s, err := decodeSnapshot(blob)
	return s, pr, change, err
}

// docSnapshot is the plan as document doc has it, on top of base: a
// page whose key names a page of base ("p12") is that page, any other
// is a new page (a negative id). A page whose slug is derived and whose
// title stays keeps its URL; new and changed pages take URLs no other
// page has (a derived slug its next free number). The old site and,
// unless settings, the project's settings stay base's. Errors: EInvalid
// (a typed URL two pages would share).
func docSnapshot(base *snapshot, pr site.Project, doc *site.Document, settings bool) (*snapshot, error) {
	had := make(map[int64]*pageState, len(base.Pages))
	for i := range base.Pages {
		had[base.Pages[i].ID] = &base.Pages[i].pageState
	}
	t, links := doc.Tree()
	var keys []string // by the tree's ids, from 1
	var walk func(list []*site.DocPage)
	walk = func(list []*site.DocPage) {
		for _, dp := range list {
			keys = append(keys, dp.Key)
			walk(dp.Children)
		}
	}
	walk(doc.Pages)
	ids := make(map[int64]int64, len(keys)) // the tree's id -> the plan's
	fresh := int64(0)
	for i, k := range keys {
		id := site.PageKeyID(k)
		if had[id] == nil {
			fresh--
			id = fresh
		}
		ids[int64(i+1)] = id
	}
	locales := map[string]bool{}
	for _, l := range pr.Locales {
		locales[l.Tag] = true
	}
	pages := t.Pages()
	for i := range pages {
		p := &pages[i]
		p.ID, p.ParentID = ids[p.ID], ids[p.ParentID]
		old := had[p.ID]
		if old == nil {
			continue
		}
		if p.SlugAuto && old.Auto && p.Title == old.Title {
			p.Slug = old.Slug // the URL it has, "faq-2" included
		}
		for tag, v := range old.Variants { // kept aside for locales the plan no longer has
			if !locales[tag] {
				if p.Variants == nil {
					p.Variants = map[string]site.Variant{}
				}
				p.Variants[tag] = v
			}
		}
	}
	want := &snapshot{Project: base.Project, Olds: base.Olds}
	if settings {
		want.Project = doc.Project
		if x := t.Project.XDefault; x != 0 {
			want.Project.XDefault = "p" + strconv.FormatInt(ids[x], 10)
		}
	}
	pr.BaseURL, pr.TrailingSlash, pr.Locales = want.Project.BaseURL, want.Project.TrailingSlash, want.Project.ToProject().Locales
	tree := site.NewTree(pr, pages)
	var claim []int64
	for i := range pages {
		if old := had[pages[i].ID]; old == nil || !old.same(stateOf(&pages[i])) {
			claim = append(claim, pages[i].ID)
		}
	}
	if _, err := tree.ClaimURLs(claim); err != nil {
		return nil, err
	}
	want.Pages = make([]pageSnap, len(pages))
	for i := range pages {
		want.Pages[i] = pageSnap{pages[i].ID, *stateOf(tree.Page(pages[i].ID))}
	}
	linkID := map[linkKey]int64{}
	for _, l := range base.Links {
		linkID[linkKey{l.From, l.To}] = l.ID
	}
	for _, l := range links {
		k := linkKey{ids[l.FromID], ids[l.ToID]}
		want.Links = append(want.Links, linkSnap{ID: linkID[k], From: k.From, To: k.To, Label: l.Label})
	}
	return want, nil
}

// proposalChanges is what takes base to want, without the moves that
// only shift a page because a sibling came or went: the applier places
// pages among the siblings there are when it runs.
func proposalChanges(base, want *snapshot, pr site.Project) *changeData {
	d := transition(base, want)
	bt, _ := base.tree(pr)
	wt, _ := want.tree(pr)
	reordered := map[int64]bool{}
	for _, e := range site.Compare(bt, wt, nil, nil).Reordered {
		reordered[e.ID] = true
	}
	kept := d.Pages[:0]
	for _, pd := range d.Pages {
		if pd.Before != nil && pd.After != nil && pd.Before.same(pd.After) && !reordered[pd.ID] {
			continue
		}
		kept = append(kept, pd)
	}
	d.Pages = kept
	return d
}

const proposalCols = `id, project_id, number, title, summary, source, author, base_version, state, accepted, page_count, link_count,
	created_at, coalesce(decided_at, ''), decided_by`

func scanProposal(row interface{ Scan(...any) error }) (site.Proposal, error) {
	var p site.Proposal
	var accepted, at, decided string
	err := row.Scan(&p.ID, &p.ProjectID, &p.Number, &p.Title, &p.Summary, &p.Source, &p.Author, &p.Version, &p.State, &accepted,
		&p.Pages, &p.Links, &at, &decided, &p.DecidedBy)
	p.CreatedAt, _ = time.Parse(timeFormat, at)
	p.DecidedAt, _ = time.Parse(timeFormat, decided)
	if accepted != "" {
		p.Accepted = strings.Split(accepted, "\n")
	}
	return p, err
}

// Proposals lists a project's proposals, newest first, without their
// comments. Errors: none of its own.
func (db *Proposals) Proposals(ctx context.Context, projectID int64) ([]site.Proposal, error) {
	return collect(ctx, db.r, func(rows *sql.Rows) (site.Proposal, error) { return scanProposal(rows) },
		`SELECT `+proposalCols+` FROM proposals WHERE project_id = ? ORDER BY number DESC`, projectID)
}

// Proposal returns proposal number of a project with its comments, and
// the plan now and as accepting the rest of it would make it (pages it
// adds with negative ids). Errors: ENotFound.
func (db *Proposals) Proposal(ctx context.Context, projectID int64, number int) (site.Proposal, *site.ProposalPlans, error) {
	var blob []byte
	p, err := scanProposal(scanPlus{db.r.QueryRowContext(ctx, `SELECT `+proposalCols+`, data FROM proposals WHERE project_id = ? AND number = ?`,
		projectID, number), []any{&blob}})
	if err != nil {
		return p, nil, notFound(err, "This plan has no proposal %d.", number)
	}
	p.Comments, err = collect(ctx, db.r, func(rows *sql.Rows) (site.ProposalComment, error) {
		var c site.ProposalComment
		var at string
		err := rows.Scan(&c.ID, &c.Author, &c.Body, &at)
		c.At, _ = time.Parse(timeFormat, at)
		return c, err
	}, `SELECT id, author, body, created_at FROM proposal_comments WHERE proposal_id = ? ORDER BY id`, p.ID)
	if err != nil {
		return p, nil, err
	}
	var d changeData
	if err := decodeGzip(blob, &d); err != nil {
		return p, nil, err
	}
	rtx, err := db.r.BeginTx(ctx, db.snapshot())
	if err != nil {
		return p, nil, err
	}
	defer rtx.Rollback()
	now, err := takeSnapshot(ctx, rtx, projectID)
	if err != nil {
		return p, nil, err
	}
	pr, err := scanProject(rtx.QueryRowContext(ctx, `SELECT `+projectCols+` FROM projects p WHERE p.id = ?`, projectID))
	if err != nil {
		return p, nil, err
	}
	plans := &site.ProposalPlans{}
	plans.Now, plans.NowLinks = now.tree(pr)
	plans.Proposed, plans.ProposedLinks = overlay(now, &d).tree(pr)
	return p, plans, nil
}

// overlay is the plan now with d applied as the applier would: each
// field d changes as d has it, the rest as it is now; pages placed anew
// at their index among the siblings there are.
func overlay(now *snapshot, d *changeData) *snapshot {
	state := make(map[int64]*pageState, len(now.Pages))
	for i := range now.Pages {
		s := now.Pages[i].pageState
		state[now.Pages[i].ID] = &s
	}
	placing := map[int64]bool{}
	for _, pd := range d.Pages {
		cur := state[pd.ID]
		switch {
		case pd.After == nil:
			delete(state, pd.ID)
		case pd.Before == nil || cur == nil:
			s := *pd.After
			state[pd.ID], placing[pd.ID] = &s, true
		default:
			for _, f := range pageFields {
				if !f.eq(pd.Before, pd.After) {
					f.set(cur, pd.After)
				}
			}
			if pd.Before.Parent != pd.After.Parent || pd.Before.Placement != pd.After.Placement || pd.Before.Pos != pd.After.Pos {
				cur.Pos, placing[pd.ID] = pd.After.Pos, true
			}
		}
	}
	type list struct {
		parent    int64
		placement string
	}
	lists := map[list][]int64{}
	var ids []int64
	for id := range state {
		ids = append(ids, id)
	}
	// Staying pages in their order, then the placed ones at their index,
	// lowest first.
	slices.SortFunc(ids, func(a, b int64) int {
		if c := cmp.Compare(state[a].Pos, state[b].Pos); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var placed []int64
	for _, id := range ids {
		if placing[id] {
			placed = append(placed, id)
			continue
		}
		s := state[id]
		k := list{s.Parent, s.Placement}
		lists[k] = append(lists[k], id)
	}
	for _, id := range placed {
		s := state[id]
		k := list{s.Parent, s.Placement}
		at := min(s.Pos, len(lists[k]))
		lists[k] = append(lists[k][:at], append([]int64{id}, lists[k][at:]...)...)
	}
	out := &snapshot{Project: now.Project, Olds: now.Olds}
	for _, l := range lists {
		for i, id := range l {
			s := *state[id]
			s.Pos = i
			out.Pages = append(out.Pages, pageSnap{id, s})
		}
	}
	label := map[linkKey]linkSnap{}
	for _, l := range now.Links {
		label[linkKey{l.From, l.To}] = l
	}
	for _, ld := range d.Links {
		k := linkKey{ld.From, ld.To}
		if ld.After == nil {
			delete(label, k)
		} else {
			label[k] = linkSnap{ID: ld.ID, From: ld.From, To: ld.To, Label: *ld.After}
		}
	}
	for k, l := range label {
		if state[k.From] != nil && state[k.To] != nil {
			out.Links = append(out.Links, l)
		}
	}
	slices.SortFunc(out.Links, func(a, b linkSnap) int { return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To)) })
	if d.Project != nil {
		out.Project = d.Project.After
	}
	return out
}

// AcceptProposal makes proposal number's changes part of the plan: all
// it still holds (branch 0), or those in the branch at page branch of
// the plan as it would be (a section ProposalBranches lists). It is one
// change of the plan, which can be undone; the proposal keeps what it
// has left, and is accepted when nothing is. Launched URLs it takes away
// wait in the Redirects view. Errors: ENotFound, EInvalid (nothing of it
// in that branch), EConflict (no longer open; a page, link or setting
// changed since where the proposal changes it, naming who).
func (db *Proposals) AcceptProposal(ctx context.Context, projectID int64, number int, branch int64) (site.Change, error) {
	var ch site.Change
	err := db.change(ctx, func(j *journal) error {
		ctx, tx := j.ctx, j.tx
		if err := j.inProject(projectID); err != nil {
			return err
		}
		j.gone = &site.Decision{Verb: site.DecideReopen}
		var id int64
		var title, state, accepted string
		var blob []byte
		if err := tx.QueryRowContext(ctx, `SELECT id, title, state, accepted, data FROM proposals WHERE project_id = ? AND number = ?`, projectID, number).
			Scan(&id, &title, &state, &accepted, &blob); err != nil {
			return notFound(err, "This plan has no proposal %d.", number)
		}
		if state != site.ProposalOpen {
			return site.Errorf(site.EConflict, "Proposal %d was %s already.", number, state)
		}
		var d changeData
		if err := decodeGzip(blob, &d); err != nil {
			return err
		}
		part, rest, where := &d, &changeData{}, ""
		if branch != 0 {
			now, err := takeSnapshot(ctx, tx, projectID)
			if err != nil {
				return err
			}
			if part, rest, where = splitBranch(now, &d, branch); len(part.Pages)+len(part.Links) == 0 {
				return site.Errorf(site.EInvalid, "Proposal %d changes nothing in that branch.", number)
			}
		}
		if err := j.newPages(part, rest); err != nil {
			return err
		}
		if err := j.touchData(part); err != nil {
			return err
		}
		if part.Project != nil {
			if err := j.touchProject(); err != nil {
				return err
			}
		}
		a := &applier{ctx: ctx, tx: tx, projectID: projectID, failed: "The proposal was not accepted: "}
		if err := a.apply(part, true); err != nil {
			return err
		}
		j.comments = part.Comments
		j.verb, j.summary = "accept", "accepted proposal "+strconv.Itoa(number)+" “"+title+"”"
		if where != "" {
			j.summary += ", the branch “" + where + "”"
			accepted = strings.TrimPrefix(accepted+"\n"+where, "\n")
		}
		ch = site.Change{ProjectID: projectID, Verb: j.verb, Summary: j.summary, Author: authorName(site.ViewerFrom(ctx))}
		return db.keepRest(ctx, tx, id, rest, accepted)
	})
	return ch, err
}

// keepRest writes what a proposal has left after an acceptance; with
// nothing left it is accepted.
func (db *Proposals) keepRest(ctx context.Context, tx *sql.Tx, id int64, rest *changeData, accepted string) error {
	blob, err := encodeGzip(rest)
	if err != nil {
		return err
	}
	state, decided, by := site.ProposalOpen, any(nil), ""
	if len(rest.Pages)+len(rest.Links) == 0 && rest.Project == nil {
		state, decided, by = site.ProposalAccepted, fmtTime(db.Now().UTC()), authorName(site.ViewerFrom(ctx))
	}
	_, err = tx.ExecContext(ctx, `UPDATE proposals SET data = ?, page_count = ?, link_count = ?, accepted = ?, state = ?, decided_at = ?, decided_by = ?
		WHERE id = ?`, blob, len(rest.Pages), len(rest.Links), accepted, state, decided, by, id)
	return err
}

// newPages gives the pages part adds ids of the plan, in part and in
// rest (whose links may reach them), as one range of the pages'
// sequence; the proposal's XDefault naming one follows.
func (j *journal) newPages(part, rest *changeData) error {
	var n int64
	for _, pd := range part.Pages {
		if pd.ID < 0 {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	var first int64
	if err := j.tx.QueryRowContext(j.ctx, j.nextIDs(), n).Scan(&first); err != nil {
		return err
	}
	ids := map[int64]int64{}
	for _, pd := range part.Pages {
		if pd.ID < 0 {
			ids[pd.ID] = first
			first++
		}
	}
	for _, d := range []*changeData{part, rest} {
		d.renumber(ids)
	}
	return nil
}

// renumber gives the pages in ids their new ids wherever d names them.
func (d *changeData) renumber(ids map[int64]int64) {
	to := func(id *int64) {
		if n, ok := ids[*id]; ok {
			*id = n
		}
	}
	for i := range d.Pages {
		pd := &d.Pages[i]
		to(&pd.ID)
		for _, s := range []*pageState{pd.Before, pd.After} {
			if s != nil {
				to(&s.Parent)
			}
		}
	}
	for i := range d.Links {
		to(&d.Links[i].From)
		to(&d.Links[i].To)
	}
	if d.Project != nil {
		if x, ok := strings.CutPrefix(d.Project.After.XDefault, "p"); ok {
			if id, err := strconv.ParseInt(x, 10, 64); err == nil {
				to(&id)
				d.Project.After.XDefault = "p" + strconv.FormatInt(id, 10)
			}
		}
	}
}

// splitBranch parts d into the changes in the branch at root (of the
// plan now or as d would make it: a page that moves in or out of it is
// in it) and the rest, and names the branch. A cross-link goes with the
// branch when one of its ends is in it and neither is a page the rest
// adds.
func splitBranch(now *snapshot, d *changeData, root int64) (part, rest *changeData, title string) {
	pr := site.Project{}
	before, _ := now.tree(pr)
	after, _ := overlay(now, d).tree(pr)
	below := func(t *site.Tree, id int64) bool {
		for p, n := t.Page(id), 0; p != nil && n <= site.MaxDepth+1; p, n = t.Page(p.ParentID), n+1 {
			if p.ID == root {
				return true
			}
		}
		return false
	}
	if p := after.Page(root); p != nil {
		title = p.Title
	} else if p := before.Page(root); p != nil {
		title = p.Title
	}
	part, rest = &changeData{}, &changeData{Project: d.Project}
	in := map[int64]bool{}
	for _, pd := range d.Pages {
		if pd.After != nil && below(after, pd.ID) || pd.Before != nil && below(before, pd.ID) {
			in[pd.ID] = true
			part.Pages = append(part.Pages, pd)
		} else {
			rest.Pages = append(rest.Pages, pd)
		}
	}
	reaches := func(id int64) bool { return id > 0 || in[id] }
	for _, ld := range d.Links {
		if (in[ld.From] || in[ld.To]) && reaches(ld.From) && reaches(ld.To) {
			part.Links = append(part.Links, ld)
		} else {
			rest.Links = append(rest.Links, ld)
		}
	}
	return part, rest, title
}

// RejectProposal closes proposal number unaccepted. Errors: ENotFound,
// EConflict (no longer open).
func (db *Proposals) RejectProposal(ctx context.Context, projectID int64, number int) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		var state string
		if err := tx.QueryRowContext(ctx, `SELECT state FROM proposals WHERE project_id = ? AND number = ?`, projectID, number).Scan(&state); err != nil {
			return notFound(err, "This plan has no proposal %d.", number)
		}
		if state != site.ProposalOpen {
			return site.Errorf(site.EConflict, "Proposal %d was %s already.", number, state)
		}
		_, err := tx.ExecContext(ctx, `UPDATE proposals SET state = 'rejected', decided_at = ?, decided_by = ? WHERE project_id = ? AND number = ?`,
			fmtTime(db.Now().UTC()), authorName(site.ViewerFrom(ctx)), projectID, number)
		return err
	})
}

// CommentOnProposal adds the viewer's comment to proposal number.
// Errors: EInvalid (the body), ENotFound.
func (db *Proposals) CommentOnProposal(ctx context.Context, projectID int64, number int, body string) (site.ProposalComment, error) {
	var c site.ProposalComment
	body, err := site.ValidateProposalComment(body)
	if err != nil {
		return c, err
	}
	who := site.ViewerFrom(ctx)
	c = site.ProposalComment{Author: authorName(who), Body: body, At: db.Now().UTC().Truncate(time.Millisecond)}
	err = db.tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO proposal_comments (proposal_id, user_id, author, body, created_at)
			SELECT id, ?, ?, ?, ? FROM proposals WHERE project_id = ? AND number = ? RETURNING id`,
			nullID(who.UserID), c.Author, c.Body, fmtTime(c.At), projectID, number).Scan(&c.ID)
		return notFound(err, "This plan has no proposal %d.", number)
	})
	return c, err
}

// OpenProposals counts a project's open proposals. Errors: none of its
// own.
func (db *Proposals) OpenProposals(ctx context.Context, projectID int64) (int, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM proposals WHERE project_id = ? AND state = 'open'`, projectID).Scan(&n)
	return n, err
}
