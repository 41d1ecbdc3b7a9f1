package store

import (
	"context"
	"strconv"
	"testing"

	"siteplan/internal/sitegen"
	"siteplan/site"
)

// bench10k imports a 10,011-page plan (10 sections of 1,001 pages) and
// returns it with a context in which an editor acts.
func bench10k(b *testing.B) (*Store, int64, *site.Tree, context.Context) {
	b.Helper()
	db := openTest(b)
	ctx := context.Background()
	id, err := db.Projects.ImportDocument(ctx, 1, sitegen.Document("Bench", 10, 10, 99))
	if err != nil {
		b.Fatal(err)
	}
	u, _, err := db.Accounts.AddUser(ctx, "anna@agency.example", "Anna", pw, "1", site.RoleEditor)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := db.Pages.Tree(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	return db, id, tr, site.WithViewer(ctx, site.Viewer{UserID: u.ID, Name: "Anna", Access: site.AccessEdit})
}

// BenchmarkVersionCreate10k names a version of a 10,011-page plan
// (target: under 200 ms).
func BenchmarkVersionCreate10k(b *testing.B) {
	db, id, _, ctx := bench10k(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := db.History.CreateVersion(ctx, id, "v"+strconv.Itoa(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareVersions10k loads two versions of a 10,011-page plan
// a hundred edits apart and compares them (target: under 200 ms).
func BenchmarkCompareVersions10k(b *testing.B) {
	db, id, tr, ctx := bench10k(b)
	if _, err := db.History.CreateVersion(ctx, id, "Kickoff"); err != nil {
		b.Fatal(err)
	}
	n := 0
	tr.Walk(func(p *site.Page, depth int) bool {
		if depth == 4 && n < 100 {
			if _, err := db.Pages.RenamePage(ctx, p.ID, p.Title+" (new)", p.Version); err != nil {
				b.Fatal(err)
			}
			n++
		}
		return true
	})
	if _, err := db.History.CreateVersion(ctx, id, "Review"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, from, fl, err := db.History.Version(ctx, id, 1)
		if err != nil {
			b.Fatal(err)
		}
		_, to, tl, err := db.History.Version(ctx, id, 2)
		if err != nil {
			b.Fatal(err)
		}
		if c := site.Compare(from, to, fl, tl); len(c.Renamed) != 100 {
			b.Fatalf("%d renamed", len(c.Renamed))
		}
	}
}

// BenchmarkUndoDelete1000 undoes the deletion of a 1,001-page section of a
// 10,011-page plan (target: under 200 ms); the deletion is not timed.
func BenchmarkUndoDelete1000(b *testing.B) {
	db, id, tr, ctx := bench10k(b)
	section := tr.Children(tr.Roots(site.PlacementMain)[0].ID)[0]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if n, err := db.Pages.DeletePage(ctx, section.ID); err != nil || n != 1001 {
			b.Fatal(n, err)
		}
		b.StartTimer()
		if _, err := db.History.Undo(ctx, id); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeleteBranch1000 deletes a 1,001-page section, keeping in the
// log what it takes to bring it back; its undo is not timed.
func BenchmarkDeleteBranch1000(b *testing.B) {
	db, id, tr, ctx := bench10k(b)
	section := tr.Children(tr.Roots(site.PlacementMain)[0].ID)[0]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := db.Pages.DeletePage(ctx, section.ID); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if _, err := db.History.Undo(ctx, id); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkEdits10k makes a hundred edits (renames and moves) of a
// 10,011-page plan per op, and reports how much the database file grows
// per hundred edits (target: well under 8 MB).
func BenchmarkEdits10k(b *testing.B) {
	db, _, tr, ctx := bench10k(b)
	var leaves []*site.Page
	tr.Walk(func(p *site.Page, depth int) bool {
		if depth == 4 {
			leaves = append(leaves, p)
		}
		return true
	})
	size := func() int64 {
		var pages, pageSize int64
		db.w.QueryRow(`PRAGMA page_count`).Scan(&pages)
		db.w.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
		return pages * pageSize
	}
	db.w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	start := size()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range 100 {
			p := leaves[(i*100+k)%len(leaves)]
			if k%2 == 0 {
				cur, _ := db.Pages.Page(ctx, p.ID)
				if _, err := db.Pages.RenamePage(ctx, p.ID, cur.Title+"!", cur.Version); err != nil {
					b.Fatal(err)
				}
			} else if err := db.Pages.MovePage(ctx, p.ID, p.ParentID, "", 0); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	db.w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	b.ReportMetric(float64(size()-start)/float64(b.N), "bytes/100edits")
}
