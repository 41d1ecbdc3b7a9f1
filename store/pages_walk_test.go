package store

import (
	"context"
	"fmt"
	"testing"

	"siteplan/site"
)

// TestAncestorsAndURLsMoved: a page's ancestors come from its root down;
// an edit that moves a branch counts its pages of kind page.
func TestAncestorsAndURLsMoved(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	_, ids := newProject(t, db, "Home\n  Shop\n    Kinds\n      Tents\n      Stoves\n    Sale\n  About")
	pg, err := db.Pages.Page(ctx, ids["Kinds"])
	if err != nil {
		t.Fatal(err)
	}
	pg.Kind = site.KindGroup
	if err := db.Pages.UpdatePage(ctx, &pg); err != nil {
		t.Fatal(err)
	}
	up, err := db.Pages.Ancestors(ctx, ids["Stoves"])
	var got []string
	for _, p := range up {
		got = append(got, p.Title)
	}
	if err != nil || fmt.Sprint(got) != "[Home Shop Kinds]" {
		t.Errorf("ancestors of Stoves: %v %v", got, err)
	}
	// An edit that gives a page another URL says how many URLs moved:
	// its branch's pages of kind page, itself included.
	for _, tc := range []struct {
		page string
		slug bool // the slug follows the new title
		want int
	}{{"Shop", true, 4}, {"Tents", true, 1}, {"Sale", false, 0}, {"Kinds", true, 0}} {
		pg, err := db.Pages.Page(ctx, ids[tc.page])
		if err != nil {
			t.Fatal(err)
		}
		pg.Title, pg.SlugAuto = "New "+tc.page, tc.slug
		e, err := db.Pages.EditPage(ctx, &pg)
		if err != nil || e.URLs != tc.want || e.Launched || e.Before.Title != tc.page || e.After.Title != "New "+tc.page {
			t.Errorf("edit of %s: %d URLs moved (%v), launched %t, %q to %q; want %d", tc.page, e.URLs, err, e.Launched, e.Before.Title, e.After.Title, tc.want)
		}
	}
}
