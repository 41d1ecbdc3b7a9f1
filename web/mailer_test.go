package web

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/http/httptest"
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
	berlin9 := site.MailSettings{Mode: site.MailDigest, DigestHour: 9, TimeZone: "Europe/Berlin"}
	if err := c.db.SetMailSettings(context.Background(), bob.ID, berlin9); err != nil {
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
	if m, _ := c.db.MailSettings(context.Background(), ana.ID); m.Mode != site.MailOff {
		t.Errorf("Ana's mode is %q", m.Mode)
	}
	// Bob chose the digest: nothing at once; the day's in one message.
	noMail(t, got, "at once, to a member who chose the digest")
	// A mailer of the test's own, whose clock it sets: before Bob's hour
	// nothing goes, at it the digest does, and then not again that day.
	digests := newMailer(c.db, conf, c.srv.log, func() string { return "https://plans.agency.example" })
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
	d := nextMail(t, got, "the digest")
	subject, _ = new(mime.WordDecoder).DecodeHeader(d.msg.Header.Get("Subject"))
	if d.to != "bob@test.example" || subject != "siteplan: 1 thing since yesterday" || !strings.Contains(d.body, "Olive Owner mentioned you") {
		t.Errorf("the digest: to %q, %q\n%s", d.to, subject, d.body)
	}
	if in := due.In(must(time.LoadLocation("Europe/Berlin"))); in.Hour() != 9 || in.Minute() != 0 {
		t.Errorf("the digest was due at %v, not at 09:00 in Berlin", in)
	}
	if err := c.db.AdvanceDigests(context.Background(), due.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if rec := c.do("POST", pagePath(pid, ids["Pricing"], "comments"), url.Values{"body": {"@Bob Editor one more"}}, true); rec.Code != 201 {
		t.Fatalf("comment: %d", rec.Code)
	}
	at(due.Add(2 * time.Minute))
	digests.send(context.Background(), site.MailDigest, digestLate)
	noMail(t, got, "a second digest the same day")
	at(due.Add(24*time.Hour + time.Minute))
	digests.send(context.Background(), site.MailDigest, digestLate)
	if d := nextMail(t, got, "the next day's digest"); !strings.Contains(d.body, "one more") {
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

// TestMailSettingsForm: the inbox page sets the mode, the digest's hour
// and time zone; a time zone that is none is refused, saying what to give.
func TestMailSettingsForm(t *testing.T) {
	c := newClient(t)
	owner := addUser(t, c.db, "ana@test.example", "Ana Editor", "1", site.RoleEditor)
	c = anonymous(t, c.srv, c.db)
	c.login("ana@test.example")
	rec := c.do("POST", "/inbox/mail", url.Values{"mode": {"digest"}, "digest_hour": {"9"}, "time_zone": {"Europe/Berlin"}}, false)
	wantStatus(t, rec, 303, "save the settings")
	if m, err := c.db.MailSettings(context.Background(), owner.ID); err != nil || m != (site.MailSettings{Mode: site.MailDigest, DigestHour: 9, TimeZone: "Europe/Berlin"}) {
		t.Errorf("saved %+v %v", m, err)
	}
	d := doc(t, c.do("GET", "/inbox", nil, false))
	if d.Find("#f-digest-hour option[selected]").Text() != "09:00" || d.Find("#f-time-zone").AttrOr("value", "") != "Europe/Berlin" {
		t.Errorf("the form shows %q in %q", d.Find("#f-digest-hour option[selected]").Text(), d.Find("#f-time-zone").AttrOr("value", ""))
	}
	rec = c.do("POST", "/inbox/mail", url.Values{"mode": {"digest"}, "digest_hour": {"9"}, "time_zone": {"Berlin"}}, false)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "Europe/Berlin") {
		t.Errorf("a time zone that is none: %d %s", rec.Code, rec.Body.String())
	}
}

// TestMailTLS: the mailer sends over TLS from the start (smtps://) and
// over STARTTLS where it is required, to a server with a certificate
// of its own.
func TestMailTLS(t *testing.T) {
	c := newClient(t)
	cert := httptest.NewTLSServer(nil) // for a certificate for 127.0.0.1 and its pool
	cert.Close()
	pool := x509.NewCertPool()
	pool.AddCert(cert.Certificate())
	tlsConf := &tls.Config{Certificates: cert.TLS.Certificates}
	pid, ids := c.fixture()
	for _, tc := range []struct {
		name     string
		implicit bool
	}{{"smtps", true}, {"STARTTLS", false}} {
		t.Run(tc.name, func(t *testing.T) {
			// A member of their own for each: one instant e-mail a member
			// every site.MailInstantEvery.
			ana := addUser(t, c.db, "ana-"+tc.name+"@test.example", "Ana "+tc.name, "1", site.RoleEditor)
			conf, got := smtpServerWith(t, func(srv *smtp.Server) { srv.TLSConfig = tlsConf }, tc.implicit)
			conf.TLS, conf.StartTLS, conf.RootCAs = tc.implicit, !tc.implicit, pool
			m := newMailer(c.db, conf, c.srv.log, func() string { return "https://plans.agency.example" })
			if rec := c.do("POST", pagePath(pid, ids["Pricing"], "comments"), url.Values{"body": {"@Ana " + tc.name + " over " + tc.name}}, true); rec.Code != 201 {
				t.Fatalf("comment: %d", rec.Code)
			}
			if !m.send(context.Background(), site.MailInstant, mailLate) {
				t.Fatal("the round failed")
			}
			got1 := nextMail(t, got, "the mention")
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

// TestChangedSinceApprovalNotice: the server's sign-off watcher tells a
// plan's watcher in their inbox when an edit changes what a client
// signed off.
func TestChangedSinceApprovalNotice(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	ctx := context.Background()
	owner := addUser(t, c.db, "ana@test.example", "Ana Editor", "1", site.RoleEditor)
	c = anonymous(t, c.srv, c.db)
	c.login("ana@test.example")
	if err := c.db.Watch(ctx, owner.ID, pid, true); err != nil {
		t.Fatal(err)
	}
	project := "/projects/" + itoa(pid)
	wantStatus(t, c.do("POST", project+"/versions", url.Values{"name": {"Client review"}}, false), 303, "make a version")
	client := c.visitor(pid, site.ShareComment)
	wantStatus(t, client.do("POST", project+"/versions/1/approve", url.Values{"page": {"0"}, "name": {"Carla Client"}}, false), 303, "the client signs off")
	wantStatus(t, c.do("PATCH", pagePath(pid, ids["Pricing"], "title"), url.Values{"title": {"Plans"}, "version": {"1"}}, true), 200, "rename")
	c.srv.signoffs.poke()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		ns, err := c.db.Inbox(ctx, owner.ID, 10)
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

// TestCommentFlood: one share-link visitor posting comment after comment
// that mentions a member is stopped after commentBurst; the mentions
// reach the member as one e-mail, not one each, and the next waits until
// site.MailInstantEvery has passed.
func TestCommentFlood(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	addUser(t, c.db, "alice@test.example", "Alice", "1", site.RoleEditor)
	conf, got := smtpServer(t)
	m := newMailer(c.db, conf, c.srv.log, func() string { return "https://plans.agency.example" })
	flooder := c.visitor(pid, site.ShareComment)
	post := func(v *client, n int) *httptest.ResponseRecorder {
		return v.do("POST", pagePath(pid, ids["Pricing"], "comments"), url.Values{"author": {"Mallory"}, "body": {"@Alice look " + itoa(int64(n))}}, true)
	}
	for i := range commentBurst {
		if rec := post(flooder, i); rec.Code != http.StatusCreated {
			t.Fatalf("comment %d: %d %.200s", i+1, rec.Code, rec.Body.String())
		}
	}
	if rec := post(flooder, commentBurst); rec.Code != http.StatusTooManyRequests || !strings.Contains(rec.Body.String(), "many comments") {
		t.Errorf("comment %d: %d, want 429", commentBurst+1, rec.Code)
	}
	if !m.send(context.Background(), site.MailInstant, mailLate) {
		t.Fatal("the round failed")
	}
	mail := nextMail(t, got, "the mentions")
	if mail.to != "alice@test.example" || strings.Count(mail.body, "Mallory (guest) mentioned you") != commentBurst {
		t.Errorf("the e-mail to %s has %d of %d mentions", mail.to, strings.Count(mail.body, "Mallory (guest) mentioned you"), commentBurst)
	}
	// Another mention at once waits for the window.
	member := c.do("POST", pagePath(pid, ids["Pricing"], "comments"), url.Values{"body": {"@Alice and one more"}}, true)
	if member.Code != http.StatusCreated {
		t.Fatalf("a member's comment: %d", member.Code)
	}
	m.send(context.Background(), site.MailInstant, mailLate)
	select {
	case extra := <-got:
		t.Errorf("a second e-mail within %s: %s", site.MailInstantEvery, extra.body)
	default:
	}
	c.db.Now = func() time.Time { return time.Now().Add(site.MailInstantEvery + time.Second) }
	m.now = c.db.Now
	m.send(context.Background(), site.MailInstant, mailLate)
	if later := nextMail(t, got, "the mention after the window"); !strings.Contains(later.body, "and one more") {
		t.Errorf("after the window: %s", later.body)
	}
}

// TestGuestNotAMember: a share-link visitor cannot comment in a member's
// name, and a guest's comment is marked as a guest's.
func TestGuestNotAMember(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	v := c.visitor(pid, site.ShareComment)
	rec := v.do("POST", pagePath(pid, ids["Pricing"], "comments"), url.Values{"author": {"olive owner"}, "body": {"Delete this page."}}, true)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(doc(t, rec).Find("#err-author").Text(), "someone on the agency's team") {
		t.Errorf("a guest in a member's name: %d %.300s", rec.Code, rec.Body.String())
	}
	rec = v.do("POST", pagePath(pid, ids["Pricing"], "comments"), url.Values{"author": {"Carla"}, "body": {"Fine by me."}}, true)
	head := doc(t, rec).Find(".comment-head").Last()
	if rec.Code != http.StatusCreated || head.Find(".badge-guest").Length() != 1 {
		t.Errorf("a guest's comment is not marked: %d %q", rec.Code, head.Text())
	}
}
