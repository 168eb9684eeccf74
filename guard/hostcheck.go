package guard

import (
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"

	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
)

// PublicHosts decides which Host headers the public listener accepts for
// writes and WebSocket upgrades. Players reach the server by its address
// (the banner prints IP URLs), by localhost, or by its mDNS name; a page on
// another site that rebinds its own DNS name to this server's LAN address
// arrives with that site's name as Host (and a matching Origin, so the
// Origin check alone cannot stop it). Reads stay open: they show only what
// players may see.
type PublicHosts struct {
	names map[string]bool // lower-case, without port or trailing dot
}

func NewPublicHosts(extra []string) PublicHosts {
	p := PublicHosts{names: map[string]bool{"localhost": true}}
	if h, err := os.Hostname(); err == nil && h != "" {
		h = strings.ToLower(h)
		p.names[h] = true
		if short, _, found := strings.Cut(h, "."); found {
			p.names[short] = true
		}
	}
	for _, h := range extra {
		if h = normalizeHost(h); h != "" {
			p.names[h] = true
		}
	}
	return p
}

// normalizeHost strips the port, brackets and a trailing dot and folds case.
func normalizeHost(hostport string) string {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	return strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
}

// allowed reports whether a Host header may write: an IP address, a
// configured or own name, or a .local mDNS name.
func (p PublicHosts) allowed(hostport string) bool {
	host := normalizeHost(hostport)
	if host == "" {
		return false
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	return p.names[host] || strings.HasSuffix(host, ".local")
}

// guard refuses writes and WebSocket upgrades whose Host is not allowed.
func (p PublicHosts) Guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			if !websocket.IsWebSocketUpgrade(r) {
				next.ServeHTTP(w, r)
				return
			}
		}
		if !p.allowed(r.Host) {
			WriteMessage(w, http.StatusForbidden, "this server does not answer writes for the host name '"+
				core.Clip(normalizeHost(r.Host))+"'; connect by its address, or start it with --allow-host "+core.Clip(normalizeHost(r.Host)))
			return
		}
		next.ServeHTTP(w, r)
	})
}
