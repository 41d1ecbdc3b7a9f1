package web

import (
	"net"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"siteplan/site"
)

// Behind a load balancer every visitor's connection comes from the
// balancer: the address the login limiter counts failures by, and the
// scheme that decides whether cookies are Secure, are then in the
// balancer's forwarded headers. They are believed only from the peers the
// operator names (serve --trusted-proxies); from anyone else, and by
// default, they are ignored, so no visitor can choose the address the
// limiter charges.

// ParseProxies reads a list of trusted proxies: CIDR ranges or single
// addresses, separated by commas or spaces ("10.0.0.0/8, 127.0.0.1").
// Errors: EInvalid, naming the entry.
func ParseProxies(list string) ([]*net.IPNet, error) {
	var nets []*net.IPNet
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if !strings.Contains(f, "/") {
			ip := net.ParseIP(f)
			if ip == nil {
				return nil, site.Errorf(site.EInvalid, "Trusted proxy %q is neither an address nor a CIDR range such as 10.0.0.0/8.", f)
			}
			bits := 128
			if ip.To4() != nil {
				ip, bits = ip.To4(), 32
			}
			nets = append(nets, &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)})
			continue
		}
		_, n, err := net.ParseCIDR(f)
		if err != nil {
			return nil, site.Errorf(site.EInvalid, "Trusted proxy %q is neither an address nor a CIDR range such as 10.0.0.0/8.", f)
		}
		nets = append(nets, n)
	}
	return nets, nil
}

// trustProxies believes X-Forwarded-For, read from the right (the first
// address that is not a trusted proxy is the visitor's), and
// X-Forwarded-Proto only on connections from nets. With none, the
// connection's own address and TLS state are used.
func (s *Server) trustProxies(nets []*net.IPNet) {
	trusted := func(r *http.Request) bool {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		ip := net.ParseIP(host)
		if err != nil || ip == nil {
			return false
		}
		for _, n := range nets {
			if n.Contains(ip) {
				return true
			}
		}
		return false
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range nets {
		opts = append(opts, echo.TrustIPRange(n))
	}
	if len(nets) == 0 {
		s.Echo.IPExtractor = echo.ExtractIPDirect()
	} else {
		s.Echo.IPExtractor = echo.ExtractIPFromXFFHeader(opts...)
	}
	s.Echo.SchemeExtractor = func(r *http.Request) string {
		if len(nets) > 0 && trusted(r) {
			// The proxy nearest to this server appends its own view last.
			p := strings.ToLower(strings.TrimSpace(lastField(r.Header.Get(echo.HeaderXForwardedProto))))
			if p == "https" || p == "http" {
				return p
			}
		}
		if r.TLS != nil {
			return "https"
		}
		return "http"
	}
}

// lastField is the last of a header's comma-separated values.
func lastField(v string) string {
	if i := strings.LastIndexByte(v, ','); i >= 0 {
		return v[i+1:]
	}
	return v
}
