package download

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/vttapp/companion/core"
)

// MsgNotEncoded is the contract's text (4.10) for a URL with a space, a
// tab or a line break in it: it was not percent-encoded.
const MsgNotEncoded = "The URL in the link is not percent-encoded and may be incomplete"

// CheckSourceURL applies the import URL policy (contract 4.6 rule 5) to the
// URL text alone, never resolving a name: https is accepted for any host;
// http only for a host on the local network (see IsLocalHost). The errors
// carry the contract's explanations (rule 7).
func CheckSourceURL(raw string) (*url.URL, error) {
	if strings.ContainsAny(raw, " \t\r\n") {
		return nil, core.Invalidf("%s", MsgNotEncoded)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || !reparses(u) {
		return nil, core.Invalidf("'%s' is not an absolute URL. Only https URLs can be imported from a link.", raw)
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "https":
	case "http":
		if !IsLocalHost(u.Hostname()) {
			return nil, core.Invalidf("Plain http can only be used for a source on the local network, not '%s'.", u.Hostname())
		}
	default:
		return nil, core.Invalidf("Only https URLs can be imported from a link, not '%s'.", scheme)
	}
	if u.Hostname() == "" {
		return nil, core.Invalidf("'%s' names no host. Only https URLs can be imported from a link.", raw)
	}
	if !validPort(u.Port()) {
		return nil, core.Invalidf("'%s' has a port out of range (1 to 65535). Only https URLs can be imported from a link.", raw)
	}
	return u, nil
}

// validPort reports whether a URL's port (without the colon) is none, or
// a number from 1 to 65535. url.Parse takes any digits ("99999"), which
// no connection can use.
func validPort(port string) bool {
	if port == "" {
		return true
	}
	n, err := strconv.ParseUint(port, 10, 16)
	return err == nil && n > 0
}

// reparses reports whether the URL a request would be made for (its
// String form) parses back to the same host. Fetch and the redirect checks
// work on that form, so a URL that does not survive it, such as an IPv6
// zone holding a byte that is not UTF-8, is refused rather than judged on
// one text and requested on another.
func reparses(u *url.URL) bool {
	again, err := url.Parse(u.String())
	return err == nil && again.Hostname() == u.Hostname()
}

// IsLocalHost reports whether a host, as written in a URL (without
// brackets or port), is on the local network as rule 4.6.5 lists it,
// exactly: localhost, 127.0.0.1, an RFC 1918 address, an IPv4 link-local
// address, a .local mDNS name, or an IPv6 loopback (::1), unique-local
// (fc00::/7) or link-local (fe80::/10) address. Other loopback addresses
// (127.0.0.2) and IPv4 addresses written as IPv6 (::ffff:127.0.0.1,
// ::ffff:7f00:1) are not in the list and are refused.
// Only canonical dotted IPv4 counts as an address: decimal or octal forms
// such as 2130706433 or 0177.0.0.1 are names, and names other than
// localhost and *.local are not local whatever they would resolve to.
// A trailing dot is accepted on a name ("localhost.") but not on an
// address: "127.0.0.1." is a name the resolver would look up, so the text
// does not say it is local.
func IsLocalHost(host string) bool {
	if ip, err := netip.ParseAddr(host); err == nil {
		switch {
		case ip.Is4In6():
			return false
		case ip.Is4():
			return ip == ipv4Loopback || ip.IsPrivate() || ip.IsLinkLocalUnicast()
		default:
			return ip.WithZone("") == netip.IPv6Loopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast()
		}
	}
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" {
		return true
	}
	name, ok := strings.CutSuffix(h, ".local")
	return ok && isDNSName(name)
}

// ipv4Loopback is the one IPv4 loopback address rule 4.6.5 names.
var ipv4Loopback = netip.MustParseAddr("127.0.0.1")

// isDNSName reports whether s is one or more dot-separated labels of ASCII
// letters, digits, '-' and '_', none empty or longer than 63 bytes: the
// names an mDNS responder can answer ("..local" or "a..local" are not).
func isDNSName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// IsHTTPS reports whether a URL uses https.
func IsHTTPS(u *url.URL) bool { return strings.EqualFold(u.Scheme, "https") }
