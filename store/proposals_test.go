package store

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"siteplan/site"
)

// treeShape renders a tree as "A(B C) D".
func treeShape(tr *site.Tree) string {
	var render func(id int64) string
	render = func(id int64) string {
		var parts []string
		for _, p := range tr.Children(id) {
			s := p.Title
			if kids := render(p.ID); kids != "" {
				s += "(" + kids + ")"
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, " ")
	}
	return render(0)
}

func ptr[T any](v T) *T { return &v }

// homeProject creates a project whose home page has the outline below it.
func homeProject(t *testing.T, db *Store, outline string) (int64, map[string]int64) {
	t.Helper()
	ctx := context.Background()
	p := &site.Project{TeamID: 1, Name: "Test", BaseURL: "https://example.com/"}
	if err := db.Projects.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	tr, err := db.Pages.Tree(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	items, err := site.ParseOutline(outline)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pages.InsertOutline(ctx, p.ID, tr.Roots(site.PlacementMain)[0].ID, items); err != nil {
		t.Fatal(err)
	}
	if tr, err = db.Pages.Tree(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	tr.Walk(func(pg *site.Page, _ int) bool { ids[pg.Title] = pg.ID; return true })
	return p.ID, ids
}

// shopProposal proposes, on the plan "Home(Products(Widgets Gadgets)
// About Contact)", a shop above Widgets, About renamed, Contact gone, a
// page under About and a link.
func shopProposal(t *testing.T, db *Store, who context.Context) (int64, map[string]int64, site.Proposal) {
	t.Helper()
	pid, ids := homeProject(t, db, "Products\n  Widgets\n  Gadgets\nAbout\nContact")
	doc, err := db.Projects.Document(context.Background(), pid)
	if err != nil {
		t.Fatal(err)
	}
	home := "#" + itoa(ids["Home"])
	err = doc.ApplyOps([]site.ProposalOp{
		{Op: "add", Key: "shop", Parent: &home, Position: ptr(0), Title: ptr("Shop")},
		{Op: "move", Page: itoa(ids["Widgets"]), Parent: ptr("shop")},
		{Op: "update", Page: "p" + itoa(ids["About"]), Title: ptr("Company")},
		{Op: "delete", Page: "#" + itoa(ids["Contact"])},
		{Op: "add", Parent: ptr("#" + itoa(ids["About"])), Title: ptr("Team")},
		{Op: "link", From: "shop", To: "#" + itoa(ids["About"]), Label: "who we are"},
	})
	if err != nil {
		t.Fatal(err)
	}
	prop, err := db.Proposals.Propose(who, pid, site.ProposalDraft{Title: " Shop first ", Source: site.SourceMCP, Doc: doc})
	if err != nil {
		t.Fatal(err)
	}
	return pid, ids, prop
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

const (
	shopBefore = "Home(Products(Widgets Gadgets) About Contact)"
	shopAfter  = "Home(Shop(Widgets) Products(Gadgets) Company(Team))"
)

// TestProposalAccepted proposes changes, shows the plan as they would
// make it without touching it, and accepts them as one change that an
// undo takes back.
func TestProposalAccepted(t *testing.T) {
	db := openTest(t)
	_, _, anna, bob := acmeFor(t, db)
	pid, _, prop := shopProposal(t, db, anna)
	if prop.Number != 1 || prop.Title != "Shop first" || prop.State != site.ProposalOpen || prop.Author != "Anna" || prop.Pages != 5 || prop.Links != 1 {
		t.Errorf("got proposal %+v", prop)
	}
	if got := shape(t, db, pid); got != shopBefore {
		t.Fatalf("proposing changed the plan: %s", got)
	}
	got, plans, err := db.Proposals.Proposal(context.Background(), pid, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s := treeShape(plans.Proposed); s != shopAfter {
		t.Errorf("proposed plan %s, want %s", s, shopAfter)
	}
	if len(plans.ProposedLinks) != 1 || plans.ProposedLinks[0].Label != "who we are" {
		t.Errorf("proposed links %+v", plans.ProposedLinks)
	}
	if got.Source != site.SourceMCP {
		t.Errorf("source %q", got.Source)
	}
	if _, err := db.Proposals.CommentOnProposal(bob, pid, 1, " Looks right "); err != nil {
		t.Fatal(err)
	}
	ch, err := db.Proposals.AcceptProposal(bob, pid, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Summary != "accepted proposal 1 “Shop first”" {
		t.Errorf("summary %q", ch.Summary)
	}
	if s := shape(t, db, pid); s != shopAfter {
		t.Errorf("accepted plan %s, want %s", s, shopAfter)
	}
	after, _, _ := db.Proposals.Proposal(context.Background(), pid, 1)
	if after.State != site.ProposalAccepted || after.DecidedBy != "Bob" || len(after.Comments) != 1 || after.Comments[0].Body != "Looks right" {
		t.Errorf("after acceptance %+v", after)
	}
	if _, err := db.Proposals.AcceptProposal(bob, pid, 1, 0); site.ErrorCode(err) != site.EConflict {
		t.Errorf("accepted twice: %v", err)
	}
	if _, err := db.History.Undo(bob, pid); err != nil {
		t.Fatal(err)
	}
	if s := shape(t, db, pid); s != shopBefore {
		t.Errorf("after undo %s, want %s", s, shopBefore)
	}
	if _, err := db.History.Redo(bob, pid); err != nil {
		t.Fatal(err)
	}
	if s := shape(t, db, pid); s != shopAfter {
		t.Errorf("after redo %s, want %s", s, shopAfter)
	}
}

// TestProposalByBranch accepts a proposal a section at a time: each part
// one change, the proposal open with the rest until nothing is left.
func TestProposalByBranch(t *testing.T) {
	db := openTest(t)
	_, _, anna, bob := acmeFor(t, db)
	pid, ids, _ := shopProposal(t, db, anna)
	_, plans, err := db.Proposals.Proposal(context.Background(), pid, 1)
	if err != nil {
		t.Fatal(err)
	}
	cmp := site.Compare(plans.Now, plans.Proposed, plans.NowLinks, plans.ProposedLinks)
	var branches []string
	var shop int64
	for _, b := range site.ProposalBranches(site.Union(plans.Now, plans.Proposed), cmp.Marks()) {
		branches = append(branches, b.Title)
		if b.Title == "Shop" {
			shop = b.ID
		}
	}
	if want := []string{"Shop", "Company", "Contact"}; !slices.Equal(branches, want) {
		t.Errorf("branches %q, want %q", branches, want)
	}
	if shop >= 0 {
		t.Errorf("a new page's id %d, want negative", shop)
	}
	if _, err := db.Proposals.AcceptProposal(bob, pid, 1, shop); err != nil {
		t.Fatal(err)
	}
	if s, want := shape(t, db, pid), "Home(Shop(Widgets) Products(Gadgets) About Contact)"; s != want {
		t.Errorf("after the shop %s, want %s", s, want)
	}
	p, _, _ := db.Proposals.Proposal(context.Background(), pid, 1)
	if p.State != site.ProposalOpen || !slices.Equal(p.Accepted, []string{"Shop"}) || p.Links != 0 {
		t.Errorf("after one branch %+v", p)
	}
	if _, err := db.Proposals.AcceptProposal(bob, pid, 1, ids["Gadgets"]); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("a branch without changes: %v", err)
	}
	if _, err := db.Proposals.AcceptProposal(bob, pid, 1, 0); err != nil {
		t.Fatal(err)
	}
	if s := shape(t, db, pid); s != shopAfter {
		t.Errorf("accepted plan %s, want %s", s, shopAfter)
	}
	links, _ := db.Links.Links(context.Background(), pid)
	if len(links) != 1 || links[0].FromTitle != "Shop" || links[0].ToTitle != "Company" {
		t.Errorf("links %+v", links)
	}
}

// TestProposalConflict refuses to accept a proposal whose page someone
// changed since in a field it changes, naming who, and writes nothing.
func TestProposalConflict(t *testing.T) {
	db := openTest(t)
	_, _, anna, bob := acmeFor(t, db)
	pid, ids, _ := shopProposal(t, db, anna)
	if _, err := db.Pages.RenamePage(bob, ids["About"], "Who we are", 1); err != nil {
		t.Fatal(err)
	}
	before := shape(t, db, pid)
	_, err := db.Proposals.AcceptProposal(anna, pid, 1, 0)
	if site.ErrorCode(err) != site.EConflict || !strings.Contains(site.ErrorMessage(err), "Bob") {
		t.Fatalf("got %v, want a conflict naming Bob", err)
	}
	if s := shape(t, db, pid); s != before {
		t.Errorf("a refused acceptance wrote: %s", s)
	}
	if err := db.Proposals.RejectProposal(anna, pid, 1); err != nil {
		t.Fatal(err)
	}
	if p, _, _ := db.Proposals.Proposal(context.Background(), pid, 1); p.State != site.ProposalRejected || p.DecidedBy != "Anna" {
		t.Errorf("rejected: %+v", p)
	}
}

// TestProposalRefusals: a proposal that changes nothing, a typed URL
// two pages would share, and a reference to no page are refused.
func TestProposalRefusals(t *testing.T) {
	db := openTest(t)
	_, _, anna, _ := acmeFor(t, db)
	pid, ids := homeProject(t, db, "About")
	doc, _ := db.Projects.Document(context.Background(), pid)
	if _, err := db.Proposals.Propose(anna, pid, site.ProposalDraft{Title: "Nothing", Doc: doc}); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("a proposal of nothing: %v", err)
	}
	home := "#" + itoa(ids["Home"])
	if err := doc.ApplyOps([]site.ProposalOp{{Op: "add", Parent: &home, Title: ptr("About"), Slug: ptr("about")}}); err != nil {
		t.Fatal(err)
	}
	_, err := db.Proposals.Propose(anna, pid, site.ProposalDraft{Title: "Twice", Doc: doc})
	if site.ErrorCode(err) != site.EInvalid || !strings.Contains(site.ErrorMessage(err), "already has") {
		t.Errorf("a shared URL: %v", err)
	}
	err = doc.ApplyOps([]site.ProposalOp{{Op: "move", Page: "#999999", Parent: &home}})
	if site.ErrorCode(err) != site.EInvalid || !strings.Contains(site.ErrorMessage(err), `operations[0] (move): the plan has no page "#999999"`) {
		t.Errorf("no such page: %v", err)
	}
	if _, err := db.Proposals.Propose(anna, pid, site.ProposalDraft{Title: " ", Doc: doc}); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("no title: %v", err)
	}
}

// TestReplacePlan makes the plan a document as one change: pages kept by
// key, added and deleted, the settings the document's; an undo takes it
// back.
func TestReplacePlan(t *testing.T) {
	db := openTest(t)
	_, _, anna, _ := acmeFor(t, db)
	pid, ids := homeProject(t, db, "Products\n  Widgets\nAbout")
	ctx := context.Background()
	doc, _ := db.Projects.Document(ctx, pid)
	doc.Project.Name = "Renamed"
	about := "#" + itoa(ids["About"])
	if err := doc.ApplyOps([]site.ProposalOp{
		{Op: "delete", Page: itoa(ids["Products"])},
		{Op: "add", Parent: &about, Title: ptr("Jobs")},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.ReplacePlan(anna, pid, doc, 0); err != nil {
		t.Fatal(err)
	}
	if s, want := shape(t, db, pid), "Home(About(Jobs))"; s != want {
		t.Errorf("replaced plan %s, want %s", s, want)
	}
	pr, _ := db.Projects.Project(ctx, pid)
	if pr.Name != "Renamed" {
		t.Errorf("name %q", pr.Name)
	}
	if _, err := db.History.Undo(anna, pid); err != nil {
		t.Fatal(err)
	}
	if s, want := shape(t, db, pid), "Home(Products(Widgets) About)"; s != want {
		t.Errorf("after undo %s, want %s", s, want)
	}
}
