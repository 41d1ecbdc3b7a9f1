package export

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"siteplan/site"
)

// Redirect map formats: the platforms a relaunch's redirects are written
// for (../shared/redirect-formats.md has their syntax and limits).
const (
	RedirectsCSV             = "csv"
	RedirectsNginx           = "nginx"
	RedirectsApache          = "apache"
	RedirectsNetlify         = "netlify"          // _redirects
	RedirectsCloudflarePages = "cloudflare-pages" // _redirects, Cloudflare Pages' subset and limits
	RedirectsVercel          = "vercel"           // vercel.json
	RedirectsVercelBulk      = "vercel-bulk"      // Vercel's bulk redirects, a CSV for bulkRedirectsPath
	RedirectsCloudflare      = "cloudflare"       // Bulk Redirects CSV
	RedirectsShopify         = "shopify"          // URL redirects CSV
	RedirectsWordPress       = "wordpress"        // the Redirection plugin's JSON import
	RedirectsIIS             = "iis"              // web.config with rewrite maps
	RedirectsCaddy           = "caddy"            // a Caddyfile snippet: a map and its redir
)

// RedirectFormats lists the redirect map formats.
var RedirectFormats = []string{RedirectsCSV, RedirectsNginx, RedirectsApache, RedirectsNetlify, RedirectsCloudflarePages, RedirectsVercel,
	RedirectsVercelBulk, RedirectsCloudflare, RedirectsShopify, RedirectsWordPress, RedirectsIIS, RedirectsCaddy}

// RedirectFileNames are the files a platform reads its redirects from.
var RedirectFileNames = map[string]string{
	RedirectsCSV: "redirects.csv", RedirectsNginx: "siteplan-redirects.conf", RedirectsApache: "htaccess.txt",
	RedirectsNetlify: "_redirects", RedirectsCloudflarePages: "_redirects", RedirectsVercel: "vercel.json", RedirectsVercelBulk: "vercel-redirects.csv",
	RedirectsCloudflare: "bulk-redirects.csv", RedirectsShopify: "shopify-redirects.csv", RedirectsWordPress: "redirection.json",
	RedirectsIIS: "web.config", RedirectsCaddy: "siteplan-redirects.caddy",
}

// RedirectContentTypes are the files' media types.
var RedirectContentTypes = map[string]string{
	RedirectsCSV: "text/csv; charset=utf-8", RedirectsNginx: "text/plain; charset=utf-8", RedirectsApache: "text/plain; charset=utf-8",
	RedirectsNetlify: "text/plain; charset=utf-8", RedirectsCloudflarePages: "text/plain; charset=utf-8", RedirectsVercel: "application/json",
	RedirectsVercelBulk: "text/csv; charset=utf-8",
	RedirectsCloudflare: "text/csv; charset=utf-8", RedirectsShopify: "text/csv; charset=utf-8", RedirectsWordPress: "application/json",
	RedirectsIIS: "application/xml", RedirectsCaddy: "text/plain; charset=utf-8",
}

// RedirectReport says what a redirect map holds: the redirects and
// retirements written as rules, the old URLs left out because they are
// not accepted yet, those the platform cannot express (a 410 where it has
// none, a query string where it matches none), and warnings about limits
// the file comes near.
type RedirectReport struct {
	Redirects, Gone, Skipped, LeftOut int
	Warnings                          []string
}

// redirectRule is one accepted redirect or retirement, its chain
// followed to the end.
type redirectRule struct {
	from    string // the old URL as given
	host    string // its host
	uri     string // its path and query as a request carries them
	path    string // its path, decoded
	escPath string // its path as the request carries it
	query   string // its raw query
	to      string // the final target; "" for 410
	status  int
}

// WriteRedirects writes a relaunch's redirect map in a platform's format.
// The CSV lists every old URL with its disposition; the others hold a
// rule for each accepted redirect (301 or 308) and retirement (410), its
// chain followed to the end, so that every old URL resolves in one hop.
// A platform's hard limits (Vercel's 2,048 routes, IIS's 250 KB, ...)
// refuse the map, naming the limit and the way out; what a platform
// cannot express is left out, said in the report. Errors: EInvalid for an
// unknown format, a loop, a redirect to a retired URL, a limit passed.
func WriteRedirects(w io.Writer, format string, maps []site.Mapping) (RedirectReport, error) {
	var rep RedirectReport
	if format == RedirectsCSV {
		for _, m := range maps {
			rep.count(m)
		}
		return rep, writeRedirectsCSV(w, maps)
	}
	write, ok := platforms[format]
	if !ok {
		return rep, site.Errorf(site.EInvalid, "Redirect format %q is not one of %s.", format, strings.Join(RedirectFormats, ", "))
	}
	rules, err := redirectRules(maps)
	if err != nil {
		return rep, err
	}
	for _, m := range maps {
		if !m.Accepted && (m.Disposition == site.DispositionRedirect || m.Disposition == site.DispositionRetire || m.Disposition == site.DispositionReview) {
			rep.Skipped++
		}
	}
	bw := bufio.NewWriter(w)
	if err := write(bw, rules, &rep); err != nil {
		return RedirectReport{}, err
	}
	return rep, bw.Flush()
}

// count adds an old URL to the report of a CSV, which lists them all.
func (rep *RedirectReport) count(m site.Mapping) {
	switch {
	case !m.Accepted:
		rep.Skipped++
	case m.Disposition == site.DispositionRedirect:
		rep.Redirects++
	case m.Disposition == site.DispositionRetire:
		rep.Gone++
	}
}

// add counts a rule written.
func (rep *RedirectReport) add(r redirectRule) {
	if r.status == 410 {
		rep.Gone++
	} else {
		rep.Redirects++
	}
}

// leaveOut counts rules a platform cannot express and says why once,
// with the first of them.
func (rep *RedirectReport) leaveOut(rules []redirectRule, why string) {
	if len(rules) == 0 {
		return
	}
	rep.LeftOut += len(rules)
	more := ""
	if len(rules) > 1 {
		more = fmt.Sprintf(" and %d more", len(rules)-1)
	}
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s%s left out: %s", rules[0].from, more, why))
}

// platforms write the rules for each platform but the CSV.
var platforms = map[string]func(w *bufio.Writer, rules []redirectRule, rep *RedirectReport) error{
	RedirectsNginx:           writeNginx,
	RedirectsCaddy:           writeCaddy,
	RedirectsApache:          writeApache,
	RedirectsNetlify:         writeNetlify,
	RedirectsCloudflarePages: writeCloudflarePages,
	RedirectsVercel:          writeVercel,
	RedirectsVercelBulk:      writeVercelBulk,
	RedirectsCloudflare:      writeCloudflareBulk,
	RedirectsShopify:         writeShopify,
	RedirectsWordPress:       writeWordPress,
	RedirectsIIS:             writeIIS,
}

// redirectRules takes the accepted redirects and retirements, follows
// each redirect to its final target, and refuses loops and redirects
// that end at a retired URL.
func redirectRules(maps []site.Mapping) ([]redirectRule, error) {
	next := map[string]site.Mapping{}
	var out []redirectRule
	for _, m := range maps {
		if m.Accepted && (m.Disposition == site.DispositionRedirect || m.Disposition == site.DispositionRetire) {
			next[m.From] = m
		}
	}
	for _, m := range maps {
		if _, ok := next[m.From]; !ok || next[m.From] != m {
			continue
		}
		u, err := url.Parse(m.From)
		if err != nil || u.Path == "" && u.RawQuery == "" {
			return nil, site.Errorf(site.EInvalid, "The old URL %q cannot be read as a URL.", m.From)
		}
		// What a request line can carry, whatever the map holds: a byte
		// no request sends as it is (a control, a quote, a space, one
		// not ASCII) is matched as a browser sends it, percent-encoded.
		r := redirectRule{from: m.From, host: u.Host, uri: uriSafe(u.EscapedPath()), path: u.Path, query: uriSafe(u.RawQuery), status: m.Status}
		if r.uri == "" {
			r.uri, r.path = "/", "/"
		}
		r.escPath = r.uri
		if r.query != "" {
			r.uri += "?" + r.query
		}
		if m.Disposition == site.DispositionRetire {
			r.status = 410
			out = append(out, r)
			continue
		}
		if r.status != 308 {
			r.status = 301
		}
		seen := []string{m.From}
		to := m.To
		for {
			n, ok := next[to]
			if !ok {
				break
			}
			if slices.Contains(seen, to) {
				return nil, site.Errorf(site.EInvalid, "The redirects of %s loop: %s. Change one of them.", m.From, strings.Join(append(seen, to), " → "))
			}
			if n.Disposition == site.DispositionRetire {
				return nil, site.Errorf(site.EInvalid, "%s redirects to %s, which is retired (410). Send it to a page, or retire it too.", m.From, to)
			}
			seen, to = append(seen, to), n.To
		}
		r.to = uriSafe(to)
		out = append(out, r)
	}
	return out, nil
}

// uriSafe percent-encodes the bytes of s that a URL in a request line or
// a Location header never carries as they are: controls, spaces, quotes,
// backslashes, angle brackets and the rest RFC 3986 leaves out, and
// every byte past ASCII. An encoded URL comes out as it went in.
func uriSafe(s string) string {
	return escapeBytes(s, func(c byte) bool { return c > 0x20 && c < 0x7f && !strings.ContainsRune("\"<>\\^`{|}", rune(c)) }, "%", upperHexDigits)
}

const (
	upperHexDigits = "0123456789ABCDEF"
	lowerHexDigits = "0123456789abcdef"
)

// escapeBytes writes every byte of s that keep refuses as prefix and
// its two hex digits (digits: upper or lower case); s itself when it
// keeps them all. uriSafe, apacheLiteral and the WordPress slug share it.
func escapeBytes(s string, keep func(byte) bool, prefix, digits string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if keep(c) {
			if b != nil {
				b = append(b, c)
			}
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, len(s)+16), s[:i]...)
		}
		b = append(b, prefix...)
		b = append(b, digits[c>>4], digits[c&15])
	}
	if b == nil {
		return s
	}
	return string(b)
}

// writeRedirectsCSV writes one row an old URL: from, to, status,
// accepted, confidence, reason (to empty for a 410 and for a URL not
// placed yet), as the CSV import reads it back.
func writeRedirectsCSV(w io.Writer, maps []site.Mapping) error {
	bw := bufio.NewWriter(w)
	rows := csvRows{w: bw}
	rows.row("from", "to", "status", "accepted", "confidence", "reason")
	for _, m := range maps {
		status, to := "", m.To
		switch m.Disposition {
		case site.DispositionRedirect:
			status = strconv.Itoa(cmp.Or(m.Status, 301))
		case site.DispositionRetire:
			status, to = "410", ""
		case site.DispositionKeep:
			status = "200"
		}
		accepted := "no"
		if m.Accepted {
			accepted = "yes"
		}
		rows.row(m.From, to, status, accepted, strconv.FormatFloat(m.Confidence, 'f', 2, 64), m.Reason)
	}
	rows.flush()
	return bw.Flush()
}

// csvRows writes the rows of a redirect map's CSV with the fast writer
// inventory.csv uses (appendCSV), 60 KB at a time.
type csvRows struct {
	w *bufio.Writer
	b []byte
}

// row writes one row of fields.
func (c *csvRows) row(fields ...string) {
	for i, f := range fields {
		if i > 0 {
			c.b = append(c.b, ',')
		}
		c.b = appendCSV(c.b, f)
	}
	c.b = append(c.b, '\n')
	if len(c.b) > 60<<10 {
		c.flush()
	}
}

// flush writes what the rows hold.
func (c *csvRows) flush() {
	c.w.Write(c.b)
	c.b = c.b[:0]
}

// writeNginx writes a file to include in http {}: two maps on
// $request_uri (path and query as the request carries them) that set
// $siteplan_redirect to the target and $siteplan_gone to 1. nginx
// compares a map's strings without case, so old URLs that differ only in
// case are written as case-sensitive regular expressions, all of them,
// since a string would catch the others first.
func writeNginx(w *bufio.Writer, rules []redirectRule, rep *RedirectReport) error {
	folded := map[string]int{}
	for _, r := range rules {
		folded[strings.ToLower(r.uri)]++
	}
	key := func(r redirectRule) string {
		if folded[strings.ToLower(r.uri)] > 1 {
			return nginxQuote("~^" + regexp.QuoteMeta(r.uri) + "$")
		}
		if strings.HasPrefix(r.uri, "~") {
			return nginxQuote(`\` + r.uri)
		}
		return nginxQuote(r.uri)
	}
	longest := 0
	for _, r := range rules {
		rep.add(r)
		longest = max(longest, len(key(r)))
	}
	redirects, gone := rep.Redirects, rep.Gone
	// A hash element is a pointer and the key padded to 8 bytes; a
	// bucket holds a few of the longest and an end marker, and the
	// hash may have four times as many buckets as keys before a bucket
	// must hold more, so that nginx finds a size that fits.
	elt := 8 + (longest+2+7)/8*8
	bucket := 32
	for bucket < 3*elt+8 {
		bucket *= 2
	}
	size := 2048
	for size < 4*max(redirects, gone) {
		size *= 2
	}
	fmt.Fprintf(w, `# siteplan: %d redirects and %d retired URLs, matched on the request URI
# (path and query string as the request carries them).
#
# Include this file in http {}, and size nginx's map hashes for it there:
#     map_hash_max_size %d;
#     map_hash_bucket_size %d;
#     include siteplan-redirects.conf;
# Then, in the server {} of the old site:
#     if ($siteplan_gone) { return 410; }
#     if ($siteplan_redirect) { return %s $siteplan_redirect; }
`, redirects, gone, size, bucket, "301")
	w.WriteString("map $request_uri $siteplan_redirect {\n    default \"\";\n")
	for _, r := range rules {
		if r.status != 410 {
			fmt.Fprintf(w, "    %s %s;\n", key(r), nginxQuote(strings.ReplaceAll(r.to, "$", "%24")))
		}
	}
	w.WriteString("}\nmap $request_uri $siteplan_gone {\n    default 0;\n")
	for _, r := range rules {
		if r.status == 410 {
			fmt.Fprintf(w, "    %s 1;\n", key(r))
		}
	}
	w.WriteString("}\n")
	return nil
}

// nginxQuote quotes a string for nginx's configuration.
func nginxQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// writeApache writes rules for an .htaccess in the document root
// (mod_rewrite): an old URL with a query string matches only that query
// string, exactly, and is written first; one without matches any. The
// query is dropped from the target (QSD), the target written as it is
// (NE), a 410 answered with G. RewriteRule matches the decoded path, so
// every byte of it but letters, digits and -._~/ is written as a \xHH
// escape of the pattern: a decoded newline, quote or backslash cannot
// end a line or an argument (one such URL made every URL of the site
// answer 500); the query, which Apache keeps encoded, likewise.
func writeApache(w *bufio.Writer, rules []redirectRule, rep *RedirectReport) error {
	// Apache decodes the path and merges its slashes before a rule sees
	// it, and answers 404 itself to an encoded NUL or slash: URLs it
	// reads as one are written once, the first, the rest left out, as are
	// those it never lets through.
	var written, merged, refused []redirectRule
	seen := map[string]string{}
	for _, r := range withQueryFirst(rules) {
		p := apacheSlashes.ReplaceAllString(r.path, "/")
		if strings.ContainsRune(p, 0) || strings.Contains(strings.ToUpper(r.escPath), "%2F") {
			refused = append(refused, r)
			continue
		}
		if _, dup := seen[p+"?"+r.query]; dup {
			merged = append(merged, r)
			continue
		}
		seen[p+"?"+r.query] = r.from
		r.path = p
		written = append(written, r)
	}
	rep.leaveOut(merged, "Apache decodes the path and merges repeated slashes, so it reads these as URLs the file already redirects.")
	rep.leaveOut(refused, "Apache answers 404 itself to an encoded slash or NUL in a path; redirect these in the server's configuration.")
	fmt.Fprintf(w, "# siteplan: %d rules. Put this in the .htaccess of the old site's document root\n# (needs mod_rewrite and AllowOverride FileInfo).\nRewriteEngine On\n", len(written))
	for _, r := range written {
		rep.add(r)
		if r.query != "" {
			fmt.Fprintf(w, "RewriteCond %%{QUERY_STRING} %s\n", apacheQuote("^"+apacheLiteral(r.query)+"$"))
		}
		pattern := apacheQuote("^" + apacheLiteral(strings.TrimPrefix(r.path, "/")) + "$")
		if r.status == 410 {
			fmt.Fprintf(w, "RewriteRule %s - [G]\n", pattern)
			continue
		}
		target := strings.NewReplacer("%", `\%`, "$", `\$`).Replace(r.to) // else back-references
		fmt.Fprintf(w, "RewriteRule %s %s [R=%d,L,NE,QSD]\n", pattern, apacheQuote(target), r.status)
	}
	return nil
}

// writeCaddy writes a Caddyfile snippet to import in the old site's
// block: a map of the request URI (path and query as the request
// carries them, compared exactly, case included) to the target and the
// status, and the directives that answer with them. Keys and targets
// are request-safe (uriSafe), so no quote, backslash or brace of a URL
// can end a token or start a placeholder.
func writeCaddy(w *bufio.Writer, rules []redirectRule, rep *RedirectReport) error {
	for _, r := range rules {
		rep.add(r)
	}
	fmt.Fprintf(w, `# siteplan: %d redirects and %d retired URLs, matched on the request URI
# (path and query string as the request carries them).
#
# Import this file in the site block of the old site:
#     old.example.com {
#         import siteplan-redirects.caddy
#         ...
#     }
map {http.request.uri} {siteplan_to} {siteplan_code} {
`, rep.Redirects, rep.Gone)
	for _, r := range rules {
		to := r.to
		if r.status == 410 {
			to = ""
		}
		fmt.Fprintf(w, "\t%s %s %d\n", caddyQuote(r.uri), caddyQuote(to), r.status)
	}
	w.WriteString(`	default "" 0
}
@siteplan_gone vars {siteplan_code} 410
respond @siteplan_gone 410
@siteplan_301 vars {siteplan_code} 301
redir @siteplan_301 {siteplan_to} 301
@siteplan_308 vars {siteplan_code} 308
redir @siteplan_308 {siteplan_to} 308
`)
	return nil
}

// caddyQuote quotes a token of a Caddyfile. What it quotes is
// request-safe (no quote, backslash, brace or space); a token that
// starts with ~ would be a regular expression, so the tilde is encoded.
func caddyQuote(s string) string {
	if strings.HasPrefix(s, "~") {
		s = "%7E" + s[1:]
	}
	return `"` + s + `"`
}

// apacheSlashes are the runs of slashes Apache merges into one.
var apacheSlashes = regexp.MustCompile(`/{2,}`)

// apacheQuote quotes an argument of Apache's configuration (which
// takes a backslash before the quote alone as an escape).
func apacheQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// apacheLiteral is a regular expression that matches s, byte for byte,
// written in letters, digits, -_~/ and \xhh escapes only (a dot too is
// an escape, \x2e).
func apacheLiteral(s string) string {
	return escapeBytes(s, func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '~' || c == '/'
	}, `\x`, lowerHexDigits)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
