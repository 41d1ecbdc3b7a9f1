package jobs

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/wneessen/go-mail"

	"siteplan/internal/loop"
	"siteplan/site"
)

// The mailer e-mails the members' notifications in the background,
// through the SMTP server serve --smtp names: at once (a few seconds
// after they are written, one message a member for what came together)
// for the members who chose that, and once a day as a digest (at the
// hour each chose, in their time zone) for those who chose the digest.
// Without --smtp the inbox alone tells. Each message has a link that
// stops the e-mails without logging in, signed with a key of the
// server's, which nobody can forge for another account.

// mailStore is what the mailer reads and writes.
type mailStore interface {
	MarkMailed(ctx context.Context, ids []int64) error
	ReleaseMail(ctx context.Context, ids []int64) error
	ServerKey(ctx context.Context, name string) ([]byte, error)
	ClaimMail(ctx context.Context, mode string, since, now time.Time, lease time.Duration, limit int) (out []site.MailBatch, held bool, err error)
	AdvanceDigests(ctx context.Context, now time.Time) error
}

const (
	mailPoll   = 5 * time.Second // how often the mailer looks for what to send at once
	mailBudget = 30 * time.Second
	// mailLease is how long a mailer holds the notifications it sends
	// (ClaimMail): past its budget, so that another instance sends them
	// only when this one died or failed.
	mailLease  = 2 * mailBudget
	mailBatch  = 500            // notifications a round reads at most
	mailLate   = 24 * time.Hour // older notifications are not e-mailed at once
	digestLate = 48 * time.Hour // a digest tells of two days at most
)

// SMTP is where the mailer sends: serve --smtp smtp://user:pass@host:port
// (STARTTLS when the server offers it; ?tls=required insists on it) or
// smtps://… (TLS from the start), and --mail-from. The login's mechanism
// is the strongest the server offers, or ?auth=plain or ?auth=login.
type SMTP struct {
	Host     string
	Port     int
	User     string
	Password string
	Auth     string // "plain", "login"; "": the strongest offered
	TLS      bool   // TLS from the start (smtps)
	StartTLS bool   // STARTTLS required, not only when offered
	From     string
	// RootCAs are the authorities the server's certificate is checked
	// against; nil: the system's.
	RootCAs *x509.CertPool
}

// ParseSMTP reads serve's --smtp URL. Errors: EInvalid, saying what to fix.
func ParseSMTP(raw, from string) (SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return SMTP{}, site.Errorf(site.EInvalid, "--smtp must be smtp://user:password@host:port or smtps://…, not %q.", raw)
	}
	s := SMTP{Host: u.Hostname(), TLS: u.Scheme == "smtps", StartTLS: u.Query().Get("tls") == "required", From: from, Port: 587,
		Auth: strings.ToLower(u.Query().Get("auth"))}
	if s.Auth != "" && s.Auth != "plain" && s.Auth != "login" {
		return SMTP{}, site.Errorf(site.EInvalid, "--smtp's auth must be plain or login (or left out: the strongest the server offers), not %q.", s.Auth)
	}
	if s.TLS {
		s.Port = 465
	}
	if p := u.Port(); p != "" {
		if s.Port, err = strconv.Atoi(p); err != nil {
			return SMTP{}, site.Errorf(site.EInvalid, "--smtp's port %q is not a number.", p)
		}
	}
	if u.User != nil {
		s.User = u.User.Username()
		s.Password, _ = u.User.Password()
	}
	if m := mail.NewMsg(); m.From(from) != nil {
		return SMTP{}, site.Errorf(site.EInvalid, "--mail-from must be the address e-mails come from, such as siteplan@agency.example, not %q.", from)
	}
	return s, nil
}

type mailer struct {
	store mailStore
	smtp  SMTP
	log   *slog.Logger
	base  string // the server's public address, for links
	now   func() time.Time
	key   []byte // the unsubscribe key, once read
	loop.Loop
}

func newMailer(st mailStore, s SMTP, log *slog.Logger, base string) *mailer {
	return &mailer{store: st, smtp: s, log: log, base: base, now: time.Now, Loop: loop.New()}
}

// round sends what waits at once, and the digests that are due. A stop
// waits for the round, within its budget, instead of cutting it: a
// claim cut half-way (on PostgreSQL, a commit whose answer was lost)
// would hold the e-mails from the other instances for mailLease.
func (m *mailer) round(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), mailBudget)
	defer cancel()
	m.send(ctx, site.MailInstant, mailLate)
	now := m.now()
	if m.send(ctx, site.MailDigest, digestLate) {
		if err := m.store.AdvanceDigests(ctx, now); err != nil {
			m.log.Error("setting the next digests", "err", err)
		}
	}
	return false
}

// send e-mails what waits for the members of mode (for digests, those
// whose digest is due), a message a member, and marks what went as
// mailed. It reports whether all that waited went (or nothing waited):
// only then is a digest done for the day.
func (m *mailer) send(ctx context.Context, mode string, late time.Duration) bool {
	// The key is read before anything is claimed: a round that cannot
	// read it holds nothing from the other instances.
	key, err := m.unsubscribeKey(ctx)
	if err != nil {
		m.log.Error("reading the unsubscribe key", "err", err)
		return false
	}
	now := m.now()
	batches, held, err := m.store.ClaimMail(ctx, mode, now.Add(-late), now, mailLease, mailBatch)
	if err != nil || len(batches) == 0 {
		if err != nil {
			m.log.Error("reading the notifications to e-mail", "err", err)
		}
		return err == nil && !held // what another instance holds may yet fail
	}
	var msgs []*mail.Msg
	var ids []int64
	for _, b := range batches {
		for _, n := range b.Notices {
			ids = append(ids, n.ID)
		}
		msg, err := m.message(b, mode, key)
		if err != nil { // an address no server takes: it would fail every round; counted as sent
			m.log.Warn("a notification e-mail that cannot be made", "user", b.UserID, "err", err)
			continue
		}
		msgs = append(msgs, msg)
	}
	if len(msgs) == 0 {
		return m.markMailed(ctx, ids)
	}
	c, err := m.client()
	if err == nil {
		err = c.DialAndSendWithContext(ctx, msgs...)
	}
	if err != nil {
		m.log.Error("sending notification e-mails", "smtp", m.smtp.Host, "err", err)
		if err := m.store.ReleaseMail(context.WithoutCancel(ctx), ids); err != nil {
			m.log.Error("letting go of notification e-mails", "err", err)
		}
		return false // tried again at the next round
	}
	return m.markMailed(ctx, ids) && len(ids) < mailBatch && !held // a full batch: more may wait
}

func (m *mailer) markMailed(ctx context.Context, ids []int64) bool {
	if err := m.store.MarkMailed(ctx, ids); err != nil {
		m.log.Error("recording notification e-mails", "err", err)
		return false
	}
	return true
}

// unsubscribeKey is the server's key that signs the links that stop
// the e-mails; it never changes, so it is read once.
func (m *mailer) unsubscribeKey(ctx context.Context) ([]byte, error) {
	if m.key != nil {
		return m.key, nil
	}
	key, err := m.store.ServerKey(ctx, site.UnsubscribeKey)
	if err == nil {
		m.key = key
	}
	return key, err
}

// client is an SMTP client for the configured server.
func (m *mailer) client() (*mail.Client, error) {
	opts := []mail.Option{mail.WithPort(m.smtp.Port), mail.WithTimeout(10 * time.Second), mail.WithTLSPolicy(mail.TLSOpportunistic)}
	switch {
	case m.smtp.TLS:
		opts = append(opts, mail.WithSSL())
	case m.smtp.StartTLS:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	}
	if m.smtp.RootCAs != nil {
		opts = append(opts, mail.WithTLSConfig(&tls.Config{ServerName: m.smtp.Host, RootCAs: m.smtp.RootCAs, MinVersion: tls.VersionTLS12}))
	}
	if m.smtp.User != "" {
		auth := map[string]mail.SMTPAuthType{"": mail.SMTPAuthAutoDiscover, "plain": mail.SMTPAuthPlain, "login": mail.SMTPAuthLogin}[m.smtp.Auth]
		opts = append(opts, mail.WithSMTPAuth(auth), mail.WithUsername(m.smtp.User), mail.WithPassword(m.smtp.Password))
	}
	return mail.NewClient(m.smtp.Host, opts...)
}

// message is one member's e-mail: what happened, a line and a link each,
// and the link that stops the e-mails.
func (m *mailer) message(b site.MailBatch, mode string, key []byte) (*mail.Msg, error) {
	msg := mail.NewMsg()
	if err := msg.From(m.smtp.From); err != nil {
		return nil, err
	}
	if err := msg.AddToFormat(b.Name, b.Email); err != nil {
		return nil, err
	}
	subject := b.Notices[0].Text
	if mode == site.MailDigest {
		subject = "siteplan: " + site.Plural(len(b.Notices), "thing", "things") + " since yesterday"
	} else if len(b.Notices) > 1 {
		subject = "siteplan: " + site.Plural(len(b.Notices), "new notification", "new notifications")
	}
	msg.Subject(site.Clip(subject, 150))
	unsubscribe := m.base + site.UnsubscribePath(key, b.UserID)
	if err := msg.SetListUnsubscribeOneClick(unsubscribe); err != nil { // one click (RFC 8058) over https only
		msg.SetListUnsubscribe(unsubscribe)
	}
	var body strings.Builder
	fmt.Fprintf(&body, "Hello %s,\n\n", b.Name)
	for _, n := range b.Notices {
		fmt.Fprintf(&body, "%s\n%s%s\n\n", n.Text, m.base, n.Path)
	}
	fmt.Fprintf(&body, "Your inbox: %s/inbox\n\nTo stop these e-mails: %s\n", m.base, unsubscribe)
	msg.SetBodyString(mail.TypeTextPlain, body.String())
	return msg, nil
}
