// Package treetest computes a tree test's results from its events, as
// the research tools define them: per task success, directness, time,
// first click, destinations and the path each participant took, with
// Adjusted-Wald intervals. It is pure: events and tasks in, numbers
// out, the same however often it runs, so that a correct page marked
// afterwards recomputes exactly.
package treetest

import "siteplan/site"

// Attempt is one participant's try at one task, read from its events:
// what they did, whichever pages are correct.
type Attempt struct {
	Participant int64
	Task        string
	// Opened lists the pages opened, in order, each once (the first time).
	Opened []int64
	// Left are the pages moved away from other than down into a child or
	// by choosing it: a close, or an open across or up the tree.
	Left []int64
	// Backtracked: the participant moved back up or across the tree
	// before the choice or the skip (it is not direct).
	Backtracked bool
	FirstClick  int64 // the first page opened; 0: none
	Chose       int64 // 0: skipped
	TimedOut    bool  // skipped because the task's time limit ran out
	Millis      int64 // from the task's first start to the choice or skip
	// Confidence is the participant's answer to the task's confidence
	// question, 1 to 7; 0: none asked or answered.
	Confidence int
}

// Skipped reports whether the attempt ended with a skip.
func (a *Attempt) Skipped() bool { return a.Chose == 0 }

// Attempts reads the ended attempts of events (in the order they were
// recorded) on the study's tree nodes: an attempt begins with a task's
// start and ends with its choice, skip or timeout (its confidence
// answer, when asked, follows); one never ended (a participant
// who left) is no attempt. A start again (a reload) collapses the tree
// without a move back; events of an ended task are ignored.
func Attempts(nodes []site.TreeNode, events []site.TreeEvent) []Attempt {
	parent := make(map[int64]int64, len(nodes))
	for _, n := range nodes {
		parent[n.ID] = n.Parent
	}
	type key struct {
		participant int64
		task        string
	}
	type state struct {
		a      *Attempt
		cur    int64 // the item the participant is at (0: the top)
		start  int64
		opened map[int64]bool
		left   map[int64]bool
		ended  bool
	}
	open := map[key]*state{}
	var out []Attempt
	var pending []*state
	for _, e := range events {
		k := key{e.Participant, e.Task}
		s := open[k]
		if e.Kind == site.TreeStart {
			if s == nil {
				s = &state{a: &Attempt{Participant: e.Participant, Task: e.Task}, start: e.At, opened: map[int64]bool{}, left: map[int64]bool{}}
				open[k] = s
				pending = append(pending, s)
			}
			s.cur = 0 // the tree shown collapsed
			continue
		}
		if e.Kind == site.TreeConfidence && s != nil && s.ended && s.a.Confidence == 0 && e.PageID >= 1 && e.PageID <= 7 {
			s.a.Confidence = int(e.PageID) // asked after the task ended
		}
		if s == nil || s.ended {
			continue
		}
		a := s.a
		leave := func() {
			if s.cur != 0 && !s.left[s.cur] {
				s.left[s.cur] = true
				a.Left = append(a.Left, s.cur)
			}
			a.Backtracked = true
		}
		switch e.Kind {
		case site.TreeOpen:
			if _, ok := parent[e.PageID]; !ok {
				continue // not an item of this study's tree
			}
			if parent[e.PageID] != s.cur && e.PageID != s.cur {
				leave() // across or up
			}
			if a.FirstClick == 0 {
				a.FirstClick = e.PageID
			}
			if !s.opened[e.PageID] {
				s.opened[e.PageID] = true
				a.Opened = append(a.Opened, e.PageID)
			}
			s.cur = e.PageID
		case site.TreeClose:
			if _, ok := parent[e.PageID]; !ok {
				continue
			}
			s.cur = e.PageID
			leave()
			s.cur = parent[e.PageID]
		case site.TreeChoose, site.TreeSkip, site.TreeTimeout:
			if e.Kind == site.TreeChoose {
				if _, ok := parent[e.PageID]; !ok {
					continue
				}
				if e.PageID != s.cur && parent[e.PageID] != s.cur {
					leave()
				}
				if !s.opened[e.PageID] {
					s.opened[e.PageID] = true
					a.Opened = append(a.Opened, e.PageID)
				}
				if a.FirstClick == 0 {
					a.FirstClick = e.PageID
				}
				a.Chose = e.PageID
			}
			a.TimedOut = e.Kind == site.TreeTimeout
			a.Millis = max(0, e.At-s.start)
			s.ended = true
		}
	}
	for _, s := range pending {
		if s.ended {
			out = append(out, *s.a)
		}
	}
	return out
}
