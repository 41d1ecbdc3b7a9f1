package store

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"testing"

	"siteplan/site"
)

// TestTheme: a project has no theme until one is set; setting one
// replaces it whole; a bad colour is refused with its field; an unknown
// project is not found; deleting the project deletes its theme.
func TestTheme(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	p, _ := newProject(t, db, "Home\n  About")
	pid := p.ID
	if th, err := db.Themes.Theme(ctx, pid); err != nil || th.Accent != "" || th.LogoSum != "" {
		t.Fatalf("no theme yet: %+v, %v", th, err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 40, 20))
	img.Set(3, 3, color.RGBA{200, 0, 0, 255})
	var raw bytes.Buffer
	png.Encode(&raw, img)
	logo, err := site.NormalizeLogo(raw.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want := site.Theme{Accent: "#AA3300", Agency: "  Studio   North ", ClientName: "Acme", Logo: logo}
	if err := db.Themes.SetTheme(ctx, pid, want); err != nil {
		t.Fatal(err)
	}
	got, err := db.Themes.Theme(ctx, pid)
	if err != nil || got.Accent != "#aa3300" || got.Agency != "Studio North" || got.ClientName != "Acme" || len(got.LogoSum) != 64 {
		t.Errorf("theme read back: %+v, %v", got, err)
	}
	if b, err := db.Themes.Logo(ctx, pid); err != nil || !bytes.Equal(b, logo) {
		t.Errorf("logo read back: %d bytes, %v", len(b), err)
	}
	if err := db.Themes.SetTheme(ctx, pid, site.Theme{Agency: "Other"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Themes.Theme(ctx, pid); got.LogoSum != "" || got.Accent != "" || got.Agency != "Other" {
		t.Errorf("a second theme replaces the first: %+v", got)
	}
	if b, _ := db.Themes.Logo(ctx, pid); b != nil {
		t.Errorf("a theme without a logo kept %d bytes of the old one", len(b))
	}
	err = db.Themes.SetTheme(ctx, pid, site.Theme{Accent: "red"})
	if site.ErrorCode(err) != site.EInvalid || site.ErrorFields(err)["accent"] == "" {
		t.Errorf("accent red: %v", err)
	}
	if err := db.Themes.SetTheme(ctx, 9999, site.Theme{}); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("unknown project: %v", err)
	}
}

// TestBrand: a project takes its team's brand where its own theme is
// empty, field by field; its own fields win; the client is the
// project's alone.
func TestBrand(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	p, _ := newProject(t, db, "Home\n")
	if err := db.Themes.SetTeamTheme(ctx, 1, site.Theme{Accent: "#112233", Agency: "Northwind Studio", ClientName: "ignored", Logo: []byte("team-logo")}); err != nil {
		t.Fatal(err)
	}
	b, err := db.Themes.Brand(ctx, p.ID)
	if err != nil || b.Accent != "#112233" || b.Agency != "Northwind Studio" || b.ClientName != "" || b.LogoSum == "" {
		t.Errorf("a project without a theme: %+v %v", b, err)
	}
	if logo, _ := db.Themes.BrandLogo(ctx, p.ID); string(logo) != "team-logo" {
		t.Errorf("its logo %q", logo)
	}
	if err := db.Themes.SetTheme(ctx, p.ID, site.Theme{Agency: "Own Agency", ClientName: "Acme"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := db.Themes.Brand(ctx, p.ID); b.Accent != "#112233" || b.Agency != "Own Agency" || b.ClientName != "Acme" {
		t.Errorf("with a theme of its own: %+v", b)
	}
	if tt, _ := db.Themes.TeamTheme(ctx, 1); tt.ClientName != "" || tt.Agency != "Northwind Studio" {
		t.Errorf("the team's theme %+v", tt)
	}
	if err := db.Themes.SetTeamTheme(ctx, 99, site.Theme{}); site.ErrorCode(err) != site.ENotFound {
		t.Errorf("no such team: %v", err)
	}
}
