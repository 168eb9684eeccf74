package hostapi

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/gorilla/websocket"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/hub"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/wire"
)

// mountHostLive adds the host console's view of the live game: the
// connected clients with their viewports, and the host's veto of a drag in
// progress. Both need the hub; without one they are not mounted.
func mountHostLive(r chi.Router, cfg httpkit.Config) {
	if cfg.Hub == nil {
		return
	}
	r.Get("/host/ws", cfg.Hub.ServeHost)
	r.Get("/host/api/clients", func(w http.ResponseWriter, r *http.Request) {
		hostSettingsReply(w, http.StatusOK, cfg.Hub.HostClients()) // with each one's role and seat
	})
	// The host refuses a drag: every client snaps the token back to its
	// committed position (tokenMoved, state block). A mark's live move
	// (moveMapObject) is stopped the same way, by the mark's id: it goes
	// back where it is stored (its kind's Moved event, state cancel).
	r.Post("/host/api/drags/{tokenId}/block", func(w http.ResponseWriter, r *http.Request) {
		id := httpkit.PathParam(r, "tokenId")
		if _, err := cfg.Service.Token(r.Context(), id); err != nil {
			// Not a token: a mark someone moves now, or the token's 404.
			if blocked, markErr := cfg.Service.VetoMarkMove(r.Context(), id); markErr != nil || blocked {
				if markErr != nil {
					hostSettingsError(w, markErr)
					return
				}
				hostSettingsReply(w, http.StatusOK, wire.DragBlocked{Blocked: true})
				return
			}
			hostSettingsError(w, err)
			return
		}
		blocked, err := cfg.Service.Drags().Veto(r.Context(), id)
		if err != nil {
			hostSettingsError(w, core.Internal(err))
			return
		}
		hostSettingsReply(w, http.StatusOK, wire.DragBlocked{Blocked: blocked})
	})
}

// SocketFirst hands an upgrade of /host/ws to the hub, behind the host
// guard, before the middleware that wraps the response (gzip) sees it.
func SocketFirst(h *hub.Hub, next http.Handler) http.Handler {
	if h == nil {
		return next
	}
	socket := ConsoleGuard(http.HandlerFunc(h.ServeHost))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/host/ws" && websocket.IsWebSocketUpgrade(r) {
			socket.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
