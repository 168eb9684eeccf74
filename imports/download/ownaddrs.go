package download

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/vttapp/companion/core"
)

// The server never fetches from itself. An offered manifest is fetched
// before anyone accepts it, so without this any client on the network could
// make the server send requests to its own listeners: the host console,
// which trusts loopback, or the public API. The URL policy (rule 4.6.5)
// allows plain http to localhost and to local addresses, and a name can
// point anywhere, so the check is made where the connection is made: a
// destination is refused when its port is one of this server's listener
// ports and its address is this machine's (loopback, unspecified, or an
// address of one of its interfaces), whatever name or form led there,
// redirects included. The URL's text is checked too, for requests that go
// through a proxy (the proxy, not this dialer, then connects).

// ownListeners are the addresses this server listens on.
type ownListeners struct {
	ports map[uint16]bool
}

// newOwnListeners reads the listener addresses ("host:port"); nil when
// there are none.
func newOwnListeners(addrs []net.Addr) *ownListeners {
	o := &ownListeners{ports: map[uint16]bool{}}
	for _, a := range addrs {
		if ap, err := netip.ParseAddrPort(a.String()); err == nil {
			o.ports[ap.Port()] = true
		}
	}
	if len(o.ports) == 0 {
		return nil
	}
	return o
}

// refuses reports whether a connection to ap would reach this server.
func (o *ownListeners) refuses(ap netip.AddrPort) bool {
	if o == nil || !o.ports[ap.Port()] {
		return false
	}
	ip := ap.Addr().Unmap().WithZone("")
	if ip.IsLoopback() || ip.IsUnspecified() {
		return true
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return true // cannot tell: refuse rather than risk it
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if local, ok := netip.AddrFromSlice(n.IP); ok && local.Unmap() == ip {
				return true
			}
		}
	}
	return false
}

func ownAddressError(target string) error {
	return core.Invalidf("%s is this server's own address (its player or host listener); content can only be imported from another server", target)
}

// control is the dialer's hook: it runs with the address about to be
// connected, after any name was resolved.
func (o *ownListeners) control(network, address string, _ syscall.RawConn) error {
	if ap, err := netip.ParseAddrPort(address); err == nil && o.refuses(ap) {
		return ownAddressError(address)
	}
	return nil
}

// checkText refuses a URL whose text already names this server: a local
// address literal or localhost with one of its ports. It is the only check
// when a proxy makes the connection.
func (o *ownListeners) checkText(u *url.URL) error {
	if o == nil {
		return nil
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "localhost" {
		host = "127.0.0.1"
	}
	if ap, err := netip.ParseAddrPort(net.JoinHostPort(host, port)); err == nil && o.refuses(ap) {
		return ownAddressError(u.Redacted())
	}
	return nil
}

// guard returns rt with every connection it makes checked: the default
// transport, and one without a dialer, get a dialer with the hook (the
// default's timeouts); one with a dialer of its own (a test's) has each
// connection checked once made, and closed unused when it reached this
// server.
func (o *ownListeners) guard(rt http.RoundTripper) http.RoundTripper {
	if o == nil {
		return rt
	}
	ownDialer := rt == nil || rt == http.DefaultTransport
	if rt == nil {
		rt = http.DefaultTransport
	}
	t, ok := rt.(*http.Transport)
	if !ok {
		return rt // not ours to change: the text check still applies
	}
	t = t.Clone()
	if ownDialer || t.DialContext == nil {
		d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: o.control}
		t.DialContext = d.DialContext
	} else {
		t.DialContext = o.checkConnected(t.DialContext)
	}
	if t.DialTLSContext != nil {
		t.DialTLSContext = o.checkConnected(t.DialTLSContext)
	}
	return t
}

type dialFunc = func(ctx context.Context, network, addr string) (net.Conn, error)

// checkConnected wraps a dialer of the caller's: each connection is
// checked once made, and closed unused when it reached this server.
func (o *ownListeners) checkConnected(dial dialFunc) dialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if ap, perr := netip.ParseAddrPort(c.RemoteAddr().String()); perr == nil && o.refuses(ap) {
			c.Close()
			return nil, ownAddressError(addr)
		}
		return c, nil
	}
}
