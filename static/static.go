// Package static embeds siteplan's CSS, script and the npm front-end
// packages that make copies into vendor/.
package static

import "embed"

// FS holds app.css, app.js, favicon.svg and vendor/.
//
//go:embed app.css app.js favicon.svg vendor
var FS embed.FS
