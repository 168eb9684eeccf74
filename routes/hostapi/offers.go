package hostapi

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/routes/httpkit"
)

// mountHostOffers adds what ends an offer on the console: dismiss and
// retry (accept and decline are in import_routes.go).
func mountHostOffers(r chi.Router, h hostGame) {
	r.Delete("/host/api/offers/{id}", h.dismissOffer)
	r.Post("/host/api/offers/{id}/retry", h.retryOffer)
}

func (h hostGame) dismissOffer(w http.ResponseWriter, r *http.Request) {
	if h.cfg.Imports == nil {
		httpkit.WriteMessage(w, http.StatusServiceUnavailable, "import is not available on this server")
		return
	}
	if err := h.cfg.Imports.Dismiss(httpkit.PathParam(r, "id")); err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h hostGame) retryOffer(w http.ResponseWriter, r *http.Request) {
	if h.cfg.Imports == nil {
		httpkit.WriteMessage(w, http.StatusServiceUnavailable, "import is not available on this server")
		return
	}
	o, err := h.cfg.Imports.Retry(httpkit.PathParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, o)
}
