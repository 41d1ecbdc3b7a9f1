package export

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"siteplan/site"
)

// redirectCase is an old URL, where the map sends it, and what a server
// serving the map must answer for it.
type redirectCase struct {
	m        site.Mapping
	status   int
	location string
}

// redirectCases are the awkward old URLs a relaunch has, and a few
// thousand plain ones to fill the maps' hashes.
func redirectCases() []redirectCase {
	old, nw := "https://old.example", "https://new.example"
	r := func(from, to string) site.Mapping {
		return site.Mapping{From: old + from, Disposition: site.DispositionRedirect, To: nw + to, Status: 301, Accepted: true}
	}
	gone := func(from string) site.Mapping {
		return site.Mapping{From: old + from, Disposition: site.DispositionRetire, Accepted: true}
	}
	cases := []redirectCase{
		{r("/about-us.html", "/company/about"), 301, nw + "/company/about"},
		{r("/Contact-Us.html", "/company/contact"), 301, nw + "/company/contact"},
		{r("/contact-us.html", "/company/contact-lower"), 301, nw + "/company/contact-lower"}, // differs in case only
		{r("/jobs/view.php?id=1000", "/company/careers/junior-copywriter-1000"), 301, nw + "/company/careers/junior-copywriter-1000"},
		{gone("/jobs/view.php?id=1001"), 410, ""},
		{r("/support/faq.php?article=a-b&section=c", "/help/c/a-b"), 301, nw + "/help/c/a-b"},
		{r("/caf%C3%A9/men%C3%BC.html", "/cafe/menu"), 301, nw + "/cafe/menu"},
		{r("/with%20space.html", "/spaced"), 301, nw + "/spaced"},
		{r("/~tilde/page.html", "/tilde"), 301, nw + "/tilde"},
		{r("/price.html", "/pricing?plan=a&b=%24"), 301, nw + "/pricing?plan=a&b=%24"},
		{r("/a.b+c(1).html", "/regex-chars"), 301, nw + "/regex-chars"},
		{gone("/promo/summer-sale-2016.html"), 410, ""},
		{site.Mapping{From: old + "/legacy.html", Disposition: site.DispositionRedirect, To: nw + "/new-legacy", Status: 308, Accepted: true}, 308, nw + "/new-legacy"},
		// Not accepted, kept, waiting: no rule.
		{site.Mapping{From: old + "/maybe.html", Disposition: site.DispositionRedirect, To: nw + "/x", Status: 301}, 404, ""},
		{site.Mapping{From: old + "/unknown.html", Disposition: site.DispositionReview}, 404, ""},
	}
	for i := range 3000 {
		cases = append(cases, redirectCase{r(fmt.Sprintf("/shop/item-%d.html", i), fmt.Sprintf("/products/item-%d", i)), 301, fmt.Sprintf("%s/products/item-%d", nw, i)})
	}
	return cases
}

func caseMaps(cases []redirectCase) []site.Mapping {
	out := make([]site.Mapping, len(cases))
	for i, c := range cases {
		out[i] = c.m
	}
	return out
}

// TestRedirectRules: chains are followed to their end, loops and
// redirects to a retired URL refused with the URLs named.
func TestRedirectRules(t *testing.T) {
	r := func(from, to string) site.Mapping {
		return site.Mapping{From: from, To: to, Disposition: site.DispositionRedirect, Status: 301, Accepted: true}
	}
	rules, err := redirectRules([]site.Mapping{r("https://x/a", "https://x/b"), r("https://x/b", "https://x/c"), r("https://x/c", "https://y/d")})
	if err != nil {
		t.Fatal(err)
	}
	for _, rl := range rules {
		if rl.to != "https://y/d" {
			t.Errorf("%s goes to %s, want https://y/d in one hop", rl.from, rl.to)
		}
	}
	_, err = redirectRules([]site.Mapping{r("https://x/a", "https://x/b"), r("https://x/b", "https://x/a")})
	if site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "loop") {
		t.Errorf("a loop: %v", err)
	}
	_, err = redirectRules([]site.Mapping{r("https://x/a", "https://x/b"), {From: "https://x/b", Disposition: site.DispositionRetire, Accepted: true}})
	if site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "retired") {
		t.Errorf("a redirect to a retired URL: %v", err)
	}
	var buf bytes.Buffer
	if _, err := WriteRedirects(&buf, "htaccess", nil); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("an unknown format: %v", err)
	}
}

// TestRedirectsCSV: a row an old URL, 410 rows without a target.
func TestRedirectsCSV(t *testing.T) {
	var buf bytes.Buffer
	if _, err := WriteRedirects(&buf, RedirectsCSV, caseMaps(redirectCases()[:15])); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	for _, want := range []string{
		"from,to,status,accepted,confidence,reason",
		"https://old.example/jobs/view.php?id=1001,,410,yes,0.00,",
		"https://old.example/legacy.html,https://new.example/new-legacy,308,yes,0.00,",
		"https://old.example/unknown.html,,,no,0.00,",
	} {
		if !strings.Contains(buf.String(), want+"\n") {
			t.Errorf("the CSV lacks %q:\n%s", want, buf.String())
		}
	}
	if len(lines) != 16 {
		t.Errorf("%d lines, want a header and 15 rows", len(lines))
	}
}

// need finds a server's binary, or skips (fails on CI, which installs it).
func need(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed", name)
		}
		t.Skipf("%s is not installed", name)
	}
	return path
}

// freePort is a loopback port nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// serve starts a server process and waits until it answers on port.
func serve(t *testing.T, port int, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, name, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second // a child left holding the output does not hold up the test
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	for deadline := time.Now().Add(20 * time.Second); ; {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) || cmd.ProcessState != nil {
			t.Fatalf("%s did not start: %s", name, out.String())
		}
		time.Sleep(20 * time.Millisecond) // polling for the port: the process gives no other sign
	}
}

// checkServer asks a server for each old URL and checks its answer.
func checkServer(t *testing.T, port int, cases []redirectCase) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for i, c := range cases {
		if strings.Contains(c.m.From, "/shop/item-") && i%50 != 0 { // of the thousands of plain ones, a sample
			continue
		}
		uri := strings.TrimPrefix(c.m.From, "https://old.example")
		resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, uri))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status || resp.Header.Get("Location") != c.location {
			t.Errorf("%s: %d %q, want %d %q", uri, resp.StatusCode, resp.Header.Get("Location"), c.status, c.location)
		}
	}
}

// TestRedirectsNginx serves the nginx map with Debian's nginx on
// loopback, as its header comment says to, and asks it for every old
// URL: the right status and Location, case and query strings told
// apart, and nothing for the rows not accepted.
func TestRedirectsNginx(t *testing.T) {
	cases := redirectCases()
	var buf bytes.Buffer
	if _, err := WriteRedirects(&buf, RedirectsNginx, caseMaps(cases)); err != nil {
		t.Fatal(err)
	}
	conf := buf.String()
	var hashes []string
	for _, l := range strings.Split(conf, "\n") {
		if l = strings.TrimPrefix(l, "#     "); strings.HasPrefix(l, "map_hash_") {
			hashes = append(hashes, l)
		}
	}
	if len(hashes) != 2 {
		t.Fatalf("the header does not give the map hash sizes:\n%s", conf[:500])
	}
	port := serveNginx(t, buf.Bytes(), strings.Join(hashes, "\n\t"))
	for i := range cases {
		if cases[i].status == 308 { // the server block returns 301 for every redirect, as the header says
			cases[i].status = 301
		}
	}
	checkServer(t, port, cases)
}

// serveNginx serves the nginx map with Debian's nginx on a loopback port,
// which it returns, as its header says to: included in http {} with the
// map hash sizes, the server block's two lines, everything else 404.
func serveNginx(t *testing.T, snippet []byte, hashes string) int {
	t.Helper()
	nginx := need(t, "nginx")
	dir, port := t.TempDir(), freePort(t)
	os.WriteFile(filepath.Join(dir, "siteplan-redirects.conf"), snippet, 0o644)
	main := fmt.Sprintf(`daemon off; master_process off; pid %[1]s/nginx.pid; error_log %[1]s/error.log;
events {}
http {
	access_log off;
	client_body_temp_path %[1]s; proxy_temp_path %[1]s; fastcgi_temp_path %[1]s; uwsgi_temp_path %[1]s; scgi_temp_path %[1]s;
	%[2]s
	include siteplan-redirects.conf;
	server {
		listen 127.0.0.1:%[3]d;
		location / {
			if ($siteplan_gone) { return 410; }
			if ($siteplan_redirect) { return 301 $siteplan_redirect; }
			return 404;
		}
	}
}
`, dir, hashes, port)
	os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(main), 0o644)
	if out, err := exec.Command(nginx, "-t", "-p", dir, "-c", filepath.Join(dir, "nginx.conf")).CombinedOutput(); err != nil || strings.Contains(string(out), "warn") {
		t.Fatalf("nginx -t: %v\n%s", err, out)
	}
	serve(t, port, nginx, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	return port
}

// TestRedirectsApache serves the rules as the .htaccess of a document
// root with Debian's Apache on loopback and asks it for every old URL.
func TestRedirectsApache(t *testing.T) {
	cases := redirectCases()
	var buf bytes.Buffer
	if _, err := WriteRedirects(&buf, RedirectsApache, caseMaps(cases)); err != nil {
		t.Fatal(err)
	}
	checkServer(t, serveApache(t, buf.Bytes()), cases)
}

// serveApache serves rules as the .htaccess of a document root with
// Debian's Apache on a loopback port, which it returns.
func serveApache(t *testing.T, htaccess []byte) int {
	t.Helper()
	apache := need(t, "apache2")
	dir, port := t.TempDir(), freePort(t)
	root := filepath.Join(dir, "root")
	os.Mkdir(root, 0o755)
	os.WriteFile(filepath.Join(root, ".htaccess"), htaccess, 0o644)
	mods := "/usr/lib/apache2/modules"
	conf := fmt.Sprintf(`ServerRoot %[1]s
Listen 127.0.0.1:%[2]d
ServerName localhost
PidFile %[1]s/httpd.pid
ErrorLog %[1]s/error.log
LoadModule mpm_prefork_module %[3]s/mod_mpm_prefork.so
LoadModule authz_core_module %[3]s/mod_authz_core.so
LoadModule rewrite_module %[3]s/mod_rewrite.so
DocumentRoot %[1]s/root
<Directory %[1]s/root>
	AllowOverride FileInfo
	Require all granted
</Directory>
`, dir, port, mods)
	os.WriteFile(filepath.Join(dir, "httpd.conf"), []byte(conf), 0o644)
	serve(t, port, apache, "-X", "-f", filepath.Join(dir, "httpd.conf"))
	return port
}

// TestRedirectRulesProperty: over random maps of old URLs that redirect
// to one another or retire, the rules either are refused (a loop, or an
// end at a retired URL, which a walk of the map confirms) or send every
// old URL in one hop to where walking the map ends.
func TestRedirectRulesProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 2000 {
		n := 1 + rng.IntN(12)
		url := func(i int) string { return fmt.Sprintf("https://x/%d", i) }
		var maps []site.Mapping
		for i := range n {
			switch rng.IntN(5) {
			case 0:
				maps = append(maps, site.Mapping{From: url(i), Disposition: site.DispositionRetire, Accepted: true})
			case 1:
				maps = append(maps, site.Mapping{From: url(i), To: fmt.Sprintf("https://new/%d", i), Disposition: site.DispositionRedirect, Accepted: true})
			default: // into the map itself
				maps = append(maps, site.Mapping{From: url(i), To: url(rng.IntN(n + 2)), Disposition: site.DispositionRedirect, Accepted: true})
			}
		}
		byFrom := map[string]site.Mapping{}
		for _, m := range maps {
			byFrom[m.From] = m
		}
		// walk follows the map from an old URL: its end, and whether the
		// walk loops or ends at a retired URL.
		walk := func(from string) (string, bool) {
			seen := map[string]bool{}
			at := from
			for {
				m, ok := byFrom[at]
				if !ok {
					return at, true
				}
				if seen[at] {
					return "", false
				}
				seen[at] = true
				if m.Disposition == site.DispositionRetire {
					return "", at == from
				}
				at = m.To
			}
		}
		rules, err := redirectRules(maps)
		bad := false
		for _, m := range maps {
			if _, ok := walk(m.From); !ok {
				bad = true
			}
		}
		if bad != (err != nil) {
			t.Fatalf("round %d: %v refused: %v, but a walk of the map finds it bad: %t", round, maps, err, bad)
		}
		if err != nil {
			continue
		}
		for _, r := range rules {
			end, _ := walk(r.from)
			if r.status != 410 && r.to != end {
				t.Fatalf("round %d: %s goes to %s, the map ends at %s", round, r.from, r.to, end)
			}
			if _, chained := byFrom[r.to]; chained {
				t.Fatalf("round %d: %s goes to %s, itself redirected", round, r.from, r.to)
			}
		}
	}
}

// hostileURLs are n random old URLs of the kinds that broke maps: quotes,
// backslashes, spaces, dollars, stray percents, encoded newlines, tabs,
// angle brackets, braces, non-ASCII, each normalised as a plan keeps old
// URLs (site.OldURLOf), once each.
func hostileURLs(rng *rand.Rand, n int) []string {
	parts := []string{"a", "B", "z9", "-", ".", "_", "~", "'", `"`, " ", "$", "%", "%zz", "\\", "(", ")", "[", "]", "*", "+", ",", ";", "=", "&", "!", "@", ":",
		"\n", "\t", "\r\n", "<", ">", "{", "}", "|", "^", "`", "é", "中", "😀", "%0A", "%22", "%5C", "%25", "a.b", "..", "//"}
	pick := func(max int) string {
		var b strings.Builder
		for range 1 + rng.IntN(max) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		return b.String()
	}
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		raw := "https://old.example/" + pick(6) + "/" + pick(4)
		if rng.IntN(2) == 0 {
			raw += "?" + pick(5) + "=" + pick(3)
		}
		u, err := site.OldURLOf(raw)
		if err != nil || seen[u] {
			continue
		}
		seen[u] = true
		out = append(out, u)
	}
	return out
}

// rawGet sends a request line with uri exactly as given, as a browser
// sends an old URL it holds, and returns the answer's status and
// Location.
func rawGet(t *testing.T, port int, uri string) (int, string) {
	t.Helper()
	c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: old.example\r\nConnection: close\r\n\r\n", uri)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", uri, err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location")
}

// TestRedirectsHostileURLs: over random hostile old URLs, the nginx map
// and the Apache rules, served by Debian's nginx and Apache, send every
// old URL they hold to its target, or answer 410, and no rule breaks the
// others (one such URL once made every URL of a site answer 500); what
// a format cannot carry is left out with a warning, never written broken.
func TestRedirectsHostileURLs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	urls := hostileURLs(rng, 300)
	var cases []redirectCase
	for i, u := range urls {
		m := site.Mapping{From: u, Disposition: site.DispositionRedirect, To: fmt.Sprintf("https://new.example/p/%d?q=%%22x", i), Status: 301, Accepted: true}
		c := redirectCase{m: m, status: 301, location: m.To}
		if i%7 == 0 {
			c.m = site.Mapping{From: u, Disposition: site.DispositionRetire, Accepted: true}
			c.status, c.location = 410, ""
		}
		cases = append(cases, c)
	}
	// check asks the server for every old URL. same names the URLs a
	// server reads as one (Apache: the decoded path, slashes merged): of
	// those the first is written, the others answer as it does and are
	// left out, said in the report; so is one answered 404.
	check := func(t *testing.T, port int, rep RedirectReport, same func(u *url.URL) string) {
		t.Helper()
		if status, _ := rawGet(t, port, "/plain-page-nobody-mapped"); status != 404 {
			t.Fatalf("a URL outside the map: %d, want 404: the rules broke the server", status)
		}
		first := map[string]redirectCase{}
		left := 0
		for _, c := range cases {
			u, _ := url.Parse(c.m.From)
			want := c
			if k := same(u); k != "" {
				if f, ok := first[k]; ok {
					want = f
					left++
				} else {
					first[k] = c
				}
			}
			uri := u.RequestURI()
			status, loc := rawGet(t, port, uri)
			if status == 404 && c.status != 404 {
				left++
				continue
			}
			if status != want.status || loc != want.location {
				t.Errorf("%s: %d %q, want %d %q", uri, status, loc, want.status, want.location)
			}
		}
		if left != rep.LeftOut {
			t.Errorf("%d old URLs answered 404 or as another, the report left out %d: %q", left, rep.LeftOut, rep.Warnings)
		}
	}
	t.Run("nginx", func(t *testing.T) {
		var buf bytes.Buffer
		rep, err := WriteRedirects(&buf, RedirectsNginx, caseMaps(cases))
		if err != nil {
			t.Fatal(err)
		}
		port := serveNginx(t, buf.Bytes(), "map_hash_max_size 8192; map_hash_bucket_size 512;")
		check(t, port, rep, func(*url.URL) string { return "" }) // nginx matches the request URI as sent
	})
	t.Run("caddy", func(t *testing.T) {
		var buf bytes.Buffer
		rep, err := WriteRedirects(&buf, RedirectsCaddy, caseMaps(cases))
		if err != nil {
			t.Fatal(err)
		}
		check(t, serveCaddy(t, buf.Bytes()), rep, func(*url.URL) string { return "" }) // Caddy's map compares the request URI as sent
	})
	t.Run("apache", func(t *testing.T) {
		var buf bytes.Buffer
		rep, err := WriteRedirects(&buf, RedirectsApache, caseMaps(cases))
		if err != nil {
			t.Fatal(err)
		}
		merge := regexp.MustCompile(`/{2,}`)
		check(t, serveApache(t, buf.Bytes()), rep, func(u *url.URL) string { return merge.ReplaceAllString(u.Path, "/") + "?" + u.RawQuery })
	})
}

// serveCaddy serves a Caddy redirect snippet with Debian's caddy on
// loopback port, as its header says: imported in the site's block,
// everything else 404.
func serveCaddy(t *testing.T, snippet []byte) int {
	t.Helper()
	caddy := need(t, "caddy")
	dir, port := t.TempDir(), freePort(t)
	os.WriteFile(filepath.Join(dir, "siteplan-redirects.caddy"), snippet, 0o644)
	conf := fmt.Sprintf(`{
	admin off
	auto_https off
	storage file_system %[1]s/data
}
http://:%[2]d {
	bind 127.0.0.1
	import siteplan-redirects.caddy
	respond 404
}
`, dir, port)
	os.WriteFile(filepath.Join(dir, "Caddyfile"), []byte(conf), 0o644)
	cmd := exec.Command(caddy, "validate", "--config", filepath.Join(dir, "Caddyfile"), "--adapter", "caddyfile")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("caddy validate: %v\n%s", err, out)
	}
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_DATA_HOME", dir)
	serve(t, port, caddy, "run", "--config", filepath.Join(dir, "Caddyfile"), "--adapter", "caddyfile")
	return port
}

// TestRedirectsCaddy serves the Caddy snippet with Debian's caddy on
// loopback and asks it for every old URL, as the nginx and Apache tests
// do.
func TestRedirectsCaddy(t *testing.T) {
	cases := redirectCases()
	var buf bytes.Buffer
	if _, err := WriteRedirects(&buf, RedirectsCaddy, caseMaps(cases)); err != nil {
		t.Fatal(err)
	}
	checkServer(t, serveCaddy(t, buf.Bytes()), cases)
}
