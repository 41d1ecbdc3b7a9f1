package store

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"siteplan/site"
)

// jobOf keeps a new check by a new account of team (a name), on db.
func jobOf(t *testing.T, db *Store, email, team string) site.Job {
	t.Helper()
	ctx := context.Background()
	u, _, err := db.Accounts.AddUser(ctx, email, email, pw, team, site.RoleOwner)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := db.Teams.FindTeam(ctx, team)
	if err != nil {
		t.Fatal(err)
	}
	j, err := db.Jobs.CreateJob(ctx, site.Job{Kind: site.JobCheck, UserID: u.ID, TeamID: tm.ID, Source: "https://" + team + ".example/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// TestJobTurns: a visitor has one job not ended; a team reads one site at
// a time, whichever server claims; the team served longest ago goes
// first, then the job that came first.
func TestJobTurns(t *testing.T) {
	dbs := twoInstances(t)
	ctx := context.Background()
	now := time.Now()
	for _, db := range dbs {
		db.Now = func() time.Time { return now }
	}
	tick := func() { now = now.Add(time.Second) }
	b1 := jobOf(t, dbs[1], "b1@test.example", "B")
	a1 := jobOf(t, dbs[0], "a1@test.example", "A")
	if _, err := dbs[1].Jobs.CreateJob(ctx, site.Job{Kind: site.JobCheck, UserID: a1.UserID, TeamID: a1.TeamID, Source: "x"}, nil); site.ErrorCode(err) != site.ETooMany {
		t.Errorf("a second job of a visitor, on the other server: %v", err)
	}
	a2 := jobOf(t, dbs[1], "a2@test.example", "A")
	claim := func(db *Store) string {
		t.Helper()
		tick()
		j, ok, err := db.Jobs.ClaimJob(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return ""
		}
		if j.State != site.JobReading || j.Instance != db.owner {
			t.Errorf("claimed %+v", j)
		}
		return j.ID
	}
	if got := claim(dbs[0]); got != b1.ID {
		t.Errorf("first claim %s, want b1's %s", got, b1.ID)
	}
	// The other server takes team A's first job.
	if got := claim(dbs[1]); got != a1.ID {
		t.Errorf("second claim %s, want a1's %s", got, a1.ID)
	}
	// Both teams read: a2 waits for a1, whichever server asks.
	for _, db := range dbs {
		if got := claim(db); got != "" {
			t.Errorf("a claim while both teams read: %s", got)
		}
	}
	for _, e := range []struct {
		db *Store
		id string
	}{{dbs[0], b1.ID}, {dbs[1], a1.ID}} {
		if err := e.db.Jobs.EndJob(ctx, e.id, site.JobDone, "", nil, []byte(`{}`), 1<<20, 1<<20); err != nil {
			t.Fatal(err)
		}
	}
	// A new job of team B and one of team C, which never read: C goes
	// first, then B (served before A), then A's, which came first.
	b2 := jobOf(t, dbs[0], "b2@test.example", "B")
	c1 := jobOf(t, dbs[0], "c1@test.example", "C")
	var order []string
	for range 3 {
		id := claim(dbs[1])
		order = append(order, id)
		dbs[1].Jobs.EndJob(ctx, id, site.JobDone, "", nil, nil, 1<<20, 1<<20)
	}
	if want := []string{c1.ID, b2.ID, a2.ID}; fmt.Sprint(order) != fmt.Sprint(want) {
		t.Errorf("claimed %v, want C's, B's, A's %v", order, want)
	}
}

// TestJobClaimsOnce: servers claiming at the same time each get jobs of
// their own; no job is claimed twice, none is left.
func TestJobClaimsOnce(t *testing.T) {
	dbs := twoInstances(t)
	ctx := context.Background()
	const teams = 30
	for i := range teams {
		jobOf(t, dbs[i%2], fmt.Sprintf("u%d@test.example", i), fmt.Sprintf("T%d", i))
	}
	var mu sync.Mutex
	claimed := map[string]int{}
	var wg sync.WaitGroup
	for w := range 6 {
		db := dbs[w%2]
		wg.Go(func() {
			for misses := 0; misses < 3; {
				j, ok, err := db.Jobs.ClaimJob(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				if !ok {
					misses++
					continue
				}
				mu.Lock()
				claimed[j.ID]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(claimed) != teams {
		t.Errorf("%d jobs claimed, want %d", len(claimed), teams)
	}
	for id, n := range claimed {
		if n != 1 {
			t.Errorf("job %s claimed %d times", id, n)
		}
	}
}

// TestJobOfDeadServer: a job whose server stops beating is failed by
// another, with the message given; its server can then neither beat nor
// end it. A cancel reaches the running server at its next beat.
func TestJobOfDeadServer(t *testing.T) {
	dbs := twoInstances(t)
	ctx := context.Background()
	now := clock(dbs[1])
	j := jobOf(t, dbs[0], "a@test.example", "A")
	if _, ok, _ := dbs[0].Jobs.ClaimJob(ctx); !ok {
		t.Fatal("not claimed")
	}
	if c, err := dbs[0].Jobs.BeatJob(ctx, j.ID, site.JobReading, []byte(`{"urls":5}`)); err != nil || c {
		t.Fatalf("beat: %v %v", c, err)
	}
	if _, err := dbs[1].Jobs.BeatJob(ctx, j.ID, site.JobReading, nil); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("another server beats the job: %v", err)
	}
	if _, err := dbs[0].Jobs.CancelJob(ctx, j.ID, j.UserID+1); err != nil {
		t.Fatal(err)
	}
	if c, _ := dbs[0].Jobs.BeatJob(ctx, j.ID, site.JobReading, nil); c {
		t.Error("another visitor cancelled the job")
	}
	if _, err := dbs[1].Jobs.CancelJob(ctx, j.ID, j.UserID); err != nil {
		t.Fatal(err)
	}
	if c, _ := dbs[0].Jobs.BeatJob(ctx, j.ID, site.JobReading, nil); !c {
		t.Error("the beat after a cancel does not say so")
	}
	lim := site.JobLimits{Stale: 30 * time.Second, Wait: time.Hour, Kept: time.Hour, StaleMsg: "Its server stopped."}
	*now = time.Now().Add(10 * time.Second)
	if n, err := dbs[1].Jobs.SweepJobs(ctx, lim); err != nil || n != 0 {
		t.Fatalf("swept a live job: %d %v", n, err)
	}
	*now = time.Now().Add(time.Minute)
	if n, err := dbs[1].Jobs.SweepJobs(ctx, lim); err != nil || n != 1 {
		t.Fatalf("swept %d %v, want 1", n, err)
	}
	got, err := dbs[1].Jobs.Job(ctx, j.ID, false)
	if err != nil || got.State != site.JobFailed || got.Error != lim.StaleMsg || got.Running() {
		t.Errorf("after the sweep: %+v %v", got, err)
	}
	if _, err := dbs[0].Jobs.BeatJob(ctx, j.ID, site.JobReading, nil); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("the dead server beats: %v", err)
	}
	if err := dbs[0].Jobs.EndJob(ctx, j.ID, site.JobDone, "", nil, nil, 1<<20, 1<<20); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("the dead server ends it: %v", err)
	}
	// Kept an hour, then deleted.
	*now = time.Now().Add(2 * time.Hour)
	dbs[1].Jobs.SweepJobs(ctx, lim)
	if _, err := dbs[1].Jobs.Job(ctx, j.ID, false); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("two hours on: %v", err)
	}
}

// TestJobUpload: an upload is read back as it was sent, in pieces, and
// removed when its job ends; a waiting job that is cancelled ends at
// once, its upload removed.
func TestJobUpload(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	u, _, _ := db.Accounts.AddUser(ctx, "a@test.example", "A", pw, "A", site.RoleOwner)
	tm, _ := db.Teams.FindTeam(ctx, "A")
	file := make([]byte, 2*jobChunk+12345)
	for i := range file {
		file[i] = byte(rand.IntN(256))
	}
	chunks := func() (n int) {
		db.r.QueryRowContext(ctx, `SELECT count(*) FROM site_job_chunks`).Scan(&n)
		return n
	}
	for _, cancel := range []bool{false, true} {
		j, err := db.Jobs.CreateJob(ctx, site.Job{Kind: site.JobImport, UserID: u.ID, TeamID: tm.ID, Source: "old.xml"}, bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		if n := chunks(); n != 3 {
			t.Errorf("%d pieces, want 3", n)
		}
		if cancel {
			j, err = db.Jobs.CancelJob(ctx, j.ID, u.ID)
			if err != nil || j.State != site.JobCancelled || j.Running() {
				t.Errorf("cancelled while waiting: %+v %v", j, err)
			}
		} else {
			if _, ok, _ := db.Jobs.ClaimJob(ctx); !ok {
				t.Fatal("not claimed")
			}
			got, err := io.ReadAll(db.Jobs.JobUpload(ctx, j.ID))
			if err != nil || !bytes.Equal(got, file) {
				t.Fatalf("read back %d bytes (%v), want the %d sent", len(got), err, len(file))
			}
			if err := db.Jobs.EndJob(ctx, j.ID, site.JobDone, "", nil, nil, 1<<20, 1<<20); err != nil {
				t.Fatal(err)
			}
		}
		if n := chunks(); n != 0 {
			t.Errorf("cancel %v: %d pieces left after the job ended", cancel, n)
		}
	}
}

// TestJobReportsKept: past a team's bound or all teams', the oldest
// reports are let go first, never the one just kept.
func TestJobReportsKept(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	report := bytes.Repeat([]byte("x"), 1000)
	run := func(email, team string) string {
		t.Helper()
		j := jobOf(t, db, email, team)
		if _, ok, _ := db.Jobs.ClaimJob(ctx); !ok {
			t.Fatal("not claimed")
		}
		if err := db.Jobs.EndJob(ctx, j.ID, site.JobDone, "", nil, report, 2500, 3500); err != nil { // two a team, three in all
			t.Fatal(err)
		}
		return j.ID
	}
	a1, a2, b1 := run("a1@x.example", "A"), run("a2@x.example", "A"), run("b1@x.example", "B")
	b2 := run("b2@x.example", "B") // four: a1 goes
	a3 := run("a3@x.example", "A") // a2 goes
	for _, tc := range []struct {
		id      string
		dropped bool
	}{{a1, true}, {a2, true}, {b1, false}, {b2, false}, {a3, false}} {
		j, err := db.Jobs.Job(ctx, tc.id, true)
		if err != nil || j.Dropped != tc.dropped || (j.Report == nil) != tc.dropped {
			t.Errorf("%s: dropped %v, report %d bytes (%v), want dropped %v", tc.id, j.Dropped, len(j.Report), err, tc.dropped)
		}
	}
}

// TestJobWaitsTooLong: a job that waits for its turn past the limit is
// failed with the message given, and its upload removed.
func TestJobWaitsTooLong(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	now := clock(db)
	u, _, _ := db.Accounts.AddUser(ctx, "a@test.example", "A", pw, "A", site.RoleOwner)
	tm, _ := db.Teams.FindTeam(ctx, "A")
	j, err := db.Jobs.CreateJob(ctx, site.Job{Kind: site.JobImport, UserID: u.ID, TeamID: tm.ID, Source: "old.xml"}, bytes.NewReader([]byte("<urlset/>")))
	if err != nil {
		t.Fatal(err)
	}
	lim := site.JobLimits{Stale: time.Minute, Wait: 30 * time.Minute, Kept: time.Hour, WaitMsg: "The server was busy."}
	for _, tc := range []struct {
		after time.Duration
		state string
	}{{29 * time.Minute, site.JobWaiting}, {31 * time.Minute, site.JobFailed}} {
		*now = now.Add(tc.after - now.Sub(j.Created))
		db.Jobs.SweepJobs(ctx, lim)
		got, _ := db.Jobs.Job(ctx, j.ID, false)
		if got.State != tc.state {
			t.Errorf("%v after it came: %s, want %s", tc.after, got.State, tc.state)
		}
	}
	if got, _ := db.Jobs.Job(ctx, j.ID, false); got.Error != lim.WaitMsg {
		t.Errorf("it says %q", got.Error)
	}
	if b, _ := io.ReadAll(db.Jobs.JobUpload(ctx, j.ID)); len(b) != 0 {
		t.Errorf("%d bytes of its upload kept", len(b))
	}
}
