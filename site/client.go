package site

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// What a client sees. A guest (a visitor on a share link) reads the plan
// through a Projection: titles, URLs, structure, types, the statuses the
// link shows, the brief's client-facing fields and the notes a page marks
// for the client; never assignees, content owners, due dates, internal
// notes or the brief's working fields. The store applies the projection of
// the viewer in the request's context wherever it reads a plan (pages, a
// tree, the outline stream, a version), so every route, download,
// comparison and stream reads the same projected plan and none can forget
// it. docs/hardening.md lists what a client can and cannot see.

// Downloads a share link may allow. The team chooses them per link; a
// client asking for another answers 404.
const (
	DownloadPDF       = "pdf"       // the diagram as PDF
	DownloadPNG       = "png"       // the diagram as PNG
	DownloadSVG       = "svg"       // the diagram as SVG
	DownloadSitemaps  = "sitemaps"  // sitemap.xml, .txt, robots.txt lines, the footer sitemap, the Export page
	DownloadInventory = "inventory" // inventory.csv (projected)
	DownloadDocument  = "document"  // the plan as siteplan/1 JSON (projected)
	DownloadZip       = "zip"       // the launch files in one zip
	DownloadRedirects = "redirects" // the relaunch's redirect map and its view
	// DownloadHandoff is the handoff to the CMS (WordPress WXR, routes
	// JSON): the team's, never a share link's.
	DownloadHandoff = "handoff"
)

// ShareDownloads lists the downloads a share link may allow, in the order
// the sharing form offers them.
var ShareDownloads = []string{DownloadPDF, DownloadPNG, DownloadSVG, DownloadSitemaps, DownloadInventory, DownloadDocument, DownloadZip, DownloadRedirects}

// DownloadLabels name the downloads as the sharing form shows them.
var DownloadLabels = map[string]string{DownloadPDF: "Diagram as PDF", DownloadPNG: "Diagram as PNG", DownloadSVG: "Diagram as SVG",
	DownloadSitemaps: "Sitemap files", DownloadInventory: "Inventory (CSV)", DownloadDocument: "Plan as JSON", DownloadZip: "Launch files (zip)",
	DownloadRedirects: "Redirect map"}

// DefaultShareDownloads are what a new share link allows: the pictures.
var DefaultShareDownloads = []string{DownloadPDF, DownloadPNG}

// ValidateShareView checks a share link's downloads and shown statuses.
// Errors: EInvalid.
func ValidateShareView(downloads, statuses []string) error {
	for _, d := range downloads {
		if !slices.Contains(ShareDownloads, d) {
			return Errorf(EInvalid, "A share link cannot allow the download %q: choose among %s.", d, strings.Join(ShareDownloads, ", "))
		}
	}
	for _, s := range statuses {
		if !slices.Contains(Statuses, s) {
			return Errorf(EInvalid, "There is no status %q to show a client: choose among %s.", s, strings.Join(Statuses, ", "))
		}
	}
	return nil
}

// Guest reports whether v reads the plan as a client does: through a
// share link, without an account on the project's team.
func (v Viewer) Guest() bool { return v.Share }

// MayDownload reports whether v may have the download d: members every
// one, a guest those its link allows.
func (v Viewer) MayDownload(d string) bool {
	return !v.Guest() || slices.Contains(v.Downloads, d)
}

// Projection strips from a plan what a client may not see. The nil
// Projection is a member's: it strips nothing.
type Projection struct {
	// Statuses are the page statuses the client sees; any other reads as
	// no status.
	Statuses []string
}

// Projection returns what v reads of a plan: nil (everything) for a
// member of the team, the client projection for a guest.
func (v Viewer) Projection() *Projection {
	if !v.Guest() {
		return nil
	}
	return &Projection{Statuses: v.Statuses}
}

// ProjectionFrom is the projection of the viewer in ctx.
func ProjectionFrom(ctx context.Context) *Projection { return ViewerFrom(ctx).Projection() }

// Page strips p to what the client sees.
func (pr *Projection) Page(p *Page) {
	if pr == nil {
		return
	}
	p.Assignee = ""
	if !p.NotesPublic {
		p.Notes = ""
	}
	if !slices.Contains(pr.Statuses, p.Status) {
		p.Status = ""
	}
	b := &p.Brief
	b.Keyword, b.Intent, b.WordTarget, b.Owner, b.Due = "", "", 0, "", ""
}

// Tree strips every page of t; t is changed in place.
func (pr *Projection) Tree(t *Tree) {
	if pr == nil || t == nil {
		return
	}
	for _, p := range t.byID {
		pr.Page(p)
	}
}

// Key names the projection in the caches of what was drawn or rendered
// from a plan: "" for a member's, another key for each client view.
func (pr *Projection) Key() string {
	if pr == nil {
		return ""
	}
	return "client:" + strings.Join(pr.Statuses, ",")
}

// DigestIn is Digest of the plan as the locale tagged tag shows it (""
// the default locale's): each page's title, slug and URL there, and its
// state and words there, so that a sign-off of one market changes with
// that market's plan.
func (pr *Projection) DigestIn(t *Tree, links []Link, root int64, tag string) string {
	lt := t.InLocale(tag)
	if tag == "" || lt == nil {
		return pr.Digest(t, links, root)
	}
	h := sha256.New()
	fmt.Fprintln(h, pr.Digest(lt, links, root))
	var walk func(p *Page)
	walk = func(p *Page) {
		v := t.Variant(t.Page(p.ID), tag)
		fmt.Fprintf(h, "%d|%s|%q|%q|%q|%q\n", p.ID, v.State, v.SEOTitle, v.MetaDescription, v.H1, v.Keyword)
		for _, k := range lt.Children(p.ID) {
			walk(k)
		}
	}
	if root != 0 {
		if p := lt.Page(root); p != nil {
			walk(p)
		}
	} else {
		for _, pl := range Placements {
			for _, p := range lt.Roots(pl) {
				walk(p)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Digest fingerprints what pr shows of the branch at root of t (0: the
// whole plan) with the links from or to it: its pages' places, URLs and
// every field, as pr strips them. Two states of a plan with one digest
// look the same to that viewer; "changed since approval" compares the
// digest a signer saw when signing with the plan's now. t is not changed.
func (pr *Projection) Digest(t *Tree, links []Link, root int64) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s|%t\n", t.Project.BaseURL, t.Project.TrailingSlash)
	in := map[int64]bool{}
	var walk func(p *Page)
	walk = func(p *Page) {
		in[p.ID] = true
		q := *p
		pr.Page(&q)
		b := &q.Brief
		fmt.Fprintf(h, "%d|%d|%s|%d|%q|%q|%q|%s|%q|%q|%q|%q|%t|%t|%t|%s|%q|%q|%q|%q|%q|%q|%q|%q|%d|%q|%q|%s\n",
			q.ID, q.ParentID, q.Placement, q.Position, q.Title, q.Slug, q.Path, q.Kind, q.Type, q.Status, q.Assignee, q.Notes,
			q.NotesPublic, q.InSitemap, q.InHTMLSitemap, priorityText(q.Priority), q.Changefreq, q.Lastmod,
			b.SEOTitle, b.MetaDescription, b.H1, b.Keyword, b.Intent, BlocksText(b.Blocks), b.WordTarget, b.Owner, b.Due, t.URL(q.ID))
		for _, k := range t.Children(p.ID) {
			walk(k)
		}
	}
	if root != 0 {
		if p := t.Page(root); p != nil {
			walk(p)
		}
	} else {
		for _, pl := range Placements {
			for _, p := range t.Roots(pl) {
				walk(p)
			}
		}
	}
	var ls []string
	for _, l := range links {
		if in[l.FromID] || in[l.ToID] {
			ls = append(ls, fmt.Sprintf("%d>%d|%q", l.FromID, l.ToID, l.Label))
		}
	}
	slices.Sort(ls)
	for _, l := range ls {
		fmt.Fprintln(h, l)
	}
	return hex.EncodeToString(h.Sum(nil))
}
