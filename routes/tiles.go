package routes

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"github.com/vttapp/companion/maptiles"
	"github.com/vttapp/companion/routes/datafolder"
	"github.com/vttapp/companion/routes/httpkit"
)

// A map picture's tiles (package maptiles), for a client whose device
// cannot hold the picture as one texture. They are asked for on the
// picture's own URL, so whoever may read the picture may read its tiles
// and nobody else (a map off the player screen: neither):
//
//	GET <picture>?tiles                    the index (maptiles.Index), cut on first request
//	GET <picture>?tile=<level>/<x>/<y>&v=<version>   one tile, kept a year by caches
//
// A version that is not the picture's current one answers 404: the
// client reads the index again.

// tileCutWait is how long a request waits for a picture to be cut; the cut
// goes on after it, and the client falls back to the whole picture.
const tileCutWait = 2 * time.Minute

// wantsTiles reports whether a request for a picture asks for its tiles
// (a picture the server reads: PNG, JPEG, GIF; any other file is served
// as it is, whatever its query).
func wantsTiles(r *http.Request, name string) bool {
	q := r.URL.Query()
	return (q.Has("tiles") || q.Has("tile")) && tiledExtensions[strings.ToLower(path.Ext(name))]
}

var tiledExtensions = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".jfif": true, ".gif": true}

// serveTiles answers a picture's index or one of its tiles: name in the
// folder dir (opened through os.Root, as serveFromRoot does), urlPath its
// URL path.
func (s *server) serveTiles(w http.ResponseWriter, r *http.Request, dir, name, urlPath string) {
	open := datafolder.OpenInRoot(dir, name)
	ctx, cancel := context.WithTimeout(r.Context(), tileCutWait)
	defer cancel()
	cache := datafolder.Tiles(s.cfg.DataDir)
	idx, err := cache.Index(ctx, open, urlPath)
	switch {
	case errors.Is(err, maptiles.ErrNotTiled):
		httpkit.WriteMessage(w, http.StatusUnprocessableEntity, err.Error())
		return
	case errors.Is(err, context.DeadlineExceeded):
		httpkit.WriteMessage(w, http.StatusServiceUnavailable, "the picture is still being cut into tiles: draw it whole for now")
		return
	case err != nil:
		return // the client went away
	}
	q := r.URL.Query()
	if !q.Has("tile") {
		w.Header().Set("Cache-Control", "no-cache")
		httpkit.WriteJSON(w, r, s.cfg.Log, http.StatusOK, idx)
		return
	}
	var level, x, y int
	var rest string
	if n, _ := fmt.Sscanf(q.Get("tile")+"/end", "%d/%d/%d/%s", &level, &x, &y, &rest); n != 4 || rest != "end" || q.Get("v") != idx.Version {
		httpkit.NotFound(w, r)
		return
	}
	tileFile, err := cache.Tile(urlPath, idx, level, x, y)
	if err != nil {
		httpkit.NotFound(w, r)
		return
	}
	f, err := os.Open(tileFile)
	if err != nil {
		httpkit.NotFound(w, r)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "image/"+idx.Format)
	s.serveFileCached(w, r, tileFile, f, "public, max-age=31536000, immutable")
}
