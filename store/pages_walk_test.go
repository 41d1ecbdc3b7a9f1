package store

import (
	"context"
	"fmt"
	"testing"

	"siteplan/site"
)

// TestAncestorsAndURLCount: a page's ancestors come from its root down;
// a branch's URL count is its pages of kind page, itself included.
func TestAncestorsAndURLCount(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	_, ids := newProject(t, db, "Home\n  Shop\n    Kinds\n      Tents\n      Stoves\n    Sale\n  About")
	pg, err := db.Page(ctx, ids["Kinds"])
	if err != nil {
		t.Fatal(err)
	}
	pg.Kind = site.KindGroup
	if err := db.UpdatePage(ctx, &pg); err != nil {
		t.Fatal(err)
	}
	up, err := db.Ancestors(ctx, ids["Stoves"])
	var got []string
	for _, p := range up {
		got = append(got, p.Title)
	}
	if err != nil || fmt.Sprint(got) != "[Home Shop Kinds]" {
		t.Errorf("ancestors of Stoves: %v %v", got, err)
	}
	for _, tc := range []struct {
		page string
		want int
	}{{"Shop", 4}, {"Kinds", 2}, {"Tents", 1}, {"Home", 6}} {
		if n, err := db.URLCount(ctx, ids[tc.page]); err != nil || n != tc.want {
			t.Errorf("URL count of %s: %d %v, want %d", tc.page, n, err, tc.want)
		}
	}
}
