// Package static embeds siteplan's CSS, script and the npm front-end
// packages that make copies into vendor/.
package static

import "embed"

// FS holds app.css, favicon.svg, the script's ES modules in js/ (their
// *.test.js run under node --test, not in the browser) and vendor/.
//
//go:embed app.css favicon.svg js/*.js vendor
var FS embed.FS
