package web

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"siteplan/internal/sitegen"
	"siteplan/site"
)

// TestUndoRedoHTTP: the HTTP contract. An editor deletes a branch, and
// POST /undo brings it back with its ids and links; /redo deletes it
// again; a conflict is 409 naming who changed what, and nothing to undo
// is 422.
func TestUndoRedoHTTP(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	project := "/projects/" + itoa(pid)
	products, pricing := ids["Products"], ids["Pricing"]
	wantStatus(t, c.do("DELETE", pagePath(pid, products), nil, true), http.StatusOK, "delete Products")
	if _, err := c.db.Pages.Page(ctx, pricing); site.ErrorCode(err) != site.ENotFound {
		t.Fatalf("Pricing is still there: %v", err)
	}
	rec := c.do("POST", project+"/undo", nil, true)
	wantStatus(t, rec, http.StatusOK, "undo")
	if got := doc(t, rec).Find("#undo-result").Text(); got != "Undone: Olive Owner deleted “Products” and the 2 pages below it" {
		t.Errorf("undo said %q", got)
	}
	out, in, err := c.db.Links.PageLinks(ctx, pricing)
	if err != nil || len(out) != 1 || len(in) != 1 || out[0].ToTitle != "Contact" || in[0].FromTitle != "Home" {
		t.Errorf("Pricing came back with links out %v, in %v (%v), want to Contact and from Home", out, in, err)
	}
	if pg, err := c.db.Pages.Page(ctx, pricing); err != nil || pg.ParentID != products {
		t.Errorf("Pricing is back as %+v (%v), under another id or parent", pg, err)
	}
	wantStatus(t, c.do("POST", project+"/redo", nil, true), http.StatusOK, "redo")
	if _, err := c.db.Pages.Page(ctx, products); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("redo left Products: %v", err)
	}
	wantStatus(t, c.do("POST", project+"/undo", nil, true), http.StatusOK, "undo again")
	rec = c.do("POST", project+"/undo", nil, true)
	wantStatus(t, rec, http.StatusUnprocessableEntity, "nothing left to undo")
	if !strings.Contains(rec.Body.String(), "nothing of yours to undo") {
		t.Errorf("nothing to undo says: %s", rec.Body.String())
	}

	// Ed renames a page, Olive renames it again: Ed's undo is refused.
	addUser(t, c.db, "ed@test.example", "Ed Editor", "1", site.RoleEditor)
	ed := anonymous(t, c.srv, c.db)
	ed.login("ed@test.example")
	pg, _ := c.db.Pages.Page(ctx, ids["Contact"])
	wantStatus(t, ed.do("PATCH", pagePath(pid, pg.ID, "title"), url.Values{"title": {"Get in touch"}, "version": {itoa(pg.Version)}}, true), http.StatusOK, "Ed renames")
	pg, _ = c.db.Pages.Page(ctx, ids["Contact"])
	wantStatus(t, c.do("PATCH", pagePath(pid, pg.ID, "title"), url.Values{"title": {"Talk to us"}, "version": {itoa(pg.Version)}}, true), http.StatusOK, "Olive renames")
	rec = ed.do("POST", project+"/undo", nil, true)
	wantStatus(t, rec, http.StatusConflict, "Ed's undo after Olive's rename")
	if msg := doc(t, rec).Find(".alert-error span").Text(); msg != "Nothing was undone: “Talk to us” has changed since: Olive Owner renamed “Get in touch” to “Talk to us”." {
		t.Errorf("conflict says %q", msg)
	}
	if pg, _ := c.db.Pages.Page(ctx, ids["Contact"]); pg.Title != "Talk to us" {
		t.Errorf("the refused undo changed the title to %q", pg.Title)
	}
}

// TestHistoryPanel: the panel lists changes in words, newest first, per
// page too; a deleted branch is restored from it after later changes.
func TestHistoryPanel(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	project := "/projects/" + itoa(pid)
	wantStatus(t, c.do("POST", pagePath(pid, ids["Pricing"], "move"), url.Values{"parent": {itoa(ids["About us"])}, "position": {"0"}}, true), http.StatusOK, "move") // with its URL notice
	wantStatus(t, c.do("DELETE", pagePath(pid, ids["Products"]), nil, true), http.StatusOK, "delete")
	pg, _ := c.db.Pages.Page(context.Background(), ids["Team"])
	wantStatus(t, c.do("PATCH", pagePath(pid, pg.ID, "title"), url.Values{"title": {"People"}, "version": {itoa(pg.Version)}}, true), http.StatusOK, "rename")

	rec := c.do("GET", project+"/history", nil, true)
	wantStatus(t, rec, http.StatusOK, "history")
	d := doc(t, rec)
	var got []string
	d.Find("#history li.change .change-what").Each(func(_ int, s *goquery.Selection) { got = append(got, s.Text()) })
	want := []string{
		"Olive Owner renamed “Team” to “People”",
		"Olive Owner deleted “Products” and the page below it",
		"Olive Owner moved “Pricing” under “About us”",
	}
	if len(got) < 3 || strings.Join(got[:3], "\n") != strings.Join(want, "\n") {
		t.Fatalf("history:\n%s\nwant first:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	restore := d.Find("#history li.change button[hx-post$='/restore']")
	if restore.Length() != 1 {
		t.Fatalf("%d restore buttons, want one (the deletion)", restore.Length())
	}
	rec = c.do("GET", project+"/history?page="+itoa(ids["Pricing"]), nil, true)
	if n := doc(t, rec).Find("#history li.change").Length(); n != 1 || !strings.Contains(rec.Body.String(), "History of “Pricing”") {
		t.Errorf("the history of Pricing has %d changes, want its move", n)
	}
	path, _ := restore.Attr("hx-post")
	rec = c.do("POST", path, nil, true)
	wantStatus(t, rec, http.StatusOK, "restore the branch")
	if got := doc(t, rec).Find("#history .alert-ok").Text(); got != "Olive Owner restored “Products” and the page below it." {
		t.Errorf("the notice says %q", got)
	}
	if _, err := c.db.Pages.Page(context.Background(), ids["Products"]); err != nil {
		t.Errorf("Products is not back: %v", err)
	}
	if doc(t, rec).Find("#history li.change button[hx-post$='/restore']").Length() != 0 {
		t.Errorf("a restored deletion still offers Restore")
	}
	wantStatus(t, c.do("POST", path, nil, true), http.StatusConflict, "restore twice")
}

// TestVersionsCompareSignOff: versions are created and compared in the
// browser's pages; a client with a comment link approves a version and a
// branch, a view link cannot; a later change shows as changed since.
func TestVersionsCompareSignOff(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	project := "/projects/" + itoa(pid)
	rec := c.do("POST", project+"/versions", url.Values{"name": {""}}, false)
	wantStatus(t, rec, http.StatusUnprocessableEntity, "a version without a name")
	if doc(t, rec).Find("#err-name").Length() != 1 {
		t.Errorf("no field error for the name")
	}
	wantStatus(t, c.do("POST", project+"/versions", url.Values{"name": {"Kickoff"}}, false), http.StatusSeeOther, "create version 1")
	careers := site.NewPage("Careers")
	careers.ProjectID, careers.ParentID = pid, ids["Home"]
	if err := c.db.Pages.CreatePage(ctx, &careers); err != nil {
		t.Fatal(err)
	}
	if _, err := c.db.Pages.RenamePage(ctx, ids["Pricing"], "Plans", 1); err != nil {
		t.Fatal(err)
	}

	rec = c.do("GET", project+"/compare?from=1&to=now", nil, false)
	wantStatus(t, rec, http.StatusOK, "compare")
	d := doc(t, rec)
	body := d.Find(".compare-list").Text()
	for _, w := range []string{"Added (1)", "Careers", "Renamed (1)", "was “Pricing”"} {
		if !strings.Contains(body, w) {
			t.Errorf("the comparison lacks %q: %s", w, body)
		}
	}
	node := func(id int64) string {
		return d.Find(".diagram-canvas svg").Find("#p" + itoa(id) + ", #a_p" + itoa(id)).Text()
	}
	if !strings.Contains(node(careers.ID), "added") || !strings.Contains(node(ids["Pricing"]), "renamed") ||
		!strings.Contains(d.Find(".diagram-canvas svg #legend").Text(), "Change") {
		t.Errorf("the comparison's diagram does not mark added and renamed pages in words with a legend: %q, %q", node(careers.ID), node(ids["Pricing"]))
	}
	rec = c.do("GET", project+"/compare/diagram/pdf?from=1&to=now", nil, false)
	wantStatus(t, rec, http.StatusOK, "the comparison as PDF")
	if !strings.HasPrefix(rec.Body.String(), "%PDF") {
		t.Errorf("not a PDF")
	}
	keepFile(t, "compare.pdf", rec.Body.Bytes())
	rec = c.do("GET", project+"/compare/diagram/png?from=1&to=now", nil, false)
	wantStatus(t, rec, http.StatusOK, "the comparison as PNG")
	if rec.Header().Get("Content-Type") != "image/png" || !strings.HasPrefix(rec.Body.String(), "\x89PNG") {
		t.Errorf("not a PNG: %s", rec.Header().Get("Content-Type"))
	}

	client, reader := c.visitor(pid, site.ShareComment), c.visitor(pid, site.ShareView)
	rec = client.do("GET", project+"/versions/1", nil, false)
	wantStatus(t, rec, http.StatusOK, "the version, to the client")
	if doc(t, rec).Find("form.signoff-form").Length() != 1 {
		t.Fatalf("a comment link sees no sign-off form")
	}
	if doc(t, reader.do("GET", project+"/versions/1", nil, false)).Find("form.signoff-form").Length() != 0 {
		t.Errorf("a view link sees the sign-off form")
	}
	wantStatus(t, reader.do("POST", project+"/versions/1/approve", url.Values{"page": {"0"}, "name": {"Vic"}}, false), http.StatusForbidden, "a view link approves")
	rec = client.do("POST", project+"/versions/1/approve", url.Values{"page": {"0"}, "name": {" "}}, false)
	wantStatus(t, rec, http.StatusUnprocessableEntity, "approve without a name")
	wantStatus(t, client.do("POST", project+"/versions/1/approve", url.Values{"page": {"0"}, "name": {"Carla Client"}}, false), http.StatusSeeOther, "approve the whole plan")
	wantStatus(t, client.do("POST", project+"/versions/1/approve", url.Values{"page": {itoa(ids["About us"])}, "name": {"Carla Client"}}, false), http.StatusSeeOther, "approve a branch")
	signoffs := func() []string {
		var out []string
		doc(t, c.do("GET", project+"/versions", nil, false)).Find(".version .signoff").Each(func(_ int, s *goquery.Selection) {
			out = append(out, strings.Join(strings.Fields(s.Text()), " "))
		})
		return out
	}
	// The plan changed before the sign-off, not since: the client signed
	// what they saw.
	if got := signoffs(); len(got) != 2 || strings.Contains(strings.Join(got, " "), "changed since") {
		t.Errorf("sign-offs just made: %q, want two, neither changed since approval", got)
	}
	// A change the client sees outside About us, and one inside it that
	// only the team sees (who writes the page).
	if _, err := c.db.Pages.RenamePage(ctx, careers.ID, "Jobs", careers.Version); err != nil {
		t.Fatal(err)
	}
	about, _ := c.db.Pages.Page(ctx, ids["About us"])
	about.Assignee, about.Notes = "Mats", "INTERNAL: margin 12%"
	if err := c.db.Pages.UpdatePage(ctx, &about); err != nil {
		t.Fatal(err)
	}
	if signoffs := signoffs(); len(signoffs) != 2 || !strings.Contains(signoffs[0], "Carla Client via a share link approved the whole plan") || !strings.Contains(signoffs[0], "changed since approval") ||
		!strings.Contains(signoffs[1], "approved “About us” and the pages below it") || strings.Contains(signoffs[1], "changed since") {
		t.Errorf("sign-offs on the versions page: %q (the plan changed, the About us branch did not for the client)", signoffs)
	}
	if n := doc(t, c.do("GET", project+"/history", nil, true)).Find("#history .signoff").Length(); n != 2 {
		t.Errorf("the History panel shows %d sign-offs, want 2", n)
	}
	rec = c.do("GET", project+"/versions/1/diagram/pdf", nil, false)
	wantStatus(t, rec, http.StatusOK, "the version as PDF")
	keepFile(t, "version.pdf", rec.Body.Bytes())
	if text := pdfText(t, rec.Body.Bytes()); !strings.Contains(text, "Approved by Carla Client via a share link") || !strings.Contains(text, "Version 1 “Kickoff”") {
		t.Errorf("the version's PDF title block lacks the sign-off: %.500s", text)
	}

	// A member of the team signs as themself, whatever name they type,
	// and never passes for a client; the team voids a sign-off, which
	// stays listed, voided, and leaves the PDF.
	if doc(t, c.do("GET", project+"/versions/1", nil, false)).Find("#signing-as").Text() != "You sign as Olive Owner, a member of the team." {
		t.Errorf("the sign-off form does not say a member signs as themself")
	}
	wantStatus(t, c.do("POST", project+"/versions/1/approve", url.Values{"page": {"0"}, "name": {"Carla Client"}}, false), http.StatusSeeOther, "a member approves")
	d = doc(t, c.do("GET", project+"/versions/1", nil, false))
	mine := d.Find(".signoff.signoff-member")
	if got := strings.Join(strings.Fields(mine.Text()), " "); mine.Length() != 1 || !strings.HasPrefix(got, "✔ Olive Owner (team member) approved the whole plan") {
		t.Errorf("the member's sign-off: %q", got)
	}
	void, ok := d.Find(".signoff:not(.signoff-member) form").First().Attr("action")
	if !ok {
		t.Fatal("no void form on the client's sign-off")
	}
	wantStatus(t, client.do("POST", void, url.Values{}, false), http.StatusForbidden, "a client voids")
	wantStatus(t, c.do("POST", void, url.Values{}, false), http.StatusSeeOther, "the team voids")
	wantStatus(t, c.do("POST", void, url.Values{}, false), http.StatusNotFound, "voiding twice")
	d = doc(t, c.do("GET", project+"/versions/1", nil, false))
	if got := d.Find(".signoff-voided").Text(); !strings.Contains(got, "voided by Olive Owner") || !strings.Contains(got, "Carla Client via a share link") {
		t.Errorf("the voided sign-off: %q", got)
	}
	rec = c.do("GET", project+"/versions/1/diagram/pdf", nil, false)
	if text := pdfText(t, rec.Body.Bytes()); strings.Contains(text, "Carla Client via a share link approved the whole plan") || !strings.Contains(text, "Approved by Olive Owner (team member)") {
		t.Errorf("the PDF after voiding: %.600s", text)
	}
}

// pdfText extracts a PDF's text with poppler's pdftotext (installed by
// .ci/run), spaces squashed.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", pdf[:min(20, len(pdf))])
	}
	path := filepath.Join(t.TempDir(), "d.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// keepFile writes a file the test made into $SITEPLAN_SCREENSHOTS, to
// look at.
func keepFile(t *testing.T, name string, b []byte) {
	if dir := os.Getenv("SITEPLAN_SCREENSHOTS"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCompareChangedBranches: a comparison draws the changed pages with
// the pages above them, and counts the rest on their cards, so a big
// plan's changes are readable at fit; "Draw the whole plan" draws every
// page, changes marked.
func TestCompareChangedBranches(t *testing.T) {
	c := newClient(t)
	ctx := context.Background()
	pid, err := c.db.Projects.ImportDocument(ctx, 1, sitegen.Document("Big", 5, 4, 3)) // 1 + 5 + 20 + 60 pages
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.db.History.CreateVersion(ctx, pid, "Kickoff"); err != nil {
		t.Fatal(err)
	}
	tr, err := c.db.Pages.Tree(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	home := tr.Roots(site.PlacementMain)[0]
	section := tr.Children(home.ID)[2]
	topic := tr.Children(section.ID)[1]
	leaf := tr.Children(topic.ID)[0]
	if _, err := c.db.Pages.RenamePage(ctx, leaf.ID, "Renamed leaf", leaf.Version); err != nil {
		t.Fatal(err)
	}
	other := tr.Children(home.ID)[0] // an unchanged section
	project := "/projects/" + itoa(pid)
	cards := func(query string) (map[string]bool, string) {
		t.Helper()
		rec := c.do("GET", project+"/compare?"+query, nil, false)
		wantStatus(t, rec, http.StatusOK, "compare")
		d := doc(t, rec)
		ids := map[string]bool{}
		d.Find(".diagram-canvas svg g.node[id]").Each(func(_ int, s *goquery.Selection) {
			id, _ := s.Attr("id")
			ids[id] = true
		})
		return ids, d.Find(".diagram-canvas").Text() + d.Find(".compare-scope").Text()
	}
	p := func(id int64) string { return "p" + itoa(id) }
	ids, text := cards("from=1&to=now")
	for _, want := range []int64{home.ID, section.ID, topic.ID, leaf.ID} {
		if !ids[p(want)] {
			t.Errorf("the changed branch lacks page %d: drew %v", want, ids)
		}
	}
	if ids[p(other.ID)] || len(ids) != 4 {
		t.Errorf("drew %d cards (%v), want only the changed page and the 3 above it", len(ids), ids)
	}
	if !strings.Contains(text, "pages not shown") || !strings.Contains(text, "Draw the whole plan") {
		t.Errorf("the focused comparison does not say what it leaves out: %q", text)
	}
	ids, text = cards("from=1&to=now&whole=1")
	if len(ids) != tr.Len() || !strings.Contains(text, "Draw only the changed branches") {
		t.Errorf("the whole plan drew %d cards of %d", len(ids), tr.Len())
	}
}
