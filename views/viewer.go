package views

import (
	"context"
	"net/url"
	"strings"

	"siteplan/site"
)

// What the viewer in the request's context may do decides which controls
// a component shows; the server checks every request on its own.
func canEdit(ctx context.Context) bool    { return site.ViewerFrom(ctx).Access >= site.AccessEdit }
func canComment(ctx context.Context) bool { return site.ViewerFrom(ctx).Access >= site.AccessComment }
func canManage(ctx context.Context) bool  { return site.ViewerFrom(ctx).Access >= site.AccessManage }
func canResolve(ctx context.Context) bool { return site.ViewerFrom(ctx).CanResolve() }
func teamOwner(ctx context.Context) bool  { return site.ViewerFrom(ctx).TeamRole == site.RoleOwner }

// downloads are the diagram downloads of a version, a comparison or a
// check the viewer gets: the team all three, a client on a share link
// those its link allows.
func downloads(ctx context.Context) []string { return site.ViewerFrom(ctx).Pictures() }
func teamEditor(ctx context.Context) bool {
	return site.RoleAccess(site.ViewerFrom(ctx).TeamRole) >= site.AccessEdit
}

// KeepLocale is the address u in the locale the viewer reads the plan in,
// for a link or a form that must keep it ("?locale=de"); u itself in
// the default locale. The editor's own requests name it in a header
// (net.js), which a link or a form does not send.
func KeepLocale(ctx context.Context, u string) string {
	tag := site.ViewerFrom(ctx).Locale
	if tag == "" {
		return u
	}
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + "locale=" + url.QueryEscape(tag)
}

// localeWords names the locale the viewer reads the plan in, where a
// sign-off says what it approves (" in de"); "" in the default locale.
func localeWords(ctx context.Context) string {
	if tag := site.ViewerFrom(ctx).Locale; tag != "" {
		return " in " + tag
	}
	return ""
}

// titleIn is the page's title in the locale the viewer reads the plan in.
func titleIn(ctx context.Context, p *site.Page) string {
	t, _ := p.TitleIn(site.ViewerFrom(ctx).Locale)
	return t
}
