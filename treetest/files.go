package treetest

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"siteplan/site"
)

// Namer names a page of the study's tree where a file shows it: its
// path in the version ("/products/pricing"), or its label.
type Namer func(id int64) string

// Paths names the pages of t by their paths ("/products/pricing"),
// and a page by its path, or its title where it has no URL.
func Paths(t *site.Tree) (map[string]int64, Namer) {
	byPath, names := map[string]int64{}, map[int64]string{}
	t.WalkURLs(0, func(p *site.Page, u string) bool {
		if pu, err := url.Parse(u); u != "" && err == nil {
			path := CleanPath(pu.Path)
			byPath[path], names[p.ID] = p.ID, path
		} else {
			names[p.ID] = "“" + p.Title + "”"
		}
		return true
	})
	return byPath, func(id int64) string { return names[id] }
}

// CleanPath is a page's path as a tasks file or a flag may write it:
// with a leading slash, without a trailing one (but the home page's).
func CleanPath(p string) string {
	p = "/" + strings.Trim(strings.TrimSpace(p), "/")
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	return p
}

// TaskJSON is one task's results as `siteplan treetest results --json`
// prints them: counts, shares with their intervals, times in ms, and
// pages by their paths.
type TaskJSON struct {
	Key             string           `json:"key"`
	Text            string           `json:"text"`
	N               int              `json:"n"`
	Success         IntervalJSON     `json:"success"`
	DirectSuccess   int              `json:"direct_success"`
	IndirectSuccess int              `json:"indirect_success"`
	DirectFail      int              `json:"direct_fail"`
	IndirectFail    int              `json:"indirect_fail"`
	DirectSkip      int              `json:"direct_skip"`
	IndirectSkip    int              `json:"indirect_skip"`
	Directness      IntervalJSON     `json:"directness"`
	Time            TimeJSON         `json:"time_ms"`
	FirstClick      map[string]int   `json:"first_click"`
	FirstClickRight IntervalJSON     `json:"first_click_success"`
	Destinations    map[string]int   `json:"destinations"`
	Paths           []map[string]any `json:"paths"`
	TimedOut        int              `json:"timed_out"`
	// Confidence counts the answers 1 to 7 (keys "1" to "7").
	Confidence       map[string]int `json:"confidence"`
	ConfidenceMedian float64        `json:"confidence_median"`
}

// IntervalJSON is a share with its Adjusted-Wald 95% interval.
type IntervalJSON struct {
	X    int     `json:"x"`
	N    int     `json:"n"`
	P    float64 `json:"p"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// TimeJSON is a task's time to choose, in ms.
type TimeJSON struct {
	Median int64 `json:"median"`
	Q1     int64 `json:"q1"`
	Q3     int64 `json:"q3"`
}

// ResultsJSON is a study's results as JSON: its tasks, who was counted,
// who was left out and why, and the definitions.
type ResultsJSON struct {
	Participants int               `json:"participants"`
	Excluded     []Exclusion       `json:"excluded"`
	Tasks        []TaskJSON        `json:"tasks"`
	Definitions  map[string]string `json:"definitions"`
}

// JSON is the results r with the pages named by name.
func (r Results) JSON(name Namer) ResultsJSON {
	out := ResultsJSON{Participants: r.Participants, Excluded: r.Excluded, Definitions: map[string]string{}}
	if out.Excluded == nil {
		out.Excluded = []Exclusion{}
	}
	for _, d := range Definitions {
		out.Definitions[d.Name] = d.Meaning
	}
	for _, t := range r.Tasks {
		tj := TaskJSON{Key: t.Key, Text: t.Text, N: t.N, Success: intervalJSON(t.Success), DirectSuccess: t.DirectSuccess,
			IndirectSuccess: t.IndirectSuccess, DirectFail: t.DirectFail, IndirectFail: t.IndirectFail, DirectSkip: t.DirectSkip,
			IndirectSkip: t.IndirectSkip, Directness: intervalJSON(t.Directness), Time: TimeJSON{t.TimeMedian, t.TimeQ1, t.TimeQ3},
			FirstClick: map[string]int{}, FirstClickRight: intervalJSON(t.FirstClickSuccess), Destinations: map[string]int{}, Paths: []map[string]any{},
			TimedOut: t.TimedOut, Confidence: map[string]int{}, ConfidenceMedian: t.ConfidenceMedian}
		for v, n := range t.Confidence {
			if n > 0 {
				tj.Confidence[strconv.Itoa(v+1)] = n
			}
		}
		for _, c := range t.FirstClicks {
			tj.FirstClick[name(c.PageID)] += c.N
		}
		for _, c := range t.Destinations {
			tj.Destinations[name(c.PageID)] += c.N
		}
		for _, n := range t.Paths {
			tj.Paths = append(tj.Paths, map[string]any{"page": name(n.PageID), "visits": n.Visits, "back": n.Back, "chose": n.Chose, "right_way": n.Right})
		}
		out.Tasks = append(out.Tasks, tj)
	}
	return out
}

func intervalJSON(in Interval) IntervalJSON {
	round := func(f float64) float64 { return math.Round(f*1e4) / 1e4 }
	return IntervalJSON{in.X, in.N, round(in.P), round(in.Low), round(in.High)}
}

// WriteResultsJSON writes the results as one JSON object.
func WriteResultsJSON(w io.Writer, r Results, name Namer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.JSON(name))
}

// WriteEvents writes events.csv: every event of the study, in the order
// recorded, with its page's path and label, and each participant's URL
// parameters.
func WriteEvents(w io.Writer, parts []site.TreeParticipant, events []site.TreeEvent, nodes []site.TreeNode, name Namer) error {
	label := map[int64]string{}
	for _, n := range nodes {
		label[n.ID] = n.Label
	}
	params := map[int64]string{}
	for _, p := range parts {
		b, _ := json.Marshal(p.Params)
		params[p.ID] = string(b)
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"participant", "params", "task", "kind", "page_id", "page", "label", "at_ms"})
	for _, e := range events {
		page, id := "", ""
		if e.PageID != 0 && e.Kind != site.TreeConfidence {
			page, id = name(e.PageID), strconv.FormatInt(e.PageID, 10)
		} else if e.Kind == site.TreeConfidence {
			id = strconv.FormatInt(e.PageID, 10) // the answer, 1 to 7
		}
		cw.Write(defused(strconv.FormatInt(e.Participant, 10), params[e.Participant], e.Task, e.Kind, id, page, label[e.PageID], strconv.FormatInt(e.At, 10)))
	}
	cw.Flush()
	return cw.Error()
}

// WriteOutcomes writes outcomes.csv: each ended attempt with its outcome
// under the tasks' correct pages as they are now.
func WriteOutcomes(w io.Writer, tasks []site.TreeTask, attempts []Attempt, name Namer) error {
	correct := map[string][]int64{}
	for _, t := range tasks {
		correct[t.Key] = t.Correct
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"participant", "task", "outcome", "direct", "chose", "first_click", "time_ms", "confidence"})
	for _, a := range attempts {
		outcome := "skip"
		switch {
		case a.TimedOut:
			outcome = "timeout"
		case a.Skipped():
		case slices.Contains(correct[a.Task], a.Chose):
			outcome = "success"
		default:
			outcome = "fail"
		}
		chose, first := "", ""
		if a.Chose != 0 {
			chose = name(a.Chose)
		}
		if a.FirstClick != 0 {
			first = name(a.FirstClick)
		}
		confidence := ""
		if a.Confidence != 0 {
			confidence = strconv.Itoa(a.Confidence)
		}
		cw.Write(defused(strconv.FormatInt(a.Participant, 10), a.Task, outcome, strconv.FormatBool(!a.Backtracked), chose, first, strconv.FormatInt(a.Millis, 10), confidence))
	}
	cw.Flush()
	return cw.Error()
}

// WriteDefinitions writes definitions.csv: what each figure means.
func WriteDefinitions(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"name", "meaning"})
	for _, d := range Definitions {
		cw.Write([]string{d.Name, d.Meaning})
	}
	cw.Flush()
	return cw.Error()
}

// defused is a row whose cells a spreadsheet will not take for formulas.
func defused(cells ...string) []string {
	for i := range cells {
		cells[i] = site.DefuseCell(cells[i])
	}
	return cells
}
