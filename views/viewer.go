package views

import (
	"context"

	"siteplan/site"
)

// Viewer is who is looking: the account (or share-link visitor), their
// teams, and what they may do with the project in view. Web puts it in
// the request context; components read it to show only what the viewer
// may use. The server checks every request on its own.
type Viewer struct {
	UserID   int64 // 0: no account
	Name     string
	Team     site.Team // the team the account works in
	TeamRole string
	Teams    []site.Membership
	Access   site.Access // on the project in view
	Share    bool        // visiting through a share link
	// ShareLinkID is the link a share visitor came through.
	ShareLinkID int64
}

type viewerKey struct{}

// WithViewer returns ctx carrying v.
func WithViewer(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

// ViewerOf returns the viewer carried by ctx (the zero Viewer if none).
func ViewerOf(ctx context.Context) Viewer {
	v, _ := ctx.Value(viewerKey{}).(Viewer)
	return v
}

func canEdit(ctx context.Context) bool    { return ViewerOf(ctx).Access >= site.AccessEdit }
func canComment(ctx context.Context) bool { return ViewerOf(ctx).Access >= site.AccessComment }
func canManage(ctx context.Context) bool  { return ViewerOf(ctx).Access >= site.AccessManage }
func teamOwner(ctx context.Context) bool  { return ViewerOf(ctx).TeamRole == site.RoleOwner }
func teamEditor(ctx context.Context) bool {
	return site.RoleAccess(ViewerOf(ctx).TeamRole) >= site.AccessEdit
}
