package fetch

import (
	"context"
	"net"
	"net/netip"
	"strings"
)

// RefusedError is a connection the guard refused: the host asked for,
// the address it resolved to, what kind of address that is and how the
// operator allows it (Options.Allow).
type RefusedError struct {
	Host  string
	Addr  netip.Addr
	Kind  string
	Allow string
}

func (e *RefusedError) Error() string {
	at := e.Host
	if e.Host != e.Addr.String() {
		at += " resolves to " + e.Addr.String() + ", which"
	}
	return at + " is a " + e.Kind + " address: siteplan does not fetch from inside its own network unless the operator allows it (" + e.Allow + ")"
}

// special are the ranges that are not the public internet, by kind,
// beyond what netip.Addr's own tests name.
var special = []struct {
	prefix netip.Prefix
	kind   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "reserved (this network)"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared (carrier-grade NAT)"}, // Alibaba Cloud's metadata service is in it
	{netip.MustParsePrefix("192.0.0.0/24"), "reserved (IETF protocol)"},
	{netip.MustParsePrefix("198.18.0.0/15"), "reserved (benchmarking)"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
}

// Refused returns the kind of address a, when it is one the guard
// refuses, or "". An IPv4 address inside IPv6 (mapped, NAT64, 6to4) is
// judged as the IPv4 address it carries.
func Refused(a netip.Addr) string {
	a = a.Unmap()
	if v4, ok := embedded(a); ok {
		a = v4
	}
	switch {
	case !a.IsValid():
		return "invalid"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLoopback():
		return "loopback"
	case a.Is4() && a.IsPrivate():
		return "private"
	case a.IsPrivate():
		return "unique-local"
	case a.IsLinkLocalUnicast():
		return "link-local" // 169.254.169.254, the cloud metadata service, is one
	case a.IsMulticast():
		return "multicast"
	case a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "broadcast"
	}
	for _, s := range special {
		if s.prefix.Contains(a) {
			return s.kind
		}
	}
	return ""
}

var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4 = netip.MustParsePrefix("2002::/16")
)

// embedded returns the IPv4 address a NAT64 or 6to4 address carries.
func embedded(a netip.Addr) (netip.Addr, bool) {
	b := a.As16()
	switch {
	case !a.Is6():
		return a, false
	case nat64.Contains(a):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixTo4.Contains(a):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return a, false
}

// dialGuarded resolves the host, leaves out the addresses the guard
// refuses and connects to the first of the others that answers. It is
// the transport's only way out, so redirects pass through it too.
func (c *Client) dialGuarded(ctx context.Context, network, hostport string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		addrs = []netip.Addr{a}
	} else if addrs, err = c.resolve(ctx, host); err != nil {
		return nil, err
	}
	var first error
	for _, a := range addrs {
		if kind := Refused(a); kind != "" && !c.opt.AllowPrivate {
			if first == nil {
				first = &RefusedError{Host: host, Addr: a.Unmap(), Kind: kind, Allow: c.opt.Allow}
			}
			continue
		}
		conn, err := c.dial(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
		if err == nil {
			return conn, nil
		}
		if first == nil || isRefused(first) {
			first = err
		}
	}
	if first == nil {
		first = &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	return nil, first
}

func isRefused(err error) bool {
	_, ok := err.(*RefusedError)
	return ok
}
