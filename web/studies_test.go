package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/site"
)

// TestStudyForm: the editor's form makes a study: "Add a task" keeps
// what is typed and adds one, a task without a correct page is refused
// naming it, and the study made shows its link once.
func TestStudyForm(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	p := "/projects/" + itoa(pid)
	d := doc(t, c.do("GET", p+"/treetests/new", nil, false))
	if d.Find(`#f-task-correct-1 option`).Length() == 0 || d.Find(`#f-study-root option`).Length() < 2 {
		t.Fatalf("the form offers no pages: %s", d.Find("main").Text())
	}
	form := url.Values{"name": {"Round 1"}, "version": {"0"}, "tasks": {"1"}, "text-1": {"Where are the prices?"}, "skip": {"1"}}
	form.Set("add", "1")
	d = doc(t, c.do("POST", p+"/treetests", form, false))
	if d.Find(`#f-task-text-1`).Text() != "Where are the prices?" || d.Find(`#f-task-text-2`).Length() != 1 {
		t.Errorf("Add a task: %s", d.Find("form#study-form").Text())
	}
	form.Del("add")
	rec := c.do("POST", p+"/treetests", form, false)
	if d := doc(t, rec); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(d.Find("#study-error").Text(), "Task 1") {
		t.Errorf("no correct page: %d %q", rec.Code, d.Find("#study-error").Text())
	}
	form.Set("correct-1", itoa(ids["Pricing"]))
	form.Set("limit-1", "90")
	form.Set("confidence-1", "1")
	rec = c.do("POST", p+"/treetests", form, false)
	link, _ := doc(t, rec).Find("#study-link").Attr("value")
	if rec.Code != http.StatusCreated || !strings.Contains(link, "/t/") {
		t.Fatalf("created: %d, link %q", rec.Code, link)
	}
	studies, _ := c.db.TreeTests.Studies(context.Background(), pid)
	st, _ := c.db.TreeTests.Study(context.Background(), studies[0].ID)
	if len(st.Tasks) != 1 || st.Tasks[0].TimeLimit != 90 || !st.Tasks[0].Confidence || st.NoSkip || st.Version != 1 {
		t.Errorf("the study kept: %+v", st)
	}
	if d := doc(t, c.do("GET", link[strings.Index(link, "/t/"):], nil, false)); d.Find("#study-main button").Text() != "Start" {
		t.Errorf("the link does not open the study")
	}
}

// TestStudyResultsPage: the results page of scripted participants: each
// figure, where they chose with "mark correct" on a wrong page (which
// recounts at once), a segment, speeders left out with the reason, the
// results on the plan, the files, and two studies compared.
func TestStudyResultsPage(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	p := "/projects/" + itoa(pid)
	task := site.TreeTask{Text: "Where are the prices?", Correct: []int64{ids["Pricing"]}}
	a := site.Study{ProjectID: pid, Name: "Round 1", Tasks: []site.TreeTask{task}}
	if _, err := c.db.TreeTests.CreateStudy(ctx, &a); err != nil {
		t.Fatal(err)
	}
	// Three participants: a direct success, a wrong choice (About us ›
	// Team), a fast wrong choice (Later) by a speeder of the staff.
	script := func(st site.Study, seg string, took int64, chose int64, path ...int64) {
		part, _, err := c.db.TreeTests.Join(ctx, st, map[string]string{"segment": seg}, []string{"1"})
		if err != nil {
			t.Fatal(err)
		}
		evs := []site.TreeEvent{{Participant: part.ID, Task: "1", Kind: site.TreeStart}}
		for _, id := range path {
			evs = append(evs, site.TreeEvent{Participant: part.ID, Task: "1", Kind: site.TreeOpen, PageID: id, At: took / 2})
		}
		evs = append(evs, site.TreeEvent{Participant: part.ID, Task: "1", Kind: site.TreeChoose, PageID: chose, At: took})
		if err := c.db.TreeTests.Record(ctx, part, evs); err != nil {
			t.Fatal(err)
		}
	}
	script(a, "clients", 8000, ids["Pricing"], ids["Products"], ids["Pricing"])
	script(a, "clients", 6000, ids["Team"], ids["About us"], ids["Team"])
	script(a, "staff", 900, ids["Later"], ids["Later"])
	page := func(path string) string {
		t.Helper()
		rec := c.do("GET", path, nil, false)
		if rec.Code != 200 {
			t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body.String())
		}
		return doc(t, rec).Find("main").Text()
	}
	res := p + "/treetests/" + itoa(a.ID)
	text := page(res)
	for _, want := range []string{"3 participants counted", "Success33% (1 of 3)", "95%: 6%–80%", "Direct success1", "Direct fail2", "Team", "mark correct", "Adjusted-Wald"} {
		if !strings.Contains(text, want) {
			t.Errorf("the results lack %q", want)
		}
	}
	// Team marked correct afterwards: two successes of three.
	if rec := c.do("POST", res+"/correct", url.Values{"task": {"1"}, "page": {itoa(ids["Team"])}, "op": {"add"}}, false); rec.Code != http.StatusSeeOther {
		t.Fatalf("mark correct: %d", rec.Code)
	}
	if text := page(res); !strings.Contains(text, "Success67% (2 of 3)") {
		t.Errorf("after marking Team correct: %s", text)
	}
	// The speeder left out, with the reason; then the clients alone.
	c.do("POST", res+"/speeders", url.Values{"seconds": {"1"}}, false)
	text = page(res)
	if !strings.Contains(text, "2 participants counted") || !strings.Contains(text, "a speeder: the whole study took 900 ms") {
		t.Errorf("speeders: %s", text)
	}
	c.do("POST", res+"/speeders", url.Values{"seconds": {"0"}}, false)
	if text := page(res + "?segment=segment%3Dstaff"); !strings.Contains(text, "1 participant counted") || !strings.Contains(text, "Success0% (0 of 1)") {
		t.Errorf("the staff segment: %s", text)
	}
	// On the plan: Pricing and Team correct, Later a wrong choice.
	svg := c.do("GET", res+"/diagram/svg?task=1", nil, false).Body.String()
	for _, want := range []string{"Tree test", "correct answer", "chosen, wrong", "1 visit · 1 chose"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the diagram lacks %q", want)
		}
	}
	if dir := os.Getenv("SITEPLAN_SCREENSHOTS"); dir != "" {
		for _, f := range []string{"png", "pdf"} {
			os.WriteFile(filepath.Join(dir, "treetest-task."+f), c.do("GET", res+"/diagram/"+f+"?task=1", nil, false).Body.Bytes(), 0o644)
		}
	}
	if rec := c.do("GET", res+"/diagram/pdf?task=1", nil, false); rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "%PDF") {
		t.Errorf("the PDF: %d", rec.Code)
	}
	if rec := c.do("GET", res+"/diagram/svg?task=9", nil, false); rec.Code != http.StatusNotFound {
		t.Errorf("no task 9: %d", rec.Code)
	}
	out := c.do("GET", res+"/outcomes.csv", nil, false).Body.String()
	if !strings.HasPrefix(out, "participant,task,outcome") || strings.Count(out, ",success,") != 2 {
		t.Errorf("outcomes.csv:\n%s", out)
	}
	// A second round on the same task: everyone finds it.
	b := site.Study{ProjectID: pid, Name: "Round 2", Tasks: []site.TreeTask{task}}
	if _, err := c.db.TreeTests.CreateStudy(ctx, &b); err != nil {
		t.Fatal(err)
	}
	script(b, "clients", 5000, ids["Pricing"], ids["Products"], ids["Pricing"])
	text = page(fmt.Sprintf("%s/treetests/compare?a=%d&b=%d", p, a.ID, b.ID))
	if want := fmt.Sprintf("Version %d vs version %d: success 67%% → 100%%", a.Version, b.Version); !strings.Contains(text, want) {
		t.Errorf("compare: want %q in %s", want, text)
	}
	if text := page(p + "/treetests"); !strings.Contains(text, "Round 1") || !strings.Contains(text, "Round 2") {
		t.Errorf("the list: %s", text)
	}
	if rec := c.do("POST", res+"/revoke", url.Values{}, false); rec.Code != http.StatusSeeOther {
		t.Errorf("revoke: %d", rec.Code)
	}
	if text := page(res); !strings.Contains(text, "the link is closed") {
		t.Errorf("after revoking: %s", text)
	}
}
