package site

import (
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Events of a team's plans that others hear of: through the team's
// webhooks (and, later, the members' inboxes).
const (
	EventComment = "comment" // a new thread on a page
	EventReply   = "reply"   // a reply in a thread
	EventSignoff = "signoff" // a version, or a branch of it, signed off
	EventVersion = "version" // a version named
	EventLaunch  = "launch"  // a launch check kept
)

// EventKinds lists the events in display order.
var EventKinds = []string{EventComment, EventReply, EventSignoff, EventVersion, EventLaunch}

// EventLabels name the events as the team page lists them.
var EventLabels = map[string]string{EventComment: "comments", EventReply: "replies", EventSignoff: "sign-offs",
	EventVersion: "versions", EventLaunch: "launch checks"}

// Event is something that happened in a plan, said in words: Text is
// what a person reads ("Carla Client commented on “Pricing”: …"), Path
// the plan's address on the server that says it.
type Event struct {
	Kind      string    `json:"event"`
	TeamID    int64     `json:"-"`
	ActorID   int64     `json:"-"` // the account that did it; 0: a visitor or the command line
	ThreadID  int64     `json:"-"` // a comment's thread (its first comment)
	ProjectID int64     `json:"project_id"`
	Project   string    `json:"project"`
	PageID    int64     `json:"page_id,omitempty"`
	Page      string    `json:"page,omitempty"`
	Actor     string    `json:"actor"`
	Text      string    `json:"text"`
	Body      string    `json:"body,omitempty"`    // a comment's words; a launch check's result
	Version   string    `json:"version,omitempty"` // the version named or signed off ("Version 2 “Client review”")
	Path      string    `json:"path"`
	At        time.Time `json:"at"`
}

// Describe says the event in words (Text), from its other fields.
func (e *Event) Describe() {
	page := ""
	if e.Page != "" {
		page = " “" + e.Page + "”"
	}
	switch e.Kind {
	case EventComment:
		e.Text = e.Actor + " commented on" + page + " in " + e.Project + ": “" + Clip(e.Body, 200) + "”"
	case EventReply:
		e.Text = e.Actor + " replied on" + page + " in " + e.Project + ": “" + Clip(e.Body, 200) + "”"
	case EventSignoff:
		what := "the whole plan"
		if e.Page != "" {
			what = page[1:] + " and the pages below it"
		}
		e.Text = e.Actor + " signed off " + what + " of " + e.Version + " in " + e.Project
	case EventVersion:
		e.Text = e.Actor + " named " + e.Version + " of " + e.Project
	case EventLaunch:
		e.Text = "Launch check of " + e.Project + " by " + e.Actor + ": " + e.Body
	}
}

// Delivery is a webhook's event claimed for a try.
type Delivery struct {
	ID       int64
	Webhook  Webhook
	Event    Event
	Attempts int // tries before this one
}

// Webhook formats.
const (
	WebhookSlack = "slack" // Slack's incoming webhooks: {"text": ...}
	WebhookJSON  = "json"  // the Event as JSON, signed with the secret
)

// Webhook is a team's outgoing webhook: where its events go, in which
// format, signed with which secret; and how its last delivery went.
type Webhook struct {
	ID        int64
	TeamID    int64
	URL       string
	Format    string
	Secret    string
	Events    []string // the kinds it is for; all when empty
	CreatedAt time.Time
	LastAt    time.Time // the last delivery's try; zero: none yet
	LastCode  int       // its HTTP status; 0: no answer
	LastError string    // "" when it was delivered
	Pending   int       // deliveries waiting for their (next) try
}

// For reports whether the webhook is for events of kind.
func (w *Webhook) For(kind string) bool { return len(w.Events) == 0 || slices.Contains(w.Events, kind) }

// MaxWebhooks is how many webhooks a team may have.
const MaxWebhooks = 10

// Validate normalises a webhook and checks it. Errors: EInvalid, per
// field (url, format, events, secret).
func (w *Webhook) Validate() error {
	f := FieldErrors{}
	w.URL = strings.TrimSpace(w.URL)
	if u, err := url.Parse(w.URL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(w.URL) > MaxURLLen {
		f.Add("url", "The webhook's address must be an http or https URL, such as https://hooks.slack.com/services/….")
	}
	if w.Format == "" {
		w.Format = WebhookJSON
	}
	if w.Format != WebhookSlack && w.Format != WebhookJSON {
		f.Add("format", "The format must be slack or json.")
	}
	for _, e := range w.Events {
		if !slices.Contains(EventKinds, e) {
			f.Add("events", "Events must be among "+strings.Join(EventKinds, ", ")+".")
		}
	}
	if msg := TextProblem("The secret", w.Secret, MaxShortLen, false); msg != "" {
		f.Add("secret", msg)
	}
	return f.Err()
}

// Kinds of notification a member's inbox holds.
const (
	NoticeMention = "mention" // @their name in a comment
	NoticeReply   = "reply"   // a reply in a thread they wrote in
	NoticeComment = "comment" // a comment on a plan they watch
	NoticeSignoff = "signoff" // a sign-off of a plan they watch
	NoticeChanged = "changed" // a plan they watch or signed off now differs in what was approved
)

// Notification is one line of a member's inbox.
type Notification struct {
	ID        int64
	UserID    int64
	ProjectID int64
	Kind      string
	Text      string
	Path      string // where it happened, on this server
	CreatedAt time.Time
	Read      bool
}

// MailBatch is a member's notifications to e-mail together.
type MailBatch struct {
	UserID      int64
	Email, Name string
	Notices     []Notification
}

// E-mail modes: a member's notifications e-mailed at once, in a daily
// digest, or not at all.
const (
	MailInstant = "instant"
	MailDigest  = "digest"
	MailOff     = "off"
)

// MailInstantEvery is the least time between two instant e-mails to one
// member: the first notice goes at once, those that come meanwhile in
// one e-mail after it, so 2,000 mentions make a few e-mails, not 2,000.
const MailInstantEvery = 2 * time.Minute

// MailSettings are how a member's notifications are e-mailed: Mode, and
// for a digest the hour of the day it comes at in their time zone.
type MailSettings struct {
	Mode       string
	DigestHour int    // 0–23
	TimeZone   string // an IANA name ("Europe/Berlin"); "" is UTC
}

// DefaultDigestHour is the hour a digest comes at unless a member says.
const DefaultDigestHour = 7

// Validate checks the settings and tidies the time zone. Errors: EInvalid.
func (m *MailSettings) Validate() error {
	if m.Mode != MailInstant && m.Mode != MailDigest && m.Mode != MailOff {
		return Errorf(EInvalid, "E-mail must be at once, a daily digest, or never.")
	}
	if m.DigestHour < 0 || m.DigestHour > 23 {
		return Errorf(EInvalid, "The digest's hour must be from 0 to 23, not %d.", m.DigestHour)
	}
	m.TimeZone = strings.TrimSpace(m.TimeZone)
	if m.TimeZone == "" {
		m.TimeZone = "UTC"
	}
	if _, err := time.LoadLocation(m.TimeZone); err != nil || strings.EqualFold(m.TimeZone, "local") {
		return Errorf(EInvalid, "%q is not a time zone: give one such as Europe/Berlin, America/New_York or UTC.", m.TimeZone)
	}
	return nil
}

// NextDigest is when the member's next digest is due after t: the first
// DigestHour:00 in their time zone after it (on a day the clocks skip
// that hour, the same instant Go's time.Date gives).
func (m MailSettings) NextDigest(t time.Time) time.Time {
	loc, err := time.LoadLocation(m.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	l := t.In(loc)
	d := time.Date(l.Year(), l.Month(), l.Day(), m.DigestHour, 0, 0, 0, loc)
	if !d.After(t) {
		d = time.Date(l.Year(), l.Month(), l.Day()+1, m.DigestHour, 0, 0, 0, loc)
	}
	return d.UTC()
}

// Mentioned reports whether body mentions name: "@" and the name, in
// any case, not followed by a letter or digit ("@Ana" is not "@Anabel")
// nor after one (an e-mail address is no mention).
func Mentioned(body, name string) bool {
	if name == "" {
		return false
	}
	lb, ln := strings.ToLower(body), "@"+strings.ToLower(name)
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i := 0; ; {
		j := strings.Index(lb[i:], ln)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(ln)
		before, _ := utf8.DecodeLastRuneInString(lb[:start])
		after, _ := utf8.DecodeRuneInString(lb[end:])
		if (start == 0 || !word(before)) && (end == len(lb) || !word(after)) {
			return true
		}
		i = start + 1
	}
}

// ThreadsMentioning are the threads of threads in which name is
// mentioned, in the first comment or a reply: what a guest, who has no
// inbox, is shown when they come back through their share link.
func ThreadsMentioning(threads []Comment, name string) []Comment {
	var out []Comment
	for _, t := range threads {
		hit := Mentioned(t.Body, name)
		for _, r := range t.Replies {
			hit = hit || Mentioned(r.Body, name)
		}
		if hit {
			out = append(out, t)
		}
	}
	return out
}
