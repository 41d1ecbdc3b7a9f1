package views

import (
	"context"

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
