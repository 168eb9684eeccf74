package routes

import (
	"context"
	"net/http"
	"sync"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/systems"
)

// getSnapshot answers GET /api (contract 4.1): 404 when the loaded system
// has no primary campaign.
func (s *server) getSnapshot(w http.ResponseWriter, r *http.Request) {
	var sys *systems.System
	if s.cfg.Systems != nil {
		sys = s.cfg.Systems.Current()
	}
	snap, err := s.snapshots.get(r.Context(), s.cfg.Service, sys)
	s.answer(w, r, snap, err)
}

// snapshotCache keeps the stored part of the last snapshot while the
// service's write generation and the loaded system are unchanged (reading
// it costs several queries and decoding every token and message); the live
// part (pause, remote interaction, tracked objects) is read fresh every time.
type snapshotCache struct {
	mu         sync.Mutex
	system     *systems.System
	generation uint64
	snap       *core.Snapshot // shared, never modified
}

func (c *snapshotCache) get(ctx context.Context, svc *core.Service, sys *systems.System) (*core.Snapshot, error) {
	gen := svc.Generation() // before the read: a racing write only makes the entry stale
	c.mu.Lock()
	cached := c.snap
	if c.system != sys || c.generation != gen {
		cached = nil
	}
	c.mu.Unlock()
	if cached == nil {
		snap, err := svc.Snapshot(ctx)
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		c.system, c.generation, c.snap = sys, gen, snap
		c.mu.Unlock()
		cached = snap
	}
	out := *cached
	screen := *cached.Screen
	settings := svc.Live().Settings()
	out.Screen = &screen
	out.Screen.RemoteInteraction = settings.RemoteInteraction
	out.Paused = settings.Paused
	out.TrackedObjects = svc.Live().TrackedObjects()
	return &out, nil
}

// getSystem answers GET /api/system with the system's document and ETag
// (304 to a matching If-None-Match).
func (s *server) getSystem(w http.ResponseWriter, r *http.Request) {
	sys, err := s.system()
	if err != nil {
		writeError(w, r, s.cfg.Log, err)
		return
	}
	s.systemDocs.get(sys, func() *cachedBody {
		body, etag := sys.Document()
		return newCachedBody(body, etag, "application/json; charset=utf-8")
	}).serve(w, r)
}

// getClients answers GET /api/clients: the clients connected over WebSocket.
func (s *server) getClients(w http.ResponseWriter, r *http.Request) {
	clients := []core.Client{}
	if s.cfg.Hub != nil {
		if c := s.cfg.Hub.Clients(); c != nil {
			clients = c
		}
	}
	writeJSON(w, r, &s.cfg, http.StatusOK, clients)
}

// postMessage answers POST /api/messages (contract 4.5): the message is
// stored in the primary campaign with its dice rolled, and returned.
func (s *server) postMessage(w http.ResponseWriter, r *http.Request) {
	data, err := readBody(r)
	if err != nil {
		writeError(w, r, s.cfg.Log, err)
		return
	}
	m, err := core.DecodeMessage(data)
	if err != nil {
		writeError(w, r, s.cfg.Log, err)
		return
	}
	out, err := s.cfg.Service.CreateMessage(r.Context(), m)
	s.answer(w, r, out, err)
}
