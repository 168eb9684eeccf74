package hostapi

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/wire"
)

// mountHostCombat adds the game master's combat controls under
// /host/api/combatants (start, next, previous and end stay under
// /host/api/game).
func mountHostCombat(r chi.Router, h hostGame) {
	r.Post("/host/api/combatants", h.addCombatants)
	r.Post("/host/api/combatants/initiative", h.rollInitiative)
	r.Put("/host/api/combatants/{id}/initiative", h.setInitiative)
	r.Post("/host/api/combatants/{id}/hitpoints", h.changeHitPoints)
	r.Post("/host/api/combatants/{id}/effects", h.addEffect)
	r.Delete("/host/api/combatants/{id}/effects/{effectId}", h.removeEffect)
	r.Patch("/host/api/combatants/{id}", h.patchCombatant)
	r.Delete("/host/api/combatants/{id}", h.deleteCombatant)
}

// addCombatants answers POST /host/api/combatants {"combatants": [{tokenId
// | entityId, name?, hidden?}]} (or one such object) with the combatants
// added (201).
func (h hostGame) addCombatants(w http.ResponseWriter, r *http.Request) {
	var in wire.NewCombatants
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	list := in.Combatants
	if in.NewCombatant != (core.NewCombatant{}) {
		if len(list) > 0 {
			h.fail(w, r, core.Invalidf(`give one combatant or "combatants": [...], not both`))
			return
		}
		list = []core.NewCombatant{in.NewCombatant}
	}
	out, err := h.cfg.Service.AddCombatants(r.Context(), list)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusCreated, out)
}

// rollInitiative answers POST /host/api/combatants/initiative
// {"combatants"?: [ids]}: every combatant when none is named.
func (h hostGame) rollInitiative(w http.ResponseWriter, r *http.Request) {
	var in wire.CombatantChoice
	if err := httpkit.DecodeOptional(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	if _, err := h.cfg.Service.RollInitiative(r.Context(), in.Combatants); err != nil {
		h.fail(w, r, err)
		return
	}
	h.campaignGame(w, r)
}

// campaignGame answers the game with every combatant and its turn order.
func (h hostGame) campaignGame(w http.ResponseWriter, r *http.Request) {
	view, err := h.cfg.Service.HostCampaign(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, wire.GameControl{Game: view.Game, TurnOrder: view.TurnOrder})
}

func (h hostGame) setInitiative(w http.ResponseWriter, r *http.Request) {
	var in wire.InitiativeValue
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	h.combatantReply(w, r)(h.cfg.Service.SetInitiative(r.Context(), httpkit.PathParam(r, "id"), in.Value))
}

func (h hostGame) changeHitPoints(w http.ResponseWriter, r *http.Request) {
	var in core.HitPointChange
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	h.combatantReply(w, r)(h.cfg.Service.ChangeHitPoints(r.Context(), httpkit.PathParam(r, "id"), in))
}

func (h hostGame) addEffect(w http.ResponseWriter, r *http.Request) {
	var in core.StatusEffect
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	h.combatantReply(w, r)(h.cfg.Service.AddEffect(r.Context(), httpkit.PathParam(r, "id"), in))
}

func (h hostGame) removeEffect(w http.ResponseWriter, r *http.Request) {
	h.combatantReply(w, r)(h.cfg.Service.RemoveEffect(r.Context(), httpkit.PathParam(r, "id"), httpkit.PathParam(r, "effectId")))
}

// patchCombatant answers PATCH /host/api/combatants/{id}: a merge patch
// (hidden, name, notes...), as PATCH /api/combatants/{id} but with the
// host's reply (hidden combatants whole) and gameUpdated.
func (h hostGame) patchCombatant(w http.ResponseWriter, r *http.Request) {
	patch, err := httpkit.DecodePatch(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.combatantReply(w, r)(h.cfg.Service.PatchCombatantInGame(r.Context(), httpkit.PathParam(r, "id"), patch))
}

func (h hostGame) deleteCombatant(w http.ResponseWriter, r *http.Request) {
	if err := h.cfg.Service.DeleteCombatant(r.Context(), httpkit.PathParam(r, "id")); err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// combatantReply answers a changed combatant, or the error.
func (h hostGame) combatantReply(w http.ResponseWriter, r *http.Request) func(*core.Combatant, error) {
	return func(c *core.Combatant, err error) {
		if err != nil {
			h.fail(w, r, err)
			return
		}
		h.reply(w, r, http.StatusOK, c)
	}
}
