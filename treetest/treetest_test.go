package treetest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"siteplan/site"
)

// The study's tree: two "Returns" pages under different parents.
var nodes = []site.TreeNode{
	{ID: 1, Label: "Products"}, {ID: 2, Parent: 1, Label: "Tents"}, {ID: 3, Parent: 1, Label: "Rentals"}, {ID: 4, Parent: 3, Label: "Returns"},
	{ID: 5, Label: "Help"}, {ID: 6, Parent: 5, Label: "Returns"}, {ID: 7, Parent: 5, Label: "Contact"},
}

// script is a participant's events of one task: kind and page, a second
// apart.
func script(participant int64, task string, start int64, steps ...any) []site.TreeEvent {
	evs := []site.TreeEvent{{Participant: participant, Task: task, Kind: site.TreeStart, At: start}}
	for i := 0; i < len(steps); i += 2 {
		start += 1000
		evs = append(evs, site.TreeEvent{Participant: participant, Task: task, Kind: steps[i].(string), PageID: int64(steps[i+1].(int)), At: start})
	}
	return evs
}

const (
	open, closeIt, choose, skip = site.TreeOpen, site.TreeClose, site.TreeChoose, site.TreeSkip
)

// scripted is a study of one task ("Where would you return a tent you
// rented?", correct: Products › Rentals › Returns) and seven
// participants whose outcomes are known.
func scripted() ([]site.TreeTask, []site.TreeParticipant, []site.TreeEvent) {
	tasks := []site.TreeTask{{Key: "t1", Text: "Where would you return a tent you rented?", Correct: []int64{4}}}
	var evs []site.TreeEvent
	evs = append(evs, script(1, "t1", 0, open, 1, open, 3, open, 4, choose, 4)...)                   // direct success, 4 s
	evs = append(evs, script(2, "t1", 0, open, 5, open, 6, open, 1, open, 3, open, 4, choose, 4)...) // across from Help: indirect success, 6 s
	evs = append(evs, script(3, "t1", 0, open, 5, open, 6, choose, 6)...)                            // the other Returns: direct fail, 3 s
	evs = append(evs, script(4, "t1", 0, open, 1, open, 2, open, 3, choose, 3)...)                   // Tents then Rentals, across: indirect fail, 4 s
	evs = append(evs, script(5, "t1", 0, skip, 0)...)                                                // direct skip
	evs = append(evs, script(6, "t1", 0, open, 1, closeIt, 1, skip, 0)...)                           // back up, then skip: indirect skip
	evs = append(evs, script(7, "t1", 0, open, 1)...)                                                // left without an end: no attempt
	var parts []site.TreeParticipant
	for i := range 7 {
		parts = append(parts, site.TreeParticipant{ID: int64(i + 1), Params: map[string]string{"segment": []string{"clients", "staff"}[i%2]}})
	}
	return tasks, parts, evs
}

func near(a, b float64) bool { return math.Abs(a-b) < 0.0005 }

// TestScoreScripted: every metric of the scripted participants, each
// count exact.
func TestScoreScripted(t *testing.T) {
	tasks, parts, evs := scripted()
	atts := Attempts(nodes, evs)
	res := Score(tasks, nodes, parts, evs, atts, Options{})
	if res.Participants != 7 || len(res.Tasks) != 1 {
		t.Fatalf("results: %+v", res)
	}
	tr := res.Tasks[0]
	got := fmt.Sprint(tr.N, tr.DirectSuccess, tr.IndirectSuccess, tr.DirectFail, tr.IndirectFail, tr.DirectSkip, tr.IndirectSkip)
	if got != "6 1 1 1 1 1 1" {
		t.Errorf("n, direct/indirect success, fail, skip: %s", got)
	}
	if s := tr.Success; s.X != 2 || s.N != 6 || !near(s.Low, 0.0925) || !near(s.High, 0.7043) {
		t.Errorf("success: %+v", s) // p̃ = 3.9208/9.8416 = 0.3984, ± 1.96·√(0.3984·0.6016/9.8416) = 0.3059
	}
	if d := tr.Directness; d.X != 3 || d.N != 6 {
		t.Errorf("directness: %+v", d)
	}
	if tr.TimeQ1 != 3750 || tr.TimeMedian != 4000 || tr.TimeQ3 != 4500 {
		t.Errorf("time q1/median/q3: %d %d %d (choices of 4, 6, 3, 4 s)", tr.TimeQ1, tr.TimeMedian, tr.TimeQ3)
	}
	if got := fmt.Sprint(tr.FirstClicks); got != "[{1 3 true} {5 2 false}]" {
		t.Errorf("first clicks: %s", got)
	}
	if f := tr.FirstClickSuccess; f.X != 3 || f.N != 5 {
		t.Errorf("first-click success: %+v", f)
	}
	if got := fmt.Sprint(tr.Destinations); got != "[{3 1 false} {6 1 false} {4 2 true}]" {
		t.Errorf("destinations, the wrong first: %s", got)
	}
	paths := map[int64]Node{}
	for _, n := range tr.Paths {
		paths[n.PageID] = n
	}
	for id, want := range map[int64]Node{
		1: {PageID: 1, Visits: 4, Back: 1, Right: true}, // p1, p2, p4 and p6 opened it; p6 closed it (p4 moved back from Tents)
		3: {PageID: 3, Visits: 3, Chose: 1, Right: true},
		4: {PageID: 4, Visits: 2, Chose: 2, Right: true},
		5: {PageID: 5, Visits: 2},
		6: {PageID: 6, Visits: 2, Back: 1, Chose: 1},
		2: {PageID: 2, Visits: 1, Back: 1},
	} {
		if paths[id] != want {
			t.Errorf("path view of %d: %+v, want %+v", id, paths[id], want)
		}
	}
	// A segment, and speeders: participants 2 and 4 took 6 and 4 s.
	seg := Score(tasks, nodes, parts, evs, atts, Options{Segment: map[string]string{"segment": "clients"}})
	if seg.Participants != 4 || seg.Tasks[0].N != 3 || seg.Tasks[0].Success.X != 1 {
		t.Errorf("clients (1, 3, 5, 7): %d participants, n %d, success %d", seg.Participants, seg.Tasks[0].N, seg.Tasks[0].Success.X)
	}
	fast := Score(tasks, nodes, parts, evs, atts, Options{MinMillis: 3500})
	if fast.Participants != 3 || fast.Tasks[0].N != 3 || len(fast.Excluded) != 4 || fast.Excluded[0].Participant != 3 {
		t.Errorf("speeders under 3.5 s: %+v", fast)
	}
	// Marking the other Returns correct afterwards recomputes: participant
	// 3 succeeded, directly, and Help is now a first click on a path.
	tasks[0].Correct = append(tasks[0].Correct, 6)
	tr = Score(tasks, nodes, parts, evs, atts, Options{}).Tasks[0]
	if tr.DirectSuccess != 2 || tr.DirectFail != 0 || tr.FirstClickSuccess.X != 5 {
		t.Errorf("after marking 6 correct: %+v", tr)
	}
}

// TestScoreRecomputes: over random studies (repeated labels, moves back
// and across, reloads, abandoned tasks) and random edits of the correct
// pages, the results from the attempts read once before the edits equal
// those computed from the events from scratch, and each success count
// equals a plain count of the last choices among the correct pages.
func TestScoreRecomputes(t *testing.T) {
	for seed := range 40 {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		var ns []site.TreeNode
		for i := range 8 + r.IntN(30) {
			p := int64(0)
			if i > 2 {
				p = int64(1 + r.IntN(i))
			}
			ns = append(ns, site.TreeNode{ID: int64(i + 1), Parent: p, Label: []string{"Returns", "Help", "Shop"}[r.IntN(3)]})
		}
		tasks := []site.TreeTask{{Key: "a", Correct: []int64{ns[r.IntN(len(ns))].ID}}, {Key: "b", Correct: []int64{ns[r.IntN(len(ns))].ID}}}
		var parts []site.TreeParticipant
		var evs []site.TreeEvent
		for p := range 30 {
			pid := int64(p + 1)
			parts = append(parts, site.TreeParticipant{ID: pid})
			at := int64(0)
			for _, task := range []string{"a", "b"} {
				evs = append(evs, site.TreeEvent{Participant: pid, Task: task, Kind: site.TreeStart, At: at})
				for range r.IntN(8) {
					at += int64(r.IntN(3000))
					kind := []string{open, open, open, closeIt, site.TreeStart}[r.IntN(5)]
					evs = append(evs, site.TreeEvent{Participant: pid, Task: task, Kind: kind, PageID: ns[r.IntN(len(ns))].ID, At: at})
				}
				at += int64(r.IntN(3000))
				switch r.IntN(6) {
				case 0: // left
				case 1:
					evs = append(evs, site.TreeEvent{Participant: pid, Task: task, Kind: skip, At: at})
				default:
					evs = append(evs, site.TreeEvent{Participant: pid, Task: task, Kind: choose, PageID: ns[r.IntN(len(ns))].ID, At: at})
				}
			}
		}
		cached := Attempts(ns, evs)
		for range 10 {
			tk := &tasks[r.IntN(2)]
			if r.IntN(2) == 0 || len(tk.Correct) == 1 {
				tk.Correct = append(tk.Correct, ns[r.IntN(len(ns))].ID)
			} else {
				tk.Correct = slices.Delete(tk.Correct, 0, 1)
			}
			got := Score(tasks, ns, parts, evs, cached, Options{})
			want := Score(tasks, ns, parts, evs, Attempts(ns, evs), Options{})
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d: recomputed %+v\nfrom scratch %+v", seed, got, want)
			}
			for i, tr := range got.Tasks {
				if n := plainSuccesses(evs, tasks[i]); tr.Success.X != n {
					t.Fatalf("seed %d task %s: %d successes, a plain count says %d", seed, tr.Key, tr.Success.X, n)
				}
			}
		}
	}
}

// plainSuccesses counts, straight from the events, the participants
// whose first choice of a task is one of its correct pages.
func plainSuccesses(evs []site.TreeEvent, task site.TreeTask) int {
	done := map[int64]bool{}
	started := map[int64]bool{}
	n := 0
	for _, e := range evs {
		if e.Task != task.Key || done[e.Participant] {
			continue
		}
		switch e.Kind {
		case site.TreeStart:
			started[e.Participant] = true
		case skip:
			done[e.Participant] = started[e.Participant]
		case choose:
			if started[e.Participant] {
				done[e.Participant] = true
				if slices.Contains(task.Correct, e.PageID) {
					n++
				}
			}
		}
	}
	return n
}

// TestAdjustedWald: the interval of the formula, within 0 and 1.
func TestAdjustedWald(t *testing.T) {
	for _, tc := range []struct {
		x, n      int
		low, high float64
	}{
		{2, 6, 0.0925, 0.7043},    // p̃ = 3.9208/9.8416 = 0.3984 ± 0.3059
		{0, 10, 0, 0.3209},        // p̃ = 1.9208/13.8416 = 0.1388 ± 0.1821
		{10, 10, 0.6791, 1},       // the mirror of 0 of 10
		{81, 100, 0.7214, 0.8757}, // p̃ = 82.9208/103.8416 = 0.7985 ± 0.0771
	} {
		got := AdjustedWald(tc.x, tc.n)
		if !near(got.Low, tc.low) || !near(got.High, tc.high) {
			t.Errorf("%d of %d: %.4f–%.4f, want %.4f–%.4f", tc.x, tc.n, got.Low, got.High, tc.low, tc.high)
		}
	}
}

// TestNow: where a participant is: their first task without an end, the
// items open in it (a close shuts the items below too, a start again
// shuts them all) and the item they are at.
func TestNow(t *testing.T) {
	p := site.TreeParticipant{ID: 1, Tasks: []string{"a", "b"}}
	evs := script(1, "a", 0, open, 1, open, 3, open, 4)
	now := Now(p, nil, nodes, evs)
	if now.Task != "a" || now.Number != 1 || now.At != 4 || !now.Open[1] || !now.Open[3] {
		t.Errorf("in a: %+v", now)
	}
	now = Now(p, nil, nodes, append(evs, site.TreeEvent{Participant: 1, Task: "a", Kind: closeIt, PageID: 1, At: 9000}))
	if now.At != 0 || len(now.Open) != 0 {
		t.Errorf("Products closed, and Rentals below it: %+v", now)
	}
	now = Now(p, nil, nodes, append(evs, site.TreeEvent{Participant: 1, Task: "a", Kind: site.TreeStart, At: 9000}))
	if now.At != 0 || len(now.Open) != 0 {
		t.Errorf("a reload: %+v", now)
	}
	evs = append(evs, site.TreeEvent{Participant: 1, Task: "a", Kind: choose, PageID: 4, At: 9000})
	if now = Now(p, nil, nodes, evs); now.Task != "b" || now.Number != 2 || len(now.Open) != 0 {
		t.Errorf("a done: %+v", now)
	}
	if now = Now(p, nil, nodes, append(evs, site.TreeEvent{Participant: 1, Task: "b", Kind: skip})); now.Task != "" {
		t.Errorf("all done: %+v", now)
	}
}

// TestNowAsks: a task with a confidence question asks it after its
// choice or its timeout, before the next task starts; the time limit
// counts from the task's first start, not a reload's.
func TestNowAsks(t *testing.T) {
	p := site.TreeParticipant{ID: 1, Tasks: []string{"a", "b"}}
	tasks := []site.TreeTask{{Key: "a", Confidence: true}, {Key: "b"}}
	evs := script(1, "a", 500, open, 1)
	evs = append(evs, site.TreeEvent{Participant: 1, Task: "a", Kind: site.TreeStart, At: 4000})
	if now := Now(p, tasks, nodes, evs); now.Started != 500 || now.Task != "a" {
		t.Errorf("a reloaded: %+v, want started at 500", now)
	}
	evs = append(evs, site.TreeEvent{Participant: 1, Task: "a", Kind: site.TreeTimeout, At: 9000})
	if now := Now(p, tasks, nodes, evs); now.Asking != "a" || now.Task != "" || now.Number != 1 {
		t.Errorf("a timed out: %+v, want its confidence asked", now)
	}
	evs = append(evs, site.TreeEvent{Participant: 1, Task: "a", Kind: site.TreeConfidence, PageID: 6, At: 9500},
		site.TreeEvent{Participant: 1, Task: "b", Kind: site.TreeStart, At: 9500})
	if now := Now(p, tasks, nodes, evs); now.Asking != "" || now.Task != "b" || now.Started != 9500 {
		t.Errorf("a answered: %+v, want b", now)
	}
	atts := Attempts(nodes, evs)
	if len(atts) != 1 || !atts[0].TimedOut || !atts[0].Skipped() || atts[0].Confidence != 6 || atts[0].Millis != 8500 {
		t.Fatalf("attempts: %+v, want a timed out after 8.5 s, confidence 6", atts)
	}
	res := Score(tasks, nodes, []site.TreeParticipant{p}, evs, atts, Options{})
	if tr := res.Tasks[0]; tr.TimedOut != 1 || tr.DirectSkip != 1 || tr.Confidence[5] != 1 || tr.ConfidenceMedian != 6 {
		t.Errorf("a: timed out %d, direct skips %d, confidence %v median %v", tr.TimedOut, tr.DirectSkip, tr.Confidence, tr.ConfidenceMedian)
	}
}

func TestMedian7(t *testing.T) {
	for _, tc := range []struct {
		counts [7]int
		want   float64
	}{{[7]int{}, 0}, {[7]int{0, 0, 1}, 3}, {[7]int{0, 0, 1, 1}, 3.5}, {[7]int{2, 0, 0, 0, 0, 0, 1}, 1}, {[7]int{1, 0, 0, 0, 0, 0, 2}, 7}} {
		if got := median7(tc.counts); got != tc.want {
			t.Errorf("median7(%v) = %v, want %v", tc.counts, got, tc.want)
		}
	}
}
