package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"siteplan/export"
	"siteplan/site"
	"siteplan/store"
	"siteplan/workbook"
)

// ratecardSetCmd sets a team's rate card, or a project's that replaces
// it, from a JSON file (docs/cli.md) or standard input ("-").
func ratecardSetCmd(fs *flag.FlagSet, args []string, stdin io.Reader, stdout io.Writer) error {
	team := fs.String("team", "", "the team whose rate card this is (id or name)")
	project := fs.Int64("project", 0, "the project whose own rate card this is, replacing the team's there")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 || (*team == "") == (*project == 0) {
		return errors.New("ratecard set: name --team T or --project ID, and one rate card file (JSON, or - for standard input)")
	}
	var in io.Reader = stdin
	if fs.Arg(0) != "-" {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return fmt.Errorf("ratecard set: %w", err)
		}
		defer f.Close()
		in = f
	}
	card, err := site.ParseRateCard(in)
	if err != nil {
		return fmt.Errorf("ratecard set: %s: %w; nothing was set", fs.Arg(0), err)
	}
	db, err := openDB(fs)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	whose := ""
	var teamID int64
	if *project != 0 {
		p, err := db.Projects.Project(ctx, *project)
		if err != nil {
			return fmt.Errorf("ratecard set: %w", err)
		}
		teamID, whose = p.TeamID, fmt.Sprintf("project %d (in place of its team's)", p.ID)
	} else {
		t, err := db.Teams.FindTeam(ctx, *team)
		if err != nil {
			return fmt.Errorf("ratecard set: %w", err)
		}
		teamID, whose = t.ID, fmt.Sprintf("team %q", t.Name)
	}
	if err := db.RateCards.SetRateCard(ctx, teamID, *project, card); err != nil {
		return fmt.Errorf("ratecard set: %w", err)
	}
	fmt.Fprintf(stdout, "The rate card of %s: %s an hour, %s.\n", whose, site.Money(card.HourlyRate, card.Currency),
		site.Plural(len(card.Types), "page type", "page types"))
	return nil
}

// estimateCmd prints what the plan (now, or a version) costs by its rate
// card, or what changed between two versions' estimates.
func estimateCmd(fs *flag.FlagSet) (check func() error, run projectRun) {
	version := fs.Int("version", 0, "a version's number: its estimate, priced by the rate card it kept (default: the plan now)")
	from := fs.Int("from", 0, "compare the estimates of version N ...")
	to := fs.Int("to", 0, "... and version M (default: the plan now)")
	asJSON := fs.Bool("json", false, "print it as JSON")
	asCSV := fs.Bool("csv", false, "print it as CSV")
	xlsx := fs.String("xlsx", "", "write it as an XLSX workbook with formulas to FILE")
	check = func() error {
		switch {
		case *version != 0 && *from != 0:
			return errors.New("estimate: --version, or --from N [--to M] to compare, not both")
		case *to != 0 && *from == 0:
			return errors.New("estimate: --to M goes with --from N")
		case *from != 0 && *xlsx != "":
			return errors.New("estimate: --xlsx writes one estimate, not a comparison")
		}
		return nil
	}
	return check, func(ctx context.Context, db *store.Store, id int64, stdout io.Writer) error {
		if *from != 0 {
			return compareEstimates(ctx, db, id, *from, *to, *asJSON, *asCSV, stdout)
		}
		e, card, label, err := estimateOf(ctx, db, id, *version)
		if err != nil {
			return err
		}
		switch {
		case *xlsx != "":
			p, _ := db.Projects.Project(ctx, id)
			return writeFileWhole(*xlsx, func(w io.Writer) error {
				return workbook.WriteEstimate(w, e, card, p.Name+": estimate of "+label)
			})
		case *asJSON:
			return json.NewEncoder(stdout).Encode(e)
		case *asCSV:
			return export.WriteEstimateCSV(stdout, e)
		}
		return printEstimate(stdout, e, label)
	}
}

// estimateOf prices the plan now (version 0) or a version.
func estimateOf(ctx context.Context, db *store.Store, id int64, version int) (*site.Estimate, site.RateCard, string, error) {
	t, reviews, card, ok, err := db.RateCards.Priced(ctx, id, version)
	if err != nil {
		return nil, card, "", fmt.Errorf("estimate: %w", err)
	}
	label := "the plan now"
	if version != 0 {
		label = "version " + strconv.Itoa(version)
	}
	if !ok {
		if version != 0 {
			return nil, card, "", fmt.Errorf("estimate: no rate card was in force when version %d was named", version)
		}
		return nil, card, "", errors.New("estimate: no rate card: set the team's with siteplan ratecard set --team T FILE.json")
	}
	return card.Estimate(t, reviews), card, label, nil
}

// compareEstimates prints what changed from version a's estimate to b's
// (0: the plan now).
func compareEstimates(ctx context.Context, db *store.Store, id int64, a, b int, asJSON, asCSV bool, stdout io.Writer) error {
	ea, _, la, err := estimateOf(ctx, db, id, a)
	if err != nil {
		return err
	}
	eb, _, lb, err := estimateOf(ctx, db, id, b)
	if err != nil {
		return err
	}
	cmp := ea.ChangesTo(eb)
	cmp.From, cmp.To = la, lb
	switch {
	case asJSON:
		return json.NewEncoder(stdout).Encode(cmp)
	case asCSV:
		w := csv.NewWriter(stdout)
		w.Write([]string{"kind", "type", "name", "pages", "hours", "amount"})
		for _, ch := range cmp.Changes {
			w.Write([]string{ch.Kind, ch.Type, ch.Name, strconv.Itoa(ch.Pages), ch.Hours.String(), site.Major(ch.AmountMinor, eb.Currency)})
		}
		w.Flush()
		return w.Error()
	}
	fmt.Fprintf(stdout, "From %s (%s) to %s (%s):\n", la, site.Money(ea.TotalMinor, ea.Currency), lb, site.Money(eb.TotalMinor, eb.Currency))
	if len(cmp.Changes) == 0 {
		fmt.Fprintln(stdout, "  no change")
	}
	for _, ch := range cmp.Changes {
		fmt.Fprintf(stdout, "  %s\n", ch.Words(eb.Currency))
	}
	return nil
}

// printEstimate writes an estimate for people: a line a row (what, then
// its count, hours and amount aligned right), then the total.
func printEstimate(w io.Writer, e *site.Estimate, label string) error {
	type row struct{ what, count, hours, amount string }
	rows := make([]row, 0, len(e.Lines))
	width := [4]int{}
	for _, l := range e.Lines {
		r := row{what: l.Label(), amount: site.Money(l.AmountMinor, e.Currency)}
		switch l.Kind {
		case site.LinePages:
			r.count = site.Plural(l.Pages, "page", "pages")
		case site.LineRedirects:
			r.count = site.Plural(l.Count, "old URL", "old URLs")
		}
		if l.Hours != 0 {
			r.hours = l.Hours.String() + " h"
		}
		for i, s := range []string{r.what, r.count, r.hours, r.amount} {
			width[i] = max(width[i], utf8.RuneCountInString(s))
		}
		rows = append(rows, r)
	}
	pad := func(s string, n int, right bool) string {
		gap := strings.Repeat(" ", n-utf8.RuneCountInString(s))
		if right {
			return gap + s
		}
		return s + gap
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Estimate of %s, %s\n", label, e.Currency)
	for _, r := range rows {
		fmt.Fprintf(&b, "  %s  %s  %s  %s\n", pad(r.what, width[0], false), pad(r.count, width[1], true), pad(r.hours, width[2], true), pad(r.amount, width[3], true))
	}
	fmt.Fprintf(&b, "Total: %s, %s h, %s\n", site.Plural(e.Pages, "page", "pages"), e.TotalHours, site.Money(e.TotalMinor, e.Currency))
	_, err := io.WriteString(w, b.String())
	return err
}
