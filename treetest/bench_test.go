package treetest

import (
	"math/rand/v2"
	"testing"

	"siteplan/site"
)

// BenchmarkScore1000x10 computes the results of a study of 1,000
// participants × 10 tasks on a 300-item tree (about 110,000 events),
// from its events (target: under 1 s), beside a yardstick measured in
// the same run: one pass over the events that counts them by kind.
func BenchmarkScore1000x10(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var nodes []site.TreeNode
	for i := range 300 {
		p := int64(0)
		if i >= 8 {
			p = int64(1 + r.IntN(i))
		}
		nodes = append(nodes, site.TreeNode{ID: int64(i + 1), Parent: p, Label: "Item"})
	}
	var tasks []site.TreeTask
	keys := make([]string, 10)
	for k := range 10 {
		keys[k] = string(rune('a' + k))
		tasks = append(tasks, site.TreeTask{Key: keys[k], Correct: []int64{int64(1 + r.IntN(300))}})
	}
	var parts []site.TreeParticipant
	var events []site.TreeEvent
	for p := range 1000 {
		pid := int64(p + 1)
		parts = append(parts, site.TreeParticipant{ID: pid, Tasks: keys})
		at := int64(0)
		for _, k := range keys {
			events = append(events, site.TreeEvent{Participant: pid, Task: k, Kind: site.TreeStart, At: at})
			for range 8 + r.IntN(6) {
				at += int64(500 + r.IntN(3000))
				events = append(events, site.TreeEvent{Participant: pid, Task: k, Kind: site.TreeOpen, PageID: int64(1 + r.IntN(300)), At: at})
			}
			events = append(events, site.TreeEvent{Participant: pid, Task: k, Kind: site.TreeChoose, PageID: int64(1 + r.IntN(300)), At: at + 900})
		}
	}
	b.Run("score", func(b *testing.B) {
		for b.Loop() {
			Score(tasks, nodes, parts, events, Attempts(nodes, events), Options{MinMillis: 60_000})
		}
		b.ReportMetric(float64(len(events)), "events")
	})
	b.Run("count-events", func(b *testing.B) {
		for b.Loop() {
			kinds := map[string]int{}
			for _, e := range events {
				kinds[e.Kind]++
			}
		}
	})
}
