package hostapi

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/wire"
)

// mountHostGame adds the game master's controls of the live game: tokens,
// doors, fog, the player screen, combat and messages (host_*.go). Every
// change is broadcast to players as they may see it, and to the host
// console's socket whole.
func mountHostGame(r chi.Router, cfg httpkit.Config) {
	h := hostGame{cfg: cfg}
	r.Post("/host/api/maps/{mapId}/tokens", h.placeToken)
	r.Patch("/host/api/tokens/{id}", h.patchToken)
	r.Delete("/host/api/tokens/{id}", h.deleteToken)
	r.Post("/host/api/maps/{mapId}/doors/{wallId}", h.updateDoor)
	mountHostCombat(r, h)
	mountHostMessages(r, h)
	mountHostScreen(r, h)
	mountHostFog(r, h)
	mountHostOffers(r, h)
	mountHostMaps(r, h)
	mountHostGrid(r, h)
	mountHostMapObjects(r, h)
}

type hostGame struct{ cfg httpkit.Config }

func (h hostGame) fail(w http.ResponseWriter, r *http.Request, err error) {
	httpkit.WriteError(w, r, h.cfg.Log, err)
}

func (h hostGame) reply(w http.ResponseWriter, r *http.Request, status int, v any) {
	httpkit.WriteJSON(w, r, h.cfg.Log, status, v)
}

// placeToken answers POST /host/api/maps/{mapId}/tokens {entityId |
// reference, x, y, hidden?}: a new token from the entity, shaped by the
// system's token hook.
func (h hostGame) placeToken(w http.ResponseWriter, r *http.Request) {
	var in core.PlaceToken
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	t, err := h.cfg.Service.PlaceToken(r.Context(), httpkit.PathParam(r, "mapId"), in)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusCreated, t)
}

// patchToken answers PATCH /host/api/tokens/{id}: a merge patch (hidden,
// x, y, locked, name...). Hiding a token takes it off players' maps.
func (h hostGame) patchToken(w http.ResponseWriter, r *http.Request) {
	patch, err := httpkit.DecodePatch(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	t, err := h.cfg.Service.PatchToken(r.Context(), httpkit.PathParam(r, "id"), patch)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, t)
}

func (h hostGame) deleteToken(w http.ResponseWriter, r *http.Request) {
	if err := h.cfg.Service.DeleteToken(r.Context(), httpkit.PathParam(r, "id")); err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// updateDoor answers POST /host/api/maps/{mapId}/doors/{wallId} {state}:
// never gated by remote interaction; players' vision is recomputed.
func (h hostGame) updateDoor(w http.ResponseWriter, r *http.Request) {
	var in wire.DoorState
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	los, err := h.cfg.Service.UpdateDoor(r.Context(), core.Door{MapID: httpkit.PathParam(r, "mapId"), ID: httpkit.PathParam(r, "wallId"), State: in.State})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, wire.DoorChanged{MapID: httpkit.PathParam(r, "mapId"), ID: httpkit.PathParam(r, "wallId"), State: in.State, Sights: los})
}
