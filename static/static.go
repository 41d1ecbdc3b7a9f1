// Package static embeds siteplan's CSS, script and the npm front-end
// packages that make copies into vendor/.
package static

import "embed"

// FS holds app.css, app.js and vendor/.
//
//go:embed app.css app.js vendor
var FS embed.FS
