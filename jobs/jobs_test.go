package jobs

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strconv"
	"testing"

	"siteplan/internal/pgtest"
	"siteplan/site"
	"siteplan/store"
)

// TestMain runs the tests, on PostgreSQL too where make test asks.
func TestMain(m *testing.M) { os.Exit(pgtest.Run(m)) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

const testPassword = "correct horse battery"

// fixture is a database with an owner, Olive Owner of team 1, and the
// store's sample plan, its pages' ids by title.
type fixture struct {
	t     *testing.T
	db    *store.Store
	owner site.User
	pid   int64
	ids   map[string]int64
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db, err := store.Open(pgtest.DSN(t, "jobs.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &fixture{t: t, db: db, ids: map[string]int64{}}
	f.owner = f.addUser("owner@test.example", "Olive Owner", site.RoleOwner)
	d, err := site.ReadDocumentFile("../store/testdata/acme.json")
	if err != nil {
		t.Fatal(err)
	}
	if f.pid, err = db.Projects.ImportDocument(context.Background(), 1, d); err != nil {
		t.Fatal(err)
	}
	tr, err := db.Pages.Tree(context.Background(), f.pid)
	if err != nil {
		t.Fatal(err)
	}
	tr.Walk(func(p *site.Page, _ int) bool { f.ids[p.Title] = p.ID; return true })
	return f
}

// addUser gives an account (created if new) a role in team 1.
func (f *fixture) addUser(email, name, role string) site.User {
	f.t.Helper()
	u, _, err := f.db.Accounts.AddUser(context.Background(), email, name, testPassword, "1", role)
	if err != nil {
		f.t.Fatal(err)
	}
	return u
}

// as is a context whose viewer is the member u.
func (f *fixture) as(u site.User) context.Context {
	return site.WithViewer(context.Background(), site.Viewer{UserID: u.ID, Name: u.Name})
}

// comment is the owner's comment on the page of that title.
func (f *fixture) comment(page, body string) {
	f.t.Helper()
	c := site.Comment{ProjectID: f.pid, PageID: f.ids[page], UserID: f.owner.ID, Author: f.owner.Name, Body: body}
	if err := f.db.Comments.AddComment(f.as(f.owner), &c, 0); err != nil {
		f.t.Fatal(err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// storesOf are the parts of db the jobs use, as serve gives them.
func storesOf(db *store.Store) Stores {
	return Stores{Webhooks: db.Webhooks, Notifications: db.Notifications, Projects: db.Projects, Jobs: db.Jobs, Pages: db.Pages,
		Redirects: db.Redirects, History: db.History, Queued: db.Queued}
}
