package site

import "time"

// Starter is a plan a team keeps to start new projects from: its pages
// with their briefs, types and links, as a siteplan/1 document. A new
// project from it takes its own name and base URL.
type Starter struct {
	ID        int64
	TeamID    int64
	Name      string
	Pages     int
	By        string // who kept it
	CreatedAt time.Time
}

// Bounds of a team's starter plans: a starter is a pattern, not a site
// of a million pages.
const (
	MaxStarters     = 20
	MaxStarterBytes = 8 << 20
)
