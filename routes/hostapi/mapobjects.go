package hostapi

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
)

// mountHostMapObjects mounts the one host API of every kind of map object
// (core.MapKinds): {kind} is the map field's name (walls, lights, markers,
// drawings, areaEffects, measurements, tiles). Static paths beside it
// (…/tokens, …/doors, …/grid) keep their own handlers.
func mountHostMapObjects(r chi.Router, h hostGame) {
	r.Get("/host/api/maps/{mapId}/{kind}", h.listMapObjects)
	r.Post("/host/api/maps/{mapId}/{kind}", h.addMapObjects)
	r.Patch("/host/api/maps/{mapId}/{kind}/{objectId}", h.patchMapObject)
	r.Delete("/host/api/maps/{mapId}/{kind}/{objectId}", h.deleteMapObject)
}

func (h hostGame) listMapObjects(w http.ResponseWriter, r *http.Request) {
	list, err := h.cfg.Service.MapObjects(r.Context(), httpkit.PathParam(r, "mapId"), httpkit.PathParam(r, "kind"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, list)
}

// addMapObjects answers POST with one object (201 with it as stored) or a
// list of them (201 with the list), all stored or none.
func (h hostGame) addMapObjects(w http.ResponseWriter, r *http.Request) {
	data, err := httpkit.ReadBody(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	data = bytes.TrimSpace(data)
	var list []core.Object
	one := len(data) > 0 && data[0] == '{'
	if one {
		var o core.Object
		err = httpkit.DecodeStrictBytes(data, &o)
		list = []core.Object{o}
	} else if len(data) > 0 && data[0] == '[' {
		err = json.Unmarshal(data, &list)
		if err != nil {
			err = httpkit.BodyError(err)
		}
	} else {
		err = core.Invalidf("expected a JSON object, or a list of them")
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	out, err := h.cfg.Service.AddMapObjects(r.Context(), httpkit.PathParam(r, "mapId"), httpkit.PathParam(r, "kind"), list)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if one {
		h.reply(w, r, http.StatusCreated, out[0])
		return
	}
	h.reply(w, r, http.StatusCreated, out)
}

// patchMapObject answers PATCH with a JSON merge patch: the object as stored.
func (h hostGame) patchMapObject(w http.ResponseWriter, r *http.Request) {
	var patch core.Object
	if err := httpkit.DecodeStrict(r, &patch); err != nil {
		h.fail(w, r, err)
		return
	}
	o, err := h.cfg.Service.PatchMapObject(r.Context(), httpkit.PathParam(r, "mapId"), httpkit.PathParam(r, "kind"), httpkit.PathParam(r, "objectId"), patch)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, o)
}

func (h hostGame) deleteMapObject(w http.ResponseWriter, r *http.Request) {
	err := h.cfg.Service.DeleteMapObject(r.Context(), httpkit.PathParam(r, "mapId"), httpkit.PathParam(r, "kind"), httpkit.PathParam(r, "objectId"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
