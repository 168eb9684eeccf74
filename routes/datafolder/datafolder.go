// Package datafolder is the data folders the listeners serve (modules,
// campaigns, others): finding the file a URL path names in one, opening it
// without leaving its folder, and the cache of a big map picture's tiles
// (package maptiles), warmed when a map takes the picture and forgotten
// when its file goes.
package datafolder

import (
	"context"
	"image"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/vttapp/companion/maptiles"
)

// Names are the served data folders (contract 4.7), each under the data
// folder.
var Names = []string{"modules", "campaigns", "others"}

// tileCaches holds one cache per data folder, shared by the listeners.
var tileCaches sync.Map

// Tiles is the tile cache of the data folder dataDir, one per folder.
func Tiles(dataDir string) *maptiles.Cache {
	c, _ := tileCaches.LoadOrStore(dataDir, maptiles.New(filepath.Join(dataDir, ".tiles")))
	return c.(*maptiles.Cache)
}

// warmSide: a picture with a side past it is cut as soon as it is a map's
// (uploaded, or put on the player screen), so the first player to open it
// does not wait for the cut. Phones' textures stop at 4,096.
const warmSide = 4096

// WarmTiles starts cutting a map picture (its URL path, as a map names it)
// in the background when it is a big picture of a served data folder.
func WarmTiles(dataDir, urlPath string) {
	dir, name, ok := File(dataDir, urlPath)
	if !ok {
		return
	}
	open := OpenInRoot(dir, name)
	f, err := open()
	if err != nil {
		return
	}
	cfg, _, err := image.DecodeConfig(f)
	f.Close()
	if err != nil || max(cfg.Width, cfg.Height) <= warmSide {
		return
	}
	go Tiles(dataDir).Index(context.Background(), open, "/"+filepath.Base(dir)+"/"+name)
}

// ForgetTiles removes the tiles of a picture whose file was removed.
func ForgetTiles(dataDir, urlPath string) {
	if dir, name, ok := File(dataDir, urlPath); ok {
		Tiles(dataDir).Forget("/" + filepath.Base(dir) + "/" + name)
	}
}

// File finds the file a URL path names in a served data folder (as
// content names its media: /campaigns/<id>/maps/x%20y.png): the folder
// and the name within it, to open with OpenInRoot; ok is false for any
// other path.
func File(dataDir, urlPath string) (dir, name string, ok bool) {
	urlPath, _, _ = strings.Cut(urlPath, "?")
	decoded, err := url.PathUnescape(urlPath) // as requestedFile decodes a request's path
	if err != nil || dataDir == "" {
		return "", "", false
	}
	folder, name, ok := strings.Cut(strings.TrimPrefix(path.Clean("/"+decoded), "/"), "/")
	if !ok || !slices.Contains(Names, folder) || !fs.ValidPath(name) || strings.ContainsAny(name, "\\\x00") {
		return "", "", false
	}
	return filepath.Join(dataDir, folder), name, true
}

// OpenInRoot opens name in dir through os.Root: neither ".." nor a
// symbolic link reaches outside dir.
func OpenInRoot(dir, name string) maptiles.Opener {
	return func() (*os.File, error) {
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		return root.Open(name)
	}
}
