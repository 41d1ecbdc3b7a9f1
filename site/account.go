package site

import (
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Team roles.
const (
	RoleOwner  = "owner"
	RoleEditor = "editor"
	RoleViewer = "viewer"
)

// Roles lists the team roles, most powerful first.
var Roles = []string{RoleOwner, RoleEditor, RoleViewer}

// Share link roles.
const (
	ShareView    = "view"
	ShareComment = "comment"
)

// ShareRoles lists the roles a share link may carry.
var ShareRoles = []string{ShareView, ShareComment}

// Access is what someone may do with a project; each level includes the
// ones below it.
type Access int

// Access levels.
const (
	AccessNone    Access = iota
	AccessRead           // see the outline, details, diagram and exports
	AccessComment        // also comment, resolve and reopen threads
	AccessEdit           // also change pages, links and settings
	AccessManage         // also members, sharing and deletion
)

// RoleAccess is the access a team role gives to the team's projects.
func RoleAccess(role string) Access {
	switch role {
	case RoleOwner:
		return AccessManage
	case RoleEditor:
		return AccessEdit
	case RoleViewer:
		return AccessComment
	}
	return AccessNone
}

// ShareAccess is the access a share link gives to its project.
func ShareAccess(role string) Access {
	switch role {
	case ShareComment:
		return AccessComment
	case ShareView:
		return AccessRead
	}
	return AccessNone
}

// User is an account.
type User struct {
	ID    int64
	Email string
	Name  string
}

// Member is a user's place in a team.
type Member struct {
	User
	TeamID int64
	Role   string
}

// Membership is a team a user belongs to, with the user's role there.
type Membership struct {
	Team
	Role string
}

// Session is a logged-in browser: the user and the team they work in.
type Session struct {
	UserID    int64
	TeamID    int64
	ExpiresAt time.Time
	// Teams are the user's teams and roles, as they were when the session
	// was read, by name.
	Teams []Membership
}

// Invite lets one person join a team with a role until it expires.
type Invite struct {
	ID        int64
	TeamID    int64
	Role      string
	CreatedBy string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// ShareLink gives people without an account access to one project.
type ShareLink struct {
	ID         int64
	ProjectID  int64
	Role       string
	Label      string
	CreatedAt  time.Time
	ExpiresAt  time.Time // zero: never
	LastUsedAt time.Time // zero: never used
	RevokedAt  time.Time // zero: active
	// Downloads the link allows (ShareDownloads; nil on a new link:
	// DefaultShareDownloads) and the page statuses it shows.
	Downloads, Statuses []string
}

// Active reports whether the link opens the project at now.
func (l ShareLink) Active(now time.Time) bool {
	return l.RevokedAt.IsZero() && (l.ExpiresAt.IsZero() || now.Before(l.ExpiresAt))
}

// Comment is a remark on a page. A comment without a parent starts a
// thread; replies belong to it, and resolving applies to the thread.
type Comment struct {
	ID         int64
	ProjectID  int64
	PageID     int64
	ParentID   int64
	Author     string
	UserID     int64 // 0: written through a share link
	Body       string
	CreatedAt  time.Time
	ResolvedAt time.Time // zero: open
	ResolvedBy string
	Replies    []Comment
	PageTitle  string // filled in project-wide lists
}

// Guest reports whether a guest wrote c: a visitor on a share link, no
// member of the team.
func (c Comment) Guest() bool { return c.UserID == 0 }

// By is who wrote c as every notice names them: a guest marked as one,
// so that a visitor cannot pass for the member of the same name in
// threads, inboxes, e-mails and webhooks.
func (c Comment) By() string {
	if c.Guest() {
		return c.Author + " (guest)"
	}
	return c.Author
}

// Open reports whether the thread is unresolved.
func (c Comment) Open() bool { return c.ResolvedAt.IsZero() }

// OpenThreads counts the unresolved threads.
func OpenThreads(threads []Comment) int {
	n := 0
	for _, t := range threads {
		if t.Open() {
			n++
		}
	}
	return n
}

// SessionTTL is how long a login lasts.
const SessionTTL = 30 * 24 * time.Hour

// Limits on account and comment fields.
const (
	MinPassword = 10
	MaxPassword = 72 // bytes: bcrypt ignores the rest
	MaxName     = 100
	MaxComment  = 5000
)

// ValidateAccount checks the fields of a new account or a password reset;
// errors name the field. Errors: EInvalid.
func ValidateAccount(email, name, password string) error {
	f := FieldErrors{}
	if _, err := ParseEmail(email); err != nil {
		f.Add("email", ErrorMessage(err))
	}
	if msg := checkName(name); msg != "" {
		f.Add("name", msg)
	}
	if msg := CheckPassword(password); msg != "" {
		f.Add("password", msg)
	}
	return f.Err()
}

// ParseEmail returns the address in email, trimmed. Errors: EInvalid.
func ParseEmail(email string) (string, error) {
	email = strings.TrimSpace(email)
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || len(email) > 254 {
		return "", Errorf(EInvalid, "Enter an e-mail address such as ana@agency.example.")
	}
	return email, nil
}

// CheckPassword returns what is wrong with a new password, or "".
func CheckPassword(pw string) string {
	switch {
	case utf8.RuneCountInString(pw) < MinPassword:
		return "Use at least 10 characters."
	case len(pw) > MaxPassword:
		return "Use at most 72 bytes (about 72 letters)."
	}
	return ""
}

func checkName(name string) string {
	name = strings.TrimSpace(name)
	if name == "" {
		return "Enter a name."
	}
	return NameProblem("The name", name, MaxName)
}

// ValidateTeamName checks a team's name. Errors: EInvalid.
func ValidateTeamName(name string) error {
	if msg := checkName(name); msg != "" {
		return &Error{Code: EInvalid, Message: "The team name is not valid: " + msg, Fields: map[string]string{"team": msg}}
	}
	return nil
}

// ValidateRole checks a team role. Errors: EInvalid.
func ValidateRole(role string) error {
	if RoleAccess(role) == AccessNone {
		return Errorf(EInvalid, "Role must be owner, editor or viewer, not %q.", role)
	}
	return nil
}

// ValidateShareRole checks a share link's role. Errors: EInvalid.
func ValidateShareRole(role string) error {
	if ShareAccess(role) == AccessNone {
		return Errorf(EInvalid, "A share link's role must be view or comment, not %q.", role)
	}
	return nil
}

// ValidateComment checks a comment's author and text. Errors: EInvalid.
func ValidateComment(author, body string) error {
	f := FieldErrors{}
	if msg := checkName(author); msg != "" {
		f.Add("author", "Your name: "+strings.ToLower(msg[:1])+msg[1:])
	}
	if b := strings.TrimSpace(body); b == "" {
		f.Add("body", "Write a comment first.")
	} else if msg := TextProblem("The comment", b, MaxComment, true); msg != "" {
		f.Add("body", msg)
	}
	return f.Err()
}

// ParseDuration reads a positive duration: Go's form (90m, 36h) or whole
// days and weeks (7d, 2w). Errors: EInvalid.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	bad := Errorf(EInvalid, "%q is not a duration: write 90m, 36h, 7d or 2w.", s)
	unit := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour}
	if n := len(s); n > 1 && unit[s[n-1]] != 0 {
		k, err := strconv.Atoi(s[:n-1])
		if err != nil || k <= 0 || k > 3650 {
			return 0, bad
		}
		return time.Duration(k) * unit[s[n-1]], nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, bad
	}
	return d, nil
}
