package web

import (
	"bytes"
	"context"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/url"
	"regexp"
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
	msg            *mail.Message
	body           string
}

// smtpSession keeps what one SMTP connection sends.
type smtpSession struct {
	got        chan<- mailed
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
		s.got <- mailed{from: s.from, to: to, user: s.user, msg: m, body: string(body)}
	}
	return nil
}
func (s *smtpSession) Reset()        { s.to = nil }
func (s *smtpSession) Logout() error { return nil }

// smtpServer is an SMTP server on loopback that wants a login
// (siteplan, s3cret) and hands each message to the test.
func smtpServer(t *testing.T) (SMTP, <-chan mailed) {
	got := make(chan mailed, 20)
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &smtpSession{got: got}, nil }))
	srv.Domain, srv.AllowInsecureAuth = "localhost", true
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return SMTP{Host: "127.0.0.1", Port: l.Addr().(*net.TCPAddr).Port, User: "siteplan", Password: "s3cret", Auth: "plain", From: "siteplan@agency.example"}, got
}

func nextMail(t *testing.T, got <-chan mailed, what string) mailed {
	t.Helper()
	select {
	case m := <-got:
		return m
	case <-time.After(20 * time.Second):
		t.Fatalf("no e-mail of %s", what)
	}
	return mailed{}
}

// TestMailNotifications: a mention is e-mailed at once through the SMTP
// server (logged in), with a link to the page and one that stops the
// e-mails without a login, which a forged one cannot; a member who chose
// the digest gets the day's notifications in one message.
func TestMailNotifications(t *testing.T) {
	c := newClient(t)
	conf, got := smtpServer(t)
	c.srv.SetPublicURL("https://plans.agency.example")
	c.srv.UseSMTP(conf)
	ana := addUser(t, c.db, "ana@test.example", "Ana Editor", "1", site.RoleEditor)
	bob := addUser(t, c.db, "bob@test.example", "Bob Editor", "1", site.RoleEditor)
	if err := c.db.SetMailMode(context.Background(), bob.ID, site.MailDigest); err != nil {
		t.Fatal(err)
	}
	pid, ids := c.fixture()
	if rec := c.do("POST", pagePath(pid, ids["Pricing"], "comments"), url.Values{"body": {"@Ana Editor and @Bob Editor, the tiers?"}}, true); rec.Code != 201 {
		t.Fatalf("comment: %d", rec.Code)
	}
	m := nextMail(t, got, "the mention")
	subject, _ := new(mime.WordDecoder).DecodeHeader(m.msg.Header.Get("Subject"))
	if m.to != "ana@test.example" || m.from != "siteplan@agency.example" || m.user != "siteplan" ||
		!strings.HasPrefix(subject, "Olive Owner mentioned you on “Pricing” in Acme relaunch") {
		t.Errorf("the mail: to %q from %q as %q, subject %q", m.to, m.from, m.user, subject)
	}
	body := m.body
	if !strings.Contains(body, "https://plans.agency.example/projects/"+itoa(pid)+"/pages/"+itoa(ids["Pricing"])) {
		t.Errorf("the body has no link to the page:\n%s", body)
	}
	link := regexp.MustCompile(`https://plans\.agency\.example(/unsubscribe\?u=\d+&t=[0-9a-f]{64})`).FindStringSubmatch(body)
	if link == nil || !strings.Contains(m.msg.Header.Get("List-Unsubscribe"), "/unsubscribe?u=") {
		t.Fatalf("no unsubscribe link:\n%s", body)
	}
	path := link[1]
	visitor := anonymous(t, c.srv, c.db)
	if rec := visitor.do("GET", path, nil, false); rec.Code != 200 || doc(t, rec).Find("#unsubscribe").Length() != 1 {
		t.Fatalf("the unsubscribe page: %d", rec.Code)
	}
	forged := strings.Replace(path, "u="+itoa(ana.ID), "u="+itoa(bob.ID), 1)
	if rec := visitor.do("POST", forged, nil, false); rec.Code != 404 {
		t.Errorf("a forged link: %d", rec.Code)
	}
	if rec := visitor.do("POST", path, nil, false); rec.Code != 200 || doc(t, rec).Find("#unsubscribed").Length() != 1 {
		t.Errorf("unsubscribe: %d", rec.Code)
	}
	if mode, _ := c.db.MailMode(context.Background(), ana.ID); mode != site.MailOff {
		t.Errorf("Ana's mode is %q", mode)
	}
	// Bob chose the digest: nothing at once; the day's in one message.
	select {
	case m := <-got:
		t.Fatalf("an e-mail at once to %s", m.to)
	default:
	}
	c.srv.mailer.send(context.Background(), site.MailDigest, digestLate)
	d := nextMail(t, got, "the digest")
	subject, _ = new(mime.WordDecoder).DecodeHeader(d.msg.Header.Get("Subject"))
	if d.to != "bob@test.example" || subject != "siteplan: 1 thing since yesterday" || !strings.Contains(d.body, "Olive Owner mentioned you") {
		t.Errorf("the digest: to %q, %q\n%s", d.to, subject, d.body)
	}
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
