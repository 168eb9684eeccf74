package routes

import (
	"encoding/json"
	"net"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/routes/httpkit"
)

// mountImport adds POST /api/import to the public router (contract 4.6):
// the request becomes an offer on the host console; only the person at the
// device can accept it.
func mountImport(r chi.Router, cfg Config) {
	r.Post("/api/import", func(w http.ResponseWriter, req *http.Request) {
		if cfg.Service != nil {
			if err := cfg.Service.PlayerAs(httpkit.ActorOf(req)).RefuseSpectator("offer imports"); err != nil {
				writeImportError(w, http.StatusForbidden, core.MessageOf(err))
				return
			}
		}
		if cfg.Imports == nil {
			writeImportError(w, http.StatusServiceUnavailable, "Import is not available on this server")
			return
		}
		src, err := imports.ParseImportRequest(req)
		if err != nil {
			writeImportError(w, http.StatusBadRequest, importMessage(err))
			return
		}
		if _, err := cfg.Imports.OfferFrom(src, clientHost(req)); err != nil {
			writeImportError(w, http.StatusBadRequest, importMessage(err))
			return
		}
		httpkit.WriteRawJSON(w, http.StatusAccepted, []byte(`{"status":"accepted"}`))
	})
}

// importMessage is the explanation of an import refusal; a request never
// reaches an internal failure, but if it did no Go error would leak.
func importMessage(err error) string { return core.MessageOf(err) }

// writeImportError answers an import failure with the one-key body
// {"error": "..."} (contract 4.6 rule 7 and section 7).
func writeImportError(w http.ResponseWriter, status int, text string) {
	body, _ := json.Marshal(map[string]string{"error": text})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// clientHost is the address a request came from, for the offer's "from".
func clientHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
