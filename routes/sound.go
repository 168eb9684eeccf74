package routes

import (
	"net/http"
	"strings"

	"github.com/vttapp/companion/routes/datafolder"
	"github.com/vttapp/companion/routes/httpkit"
)

// getSound answers GET /api/sound on the public listener: the playback
// state, which a page reads when it opens (then follows soundUpdated).
func (s *server) getSound(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Sound == nil {
		httpkit.NotFound(w, r)
		return
	}
	st, err := s.cfg.Sound.State(r.Context())
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	httpkit.WriteJSON(w, r, s.cfg.Log, http.StatusOK, st)
}

// soundFileHidden reports whether a player may not fetch a data folder
// file: one of a campaign's audio library that neither plays nor sounds
// from the map on the player screen (an ambient sound players hear: not
// hidden). What the game master keeps for later is theirs.
func (s *server) soundFileHidden(r *http.Request, urlPath string) bool {
	parts := strings.Split(strings.TrimPrefix(urlPath, "/"), "/")
	if len(parts) != 4 || parts[0] != "campaigns" || parts[2] != datafolder.SoundFolder {
		return false
	}
	if s.cfg.Sound != nil && s.cfg.Sound.Audible(urlPath) {
		return false
	}
	if s.cfg.Service == nil {
		return true
	}
	snap, err := s.cfg.Service.Snapshot(r.Context()) // the map as players have it: hidden sounds left out
	if err != nil || snap.Map == nil {
		return true
	}
	for _, o := range snap.Map.Sounds {
		if u, _ := o["url"].(string); u == urlPath {
			return false
		}
	}
	return true
}
