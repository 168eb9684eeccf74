package routes

import (
	"net/http"
	"net/url"
	"strings"
)

// checkOrigin lets a WebSocket in when its Origin is absent (not a browser),
// names the server's own host, or is listed in AllowOrigins: a page from
// another site must not drive the table through a player's browser.
func (h *Hub) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host) {
		return true
	}
	for _, allowed := range h.opts.AllowOrigins {
		allowed = strings.TrimSuffix(strings.TrimSpace(allowed), "/")
		switch {
		case allowed == "*",
			strings.EqualFold(allowed, origin),
			err == nil && u.Host != "" && strings.EqualFold(allowed, u.Host):
			return true
		}
	}
	h.log.Warn("websocket refused: Origin is not this server and not allowed (--allow-origin)",
		"origin", origin, "host", r.Host, "remote", r.RemoteAddr)
	return false
}
