package workbook

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"siteplan/site"
)

// TestEstimateInGnumeric opens the workbook in a spreadsheet
// application, Gnumeric (its ssconvert, --recalc: every formula
// calculated anew by Gnumeric, the values siteplan stored set aside):
// each line's hours and amount, and the totals, come to siteplan's, to
// the cent, and no cell is an error. A finance team's spreadsheet, not
// only the library that wrote the file, reads it as siteplan means it.
func TestEstimateInGnumeric(t *testing.T) {
	ssconvert, err := exec.LookPath("ssconvert")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("ssconvert (Debian's gnumeric) is not installed")
		}
		t.Skip("install gnumeric: its ssconvert opens the workbook")
	}
	e, card := estimateFixture(t)
	var b bytes.Buffer
	if err := WriteEstimate(&b, e, card, "Acme: estimate of the plan"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "estimate.xlsx"), filepath.Join(dir, "estimate.csv")
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(ssconvert, "--recalc", in, out)
	cmd.Env = append(os.Environ(), "HOME="+dir) // Gnumeric keeps its settings there
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ssconvert: %v\n%s", err, msg)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(text, []byte("#")) {
		t.Errorf("a cell is an error in Gnumeric:\n%s", text)
	}
	r := csv.NewReader(bytes.NewReader(text))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	const first, hoursCol, amountCol = 6, 12, 14 // rows and columns from 0
	if len(rows) < first+len(e.Lines)+1 || rows[first-1][amountCol] != "Amount" {
		t.Fatalf("the sheet as Gnumeric exports it:\n%s", text)
	}
	for i, l := range e.Lines {
		row := rows[first+i]
		if !sameNumber(row[amountCol], site.Major(l.AmountMinor, "EUR")) || !sameHours(row[hoursCol], l.Hours) {
			t.Errorf("line %d (%s %s %s): Gnumeric %s h, %s; siteplan %s h, %s", i, l.Kind, l.Section, l.Type, row[hoursCol], row[amountCol], l.Hours, site.Major(l.AmountMinor, "EUR"))
		}
	}
	total := rows[first+len(e.Lines)]
	if total[0] != "Total" || !sameNumber(total[amountCol], site.Major(e.TotalMinor, "EUR")) || !sameHours(total[hoursCol], e.TotalHours) {
		t.Errorf("the total in Gnumeric: %q, want %s h and %s", total, e.TotalHours, site.Major(e.TotalMinor, "EUR"))
	}
}

// sameHours compares a number Gnumeric wrote with hours, to the
// ten-thousandth.
func sameHours(s string, h site.Hours) bool {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil && int64(x*float64(site.HourUnit)+0.5) == int64(h)
}
