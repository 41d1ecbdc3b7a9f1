package jobs

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/http/httptest"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"siteplan/site"
)

// mailed is a message the loopback SMTP server received.
type mailed struct {
	from, to, user string
	tls            bool // the session was over TLS
	msg            *mail.Message
	body           string
}

// smtpSession keeps what one SMTP connection sends.
type smtpSession struct {
	got        chan<- mailed
	tls        bool
	from, user string
	to         []string
}

func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != "siteplan" || pass != "s3cret" {
			return &smtp.SMTPError{Code: 535, Message: "wrong password"}
		}
		s.user = user
		return nil
	}), nil
}
func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error { s.from = from; return nil }
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error   { s.to = append(s.to, to); return nil }
func (s *smtpSession) Data(r io.Reader) error {
	b, _ := io.ReadAll(r)
	m, err := mail.ReadMessage(bytes.NewReader(b))
	if err != nil {
		return err
	}
	var in io.Reader = m.Body
	if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		in = quotedprintable.NewReader(m.Body)
	}
	body, _ := io.ReadAll(in)
	for _, to := range s.to {
		s.got <- mailed{from: s.from, to: to, user: s.user, msg: m, body: string(body), tls: s.tls}
	}
	return nil
}
func (s *smtpSession) Reset()        { s.to = nil }
func (s *smtpSession) Logout() error { return nil }

// smtpServer is an SMTP server on loopback that wants a login
// (siteplan, s3cret) and hands each message to the test.
func smtpServer(t *testing.T) (SMTP, <-chan mailed) {
	return smtpServerWith(t, nil, false)
}

// smtpServerWith is smtpServer set up by with; implicit: it speaks TLS
// from the start (its TLSConfig), as on port 465.
func smtpServerWith(t *testing.T, with func(*smtp.Server), implicit bool) (SMTP, <-chan mailed) {
	got := make(chan mailed, 20)
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, tlsOn := c.TLSConnectionState()
		return &smtpSession{got: got, tls: tlsOn}, nil
	}))
	srv.Domain, srv.AllowInsecureAuth = "localhost", true
	if with != nil {
		with(srv)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if implicit {
		l = tls.NewListener(l, srv.TLSConfig)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return SMTP{Host: "127.0.0.1", Port: l.Addr().(*net.TCPAddr).Port, User: "siteplan", Password: "s3cret", Auth: "plain", From: "siteplan@agency.example"}, got
}

// TestMailNotifications: a mention is e-mailed at once through the SMTP
// server (logged in), with a link to the page and the signed link that
// stops the e-mails; a member who chose the digest gets the day's
// notifications in one message.
func TestMailNotifications(t *testing.T) {
	f := newFixture(t)
	conf, got := smtpServer(t)
	j := Start(context.Background(), storesOf(f.db), Config{Log: quiet, PublicURL: "https://plans.agency.example", SMTP: &conf})
	t.Cleanup(j.Close)
	ana := f.addUser("ana@test.example", "Ana Editor", site.RoleEditor)
	bob := f.addUser("bob@test.example", "Bob Editor", site.RoleEditor)
	berlin9 := site.MailSettings{Mode: site.MailDigest, DigestHour: 9, TimeZone: "Europe/Berlin"}
	if err := f.db.Notifications.SetMailSettings(context.Background(), bob.ID, berlin9); err != nil {
		t.Fatal(err)
	}
	f.comment("Pricing", "@Ana Editor and @Bob Editor, the tiers?")
	m := next(t, got, "the mention")
	subject, _ := new(mime.WordDecoder).DecodeHeader(m.msg.Header.Get("Subject"))
	if m.to != "ana@test.example" || m.from != "siteplan@agency.example" || m.user != "siteplan" ||
		!strings.HasPrefix(subject, "Olive Owner mentioned you on “Pricing” in Acme relaunch") {
		t.Errorf("the mail: to %q from %q as %q, subject %q", m.to, m.from, m.user, subject)
	}
	body := m.body
	if !strings.Contains(body, "https://plans.agency.example/projects/"+itoa(f.pid)+"/pages/"+itoa(f.ids["Pricing"])) {
		t.Errorf("the body has no link to the page:\n%s", body)
	}
	key, err := f.db.Notifications.ServerKey(context.Background(), site.UnsubscribeKey)
	if err != nil {
		t.Fatal(err)
	}
	if want := "https://plans.agency.example" + site.UnsubscribePath(key, ana.ID); !strings.Contains(body, want) ||
		!strings.Contains(m.msg.Header.Get("List-Unsubscribe"), want) {
		t.Errorf("no signed unsubscribe link %s:\n%s", want, body)
	}
	// Bob chose the digest: nothing at once; the day's in one message.
	noMail(t, got, "at once, to a member who chose the digest")
	// A mailer of the test's own, whose clock it sets: before Bob's hour
	// nothing goes, at it the digest does, and then not again that day.
	digests := newMailer(f.db.Notifications, conf, quiet, "https://plans.agency.example")
	due := berlin9.NextDigest(time.Now())
	at := func(t time.Time) { digests.now = func() time.Time { return t } }
	at(due.Add(-time.Minute))
	if !digests.send(context.Background(), site.MailDigest, digestLate) {
		t.Fatal("a round before the digest's hour failed")
	}
	noMail(t, got, "before the digest's hour")
	at(due.Add(time.Minute))
	if !digests.send(context.Background(), site.MailDigest, digestLate) {
		t.Fatal("the digest's round failed")
	}
	d := next(t, got, "the digest")
	subject, _ = new(mime.WordDecoder).DecodeHeader(d.msg.Header.Get("Subject"))
	if d.to != "bob@test.example" || subject != "siteplan: 1 thing since yesterday" || !strings.Contains(d.body, "Olive Owner mentioned you") {
		t.Errorf("the digest: to %q, %q\n%s", d.to, subject, d.body)
	}
	if in := due.In(must(time.LoadLocation("Europe/Berlin"))); in.Hour() != 9 || in.Minute() != 0 {
		t.Errorf("the digest was due at %v, not at 09:00 in Berlin", in)
	}
	if err := f.db.Notifications.AdvanceDigests(context.Background(), due.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	f.comment("Pricing", "@Bob Editor one more")
	at(due.Add(2 * time.Minute))
	digests.send(context.Background(), site.MailDigest, digestLate)
	noMail(t, got, "a second digest the same day")
	at(due.Add(24*time.Hour + time.Minute))
	digests.send(context.Background(), site.MailDigest, digestLate)
	if d := next(t, got, "the next day's digest"); !strings.Contains(d.body, "one more") {
		t.Errorf("the next digest:\n%s", d.body)
	}
	noMail(t, got, "after the next day's digest")
}

// noMail fails the test if the SMTP server has received a message: a
// send returns only once the server has taken what it sent.
func noMail(t *testing.T, got <-chan mailed, when string) {
	t.Helper()
	select {
	case m := <-got:
		t.Errorf("an e-mail %s, to %s:\n%s", when, m.to, m.body)
	default:
	}
}

// TestMailTLS: the mailer sends over TLS from the start (smtps://) and
// over STARTTLS where it is required, to a server with a certificate
// of its own.
func TestMailTLS(t *testing.T) {
	f := newFixture(t)
	cert := httptest.NewTLSServer(nil) // for a certificate for 127.0.0.1 and its pool
	cert.Close()
	pool := x509.NewCertPool()
	pool.AddCert(cert.Certificate())
	tlsConf := &tls.Config{Certificates: cert.TLS.Certificates}
	for _, tc := range []struct {
		name     string
		implicit bool
	}{{"smtps", true}, {"STARTTLS", false}} {
		t.Run(tc.name, func(t *testing.T) {
			// A member of their own for each: one instant e-mail a member
			// every site.MailInstantEvery.
			ana := f.addUser("ana-"+tc.name+"@test.example", "Ana "+tc.name, site.RoleEditor)
			conf, got := smtpServerWith(t, func(srv *smtp.Server) { srv.TLSConfig = tlsConf }, tc.implicit)
			conf.TLS, conf.StartTLS, conf.RootCAs = tc.implicit, !tc.implicit, pool
			m := newMailer(f.db.Notifications, conf, quiet, "https://plans.agency.example")
			f.comment("Pricing", "@Ana "+tc.name+" over "+tc.name)
			if !m.send(context.Background(), site.MailInstant, mailLate) {
				t.Fatal("the round failed")
			}
			got1 := next(t, got, "the mention")
			if got1.to != ana.Email || !got1.tls || !strings.Contains(got1.body, "over "+tc.name) {
				t.Errorf("to %q, over TLS %t:\n%s", got1.to, got1.tls, got1.body)
			}
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestParseSMTP: serve's --smtp URL, with what to fix when it is wrong.
func TestParseSMTP(t *testing.T) {
	s, err := ParseSMTP("smtp://me:p%40ss@mail.example:2525?tls=required&auth=LOGIN", "siteplan@agency.example")
	if err != nil || s.Host != "mail.example" || s.Port != 2525 || s.User != "me" || s.Password != "p@ss" || !s.StartTLS || s.TLS || s.Auth != "login" {
		t.Errorf("%+v %v", s, err)
	}
	if s, _ := ParseSMTP("smtps://mail.example", "a@b.example"); !s.TLS || s.Port != 465 {
		t.Errorf("smtps: %+v", s)
	}
	for _, bad := range []string{"mail.example", "http://mail.example", "smtp://mail.example:port", "smtp://mail.example?auth=xoauth"} {
		if _, err := ParseSMTP(bad, "a@b.example"); site.ErrorCode(err) != site.EInvalid {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := ParseSMTP("smtp://mail.example", "not an address"); err == nil || !strings.Contains(err.Error(), "--mail-from") {
		t.Errorf("a bad --mail-from: %v", err)
	}
}

// TestChangedSinceApprovalNotice: the sign-off watcher tells a plan's
// watcher in their inbox when an edit changes what a client signed off.
func TestChangedSinceApprovalNotice(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	ana := f.addUser("ana@test.example", "Ana Editor", site.RoleEditor)
	if err := f.db.Notifications.Watch(ctx, ana.ID, f.pid, true); err != nil {
		t.Fatal(err)
	}
	v, err := f.db.History.CreateVersion(f.as(ana), f.pid, "Client review")
	if err != nil {
		t.Fatal(err)
	}
	l := site.ShareLink{ProjectID: f.pid, Role: site.ShareComment}
	if _, err := f.db.Sharing.CreateShareLink(ctx, &l); err != nil {
		t.Fatal(err)
	}
	guest := site.WithViewer(ctx, site.Viewer{Name: "Carla Client", Share: true, ShareLinkID: l.ID, Access: site.AccessComment})
	if _, err := f.db.History.Approve(guest, f.pid, v.Number, 0, "Carla Client"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Pages.RenamePage(f.as(ana), f.ids["Pricing"], "Plans", 1); err != nil {
		t.Fatal(err)
	}
	j := Start(ctx, storesOf(f.db), Config{Log: quiet})
	t.Cleanup(j.Close)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) { // polls a state another goroutine records
		ns, err := f.db.Notifications.Inbox(ctx, ana.ID, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(ns) > 0 && ns[0].Kind == site.NoticeChanged {
			if want := "has changed in the whole plan, which Carla Client via a share link signed off in Version 1 “Client review”"; !strings.Contains(ns[0].Text, want) {
				t.Errorf("the notice %q does not say %q", ns[0].Text, want)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no changed-since-approval notice; the inbox: %+v", ns)
		}
	}
}

// TestMailedMentionsWait: a guest's burst of comments that mention a
// member reaches them as one e-mail, not one each, and the next waits
// until site.MailInstantEvery has passed.
func TestMailedMentionsWait(t *testing.T) {
	f := newFixture(t)
	f.addUser("alice@test.example", "Alice", site.RoleEditor)
	conf, got := smtpServer(t)
	m := newMailer(f.db.Notifications, conf, quiet, "https://plans.agency.example")
	l := site.ShareLink{ProjectID: f.pid, Role: site.ShareComment}
	if _, err := f.db.Sharing.CreateShareLink(context.Background(), &l); err != nil {
		t.Fatal(err)
	}
	const burst = 5
	for i := range burst {
		c := site.Comment{ProjectID: f.pid, PageID: f.ids["Pricing"], Author: "Mallory", Body: "@Alice look " + itoa(int64(i))}
		if err := f.db.Comments.AddComment(context.Background(), &c, l.ID); err != nil {
			t.Fatal(err)
		}
	}
	if !m.send(context.Background(), site.MailInstant, mailLate) {
		t.Fatal("the round failed")
	}
	mail := next(t, got, "the mentions")
	if mail.to != "alice@test.example" || strings.Count(mail.body, "Mallory (guest) mentioned you") != burst {
		t.Errorf("the e-mail to %s has %d of %d mentions", mail.to, strings.Count(mail.body, "Mallory (guest) mentioned you"), burst)
	}
	// Another mention at once waits for the window.
	f.comment("Pricing", "@Alice and one more")
	m.send(context.Background(), site.MailInstant, mailLate)
	select {
	case extra := <-got:
		t.Errorf("a second e-mail within %s: %s", site.MailInstantEvery, extra.body)
	default:
	}
	f.db.Now = func() time.Time { return time.Now().Add(site.MailInstantEvery + time.Second) }
	m.now = f.db.Now
	m.send(context.Background(), site.MailInstant, mailLate)
	if later := next(t, got, "the mention after the window"); !strings.Contains(later.body, "and one more") {
		t.Errorf("after the window: %s", later.body)
	}
}

// keyless is a store whose key cannot be read: the mailer of a server
// that is being stopped (a deploy) in the middle of a round.
type keyless struct{ mailStore }

func (keyless) ServerKey(context.Context, string) ([]byte, error) { return nil, context.Canceled }

// TestStoppedMailerHoldsNothing: a round that fails before it sends
// holds no e-mail, so another instance sends it at its next round, not
// when a claim runs out.
func TestStoppedMailerHoldsNothing(t *testing.T) {
	f := newFixture(t)
	f.addUser("alice@test.example", "Alice", site.RoleEditor)
	conf, got := smtpServer(t)
	f.comment("Pricing", "@Alice is this final?")
	stopping := newMailer(keyless{f.db.Notifications}, conf, quiet, "https://plans.agency.example")
	if stopping.send(context.Background(), site.MailInstant, mailLate) {
		t.Fatal("a round that could not read its key says it is done")
	}
	other := newMailer(f.db.Notifications, conf, quiet, "https://plans.agency.example")
	if !other.send(context.Background(), site.MailInstant, mailLate) {
		t.Fatal("the other instance's round failed")
	}
	if m := next(t, got, "the mention, from the other instance"); m.to != "alice@test.example" {
		t.Errorf("the mail went to %q", m.to)
	}
}

// TestStoppingMailerEndsItsRound: a server that stops (a deploy) while
// its mailer claims lets the round end, so it sends what it claimed
// instead of holding it from the other instances for mailLease.
func TestStoppingMailerEndsItsRound(t *testing.T) {
	f := newFixture(t)
	f.addUser("alice@test.example", "Alice", site.RoleEditor)
	conf, got := smtpServer(t)
	f.comment("Pricing", "@Alice is this final?")
	stopping, stop := context.WithCancel(context.Background())
	stop()
	newMailer(f.db.Notifications, conf, quiet, "https://plans.agency.example").round(stopping)
	if m := next(t, got, "the mention, from the stopping round"); m.to != "alice@test.example" {
		t.Errorf("the mail went to %q", m.to)
	}
}
