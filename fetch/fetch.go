// Package fetch is the only code in siteplan that talks to other sites:
// an HTTP client for the open web. Every request has a time limit, at
// most five redirects, a cap on the bytes its body may have and a place
// among a few at once; it names siteplan in its User-Agent. Addresses
// that lead into the machine or its network (loopback, private,
// link-local, unique-local and the like, cloud metadata services among
// them) are refused when the connection is made, after the name is
// resolved, so a name that resolves to one, or a redirect to one, is
// refused too, unless the operator allows them.
package fetch

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// UserAgent is what siteplan calls itself on the web.
const UserAgent = "siteplan-sitemap-reader/1.0 (+https://github.com/siteplan/siteplan)"

// MaxRedirects is how many redirects a request follows.
const MaxRedirects = 5

// Options configure a Client. The zero value is a client for the open web
// with the defaults below.
type Options struct {
	// AllowPrivate lets the client connect to loopback, private,
	// link-local and unique-local addresses: for self-hosted intranets
	// and tests, never on a server that strangers may use.
	AllowPrivate bool
	// Allow is how the operator allows them, for the refusal to say
	// (default "--allow-private", the command line's flag).
	Allow string
	// Timeout bounds a whole request, its body read included (default 60 s).
	Timeout time.Duration
	// MaxBytes caps a body as it is read, after any Content-Encoding is
	// undone (default 64 MiB).
	MaxBytes int64
	// Parallel is how many requests may be open at once (default 4).
	Parallel int
	// HeaderTimeout bounds the wait for a response's headers (default 30 s).
	HeaderTimeout time.Duration
	// MinRate is the fewest bytes a second a body must come at, over
	// each RateWindow, or its reading stops (default 1,024 over 15 s, so
	// a server that trickles a byte at a time holds a request for
	// seconds, not for the whole Timeout; -1: no floor).
	MinRate    int64
	RateWindow time.Duration
}

// Client fetches from the open web. It is safe for concurrent use.
type Client struct {
	opt  Options
	http *http.Client
	sem  chan struct{}

	// resolve and dial are the network: tests replace them to check the
	// guard without sending traffic anywhere.
	resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)
}

// New returns a client with opt's limits.
func New(opt Options) *Client {
	if opt.Timeout <= 0 {
		opt.Timeout = 60 * time.Second
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = 64 << 20
	}
	if opt.Parallel <= 0 {
		opt.Parallel = 4
	}
	if opt.Allow == "" {
		opt.Allow = "--allow-private"
	}
	if opt.HeaderTimeout <= 0 {
		opt.HeaderTimeout = 30 * time.Second
	}
	if opt.MinRate == 0 {
		opt.MinRate = 1024
	}
	if opt.RateWindow <= 0 {
		opt.RateWindow = 15 * time.Second
	}
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	c := &Client{
		opt: opt,
		sem: make(chan struct{}, opt.Parallel),
		resolve: func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		},
		dial: d.DialContext,
	}
	c.http = &http.Client{
		Timeout: opt.Timeout,
		Transport: &http.Transport{
			Proxy:                 nil, // a proxy would connect where the guard cannot look
			DialContext:           c.dialGuarded,
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: opt.HeaderTimeout,
			MaxIdleConnsPerHost:   opt.Parallel,
			IdleConnTimeout:       30 * time.Second,
			ForceAttemptHTTP2:     true,
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > MaxRedirects {
				return &Error{URL: via[0].URL.String(), Msg: fmt.Sprintf("more than %d redirects (the last to %s)", MaxRedirects, req.URL)}
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return &Error{URL: via[len(via)-1].URL.String(), Msg: "redirects to " + req.URL.String() + ", which is not an http or https address"}
			}
			return nil
		},
	}
	return c
}

// Response is a fetched page (its status was 2xx): its address after
// redirects and its body. Close the body to free its place for the next
// request.
type Response struct {
	URL  string
	Body io.ReadCloser
}

// Get fetches url. A status other than 2xx is an *Error naming it; so is
// a body longer than the cap, when it is read past it. A refused address
// is a *RefusedError. Get waits for a free place among the client's
// parallel requests, or for ctx.
func (c *Client) Get(ctx context.Context, url string) (*Response, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	ctx, cancel := context.WithCancel(ctx)
	release := func() { cancel(); <-c.sem }
	res, err := c.do(ctx, url)
	if err != nil {
		release()
		return nil, err
	}
	b := &capped{rc: res.Body, left: c.opt.MaxBytes, max: c.opt.MaxBytes, url: url, release: release}
	if c.opt.MinRate > 0 {
		b.watch(c.opt.MinRate, c.opt.RateWindow, cancel)
	}
	return &Response{URL: res.Request.URL.String(), Body: b}, nil
}

// do makes the request and checks its answer is a 2xx.
func (c *Client) do(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, &Error{URL: url, Msg: "is not an address that can be fetched"}
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return nil, &Error{URL: url, Msg: "is not an http or https address"}
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "application/xml, text/xml, text/plain, application/gzip, */*;q=0.5")
	authorize(ctx, req)
	res, err := c.http.Do(req)
	if err != nil {
		return nil, explain(url, err)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		res.Body.Close()
		return nil, &Error{URL: url, Status: res.StatusCode, Msg: "answered " + res.Status}
	}
	return res, nil
}

// explain turns the http package's errors into one that says what
// happened to which address.
func explain(url string, err error) error {
	var refused *RefusedError
	if errors.As(err, &refused) {
		return refused
	}
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &Error{URL: url, Msg: "did not answer in time", Err: err}
	}
	var plain tls.RecordHeaderError
	if errors.As(err, &plain) || errors.Is(err, http.ErrSchemeMismatch) {
		return &Error{URL: url, Msg: "did not answer in HTTPS: if the site is served over plain HTTP, write its address with http://", Err: ErrPlainHTTP}
	}
	var cert *tls.CertificateVerificationError
	if errors.As(err, &cert) {
		return &Error{URL: url, Msg: "has an HTTPS certificate that is not valid for it", Err: err}
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	return &Error{URL: url, Msg: "could not be fetched", Err: err}
}

// Error is a request that failed: the address, the status if there was
// one, and what went wrong.
type Error struct {
	URL    string
	Status int
	Msg    string
	Err    error
}

func (e *Error) Error() string {
	if e.Err != nil && e.Err != ErrTooLarge && e.Err != ErrTooSlow && e.Err != ErrPlainHTTP { // those Msg says in full
		return e.URL + " " + e.Msg + ": " + e.Err.Error()
	}
	return e.URL + " " + e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// ErrPlainHTTP is the error of an https address whose server did not
// answer in TLS (plain HTTP, most often), wrapped in an *Error naming
// the address.
var ErrPlainHTTP = errors.New("plain HTTP")

// ErrTooLarge is what reading a body past the client's cap returns,
// wrapped in an *Error naming the address; ErrTooSlow what reading one
// that came slower than the floor returns.
var (
	ErrTooLarge = errors.New("body too large")
	ErrTooSlow  = errors.New("body too slow")
)

// capped is a body that fails once it is longer than its cap, or comes
// slower than a floor, and frees the request's place when closed.
type capped struct {
	rc        io.ReadCloser
	left, max int64
	url       string
	release   func()

	got   atomic.Int64 // bytes read in this window
	slow  atomic.Int64 // the floor it fell below, once it did
	timer *time.Timer
}

// watch stops the body, with cancel, at the end of the first window in
// which fewer than rate bytes a second came.
func (b *capped) watch(rate int64, window time.Duration, cancel func()) {
	least := max(1, rate*int64(window)/int64(time.Second))
	check := func() {
		if b.got.Swap(0) < least {
			b.slow.Store(rate)
			cancel()
			return
		}
		b.timer.Reset(window)
	}
	b.timer = time.AfterFunc(time.Hour, check)
	b.timer.Reset(window) // after b.timer is set, which check resets
}

func (b *capped) Read(p []byte) (n int, err error) {
	defer func() {
		b.got.Add(int64(n))
		if err != nil && err != io.EOF {
			if rate := b.slow.Load(); rate > 0 {
				err = &Error{URL: b.url, Msg: "sent less than " + strconv.FormatInt(rate, 10) + " bytes a second, and its reading was stopped", Err: ErrTooSlow}
			}
		}
	}()
	if b.left <= 0 {
		// one byte more tells a body of exactly the cap from a longer one
		var one [1]byte
		for {
			n, err := b.rc.Read(one[:])
			if n > 0 {
				return 0, &Error{URL: b.url, Msg: "is larger than " + strconv.FormatInt(b.max, 10) + " bytes", Err: ErrTooLarge}
			}
			if err != nil {
				return 0, err
			}
		}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err = b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *capped) Close() error {
	if b.timer != nil {
		b.timer.Stop()
	}
	if b.release != nil {
		b.release()
		b.release = nil
	}
	return b.rc.Close()
}

// Open fetches url and returns its body and the address it came from
// after redirects: the shape of sitemap.Opener, so a sitemap reading
// fetches through the client. Errors: as Get.
func (c *Client) Open(ctx context.Context, url string) (io.ReadCloser, string, error) {
	res, err := c.Get(ctx, url)
	if err != nil {
		return nil, url, err
	}
	return res.Body, res.URL, nil
}

// Answer is one response as it came, redirects not followed: its status,
// the headers a check reads (lower-case names: location, x-robots-tag,
// content-type, link), and the start of its body.
type Answer struct {
	Status int
	Header map[string]string
	Body   []byte
}

// Hop makes one request (GET, or HEAD) to url and returns the answer as
// it came, whatever its status; a redirect is not followed, so that each
// hop is seen. Of the body it reads at most maxBody bytes. It waits for a
// free place among the client's parallel requests, or for ctx. A refused
// address is a *RefusedError; no answer at all an *Error.
func (c *Client) Hop(ctx context.Context, method, url string, maxBody int64) (Answer, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return Answer{}, ctx.Err()
	}
	defer func() { <-c.sem }()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil || req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return Answer{}, &Error{URL: url, Msg: "is not an http or https address"}
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "text/html, */*;q=0.5")
	authorize(ctx, req)
	hop := *c.http
	hop.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	res, err := hop.Do(req.WithContext(ctx))
	if err != nil {
		return Answer{}, explain(url, err)
	}
	// The body comes at the client's floor rate or is stopped, as a
	// reading's does: a page sent a byte every few seconds holds a place
	// for one window, not the whole time limit.
	body := &capped{rc: res.Body, left: maxBody + 1, max: maxBody + 1, url: url}
	if c.opt.MinRate > 0 {
		body.watch(c.opt.MinRate, c.opt.RateWindow, cancel)
	}
	defer body.Close()
	a := Answer{Status: res.StatusCode, Header: map[string]string{}}
	for _, h := range []string{"Location", "X-Robots-Tag", "Content-Type", "Link"} {
		if v := res.Header.Values(h); len(v) > 0 {
			a.Header[strings.ToLower(h)] = strings.Join(v, ", ")
		}
	}
	if method != http.MethodHead && maxBody > 0 {
		a.Body, err = io.ReadAll(io.LimitReader(body, maxBody))
		if err != nil {
			return a, explain(url, err)
		}
	}
	return a, nil
}

// Post sends body to url with the given headers (a webhook's delivery),
// without following a redirect, and returns the status the receiver
// answered; its body is read (at most 4 KB, for the error it may say)
// and dropped. Errors: those of the connection (private addresses
// refused unless allowed), ctx's.
func (c *Client) Post(ctx context.Context, url string, header map[string]string, body []byte) (int, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	defer func() { <-c.sem }()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil || req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return 0, &Error{URL: url, Msg: "is not an http or https address"}
	}
	req.Header.Set("User-Agent", UserAgent)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	hop := *c.http
	hop.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := hop.Do(req)
	if err != nil {
		return 0, explain(url, err)
	}
	defer res.Body.Close()
	io.Copy(io.Discard, io.LimitReader(res.Body, 4<<10))
	return res.StatusCode, nil
}

// Credentials are a user and password for one site (a staging site
// behind HTTP Basic authentication), sent to that host only.
type Credentials struct {
	Host, User, Password string
}

type credentialsKey struct{}

// WithCredentials returns ctx carrying c: the client's requests to c's
// host, made with that context, send them; a redirect to another host
// does not (net/http drops the header). The zero Credentials are none.
func WithCredentials(ctx context.Context, c Credentials) context.Context {
	if c.Host == "" {
		return ctx
	}
	return context.WithValue(ctx, credentialsKey{}, c)
}

// SplitCredentials takes the user and password out of a URL:
// "https://u:p@staging.example/" is "https://staging.example/" and the
// Credentials for staging.example. A URL without them comes back as it
// is, with none.
func SplitCredentials(raw string) (string, Credentials) {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw, Credentials{}
	}
	pass, _ := u.User.Password()
	c := Credentials{Host: u.Host, User: u.User.Username(), Password: pass}
	u.User = nil
	return u.String(), c
}

// authorize adds the context's credentials to a request to their host.
func authorize(ctx context.Context, req *http.Request) {
	if c, ok := ctx.Value(credentialsKey{}).(Credentials); ok && strings.EqualFold(req.URL.Host, c.Host) {
		req.SetBasicAuth(c.User, c.Password)
	}
}

// Reason says in a few words why the request could not be made, naming
// the host and not the address it resolved to: "staging.example does
// not resolve", "staging.example refused the connection".
func (e *Error) Reason() string {
	host := e.URL
	if u, err := url.Parse(e.URL); err == nil && u.Host != "" {
		host = u.Host
	}
	var dns *net.DNSError
	switch {
	case errors.As(e.Err, &dns):
		return host + " does not resolve"
	case errors.Is(e.Err, syscall.ECONNREFUSED):
		return host + " refused the connection"
	case errors.Is(e.Err, syscall.ECONNRESET):
		return host + " closed the connection"
	case e.Err == nil, e.Err == ErrTooLarge, e.Err == ErrTooSlow, e.Err == ErrPlainHTTP, e.Msg != "could not be fetched":
		return e.URL + " " + e.Msg
	}
	return host + " could not be reached"
}

// Reason is the refusal in words (Error), naming the flag that allows
// the address.
func (e *RefusedError) Reason() string { return e.Error() }
