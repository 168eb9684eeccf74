package routes

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/core/turns"
	"github.com/vttapp/companion/routes/httpkit"
)

// Seats and a player's own character over HTTP (docs/api.md, "Seats"):
// the same core calls as the WebSocket's takeSeat, getCharacter,
// changeHitPoints... A request names its seat with the header
// X-Companion-Seat (or the cookie a seat link sets): joinkey.go.
func (s *server) mountSeats(r chi.Router) {
	r.Get("/api/seats", s.getSeats)
	r.Post("/api/seats/{id}/take", s.takeSeat)
	r.Get("/api/me", s.getMe)
	r.Get("/api/me/journal", s.getJournal)
	r.Post("/api/me/leave", s.leaveSeat)
	r.Get("/api/me/character", s.getCharacter)
	r.Patch("/api/me/character", s.patchCharacter)
	r.Post("/api/me/hitpoints", s.changeHitPoints)
	r.Post("/api/me/actions/{action}", s.rollAction)
	r.Post("/api/me/initiative", s.rollInitiative)
	r.Post("/api/me/end-turn", s.endTurn)
}

// getSeats answers GET /api/seats: the seat list, names only.
func (s *server) getSeats(w http.ResponseWriter, r *http.Request) {
	list, err := s.cfg.Service.Seats(r.Context())
	s.answer(w, r, list, err)
}

// takeSeat answers POST /api/seats/{id}/take {"player"?}: the seat and its
// seat token, to keep.
func (s *server) takeSeat(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Player string `json:"player"`
	}
	if err := httpkit.DecodeOptional(r, &in); err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	taken, err := s.cfg.Service.TakeSeat(r.Context(), httpkit.ActorOf(r), httpkit.PathParam(r, "id"), in.Player)
	s.answer(w, r, taken, err)
}

// Me is GET /api/me: the requester's role, the seat it holds (null when
// none) and whether the game needs its join key (then the game master has
// taken charge of who plays, and the built-in client offers the seats as
// it joins).
type Me struct {
	Role    string         `json:"role"`
	Seat    *core.SeatView `json:"seat"`
	JoinKey bool           `json:"joinKey"`
}

func (s *server) getMe(w http.ResponseWriter, r *http.Request) {
	who := httpkit.ActorOf(r)
	me := Me{Role: who.Role}
	if me.Role == "" {
		me.Role = core.ClientPlayer
	}
	seat, err := s.cfg.Service.MySeat(r.Context(), who)
	if err != nil && !core.IsNotFound(err) {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	me.Seat = seat
	me.JoinKey = s.cfg.Service.JoinKeyOn(r.Context())
	httpkit.WriteJSON(w, r, s.cfg.Log, http.StatusOK, me)
}

func (s *server) leaveSeat(w http.ResponseWriter, r *http.Request) {
	if err := s.cfg.Service.LeaveSeat(r.Context(), httpkit.ActorOf(r)); err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *server) getCharacter(w http.ResponseWriter, r *http.Request) {
	sheet, err := s.cfg.Service.CharacterSheet(r.Context(), httpkit.ActorOf(r))
	s.answer(w, r, sheet, err)
}

func (s *server) patchCharacter(w http.ResponseWriter, r *http.Request) {
	patch, err := httpkit.DecodePatch(r)
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	out, err := s.cfg.Service.PatchOwnCharacter(r.Context(), httpkit.ActorOf(r), patch)
	s.answer(w, r, out, err)
}

func (s *server) changeHitPoints(w http.ResponseWriter, r *http.Request) {
	var ch core.HitPointChange
	if err := httpkit.DecodeStrict(r, &ch); err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	hp, err := s.cfg.Service.ChangeOwnHitPoints(r.Context(), httpkit.ActorOf(r), ch)
	s.answer(w, r, hp, err)
}

// rollAction answers POST /api/me/actions/{action} {"options"?,
// "follow"?, "private"?}.
func (s *server) rollAction(w http.ResponseWriter, r *http.Request) {
	var req core.ActionRequest
	if err := httpkit.DecodeOptional(r, &req); err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	req.Action = httpkit.PathParam(r, "action")
	out, err := s.cfg.Service.RollAction(r.Context(), httpkit.ActorOf(r), req)
	s.answer(w, r, out, err)
}

func (s *server) rollInitiative(w http.ResponseWriter, r *http.Request) {
	out, err := s.cfg.Service.RollOwnInitiative(r.Context(), httpkit.ActorOf(r))
	s.answer(w, r, out, err)
}

func (s *server) endTurn(w http.ResponseWriter, r *http.Request) {
	var pass turns.TurnPass // optional body: whom the turn goes to, when turns are passed
	if r.ContentLength != 0 {
		data, err := httpkit.ReadBody(r)
		if err != nil {
			httpkit.WriteError(w, r, s.cfg.Log, err)
			return
		}
		if len(bytes.TrimSpace(data)) > 0 && string(bytes.TrimSpace(data)) != "null" {
			if err := json.Unmarshal(data, &pass); err != nil {
				httpkit.WriteError(w, r, s.cfg.Log, httpkit.BodyError(err))
				return
			}
		}
	}
	game, err := s.cfg.Service.EndTurn(r.Context(), httpkit.ActorOf(r), pass.To)
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	httpkit.WriteJSON(w, r, s.cfg.Log, http.StatusOK, redact.GameForPlayers(game))
}

// getJournal answers GET /api/me/journal: the handout journal, what the
// game master showed the table (core's journal.go).
func (s *server) getJournal(w http.ResponseWriter, r *http.Request) {
	j, err := s.cfg.Service.PlayerAs(httpkit.ActorOf(r)).Journal(r.Context())
	s.answer(w, r, j, err)
}
