package routes

import (
	"net/http"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/systems"
)

// getSnapshot answers GET /api (contract 4.1): 404 when the loaded system
// has no primary campaign. A request naming a seat reads that seat's
// messages (its whispers among them).
func (s *server) getSnapshot(w http.ResponseWriter, r *http.Request) {
	var sys *systems.System
	if s.cfg.Systems != nil {
		sys = s.cfg.Systems.Current()
	}
	body, err := s.snapshots.body(r.Context(), s.cfg.Service, sys, httpkit.ActorOf(r).Seat)
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	httpkit.WriteRawJSON(w, http.StatusOK, body)
}

// getSystem answers GET /api/system with the system's document and ETag
// (304 to a matching If-None-Match).
func (s *server) getSystem(w http.ResponseWriter, r *http.Request) {
	sys, err := s.system()
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	s.systemDocs.get(sys, func() *cachedBody {
		body, etag := sys.Document()
		return newCachedBody(body, etag, "application/json; charset=utf-8")
	}).serve(w, r)
}

// getClients answers GET /api/clients: the clients connected over
// WebSocket, without their network addresses (the game master's to see,
// on the host console).
func (s *server) getClients(w http.ResponseWriter, r *http.Request) {
	clients := []core.Client{} // a server without a hub has no clients
	if s.cfg.Hub != nil {
		clients = redact.ClientsForPlayers(s.cfg.Hub.Clients()) // never nil: [] when nobody is connected
	}
	httpkit.WriteJSON(w, r, s.cfg.Log, http.StatusOK, clients)
}

// postMessage answers POST /api/messages (contract 4.5): the message is
// stored in the primary campaign with its dice rolled, and returned.
func (s *server) postMessage(w http.ResponseWriter, r *http.Request) {
	data, err := httpkit.ReadBody(r)
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	m, err := core.DecodeMessage(data)
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	out, err := s.cfg.Service.PlayerAs(httpkit.ActorOf(r)).CreateMessage(r.Context(), m)
	s.answer(w, r, out, err)
}
