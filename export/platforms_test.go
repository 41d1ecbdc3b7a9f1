package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/site"
)

// want is what each old URL's request should get from a platform's
// file: the target, or "410", or "" for no rule (not accepted).
func wantOf(cases []redirectCase) map[string]string {
	out := map[string]string{}
	for _, c := range cases {
		switch c.status {
		case 410:
			out[c.m.From] = "410"
		case 301, 308:
			out[c.m.From] = c.location
		}
	}
	return out
}

// node runs a module script from the repository's root (where npm ci
// put the platforms' parsers) and decodes what it prints as JSON.
func node(t *testing.T, script string, out any, args ...string) {
	t.Helper()
	bin := need(t, "node")
	if _, err := os.Stat("../node_modules/@netlify/redirect-parser"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("npm ci has not installed the platforms' parsers")
		}
		t.Skip("run npm ci: the platforms' parsers are not installed")
	}
	cmd := exec.Command(bin, append([]string{"--input-type=module", "-e", script}, args...)...)
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("node printed %.300s: %v", b, err)
	}
}

// TestRedirectsNetlify reads the _redirects file with Netlify's own
// parser (@netlify/redirect-parser from npm): no errors, and each old URL
// has one forced rule with its path, query pairs, target and status.
func TestRedirectsNetlify(t *testing.T) {
	cases := redirectCases()
	var buf bytes.Buffer
	rep, err := WriteRedirects(&buf, RedirectsNetlify, caseMaps(cases))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "_redirects")
	os.WriteFile(file, buf.Bytes(), 0o644)
	var got struct {
		Redirects []struct {
			Path   string            `json:"path"`
			Query  map[string]string `json:"query"`
			To     string            `json:"to"`
			Status int               `json:"status"`
			Force  bool              `json:"force"`
		} `json:"redirects"`
		Errors []string `json:"errors"`
	}
	node(t, `import { parseAllRedirects } from '@netlify/redirect-parser';
const r = await parseAllRedirects({ redirectsFiles: [process.argv[1]], minimal: false });
console.log(JSON.stringify({ redirects: r.redirects, errors: r.errors.map(String) }));`, &got, file)
	if len(got.Errors) > 0 {
		t.Fatalf("Netlify's parser: %v", got.Errors)
	}
	want := wantOf(cases)
	if len(got.Redirects) != len(want) || rep.Redirects+rep.Gone != len(want) || rep.LeftOut != 0 {
		t.Fatalf("%d rules (report %+v), want %d", len(got.Redirects), rep, len(want))
	}
	// First match wins: the first rule whose path and query fit a URL is
	// what Netlify does with it.
	for from, to := range want {
		u, _ := url.Parse(from)
		q := u.Query()
		found := false
		for _, r := range got.Redirects {
			if r.Path != u.EscapedPath() {
				continue
			}
			fits := true
			for k, v := range r.Query {
				if uv, _ := url.QueryUnescape(v); q.Get(k) != uv {
					fits = false
				}
			}
			if !fits {
				continue
			}
			found = true
			gotTo := r.To
			if r.Status == 410 {
				gotTo = "410"
			}
			if gotTo != to || !r.Force {
				t.Errorf("%s: Netlify reads %s %d (forced %v), want %s", from, r.To, r.Status, r.Force, to)
			}
			break
		}
		if !found {
			t.Errorf("%s: no rule", from)
		}
	}
	// Past the rules Netlify's deploys take, the map is refused.
	var many []site.Mapping
	for i := range netlifyMaxRules + 1 {
		many = append(many, site.Mapping{From: fmt.Sprintf("https://o.example/p%d", i), To: "https://n.example/", Disposition: site.DispositionRedirect, Accepted: true})
	}
	if _, err := WriteRedirects(&buf, RedirectsNetlify, many); site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "advises at most 10,000 in _redirects, and deploys with more may fail.") {
		t.Errorf("past Netlify's limit: %v", err)
	}
	buf.Reset()
	if _, err := WriteRedirects(&buf, RedirectsCloudflarePages, many[:cloudflarePagesMaxRules+1]); site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "Bulk Redirects") {
		t.Errorf("past Cloudflare Pages' limit: %v", err)
	}
}

// TestRedirectsCloudflarePages: the same parser reads Cloudflare Pages'
// file; query strings and lines past 1,000 characters are left out, said.
func TestRedirectsCloudflarePages(t *testing.T) {
	cases := redirectCases()[:200]
	long := site.Mapping{From: "https://old.example/" + strings.Repeat("x", 1000), Disposition: site.DispositionRedirect, To: "https://new.example/", Accepted: true}
	var buf bytes.Buffer
	rep, err := WriteRedirects(&buf, RedirectsCloudflarePages, append(caseMaps(cases), long))
	if err != nil {
		t.Fatal(err)
	}
	if rep.LeftOut != 4 || len(rep.Warnings) != 2 {
		t.Errorf("report %+v, want 3 query strings and 1 long line left out", rep)
	}
	for _, l := range strings.Split(buf.String(), "\n") {
		if f := strings.Fields(l); len(f) > 0 && !strings.HasPrefix(l, "#") && (strings.Contains(f[0], "?") || len(f) != 3) {
			t.Errorf("a query string in Cloudflare Pages' file: %s", l)
		}
	}
}

// TestRedirectsVercel matches every old URL against vercel.json's
// redirects in order, each source compiled by path-to-regexp (the
// version Vercel's routing uses, from npm) with its "has" conditions, as
// Vercel does: the first that fits is the old URL's own.
func TestRedirectsVercel(t *testing.T) {
	cases := redirectCases()[:200]
	var buf bytes.Buffer
	rep, err := WriteRedirects(&buf, RedirectsVercel, caseMaps(cases))
	if err != nil {
		t.Fatal(err)
	}
	// 2 retired URLs cannot be said; one URL differs from another in case.
	if rep.LeftOut != 3 {
		t.Errorf("report %+v, want 3 left out", rep)
	}
	file := filepath.Join(t.TempDir(), "vercel.json")
	os.WriteFile(file, buf.Bytes(), 0o644)
	var reqs []map[string]string
	for _, c := range cases {
		u, _ := url.Parse(c.m.From)
		reqs = append(reqs, map[string]string{"path": u.EscapedPath(), "query": u.RawQuery})
	}
	reqFile := filepath.Join(t.TempDir(), "requests.json")
	b, _ := json.Marshal(reqs)
	os.WriteFile(reqFile, b, 0o644)
	var got []string
	node(t, `import { pathToRegexp } from 'path-to-regexp';
import { readFileSync } from 'fs';
const conf = JSON.parse(readFileSync(process.argv[1], 'utf8'));
const reqs = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const rules = conf.redirects.map(r => ({ re: pathToRegexp(r.source), has: r.has || [], to: r.destination }));
console.log(JSON.stringify(reqs.map(q => {
  const params = new URLSearchParams(q.query);
  const r = rules.find(r => r.re.test(q.path) && r.has.every(h => params.has(h.key) && new RegExp(h.value).test(params.get(h.key))));
  return r ? r.to : '';
})));`, &got, file, reqFile)
	for i, c := range cases {
		want := c.location
		switch {
		case i == 2: // matched without case, by the rule of the URL before it
			want = cases[1].location
		case c.status == 410 || c.status == 404:
			want = ""
		}
		if got[i] != want {
			t.Errorf("%s: Vercel sends it to %q, want %q", c.m.From, got[i], want)
		}
	}
	var many []site.Mapping
	for i := range vercelMaxRoutes + 1 {
		many = append(many, site.Mapping{From: fmt.Sprintf("https://o.example/p%d", i), To: "https://n.example/", Disposition: site.DispositionRedirect, Accepted: true})
	}
	if _, err := WriteRedirects(&buf, RedirectsVercel, many); site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "2,048") || !strings.Contains(err.Error(), "vercel-bulk") {
		t.Errorf("past Vercel's routes: %v", err)
	}
}

// TestRedirectsCloudflareBulk: a headerless CSV of source (no scheme),
// target, status; sources with a query and 410s left out, said.
func TestRedirectsCloudflareBulk(t *testing.T) {
	cases := redirectCases()
	var buf bytes.Buffer
	rep, err := WriteRedirects(&buf, RedirectsCloudflare, caseMaps(cases))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if rep.LeftOut != 4 || len(rows) != rep.Redirects {
		t.Errorf("%d rows, report %+v: want 4 left out (2 retired, 2 with a query)", len(rows), rep)
	}
	for _, r := range rows {
		if len(r) != 3 || strings.Contains(r[0], "://") || strings.Contains(r[0], "?") || (r[2] != "301" && r[2] != "308") {
			t.Errorf("row %q", r)
		}
	}
	if rows[0][0] != "old.example/about-us.html" || rows[0][1] != "https://new.example/company/about" {
		t.Errorf("first row %q", rows[0])
	}
}

// TestRedirectsShopify: "Redirect from" paths with their query, case
// twins and 410s left out, and the warning about live products.
func TestRedirectsShopify(t *testing.T) {
	cases := redirectCases()
	var buf bytes.Buffer
	rep, err := WriteRedirects(&buf, RedirectsShopify, caseMaps(cases))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if rows[0][0] != "Redirect from" || rows[0][1] != "Redirect to" || len(rows)-1 != rep.Redirects || rep.LeftOut != 3 {
		t.Errorf("header %q, %d rows, report %+v", rows[0], len(rows)-1, rep)
	}
	if !strings.Contains(strings.Join(rep.Warnings, " "), "published product") {
		t.Errorf("no word of live products: %q", rep.Warnings)
	}
	for _, r := range rows[1:] {
		if !strings.HasPrefix(r[0], "/") {
			t.Errorf("from %q is not a path", r[0])
		}
	}
}

// TestRedirectsWordPress: the Redirection plugin's JSON with a 410 as an
// error action and exact query matching where there is one.
func TestRedirectsWordPress(t *testing.T) {
	cases := redirectCases()
	var buf bytes.Buffer
	rep, err := WriteRedirects(&buf, RedirectsWordPress, caseMaps(cases))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Groups    []struct{ ID int } `json:"groups"`
		Redirects []struct {
			URL        string                    `json:"url"`
			ActionCode int                       `json:"action_code"`
			ActionType string                    `json:"action_type"`
			ActionData map[string]string         `json:"action_data"`
			MatchData  map[string]map[string]any `json:"match_data"`
			GroupID    int                       `json:"group_id"`
		} `json:"redirects"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := wantOf(cases)
	if len(got.Redirects) != len(want) || rep.LeftOut != 0 {
		t.Fatalf("%d redirects, want %d", len(got.Redirects), len(want))
	}
	for _, r := range got.Redirects {
		w := want["https://old.example"+r.URL]
		g := r.ActionData["url"]
		if r.ActionType == "error" {
			g = fmt.Sprint(r.ActionCode)
		}
		if g != w || r.GroupID != got.Groups[0].ID {
			t.Errorf("%s: %s, want %s", r.URL, g, w)
		}
		if q := r.MatchData["source"]["flag_query"]; (q == "exact") != strings.Contains(r.URL, "?") {
			t.Errorf("%s: flag_query %v", r.URL, q)
		}
	}
}

// TestRedirectsIIS: the web.config is well-formed XML (xmllint), its maps
// hold every rule but those IIS would read as a key twice (old URLs that
// differ only in case), and past IIS's 250 KB the map is refused.
func TestRedirectsIIS(t *testing.T) {
	cases := redirectCases()[:20]
	var buf bytes.Buffer
	rep, err := WriteRedirects(&buf, RedirectsIIS, caseMaps(cases))
	if err != nil {
		t.Fatal(err)
	}
	if xmllint, err := exec.LookPath("xmllint"); err == nil || os.Getenv("CI") == "true" {
		file := filepath.Join(t.TempDir(), "web.config")
		os.WriteFile(file, buf.Bytes(), 0o644)
		if out, err := exec.Command(xmllint, "--noout", file).CombinedOutput(); err != nil {
			t.Fatalf("xmllint: %v\n%s", err, out)
		}
	}
	var conf struct {
		Maps []struct {
			Name string `xml:"name,attr"`
			Adds []struct {
				Key   string `xml:"key,attr"`
				Value string `xml:"value,attr"`
			} `xml:"add"`
		} `xml:"system.webServer>rewrite>rewriteMaps>rewriteMap"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &conf); err != nil {
		t.Fatal(err)
	}
	got, folded := map[string]string{}, map[string]string{}
	for _, m := range conf.Maps {
		for _, a := range m.Adds {
			v := a.Value
			if m.Name == "siteplanGone" {
				v = "410"
			}
			got["https://old.example"+a.Key] = v
			if k := strings.ToLower(a.Key); folded[k] != "" {
				t.Errorf("keys %q and %q differ only in case: IIS stops the site with 500.19", folded[k], a.Key)
			} else {
				folded[k] = a.Key
			}
		}
	}
	// Of /Contact-Us.html and /contact-us.html the first is kept, the
	// second left out, said.
	want := wantOf(cases)
	delete(want, "https://old.example/contact-us.html")
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("maps\n got %v\nwant %v", got, want)
	}
	if rep.LeftOut != 1 || !strings.Contains(strings.Join(rep.Warnings, " "), "https://old.example/contact-us.html left out: IIS compares") {
		t.Errorf("the URL that differs only in case: %d left out, %q", rep.LeftOut, rep.Warnings)
	}
	if !strings.Contains(strings.Join(rep.Warnings, " "), "308") {
		t.Errorf("no word of 308 written as 301: %q", rep.Warnings)
	}
	if _, err := WriteRedirects(&buf, RedirectsIIS, caseMaps(redirectCases())); site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "250 KB") {
		t.Errorf("past 250 KB: %v", err)
	}
}

// TestRedirectsVercelBulk: a CSV of source paths (with case), their
// targets and statuses, for Vercel's bulk redirects; 410s and sources
// with a query left out, said; a warning past the 1,000 Pro includes.
func TestRedirectsVercelBulk(t *testing.T) {
	cases := redirectCases()
	var buf bytes.Buffer
	rep, err := WriteRedirects(&buf, RedirectsVercelBulk, caseMaps(cases))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "source,destination,statusCode,caseSensitive" || len(rows)-1 != rep.Redirects || rep.LeftOut != 4 {
		t.Errorf("header %q, %d rows, report %+v: want 4 left out (2 retired, 2 with a query)", rows[0], len(rows)-1, rep)
	}
	want := wantOf(cases)
	for _, r := range rows[1:] {
		if to := want["https://old.example"+r[0]]; to != r[1] || r[3] != "t" || (r[2] != "301" && r[2] != "308") {
			t.Errorf("row %q, want the target %q", r, to)
		}
	}
	if !strings.Contains(strings.Join(rep.Warnings, " "), "1,000 on Pro") {
		t.Errorf("no word of the plan's quota: %q", rep.Warnings)
	}
}
