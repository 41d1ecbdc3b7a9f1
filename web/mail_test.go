package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"siteplan/site"
)

// TestUnsubscribeLink: the link an e-mail carries stops the e-mails
// without a login; a forged one does not.
func TestUnsubscribeLink(t *testing.T) {
	c := newClient(t)
	ctx := context.Background()
	ana := addUser(t, c.db, "ana@test.example", "Ana Editor", "1", site.RoleEditor)
	bob := addUser(t, c.db, "bob@test.example", "Bob Editor", "1", site.RoleEditor)
	key, err := c.db.Notifications.ServerKey(ctx, site.UnsubscribeKey)
	if err != nil {
		t.Fatal(err)
	}
	path := site.UnsubscribePath(key, ana.ID)
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
	if m, _ := c.db.Notifications.MailSettings(ctx, ana.ID); m.Mode != site.MailOff {
		t.Errorf("Ana's mode is %q", m.Mode)
	}
	if m, _ := c.db.Notifications.MailSettings(ctx, bob.ID); m.Mode == site.MailOff {
		t.Errorf("Bob's e-mails stopped too")
	}
}

// TestCommentFlood: one share-link visitor posting comment after comment
// is stopped after commentBurst, saying why.
func TestCommentFlood(t *testing.T) {
	c := newClient(t)
	pid, ids := c.fixture()
	flooder := c.visitor(pid, site.ShareComment)
	post := func(v *client, n int) int {
		return v.do("POST", pagePath(pid, ids["Pricing"], "comments"), url.Values{"author": {"Mallory"}, "body": {"@Alice look " + itoa(int64(n))}}, true).Code
	}
	for i := range commentBurst {
		if code := post(flooder, i); code != http.StatusCreated {
			t.Fatalf("comment %d: %d", i+1, code)
		}
	}
	rec := flooder.do("POST", pagePath(pid, ids["Pricing"], "comments"), url.Values{"author": {"Mallory"}, "body": {"one more"}}, true)
	if rec.Code != http.StatusTooManyRequests || !strings.Contains(rec.Body.String(), "many comments") {
		t.Errorf("comment %d: %d, want 429", commentBurst+1, rec.Code)
	}
	if code := post(c, 0); code != http.StatusCreated {
		t.Errorf("a member's comment beside the flood: %d", code)
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
	if m, err := c.db.Notifications.MailSettings(context.Background(), owner.ID); err != nil || m != (site.MailSettings{Mode: site.MailDigest, DigestHour: 9, TimeZone: "Europe/Berlin"}) {
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
