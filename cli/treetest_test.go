package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/site"
	"siteplan/store"
	"siteplan/treetest"
)

// TestTreetestCLI: a study created from a file of tasks naming pages by
// their paths, taken by scripted participants, read with treetest
// results (each count exact), a page marked correct afterwards, and its
// files written.
func TestTreetestCLI(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "tt.db")
	doc := `{"format":"siteplan/1","project":{"name":"Shop","base_url":"https://shop.example/"},"pages":[{"title":"Home","slug":"","children":[
		{"title":"Products","children":[{"title":"Tents"},{"title":"Rentals","children":[{"title":"Returns"}]}]},
		{"title":"Help","children":[{"title":"Returns"},{"title":"Contact"}]}]}]}`
	file := filepath.Join(dir, "plan.json")
	os.WriteFile(file, []byte(doc), 0o644)
	if err := run([]string{"import", "--db", dbPath, file}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	tasks := filepath.Join(dir, "tasks.json")
	os.WriteFile(tasks, []byte(`[{"text": "Where would you return a tent you rented?", "correct": ["/products/rentals/returns"]}]`), 0o644)
	var out bytes.Buffer
	if err := run([]string{"treetest", "create", "--db", dbPath, "--project", "1", "--tasks", tasks, "--name", "Returns"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(out.String())
	if len(lines) != 2 || lines[0] != "1" || !strings.HasPrefix(lines[1], "/t/") {
		t.Fatalf("create printed %q", out.String())
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`[{"text": "?", "correct": ["/nowhere"]}]`), 0o644)
	if err := run([]string{"treetest", "create", "--db", dbPath, "--project", "1", "--tasks", bad}, nil, &bytes.Buffer{}); err == nil ||
		!strings.Contains(err.Error(), `task 1: "/nowhere" is no page's path`) {
		t.Errorf("a path of no page: %v", err)
	}
	// The scripted participants of package treetest's test, on this plan.
	db, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := db.TreeTests.StudyByToken(ctx, strings.TrimPrefix(lines[1], "/t/"))
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(ctx, 1)
	id := map[string]int64{}
	tr.Walk(func(p *site.Page, _ int) bool { id[tr.URL(p.ID)] = p.ID; return true })
	pg := func(path string) int64 { return id["https://shop.example"+path] }
	products, rentals, returns, tents := pg("/products"), pg("/products/rentals"), pg("/products/rentals/returns"), pg("/products/tents")
	help, helpReturns := pg("/help"), pg("/help/returns")
	for i, steps := range [][]any{
		{"open", products, "open", rentals, "open", returns, "choose", returns},
		{"open", help, "open", helpReturns, "open", products, "open", rentals, "open", returns, "choose", returns},
		{"open", help, "open", helpReturns, "choose", helpReturns},
		{"open", products, "open", tents, "open", rentals, "choose", rentals},
		{"skip", int64(0)},
	} {
		p, _, err := db.TreeTests.Join(ctx, s, map[string]string{"segment": []string{"clients", "staff"}[i%2]}, []string{"1"})
		if err != nil {
			t.Fatal(err)
		}
		evs := []site.TreeEvent{{Task: "1", Kind: site.TreeStart}}
		for k := 0; k < len(steps); k += 2 {
			evs = append(evs, site.TreeEvent{Task: "1", Kind: steps[k].(string), PageID: steps[k+1].(int64), At: int64(1000 * (k/2 + 1))})
		}
		if err := db.TreeTests.Record(ctx, p, evs); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	results := func(extra ...string) treetest.ResultsJSON {
		t.Helper()
		var out bytes.Buffer
		if err := run(append([]string{"treetest", "results", "--db", dbPath, "--study", "1", "--json"}, extra...), nil, &out); err != nil {
			t.Fatal(err)
		}
		var r treetest.ResultsJSON
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		return r
	}
	r := results()
	task := r.Tasks[0]
	if r.Participants != 5 || task.N != 5 || task.DirectSuccess != 1 || task.IndirectSuccess != 1 || task.DirectFail != 1 || task.IndirectFail != 1 ||
		task.DirectSkip != 1 || task.Success.X != 2 || task.Directness.X != 3 || task.Time.Median != 4000 {
		t.Errorf("results: %+v", task)
	}
	if task.Destinations["/products/rentals/returns"] != 2 || task.Destinations["/help/returns"] != 1 || task.FirstClick["/products"] != 2 || task.FirstClick["/help"] != 2 {
		t.Errorf("destinations %v, first clicks %v", task.Destinations, task.FirstClick)
	}
	if r.Definitions["directness"] == "" {
		t.Error("the results do not say what directness is")
	}
	if seg := results("--segment", "segment=clients"); seg.Participants != 3 || seg.Tasks[0].N != 3 {
		t.Errorf("clients: %d participants, n %d", seg.Participants, seg.Tasks[0].N)
	}
	if err := run([]string{"treetest", "correct", "--db", dbPath, "--study", "1", "--task", "1", "--add", "/help/returns/"}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if task := results().Tasks[0]; task.DirectSuccess != 2 || task.DirectFail != 0 || task.Success.X != 3 {
		t.Errorf("after marking /help/returns correct: %+v", task)
	}
	out.Reset()
	exportDir := filepath.Join(dir, "out")
	if err := run([]string{"treetest", "export", "--db", dbPath, "--study", "1", "--out", exportDir}, nil, &out); err != nil {
		t.Fatal(err)
	}
	events, _ := os.ReadFile(filepath.Join(exportDir, "events.csv"))
	outcomes, _ := os.ReadFile(filepath.Join(exportDir, "outcomes.csv"))
	if n := strings.Count(string(events), "\n"); n != 1+5+18 { // a header, 5 starts and the 18 steps after them
		t.Errorf("events.csv has %d lines:\n%s", n, events)
	}
	if !strings.Contains(string(outcomes), "3,1,success,true,/help/returns,/help,3000") || !strings.Contains(string(outcomes), "5,1,skip,true,,,1000") {
		t.Errorf("outcomes.csv:\n%s", outcomes)
	}
	if _, err := os.Stat(filepath.Join(exportDir, "definitions.csv")); err != nil {
		t.Error(err)
	}
}
