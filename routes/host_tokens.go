package routes

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/wire"
)

// mountHostGame adds the game master's controls of the live game: tokens,
// doors, fog, the player screen, combat and messages (host_*.go). Every
// change is broadcast to players as they may see it, and to the host
// console's socket whole.
func mountHostGame(r chi.Router, cfg Config) {
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
}

type hostGame struct{ cfg Config }

func (h hostGame) fail(w http.ResponseWriter, r *http.Request, err error) {
	writeError(w, r, h.cfg.Log, err)
}

func (h hostGame) reply(w http.ResponseWriter, r *http.Request, status int, v any) {
	writeJSON(w, r, &h.cfg, status, v)
}

// decodeStrict reads a JSON object body into v, refusing unknown keys: a
// misspelt key in a console request is a mistake to report, not to ignore.
func decodeStrict(r *http.Request, v any) error {
	data, err := readBody(r)
	if err != nil {
		return err
	}
	return decodeStrictBytes(data, v)
}

func decodeStrictBytes(data []byte, v any) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || bytes.Equal(data, []byte("null")) {
		return core.Invalidf("empty body: expected a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return bodyError(err)
	}
	if dec.More() {
		return core.Invalidf("expected one JSON object, found more after it")
	}
	return nil
}

// placeToken answers POST /host/api/maps/{mapId}/tokens {entityId |
// reference, x, y, hidden?}: a new token from the entity, shaped by the
// system's token hook.
func (h hostGame) placeToken(w http.ResponseWriter, r *http.Request) {
	var in core.PlaceToken
	if err := decodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	t, err := h.cfg.Service.PlaceToken(r.Context(), pathParam(r, "mapId"), in)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusCreated, t)
}

// patchToken answers PATCH /host/api/tokens/{id}: a merge patch (hidden,
// x, y, locked, name...). Hiding a token takes it off players' maps.
func (h hostGame) patchToken(w http.ResponseWriter, r *http.Request) {
	patch, err := decodePatch(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	t, err := h.cfg.Service.PatchToken(r.Context(), pathParam(r, "id"), patch)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, t)
}

func (h hostGame) deleteToken(w http.ResponseWriter, r *http.Request) {
	if err := h.cfg.Service.DeleteToken(r.Context(), pathParam(r, "id")); err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// updateDoor answers POST /host/api/maps/{mapId}/doors/{wallId} {state}:
// never gated by remote interaction; players' vision is recomputed.
func (h hostGame) updateDoor(w http.ResponseWriter, r *http.Request) {
	var in wire.DoorState
	if err := decodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	los, err := h.cfg.Service.UpdateDoor(r.Context(), core.Door{MapID: pathParam(r, "mapId"), ID: pathParam(r, "wallId"), State: in.State})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, wire.DoorChanged{MapID: pathParam(r, "mapId"), ID: pathParam(r, "wallId"), State: in.State, Sights: los})
}
