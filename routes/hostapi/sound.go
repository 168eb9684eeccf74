package hostapi

import (
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/sound"
)

// mountHostSound adds the audio library, the playlists and the playback
// controls (docs/host-console.md, "Sound").
func mountHostSound(r chi.Router, cfg httpkit.Config) {
	h := hostSound{hostGame{cfg: cfg}}
	r = r.With(h.needSound)
	r.Post("/host/api/audio", h.upload)
	r.Get("/host/api/audio", h.listTracks)
	r.Patch("/host/api/audio/{id}", h.changeTrack)
	r.Delete("/host/api/audio/{id}", h.deleteTrack)
	r.Post("/host/api/audio/modules/{id}", h.addModuleSounds)
	r.Get("/host/api/playlists", h.listPlaylists)
	r.Post("/host/api/playlists", h.putPlaylist)
	r.Put("/host/api/playlists/{id}", h.putPlaylist)
	r.Delete("/host/api/playlists/{id}", h.deletePlaylist)
	r.Get("/host/api/sound", h.state)
	r.Put("/host/api/sound/screens", h.setScreens)
	r.Post("/host/api/sound/{playlist}", h.control)
}

type hostSound struct{ hostGame }

func (h hostSound) needSound(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.cfg.Sound == nil {
			httpkit.NotFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// upload answers POST /host/api/audio (multipart field "file"): the file
// streams to a temporary file of the library's folder, is checked by its
// content and kept whole, or not at all. 201 with the track.
func (h hostSound) upload(w http.ResponseWriter, r *http.Request) {
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "multipart/form-data" {
		h.fail(w, r, core.Invalidf("upload a sound file as multipart field 'file'"))
		return
	}
	mr, err := r.MultipartReader()
	if err != nil {
		h.fail(w, r, core.Invalidf("malformed upload: %v", err))
		return
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			h.fail(w, r, core.Invalidf("the upload has no 'file' field"))
			return
		}
		if err != nil {
			h.fail(w, r, httpkit.BodyError(core.Invalidf("malformed upload: %v", err)))
			return
		}
		if part.FormName() != "file" {
			continue
		}
		t, err := h.cfg.Sound.Library.Add(r.Context(), part.FileName(), part)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		h.reply(w, r, http.StatusCreated, t)
		return
	}
}

// addModuleSounds answers POST /host/api/audio/modules/{id}: the sound
// files of an installed module join the library (sound.Library.AddFrom),
// read through os.Root so nothing outside the module's folder is reached.
func (h hostSound) addModuleSounds(w http.ResponseWriter, r *http.Request) {
	id := httpkit.PathParam(r, "id")
	if h.cfg.DataDir == "" || id == "" || strings.ContainsAny(id, `/\`) || !fs.ValidPath(id) || id == "." {
		h.fail(w, r, core.NotFoundf("no module '%s'", core.Clip(id)))
		return
	}
	root, err := os.OpenRoot(filepath.Join(h.cfg.DataDir, "modules", id))
	if err != nil {
		h.fail(w, r, core.NotFoundf("no module '%s' in the data folder", core.Clip(id)))
		return
	}
	defer root.Close()
	added, err := h.cfg.Sound.Library.AddFrom(r.Context(), root.FS(), id)
	h.answer(w, r, added, err)
}

func (h hostSound) listTracks(w http.ResponseWriter, r *http.Request) {
	tracks, err := h.cfg.Sound.Library.List(r.Context())
	h.answer(w, r, tracks, err)
}

func (h hostSound) changeTrack(w http.ResponseWriter, r *http.Request) {
	var in sound.TrackChange
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	t, err := h.cfg.Sound.Library.Change(r.Context(), httpkit.PathParam(r, "id"), in)
	h.answer(w, r, t, err)
}

// deleteTrack removes a track; whatever played it stops.
func (h hostSound) deleteTrack(w http.ResponseWriter, r *http.Request) {
	t, err := h.cfg.Sound.Library.Delete(r.Context(), httpkit.PathParam(r, "id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.cfg.Sound.Forget(t.ID)
	w.WriteHeader(http.StatusNoContent)
}

func (h hostSound) listPlaylists(w http.ResponseWriter, r *http.Request) {
	lists, err := h.cfg.Sound.Playlists(r.Context())
	h.answer(w, r, lists, err)
}

// putPlaylist creates (POST, 201) or replaces (PUT) a playlist.
func (h hostSound) putPlaylist(w http.ResponseWriter, r *http.Request) {
	var in sound.Playlist
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	status := http.StatusCreated
	if r.Method == http.MethodPut {
		id := httpkit.PathParam(r, "id")
		if in.ID != "" && in.ID != id {
			h.fail(w, r, core.Invalidf("the body's id '%s' is not the path's", core.Clip(in.ID)))
			return
		}
		in.ID, status = id, http.StatusOK
	} else if in.ID != "" {
		h.fail(w, r, core.Invalidf("a new playlist's id is chosen by the server"))
		return
	}
	p, err := h.cfg.Sound.PutPlaylist(r.Context(), in)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, status, p)
}

func (h hostSound) deletePlaylist(w http.ResponseWriter, r *http.Request) {
	if err := h.cfg.Sound.DeletePlaylist(r.Context(), httpkit.PathParam(r, "id")); err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h hostSound) state(w http.ResponseWriter, r *http.Request) {
	st, err := h.cfg.Sound.State(r.Context())
	h.answer(w, r, st, err)
}

func (h hostSound) setScreens(w http.ResponseWriter, r *http.Request) {
	var in sound.ScreensChange
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	st, err := h.cfg.Sound.SetScreens(r.Context(), in)
	h.answer(w, r, st, err)
}

// control answers POST /host/api/sound/{playlist}: play, pause, resume,
// skip, seek or stop; the state after it.
func (h hostSound) control(w http.ResponseWriter, r *http.Request) {
	var in sound.Control
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	st, err := h.cfg.Sound.Control(r.Context(), httpkit.PathParam(r, "playlist"), in)
	h.answer(w, r, st, err)
}

func (h hostSound) answer(w http.ResponseWriter, r *http.Request, v any, err error) {
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, v)
}
