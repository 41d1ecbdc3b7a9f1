package site

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestStudyDraw: a participant gets every task in the study's order, or
// PerParticipant of them drawn at random (each as often, in the long
// run), in the study's order unless Random.
func TestStudyDraw(t *testing.T) {
	s := Study{Tasks: []TreeTask{{Key: "a"}, {Key: "b"}, {Key: "c"}, {Key: "d"}}}
	r := rand.New(rand.NewPCG(1, 2))
	if got := strings.Join(s.Draw(r), ""); got != "abcd" {
		t.Errorf("all, in order: %s", got)
	}
	s.PerParticipant = 2
	seen := map[string]int{}
	for range 4000 {
		got := s.Draw(r)
		if len(got) != 2 || !slices.IsSorted(got) || got[0] == got[1] {
			t.Fatalf("2 of 4, in the study's order: %v", got)
		}
		for _, k := range got {
			seen[k]++
		}
	}
	for k, n := range seen {
		if n < 1800 || n > 2200 {
			t.Errorf("task %s drawn %d times of 4000 draws of 2 of 4", k, n)
		}
	}
	s.PerParticipant, s.Random = 0, true
	orders := map[string]bool{}
	for range 200 {
		orders[strings.Join(s.Draw(r), "")] = true
	}
	if len(orders) < 20 {
		t.Errorf("random order: %d orders of 24 in 200 draws", len(orders))
	}
}

// TestStudyValidate: a study is refused with what to fix.
func TestStudyValidate(t *testing.T) {
	for _, tc := range []struct {
		s    Study
		want string
	}{
		{Study{Name: "x"}, "1 to 50 tasks"},
		{Study{Name: "x", Tasks: []TreeTask{{Text: " "}}}, "Task 1: give it a text"},
		{Study{Name: "x", Tasks: []TreeTask{{Text: "Where?"}}}, "Task 1 (Where?): name at least one correct page"},
		{Study{Name: "x", Tasks: []TreeTask{{Key: "k", Text: "a", Correct: []int64{1}}, {Key: "k", Text: "b", Correct: []int64{1}}}}, `Task 2: the key "k"`},
		{Study{Name: "x", PerParticipant: 3, Tasks: []TreeTask{{Text: "a", Correct: []int64{1}}}}, "0 (all) to 1"},
	} {
		if err := tc.s.Validate(); err == nil || !strings.Contains(ErrorMessage(err), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.s, err, tc.want)
		}
	}
	ok := Study{Name: " Nav ", Tasks: []TreeTask{{Text: " Where? ", Correct: []int64{1}}}}
	if err := ok.Validate(); err != nil || ok.Name != "Nav" || ok.Tasks[0].Key != "1" || ok.Tasks[0].Text != "Where?" {
		t.Errorf("%+v: %v", ok, err)
	}
}
