package site

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

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
	// TreeTimeout ends a task whose time limit ran out: counted as a skip.
	TreeTimeout = "timeout"
	// TreeConfidence is the answer to a task's confidence question after
	// it: 1 to 7, in the event's PageID.
	TreeConfidence = "confidence"
)

// TreeEventKinds are the kinds of a tree test's events.
var TreeEventKinds = []string{TreeStart, TreeOpen, TreeClose, TreeChoose, TreeSkip, TreeTimeout, TreeConfidence}

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
	ID      int64
	StudyID int64
	Params  map[string]string
	Tasks   []string // the keys of the tasks drawn for them, in the order shown
	// Started is when they joined: their events' times count from it.
	Started time.Time
}

// StudyRecord is what a study's results are computed from: the tree it
// shows, its participants and their events, in the order recorded.
type StudyRecord struct {
	Nodes        []TreeNode
	Participants []TreeParticipant
	Events       []TreeEvent
}

// Study is a tree test on a version of a plan: the tree it shows (the
// version's navigation, whole or one branch), its tasks, and how
// participants take it through its link.
type Study struct {
	ID        int64
	ProjectID int64
	Version   int // the number of the version whose tree it shows
	Name      string
	// Root is a page of the version whose branch is shown alone; 0: the
	// whole site. AllNavigation adds the utility and footer navigation
	// as top-level items; else they are left out.
	Root          int64
	AllNavigation bool
	Tasks         []TreeTask
	// PerParticipant is how many tasks each participant gets, drawn at
	// random (0: all); Random shows them in random order; NoSkip hides
	// "Skip this task".
	PerParticipant int
	Random, NoSkip bool
	Intro, Thanks  string
	// MaxParticipants caps who may start (0: no cap); a study past
	// ExpiresAt (zero: never) or revoked takes no one new.
	MaxParticipants int
	ExpiresAt       time.Time
	RevokedAt       time.Time
	CreatedAt       time.Time
	// SpeederMillis: the results leave out a participant whose whole
	// study took less (0: none).
	SpeederMillis int64
}

// Bounds of a study.
const (
	MaxStudyTasks = 50
	MaxTaskText   = 500
	MaxStudyText  = 2000
)

// Validate trims a study's texts and checks it. Errors: EInvalid naming
// the task or field to fix.
func (s *Study) Validate() error {
	s.Name = strings.TrimSpace(s.Name)
	if msg := NameProblem("The study's name", s.Name, MaxName); msg != "" {
		return Errorf(EInvalid, "%s", msg)
	}
	if len(s.Tasks) == 0 || len(s.Tasks) > MaxStudyTasks {
		return Errorf(EInvalid, "A study has 1 to %d tasks, not %d.", MaxStudyTasks, len(s.Tasks))
	}
	keys := map[string]bool{}
	for i := range s.Tasks {
		t := &s.Tasks[i]
		t.Text, t.Key = strings.TrimSpace(t.Text), strings.TrimSpace(t.Key)
		if t.Key == "" {
			t.Key = strconv.Itoa(i + 1)
		}
		switch {
		case keys[t.Key]:
			return Errorf(EInvalid, "Task %d: the key %q is another task's.", i+1, t.Key)
		case t.Text == "" || utf8.RuneCountInString(t.Text) > MaxTaskText:
			return Errorf(EInvalid, "Task %d: give it a text of 1 to %d characters, the question a participant reads.", i+1, MaxTaskText)
		case len(t.Correct) == 0:
			return Errorf(EInvalid, "Task %d (%s): name at least one correct page.", i+1, Clip(t.Text, 40))
		case t.TimeLimit < 0 || t.TimeLimit > 3600:
			return Errorf(EInvalid, "Task %d: a time limit is 0 (none) to 3600 seconds.", i+1)
		}
		keys[t.Key] = true
	}
	s.Intro, s.Thanks = strings.TrimSpace(s.Intro), strings.TrimSpace(s.Thanks)
	switch {
	case s.PerParticipant < 0 || s.PerParticipant > len(s.Tasks):
		return Errorf(EInvalid, "Tasks a participant gets: 0 (all) to %d.", len(s.Tasks))
	case utf8.RuneCountInString(s.Intro) > MaxStudyText || utf8.RuneCountInString(s.Thanks) > MaxStudyText:
		return Errorf(EInvalid, "The intro and the thank-you text are at most %d characters each.", MaxStudyText)
	case s.MaxParticipants < 0 || s.SpeederMillis < 0:
		return Errorf(EInvalid, "A cap on participants and a speeder's threshold are 0 or more.")
	}
	return nil
}

// Task is the study's task of key.
func (s *Study) Task(key string) (TreeTask, bool) {
	for _, t := range s.Tasks {
		if t.Key == key && key != "" {
			return t, true
		}
	}
	return TreeTask{}, false
}

// Open reports whether the study takes new participants at now: not
// revoked, not expired, under its cap (of joined participants).
func (s *Study) Open(now time.Time, joined int) bool {
	return s.RevokedAt.IsZero() && (s.ExpiresAt.IsZero() || now.Before(s.ExpiresAt)) && (s.MaxParticipants == 0 || joined < s.MaxParticipants)
}

// Tree is the tree study s shows of plan t (its version): labels only,
// in outline order. Its top level is the home page's children (or the
// main roots, when the plan has more than one), or, for a study of one
// branch, that page's children; with AllNavigation, the utility and
// footer navigation's pages follow as top-level items. A page kept out
// of the navigation (not in the HTML sitemap) is left out, with the
// pages below it.
func (s *Study) Tree(t *Tree) []TreeNode {
	var out []TreeNode
	var walk func(p *Page, parent int64)
	walk = func(p *Page, parent int64) {
		if !p.InHTMLSitemap {
			return
		}
		out = append(out, TreeNode{ID: p.ID, Parent: parent, Label: p.Title})
		for _, c := range t.Children(p.ID) {
			walk(c, p.ID)
		}
	}
	var top []*Page
	switch roots := t.Roots(PlacementMain); {
	case s.Root != 0:
		top = t.Children(s.Root)
	case len(roots) == 1:
		top = t.Children(roots[0].ID)
	default:
		top = roots
	}
	if s.AllNavigation && s.Root == 0 {
		top = append(append(top, t.Roots(PlacementUtility)...), t.Roots(PlacementFooter)...)
	}
	for _, p := range top {
		walk(p, 0)
	}
	return out
}

// CheckTree checks study s against plan t, its version: its branch is a
// page of it, and each task's correct pages are in the tree the study
// shows. Errors: EInvalid naming the task.
func (s *Study) CheckTree(t *Tree) error {
	if s.Root != 0 && t.Page(s.Root) == nil {
		return Errorf(EInvalid, "The branch to test is no page of version %d.", s.Version)
	}
	in := map[int64]bool{}
	for _, n := range s.Tree(t) {
		in[n.ID] = true
	}
	if len(in) == 0 {
		return Errorf(EInvalid, "The tree to test is empty: choose a branch with pages below it, or a version with navigation.")
	}
	for i, task := range s.Tasks {
		for _, id := range task.Correct {
			if !in[id] {
				what := "no page of the version"
				if p := t.Page(id); p != nil {
					what = "“" + Clip(p.Title, 40) + "”, which the tree does not show (another branch, or kept out of the navigation)"
				}
				return Errorf(EInvalid, "Task %d: a correct page is %s.", i+1, what)
			}
		}
	}
	return nil
}

// Draw is the keys of the tasks a new participant gets, in the order
// shown: PerParticipant of them drawn at random (all when 0), in random
// order if Random, else in the study's order. r supplies the chance.
func (s *Study) Draw(r interface{ IntN(int) int }) []string {
	idx := make([]int, len(s.Tasks))
	for i := range idx {
		idx[i] = i
	}
	n := len(idx)
	if s.PerParticipant > 0 && s.PerParticipant < n {
		n = s.PerParticipant
	}
	for i := 0; i < n; i++ { // a partial Fisher–Yates: the first n, drawn
		if s.PerParticipant > 0 && s.PerParticipant < len(idx) || s.Random {
			j := i + r.IntN(len(idx)-i)
			idx[i], idx[j] = idx[j], idx[i]
		}
	}
	idx = idx[:n]
	if !s.Random {
		slices.Sort(idx)
	}
	keys := make([]string, n)
	for i, k := range idx {
		keys[i] = s.Tasks[k].Key
	}
	return keys
}
