package routes

import (
	"net/http"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/routes/httpkit"
)

// Combatants (contract 4.3): no listing; PUT keeps the id rule of entities.
// This is the public listener: a hidden combatant does not exist
// (engine.PlayerAccess) and the answer is the combatant as players see it
// (core.CombatantForPlayers: without notes, and a foe without its data).

func (s *server) getCombatant(w http.ResponseWriter, r *http.Request) {
	c, err := s.cfg.Service.Players().Combatant(r.Context(), httpkit.PathParam(r, "id"))
	s.answer(w, r, redact.CombatantForPlayers(c), err)
}

func (s *server) putCombatant(w http.ResponseWriter, r *http.Request) {
	var c core.Combatant
	if err := httpkit.DecodeBody(r, &c); err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	out, err := s.cfg.Service.PlayerAs(httpkit.ActorOf(r)).PutCombatant(r.Context(), httpkit.PathParam(r, "id"), &c)
	s.answer(w, r, redact.CombatantForPlayers(out), err)
}

func (s *server) patchCombatant(w http.ResponseWriter, r *http.Request) {
	patch, err := httpkit.DecodePatch(r)
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	out, err := s.cfg.Service.PlayerAs(httpkit.ActorOf(r)).PatchCombatant(r.Context(), httpkit.PathParam(r, "id"), patch)
	s.answer(w, r, redact.CombatantForPlayers(out), err)
}

// Tokens (contract 4.4): PUT takes the body's id (the body wins); writes
// do not animate. The answer is the token as players see it
// (core.TokenForPlayers: a combatant stored with it stripped).

func (s *server) getToken(w http.ResponseWriter, r *http.Request) {
	t, err := s.cfg.Service.PlayerAs(httpkit.ActorOf(r)).Token(r.Context(), httpkit.PathParam(r, "id"))
	s.answer(w, r, redact.TokenForPlayers(t), err)
}

func (s *server) putToken(w http.ResponseWriter, r *http.Request) {
	var t core.Token
	if err := httpkit.DecodeBody(r, &t); err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	out, err := s.cfg.Service.PlayerAs(httpkit.ActorOf(r)).PutToken(r.Context(), httpkit.PathParam(r, "id"), &t)
	s.answer(w, r, redact.TokenForPlayers(out), err)
}

func (s *server) patchToken(w http.ResponseWriter, r *http.Request) {
	patch, err := httpkit.DecodePatch(r)
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	out, err := s.cfg.Service.PlayerAs(httpkit.ActorOf(r)).PatchToken(r.Context(), httpkit.PathParam(r, "id"), patch)
	s.answer(w, r, redact.TokenForPlayers(out), err)
}

// answer writes v as JSON, or err.
func (s *server) answer(w http.ResponseWriter, r *http.Request, v any, err error) {
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	httpkit.WriteJSON(w, r, s.cfg.Log, http.StatusOK, v)
}
