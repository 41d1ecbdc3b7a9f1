package treetest

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"siteplan/site"
)

// Definitions are the results' definitions, as the results page and the
// export state them.
var Definitions = []struct{ Name, Meaning string }{
	{"success", "the participant chose one of the task's correct pages"},
	{"direct", "the participant never moved back up or across the tree (closed an item, or opened one that is not a child of the item they were at) before choosing or skipping; else indirect"},
	{"fail", "the participant chose a page that is not correct"},
	{"skip", "the participant skipped the task, or its time limit ran out (a timeout, also counted on its own)"},
	{"directness", "the share of attempts without a move back, right or wrong"},
	{"time", "milliseconds from the task's start to the choice; skips left out; median and quartiles (linear between ranks)"},
	{"first click", "the first page opened; a success when it is a correct page or above one"},
	{"interval", "Adjusted-Wald 95%: p̃ = (x + z²/2)/(n + z²), p̃ ± z·√(p̃(1−p̃)/(n + z²)), z = 1.96, within 0 and 1"},
	{"confidence", "the answer to the task's question after it, 1 (not at all confident) to 7 (very confident): how many gave each, and the median"},
	{"speeder", "a participant whose whole study took less than the team's threshold: left out of every figure"},
}

// Interval is a share x of n with its Adjusted-Wald 95% interval.
type Interval struct {
	X, N      int
	P         float64 // x/n; 0 for no n
	Low, High float64
}

// z is the normal quantile of a two-sided 95% interval.
const z = 1.96

// AdjustedWald is x of n with its Adjusted-Wald 95% interval (Agresti
// and Coull): p̃ = (x + z²/2)/(n + z²), p̃ ± z·√(p̃(1−p̃)/(n + z²)).
func AdjustedWald(x, n int) Interval {
	in := Interval{X: x, N: n}
	if n == 0 {
		return in
	}
	in.P = float64(x) / float64(n)
	z2 := z * z
	pt := (float64(x) + z2/2) / (float64(n) + z2)
	half := z * math.Sqrt(pt*(1-pt)/(float64(n)+z2))
	in.Low, in.High = max(0, pt-half), min(1, pt+half)
	return in
}

// Count is a page and how many attempts it was.
type Count struct {
	PageID  int64
	N       int
	Correct bool // a correct page (destinations), or on a path to one (first clicks)
}

// Node is one page of a task's path view (the pietree): of the attempts
// that opened it, how many went on the right way (it is a correct page
// or above one), how many the wrong way, how many moved back from it,
// and how many chose it.
type Node struct {
	PageID              int64
	Visits, Back, Chose int
	Right               bool // on a path to a correct page
}

// TaskResult is one task's results.
type TaskResult struct {
	Key, Text                              string
	N                                      int // attempts ended (chosen or skipped)
	DirectSuccess, IndirectSuccess         int
	DirectFail, IndirectFail               int
	DirectSkip, IndirectSkip               int
	Success, Directness, FirstClickSuccess Interval
	TimeMedian, TimeQ1, TimeQ3             int64 // ms, choices only
	FirstClicks, Destinations              []Count
	Paths                                  []Node // in the order the tree lists them
	Chosen                                 int    // attempts that chose a page
	TimedOut                               int    // skips by the time limit
	// Confidence counts the answers to the confidence question, 1 to 7
	// at [0] to [6]; ConfidenceMedian is their median (0: none).
	Confidence       [7]int
	ConfidenceMedian float64
	firstClickN      int
	correct, onPath  map[int64]bool
}

// Results are a study's results.
type Results struct {
	Tasks        []TaskResult
	Participants int         // counted: in the segment, not speeders
	Excluded     []Exclusion // speeders, with the reason
}

// Exclusion is a participant left out of the results, and why.
type Exclusion struct {
	Participant int64
	Reason      string
}

// Options narrow what results count.
type Options struct {
	// Segment keeps the participants whose URL parameters have these
	// values (?segment=clients); nil keeps all.
	Segment map[string]string
	// MinMillis: a participant whose whole study took less (from their
	// first event to their last) is a speeder, left out. 0: none is.
	MinMillis int64
}

// Compute is study s's results from its record: the attempts read from
// its events, scored with its tasks' correct pages as they are now.
func Compute(s site.Study, r site.StudyRecord, opt Options) (Results, []Attempt) {
	attempts := Attempts(r.Nodes, r.Events)
	return Score(s.Tasks, r.Nodes, r.Participants, r.Events, attempts, opt), attempts
}

// IsCorrect reports whether page id is one of the task's correct pages.
func (tr *TaskResult) IsCorrect(id int64) bool { return tr.correct[id] }

// Score computes the results of tasks from attempts (Attempts of the
// study's events) on the study's tree, with the tasks' correct pages as
// they are now.
func Score(tasks []site.TreeTask, nodes []site.TreeNode, parts []site.TreeParticipant, events []site.TreeEvent, attempts []Attempt, opt Options) Results {
	keep, res := participants(parts, events, opt)
	parent := make(map[int64]int64, len(nodes))
	for _, n := range nodes {
		parent[n.ID] = n.Parent
	}
	byTask := map[string]*TaskResult{}
	for _, t := range tasks {
		tr := &TaskResult{Key: t.Key, Text: t.Text, correct: map[int64]bool{}, onPath: map[int64]bool{}}
		for _, c := range t.Correct {
			tr.correct[c] = true
			for id, seen := c, 0; id != 0 && seen <= len(nodes); id, seen = parent[id], seen+1 { // a page and the pages above it
				tr.onPath[id] = true
			}
		}
		byTask[t.Key] = tr
	}
	times := map[string][]int64{}
	paths := map[string]map[int64]*Node{}
	for i := range attempts {
		a := &attempts[i]
		tr := byTask[a.Task]
		if tr == nil || !keep[a.Participant] {
			continue
		}
		tr.add(a)
		if !a.Skipped() {
			times[a.Task] = append(times[a.Task], a.Millis)
		}
		if paths[a.Task] == nil {
			paths[a.Task] = map[int64]*Node{}
		}
		tr.walk(a, paths[a.Task])
	}
	for _, t := range tasks {
		tr := byTask[t.Key]
		tr.finish(times[t.Key], paths[t.Key], nodes)
		res.Tasks = append(res.Tasks, *tr)
	}
	return res
}

// participants are the participants the results count, and the results
// with the speeders left out.
func participants(parts []site.TreeParticipant, events []site.TreeEvent, opt Options) (map[int64]bool, Results) {
	var res Results
	first, last := map[int64]int64{}, map[int64]int64{}
	for _, e := range events {
		if f, ok := first[e.Participant]; !ok || e.At < f {
			first[e.Participant] = e.At
		}
		last[e.Participant] = max(last[e.Participant], e.At)
	}
	keep := map[int64]bool{}
	for _, p := range parts {
		in := true
		for k, v := range opt.Segment {
			in = in && p.Params[k] == v
		}
		if !in {
			continue
		}
		if took := last[p.ID] - first[p.ID]; opt.MinMillis > 0 && took < opt.MinMillis {
			res.Excluded = append(res.Excluded, Exclusion{p.ID, "a speeder: the whole study took " + strconv.FormatInt(took, 10) + " ms, under " + strconv.FormatInt(opt.MinMillis, 10)})
			continue
		}
		keep[p.ID] = true
		res.Participants++
	}
	return keep, res
}

// add counts one attempt's outcome.
func (tr *TaskResult) add(a *Attempt) {
	tr.N++
	direct := !a.Backtracked
	switch {
	case a.Skipped() && direct:
		tr.DirectSkip++
	case a.Skipped():
		tr.IndirectSkip++
	case tr.correct[a.Chose] && direct:
		tr.DirectSuccess++
	case tr.correct[a.Chose]:
		tr.IndirectSuccess++
	case direct:
		tr.DirectFail++
	default:
		tr.IndirectFail++
	}
	if direct {
		tr.Directness.X++
	}
	if a.TimedOut {
		tr.TimedOut++
	}
	if a.Confidence >= 1 && a.Confidence <= 7 {
		tr.Confidence[a.Confidence-1]++
	}
	if a.FirstClick != 0 {
		tr.firstClickN++
		if tr.onPath[a.FirstClick] {
			tr.FirstClickSuccess.X++
		}
		tr.FirstClicks = addCount(tr.FirstClicks, a.FirstClick, tr.onPath[a.FirstClick])
	}
	if !a.Skipped() {
		tr.Chosen++
		tr.Destinations = addCount(tr.Destinations, a.Chose, tr.correct[a.Chose])
	}
}

// walk counts one attempt on the task's path view.
func (tr *TaskResult) walk(a *Attempt, nodes map[int64]*Node) {
	at := func(id int64) *Node {
		n := nodes[id]
		if n == nil {
			n = &Node{PageID: id, Right: tr.onPath[id]}
			nodes[id] = n
		}
		return n
	}
	for _, id := range a.Opened {
		at(id).Visits++
	}
	for _, id := range a.Left {
		at(id).Back++
	}
	if !a.Skipped() {
		at(a.Chose).Chose++
	}
}

// finish computes the shares, the times and the orders.
func (tr *TaskResult) finish(times []int64, paths map[int64]*Node, nodes []site.TreeNode) {
	tr.Success = AdjustedWald(tr.DirectSuccess+tr.IndirectSuccess, tr.N)
	tr.Directness = AdjustedWald(tr.Directness.X, tr.N)
	tr.FirstClickSuccess = AdjustedWald(tr.FirstClickSuccess.X, tr.firstClickN)
	slices.Sort(times)
	tr.TimeQ1, tr.TimeMedian, tr.TimeQ3 = quantile(times, 0.25), quantile(times, 0.5), quantile(times, 0.75)
	tr.ConfidenceMedian = median7(tr.Confidence)
	byCount := func(a, b Count) int { return cmp.Or(cmp.Compare(b.N, a.N), cmp.Compare(a.PageID, b.PageID)) }
	slices.SortFunc(tr.FirstClicks, byCount)
	slices.SortFunc(tr.Destinations, func(a, b Count) int { // the wrong ones first, most chosen first
		if a.Correct != b.Correct {
			if b.Correct {
				return -1
			}
			return 1
		}
		return byCount(a, b)
	})
	for _, n := range nodes {
		if p := paths[n.ID]; p != nil {
			tr.Paths = append(tr.Paths, *p)
		}
	}
}

// addCount counts one more of page id.
func addCount(cs []Count, id int64, correct bool) []Count {
	for i := range cs {
		if cs[i].PageID == id {
			cs[i].N++
			return cs
		}
	}
	return append(cs, Count{PageID: id, N: 1, Correct: correct})
}

// quantile is the p-quantile of sorted values, linear between ranks
// (the spreadsheets' QUARTILE.INC); 0 for none.
func quantile(sorted []int64, p float64) int64 {
	if len(sorted) == 0 {
		return 0
	}
	h := float64(len(sorted)-1) * p
	lo := int(math.Floor(h))
	if lo+1 >= len(sorted) {
		return sorted[lo]
	}
	return sorted[lo] + int64(math.Round((h-float64(lo))*float64(sorted[lo+1]-sorted[lo])))
}

// median7 is the median of answers 1 to 7 counted at [0] to [6]: the
// middle answer, or the mean of the middle two; 0 for none.
func median7(counts [7]int) float64 {
	n := 0
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return 0
	}
	nth := func(k int) float64 { // the k-th answer, from 0
		for v, c := range counts {
			if k < c {
				return float64(v + 1)
			}
			k -= c
		}
		return 0
	}
	return (nth((n-1)/2) + nth(n/2)) / 2
}
