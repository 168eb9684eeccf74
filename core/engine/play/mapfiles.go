package play

import (
	"context"
	"net/url"
	"path"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// MapFileShown reports whether players may read a file of a data folder
// (urlPath such as /campaigns/<id>/maps/<name> or /modules/<id>/<name>).
// A file that is the image, video or fog of a map, of a campaign or of a
// module, is shown only while a player looks at one such map: a map being
// prepared off screen does not reach players, not even its picture. A
// request that names a seat (seatHash, its cookie or header) gets the
// pictures of the map that seat looks at alone (a split party,
// seatmaps.go); one that names none (a page's picture requests carry no
// header) those of any map a player looks at, the screen's or a seat's.
// Any other file is for the caller's usual rules (true).
//
// The files of the maps come from an index (mapFileIndex), not from
// reading every map: a page's token art is many requests in a row, and a
// module may hold many large maps.
func (s *PlayRoom) MapFileShown(ctx context.Context, urlPath, seatHash string) (bool, error) {
	maps, err := s.mapsOfFile(ctx, path.Clean(urlPath))
	if err != nil || len(maps) == 0 {
		return err == nil, err
	}
	p := s.pin()
	var looked kernel.PlayerMaps
	err = p.Store.View(ctx, func(tx core.Tx) error {
		var err error
		looked, err = p.PlayerMapsIn(tx)
		return err
	})
	if err != nil {
		return false, err
	}
	seen := looked.Sees
	if seatHash != "" && s.HeldSeatOf(seatHash) != nil {
		own := looked.Of(seatHash)
		seen = func(id string) bool { return id != "" && id == own }
	}
	for _, id := range maps {
		if seen(id) {
			return true, nil
		}
	}
	return false, nil
}

// mapsOfFile returns the ids of the maps whose image, video or fog is the
// file at urlPath (cleaned).
func (s *PlayRoom) mapsOfFile(ctx context.Context, urlPath string) ([]string, error) {
	x := &s.MapFiles
	x.Mu.RLock()
	if x.Loaded {
		maps := x.ByFile[urlPath]
		x.Mu.RUnlock()
		return maps, nil
	}
	changes := x.Changes
	x.Mu.RUnlock()
	byFile := map[string][]string{}
	err := s.Store.View(ctx, func(tx core.Tx) error {
		maps, err := tx.Maps("")
		if err != nil {
			return err
		}
		for _, m := range maps {
			for _, file := range []string{m.Image, m.Video, m.Fog} {
				for _, key := range mapFileKeys(file) {
					byFile[key] = append(byFile[key], m.ID)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	x.Mu.Lock()
	if x.Changes == changes {
		x.Loaded, x.ByFile = true, byFile
	}
	x.Mu.Unlock()
	return byFile[urlPath], nil
}

// mapFileKeys are the URL paths under which a map's file reference is
// requested: the path as stored and, when it is percent-encoded, as
// decoded (the static routes look files up by their decoded name). URLs
// of other sites and empty references are not served here: none.
func mapFileKeys(ref string) []string {
	if !strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "//") {
		return nil
	}
	keys := []string{path.Clean(ref)}
	if decoded, err := url.PathUnescape(ref); err == nil && path.Clean(decoded) != keys[0] {
		keys = append(keys, path.Clean(decoded))
	}
	return keys
}
