package site

import (
	"testing"
	"time"
)

// TestNextDigest: a digest is due at the member's hour in their time
// zone, across the change to summer time.
func TestNextDigest(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		m        MailSettings
		at, want string
	}{
		{MailSettings{DigestHour: 9, TimeZone: "Europe/Berlin"}, "2026-03-28T07:30:00Z", "2026-03-28T08:00:00Z"}, // 08:30 CET: today at 9
		{MailSettings{DigestHour: 9, TimeZone: "Europe/Berlin"}, "2026-03-28T08:00:00Z", "2026-03-29T07:00:00Z"}, // 9 sharp has passed; tomorrow is summer time
		{MailSettings{DigestHour: 7, TimeZone: "UTC"}, "2026-11-26T23:59:00Z", "2026-11-27T07:00:00Z"},
		{MailSettings{DigestHour: 18, TimeZone: "America/New_York"}, "2026-11-26T22:00:00Z", "2026-11-26T23:00:00Z"},
		{MailSettings{DigestHour: 6, TimeZone: "Pacific/Auckland"}, "2026-11-26T18:00:00Z", "2026-11-27T17:00:00Z"}, // 07:00 NZDT: the next day's 6
	} {
		if got := tc.m.NextDigest(utc(tc.at)); !got.Equal(utc(tc.want)) {
			t.Errorf("%+v after %s: %s, want %s", tc.m, tc.at, got.Format(time.RFC3339), tc.want)
		}
	}
}

// TestMailSettingsValidate: what a member may set, and what is refused.
func TestMailSettingsValidate(t *testing.T) {
	ok := MailSettings{Mode: MailDigest, DigestHour: 0, TimeZone: " "}
	if err := ok.Validate(); err != nil || ok.TimeZone != "UTC" {
		t.Errorf("%+v: %v", ok, err)
	}
	for _, bad := range []MailSettings{{Mode: "weekly"}, {Mode: MailDigest, DigestHour: 24}, {Mode: MailDigest, TimeZone: "Mars/Olympus"},
		{Mode: MailDigest, TimeZone: "Local"}, {Mode: MailDigest, TimeZone: "../../etc/passwd"}} {
		if err := bad.Validate(); ErrorCode(err) != EInvalid {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

// TestThreadsMentioning: a thread counts when its first comment or a
// reply mentions the name.
func TestThreadsMentioning(t *testing.T) {
	threads := []Comment{
		{ID: 1, Body: "@Carla the photo?"},
		{ID: 2, Body: "Fine", Replies: []Comment{{Body: "ask @carla"}}},
		{ID: 3, Body: "@Carlos no"},
	}
	got := ThreadsMentioning(threads, "Carla")
	if len(got) != 2 || got[0].ID != 1 || got[1].ID != 2 {
		t.Errorf("ThreadsMentioning = %+v", got)
	}
}
