package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRefused: the addresses that lead into the machine or its network
// are refused, by kind, IPv4 carried in IPv6 included; public ones are not.
func TestRefused(t *testing.T) {
	tests := []struct{ addr, kind string }{
		{"127.0.0.1", "loopback"},
		{"127.8.9.10", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.254", "private"},
		{"192.168.1.1", "private"},
		{"fd00:ec2::254", "unique-local"}, // AWS's metadata service over IPv6
		{"fc00::1", "unique-local"},
		{"169.254.169.254", "link-local"}, // the cloud metadata service
		{"fe80::1", "link-local"},
		{"100.100.100.200", "shared (carrier-grade NAT)"}, // Alibaba Cloud's metadata service
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"0.1.2.3", "reserved (this network)"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"255.255.255.255", "broadcast"},
		{"240.1.2.3", "reserved"},
		{"64:ff9b::10.0.0.1", "private"},    // NAT64
		{"2002:a9fe:a9fe::1", "link-local"}, // 6to4 of 169.254.169.254
		{"::ffff:10.0.0.1", "private"},
		{"::127.0.0.1", "loopback"},        // IPv4-compatible
		{"::ffff:0:127.0.0.1", "loopback"}, // IPv4-translated (SIIT)
		{"::ffff:0:10.1.2.3", "private"},   // IPv4-translated
		{"64:ff9b:1::a00:1", "local-use NAT64"},
		{"2001::1", "Teredo"},
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"},
		{"100::1", "reserved (not global unicast)"}, // discard-only
		{"2001:db8::1", "documentation"},
		{"4000::1", "reserved (not global unicast)"},
		{"::8.8.8.8", ""},
		{"93.184.215.14", ""},
		{"172.32.0.1", ""},
		{"8.8.8.8", ""},
		{"2606:4700::1111", ""},
		{"64:ff9b::8.8.8.8", ""},
	}
	for _, tt := range tests {
		if got := Refused(netip.MustParseAddr(tt.addr)); got != tt.kind {
			t.Errorf("Refused(%s) = %q, want %q", tt.addr, got, tt.kind)
		}
	}
}

// fakeNet is a resolver with fixed answers and a dial hook that records
// every address it is asked to connect to and connects none of them,
// except the names given a loopback test server to stand in for.
type fakeNet struct {
	mu      sync.Mutex
	names   map[string][]string
	servers map[string]string // address dialled -> the test server that answers for it
	dialled []string
}

func (f *fakeNet) client(opt Options) *Client {
	c := New(opt)
	c.resolve = func(_ context.Context, host string) ([]netip.Addr, error) {
		var out []netip.Addr
		for _, a := range f.names[host] {
			out = append(out, netip.MustParseAddr(a))
		}
		if len(out) == 0 {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		return out, nil
	}
	c.dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		f.mu.Lock()
		f.dialled = append(f.dialled, addr)
		to, ok := f.servers[addr]
		f.mu.Unlock()
		if !ok {
			return nil, errors.New("the test network connects nowhere but its loopback servers")
		}
		var d net.Dialer
		return d.DialContext(ctx, network, to)
	}
	return c
}

func (f *fakeNet) dials() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.dialled...)
}

// TestGuardAtConnect: a name that resolves to a refused address is
// refused when the connection would be made, with a message naming the
// address and its kind, and no connection is tried; so is an address
// given as such, and a redirect from a public site to a private one.
func TestGuardAtConnect(t *testing.T) {
	public := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://intranet.example/admin", http.StatusFound)
	}))
	defer public.Close()
	f := &fakeNet{
		names: map[string][]string{
			"intranet.example": {"10.1.2.3"},
			"metadata.example": {"169.254.169.254"},
			"v6.example":       {"fd00:ec2::254"},
			"public.example":   {"203.0.113.10"},
		},
		servers: map[string]string{"203.0.113.10:80": public.Listener.Addr().String()},
	}
	c := f.client(Options{})
	for _, tt := range []struct{ url, want string }{
		{"http://intranet.example/sitemap.xml", "intranet.example resolves to 10.1.2.3, which is a private address"},
		{"http://metadata.example/latest/meta-data/", "metadata.example resolves to 169.254.169.254, which is a link-local address"},
		{"https://v6.example/", "v6.example resolves to fd00:ec2::254, which is a unique-local address"},
		{"http://127.0.0.1:8080/", "127.0.0.1 is a loopback address"},
		{"http://[::1]/", "::1 is a loopback address"},
		{"http://public.example/sitemap.xml", "intranet.example resolves to 10.1.2.3, which is a private address"},
	} {
		_, err := c.Get(context.Background(), tt.url)
		var refused *RefusedError
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "--allow-private") {
			t.Errorf("Get(%s) = %v, want it refused: %q", tt.url, err, tt.want)
		}
	}
	if got := f.dials(); len(got) != 1 || got[0] != "203.0.113.10:80" {
		t.Errorf("the client dialled %q, want only the public site, 203.0.113.10:80", got)
	}
}

// TestAllowPrivate: with the operator's leave, loopback is fetched.
// Without it a loopback server is refused before any connection.
func TestAllowPrivate(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "<urlset/>")
	}))
	defer srv.Close()
	if _, err := New(Options{}).Get(context.Background(), srv.URL); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("without AllowPrivate the loopback server gave %v, want it refused", err)
	}
	if hits.Load() != 0 {
		t.Fatalf("the refused request reached the server")
	}
	res, err := New(Options{AllowPrivate: true}).Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if b, _ := io.ReadAll(res.Body); string(b) != "<urlset/>" {
		t.Errorf("body = %q", b)
	}
}

// loopback starts a test server the client may reach.
func loopback(t *testing.T, h http.HandlerFunc) (*httptest.Server, *Client) {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, New(Options{AllowPrivate: true, MaxBytes: 1000, Parallel: 2, Timeout: 5 * time.Second})
}

// TestRedirects: five redirects are followed and the final address is
// reported; a sixth is an error that says so; so is a redirect to a
// scheme other than http and https.
func TestRedirects(t *testing.T) {
	srv, c := loopback(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/"))
		switch {
		case r.URL.Path == "/ftp":
			http.Redirect(w, r, "ftp://example.com/sitemap.xml", http.StatusMovedPermanently)
		case n > 0:
			http.Redirect(w, r, "/hop/"+strconv.Itoa(n-1), http.StatusFound)
		default:
			io.WriteString(w, "arrived")
		}
	})
	res, err := c.Get(context.Background(), srv.URL+"/hop/5")
	if err != nil {
		t.Fatalf("5 redirects: %v", err)
	}
	res.Body.Close()
	if res.URL != srv.URL+"/hop/0" {
		t.Errorf("after 5 redirects URL = %s, want %s/hop/0", res.URL, srv.URL)
	}
	if _, err := c.Get(context.Background(), srv.URL+"/hop/6"); err == nil || !strings.Contains(err.Error(), "more than 5 redirects") {
		t.Errorf("6 redirects gave %v, want more than 5 redirects", err)
	}
	if _, err := c.Get(context.Background(), srv.URL+"/ftp"); err == nil || !strings.Contains(err.Error(), "not an http or https address") {
		t.Errorf("a redirect to ftp gave %v", err)
	}
	if _, err := c.Get(context.Background(), "file:///etc/passwd"); err == nil || !strings.Contains(err.Error(), "not an http or https address") {
		t.Errorf("a file URL gave %v", err)
	}
}

// TestBodyCap: a body up to the cap is read whole; one byte more is an
// error naming the address and the cap, however the server sends it
// (with a length, chunked, or gzip-encoded and small on the wire).
func TestBodyCap(t *testing.T) {
	srv, c := loopback(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		if r.URL.Query().Has("chunked") {
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, strings.Repeat("x", n))
	})
	for _, tt := range []struct {
		query string
		ok    bool
	}{
		{"n=1000", true},
		{"n=1001", false},
		{"n=5000&chunked", false},
		{"n=1000&chunked", true},
	} {
		res, err := c.Get(context.Background(), srv.URL+"/?"+tt.query)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if tt.ok && (err != nil || len(b) != 1000) {
			t.Errorf("%s: read %d bytes, %v; want all 1000", tt.query, len(b), err)
		}
		if !tt.ok && (!errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "larger than 1000 bytes") || len(b) > 1000) {
			t.Errorf("%s: read %d bytes, %v; want an error at 1000", tt.query, len(b), err)
		}
	}
}

// TestGzipEncodedCap: a body sent gzip-encoded is capped at its size
// decoded, so a small bomb on the wire cannot grow past the cap.
func TestGzipEncodedCap(t *testing.T) {
	srv, c := loopback(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gzipped(t, strings.Repeat("x", 1<<20)))
	})
	res, err := c.Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if !errors.Is(err, ErrTooLarge) || len(b) > 1000 {
		t.Errorf("a 1 MiB gzip body read %d bytes, %v; want an error at 1000", len(b), err)
	}
}

// TestStatusAndAgent: a status other than 2xx is an error naming the
// address and the status; requests name siteplan in their User-Agent.
func TestStatusAndAgent(t *testing.T) {
	var agent atomic.Value
	srv, c := loopback(t, func(w http.ResponseWriter, r *http.Request) {
		agent.Store(r.UserAgent())
		http.NotFound(w, r)
	})
	_, err := c.Get(context.Background(), srv.URL+"/sitemap.xml")
	var fe *Error
	if !errors.As(err, &fe) || fe.Status != 404 || !strings.Contains(err.Error(), srv.URL+"/sitemap.xml answered 404 Not Found") {
		t.Errorf("a 404 gave %v", err)
	}
	if ua, _ := agent.Load().(string); !strings.HasPrefix(ua, "siteplan") {
		t.Errorf("User-Agent = %q, want it to name siteplan", ua)
	}
}

// TestTimeout: a server that does not answer in the client's time is an
// error that says so.
func TestTimeout(t *testing.T) {
	srv := silentServer(t)
	c := New(Options{AllowPrivate: true, Timeout: 100 * time.Millisecond})
	if _, err := c.Get(context.Background(), srv.URL); err == nil || !strings.Contains(err.Error(), "did not answer in time") {
		t.Errorf("a silent server gave %v, want a timeout", err)
	}
}

// TestParallel: a client has at most Parallel requests open; the next
// waits until a body is closed (or its context ends).
func TestParallel(t *testing.T) {
	var hits atomic.Int32
	srv, c := loopback(t, func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "ok")
	})
	a, err := c.Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Get(ctx, srv.URL); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a third request with two open gave %v, want it to wait", err)
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("the server saw %d requests, want 2", n)
	}
	a.Body.Close()
	c3, err := c.Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatalf("after a body was closed: %v", err)
	}
	c3.Body.Close()
	b.Body.Close()
}

func gzipped(t *testing.T, s string) []byte {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Write([]byte(s))
	z.Close()
	return buf.Bytes()
}

// TestNumericHosts: a host that ends in a number is an IPv4 address in
// whatever form browsers take, judged as that address and never sent to
// DNS; one that is no address is refused as such.
func TestNumericHosts(t *testing.T) {
	f := &fakeNet{names: map[string][]string{}}
	c := f.client(Options{})
	for _, tt := range []struct{ host, want string }{
		{"2130706433", "2130706433 resolves to 127.0.0.1, which is a loopback address"},
		{"0x7f000001", "0x7f000001 resolves to 127.0.0.1, which is a loopback address"},
		{"127.1", "127.1 resolves to 127.0.0.1, which is a loopback address"},
		{"0177.0.0.1", "0177.0.0.1 resolves to 127.0.0.1, which is a loopback address"},
		{"10.0x10.1", "10.0x10.1 resolves to 10.16.0.1, which is a private address"},
		{"169.254.43518", "169.254.43518 resolves to 169.254.169.254, which is a link-local address"},
		{"127.0.0.1.", "127.0.0.1. resolves to 127.0.0.1, which is a loopback address"},
		{"1.2.3.4.5", "is not an address: more than four numbers"},
		{"256.1.1.1", "is not an address: 256 is more than 255"},
		{"09.1.1.1", "is not an address"},
	} {
		_, err := c.Get(context.Background(), "http://"+tt.host+"/sitemap.xml")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.host, err, tt.want)
		}
	}
	if got := f.dials(); len(got) != 0 {
		t.Errorf("dialled %q", got)
	}
	for _, host := range []string{"example.com", "1.example", "a.0x1g"} {
		if _, ok, err := hostAddr(host); ok || err != nil {
			t.Errorf("hostAddr(%s) = %v %v, want a name", host, ok, err)
		}
	}
}

// TestResolverHidden: a name that does not resolve says so without
// naming the server's own resolver.
func TestResolverHidden(t *testing.T) {
	c := New(Options{})
	c.resolve = func(_ context.Context, host string) ([]netip.Addr, error) {
		return nil, &net.DNSError{Err: "no such host", Name: host, Server: "127.0.0.53:53", IsNotFound: true}
	}
	_, err := c.Get(context.Background(), "http://nowhere.example/")
	if err == nil || strings.Contains(err.Error(), "127.0.0.53") || !strings.Contains(err.Error(), "nowhere.example") {
		t.Errorf("got %v", err)
	}
}

// TestSlowBody: a body that comes slower than the floor is stopped at
// the end of the first window below it, with an error that says so; one
// that comes fast enough is read whole, however long it takes.
func TestSlowBody(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		fast := r.URL.Path == "/fast"
		for i := 0; i < 40; i++ {
			n := 1
			if fast {
				n = 100
			}
			w.Write(bytes.Repeat([]byte("x"), n))
			w.(http.Flusher).Flush()
			select {
			case <-time.After(10 * time.Millisecond):
			case <-stop:
				return
			case <-r.Context().Done():
				return
			}
		}
	}))
	defer srv.Close()
	c := New(Options{AllowPrivate: true, MinRate: 2000, RateWindow: 100 * time.Millisecond})
	res, err := c.Get(context.Background(), srv.URL+"/slow")
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(res.Body)
	res.Body.Close()
	if !errors.Is(err, ErrTooSlow) || !strings.Contains(err.Error(), "sent less than 2000 bytes a second") {
		t.Errorf("a trickle: %v", err)
	}
	c = New(Options{AllowPrivate: true, MinRate: 2000, RateWindow: 200 * time.Millisecond})
	res, err = c.Get(context.Background(), srv.URL+"/fast")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || len(b) != 4000 {
		t.Errorf("a body at 10 KB/s: %d bytes, %v", len(b), err)
	}
	// A launch check's hop keeps the same floor.
	c = New(Options{AllowPrivate: true, MinRate: 2000, RateWindow: 100 * time.Millisecond})
	if _, err := c.Hop(context.Background(), http.MethodGet, srv.URL+"/slow", 1<<20); !errors.Is(err, ErrTooSlow) {
		t.Errorf("a trickled page to a hop: %v", err)
	}
	c = New(Options{AllowPrivate: true, MinRate: 2000, RateWindow: 200 * time.Millisecond})
	if a, err := c.Hop(context.Background(), http.MethodGet, srv.URL+"/fast", 1000); err != nil || len(a.Body) != 1000 {
		t.Errorf("a hop's body at 10 KB/s, cut at 1,000 bytes: %d bytes, %v", len(a.Body), err)
	}
}

// TestHeaderTimeout: a server that sends no headers in time fails the
// request with "did not answer in time"; the error is DeadlineExceeded
// too, which a reading must not take for its own end.
func TestHeaderTimeout(t *testing.T) {
	srv := silentServer(t)
	c := New(Options{AllowPrivate: true, HeaderTimeout: 100 * time.Millisecond})
	_, err := c.Get(context.Background(), srv.URL)
	if err == nil || !strings.Contains(err.Error(), "did not answer in time") {
		t.Errorf("got %v", err)
	}
}

// silentServer is a loopback server that answers nothing until the test
// ends or the request is given up.
func silentServer(t *testing.T) *httptest.Server {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // before Close, which waits for the handler
	return srv
}

// TestTLSInWords: an https address whose server speaks plain HTTP, and
// one whose certificate this machine does not trust, fail with what
// happened in words, not the TLS package's.
func TestTLSInWords(t *testing.T) {
	plain, c := loopback(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<urlset/>") })
	_, err := c.Get(context.Background(), strings.Replace(plain.URL, "http://", "https://", 1)+"/sitemap.xml")
	const words = "did not answer in HTTPS: if the site is served over plain HTTP, write its address with http://"
	if !errors.Is(err, ErrPlainHTTP) || !strings.HasSuffix(err.Error(), words) {
		t.Errorf("https to a plain HTTP server: %v", err)
	}
	// A server that answers anything but TLS or HTTP.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			io.WriteString(conn, "SSH-2.0-Other\r\n")
			conn.Close()
		}
	}()
	_, err = c.Get(context.Background(), "https://"+ln.Addr().String()+"/sitemap.xml")
	if !errors.Is(err, ErrPlainHTTP) || !strings.HasSuffix(err.Error(), words) {
		t.Errorf("https to a server that speaks something else: %v", err)
	}
	self := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<urlset/>") }))
	t.Cleanup(self.Close)
	_, err = c.Get(context.Background(), self.URL+"/sitemap.xml")
	if err == nil || !strings.Contains(err.Error(), "has an HTTPS certificate that is not valid for it") {
		t.Errorf("a certificate no one vouches for: %v", err)
	}
}

// TestHop: one request, answered as it came: a redirect is not followed
// (its Location is given), a 404 is an answer not an error, HEAD reads no
// body, GET at most maxBody bytes; the guard still refuses a private
// address unless allowed.
func TestHop(t *testing.T) {
	srv, c := loopback(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
		case "/gone":
			w.Header().Set("X-Robots-Tag", "noindex")
			http.NotFound(w, r)
		default:
			io.WriteString(w, strings.Repeat("a", 100))
		}
	})
	ctx := context.Background()
	a, err := c.Hop(ctx, http.MethodGet, srv.URL+"/moved", 10)
	if err != nil || a.Status != 301 || a.Header["location"] != "/new" {
		t.Errorf("a redirect: %+v, %v", a, err)
	}
	if a, err := c.Hop(ctx, http.MethodHead, srv.URL+"/gone", 10); err != nil || a.Status != 404 || a.Header["x-robots-tag"] != "noindex" || len(a.Body) != 0 {
		t.Errorf("a 404 by HEAD: %+v, %v", a, err)
	}
	if a, err := c.Hop(ctx, http.MethodGet, srv.URL+"/page", 10); err != nil || a.Status != 200 || string(a.Body) != "aaaaaaaaaa" {
		t.Errorf("a page, 10 bytes of it: %+v, %v", a, err)
	}
	var refused *RefusedError
	if _, err := New(Options{}).Hop(ctx, http.MethodGet, srv.URL, 10); !errors.As(err, &refused) {
		t.Errorf("a loopback address without AllowPrivate: %v", err)
	}
}

// TestPost: a delivery's body and headers reach the receiver, which may
// not redirect it; a receiver on a private address is refused before
// any connection, unless allowed.
func TestPost(t *testing.T) {
	var got struct {
		body, sig, ua string
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.body, got.sig, got.ua = string(b), r.Header.Get("X-Siteplan-Signature"), r.Header.Get("User-Agent")
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	c := New(Options{AllowPrivate: true})
	code, err := c.Post(context.Background(), srv.URL+"/hook", map[string]string{"X-Siteplan-Signature": "sha256=ab", "Content-Type": "application/json"}, []byte(`{"a":1}`))
	if err != nil || code != 202 || got.body != `{"a":1}` || got.sig != "sha256=ab" || got.ua != UserAgent {
		t.Errorf("post: %d %v %+v", code, err, got)
	}
	if code, err := c.Post(context.Background(), srv.URL+"/moved", nil, nil); err != nil || code != 307 {
		t.Errorf("a redirect is followed: %d %v", code, err)
	}
	f := &fakeNet{names: map[string][]string{"hooks.intranet.example": {"10.0.0.7"}}}
	_, err = f.client(Options{}).Post(context.Background(), "https://hooks.intranet.example/x", nil, []byte("x"))
	var refused *RefusedError
	if !errors.As(err, &refused) || len(f.dials()) != 0 {
		t.Errorf("a private receiver: %v, dialled %v", err, f.dials())
	}
}
