package hub

import (
	"log/slog"
	"net/http"
	"net/url"
	"strings"
)

// checkOrigin lets a WebSocket in when its Origin is absent (not a browser),
// names the server's own host, or is listed in AllowOrigins: a page from
// another site must not drive the table through a player's browser.
func (h *Hub) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || OriginAllowed(origin, r.Host, h.opts.AllowOrigins) {
		return true
	}
	h.refusals.write(slog.LevelWarn, "websocket refused: Origin is not this server and not allowed (--allow-origin)",
		"origin", origin, "host", r.Host, "remote", r.RemoteAddr)
	return false
}

// OriginAllowed reports whether a page of origin may act on this server,
// reached as host: its own pages, or a site listed with --allow-origin (an
// origin, a bare host, or "*"). WebSockets and writes (crosssite.go) judge
// alike.
func OriginAllowed(origin, host string, allowed []string) bool {
	u, err := url.Parse(origin)
	if err == nil && u.Host != "" && strings.EqualFold(u.Host, host) {
		return true
	}
	for _, a := range allowed {
		a = strings.TrimSuffix(strings.TrimSpace(a), "/")
		switch {
		case a == "*",
			strings.EqualFold(a, origin),
			err == nil && u.Host != "" && strings.EqualFold(a, u.Host):
			return true
		}
	}
	return false
}
