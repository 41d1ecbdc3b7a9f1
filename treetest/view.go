package treetest

import "siteplan/site"

// Progress is where a participant is in their study, from their events:
// the task they are at (the first of theirs without a choice or a skip;
// "" when all are done), its number among theirs, and the tree as they
// left it in that task: the items open (their children shown) and the
// item they are at (0: none).
type Progress struct {
	Task   string
	Number int
	Open   map[int64]bool
	At     int64
}

// Now is where participant p is, from their events (in the order
// recorded) on the study's tree nodes.
func Now(p site.TreeParticipant, nodes []site.TreeNode, events []site.TreeEvent) Progress {
	parent := make(map[int64]int64, len(nodes))
	for _, n := range nodes {
		parent[n.ID] = n.Parent
	}
	ended := map[string]bool{}
	for _, e := range events {
		if e.Kind == site.TreeChoose || e.Kind == site.TreeSkip {
			ended[e.Task] = true
		}
	}
	pr := Progress{Open: map[int64]bool{}}
	for i, t := range p.Tasks {
		if !ended[t] {
			pr.Task, pr.Number = t, i+1
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
