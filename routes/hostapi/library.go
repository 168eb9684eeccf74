package hostapi

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/wire"
)

// mountHostLibrary adds the console's library: the modules' and
// campaigns' trees of groups, pages, maps, encounters and assets; a page
// read for the game master, shown to players (whole or a section) or
// hidden again, its map put on the player screen; an encounter read and
// run (its tokens on a map and its creatures in combat, in one step).
func mountHostLibrary(r chi.Router, cfg httpkit.Config) {
	h := hostGame{cfg: cfg}
	r.Get("/host/api/library", h.libraries)
	r.Get("/host/api/library/{owner}", h.library)
	r.Get("/host/api/pages/{id}", h.page)
	r.Post("/host/api/pages/{id}/show", h.showPage)
	r.Delete("/host/api/pages/{id}/show", h.hidePage)
	r.Post("/host/api/pages/{id}/map", h.showPageMap)
	r.Get("/host/api/encounters/{id}", h.encounter)
	r.Post("/host/api/encounters/{id}/run", h.runEncounter)
	r.Get("/host/api/journal", h.journal)
	r.Post("/host/api/journal/{id}/revoke", h.revokeJournal)
	r.Post("/host/api/journal/{id}/show", h.showJournal)
}

// journal answers GET /host/api/journal: every entry of the handout
// journal, those taken back included (core's journal.go).
func (h hostGame) journal(w http.ResponseWriter, r *http.Request) {
	j, err := h.cfg.Service.HostJournal(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, j)
}

// revokeJournal takes an entry back from players' journals.
func (h hostGame) revokeJournal(w http.ResponseWriter, r *http.Request) {
	e, err := h.cfg.Service.RevokeJournal(r.Context(), httpkit.PathParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, e)
}

// showJournal shows an entry again, on the player screen and in players'
// journals.
func (h hostGame) showJournal(w http.ResponseWriter, r *http.Request) {
	e, err := h.cfg.Service.ShowJournal(r.Context(), httpkit.PathParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, e)
}

func (h hostGame) libraries(w http.ResponseWriter, r *http.Request) {
	list, err := h.cfg.Service.Libraries(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if list == nil {
		list = []core.LibrarySummary{}
	}
	h.reply(w, r, http.StatusOK, list)
}

func (h hostGame) library(w http.ResponseWriter, r *http.Request) {
	lib, err := h.cfg.Service.Library(r.Context(), httpkit.PathParam(r, "owner"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, lib)
}

func (h hostGame) page(w http.ResponseWriter, r *http.Request) {
	v, err := h.cfg.Service.PageView(r.Context(), httpkit.PathParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, v)
}

// showPage answers POST /host/api/pages/{id}/show {"section"?, "overlay"?}.
func (h hostGame) showPage(w http.ResponseWriter, r *http.Request) {
	var in core.ShowPage
	if err := httpkit.DecodeOptional(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	out, err := h.cfg.Service.ShowPage(r.Context(), httpkit.PathParam(r, "id"), in)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, out)
}

func (h hostGame) hidePage(w http.ResponseWriter, r *http.Request) {
	out, err := h.cfg.Service.HidePage(r.Context(), httpkit.PathParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, out)
}

// showPageMap answers POST /host/api/pages/{id}/map {"mapId"?}.
func (h hostGame) showPageMap(w http.ResponseWriter, r *http.Request) {
	var in wire.MapChoice
	if err := httpkit.DecodeOptional(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	h.screenReply(w, r)(h.cfg.Service.ShowPageMap(r.Context(), httpkit.PathParam(r, "id"), in.MapID))
}

func (h hostGame) encounter(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	e, err := h.cfg.Service.Encounter(ctx, httpkit.PathParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	out := wire.EncounterView{Encounter: e, Combatants: []wire.EncounterCreatureView{}}
	for _, c := range e.Combatants {
		v := wire.EncounterCreatureView{EncounterCreature: c}
		var found *core.Entity
		if c.EntityID != "" {
			found, _ = h.cfg.Service.Entity(ctx, "", c.EntityID)
		}
		if kind, slug, ok := core.SplitReference(c.Reference); found == nil && ok {
			found, _ = h.cfg.Service.EntityByReference(ctx, kind, slug)
		}
		if found != nil {
			v.Resolved = found.ID
		} else {
			v.Missing = c.Reference != "" || c.EntityID != ""
		}
		out.Combatants = append(out.Combatants, v)
	}
	h.reply(w, r, http.StatusOK, out)
}

// runEncounter answers POST /host/api/encounters/{id}/run {"mapId"?, "x"?,
// "y"?, "hidden"?, "combat"?} with what it made (201).
func (h hostGame) runEncounter(w http.ResponseWriter, r *http.Request) {
	var in core.RunEncounter
	if err := httpkit.DecodeOptional(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	out, err := h.cfg.Service.RunEncounter(r.Context(), httpkit.PathParam(r, "id"), in)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusCreated, out)
}
