package hostapi

import (
	"errors"
	"io"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/guard"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/routes/httpkit"
)

// mountHostClient adds the host console's web client routes: the
// installed client, an install from an uploaded zip, and its removal.
// An install from a URL is an offer of type "client" (POST
// /host/api/offers), confirmed like every import.
func mountHostClient(r chi.Router, cfg httpkit.Config) {
	h := hostImport{cfg: cfg}
	r = r.With(h.available)
	r.Get("/host/api/client", h.getClient)
	r.Post("/host/api/client", h.installClient)
	r.Delete("/host/api/client", h.removeClient)
}

func (h hostImport) getClient(w http.ResponseWriter, r *http.Request) {
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, h.cfg.Imports.ClientFolder().Info())
}

// installClient installs the zip uploaded as multipart field "file" and
// answers the installed client (201).
func (h hostImport) installClient(w http.ResponseWriter, r *http.Request) {
	if !guard.IsMultipart(r) {
		h.fail(w, r, core.Invalidf(`upload the client's zip as multipart field 'file'; to install from a URL, offer it: POST /host/api/offers {"type": "client", "url": "https://..."}`))
		return
	}
	info, err := h.clientUpload(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusCreated, info)
}

func (h hostImport) clientUpload(r *http.Request) (imports.ClientInfo, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return imports.ClientInfo{}, core.Invalidf("malformed multipart body: %v", err)
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return imports.ClientInfo{}, core.Invalidf("the multipart body has no 'file' field")
		}
		if err != nil {
			return imports.ClientInfo{}, httpkit.BodyError(err)
		}
		if part.FormName() == "file" {
			return h.cfg.Imports.InstallClientFile(r.Context(), part)
		}
		part.Close()
	}
}

// removeClient removes the installed client (the built-in one is served
// again) and answers the client now served.
func (h hostImport) removeClient(w http.ResponseWriter, r *http.Request) {
	if err := h.cfg.Imports.RemoveClient(); err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, h.cfg.Imports.ClientFolder().Info())
}

// createClientOffer answers POST /host/api/offers {"type": "client", "url":
// ...}: a web client archive offered for download, shown and accepted on the
// host console like any import.
func (h hostImport) createClientOffer(w http.ResponseWriter, r *http.Request, offerType, url string, otherSource bool) {
	switch {
	case offerType != imports.KindClient:
		h.fail(w, r, core.Invalidf("unknown offer type '%s'; the only type is 'client' (a web client), or none for content", offerType))
		return
	case otherSource || url == "":
		h.fail(w, r, core.Invalidf("a web client offer takes a 'url' of its zip archive, and no 'link' or 'manifest'"))
		return
	}
	o, err := h.cfg.Imports.OfferClient(url, "host")
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusCreated, o)
}
