package site

import "context"

// Viewer is who is making a request: the account (or share-link
// visitor), their teams, and what they may do with the project in view.
// The web server puts it in the request's context; the views read it to
// show only what the viewer may use. Every request is checked on its own.
type Viewer struct {
	UserID   int64 // 0: no account
	Name     string
	Team     Team // the team the account works in
	TeamRole string
	Teams    []Membership
	Access   Access // on the project in view
	Share    bool   // visiting through a share link
	// ShareLinkID is the link a share visitor came through.
	ShareLinkID int64
	// Downloads and Statuses are what that link lets its visitor have and
	// see (site.ShareDownloads; the statuses shown, others read as none).
	Downloads, Statuses []string
	// Locale is the locale the viewer reads the plan in: a tag of the
	// project's locales other than its default; "" for the default's.
	Locale string
	// TokenID, TokenScope and TokenProject are the API token the
	// request came with (0, "" and 0 for a browser): its scope and its
	// project cap what the viewer may do (Capped).
	TokenID      int64
	TokenScope   string
	TokenProject int64
}

// CanResolve says whether v may resolve and reopen comment threads: the
// agency's team does (any member who may comment); a client on a share
// link comments and replies but never closes a thread.
func (v Viewer) CanResolve() bool { return !v.Share && v.Access >= AccessComment }

type viewerKey struct{}

// WithViewer returns ctx carrying v.
func WithViewer(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

// ViewerFrom returns the viewer ctx carries (the zero Viewer, anonymous,
// if none).
func ViewerFrom(ctx context.Context) Viewer {
	v, _ := ctx.Value(viewerKey{}).(Viewer)
	return v
}

// Pictures are the diagram downloads v gets, in the order they are
// offered: PDF, PNG and SVG for the team, those its link allows for a
// guest.
func (v Viewer) Pictures() []string {
	var out []string
	for _, f := range []string{DownloadPDF, DownloadPNG, DownloadSVG} {
		if v.MayDownload(f) {
			out = append(out, f)
		}
	}
	return out
}
