package hostapi

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/imports"
	"github.com/vttapp/companion/routes/httpkit"
)

// mountHostExport adds the downloads of a module's or a campaign's
// archive, and the list of campaigns to choose one from.
func mountHostExport(r chi.Router, h hostImport) {
	r.Get("/host/api/campaigns", h.listCampaigns)
	r.Get("/host/api/modules/{id}/export", h.export(imports.KindModule))
	r.Get("/host/api/campaigns/{id}/export", h.export(imports.KindCampaign))
}

func (h hostImport) listCampaigns(w http.ResponseWriter, r *http.Request) {
	list, err := h.cfg.Imports.Campaigns(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, list)
}

// export answers GET /host/api/{modules|campaigns}/{id}/export: the
// archive (docs/content-format.md), streamed as it is written. What the
// content points at and does not carry is named in the Companion-Needs
// header. Once the first byte is sent an error can only cut the download
// short, which leaves a zip without its end: no importer takes it for a
// whole archive.
func (h hostImport) export(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		x, err := h.cfg.Imports.Export(r.Context(), kind, httpkit.PathParam(r, "id"))
		if err != nil {
			h.fail(w, r, err)
			return
		}
		defer x.Close()
		hdr := w.Header()
		hdr.Set("Content-Type", "application/zip")
		hdr.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": x.FileName}))
		hdr.Set("Cache-Control", "no-store")
		hdr.Set("X-Content-Type-Options", "nosniff")
		if len(x.Needs) > 0 {
			hdr.Set("Companion-Needs", asciiJSON(x.Needs))
		}
		w.WriteHeader(http.StatusOK)
		if err := x.WriteZip(r.Context(), w); err != nil {
			if r.Context().Err() == nil && h.cfg.Log != nil {
				h.cfg.Log.Error("export cut short", "kind", kind, "id", x.ID, "error", err)
			}
			panic(http.ErrAbortHandler) // the client sees a broken download, not a short zip
		}
	}
}

// asciiJSON is v as JSON with every character past ASCII escaped, so that
// it fits a header (names of modules may be in any script).
func asciiJSON(v any) string {
	data, _ := json.Marshal(v)
	var b strings.Builder
	for s := string(data); s != ""; {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xFFFF:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
