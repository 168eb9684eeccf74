package imports

import (
	"net/netip"
	"net/url"
	"strings"

	"github.com/vttapp/companion/core"
)

// CheckSourceURL applies the import URL policy (contract 4.6 rule 5) to the
// URL text alone, never resolving a name: https is accepted for any host;
// http only for a host on the local network (see IsLocalHost). The errors
// carry the contract's explanations (rule 7).
func CheckSourceURL(raw string) (*url.URL, error) {
	if strings.ContainsAny(raw, " \t\r\n") {
		return nil, core.Invalidf("%s", MsgNotEncoded)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
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
	return u, nil
}

// IsLocalHost reports whether a host, as written in a URL (without
// brackets or port), is on the local network: localhost, a loopback,
// RFC 1918, link-local, IPv6 unique-local address, or a .local mDNS name.
// Only canonical dotted IPv4 counts as an address: decimal or octal forms
// such as 2130706433 or 0177.0.0.1 are names, and names other than
// localhost and *.local are not local whatever they would resolve to.
func IsLocalHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "" {
		return false
	}
	if h == "localhost" {
		return true
	}
	if strings.HasSuffix(h, ".local") && len(h) > len(".local") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast()
}

// isHTTPS reports whether a URL uses https.
func isHTTPS(u *url.URL) bool { return strings.EqualFold(u.Scheme, "https") }
