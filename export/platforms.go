package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"siteplan/site"
)

// The hosted platforms' redirect files. Each holds the platform to its
// limits (../shared/redirect-formats.md): a hard limit refuses the map
// with the limit and the way out; a rule the platform cannot express is
// left out and said in the report.

// Limits of the platforms.
const (
	netlifyMaxRules         = 10_000    // past it Netlify's deploys may fail
	cloudflarePagesMaxRules = 2_000     // static rules
	cloudflarePagesMaxLine  = 1_000     // characters a line
	vercelMaxRoutes         = 2_048     // routes per deployment, Hobby and Pro
	vercelBulkIncluded      = 1_000     // bulk redirects included on Pro (Enterprise 10,000; more bought by 25,000)
	vercelBulkMax           = 1_000_000 // bulk redirects a project
	cloudflareBulkMaxFree   = 10_000    // redirects on the Free plan
	cloudflareBulkMax       = 1_000_000 // on Enterprise
	shopifyMax              = 100_000   // redirects a store
	iisMaxBytes             = 250 << 10 // web.config, by default
)

// withQueryFirst orders rules for a platform whose first matching rule
// wins: an old URL with a query before the one with the same path and
// none.
func withQueryFirst(rules []redirectRule) []redirectRule {
	out := slices.Clone(rules)
	slices.SortStableFunc(out, func(a, b redirectRule) int { return boolInt(a.query == "") - boolInt(b.query == "") })
	return out
}

// split parts rules into those ok keeps and the others.
func split(rules []redirectRule, ok func(r redirectRule) bool) (kept, out []redirectRule) {
	for _, r := range rules {
		if ok(r) {
			kept = append(kept, r)
		} else {
			out = append(out, r)
		}
	}
	return kept, out
}

// tooMany refuses a map past a platform's limit.
func tooMany(n, limit int, what, wayOut string) error {
	return site.Errorf(site.EInvalid, "This map has %s rules; %s allows %s. %s", site.Thousands(n), what, site.Thousands(limit), wayOut)
}

// netlifyToken escapes what Netlify's line parser would split a token
// at: whitespace and a leading #.
func netlifyToken(s string) string {
	s = strings.NewReplacer(" ", "%20", "\t", "%09", "#", "%23").Replace(s)
	return s
}

// netlifyQuery is a query as Netlify's key=value pairs, or false when
// it cannot be one (a key given twice, a key without a value).
func netlifyQuery(raw string) (string, bool) {
	var pairs []string
	seen := map[string]bool{}
	for _, kv := range strings.Split(raw, "&") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || seen[k] {
			return "", false
		}
		seen[k] = true
		pairs = append(pairs, netlifyToken(k)+"="+netlifyToken(v))
	}
	return strings.Join(pairs, " "), true
}

// writeRedirectsFile writes a _redirects file (Netlify, Cloudflare
// Pages): "from [query] to status!", first match wins, so old URLs with a
// query come first. A 410 answers with the site's /404.html. Forced (!),
// so that a file the new site has at an old path does not hide the rule.
func writeRedirectsFile(w *bufio.Writer, rules []redirectRule, rep *RedirectReport, platform string, queries bool, maxLine int) {
	rules, noQuery := split(withQueryFirst(rules), func(r redirectRule) bool {
		_, ok := netlifyQuery(r.query)
		return r.query == "" || queries && ok
	})
	if queries {
		rep.leaveOut(noQuery, platform+" matches a query string only as key=value pairs, each key once")
	} else {
		rep.leaveOut(noQuery, platform+" does not match query strings; serve these from a Pages Function, or retire them")
	}
	var lines []string
	var long []redirectRule
	for _, r := range rules {
		line := netlifyToken(r.escPath)
		if r.query != "" {
			q, _ := netlifyQuery(r.query)
			line += " " + q
		}
		if r.status == 410 {
			line += " /404.html 410!"
		} else {
			line += " " + netlifyToken(r.to) + " " + strconv.Itoa(r.status) + "!"
		}
		if maxLine > 0 && len(line) > maxLine {
			long = append(long, r)
			continue
		}
		rep.add(r)
		lines = append(lines, line)
	}
	rep.leaveOut(long, fmt.Sprintf("%s allows %d characters a line", platform, maxLine))
	fmt.Fprintf(w, "# siteplan: %d redirects and %d retired URLs for %s. Put this file, named _redirects,\n# in the folder the site is published from. Retired URLs answer 410 with /404.html.\n",
		rep.Redirects, rep.Gone, platform)
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
}

func writeNetlify(w *bufio.Writer, rules []redirectRule, rep *RedirectReport) error {
	if len(rules) > netlifyMaxRules {
		return site.Errorf(site.EInvalid, "This map has %s rules; Netlify's documentation advises at most %s in _redirects, and deploys with more may fail. Serve the redirects from an Edge Function or a proxy in front of the site (the nginx or Apache map), or retire what nobody visits.",
			site.Thousands(len(rules)), site.Thousands(netlifyMaxRules))
	}
	writeRedirectsFile(w, rules, rep, "Netlify", true, 0)
	return nil
}

func writeCloudflarePages(w *bufio.Writer, rules []redirectRule, rep *RedirectReport) error {
	if len(rules) > cloudflarePagesMaxRules {
		return tooMany(len(rules), cloudflarePagesMaxRules, "Cloudflare Pages' _redirects",
			"Use Cloudflare's Bulk Redirects (--format cloudflare), which takes 10,000 on the Free plan.")
	}
	writeRedirectsFile(w, rules, rep, "Cloudflare Pages", false, cloudflarePagesMaxLine)
	return nil
}

// vercelSource escapes a path for Vercel's source patterns
// (path-to-regexp), in which : ( ) * + ? { } are special.
func vercelSource(p string) string {
	var b strings.Builder
	for _, c := range p {
		if strings.ContainsRune(`:()*+?{}\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// writeVercel writes vercel.json's redirects: a source per old path, the
// query's pairs as "has" conditions, 301 or 308. Vercel's redirects
// cannot answer 410.
func writeVercel(w *bufio.Writer, rules []redirectRule, rep *RedirectReport) error {
	rules, gone := split(withQueryFirst(rules), func(r redirectRule) bool { return r.status != 410 })
	if len(rules) > vercelMaxRoutes {
		return tooMany(len(rules), vercelMaxRoutes, "a Vercel deployment (each redirect is a route)",
			"Use Vercel's bulk redirects (--format vercel-bulk, a CSV for bulkRedirectsPath; Pro and Enterprise), or retire what nobody visits.")
	}
	rep.leaveOut(gone, "Vercel's redirects cannot answer 410; answer them from middleware, or send them to a page")
	type has struct {
		Type  string `json:"type"`
		Key   string `json:"key"`
		Value string `json:"value"`
	}
	type redirect struct {
		Source      string `json:"source"`
		Has         []has  `json:"has,omitempty"`
		Destination string `json:"destination"`
		StatusCode  int    `json:"statusCode"`
	}
	out := struct {
		Redirects []redirect `json:"redirects"`
	}{Redirects: []redirect{}}
	var odd, twins []redirectRule
	seen := map[string]bool{}
	for _, r := range rules {
		if k := strings.ToLower(r.uri); seen[k] {
			twins = append(twins, r)
			continue
		} else {
			seen[k] = true
		}
		rd := redirect{Source: vercelSource(r.escPath), Destination: r.to, StatusCode: r.status}
		if r.query != "" {
			q, err := url.ParseQuery(r.query)
			if err != nil {
				odd = append(odd, r)
				continue
			}
			for _, k := range slices.Sorted(func(yield func(string) bool) {
				for k := range q {
					if !yield(k) {
						return
					}
				}
			}) {
				rd.Has = append(rd.Has, has{"query", k, "^" + regexp.QuoteMeta(q.Get(k)) + "$"})
			}
		}
		rep.add(r)
		out.Redirects = append(out.Redirects, rd)
	}
	rep.leaveOut(odd, "their query strings cannot be read as key=value pairs")
	rep.leaveOut(twins, "Vercel matches paths without case, and another old URL differs from these only in case")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeVercelBulk writes a CSV of Vercel's bulk redirects (for
// bulkRedirectsPath, or vercel redirects upload): source (a path,
// matched with case), destination, statusCode. Bulk redirects match no
// query string and answer no 410.
func writeVercelBulk(w *bufio.Writer, rules []redirectRule, rep *RedirectReport) error {
	kept, out := split(rules, func(r redirectRule) bool { return r.status != 410 })
	rep.leaveOut(out, "Vercel's bulk redirects cannot answer 410; answer them from middleware, or send them to a page")
	kept, out = split(kept, func(r redirectRule) bool { return r.query == "" })
	rep.leaveOut(out, "a bulk redirect's source is a path without its query string; use vercel.json's redirects with has-conditions (--format vercel) for these")
	if len(kept) > vercelBulkMax {
		return tooMany(len(kept), vercelBulkMax, "a Vercel project's bulk redirects", "Split the map by section, or retire what nobody visits.")
	}
	if len(kept) > vercelBulkIncluded {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s bulk redirects: Vercel includes 1,000 on Pro and 10,000 on Enterprise; more are bought by 25,000.",
			site.Thousands(len(kept))))
	}
	rows := csvRows{w: w}
	rows.row("source", "destination", "statusCode", "caseSensitive")
	for _, r := range kept {
		rep.add(r)
		rows.row(r.escPath, r.to, strconv.Itoa(r.status), "t")
	}
	rows.flush()
	return nil
}

// writeCloudflareBulk writes a Bulk Redirects list (CSV, no header:
// source, target, status): a source without its scheme matches http and
// https; Bulk Redirects match no query string and answer no 410.
func writeCloudflareBulk(w *bufio.Writer, rules []redirectRule, rep *RedirectReport) error {
	kept, out := split(rules, func(r redirectRule) bool { return r.status != 410 })
	rep.leaveOut(out, "Cloudflare's Bulk Redirects cannot answer 410; use a WAF custom rule or a Worker")
	kept, out = split(kept, func(r redirectRule) bool { return r.query == "" })
	rep.leaveOut(out, "a Bulk Redirects source cannot hold a query string; use a Worker or a redirect rule, or retire them")
	if len(kept) > cloudflareBulkMax {
		return tooMany(len(kept), cloudflareBulkMax, "Cloudflare's Bulk Redirects (Enterprise)", "Split the map by section, or retire what nobody visits.")
	}
	if len(kept) > cloudflareBulkMaxFree {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s redirects: Cloudflare's plans take 10,000 (Free), 25,000 (Pro), 50,000 (Business), 1,000,000 (Enterprise) across lists.",
			site.Thousands(len(kept))))
	}
	rows := csvRows{w: w}
	for _, r := range kept {
		rep.add(r)
		rows.row(r.host+r.escPath, r.to, strconv.Itoa(r.status))
	}
	rows.flush()
	return nil
}

// writeShopify writes Shopify's URL redirects CSV ("Redirect from",
// "Redirect to"): paths, matched without case, no 410.
func writeShopify(w *bufio.Writer, rules []redirectRule, rep *RedirectReport) error {
	kept, out := split(rules, func(r redirectRule) bool { return r.status != 410 })
	rep.leaveOut(out, "Shopify's redirects cannot answer 410")
	if len(kept) > shopifyMax {
		return tooMany(len(kept), shopifyMax, "a Shopify store", "Retire what nobody visits, or redirect in front of the store.")
	}
	seen := map[string]bool{}
	var twins []redirectRule
	rows := csvRows{w: w}
	rows.row("Redirect from", "Redirect to")
	for _, r := range kept {
		k := strings.ToLower(r.uri)
		if seen[k] {
			twins = append(twins, r)
			continue
		}
		seen[k] = true
		rep.add(r)
		rows.row(r.uri, r.to)
	}
	rows.flush()
	rep.leaveOut(twins, "Shopify matches paths without case, and another old URL differs from these only in case")
	rep.Warnings = append(rep.Warnings, "Shopify ignores a redirect from a path where a published product, collection or page lives: unpublish the old one first.")
	return nil
}

// writeWordPress writes the Redirection plugin's JSON import (its CSV
// cannot hold a 410): one group, a redirect or a 410 per old URL, its
// query matched exactly when it has one, ignored when not.
func writeWordPress(w *bufio.Writer, rules []redirectRule, rep *RedirectReport) error {
	type flags struct {
		Query    string `json:"flag_query"`
		Case     bool   `json:"flag_case"`
		Trailing bool   `json:"flag_trailing"`
		Regex    bool   `json:"flag_regex"`
	}
	type redirect struct {
		ID         int               `json:"id"`
		URL        string            `json:"url"`
		MatchURL   string            `json:"match_url"`
		MatchData  map[string]flags  `json:"match_data"`
		ActionCode int               `json:"action_code"`
		ActionType string            `json:"action_type"`
		ActionData map[string]string `json:"action_data,omitempty"`
		MatchType  string            `json:"match_type"`
		Title      string            `json:"title"`
		Regex      bool              `json:"regex"`
		GroupID    int               `json:"group_id"`
		Position   int               `json:"position"`
		Status     string            `json:"status"`
	}
	type group struct {
		ID       int    `json:"id"`
		Name     string `json:"name"`
		ModuleID int    `json:"module_id"`
		Status   string `json:"status"`
	}
	out := struct {
		Plugin    map[string]string `json:"plugin"`
		Groups    []group           `json:"groups"`
		Redirects []redirect        `json:"redirects"`
	}{Plugin: map[string]string{"version": "5.5.0", "date": "siteplan"}, Groups: []group{{1, "siteplan relaunch", 1, "enabled"}}, Redirects: []redirect{}}
	for i, r := range withQueryFirst(rules) {
		rep.add(r)
		q := "ignore"
		if r.query != "" {
			q = "exact"
		}
		rd := redirect{ID: i + 1, URL: r.uri, MatchURL: strings.ToLower(r.escPath), MatchData: map[string]flags{"source": {Query: q}},
			ActionCode: r.status, ActionType: "url", ActionData: map[string]string{"url": r.to}, MatchType: "url", GroupID: 1, Position: i, Status: "enabled"}
		if r.status == 410 {
			rd.ActionType, rd.ActionData = "error", nil
		}
		out.Redirects = append(out.Redirects, rd)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeIIS writes a web.config for IIS's URL Rewrite module: two rewrite
// maps keyed by the request URI (path and query), one rule answering 410
// and one redirecting. IIS has no 308: those are written as 301.
func writeIIS(w *bufio.Writer, rules []redirectRule, rep *RedirectReport) error {
	var buf bytes.Buffer
	esc := func(s string) string {
		var b bytes.Buffer
		xml.EscapeText(&b, []byte(s))
		return strings.ReplaceAll(b.String(), `"`, "&#34;")
	}
	buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!-- siteplan: the old site's redirects and retired URLs, for IIS's URL Rewrite module.
     Put this web.config in the old site's root, or merge its <rewrite> section into yours. -->
<configuration>
  <system.webServer>
    <rewrite>
      <rewriteMaps>
        <rewriteMap name="siteplanRedirects" ignoreCase="false">
`)
	// IIS compares a rewrite map's keys without case, whatever ignoreCase
	// says of the match, and a key twice is a 500.19 for the whole site:
	// of old URLs that differ only in case the first is written, as nginx
	// would read it, and the rest left out.
	var folded []redirectRule
	seen := map[string]bool{}
	kept := rules[:0:0]
	for _, r := range rules {
		if k := strings.ToLower(r.uri); seen[k] {
			folded = append(folded, r)
		} else {
			seen[k] = true
			kept = append(kept, r)
		}
	}
	rules = kept
	rep.leaveOut(folded, "IIS compares its rewrite maps' keys without case, so these are the same key as a URL the file already has (and a key twice stops the whole site with error 500.19).")
	n308 := 0
	for _, r := range rules {
		if r.status != 410 {
			rep.add(r)
			if r.status == 308 {
				n308++
			}
			fmt.Fprintf(&buf, "          <add key=\"%s\" value=\"%s\" />\n", esc(r.uri), esc(r.to))
		}
	}
	buf.WriteString("        </rewriteMap>\n        <rewriteMap name=\"siteplanGone\" ignoreCase=\"false\">\n")
	for _, r := range rules {
		if r.status == 410 {
			rep.add(r)
			fmt.Fprintf(&buf, "          <add key=\"%s\" value=\"1\" />\n", esc(r.uri))
		}
	}
	buf.WriteString(`        </rewriteMap>
      </rewriteMaps>
      <rules>
        <rule name="siteplan: retired" stopProcessing="true">
          <match url=".*" />
          <conditions>
            <add input="{siteplanGone:{REQUEST_URI}}" pattern="1" />
          </conditions>
          <action type="CustomResponse" statusCode="410" statusReason="Gone" statusDescription="This page was removed." />
        </rule>
        <rule name="siteplan: redirects" stopProcessing="true">
          <match url=".*" />
          <conditions>
            <add input="{siteplanRedirects:{REQUEST_URI}}" pattern="(.+)" />
          </conditions>
          <action type="Redirect" url="{C:1}" appendQueryString="false" redirectType="Permanent" />
        </rule>
      </rules>
    </rewrite>
  </system.webServer>
</configuration>
`)
	if buf.Len() > iisMaxBytes {
		return site.Errorf(site.EInvalid, "This web.config would be %s KB; IIS refuses one past 250 KB (and a rewriteMaps.config named by configSource too). Raise MaxWebConfigFileSizeInKB in the registry (HKLM\\SOFTWARE\\Microsoft\\InetStp\\Configuration), or put the map in front of IIS (nginx or Apache).",
			site.Thousands((buf.Len()+1023)/1024))
	}
	if n308 > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("IIS has no 308: %d redirects are written as 301.", n308))
	}
	_, err := w.Write(buf.Bytes())
	return err
}
