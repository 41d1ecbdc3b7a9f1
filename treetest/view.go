package treetest

import "siteplan/site"

// Progress is where a participant is in their study, from their events:
// the task they are at (the first of theirs not ended by a choice, a
// skip or a timeout; "" when all are done), its number among theirs,
// and the tree as they left it in that task: the items open (their
// children shown) and the item they are at (0: none). Asking is an
// ended task whose confidence question waits for its answer (then
// Task is "" and Number is that task's).
type Progress struct {
	Task, Asking string
	Number       int
	Open         map[int64]bool
	At           int64
	// Started is when the task was first shown, in the participant's
	// milliseconds (its time limit counts from it); -1: not yet.
	Started int64
}

// Now is where participant p is, from their events (in the order
// recorded) on the study's tree nodes; tasks say which ask for the
// participant's confidence after them.
func Now(p site.TreeParticipant, tasks []site.TreeTask, nodes []site.TreeNode, events []site.TreeEvent) Progress {
	parent := make(map[int64]int64, len(nodes))
	for _, n := range nodes {
		parent[n.ID] = n.Parent
	}
	ended, answered := map[string]bool{}, map[string]bool{}
	for _, e := range events {
		switch e.Kind {
		case site.TreeChoose, site.TreeSkip, site.TreeTimeout:
			ended[e.Task] = true
		case site.TreeConfidence:
			answered[e.Task] = true
		}
	}
	asks := map[string]bool{}
	for _, t := range tasks {
		asks[t.Key] = t.Confidence
	}
	pr := Progress{Open: map[int64]bool{}, Started: -1}
	for i, t := range p.Tasks {
		if !ended[t] {
			pr.Task, pr.Number = t, i+1
			break
		}
		if asks[t] && !answered[t] {
			pr.Asking, pr.Number = t, i+1
			break
		}
	}
	if pr.Task == "" {
		return pr
	}
	for _, e := range events {
		if e.Task != pr.Task {
			continue
		}
		switch e.Kind {
		case site.TreeStart:
			pr.Open, pr.At = map[int64]bool{}, 0
			if pr.Started < 0 {
				pr.Started = e.At
			}
		case site.TreeOpen:
			pr.Open[e.PageID], pr.At = true, e.PageID
		case site.TreeClose:
			for id := range pr.Open { // the item and every item below it
				for a := id; a != 0; a = parent[a] {
					if a == e.PageID {
						delete(pr.Open, id)
						break
					}
				}
			}
			pr.At = parent[e.PageID]
		}
	}
	return pr
}
