package routes

import (
	"net/http"

	"github.com/vttapp/companion/core"
)

// Hub is the WebSocket hub. TEMPORARY STUB: the WebSocket work replaces this
// file with the real hub (one reader and one writer per connection).
type Hub struct{}

// ServeHTTP upgrades a request to a WebSocket connection.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "websocket not available yet", http.StatusNotImplemented)
}

// Clients lists the connected clients.
func (h *Hub) Clients() []core.Client { return []core.Client{} }

// Close sends a close frame to every client and stops the hub.
func (h *Hub) Close() {}
