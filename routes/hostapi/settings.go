package hostapi

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/routes/httpkit"
)

// hostSettingsMaxBody bounds a settings change: a mode and two booleans.
const hostSettingsMaxBody = 4 << 10

// mountHostSettings adds GET and PATCH /host/api/settings to the host
// router: {"remoteInteraction": bool, "interaction": "none"|"token"|"all",
// "paused": bool}. remoteInteraction reads true unless the mode is none;
// setting it true sets all, false none. A change is told to clients as
// interactionUpdated (the mode) and systemPaused (the boolean). The host's live view
// (clients, drag veto) is mounted with it.
func mountHostSettings(r chi.Router, cfg httpkit.Config) {
	mountHostLive(r, cfg)
	r.Get("/host/api/settings", func(w http.ResponseWriter, r *http.Request) {
		hostSettingsReply(w, http.StatusOK, cfg.Service.Live().Settings())
	})
	r.Patch("/host/api/settings", func(w http.ResponseWriter, r *http.Request) {
		patch, err := decodeSettingsPatch(w, r)
		if err != nil {
			hostSettingsError(w, err)
			return
		}
		settings, err := cfg.Service.UpdateSettings(r.Context(), patch)
		if err != nil {
			hostSettingsError(w, err)
			return
		}
		hostSettingsReply(w, http.StatusOK, settings)
	})
}

// decodeSettingsPatch reads a settings change strictly: unknown keys and
// values that are not booleans are errors, so a typo is not silently lost.
func decodeSettingsPatch(w http.ResponseWriter, r *http.Request) (engine.SettingsPatch, error) {
	var p engine.SettingsPatch
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, hostSettingsMaxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return p, core.TooLargef("settings: body larger than %d bytes", hostSettingsMaxBody)
		}
		return p, core.Invalidf("settings: %s (expected {\"interaction\": \"none\"|\"token\"|\"all\", \"remoteInteraction\": true|false, \"paused\": true|false})", core.JSONErrorText(err))
	}
	if dec.More() {
		return p, core.Invalidf("settings: unexpected data after the JSON object")
	}
	return p, nil
}

func hostSettingsReply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// hostSettingsError answers err as {"message": ...} with the status
// httpkit.StatusOf gives its kind, like every other handler.
func hostSettingsError(w http.ResponseWriter, err error) {
	httpkit.WriteMessage(w, httpkit.StatusOf(err), core.MessageOf(err))
}
