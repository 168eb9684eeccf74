package hostapi

import (
	"mime"
	"net/http"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/wire"
)

// maxHandoutBytes bounds an uploaded handout image.
const maxHandoutBytes = 32 << 20

// handoutTypes are the image types a handout may be, by extension.
var handoutTypes = map[string]string{".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".webp": "image/webp"}

// mountHostScreen adds the player screen's controls besides choosing the
// map (POST /host/api/screen): fit, focus, the followed frame, overlays.
func mountHostScreen(r chi.Router, h hostGame) {
	r.Post("/host/api/screen/fit", h.fitScreen)
	r.Post("/host/api/screen/focus", h.focusScreen)
	r.Post("/host/api/screen/frame", h.frameScreen)
	r.Patch("/host/api/screen/overlay", h.setOverlay)
	r.Delete("/host/api/screen/overlay", h.clearOverlay)
	r.Put("/host/api/screen/vision", h.setSharedVision)
	r.Post("/host/api/screen/handout", h.uploadHandout)
}

func (h hostGame) fitScreen(w http.ResponseWriter, r *http.Request) {
	if err := h.cfg.Service.FitScreen(r.Context()); err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, wire.Done{OK: true})
}

func (h hostGame) focusScreen(w http.ResponseWriter, r *http.Request) {
	in := core.Focus{Effect: true, Pan: true}
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	if err := h.cfg.Service.FocusScreen(in); err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, wire.Done{OK: true})
}

func (h hostGame) frameScreen(w http.ResponseWriter, r *http.Request) {
	var in core.Frame
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	f, err := h.cfg.Service.FrameScreen(r.Context(), in)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.reply(w, r, http.StatusOK, f)
}

func (h hostGame) setOverlay(w http.ResponseWriter, r *http.Request) {
	var in core.ScreenOverlay
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	h.screenReply(w, r)(h.cfg.Service.SetOverlay(r.Context(), in))
}

// setSharedVision answers PUT /host/api/screen/vision {"sharedVision":
// "always"|"partial"|"never"}: whose sight players see.
func (h hostGame) setSharedVision(w http.ResponseWriter, r *http.Request) {
	var in wire.SharedVision
	if err := httpkit.DecodeStrict(r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	h.screenReply(w, r)(h.cfg.Service.SetSharedVision(r.Context(), in.SharedVision))
}

func (h hostGame) clearOverlay(w http.ResponseWriter, r *http.Request) {
	empty := ""
	h.screenReply(w, r)(h.cfg.Service.SetOverlay(r.Context(), core.ScreenOverlay{Image: &empty, Text: &empty, Style: &empty}))
}

// uploadHandout answers POST /host/api/screen/handout (multipart "file"):
// the image is kept in the primary campaign's handouts/ folder, served to
// players, and shown as the overlay.
func (h hostGame) uploadHandout(w http.ResponseWriter, r *http.Request) {
	if h.cfg.DataDir == "" {
		h.fail(w, r, core.Conflictf("this server has no data folder to keep handouts in"))
		return
	}
	camp, err := h.cfg.Service.PrimaryCampaign(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "multipart/form-data" {
		h.fail(w, r, core.Invalidf("expected a multipart/form-data upload with a 'file' field"))
		return
	}
	_, data, name, err := readForm(r, maxHandoutBytes)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if data == nil {
		h.fail(w, r, core.Invalidf("the upload has no 'file' field"))
		return
	}
	ext := strings.ToLower(filepath.Ext(name))
	if _, ok := handoutTypes[ext]; !ok {
		h.fail(w, r, core.Invalidf("a handout must be a .png, .jpg, .gif or .webp image, not '%s'", core.Clip(name)))
		return
	}
	if sniffed := http.DetectContentType(data); !strings.HasPrefix(sniffed, "image/") {
		h.fail(w, r, core.Invalidf("'%s' is not an image (it reads as %s)", core.Clip(name), sniffed))
		return
	}
	file := core.NewID() + ext
	if err := writeFileAtomic(filepath.Join(h.cfg.DataDir, "campaigns", camp.ID, "handouts", file), data); err != nil {
		h.cfg.Log.Error("handout: cannot write the image", "err", err)
		h.fail(w, r, core.Internal(err))
		return
	}
	url := path.Join("/campaigns", camp.ID, "handouts", file)
	h.screenReply(w, r)(h.cfg.Service.SetOverlay(r.Context(), core.ScreenOverlay{Image: &url, Title: name}))
}

func (h hostGame) screenReply(w http.ResponseWriter, r *http.Request) func(*core.Screen, error) {
	return func(s *core.Screen, err error) {
		if err != nil {
			h.fail(w, r, err)
			return
		}
		h.reply(w, r, http.StatusOK, s)
	}
}
