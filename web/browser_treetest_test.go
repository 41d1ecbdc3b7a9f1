package web

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
	"siteplan/store"
	"siteplan/treetest"
)

// axeViolations runs axe-core (from npm) on the tab's page and lists its
// violations, each with the elements it found them on.
func axeViolations(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return axeViolationsIn(t, ctx, "document")
}

// axeViolationsIn is axeViolations on the part of the page expr (a
// script expression) names: "document.querySelector('#summary')".
func axeViolationsIn(t *testing.T, ctx context.Context, expr string) []string {
	t.Helper()
	script, err := os.ReadFile("../node_modules/axe-core/axe.min.js")
	if err != nil {
		t.Fatalf("axe-core is not installed (npm ci): %v", err)
	}
	var out []string
	run(t, ctx, "axe",
		chromedp.Evaluate(string(script), nil),
		chromedp.Evaluate(`axe.run(`+expr+`, {resultTypes: ["violations"]}).then(r => r.violations.map(v => v.id + " (" + v.impact + "): " + v.nodes.map(n => n.target.join(" ")).join(", ")))`, &out, awaitPromise),
	)
	return out
}

// shopPlan imports the shop of the tree-test tests and returns its id
// and its pages' ids by URL.
func shopPlan(t *testing.T, db *store.Store) (int64, map[string]int64) {
	t.Helper()
	doc := `{"format":"siteplan/1","project":{"name":"Shop","base_url":"https://shop.example/"},"pages":[{"title":"Home","slug":"","children":[
		{"title":"Products","notes":"internal: margins","children":[{"title":"Tents"},{"title":"Rentals","children":[{"title":"Returns"}]}]},
		{"title":"Help","children":[{"title":"Returns"},{"title":"Contact"}]}]}]}`
	d, err := site.ParseDocument(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	pid, err := db.Projects.ImportDocument(bg, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(bg, pid)
	id := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { id[tr.URL(p.ID)] = p.ID; return true })
	return pid, id
}

// TestBrowserStudyEditor: the team sets a tree test up in the editor
// (the plan's "Tree tests", a task with its correct page chosen in the
// list), a participant takes it through the link it shows once, and
// the team reads the results, which axe-core finds no violation on.
func TestBrowserStudyEditor(t *testing.T) {
	ctx, base, db := browser(t)
	pid, id := shopPlan(t, db)
	returns := id["https://shop.example/products/rentals/returns"]
	var link string
	run(t, ctx, "the plan's tree tests, a new one",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		chromedp.WaitVisible(`.editor-nav`, chromedp.ByQuery),
		chromedp.Click(`.editor-nav a[href$="/treetests"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`a.button[href$="/treetests/new"]`, chromedp.ByQuery),
		chromedp.Click(`a.button[href$="/treetests/new"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#f-task-correct-1`, chromedp.ByQuery),
		chromedp.SendKeys(`#f-study-name`, "Returns, round 1", chromedp.ByQuery),
		chromedp.SendKeys(`#f-task-text-1`, "Where would you return a tent you rented?", chromedp.ByQuery),
		chromedp.Evaluate(fmt.Sprintf(`document.querySelector('#f-task-correct-1 option[value="%d"]').selected = true`, returns), nil),
		chromedp.Click(`#f-study-intro`, chromedp.ByQuery),
	)
	screenshot(t, ctx, "study-form.png")
	run(t, ctx, "create it: its link, once",
		chromedp.Click(`#create-study`, chromedp.ByQuery),
		chromedp.WaitVisible(`#study-link`, chromedp.ByQuery),
		chromedp.Value(`#study-link`, &link, chromedp.ByQuery),
	)
	if !strings.Contains(link, "/t/") {
		t.Fatalf("the link: %q", link)
	}
	p := otherBrowser(t, ctx)
	click := func(sel string) chromedp.Action { // once the page is still: a press during a swap would find its button gone
		return chromedp.Tasks{settled(), chromedp.WaitVisible(sel, chromedp.ByQuery), chromedp.Click(sel, chromedp.ByQuery)}
	}
	run(t, p, "a participant takes it",
		chromedp.Navigate(link+"?segment=clients"),
		click(`#study-main button`),
		waitJS(`document.getElementById("task-count")?.textContent === "Task 1 of 1"`),
		click(fmt.Sprintf("#tt-%d", id["https://shop.example/products"])),
		click(fmt.Sprintf("#tt-%d", id["https://shop.example/products/rentals"])),
		click(fmt.Sprintf("#tt-%d", returns)),
		click(`.tt-choose`),
		waitJS(`document.querySelector("#study-main h1")?.textContent === "Thank you"`),
	)
	var text string
	run(t, ctx, "the results",
		chromedp.Click(`a[href$="/treetests/`+itoa(studyID(t, db, pid))+`"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#study-counted`, chromedp.ByQuery),
		chromedp.Text(`main`, &text, chromedp.ByQuery),
	)
	for _, want := range []string{"1 participant counted", "100% (1 of 1)", "Direct success", "segment: clients", "What the figures mean"} {
		if !strings.Contains(text, want) {
			t.Errorf("the results lack %q", want)
		}
	}
	if v := axeViolations(t, ctx); len(v) > 0 {
		t.Errorf("axe on the results: %q", v)
	}
	screenshot(t, ctx, "study-results.png")
	noProblems(t, ctx, "the tree test's results")
}

// studyID is the id of the project's newest study.
func studyID(t *testing.T, db *store.Store, pid int64) int64 {
	t.Helper()
	list, err := db.TreeTests.Studies(context.Background(), pid)
	if err != nil || len(list) == 0 {
		t.Fatalf("no study: %v", err)
	}
	return list[0].ID
}

// TestBrowserTreeTest: a participant takes a tree test through its
// link, by keyboard alone: the intro, each task's tree of labels opened
// item by item, "I'd find it here" on the item reached, the next task
// starting collapsed, a reload resuming where they were (on a phone's
// screen), "Skip this task", and the thank-you text; axe-core finds no
// violation on any of it. What they did is the results' events.
func TestBrowserTreeTest(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	doc := `{"format":"siteplan/1","project":{"name":"Shop","base_url":"https://shop.example/"},"pages":[{"title":"Home","slug":"","children":[
		{"title":"Products","notes":"internal: margins","children":[{"title":"Tents"},{"title":"Rentals","children":[{"title":"Returns"}]}]},
		{"title":"Help","children":[{"title":"Returns"},{"title":"Contact"}]}]}]}`
	d, err := site.ParseDocument(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.Projects.ImportDocument(bg, 1, d)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(bg, pid)
	id := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { id[tr.URL(p.ID)] = p.ID; return true })
	returns := id["https://shop.example/products/rentals/returns"]
	st := site.Study{ProjectID: pid, Name: "Returns", Thanks: "Thanks, that helps us a lot.", Tasks: []site.TreeTask{
		{Text: "Where would you return a tent you rented?", Correct: []int64{returns}, Confidence: true},
		{Text: "Where would you ask about a delivery?", Correct: []int64{id["https://shop.example/help/contact"]}},
		{Text: "Where would you find the shop's phone number?", Correct: []int64{id["https://shop.example/help/contact"]}, TimeLimit: 1},
	}}
	token, err := db.TreeTests.CreateStudy(bg, &st)
	if err != nil {
		t.Fatal(err)
	}
	p := otherBrowser(t, ctx) // a participant: no account, no cookie
	item := func(url string) string { return fmt.Sprintf("#tt-%d", id["https://shop.example"+url]) }
	focused := func(sel string) chromedp.Action {
		return waitJS(fmt.Sprintf(`document.activeElement === document.querySelector(%q) && !document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")`, sel))
	}
	run(t, p, "the intro", chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(base+"/t/"+token+"?segment=clients"),
		chromedp.WaitVisible(`#study-main`, chromedp.ByQuery),
		settled(),
		waitJS(`document.activeElement?.textContent === "Start"`),
	)
	if v := axeViolations(t, p); len(v) > 0 {
		t.Errorf("axe on the intro: %q", v)
	}
	run(t, p, "start, by keyboard",
		chromedp.KeyEvent(kb.Enter),
		waitJS(`document.getElementById("task-count")?.textContent === "Task 1 of 3"`),
		settled(), // autofocus is done once the page is: a key before it would be undone
		waitJS(`document.activeElement?.id === "task-text"`),
		waitJS(`[...document.querySelectorAll(".tt-item")].map(b => b.textContent).join() === "Products,Help"`),
	)
	run(t, p, "open Products, then Rentals, then Returns, by keyboard",
		chromedp.KeyEvent(kb.Tab), focused(item("/products")),
		chromedp.KeyEvent(kb.Enter),
		waitJS(fmt.Sprintf(`document.querySelector(%q)?.getAttribute("aria-expanded") === "true"`, item("/products"))), focused(item("/products")),
		// after the opened item, its choice, then its children
		chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab), focused(item("/products/rentals")),
		chromedp.KeyEvent(kb.Enter),
		waitJS(fmt.Sprintf(`document.querySelector(%q)?.getAttribute("aria-expanded") === "true"`, item("/products/rentals"))), focused(item("/products/rentals")),
		chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab), focused(item("/products/rentals/returns")),
		chromedp.KeyEvent(kb.Enter),
		waitJS(fmt.Sprintf(`document.querySelector(%q)?.getAttribute("aria-current") === "true"`, item("/products/rentals/returns"))),
		waitJS(`document.querySelector(".tt-choose")?.textContent === "I'd find it here"`),
	)
	if v := axeViolations(t, p); len(v) > 0 {
		t.Errorf("axe on a task: %q", v)
	}
	run(t, p, "I'd find it here: how sure, by keyboard",
		chromedp.KeyEvent(kb.Tab), waitJS(`document.activeElement?.classList.contains("tt-choose")`),
		chromedp.KeyEvent(kb.Enter),
		waitJS(`document.activeElement?.id === "ask" && !document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")`),
		chromedp.KeyEvent(kb.Tab), waitJS(`document.activeElement?.name === "confidence"`),
		chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight),
		waitJS(`document.querySelector("input[name=confidence]:checked")?.value === "5"`),
	)
	if v := axeViolations(t, p); len(v) > 0 {
		t.Errorf("axe on the confidence question: %q", v)
	}
	run(t, p, "Next: the next task, collapsed",
		chromedp.KeyEvent(kb.Tab), waitJS(`document.activeElement?.textContent === "Next"`),
		chromedp.KeyEvent(kb.Enter),
		waitJS(`document.getElementById("task-count")?.textContent === "Task 2 of 3" && document.activeElement?.id === "task-text"`),
		waitJS(`!document.querySelector('.tt-item[aria-expanded="true"], .tt-choose')`),
	)
	run(t, p, "on a phone: open Help, then reload: the task again, collapsed", chromedp.EmulateViewport(390, 844),
		chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab), focused(item("/help")),
		chromedp.KeyEvent(kb.Enter),
		waitJS(fmt.Sprintf(`document.querySelector(%q)?.getAttribute("aria-expanded") === "true"`, item("/help"))),
		chromedp.Reload(),
		chromedp.WaitVisible(`#study-main`, chromedp.ByQuery),
		settled(),
		waitJS(`document.getElementById("task-count")?.textContent === "Task 2 of 3" && !document.querySelector('.tt-item[aria-expanded="true"]')`),
		waitJS(`document.documentElement.scrollWidth <= window.innerWidth`), // nothing wider than the phone
	)
	if v := axeViolations(t, p); len(v) > 0 {
		t.Errorf("axe on a phone: %q", v)
	}
	var page string
	run(t, p, "skip the task: the next, with a time limit of a second, which ends it: the thank-you text",
		chromedp.Focus(`button[name=skip]`, chromedp.ByQuery),
		chromedp.KeyEvent(kb.Enter),
		waitJS(`document.querySelector("#study-main h1")?.textContent === "Thank you"`),
		chromedp.Evaluate(`document.body.innerText`, &page),
	)
	if !strings.Contains(page, "Thanks, that helps us a lot.") || strings.Contains(page, "margins") || strings.Contains(page, "shop.example") {
		t.Errorf("the participant's page shows more than the labels: %s", page)
	}
	noProblems(t, p, "the tree test")
	var where string
	run(t, p, "the plan itself is not the participant's",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		chromedp.Location(&where))
	if !strings.Contains(where, "/login") {
		t.Errorf("a participant opening the plan ends at %s", where)
	}
	// What they did is the results' events.
	parts, _ := db.TreeTests.Participants(bg, st.ID)
	events, _ := db.TreeTests.Events(bg, st.ID)
	nodes, _ := db.TreeTests.StudyTree(bg, st)
	if len(parts) != 1 || parts[0].Params["segment"] != "clients" {
		t.Fatalf("participants: %+v", parts)
	}
	res := treetest.Score(st.Tasks, nodes, parts, events, treetest.Attempts(nodes, events), treetest.Options{})
	t1, t2, t3 := res.Tasks[0], res.Tasks[1], res.Tasks[2]
	if t1.DirectSuccess != 1 || t1.FirstClicks[0].PageID != id["https://shop.example/products"] || t1.Confidence[4] != 1 || t2.IndirectSkip+t2.DirectSkip != 1 || t3.TimedOut != 1 {
		t.Errorf("results: task 1 %+v, task 2 %+v, task 3 %+v\nevents %+v", t1, t2, t3, events)
	}
}
