package hostapi

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/fog"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/wire"
)

// Fog masks live in the primary campaign's folder, fog/<map id>-<version>.png,
// served at /campaigns/<id>/fog/...: each edit writes a new file and only
// then points the map at it (and removes the old one), so the map never
// names a half-written mask.

// fogEdits serialises fog edits: each reads the current mask, paints and
// writes the next.
var fogEdits sync.Mutex

func mountHostFog(r chi.Router, h hostGame) {
	r.Post("/host/api/maps/{mapId}/fog", h.editFog)
}

// editFog answers POST /host/api/maps/{mapId}/fog with a core.FogEdit
// ({mode: reveal|cover, shape: rect|brush|all, ...}) or {"fogOfWar": bool}
// (fog on or off), or both: the map's fog state.
func (h hostGame) editFog(w http.ResponseWriter, r *http.Request) {
	var in wire.FogChange
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	edit := in.Mode != "" || in.Shape != ""
	if !edit && in.FogOfWar == nil {
		h.fail(w, r, core.Invalidf(`expected {"mode": "reveal"|"cover", "shape": "rect"|"brush"|"all", ...} or {"fogOfWar": true|false}`))
		return
	}
	if edit {
		if err := in.FogEdit.Check(); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	mapID := httpkit.PathParam(r, "mapId")
	fogEdits.Lock()
	defer fogEdits.Unlock()
	m, camp, err := h.cfg.Service.FogTarget(r.Context(), mapID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var fogPath string
	var png []byte
	if edit {
		if h.cfg.DataDir == "" {
			h.fail(w, r, &core.Error{Kind: core.KindConflict, Message: "this server has no data folder to keep fog masks in"})
			return
		}
		mask, err := h.currentMask(m)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		if err := mask.Apply(in.FogEdit); err != nil {
			h.fail(w, r, err)
			return
		}
		if png, err = mask.PNG(); err != nil {
			h.fail(w, r, err)
			return
		}
		name := fmt.Sprintf("%s-%d.png", m.ID, time.Now().UnixNano())
		file := filepath.Join(h.cfg.DataDir, "campaigns", camp.ID, "fog", name)
		if err := writeFileAtomic(file, png); err != nil {
			h.cfg.Log.Error("fog: cannot write the mask", "map", m.ID, "file", file, "err", err)
			h.fail(w, r, core.Internal(err))
			return
		}
		fogPath = path.Join("/campaigns", camp.ID, "fog", name)
		previous, err := h.cfg.Service.SetFog(r.Context(), m.ID, fogPath, png, in.FogOfWar)
		if err != nil {
			os.Remove(file) // the map still names the previous mask
			h.fail(w, r, err)
			return
		}
		h.removeOldMask(camp.ID, previous)
	} else if _, err := h.cfg.Service.SetFog(r.Context(), m.ID, "", nil, in.FogOfWar); err != nil {
		h.fail(w, r, err)
		return
	}
	m, _, err = h.cfg.Service.FogTarget(r.Context(), mapID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, wire.FogState{ID: m.ID, FogOfWar: m.FogOfWar, Fog: m.Fog})
}

// currentMask reads the map's mask when it is one of ours, else starts a
// fully covered one.
func (h hostGame) currentMask(m *core.Map) (*fog.Mask, error) {
	if file, ok := h.maskFile(m.Fog); ok {
		data, err := os.ReadFile(file)
		switch {
		case err == nil:
			if mask, err := fog.Decode(data, m); err == nil {
				return mask, nil
			}
			h.cfg.Log.Warn("fog: the stored mask is unreadable, starting a covered one", "map", m.ID, "file", file)
		case !errors.Is(err, fs.ErrNotExist):
			return nil, core.Internal(err)
		}
	}
	return fog.New(m)
}

// maskFile is the file behind a fog path this server wrote
// (/campaigns/<id>/fog/<name>.png), ok=false for any other.
func (h hostGame) maskFile(fogPath string) (string, bool) {
	fogPath, _, _ = strings.Cut(fogPath, "?")
	parts := strings.Split(strings.TrimPrefix(fogPath, "/"), "/")
	if len(parts) != 4 || parts[0] != "campaigns" || parts[2] != "fog" || !strings.HasSuffix(parts[3], ".png") {
		return "", false
	}
	for _, p := range parts {
		if p == "" || p == "." || p == ".." || strings.ContainsAny(p, `\`) {
			return "", false
		}
	}
	return filepath.Join(h.cfg.DataDir, "campaigns", parts[1], "fog", parts[3]), true
}

func (h hostGame) removeOldMask(campaignID, previous string) {
	if file, ok := h.maskFile(previous); ok && strings.Contains(file, campaignID) {
		if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			h.cfg.Log.Warn("fog: cannot remove the previous mask", "file", file, "err", err)
		}
	}
}

// writeFileAtomic writes data to a temporary file beside name and renames
// it into place.
func writeFileAtomic(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".fog-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), name)
	}
	if werr != nil {
		os.Remove(tmp.Name())
	}
	return werr
}
