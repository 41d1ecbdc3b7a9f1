package site

import "time"

// A Job is a live-site reading (a check, or an import into a new
// project) or a launch check: work of minutes that a visitor starts and
// any server on the database may run. The database holds it, so that
// exactly one server claims it, and that it ends cleanly, not lost, when
// that server dies.
type Job struct {
	ID        string // random, in the job's address
	Kind      string // JobCheck, JobImport, JobLaunch or JobAttach
	UserID    int64  // who started it; 0 for a team token's job
	TokenID   int64  // the team token that started it (UserID 0)
	TeamID    int64
	ProjectID int64  // a launch check's plan
	Version   int    // the version a launch check checks; 0 the plan now
	By        string // who started it, by name
	Source    string // a site, a sitemap URL, a launch check's base URL, or an uploaded file's name
	// Credentials are a launch check's user and password for its site
	// ("user:password"), taken out of the base URL it was given so that
	// no page or report shows them; the check sends them, nothing shows
	// them, and the job forgets them when it ends.
	Credentials string
	Name        string // an import's project name; "" to name it after the site
	Upload      bool   // Source is a file the visitor sent, kept with the job until it ends
	State       string // Job* states
	Instance    string // the server that claimed it
	Created     time.Time
	Started     time.Time // claimed
	Ended       time.Time
	Progress    []byte // the running server's own, JSON
	Error       string // why it failed, or "Cancelled."
	Report      []byte // the ended job's report, JSON; nil if not read or let go
	Dropped     bool   // the report was let go to make room for newer ones
}

// The kinds of job.
const (
	JobCheck  = "check"
	JobImport = "import"
	JobLaunch = "launch"
	JobAttach = "attach" // a relaunch's old site read from the web and attached to its plan
)

// The states of a job, in the order they come; a job ends done, failed
// or cancelled. A team has one job reading or writing at most, and a
// visitor one job not ended.
const (
	JobWaiting   = "waiting"
	JobReading   = "reading"
	JobWriting   = "writing"
	JobDone      = "done"
	JobFailed    = "failed"
	JobCancelled = "cancelled"
)

// Running reports whether the job has not ended.
func (j Job) Running() bool { return j.Ended.IsZero() }

// JobLimits are what SweepJobs holds jobs to.
type JobLimits struct {
	Stale time.Duration // a running job whose server has not said it is alive for as long has failed
	Wait  time.Duration // a job that waits for its turn as long has failed
	Kept  time.Duration // an ended job is deleted as long after it ended
	// What a job failed by Stale or by Wait says.
	StaleMsg, WaitMsg string
}

// PlanSummary is what an import of a live site made, as its job keeps
// it and its page shows it.
type PlanSummary struct {
	ProjectID int64
	Name      string
	BaseURL   string
	Pages     int
	Groups    int
	Sections  []SectionSummary // the first SummarySections
	More      int              // sections past them
}

// SummarySections is how many sections a PlanSummary lists.
const SummarySections = 12

// SectionSummary is a page below the home page, with how many pages are
// below it.
type SectionSummary struct {
	Title string
	Pages int
}

// Count counts page p, depth levels down (1 the roots), into s.
func (s *PlanSummary) Count(depth int, p Page) {
	s.Pages++
	if p.Kind == KindGroup {
		s.Groups++
	}
	switch {
	case depth == 2 && len(s.Sections) < SummarySections:
		s.Sections = append(s.Sections, SectionSummary{Title: p.Title})
	case depth == 2:
		s.More++
	case depth > 2 && s.More == 0 && len(s.Sections) > 0:
		s.Sections[len(s.Sections)-1].Pages++
	}
}
