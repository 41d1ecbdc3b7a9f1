package store

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"siteplan/site"
)

// TestLaunchChecks: checks come back newest first with their reports;
// past site.LaunchChecksKept the oldest go in the same write; a check of
// no project, or with a report past the bound, is refused.
func TestLaunchChecks(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	p, _ := newProject(t, db, "Home\n")
	for i := range site.LaunchChecksKept + 2 {
		c, err := db.History.SaveLaunchCheck(ctx, site.LaunchCheck{ProjectID: p.ID, By: "Ann", Base: "http://staging/", Version: i,
			Errors: i, Warnings: 1, Report: fmt.Appendf(nil, `{"n":%d}`, i)})
		if err != nil || c.ID == 0 || c.At.IsZero() {
			t.Fatalf("save %d: %+v %v", i, c, err)
		}
	}
	cs, err := db.History.LaunchChecks(ctx, p.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, fmt.Sprintf("%d:%s:%s", c.Errors, c.By, c.Report))
	}
	want := `6:Ann:{"n":6} 5:Ann:{"n":5} 4:Ann:{"n":4} 3:Ann:{"n":3} 2:Ann:{"n":2}`
	if strings.Join(got, " ") != want {
		t.Errorf("kept\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if cs, _ := db.History.LaunchChecks(ctx, p.ID, 2); len(cs) != 2 || cs[0].Errors != 6 || cs[0].Base != "http://staging/" || cs[0].At.IsZero() {
		t.Errorf("newest two: %+v", cs)
	}
	if _, err := db.History.SaveLaunchCheck(ctx, site.LaunchCheck{ProjectID: p.ID + 99, Report: []byte("{}")}); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("no such project: %v", err)
	}
	if _, err := db.History.SaveLaunchCheck(ctx, site.LaunchCheck{ProjectID: p.ID, Report: make([]byte, site.MaxLaunchReport+1)}); site.ErrorCode(err) != site.ETooLarge {
		t.Errorf("too large: %v", err)
	}
}
