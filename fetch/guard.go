package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
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

// special6 are the IPv6 ranges inside global unicast (2000::/3) that
// are not the public internet, or carry an IPv4 address in a way that
// cannot be judged (Teredo hides its client's).
var special6 = []struct {
	prefix netip.Prefix
	kind   string
}{
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local-use NAT64"},
	{netip.MustParsePrefix("2001::/32"), "Teredo"},
	{netip.MustParsePrefix("2001:2::/48"), "reserved (benchmarking)"},
	{netip.MustParsePrefix("2001:10::/28"), "reserved (ORCHID)"},
	{netip.MustParsePrefix("2001:20::/28"), "reserved (ORCHID)"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("3fff::/20"), "documentation"},
}

// global6 is IPv6's global unicast; outside it only the forms that carry
// an IPv4 address are fetched from, and judged by that address.
var global6 = netip.MustParsePrefix("2000::/3")

// Refused returns the kind of address a, when it is one the guard
// refuses, or "". An IPv4 address inside IPv6 (mapped, compatible,
// translated, NAT64, 6to4) is judged as the IPv4 address it carries;
// any other IPv6 address must be global unicast.
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
	if a.Is6() {
		for _, s := range special6 {
			if s.prefix.Contains(a) {
				return s.kind
			}
		}
		if !global6.Contains(a) {
			return "reserved (not global unicast)" // 100::/64, the discard range, among them
		}
	}
	return ""
}

var (
	nat64      = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4     = netip.MustParsePrefix("2002::/16")
	compatible = netip.MustParsePrefix("::/96")           // IPv4-compatible, deprecated: ::127.0.0.1
	translated = netip.MustParsePrefix("::ffff:0:0:0/96") // SIIT: ::ffff:0:a.b.c.d
)

// embedded returns the IPv4 address a NAT64, 6to4, IPv4-compatible or
// IPv4-translated address carries.
func embedded(a netip.Addr) (netip.Addr, bool) {
	b := a.As16()
	switch {
	case !a.Is6():
		return a, false
	case nat64.Contains(a), translated.Contains(a):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case compatible.Contains(a) && !a.IsUnspecified() && !a.IsLoopback(): // :: and ::1 are themselves
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixTo4.Contains(a):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return a, false
}

// hostAddr parses a host that is an address: an IP address as such, or
// an IPv4 address in any form a browser takes (RFC 3986 leaves them to
// DNS; the WHATWG URL standard does not): 2130706433, 0x7f000001,
// 0177.0.0.1, 127.1. ok is false for a name; err is set for a host that
// ends in a number but is no address.
func hostAddr(host string) (a netip.Addr, ok bool, err error) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return a, true, nil
	}
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if _, numErr := ipv4Number(last); last == "" || numErr != nil && strings.Trim(last, "0123456789") != "" {
		return netip.Addr{}, false, nil // a name: its last label is not a number
	}
	if len(parts) > 4 {
		return netip.Addr{}, false, fmt.Errorf("%s is not an address: more than four numbers", host)
	}
	var v4 uint64
	for i, p := range parts {
		n, err := ipv4Number(p)
		if err != nil {
			return netip.Addr{}, false, fmt.Errorf("%s is not an address: %v", host, err)
		}
		if i < len(parts)-1 {
			if n > 255 {
				return netip.Addr{}, false, fmt.Errorf("%s is not an address: %d is more than 255", host, n)
			}
			v4 |= n << (8 * (3 - i))
		} else {
			if n >= 1<<(8*(5-len(parts))) {
				return netip.Addr{}, false, fmt.Errorf("%s is not an address: %d is too large", host, n)
			}
			v4 |= n
		}
	}
	return netip.AddrFrom4([4]byte{byte(v4 >> 24), byte(v4 >> 16), byte(v4 >> 8), byte(v4)}), true, nil
}

// ipv4Number parses one number of an IPv4 address as browsers do:
// decimal, 0x hexadecimal, or 0 octal.
func ipv4Number(s string) (uint64, error) {
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, nil
		}
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	if s == "" {
		return 0, errors.New("an empty number")
	}
	n, err := strconv.ParseUint(s, base, 32)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return n, nil
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
	if a, ok, err := hostAddr(host); err != nil {
		return nil, err
	} else if ok {
		addrs = []netip.Addr{a}
	} else if addrs, err = c.resolve(ctx, host); err != nil {
		var dns *net.DNSError
		if errors.As(err, &dns) { // the message would name the server's resolver
			quiet := *dns
			quiet.Server = ""
			return nil, &quiet
		}
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
