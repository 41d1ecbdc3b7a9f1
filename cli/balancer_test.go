package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"siteplan/internal/pgtest"
)

// syncBuffer is a buffer two processes' output may be copied into.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// freeAddr is a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// waitListening waits until something answers on addr, or the process
// ended (done closed).
func waitListening(t *testing.T, addr string, done <-chan struct{}, log func() string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
		select {
		case <-done:
			t.Fatalf("the process for %s ended: %s", addr, log())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listens on %s: %s", addr, log())
		}
		time.Sleep(20 * time.Millisecond) // polling for the port: the process gives no other sign
	}
}

// start runs a program, its output into out, waits until it listens on
// addr and returns how to stop it (an interrupt, then its end), which the
// test's end does too.
func start(t *testing.T, addr string, out io.Writer, log func() string, name string, args ...string) (stop func()) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	stop = func() { cmd.Process.Signal(os.Interrupt); <-done }
	t.Cleanup(stop)
	waitListening(t, addr, done, log)
	return stop
}

// visitor is a browser at a loopback address of its own (127.0.0.N), so
// the balancer sees each visitor's own address.
type visitor struct {
	t    *testing.T
	hc   *http.Client
	base string
}

func newVisitor(t *testing.T, base, from string) *visitor {
	jar, _ := cookiejar.New(nil)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
	tr := &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}
	return &visitor{t: t, base: base, hc: &http.Client{Jar: jar, Transport: tr, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (v *visitor) get(path string) int {
	v.t.Helper()
	resp, err := v.hc.Get(v.base + path)
	if err != nil {
		v.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func (v *visitor) post(path string, form url.Values) int {
	v.t.Helper()
	u, _ := url.Parse(v.base)
	for _, ck := range v.hc.Jar.Cookies(u) {
		if ck.Name == "_csrf" {
			form.Set("_csrf", ck.Value)
		}
	}
	resp, err := v.hc.PostForm(v.base+path, form)
	if err != nil {
		v.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestServeBehindABalancer runs two siteplan servers on one database
// behind Debian's nginx, configured as docs/deployment.md says, with
// every secret set (the database's password on PostgreSQL, the SMTP
// password, a webhook's secret, share and session tokens):
//   - 25 wrong passwords for made-up accounts from one visitor's address
//     stop that visitor and never another visitor's right password, on
//     either server;
//   - a session made through one server works through the other;
//   - no secret is in any line either server logs.
func TestServeBehindABalancer(t *testing.T) {
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("nginx is not installed")
		}
		t.Skip("nginx is not installed")
	}
	bin := siteplanBinary(t)
	const (
		dbSecret    = "Db-Secret-7f3a9"
		smtpSecret  = "Smtp-Secret-41c2"
		hookSecret  = "Hook-Secret-0d8e5b"
		password    = "a long enough password"
		attackerIP  = "127.0.0.3"
		visitorIP   = "127.0.0.2"
		madeUpLogin = 25
	)
	dsn := pgtest.DSN(t, "balanced.db")
	if strings.HasPrefix(dsn, "postgres") { // trust authentication takes any password: it must still never be logged
		u, _ := url.Parse(dsn)
		u.User = url.UserPassword(u.User.Username(), dbSecret)
		dsn = u.String()
	}
	cli := func(stdin string, args ...string) string {
		t.Helper()
		var out bytes.Buffer
		if err := run(args, strings.NewReader(stdin), &out); err != nil {
			t.Fatalf("siteplan %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(out.String())
	}
	cli("", "import", "--db", dsn, "../store/testdata/acme.json")
	cli(password+"\n", "user", "add", "--db", dsn, "--email", "owner@test.example", "--name", "Olive", "--team", "Agency", "--role", "owner")
	cli("", "webhook", "add", "--db", dsn, "--team", "Agency", "--url", "http://"+freeAddr(t)+"/hook", "--format", "json", "--secret", hookSecret)
	share := cli("", "share", "create", "--db", dsn, "--project", "1", "--role", "comment")

	var logs syncBuffer
	var servers []string
	var stops []func()
	for range 2 {
		addr := freeAddr(t)
		stops = append(stops, start(t, addr, &logs, logs.String, bin, "serve", "--addr", addr, "--db", dsn, "--trusted-proxies", "127.0.0.1",
			"--smtp", "smtp://siteplan:"+smtpSecret+"@"+freeAddr(t), "--mail-from", "plans@agency.example"))
		servers = append(servers, addr)
	}
	dir, front := t.TempDir(), freeAddr(t)
	conf := fmt.Sprintf(`daemon off; master_process off; pid %[1]s/nginx.pid; error_log %[1]s/error.log;
events {}
http {
	access_log off;
	client_body_temp_path %[1]s; proxy_temp_path %[1]s; fastcgi_temp_path %[1]s; uwsgi_temp_path %[1]s; scgi_temp_path %[1]s;
	%[2]s
}
`, dir, balancerConf(front, servers))
	os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o644)
	if out, err := exec.Command(nginx, "-t", "-p", dir, "-c", filepath.Join(dir, "nginx.conf")).CombinedOutput(); err != nil {
		t.Fatalf("nginx -t: %v\n%s", err, out)
	}
	start(t, front, &logs, logs.String, nginx, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	base := "http://" + front

	attacker, owner := newVisitor(t, base, attackerIP), newVisitor(t, base, visitorIP)
	attacker.get("/login")
	for i := range madeUpLogin {
		attacker.post("/login", url.Values{"email": {fmt.Sprintf("nobody%d@test.example", i)}, "password": {"guess"}})
	}
	if got := attacker.post("/login", url.Values{"email": {"owner@test.example"}, "password": {password}}); got != http.StatusTooManyRequests {
		t.Errorf("the attacker's address after %d failures: got %d, want 429", madeUpLogin, got)
	}
	owner.get("/login")
	if got := owner.post("/login", url.Values{"email": {"owner@test.example"}, "password": {password}}); got != http.StatusSeeOther {
		t.Fatalf("another visitor's right password through the balancer: got %d, want 303", got)
	}
	for i := range 4 { // round robin: both servers, twice
		if got := owner.get("/projects/1"); got != http.StatusOK {
			t.Errorf("request %d with the session through the balancer: got %d, want 200", i, got)
		}
	}
	if strings.HasPrefix(dsn, "postgres") { // servers on one SQLite file do not carry each other's live updates
		// The owner's editor holds a stream through the balancer, on one
		// server; two comments, one to each server, both reach it.
		u, _ := url.Parse(base)
		req, _ := http.NewRequest("GET", base+"/projects/1/events", nil)
		for _, ck := range owner.hc.Jar.Cookies(u) {
			req.AddCookie(ck)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		resp, err := (&http.Client{Transport: owner.hc.Transport}).Do(req.WithContext(ctx))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		comments := make(chan string, 8)
		go func() {
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				if l := sc.Text(); strings.HasPrefix(l, "data: ") && strings.Contains(l, `"kind":"comment"`) {
					comments <- l
				}
			}
			close(comments)
		}()
		for i := range 2 {
			if got := owner.post("/projects/1/pages/1/comments", url.Values{"body": {fmt.Sprint("Live ", i)}}); got != http.StatusCreated {
				t.Fatalf("comment %d: %d", i, got)
			}
		}
		for i := range 2 {
			select {
			case _, ok := <-comments:
				if !ok {
					t.Fatalf("the stream ended after %d of 2 comments", i)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("%d of 2 comments reached the stream through the balancer", i)
			}
		}
		cancel()
	}
	// A client on the share link comments and mentions the owner, so
	// the mailer tries the SMTP server (which refuses).
	client := newVisitor(t, base, "127.0.0.4")
	if got := client.get(share); got != http.StatusSeeOther {
		t.Fatalf("the share link: %d", got)
	}
	client.get("/projects/1")
	if got := client.post("/projects/1/pages/1/comments", url.Values{"author": {"Carla"}, "body": {"@Olive is this final?"}}); got != http.StatusCreated && got != http.StatusOK {
		t.Errorf("a client's comment: %d", got)
	}
	// One server stops (a deploy): the balancer sends what it would have
	// had to the other, and no request is lost.
	stops[0]()
	for i := range 6 {
		if got := owner.get("/projects/1"); got != http.StatusOK {
			t.Errorf("request %d after one server stopped: %d, want 200", i, got)
		}
	}
	// The mention's e-mail goes to the SMTP server, which refuses: wait
	// for the mailer to say so, then stop the servers, so that all they
	// log is written.
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(logs.String(), "sending notification e-mails"); {
		if time.Now().After(deadline) {
			t.Errorf("the mailer never tried the SMTP server: %s", logs.String())
			break
		}
		time.Sleep(50 * time.Millisecond) // polling the logs: the servers give no other sign
	}
	for _, stop := range stops {
		stop()
	}
	secrets := []string{dbSecret, smtpSecret, hookSecret, strings.TrimPrefix(share, "/s/")}
	u, _ := url.Parse(base)
	for _, ck := range owner.hc.Jar.Cookies(u) {
		if ck.Name == "siteplan_session" {
			secrets = append(secrets, ck.Value)
		}
	}
	if len(secrets) != 5 {
		t.Fatalf("no session cookie to look for")
	}
	out := logs.String()
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("a secret is in the logs: %q in\n%s", s, out)
		}
	}
}

// balancerConf is the nginx configuration docs/deployment.md gives, for
// a balancer on front before the servers.
func balancerConf(front string, servers []string) string {
	var up strings.Builder
	for _, s := range servers {
		fmt.Fprintf(&up, "\t\tserver %s max_fails=1 fail_timeout=5s;\n", s)
	}
	return fmt.Sprintf(`upstream siteplan {
%s	}
	server {
		listen %s;
		location / {
			proxy_pass http://siteplan;
			proxy_http_version 1.1;
			proxy_set_header Host $host;
			proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
			proxy_set_header X-Forwarded-Proto $scheme;
			proxy_set_header Connection "";
			proxy_buffering off;
			proxy_read_timeout 1h;
			proxy_next_upstream error timeout http_502 http_503;
		}
	}`, up.String(), front)
}
