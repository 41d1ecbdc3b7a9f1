package site

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Change states: done; undone (its author may redo it); dropped (undone,
// and its author has changed something since: it can no longer be redone).
const (
	ChangeDone    = "done"
	ChangeUndone  = "undone"
	ChangeDropped = "dropped"
)

// Change is one entry of a project's history: who changed what, when.
type Change struct {
	ID        int64
	ProjectID int64
	UserID    int64  // 0: not an account (the command line)
	Author    string // the account's or share link's name
	At        time.Time
	Verb      string // create, edit, rename, move, delete, duplicate, paste, link, unlink, settings, restore, import
	Summary   string // what, in words, without the author: "moved “Pricing” under “Products”"
	PageID    int64  // the page it is about (0: the project)
	State     string
	Undoable  bool
	UndoneAt  time.Time
	// Restorable: a deletion whose pages are all still gone, so the
	// branch can be brought back from the history.
	Restorable bool
}

// Sentence is the change in words with its author: "Anna moved “Pricing”
// under “Products”".
func (c Change) Sentence() string { return c.Author + " " + c.Summary }

// Version is a named snapshot of a plan ("Kickoff", "Client review 2").
type Version struct {
	ID        int64
	ProjectID int64
	Number    int
	Name      string
	Author    string
	CreatedAt time.Time
	PageCount int
	ChangeID  int64 // the newest change it includes
	Approvals []Approval
	// Launched: the site went live with this plan; a change that moves
	// one of its URLs since records a redirect.
	Launched bool
}

// Label is "Version 2 “Client review”".
func (v Version) Label() string { return "Version " + strconv.Itoa(v.Number) + " “" + v.Name + "”" }

// Approval is a sign-off of a version, whole or one branch: by a client
// through a share link, or by a member of the team with their account.
// A signer has one sign-off of a version and scope at a time: a new one
// replaces it. The team may void one; it stays listed, voided.
type Approval struct {
	ID        int64
	VersionID int64
	PageID    int64  // 0: the whole version
	PageTitle string // the branch's title in the version
	Name      string // who approved: the account's name, or the name a visitor typed
	Member    bool   // a member of the team, with their account
	UserID    int64  // that account, while it exists
	ByLink    bool   // a visitor, through a share link
	LinkLabel string // the link's label when it was used
	At        time.Time
	VoidedAt  time.Time // zero: in force
	VoidedBy  string
	// ChangedSince: the plan now differs, in what was approved (the
	// branch, or anything for a whole version) as the signer sees it, from
	// what the signer saw when signing.
	ChangedSince bool
	// Seen is the digest of what the signer saw (Projection.Digest), ""
	// for a sign-off older than digests; Projection is the signer's (nil
	// for a member of the team).
	Seen       string
	Projection *Projection
	// Locale is the locale of a localized plan the signer read and
	// approved it in ("" the default locale's).
	Locale string
}

// By says who approved, as every list shows it: a member of the team as
// such, never as a client, and a visitor with the link they came through.
func (a Approval) By() string {
	switch {
	case a.Member:
		return a.Name + " (team member)"
	case a.ByLink && a.LinkLabel != "":
		return a.Name + " via link “" + a.LinkLabel + "”"
	case a.ByLink:
		return a.Name + " via a share link"
	}
	return a.Name
}

// Voided reports whether the team voided the sign-off.
func (a Approval) Voided() bool { return !a.VoidedAt.IsZero() }

// What is what was approved, in words.
func (a Approval) What() string {
	what := "the whole plan"
	if a.PageID != 0 {
		what = "“" + a.PageTitle + "” and the pages below it"
	}
	if a.Locale != "" {
		what += " in " + a.Locale
	}
	return what
}

// MaxVersionName is how long a version's name may be.
const MaxVersionName = 100

// ValidateVersionName trims a version's name and checks it. Errors: EInvalid.
func ValidateVersionName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", Errorf(EInvalid, "Give the version a name, such as “Kickoff” or “Client review 2”.")
	}
	if msg := TextProblem("Version name", name, MaxVersionName, false); msg != "" {
		return "", Errorf(EInvalid, "%s", msg)
	}
	return name, nil
}

// ValidateApprover trims the name a client signs with and checks it.
// Errors: EInvalid.
func ValidateApprover(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", Errorf(EInvalid, "Type your name to sign off.")
	}
	if msg := NameProblem("Name", name, MaxShortLen); msg != "" {
		return "", Errorf(EInvalid, "%s", msg)
	}
	return name, nil
}

// SignedOff returns the number of the newest version whose sign-off is
// in force (not voided), from vs listed newest first; 0 when none is.
func SignedOff(vs []Version) int {
	for _, v := range vs {
		if slices.ContainsFunc(v.Approvals, func(a Approval) bool { return !a.Voided() }) {
			return v.Number
		}
	}
	return 0
}

// LaunchCheck is a launch check the editor ran and kept: the built site
// at Base held to the plan (Version 0) or a version of it. Report is the
// check's report as JSON, which the store keeps as it is given.
type LaunchCheck struct {
	ID        int64
	ProjectID int64
	At        time.Time
	By        string // the member who ran it
	Base      string
	Version   int
	Errors    int
	Warnings  int
	Report    []byte
}

// LaunchChecksKept is how many launch checks of a plan are kept: the
// newest, with the ones before it to say what changed.
const LaunchChecksKept = 5

// MaxLaunchReport is the most a kept launch check's report may take.
const MaxLaunchReport = 8 << 20
