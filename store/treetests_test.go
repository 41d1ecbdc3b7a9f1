package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"siteplan/site"
)

// TestTreeTests creates a study on a version of the sample plan, lets
// participants join through its link and record what they did, and
// reads it back: the link's token is kept only hashed, the tree shows
// labels of the navigation alone, a correct page can be marked
// afterwards, and a closed or full study takes no one new.
func TestTreeTests(t *testing.T) {
	db := openTest(t)
	pid, ids, anna, _ := acmeFor(t, db)
	s := site.Study{ProjectID: pid, Name: "Navigation v1", AllNavigation: true, MaxParticipants: 2, Tasks: []site.TreeTask{
		{Text: "Where would you find the prices?", Correct: []int64{ids["Pricing"]}},
		{Text: "Where would you sign in?", Correct: []int64{ids["Login"]}, Confidence: true},
	}}
	token, err := db.TreeTests.CreateStudy(anna, &s)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != 1 || s.Tasks[0].Key != "1" {
		t.Errorf("the study froze the plan as version %d; task keys %q", s.Version, s.Tasks[0].Key)
	}
	var stored int
	db.r.QueryRow(`SELECT count(*) FROM studies WHERE token_hash = ?`, token).Scan(&stored)
	if stored != 0 {
		t.Error("the link's token is stored as it is")
	}
	got, err := db.TreeTests.StudyByToken(context.Background(), token)
	if err != nil || got.ID != s.ID || len(got.Tasks) != 2 || got.Tasks[1].Correct[0] != ids["Login"] || !got.Tasks[1].Confidence {
		t.Fatalf("by token: %+v, %v", got, err)
	}
	nodes, err := db.TreeTests.StudyTree(context.Background(), got)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, n := range nodes {
		labels = append(labels, n.Label)
	}
	// Home's children (Contact is kept out of the navigation), then the
	// utility and footer navigation.
	if got := strings.Join(labels, ","); got != `About us,Team,Products,Pricing,Café & "Bar" <b>,Later,Blog,Login,Imprint,Privacy` {
		t.Errorf("the study's tree: %s", got)
	}
	// A later edit of the plan leaves the study's tree as it was.
	if _, err := db.Pages.RenamePage(anna, ids["Pricing"], "Prices", 1); err != nil {
		t.Fatal(err)
	}
	if again, _ := db.TreeTests.StudyTree(context.Background(), got); again[3].Label != "Pricing" {
		t.Errorf("the tree after an edit of the plan: %+v", again[3])
	}
	p1, secret, err := db.TreeTests.Join(context.Background(), got, map[string]string{"segment": "clients"}, []string{"2", "1"})
	if err != nil {
		t.Fatal(err)
	}
	if back, err := db.TreeTests.Participant(context.Background(), secret); err != nil || back.ID != p1.ID || back.Params["segment"] != "clients" || fmt.Sprint(back.Tasks) != "[2 1]" {
		t.Errorf("resumed: %+v, %v", back, err)
	}
	evs := []site.TreeEvent{{Task: "1", Kind: site.TreeStart}, {Task: "1", Kind: site.TreeOpen, PageID: ids["Products"], At: 900},
		{Task: "1", Kind: site.TreeOpen, PageID: ids["Pricing"], At: 1800}, {Task: "1", Kind: site.TreeChoose, PageID: ids["Pricing"], At: 2500}}
	if err := db.TreeTests.Record(context.Background(), p1, evs); err != nil {
		t.Fatal(err)
	}
	if err := db.TreeTests.Record(context.Background(), p1, []site.TreeEvent{{Task: "3", Kind: site.TreeStart}}); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("a task not drawn: %v", err)
	}
	if err := db.TreeTests.Record(context.Background(), p1, []site.TreeEvent{{Task: "1", Kind: "delete"}}); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("an unknown kind: %v", err)
	}
	// Task 2 ends by its time limit, its confidence asked after it.
	if err := db.TreeTests.Record(context.Background(), p1, []site.TreeEvent{{Task: "2", Kind: site.TreeStart, At: 3000},
		{Task: "2", Kind: site.TreeTimeout, At: 63000}, {Task: "2", Kind: site.TreeConfidence, PageID: 3, At: 64000}}); err != nil {
		t.Fatalf("a timeout and a confidence: %v", err)
	}
	back, err := db.TreeTests.Events(context.Background(), s.ID)
	if err != nil || len(back) != 7 || back[2].PageID != ids["Pricing"] || back[3].At != 2500 || back[0].Participant != p1.ID || back[5].Kind != site.TreeTimeout {
		t.Errorf("events: %+v, %v", back, err)
	}
	if rec, tr, err := db.TreeTests.StudyRecord(context.Background(), got); err != nil || len(rec.Events) != 7 || len(rec.Participants) != 1 || len(rec.Nodes) == 0 || tr.Page(ids["Pricing"]) == nil {
		t.Errorf("the study's record: %d events, %d participants, %d items, %v", len(rec.Events), len(rec.Participants), len(rec.Nodes), err)
	}
	// The speeders' threshold and a new link: the old one no longer opens
	// the study.
	if err := db.TreeTests.SetSpeeder(context.Background(), pid, s.ID, 20000); err != nil {
		t.Fatal(err)
	}
	if err := db.TreeTests.SetSpeeder(context.Background(), pid+1, s.ID, 20000); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("another project's study: %v", err)
	}
	link, err := db.TreeTests.NewStudyLink(context.Background(), pid, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := db.TreeTests.StudyByToken(context.Background(), link); err != nil || again.SpeederMillis != 20000 {
		t.Errorf("the new link: %+v, %v", again, err)
	}
	if _, err := db.TreeTests.StudyByToken(context.Background(), token); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("the old link: %v", err)
	}
	if _, _, err := db.TreeTests.Join(context.Background(), got, nil, []string{"1"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.TreeTests.Join(context.Background(), got, nil, []string{"1"}); site.ErrorCode(err) != site.EForbidden {
		t.Errorf("past the cap of 2: %v", err)
	}
	// Marking another page correct afterwards: one of the tree's.
	if err := db.TreeTests.SetCorrect(context.Background(), s.ID, "1", []int64{ids["Pricing"], ids["Products"]}); err != nil {
		t.Fatal(err)
	}
	if err := db.TreeTests.SetCorrect(context.Background(), s.ID, "1", []int64{ids["Contact"]}); site.ErrorCode(err) != site.EInvalid ||
		!strings.Contains(site.ErrorMessage(err), "kept out of the navigation") {
		t.Errorf("a page the tree does not show: %v", err)
	}
	if got, _ := db.TreeTests.Study(context.Background(), s.ID); fmt.Sprint(got.Tasks[0].Correct) != fmt.Sprint([]int64{ids["Pricing"], ids["Products"]}) {
		t.Errorf("correct pages: %v", got.Tasks[0].Correct)
	}
	if err := db.TreeTests.RevokeStudy(context.Background(), pid, s.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.TreeTests.Record(context.Background(), p1, []site.TreeEvent{{Task: "2", Kind: site.TreeStart}}); site.ErrorCode(err) != site.EForbidden {
		t.Errorf("recording in a revoked study: %v", err)
	}
	// A study of a branch on an existing version; a bad one is refused
	// whole, naming the task.
	b := site.Study{ProjectID: pid, Version: 1, Name: "Products", Root: ids["Products"], ExpiresAt: time.Now().Add(time.Hour),
		Tasks: []site.TreeTask{{Text: "Team?", Correct: []int64{ids["Team"]}}}}
	if _, err := db.TreeTests.CreateStudy(anna, &b); site.ErrorCode(err) != site.EInvalid || !strings.Contains(site.ErrorMessage(err), "Task 1") {
		t.Errorf("a correct page outside the branch: %v", err)
	}
	studies, _ := db.TreeTests.Studies(context.Background(), pid)
	if len(studies) != 1 || studies[0].RevokedAt.IsZero() || len(studies[0].Tasks) != 2 || studies[0].Tasks[1].Key != "2" {
		t.Errorf("studies: %+v", studies)
	}
}
