package site

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// MaxURLLen is the longest URL the sitemaps protocol accepts.
const MaxURLLen = 2048

// NormalizeURL turns an absolute http(s) URL or IRI into the form siteplan
// exports: lower-case scheme and host, IDN host in punycode, non-ASCII and
// disallowed characters percent-encoded as UTF-8, valid %XX kept (upper-cased),
// stray % encoded as %25, fragment and default port dropped, and "/" for an
// empty path. It returns EInvalid when raw is not such a URL.
func NormalizeURL(raw string) (string, error) {
	var n URLNormalizer
	return n.Normalize(raw)
}

// URLNormalizer normalises URLs as NormalizeURL does, remembering the
// last host it normalised: the URLs of a sitemap share one, and mapping
// a host (IDNA) was a third of normalising a URL. Its zero value is
// ready to use; it is not safe for concurrent use.
type URLNormalizer struct {
	scheme, authority string // as written in the last URL normalised
	host              string // its normalised host and port
}

// Normalize is NormalizeURL. It returns EInvalid.
func (n *URLNormalizer) Normalize(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if !utf8.ValidString(raw) {
		return "", Errorf(EInvalid, "URL %q is not valid UTF-8 text.", clip(strings.ToValidUTF8(raw, "\uFFFD")))
	}
	i := strings.Index(raw, "://")
	if i <= 0 {
		return "", Errorf(EInvalid, "URL %q must be absolute and start with http:// or https://.", clip(raw))
	}
	scheme := strings.ToLower(raw[:i])
	if scheme != "http" && scheme != "https" {
		return "", Errorf(EInvalid, "URL %q must start with http:// or https://.", clip(raw))
	}
	rest := raw[i+3:]
	if j := strings.IndexByte(rest, '#'); j >= 0 {
		rest = rest[:j]
	}
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	if authority := rest[:end]; authority != n.authority || scheme != n.scheme { // a zero scheme is never the URL's
		host, err := normalizeHost(scheme, authority)
		if err != nil {
			return "", err
		}
		n.scheme, n.authority, n.host = scheme, authority, host
	}
	host := n.host
	rest = rest[end:]
	path, query, hasQuery := strings.Cut(rest, "?")
	var b strings.Builder
	b.Grow(len(raw) + 16)
	b.WriteString(scheme)
	b.WriteString("://")
	b.WriteString(host)
	if path == "" {
		b.WriteByte('/')
	} else {
		encode(&b, path, pathChar)
	}
	if hasQuery && query != "" {
		b.WriteByte('?')
		encode(&b, query, queryChar)
	}
	return b.String(), nil
}

// WithScheme gives what a person typed as a site's address the https
// scheme when it has none and starts with a domain (example.com,
// www.example.com/de/), as browsers' address bars do; anything else
// comes back as it was, for NormalizeURL to accept or refuse. Documents
// and the command line's URLs are not helped this way: they say what
// they mean.
func WithScheme(typed string) string {
	s := strings.TrimSpace(typed)
	if s == "" || strings.Contains(s, "://") || strings.ContainsAny(s, " \\") {
		return typed
	}
	host, _, _ := strings.Cut(s, "/")
	if !strings.Contains(host, ".") || strings.HasPrefix(host, ".") {
		return typed
	}
	return "https://" + s
}

// NormalizeBaseURL normalises a project's base URL and makes its path a
// directory (ending in "/"), refusing queries. It returns EInvalid.
func NormalizeBaseURL(raw string) (string, error) {
	if strings.TrimSpace(raw) == "" {
		return "", Errorf(EInvalid, "Base URL is required, for example https://www.example.com/.")
	}
	u, err := NormalizeURL(raw)
	if err != nil {
		return "", err
	}
	if strings.Contains(u, "?") {
		return "", Errorf(EInvalid, "Base URL %q cannot have a query.", clip(raw))
	}
	if !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u, nil
}

func normalizeHost(scheme, authority string) (string, error) {
	if strings.Contains(authority, "@") {
		return "", Errorf(EInvalid, "URL host %q cannot contain a user name or password.", clip(authority))
	}
	host, port := authority, ""
	if strings.HasPrefix(host, "[") { // IPv6 literal
		k := strings.IndexByte(host, ']')
		if k < 0 {
			return "", Errorf(EInvalid, "URL host %q has an unclosed [.", clip(authority))
		}
		host, port = strings.ToLower(authority[:k+1]), strings.TrimPrefix(authority[k+1:], ":")
	} else if k := strings.LastIndexByte(host, ':'); k >= 0 {
		host, port = host[:k], host[k+1:]
	}
	for _, c := range port {
		if c < '0' || c > '9' {
			return "", Errorf(EInvalid, "URL port %q is not a number.", clip(port))
		}
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return "", Errorf(EInvalid, "URL port %q must be a number from 1 to 65535.", clip(port))
		}
		port = strconv.Itoa(n) // 08080 is 8080
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if !strings.HasPrefix(host, "[") {
		h := strings.TrimSuffix(host, ".") // the root's dot of a full name
		if h == "" {
			return "", Errorf(EInvalid, "URL needs a host name, for example https://www.example.com/.")
		}
		ascii, err := idna.Lookup.ToASCII(h)
		if err == nil { // a host that is not stable under the mapping ("xn--") is no name
			var again string
			if again, err = idna.Lookup.ToASCII(ascii); err == nil && (again != ascii || ascii == "") {
				err = errors.New("unstable")
			}
		}
		if err != nil {
			return "", Errorf(EInvalid, "URL host %q is not a valid domain name.", clip(h))
		}
		if strings.HasPrefix(ascii, ".") || strings.HasSuffix(ascii, ".") || strings.Contains(ascii, "..") {
			return "", Errorf(EInvalid, "URL host %q has an empty part between its dots.", clip(h))
		}
		host = ascii
	}
	if port != "" {
		host += ":" + port
	}
	return host, nil
}

// EncodeSegment percent-encodes one path segment (a slug).
func EncodeSegment(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		clean = s[i] != '%' && segmentChar(s[i])
	}
	if clean {
		return s
	}
	var b strings.Builder
	encode(&b, s, segmentChar)
	return b.String()
}

const upperhex = "0123456789ABCDEF"

func encode(b *strings.Builder, s string, allowed func(byte) bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte('%')
			b.WriteByte(upper(s[i+1]))
			b.WriteByte(upper(s[i+2]))
			i += 2
		case c != '%' && allowed(c):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(upperhex[c>>4])
			b.WriteByte(upperhex[c&15])
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'f' {
		return c - 32
	}
	return c
}

// segmentChars marks RFC 3986 pchar without "%" (handled apart).
var segmentChars = func() (set [256]bool) {
	for _, c := range []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@") {
		set[c] = true
	}
	return set
}()

func segmentChar(c byte) bool { return segmentChars[c] }

func pathChar(c byte) bool  { return c == '/' || segmentChar(c) }
func queryChar(c byte) bool { return c == '/' || c == '?' || segmentChar(c) }

// Origin returns scheme://host[:port] of a normalised URL.
func Origin(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	if j := strings.IndexAny(u[i+3:], "/?"); j >= 0 {
		return u[:i+3+j]
	}
	return u
}

// Dir returns the directory of a normalised URL: everything up to and
// including the last "/" of its path.
func Dir(u string) string {
	if q := strings.IndexByte(u, '?'); q >= 0 {
		u = u[:q]
	}
	return u[:strings.LastIndexByte(u, '/')+1]
}

// ScopeProblem says why the normalised URL u cannot be listed in a sitemap
// that lives in directory dir, or "" if it can.
func ScopeProblem(u, dir string) string {
	if len(u) <= MaxURLLen && strings.HasPrefix(u, dir) && strings.Contains(dir, "://") && strings.IndexByte(dir[strings.Index(dir, "://")+3:], '/') >= 0 {
		return "" // dir ends its host with a "/", so the prefix also matches the origin
	}
	switch {
	case len(u) > MaxURLLen:
		return "its URL is longer than 2,048 characters"
	case Origin(u) != Origin(dir):
		return "its URL is on another host (" + Origin(u) + ")"
	case !strings.HasPrefix(u, dir):
		return "its URL is outside the sitemap's directory " + dir
	}
	return ""
}

func clip(s string) string { return Clip(s, 80) }

// Clip shortens s to at most n bytes and "..." for a message, cutting
// no character in two.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n-3], "") + "..."
}
