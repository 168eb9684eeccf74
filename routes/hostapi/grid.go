package hostapi

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/routes/httpkit"
)

// The grid of a map, for the host console: a map made from an image or a
// video waits for it (gridPending) and cannot go on the player screen
// until the game master sets it. The console draws the preview the
// answers carry (core.GridPreview) over the map's background.
func mountHostGrid(r chi.Router, h hostGame) {
	r.Get("/host/api/maps/{id}/grid", h.getGrid)
	r.Post("/host/api/maps/{id}/grid/preview", h.previewGrid)
	r.Put("/host/api/maps/{id}/grid", h.setGrid)
}

// getGrid answers GET /host/api/maps/{id}/grid: the map's grid as it
// stands, with its preview.
func (h hostGame) getGrid(w http.ResponseWriter, r *http.Request) {
	p, err := h.cfg.Service.GridPreview(r.Context(), httpkit.PathParam(r, "id"), nil)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, p)
}

// previewGrid answers POST /host/api/maps/{id}/grid/preview with a
// core.GridChange: the preview of the grid it would make, stored nowhere.
func (h hostGame) previewGrid(w http.ResponseWriter, r *http.Request) {
	var change mapobjects.GridChange
	if err := httpkit.DecodeStrict(r, &change); err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := h.cfg.Service.GridPreview(r.Context(), httpkit.PathParam(r, "id"), &change)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, p)
}

// setGrid answers PUT /host/api/maps/{id}/grid with a core.GridChange:
// the grid is set, the map no longer waits for it, and the answer is its
// preview.
func (h hostGame) setGrid(w http.ResponseWriter, r *http.Request) {
	var change mapobjects.GridChange
	if err := httpkit.DecodeStrict(r, &change); err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := h.cfg.Service.SetGrid(r.Context(), httpkit.PathParam(r, "id"), change)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, p)
}
