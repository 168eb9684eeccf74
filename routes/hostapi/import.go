package hostapi

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/imports/download"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/wire"
)

// mountHostImport adds the host console's import, offer, module and map
// routes under /host/api.
func mountHostImport(r chi.Router, cfg httpkit.Config) {
	h := hostImport{cfg: cfg}
	// Full paths on the host router (no sub-router), so that the other
	// host routes can share the /host/api prefix.
	r = r.With(h.available)
	r.Get("/host/api/offers", h.listOffers)
	r.Post("/host/api/offers", h.createOffer)
	r.Get("/host/api/offers/{id}", h.getOffer)
	r.Post("/host/api/offers/{id}/accept", h.acceptOffer)
	r.Post("/host/api/offers/{id}/decline", h.declineOffer)
	r.Post("/host/api/import", h.importNow)
	r.Get("/host/api/imports", h.listRunning)
	r.Get("/host/api/modules", h.listModules)
	r.Post("/host/api/modules/check-updates", h.checkUpdates)
	r.Post("/host/api/modules/{id}/update", h.updateModule)
	r.Delete("/host/api/modules/{id}", h.deleteModule)
	r.Get("/host/api/maps", h.listMaps)
	r.Get("/host/api/maps/{id}", h.getMap)
	mountHostExport(r, h)
}

// hostImport serves the host console's import routes.
type hostImport struct{ cfg httpkit.Config }

// available answers 503 on the import routes when no manager is wired.
func (h hostImport) available(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.cfg.Imports == nil {
			httpkit.WriteMessage(w, http.StatusServiceUnavailable, "import is not available on this server")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (h hostImport) fail(w http.ResponseWriter, r *http.Request, err error) {
	httpkit.WriteError(w, r, h.cfg.Log, err)
}

func (h hostImport) listOffers(w http.ResponseWriter, r *http.Request) {
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, h.cfg.Imports.Offers())
}

func (h hostImport) getOffer(w http.ResponseWriter, r *http.Request) {
	o, err := h.cfg.Imports.Get(chi.URLParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, o)
}

// createOffer takes {"link": "vttapp://..."} (from `companion open`) or
// {"manifest"|"url": ...} and shows it as an offer; {"type": "client",
// "url": ...} offers a web client to install (client_install.go).
//
// A multipart body with a "file" field offers that file (the desktop
// hand-off, `companion launch FILE`): it waits like a link, and is
// installed only once accepted.
func (h hostImport) createOffer(w http.ResponseWriter, r *http.Request) {
	if mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mediaType == "multipart/form-data" {
		h.createFileOffer(w, r)
		return
	}
	var body wire.OfferRequest
	if err := httpkit.DecodeBody(r, &body); err != nil {
		h.fail(w, r, err)
		return
	}
	if body.Type != "" {
		h.createClientOffer(w, r, body.Type, body.URL, body.Link != "" || body.Manifest != "")
		return
	}
	var src imports.Source
	from := "host"
	switch {
	case body.Link != "":
		var err error
		if src, err = imports.ParseLink(body.Link); err != nil {
			h.fail(w, r, err)
			return
		}
		from = "link"
	case body.Manifest != "" && body.URL != "":
		h.fail(w, r, core.Invalidf("%s", imports.MsgBothSources))
		return
	case body.Manifest == "" && body.URL == "":
		h.fail(w, r, core.Invalidf("give a 'link', a 'manifest' or a 'url'"))
		return
	default:
		src = imports.Source{Manifest: body.Manifest, URL: body.URL}
		if _, err := download.CheckSourceURL(src.Target()); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	o, err := h.cfg.Imports.Offer(src, from)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusCreated, o)
}

func (h hostImport) createFileOffer(w http.ResponseWriter, r *http.Request) {
	mr, err := r.MultipartReader()
	if err != nil {
		h.fail(w, r, core.Invalidf("malformed multipart body: %v", err))
		return
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			h.fail(w, r, core.Invalidf("the multipart body has no 'file' field"))
			return
		}
		if err != nil {
			h.fail(w, r, httpkit.BodyError(err))
			return
		}
		if part.FormName() == "file" {
			o, err := h.cfg.Imports.OfferFile(part, part.FileName())
			if err != nil {
				h.fail(w, r, err)
				return
			}
			httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusCreated, o)
			return
		}
		part.Close()
	}
}

func (h hostImport) acceptOffer(w http.ResponseWriter, r *http.Request) {
	var body wire.OfferAcceptance
	data, err := httpkit.ReadBody(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if len(strings.TrimSpace(string(data))) > 0 {
		if err := json.Unmarshal(data, &body); err != nil {
			h.fail(w, r, core.Invalidf("the body must be a JSON object such as {\"destination\": \"<module or campaign id>\"}"))
			return
		}
	}
	o, err := h.cfg.Imports.Accept(chi.URLParam(r, "id"), body.Destination)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusAccepted, o)
}

func (h hostImport) declineOffer(w http.ResponseWriter, r *http.Request) {
	o, err := h.cfg.Imports.Decline(chi.URLParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, o)
}

// importNow installs a file uploaded as multipart field "file" or the
// source of a JSON body {"url": ..., "destination": ...}, without an offer:
// the person at the device asked for it. It answers {"kind","id","name"}.
func (h hostImport) importNow(w http.ResponseWriter, r *http.Request) {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var res imports.Result
	var err error
	if mediaType == "multipart/form-data" {
		res, err = h.importUpload(r)
	} else {
		var body wire.ImportRequest
		if err = httpkit.DecodeBody(r, &body); err == nil {
			if strings.TrimSpace(body.URL) == "" {
				err = core.Invalidf("give a file as multipart field 'file', or a JSON body {\"url\": \"https://...\"}")
			} else {
				res, err = h.cfg.Imports.ImportURL(r.Context(), body.URL, body.Destination, nil)
			}
		}
	}
	if err != nil {
		if core.KindOf(err) != core.KindInternal && h.cfg.Log != nil { // internal errors are logged by httpkit.WriteError
			h.cfg.Log.Warn("import failed", "reason", core.MessageOf(err))
		}
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusCreated, res)
}

// importUpload streams the "file" part to the installer; a "destination"
// field (before the file) or query parameter files a collection or map.
func (h hostImport) importUpload(r *http.Request) (imports.Result, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return imports.Result{}, core.Invalidf("malformed multipart body: %v", err)
	}
	destination := r.URL.Query().Get("destination")
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return imports.Result{}, core.Invalidf("the multipart body has no 'file' field")
		}
		if err != nil {
			return imports.Result{}, httpkit.BodyError(err)
		}
		switch part.FormName() {
		case "destination":
			value, err := io.ReadAll(io.LimitReader(part, 1024))
			if err != nil {
				return imports.Result{}, httpkit.BodyError(err)
			}
			destination = strings.TrimSpace(string(value))
		case "file":
			return h.cfg.Imports.ImportFile(r.Context(), part, part.FileName(), destination)
		}
		part.Close()
	}
}

// listRunning lists the direct imports still running (uploads, URLs the
// console gave), with the progress of a long install (a compendium of
// thousands of entries): the console polls it while it waits for
// POST /host/api/import.
func (h hostImport) listRunning(w http.ResponseWriter, r *http.Request) {
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, h.cfg.Imports.Running())
}

func (h hostImport) listModules(w http.ResponseWriter, r *http.Request) {
	list, err := h.cfg.Imports.Modules(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, list)
}

func (h hostImport) checkUpdates(w http.ResponseWriter, r *http.Request) {
	list, err := h.cfg.Imports.CheckUpdates(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, list)
}

func (h hostImport) updateModule(w http.ResponseWriter, r *http.Request) {
	res, err := h.cfg.Imports.UpdateModule(r.Context(), chi.URLParam(r, "id"), nil)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, res)
}

func (h hostImport) deleteModule(w http.ResponseWriter, r *http.Request) {
	if err := h.cfg.Imports.DeleteModule(r.Context(), chi.URLParam(r, "id")); err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h hostImport) listMaps(w http.ResponseWriter, r *http.Request) {
	list, err := h.cfg.Imports.Maps(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, list)
}

func (h hostImport) getMap(w http.ResponseWriter, r *http.Request) {
	m, err := h.cfg.Imports.Map(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, m)
}
