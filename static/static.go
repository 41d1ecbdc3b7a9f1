// Package static embeds siteplan's CSS, script and the npm front-end
// packages that make copies into vendor/.
package static

import "embed"

// FS holds app.css, favicon.svg, the script (the ES modules of js/ that
// make static bundles into dist/app.js) and vendor/.
//
//go:embed app.css favicon.svg dist vendor
var FS embed.FS
