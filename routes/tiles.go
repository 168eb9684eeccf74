package routes

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vttapp/companion/maptiles"
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

// tileCaches holds one cache per data folder, shared by the listeners.
var tileCaches sync.Map

func tilesOf(dataDir string) *maptiles.Cache {
	c, _ := tileCaches.LoadOrStore(dataDir, maptiles.New(filepath.Join(dataDir, ".tiles")))
	return c.(*maptiles.Cache)
}

// tileCutWait is how long a request waits for a picture to be cut; the cut
// goes on after it, and the client falls back to the whole picture.
const tileCutWait = 2 * time.Minute

// wantsTiles reports whether a request for a picture asks for its tiles.
func wantsTiles(r *http.Request) bool {
	q := r.URL.Query()
	return q.Has("tiles") || q.Has("tile")
}

// serveTiles answers a picture's index or one of its tiles: name in the
// folder dir (opened through os.Root, as serveFromRoot does), urlPath its
// URL path.
func (s *server) serveTiles(w http.ResponseWriter, r *http.Request, dir, name, urlPath string) {
	open := openInRoot(dir, name)
	ctx, cancel := context.WithTimeout(r.Context(), tileCutWait)
	defer cancel()
	cache := tilesOf(s.cfg.DataDir)
	idx, err := cache.Index(ctx, open, urlPath)
	switch {
	case errors.Is(err, maptiles.ErrNotTiled):
		writeMessage(w, http.StatusUnprocessableEntity, err.Error())
		return
	case errors.Is(err, context.DeadlineExceeded):
		writeMessage(w, http.StatusServiceUnavailable, "the picture is still being cut into tiles: draw it whole for now")
		return
	case err != nil:
		return // the client went away
	}
	q := r.URL.Query()
	if !q.Has("tile") {
		w.Header().Set("Cache-Control", "no-cache")
		writeJSON(w, r, &s.cfg, http.StatusOK, idx)
		return
	}
	var level, x, y int
	var rest string
	if n, _ := fmt.Sscanf(q.Get("tile")+"/end", "%d/%d/%d/%s", &level, &x, &y, &rest); n != 4 || rest != "end" || q.Get("v") != idx.Version {
		notFound(w, r)
		return
	}
	tileFile, err := cache.Tile(urlPath, idx, level, x, y)
	if err != nil {
		notFound(w, r)
		return
	}
	f, err := os.Open(tileFile)
	if err != nil {
		notFound(w, r)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "image/"+idx.Format)
	s.serveFileCached(w, r, tileFile, f, "public, max-age=31536000, immutable")
}

// warmSide: a picture with a side past it is cut as soon as it is a map's
// (uploaded, or put on the player screen), so the first player to open it
// does not wait for the cut. Phones' textures stop at 4,096.
const warmSide = 4096

// warmTiles starts cutting a map picture (its URL path, as a map names it)
// in the background when it is a big picture of a served data folder.
func warmTiles(dataDir, urlPath string) {
	dir, name, ok := dataFile(dataDir, urlPath)
	if !ok {
		return
	}
	open := openInRoot(dir, name)
	f, err := open()
	if err != nil {
		return
	}
	cfg, _, err := image.DecodeConfig(f)
	f.Close()
	if err != nil || max(cfg.Width, cfg.Height) <= warmSide {
		return
	}
	go tilesOf(dataDir).Index(context.Background(), open, "/"+filepath.Base(dir)+"/"+name)
}

// dataFile finds the file a URL path names in a served data folder (as
// content names its media: /campaigns/<id>/maps/x%20y.png): the folder
// and the name within it, to open with openInRoot; ok is false for any
// other path.
func dataFile(dataDir, urlPath string) (dir, name string, ok bool) {
	urlPath, _, _ = strings.Cut(urlPath, "?")
	decoded, err := url.PathUnescape(urlPath) // as requestedFile decodes a request's path
	if err != nil || dataDir == "" {
		return "", "", false
	}
	folder, name, ok := strings.Cut(strings.TrimPrefix(path.Clean("/"+decoded), "/"), "/")
	if !ok || !slices.Contains(dataFolders, folder) || !fs.ValidPath(name) || strings.ContainsAny(name, "\\\x00") {
		return "", "", false
	}
	return filepath.Join(dataDir, folder), name, true
}

// openInRoot opens name in dir through os.Root: neither ".." nor a
// symbolic link reaches outside dir.
func openInRoot(dir, name string) maptiles.Opener {
	return func() (*os.File, error) {
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		return root.Open(name)
	}
}
