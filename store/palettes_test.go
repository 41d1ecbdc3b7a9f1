package store

import (
	"context"
	"fmt"
	"testing"

	"siteplan/site"
)

// TestTypePalette: every write that gives a page a type adds it to its
// team's palette in first-use order, and the defaults never repeat a
// colour until the palette's colours run out, after which marks tell the
// types apart; a team's chosen colours are kept, checked and its own.
func TestTypePalette(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	doc := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "Aurora", BaseURL: "https://aurora.example/"}}
	for _, ty := range []string{"landing", "blog index", "category", "product", "landing", ""} {
		doc.Pages = append(doc.Pages, &site.DocPage{Title: "Page " + ty, Type: ty})
	}
	pid, err := db.Projects.ImportDocument(ctx, 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := db.Pages.Tree(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	p := *tr.Children(0)[0]
	p.Type = "faq" // an edit
	if err := db.Pages.UpdatePage(ctx, &p); err != nil {
		t.Fatal(err)
	}
	np := site.NewPage("New")
	np.ProjectID, np.Type = pid, "article"
	if err := db.Pages.CreatePage(ctx, &np); err != nil {
		t.Fatal(err)
	}
	pal, err := db.Themes.ProjectPalette(ctx, pid)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	colors := map[string]bool{}
	for _, ty := range pal.Types {
		got = append(got, ty.Type)
		if colors[ty.Color] || ty.Mark != "" || ty.Chosen {
			t.Errorf("%q looks like %s %q (chosen %t), repeating an earlier type's", ty.Type, ty.Color, ty.Mark, ty.Chosen)
		}
		colors[ty.Color] = true
	}
	if want := "[landing blog index category product faq article]"; fmt.Sprint(got) != want {
		t.Errorf("palette types %v, want %s in first-use order", got, want)
	}

	// Past the palette's twelve colours, marks.
	for i := len(pal.Types); i < len(site.PaletteColors)+2; i++ {
		np := site.NewPage(fmt.Sprint("More ", i))
		np.ProjectID, np.Type = pid, fmt.Sprint("type ", i)
		if err := db.Pages.CreatePage(ctx, &np); err != nil {
			t.Fatal(err)
		}
	}
	pal, _ = db.Themes.TeamPalette(ctx, 1)
	looks := map[string]string{}
	for _, ty := range pal.Types {
		if other, dup := looks[ty.Color+ty.Mark]; dup {
			t.Errorf("%q and %q look alike: %s %q", other, ty.Type, ty.Color, ty.Mark)
		}
		looks[ty.Color+ty.Mark] = ty.Type
	}
	if m := pal.Of("type 13").Mark; m == "" {
		t.Errorf("the 14th type has no mark, though its colour is the second type's")
	}

	// Chosen colours: kept, normalised; a colour two types share marks the later.
	if err := db.Themes.SetTypeColors(ctx, 1, map[string]string{"product": " #6D9EEB ", "category": "#123456"}); err != nil {
		t.Fatal(err)
	}
	pal, _ = db.Themes.TeamPalette(ctx, 1)
	if pr := pal.Of("product"); pr.Color != "#6d9eeb" || !pr.Chosen || pr.Mark == "" || pal.Of("landing").Mark != "" {
		t.Errorf("product chose landing's colour: %+v, landing %+v", pr, pal.Of("landing"))
	}
	wantCode(t, db.Themes.SetTypeColors(ctx, 1, map[string]string{"category": "red"}), site.EInvalid, "a colour not #rrggbb")
	wantCode(t, db.Themes.SetTypeColors(ctx, 1, map[string]string{"category": "#000000", "nope": "#ffffff"}), site.EInvalid, "a type the team never used")
	if c := pal.Of("category").Color; c != "#123456" {
		t.Errorf("category is %s after a refused change, want #123456", c)
	}
	pal, _ = db.Themes.TeamPalette(ctx, 1)
	if c := pal.Of("category").Color; c != "#123456" {
		t.Errorf("a refused change saved category's colour: %s", c)
	}
	if err := db.Themes.SetTypeColors(ctx, 1, map[string]string{"category": ""}); err != nil {
		t.Fatal(err)
	}
	pal, _ = db.Themes.TeamPalette(ctx, 1)
	if c := pal.Of("category"); c.Chosen || c.Color != site.PaletteColors[2] {
		t.Errorf("category back to its default: %+v, want %s", c, site.PaletteColors[2])
	}

	// Another team's palette is its own.
	u, _, err := db.Accounts.AddUser(ctx, "bo@other.example", "Bo", "a long enough password", "Other", site.RoleOwner)
	if err != nil {
		t.Fatal(err)
	}
	other, err := db.Teams.CreateTeam(ctx, u.ID, "Other")
	if err != nil {
		t.Fatal(err)
	}
	doc.Pages = doc.Pages[3:4] // product
	opid, err := db.Projects.ImportDocument(ctx, other.ID, doc)
	if err != nil {
		t.Fatal(err)
	}
	pal, _ = db.Themes.TeamPalette(ctx, other.ID)
	if len(pal.Types) != 1 || pal.Of("product").Color != site.PaletteColors[0] {
		t.Errorf("the other team's palette: %+v", pal.Types)
	}

	// A plan comes with its team's palette, read together; a team that
	// used no type yet has an empty one.
	empty, err := db.Teams.CreateTeam(ctx, u.ID, "Empty")
	if err != nil {
		t.Fatal(err)
	}
	bare := site.Project{TeamID: empty.ID, Name: "Bare", BaseURL: "https://bare.example/"}
	if err := db.Projects.CreateProject(ctx, &bare); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ project, team int64 }{{pid, 1}, {opid, other.ID}, {bare.ID, empty.ID}} {
		p, pal, err := db.Projects.ProjectWithPalette(ctx, c.project)
		want, _ := db.Themes.TeamPalette(ctx, c.team)
		if err != nil || p.ID != c.project || p.TeamID != c.team || fmt.Sprint(pal) != fmt.Sprint(want) {
			t.Errorf("project %d with its palette: %d of team %d, %+v, %v; want %+v", c.project, p.ID, p.TeamID, pal.Types, err, want.Types)
		}
	}
	_, _, err = db.Projects.ProjectWithPalette(ctx, 999)
	wantCode(t, err, site.ENotFound, "a project that does not exist")
}
