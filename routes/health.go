package routes

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/wire"
)

// Health answers, on both listeners (docs/api.md#health):
//
//	GET /api/-/live   the process answers HTTP (nothing else is touched)
//	GET /api/-/ready  the store answers a read and a game system is loaded
//
// The paths sit where no contract path can be: the contract gives every
// other single-segment path to entity references (GET /{reference}), this
// server gives /{kind}/{slug} to them too, and /api/{collection} takes any
// label a system declares; a label starts with a letter and a kind is
// [a-z][a-z0-9_]*, so neither can be "-".
const (
	healthLivePath  = "/api/-/live"
	healthReadyPath = "/api/-/ready"
)

// healthStoreTimeout bounds the store read of a readiness answer: a store
// that takes longer is not ready.
const healthStoreTimeout = 2 * time.Second

func (s *server) mountHealth(r chi.Router, host bool) {
	answer := wire.Health{Status: "ok", App: "companion"}
	if host {
		answer.Instance = s.cfg.InstanceID
	}
	r.Get(healthLivePath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		httpkit.WriteJSON(w, r, s.cfg.Log, http.StatusOK, answer)
	})
	r.Get(healthReadyPath, s.ready)
}

func (s *server) ready(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if s.cfg.Service == nil {
		httpkit.WriteMessage(w, http.StatusServiceUnavailable, "not ready: no store is wired")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), healthStoreTimeout)
	defer cancel()
	if err := s.cfg.Service.Ping(ctx); err != nil {
		s.cfg.Log.Warn("health: the store does not answer", "err", err)
		httpkit.WriteMessage(w, http.StatusServiceUnavailable, "not ready: the store does not answer")
		return
	}
	sys, err := s.system()
	if err != nil {
		httpkit.WriteMessage(w, http.StatusServiceUnavailable, "not ready: no game system is loaded")
		return
	}
	httpkit.WriteJSON(w, r, s.cfg.Log, http.StatusOK, wire.Health{Status: "ready", App: "companion",
		Version: core.Version, Build: core.Build, System: sys.ID()})
}
