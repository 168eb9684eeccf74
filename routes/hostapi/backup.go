package hostapi

import (
	"net/http"
	"path/filepath"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/wire"
)

// mountHostBackup adds the backups of the data folder: make one while the
// game goes on, list those in the data folder's backups/.
func mountHostBackup(r chi.Router, cfg httpkit.Config) {
	h := hostBackup{cfg: cfg}
	r.Get("/host/api/backups", h.list)
	r.Post("/host/api/backups", h.make)
}

type hostBackup struct{ cfg httpkit.Config }

func (h hostBackup) list(w http.ResponseWriter, r *http.Request) {
	if h.cfg.Backups == nil {
		httpkit.WriteMessage(w, http.StatusServiceUnavailable, "backups are not available on this server")
		return
	}
	list, err := h.cfg.Backups.List()
	if err != nil {
		httpkit.WriteError(w, r, h.cfg.Log, err)
		return
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusOK, list)
}

// make answers POST /host/api/backups with an optional {"folder": "/an/absolute/path"}
// (the new folder to write; by default one under the data folder's
// backups/): 201 with the backup made, once it is whole.
func (h hostBackup) make(w http.ResponseWriter, r *http.Request) {
	if h.cfg.Backups == nil {
		httpkit.WriteMessage(w, http.StatusServiceUnavailable, "backups are not available on this server")
		return
	}
	var in wire.BackupRequest
	if data, err := httpkit.ReadBody(r); err != nil {
		httpkit.WriteError(w, r, h.cfg.Log, err)
		return
	} else if len(strings.TrimSpace(string(data))) > 0 {
		if err := httpkit.DecodeStrictBytes(data, &in); err != nil {
			httpkit.WriteError(w, r, h.cfg.Log, err)
			return
		}
	}
	if in.Folder != "" && !filepath.IsAbs(in.Folder) {
		httpkit.WriteError(w, r, h.cfg.Log, core.Invalidf("'folder' must be an absolute path, not '%s'", core.Clip(in.Folder)))
		return
	}
	res, err := h.cfg.Backups.Make(r.Context(), in.Folder, "")
	if err != nil {
		httpkit.WriteError(w, r, h.cfg.Log, err)
		return
	}
	if h.cfg.Log != nil {
		h.cfg.Log.Info("backup written", "path", res.Path, "files", res.Files, "bytes", res.Bytes, "ms", res.DurationMs)
	}
	httpkit.WriteJSON(w, r, h.cfg.Log, http.StatusCreated, res)
}
