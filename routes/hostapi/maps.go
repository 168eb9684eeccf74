package hostapi

import (
	"bytes"
	"errors"
	"image"
	_ "image/gif" // background sizes read by image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/mapobjects"
	"github.com/vttapp/companion/imports/uvtt"
	"github.com/vttapp/companion/routes/datafolder"
	"github.com/vttapp/companion/routes/httpkit"
)

// maxBackgroundBytes bounds an uploaded map background.
const maxBackgroundBytes = 64 << 20

func mountHostMaps(r chi.Router, h hostGame) {
	r.Post("/host/api/maps", h.createMap)
	r.Patch("/host/api/maps/{id}", h.renameMap)
	r.Delete("/host/api/maps/{id}", h.deleteMap)
	r.Get("/host/api/maps/{id}/uvtt", h.exportUVTT)
}

// createMap answers POST /host/api/maps: a JSON core.NewMap, or multipart
// fields name, width, height, gridType, gridSize and a background "file"
// (png, jpeg, gif, webp; its size is the map's when width and height are
// not given). 201 with the map.
func (h hostGame) createMap(w http.ResponseWriter, r *http.Request) {
	var in core.NewMap
	var background []byte
	var fileName string
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "multipart/form-data" {
		fields, data, name, err := readForm(r, maxBackgroundBytes)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		background, fileName = data, name
		in.Name, in.GridType = fields["name"], fields["gridType"]
		for key, dst := range map[string]*int{"width": &in.Width, "height": &in.Height, "gridSize": &in.GridSize} {
			if v := strings.TrimSpace(fields[key]); v != "" {
				n, err := strconv.Atoi(v)
				if err != nil {
					h.fail(w, r, core.Invalidf("'%s' must be a whole number, not '%s'", key, core.Clip(v)))
					return
				}
				*dst = n
			}
		}
	} else if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	var file string
	if background != nil {
		ext := strings.ToLower(filepath.Ext(fileName))
		if _, ok := handoutTypes[ext]; !ok || !strings.HasPrefix(http.DetectContentType(background), "image/") {
			h.fail(w, r, core.Invalidf("the background must be a .png, .jpg, .gif or .webp image"))
			return
		}
		if in.Width == 0 && in.Height == 0 {
			if cfg, _, err := image.DecodeConfig(bytes.NewReader(background)); err == nil {
				in.Width, in.Height = cfg.Width, cfg.Height
			}
		}
		if err := in.Check(); err != nil { // before writing anything
			h.fail(w, r, err)
			return
		}
		camp, err := h.cfg.Service.PrimaryCampaign(r.Context())
		if err != nil {
			h.fail(w, r, err)
			return
		}
		name := core.NewID() + ext
		file = filepath.Join(h.cfg.DataDir, "campaigns", camp.ID, "maps", name)
		if h.cfg.DataDir == "" {
			h.fail(w, r, core.Conflictf("this server has no data folder to keep map images in"))
			return
		}
		if err := writeFileAtomic(file, background); err != nil {
			h.cfg.Log.Error("map: cannot write the background", "err", err)
			h.fail(w, r, core.Internal(err))
			return
		}
		in.Image = path.Join("/campaigns", camp.ID, "maps", name)
	}
	m, err := h.cfg.Service.CreateMap(r.Context(), in)
	if err != nil {
		if file != "" {
			os.Remove(file) // nothing names it
		}
		h.fail(w, r, err)
		return
	}
	if in.Image != "" {
		datafolder.WarmTiles(h.cfg.DataDir, in.Image) // a big picture is cut while the game master prepares the map
	}
	h.reply(w, r, http.StatusCreated, m)
}

// renameMap answers PATCH /host/api/maps/{id}: a core.MapChange (name,
// lineOfSight, losDaylight, losVisionLimit).
// exportUVTT answers GET /host/api/maps/{id}/uvtt: the map as a Universal
// VTT file (.dd2vtt), its walls, doors, lights and picture, for map makers
// and other tools (uvtt.Write).
func (h hostGame) exportUVTT(w http.ResponseWriter, r *http.Request) {
	m, err := h.cfg.Service.Map(r.Context(), httpkit.PathParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var picture io.Reader
	if m.Image != "" {
		dir, name, ok := datafolder.File(h.cfg.DataDir, m.Image)
		if !ok {
			h.fail(w, r, core.Conflictf("the map's picture (%s) is not in this server's data folder: it cannot be written into the file", core.Clip(m.Image)))
			return
		}
		f, err := datafolder.OpenInRoot(dir, name)()
		if err != nil {
			h.fail(w, r, core.Conflictf("the map's picture is missing from the data folder"))
			return
		}
		defer f.Close()
		picture = f
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": uvttFileName(m.Name)}))
	if err := uvtt.Write(w, m, picture); err != nil {
		h.cfg.Log.Warn("map: Universal VTT export cut short", "map", m.ID, "err", err)
	}
}

func (h hostGame) renameMap(w http.ResponseWriter, r *http.Request) {
	var in mapobjects.MapChange
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	m, err := h.cfg.Service.ChangeMap(r.Context(), httpkit.PathParam(r, "id"), in)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, m)
}

// deleteMap answers DELETE /host/api/maps/{id} (the page asks for
// confirmation): the map, its tokens, and its background and fog files in
// the campaign's folder.
func (h hostGame) deleteMap(w http.ResponseWriter, r *http.Request) {
	m, err := h.cfg.Service.DeleteMap(r.Context(), httpkit.PathParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	for _, p := range []string{m.Image, m.Fog} {
		if file, ok := campaignFile(h.cfg.DataDir, m.Owner, p); ok {
			if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
				h.cfg.Log.Warn("map deleted, its file not", "map", m.ID, "file", file, "err", err)
			}
			datafolder.ForgetTiles(h.cfg.DataDir, p)
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// campaignFile is the file behind a URL path /campaigns/<campaign>/<folder>/<name>
// of the given campaign, ok=false for any other path.
func campaignFile(dataDir, campaignID, urlPath string) (string, bool) {
	urlPath, _, _ = strings.Cut(urlPath, "?")
	parts := strings.Split(strings.TrimPrefix(urlPath, "/"), "/")
	if dataDir == "" || len(parts) != 4 || parts[0] != "campaigns" || parts[1] != campaignID {
		return "", false
	}
	for _, p := range parts {
		if p == "" || p == "." || p == ".." || strings.ContainsAny(p, `\`) {
			return "", false
		}
	}
	return filepath.Join(dataDir, "campaigns", parts[1], parts[2], parts[3]), true
}

// readForm reads a multipart form's short fields and its "file" part (up
// to limit bytes; nil when absent).
func readForm(r *http.Request, limit int64) (fields map[string]string, data []byte, fileName string, err error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, nil, "", core.Invalidf("malformed upload: %v", err)
	}
	fields = map[string]string{}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return fields, data, fileName, nil
		}
		if err != nil {
			return nil, nil, "", core.Invalidf("malformed upload: %v", err)
		}
		if part.FormName() == "file" {
			data, err = io.ReadAll(io.LimitReader(part, limit+1))
			if err != nil {
				return nil, nil, "", core.Invalidf("the upload broke off: %v", err)
			}
			if int64(len(data)) > limit {
				return nil, nil, "", core.TooLargef("the file is larger than %d MiB", limit>>20)
			}
			fileName = part.FileName()
			continue
		}
		value, err := io.ReadAll(io.LimitReader(part, 1025))
		if err != nil {
			return nil, nil, "", core.Invalidf("the upload broke off: %v", err)
		}
		if len(value) > 1024 {
			return nil, nil, "", core.Invalidf("field '%s' is longer than 1024 bytes", core.Clip(part.FormName()))
		}
		fields[part.FormName()] = string(value)
	}
}

// uvttFileName is the name a map's Universal VTT file is saved as.
func uvttFileName(mapName string) string {
	slug := core.Slugify(mapName)
	if slug == "" {
		slug = "map"
	}
	return slug + ".dd2vtt"
}
