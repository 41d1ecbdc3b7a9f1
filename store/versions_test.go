package store

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"siteplan/site"
)

func titles(list []site.DiffEntry) []string {
	var out []string
	for _, e := range list {
		out = append(out, e.Title)
	}
	return out
}

// TestVersionsCompareRestore names a version, changes the plan in every
// way a comparison reports, and checks the comparison, a restore (which
// gives back the version to the ids, links and comments) and its undo.
func TestVersionsCompareRestore(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	c := site.Comment{ProjectID: pid, PageID: ids["Café & \"Bar\" <b>"], Author: "Client", Body: "Keep the café"}
	if err := db.Comments.AddComment(ctx, &c, 0); err != nil {
		t.Fatal(err)
	}
	v1, err := db.History.CreateVersion(anna, pid, " Kickoff ")
	if err != nil {
		t.Fatal(err)
	}
	if v1.Number != 1 || v1.Name != "Kickoff" || v1.PageCount != 12 || v1.Author != "Anna" {
		t.Errorf("got version %+v", v1)
	}
	atKickoff := planState(t, db, pid)

	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.Pages.MovePage(anna, ids["Pricing"], ids["About us"], "", 0))
	_, err = db.Pages.RenamePage(anna, ids["Pricing"], "Plans", 1)
	must(err)
	_, err = db.Pages.DeletePage(anna, ids["Products"])
	must(err)
	_, err = db.Pages.RenamePage(anna, ids["About us"], "Company", 1)
	must(err)
	careers := site.NewPage("Careers")
	careers.ProjectID, careers.ParentID = pid, ids["Home"]
	must(db.Pages.CreatePage(anna, &careers))
	contact, _ := db.Pages.Page(ctx, ids["Contact"])
	contact.Status = "live"
	must(db.Pages.UpdatePage(anna, &contact))
	must(db.Links.AddLink(anna, &site.Link{ProjectID: pid, FromID: careers.ID, ToID: ids["Contact"]}))
	if _, err := db.History.CreateVersion(anna, pid, "Client review 2"); err != nil {
		t.Fatal(err)
	}
	atReview := planState(t, db, pid)

	_, from, fromLinks, err := db.History.Version(ctx, pid, 1)
	must(err)
	_, to, toLinks, err := db.History.Version(ctx, pid, 2)
	must(err)
	cmp := site.Compare(from, to, fromLinks, toLinks)
	check := func(what string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", what, got, want)
		}
	}
	check("added", titles(cmp.Added), []string{"Careers"})
	check("removed", titles(cmp.Removed), []string{"Products", "Café & \"Bar\" <b>"})
	check("moved", titles(cmp.Moved), []string{"Plans"})
	check("renamed", titles(cmp.Renamed), []string{"Company", "Plans"})
	check("url changed", titles(cmp.URLChanged), []string{"Company", "Plans", "Team"})
	check("changed", titles(cmp.Changed), []string{"Company", "Plans", "Contact"}) // slugs follow titles
	if m := cmp.Moved[0]; m.From != "Home › Products" || m.To != "Home › Company" {
		t.Errorf("moved from %q to %q", m.From, m.To)
	}
	if len(cmp.LinksAdded) != 1 || cmp.LinksAdded[0].FromTitle != "Careers" {
		t.Errorf("links added: %+v", cmp.LinksAdded)
	}
	if len(cmp.LinksRemoved) != 0 { // Pricing moved out before Products went: its links stay
		t.Errorf("links removed: %+v", cmp.LinksRemoved)
	}

	ch, err := db.History.RestoreVersion(anna, pid, 1)
	must(err)
	if ch.Summary != "restored version 1 “Kickoff”" {
		t.Errorf("summary %q", ch.Summary)
	}
	sameState(t, "after restoring version 1", planState(t, db, pid), atKickoff)
	if _, err := db.History.Undo(anna, pid); err != nil {
		t.Fatal(err)
	}
	sameState(t, "after undoing the restore", planState(t, db, pid), atReview)
	vs, err := db.History.Versions(ctx, pid)
	must(err)
	if len(vs) != 2 || vs[0].Name != "Client review 2" || vs[1].Name != "Kickoff" {
		t.Errorf("versions: %+v", vs)
	}
	_, err = db.History.CreateVersion(anna, pid, "  ")
	wantCode(t, err, site.EInvalid, "a version without a name")
	_, _, _, err = db.History.Version(ctx, pid, 9)
	wantCode(t, err, site.ENotFound, "version 9")
}

// TestRestoreDeletedAfterLaterChanges brings a deleted branch back from
// the history after others changed the plan: same ids, links, comments.
func TestRestoreDeletedAfterLaterChanges(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	pid, ids, anna, bob := acmeFor(t, db)
	c := site.Comment{ProjectID: pid, PageID: ids["Pricing"], Author: "Client", Body: "Too expensive?"}
	if err := db.Comments.AddComment(ctx, &c, 0); err != nil {
		t.Fatal(err)
	}
	before := planState(t, db, pid)
	if _, err := db.Pages.DeletePage(anna, ids["Products"]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pages.RenamePage(bob, ids["Contact"], "Get in touch", 1); err != nil {
		t.Fatal(err)
	}
	hist, err := db.History.History(ctx, pid, 0, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) < 2 || hist[0].Sentence() != "Bob renamed “Contact” to “Get in touch”" ||
		hist[1].Sentence() != "Anna deleted “Products” and the 2 pages below it" || !hist[1].Restorable {
		t.Fatalf("history: %+v", hist[:2])
	}
	byPage, _ := db.History.History(ctx, pid, ids["Contact"], 0, 10)
	if len(byPage) != 2 || byPage[0].Verb != "rename" || byPage[1].Verb != "delete" { // the deletion took the link Pricing -> Contact
		t.Errorf("history of Contact: %+v", byPage)
	}
	if _, err := db.History.RestoreDeleted(bob, pid, hist[1].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pages.RenamePage(bob, ids["Contact"], "Contact", 2); err != nil {
		t.Fatal(err)
	}
	sameState(t, "after restoring the branch", planState(t, db, pid), before)
	hist, _ = db.History.History(ctx, pid, 0, 0, 10)
	if hist[1].Sentence() != "Bob restored “Products” and the 2 pages below it" || hist[3].Restorable {
		t.Errorf("history after: %q, restorable %v", hist[1].Sentence(), hist[3].Restorable)
	}
	_, err = db.History.RestoreDeleted(bob, pid, hist[3].ID)
	wantCode(t, err, site.EConflict, "restoring twice")
}

// TestApprovals: a client signs off a version whole or one branch; a
// later change to the branch shows as changed since, and only there.
func TestApprovals(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	if _, err := db.History.CreateVersion(anna, pid, "Kickoff"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{0, ids["About us"], ids["Products"]} {
		if _, err := db.History.Approve(ctx, pid, 1, id, " Carla Client "); err != nil {
			t.Fatal(err)
		}
	}
	_, err := db.History.Approve(ctx, pid, 1, ids["Home"], "")
	wantCode(t, err, site.EInvalid, "no name")
	_, err = db.History.Approve(ctx, pid, 1, 999999, "Carla")
	wantCode(t, err, site.ENotFound, "a page not in the version")
	changed := func() []bool {
		vs, err := db.History.Versions(ctx, pid)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.History.MarkChanged(ctx, pid, vs); err != nil {
			t.Fatal(err)
		}
		var out []bool
		for _, a := range vs[0].Approvals {
			out = append(out, a.ChangedSince)
		}
		return out
	}
	if got := changed(); !slices.Equal(got, []bool{false, false, false}) {
		t.Errorf("right after approval: %v", got)
	}
	if _, err := db.Pages.RenamePage(anna, ids["Team"], "People", 1); err != nil {
		t.Fatal(err)
	}
	if got := changed(); !slices.Equal(got, []bool{true, true, false}) {
		t.Errorf("after renaming Team (below About us): %v, want whole and About us changed", got)
	}
	vs, _ := db.History.Versions(ctx, pid)
	if a := vs[0].Approvals[1]; a.Name != "Carla Client" || a.What() != "“About us” and the pages below it" {
		t.Errorf("approval: %+v", a)
	}
}

// TestRestoreKeepsOrder: restoring a version, and undoing the restore,
// give back each list of siblings in its exact order, at positions
// 0..n-1, whatever was deleted, duplicated, renamed or moved between; a
// comparison counts a change of order. The edits are drawn at random
// (seeded) after the case the issue found.
func TestRestoreKeepsOrder(t *testing.T) {
	ctx := context.Background()
	scenario := func(t *testing.T, db *Store, anna context.Context, ids map[string]int64) {
		if _, err := db.Pages.DeletePage(anna, ids["Later"]); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Pages.DuplicatePage(anna, ids["About us"]); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Pages.RenamePage(anna, ids["Contact"], "Get in touch", 1); err != nil {
			t.Fatal(err)
		}
	}
	random := func(seed uint64) func(t *testing.T, db *Store, anna context.Context, ids map[string]int64) {
		return func(t *testing.T, db *Store, anna context.Context, ids map[string]int64) {
			rnd := rand.New(rand.NewPCG(seed, 31))
			for range 12 {
				tr, err := db.Pages.Tree(ctx, ids["@project"])
				if err != nil {
					t.Fatal(err)
				}
				var pages []*site.Page
				tr.Walk(func(p *site.Page, _ int) bool { pages = append(pages, p); return true })
				p := pages[rnd.IntN(len(pages))]
				switch rnd.IntN(5) {
				case 0:
					if p.ParentID != 0 {
						_, err = db.Pages.DeletePage(anna, p.ID)
					}
				case 1:
					_, err = db.Pages.DuplicatePage(anna, p.ID)
				case 2:
					_, err = db.Pages.RenamePage(anna, p.ID, p.Title+" 2", p.Version)
				case 3:
					to := pages[rnd.IntN(len(pages))]
					err = db.Pages.MovePage(anna, p.ID, to.ParentID, to.Placement, rnd.IntN(4))
				case 4:
					n := site.NewPage("New " + strconv.Itoa(rnd.IntN(1000)))
					n.ProjectID, n.ParentID, n.Position = ids["@project"], p.ID, rnd.IntN(3)
					err = db.Pages.CreatePage(anna, &n)
				}
				if err != nil && site.ErrorCode(err) == site.EInternal {
					t.Fatal(err)
				}
				checkPositions(t, db)
			}
		}
	}
	cases := map[string]func(t *testing.T, db *Store, anna context.Context, ids map[string]int64){"delete, duplicate, rename": scenario}
	for seed := range uint64(30) {
		cases["random "+strconv.FormatUint(seed, 10)] = random(seed)
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			db := openTest(t)
			pid, ids, anna, _ := acmeFor(t, db)
			ids["@project"] = pid
			if _, err := db.History.CreateVersion(anna, pid, "Kickoff"); err != nil {
				t.Fatal(err)
			}
			atKickoff := planState(t, db, pid)
			edit(t, db, anna, ids)
			edited := planState(t, db, pid)
			if edited == atKickoff {
				t.Skip("the edits changed nothing")
			}
			if _, err := db.History.RestoreVersion(anna, pid, 1); err != nil {
				t.Fatal(err)
			}
			sameState(t, "after restoring version 1", planState(t, db, pid), atKickoff)
			_, v1, v1Links, err := db.History.Version(ctx, pid, 1)
			if err != nil {
				t.Fatal(err)
			}
			now, _ := db.Pages.Tree(ctx, pid)
			nowLinks, _ := db.Links.Links(ctx, pid)
			if c := site.Compare(v1, now, v1Links, nowLinks); !c.Empty() {
				t.Errorf("after restoring, the plan differs from version 1: %+v", c)
			}
			if _, err := db.History.Undo(anna, pid); err != nil {
				t.Fatal(err)
			}
			sameState(t, "after undoing the restore", planState(t, db, pid), edited)
		})
	}
}

// TestSignOffWho: a sign-off records who signed. A member of the team
// signs as their account, whatever name is typed, and is shown as a
// member; a visitor through a link is shown with the link's label. A
// signer's new sign-off of the same scope replaces the old one, so a
// link holds one a scope however often it signs; the team voids one,
// which stays listed and counts no more.
func TestSignOffWho(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	if _, err := db.History.CreateVersion(anna, pid, "Kickoff"); err != nil {
		t.Fatal(err)
	}
	link := site.ShareLink{ProjectID: pid, Role: site.ShareComment, Label: "Client review"}
	if _, err := db.Sharing.CreateShareLink(ctx, &link); err != nil {
		t.Fatal(err)
	}
	client := site.WithViewer(ctx, site.Viewer{Share: true, ShareLinkID: link.ID, Access: site.AccessComment})
	for range 50 {
		if _, err := db.History.Approve(client, pid, 1, 0, "Olive Owner"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.History.Approve(client, pid, 1, ids["About us"], "Carla"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.Approve(anna, pid, 1, 0, "Carla Client"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.Approve(anna, pid, 1, 0, "Carla Client"); err != nil {
		t.Fatal(err)
	}
	list := func() []string {
		vs, err := db.History.Versions(ctx, pid)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, a := range vs[0].Approvals {
			s := a.By() + ": " + a.What()
			if a.Voided() {
				s += " (voided by " + a.VoidedBy + ")"
			}
			out = append(out, s)
		}
		return out
	}
	want := []string{
		"Olive Owner via link “Client review”: the whole plan",
		"Carla via link “Client review”: “About us” and the pages below it",
		"Anna (team member): the whole plan",
	}
	if got := list(); !slices.Equal(got, want) {
		t.Errorf("sign-offs:\n%q\nwant\n%q", got, want)
	}
	vs, _ := db.History.Versions(ctx, pid)
	if err := db.History.VoidApproval(anna, pid, 1, vs[0].Approvals[0].ID); err != nil {
		t.Fatal(err)
	}
	want[0] += " (voided by Anna)"
	if got := list(); !slices.Equal(got, want) {
		t.Errorf("after voiding:\n%q\nwant\n%q", got, want)
	}
	wantCode(t, db.History.VoidApproval(anna, pid, 1, vs[0].Approvals[0].ID), site.ENotFound, "voiding twice")
	wantCode(t, db.History.VoidApproval(anna, pid, 2, vs[0].Approvals[1].ID), site.ENotFound, "voiding through another version")
	// A new sign-off through the link stands beside the voided one.
	if _, err := db.History.Approve(client, pid, 1, 0, "Carla Client"); err != nil {
		t.Fatal(err)
	}
	if got := list(); len(got) != 4 || got[3] != "Carla Client via link “Client review”: the whole plan" {
		t.Errorf("after signing again: %q", got)
	}
}
