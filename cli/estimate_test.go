package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"siteplan/site"
)

// TestEstimateVerbs: a team's rate card set from the documented JSON
// prices the plan (text, JSON whose lines add up to the total, CSV,
// XLSX read back); a version keeps its card when the project's own card
// raises the rate; two versions compare line by line.
func TestEstimateVerbs(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "e.db")
	if err := run([]string{"user", "add", "--db", db, "--email", "o@test.example", "--name", "O", "--team", "Agency", "--role", "owner"},
		strings.NewReader("a long enough password\n"), &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"import", "--db", db, "--team", "Agency", "../store/testdata/acme.json"}, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	cli := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		at := 1 // after the verb's words
		if args[0] == "ratecard" || args[0] == "version" {
			at = 2
		}
		args = append(append(append([]string{}, args[:at]...), "--db", db), args[at:]...)
		if err := run(args, nil, &out); err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		return out.String()
	}
	var out bytes.Buffer
	if err := run([]string{"estimate", "--db", db, "--project", "1"}, nil, &out); err == nil || !strings.Contains(err.Error(), "no rate card") {
		t.Errorf("an estimate without a card: %v", err)
	}
	card := filepath.Join(dir, "card.json")
	os.WriteFile(card, []byte(`{"currency": "EUR", "hourly_rate": 95, "types": {"product": {"first_hours": 16, "each_hours": 1.5},
		"*": {"first_hours": 8, "each_hours": 2}}, "blocks": {"*": 0.5}, "per_100_words_hours": 0.25,
		"fixed": [{"name": "Discovery", "hours": 24}], "margin_percent": 15}`), 0o644)
	if got := cli("ratecard", "set", "--team", "Agency", card); !strings.Contains(got, `The rate card of team "Agency": €95.00 an hour`) {
		t.Errorf("set: %s", got)
	}
	text := cli("estimate", "--project", "1")
	if !strings.Contains(text, "Estimate of the plan now, EUR") || !strings.Contains(text, "Discovery") || !strings.Contains(text, "Total: ") {
		t.Errorf("text:\n%s", text)
	}
	var e struct {
		Lines []struct {
			AmountMinor int64 `json:"amount_minor"`
		} `json:"lines"`
		TotalMinor int64 `json:"total_minor"`
	}
	if err := json.Unmarshal([]byte(cli("estimate", "--project", "1", "--json")), &e); err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, l := range e.Lines {
		sum += l.AmountMinor
	}
	if sum != e.TotalMinor || sum == 0 {
		t.Errorf("the lines add up to %d, the total is %d", sum, e.TotalMinor)
	}
	if csv := cli("estimate", "--project", "1", "--csv"); !strings.HasPrefix(csv, "kind,section,type") || !strings.Contains(csv, "\ntotal,") {
		t.Errorf("csv:\n%s", csv)
	}
	book := filepath.Join(dir, "estimate.xlsx")
	cli("estimate", "--project", "1", "--xlsx", book)
	f, err := excelize.OpenFile(book)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := f.GetCellValue("Estimate", "A1"); !strings.Contains(v, "Acme relaunch: estimate of the plan now") {
		t.Errorf("the workbook's title: %q", v)
	}
	f.Close()
	cli("version", "create", "--project", "1", "--name", "Priced")
	dear := filepath.Join(dir, "dear.json")
	os.WriteFile(dear, []byte(`{"currency": "EUR", "hourly_rate": 190, "types": {"*": {"first_hours": 8, "each_hours": 2}}}`), 0o644)
	cli("ratecard", "set", "--project", "1", dear)
	v1 := cli("estimate", "--project", "1", "--version", "1")
	if !strings.Contains(v1, "Estimate of version 1") || !strings.Contains(v1, "Discovery") {
		t.Errorf("version 1 keeps the card it was priced by:\n%s", v1)
	}
	diff := cli("estimate", "--project", "1", "--from", "1")
	if !strings.Contains(diff, "From version 1") || !strings.Contains(diff, "Discovery") || !strings.Contains(diff, "−€2,280.00") {
		t.Errorf("compared:\n%s", diff)
	}
	var cmp site.EstimateComparison
	if err := json.Unmarshal([]byte(cli("estimate", "--project", "1", "--from", "1", "--json")), &cmp); err != nil {
		t.Fatal(err)
	}
	var moved int64
	for _, ch := range cmp.Changes {
		moved += ch.AmountMinor
	}
	if cmp.From != "version 1" || cmp.To != "the plan now" || cmp.TotalMinorFrom+moved != cmp.TotalMinorTo || len(cmp.Changes) == 0 {
		t.Errorf("compared as JSON: %+v", cmp)
	}
	rows, err := csv.NewReader(strings.NewReader(cli("estimate", "--project", "1", "--from", "1", "--csv"))).ReadAll()
	if err != nil || len(rows) != len(cmp.Changes)+1 || strings.Join(rows[0], ",") != "kind,type,name,pages,hours,amount" ||
		!slices.ContainsFunc(rows, func(r []string) bool { return r[2] == "Discovery" && r[5] == "-2280.00" }) {
		t.Errorf("compared as CSV: %q (%v)", rows, err)
	}
}
