package site

// A tree test (the method of Treejack and its peers) asks people where
// they would look for things in a plan's navigation, before anyone
// builds it: each participant gets tasks and clicks through the bare
// tree of a version of the plan, labels only, until they choose where
// they would look, or skip. What they did is kept as events,
// append-only; every outcome is computed from the events and the
// tasks' correct pages as they are now (package treetest), so marking
// another page correct afterwards recomputes exactly.

// Tree-test event kinds, as the participant's page records them.
const (
	TreeStart  = "start"  // a task shown (again, after a reload: the tree collapsed)
	TreeOpen   = "open"   // an item opened: its children shown, or a leaf selected
	TreeClose  = "close"  // an opened item closed: a move back up
	TreeChoose = "choose" // "I'd find it here" on the opened item
	TreeSkip   = "skip"   // "Skip this task"
)

// TreeNode is an item of a study's tree: a page of its version (its id),
// its parent's id (0 at the top) and its label. Labels may repeat.
type TreeNode struct {
	ID, Parent int64
	Label      string
}

// TreeTask is one task of a study: its text and the pages of the
// study's version where it is answered right (any depth).
type TreeTask struct {
	Key     string // stable within its study
	Text    string
	Correct []int64
	// TimeLimit in seconds (0: none); Confidence: a 1–7 question after it.
	TimeLimit  int
	Confidence bool
}

// TreeEvent is one thing a participant did, in the order they did it:
// its kind, the task, the page (open, close, choose) and when, in
// milliseconds since the participant began the study.
type TreeEvent struct {
	Participant int64
	Task        string
	Kind        string
	PageID      int64
	At          int64
}

// TreeParticipant is one person who took a study through its link: the
// URL parameters they came with (?segment=clients), kept for segments.
type TreeParticipant struct {
	ID     int64
	Params map[string]string
}
