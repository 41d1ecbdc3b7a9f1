package sitemap

import "siteplan/site"

// JobProgress is a live-site job's progress as the database keeps it
// (site.Job.Progress), with what its page shows of it once its report
// is let go.
type JobProgress struct {
	Progress
	What        string            `json:"what,omitempty"`     // a launch check: the plan or version checked, in words
	Done, Total int               `json:",omitempty"`         // a launch check: pages and old URLs checked, of all
	Plan        *site.PlanSummary `json:"plan,omitempty"`     // an import: the new plan
	Attached    *Attached         `json:"attached,omitempty"` // an old site attached: what changed in the map
}

// Attached is what attaching an old site to a plan did: its URLs, and
// what changed in the redirect map.
type Attached struct {
	site.AttachReport
	URLs int
}

// JobReport is an ended live-site job's report as the database keeps
// it (site.Job.Report).
type JobReport struct {
	Reading  *Reading       `json:"reading,omitempty"`
	Excerpts []Excerpt      `json:"excerpts,omitempty"` // an uploaded file's lines around its problems
	Warns    []site.Warning `json:"warnings,omitempty"`
	// LaunchCheck is the check a launch check job kept: its report's id.
	LaunchCheck int64 `json:"launch_check,omitempty"`
}
