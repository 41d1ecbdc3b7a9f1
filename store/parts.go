package store

// Store is the database, one part a concept; Open returns it. The parts
// share one connection, and each method of a part says which error codes
// it returns. A consumer declares the few methods it uses of a part
// where it uses them (web, jobs), so that a test may fake one part.
type Store struct {
	*conn
	Accounts      *Accounts
	Teams         *Teams
	Sharing       *Sharing
	Projects      *Projects
	Pages         *Pages
	Links         *Links
	History       *History
	Redirects     *Redirects
	Comments      *Comments
	Notifications *Notifications
	Webhooks      *Webhooks
	Jobs          *Jobs
	Live          *Live
	Limits        *Limits
	Themes        *Themes
	TreeTests     *TreeTests
	Tokens        *Tokens
	Proposals     *Proposals
	RateCards     *RateCards
}

// Accounts are the users, their passwords and sessions (accounts.go).
type Accounts struct{ *conn }

// Teams are the teams and their members' roles (accounts.go).
type Teams struct{ *conn }

// Sharing is the invitations to a team and the share links of a plan
// (sharing.go).
type Sharing struct{ *conn }

// Projects are a team's plans as wholes: their settings, imports,
// documents, starter plans and deletion (projects.go, import.go,
// document.go, starters.go).
type Projects struct{ *conn }

// Pages are the pages of a plan: reads, the tree, the outline stream, and
// every edit of a page with the rules that hold on it (pages.go,
// outline.go, urls.go, launch.go).
type Pages struct{ *conn }

// Links are the cross-links between pages (links.go).
type Links struct{ *conn }

// History is what happened to a plan: its changes, undo and redo,
// versions, sign-offs and launch checks (history.go, undo.go,
// versions.go, launchchecks.go).
type History struct{ *conn }

// Redirects are a relaunch's old site and its redirect map (oldurls.go).
type Redirects struct{ *conn }

// Comments are the comment threads on pages (comments.go).
type Comments struct{ *conn }

// Notifications are the members' inboxes, watches, e-mail settings and
// the server's signing keys (notifications.go).
type Notifications struct{ *conn }

// Webhooks are the teams' webhooks and their deliveries (webhooks.go).
type Webhooks struct{ *conn }

// Jobs are the live-site jobs any server may claim (jobs.go).
type Jobs struct{ *conn }

// Live is the live hub's events between servers (live.go).
type Live struct{ *conn }

// Limits are the rate limiters' buckets (limits.go).
type Limits struct{ *conn }

// Themes are the brand of a plan and of a team, and the team's page-type
// palette and templates (themes.go, palettes.go).
type Themes struct{ *conn }

// TreeTests are the tree tests of plans: their studies, participants
// and events (treetests.go).
type TreeTests struct{ *conn }

// Tokens are the API tokens of teams and their people (tokens.go).
type Tokens struct{ *conn }

// Proposals are the changes offered to a plan that a person accepts or
// rejects (proposals.go).
type Proposals struct{ *conn }

// RateCards are the teams' and projects' rate cards, and those the
// versions keep (ratecards.go).
type RateCards struct{ *conn }

// newStore gives c its parts.
func newStore(c *conn) *Store {
	s := &Store{conn: c, Accounts: &Accounts{c}, Teams: &Teams{c}, Sharing: &Sharing{c}, Projects: &Projects{c}, Pages: &Pages{c},
		Links: &Links{c}, History: &History{c}, Redirects: &Redirects{c}, Comments: &Comments{c}, Notifications: &Notifications{c},
		Webhooks: &Webhooks{c}, Jobs: &Jobs{c}, Live: &Live{c}, Limits: &Limits{c}, Themes: &Themes{c}, TreeTests: &TreeTests{c},
		Tokens: &Tokens{c}, Proposals: &Proposals{c}, RateCards: &RateCards{c}}
	c.parts = s
	return s
}
