package engine

import (
	"context"
	"net/url"
	"path"
	"strings"
	"sync"

	"github.com/vttapp/companion/core"
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
func (s *playRoom) MapFileShown(ctx context.Context, urlPath, seatHash string) (bool, error) {
	maps, err := s.mapsOfFile(ctx, path.Clean(urlPath))
	if err != nil || len(maps) == 0 {
		return err == nil, err
	}
	p := s.pin()
	var looked playerMaps
	err = p.store.View(ctx, func(tx core.Tx) error {
		var err error
		looked, err = p.playerMapsIn(tx)
		return err
	})
	if err != nil {
		return false, err
	}
	seen := looked.sees
	if seatHash != "" && s.heldSeatOf(seatHash) != nil {
		own := looked.of(seatHash)
		seen = func(id string) bool { return id != "" && id == own }
	}
	for _, id := range maps {
		if seen(id) {
			return true, nil
		}
	}
	return false, nil
}

// mapFileIndex keeps, for each file a map shows (its image, video and fog,
// by URL path), the maps that show it. It is filled from the store on
// first use and forgotten after every commit that writes a map (a map
// put or deleted, a module or campaign deleted: writeThen watches the
// transaction) and when content is replaced (a reload).
type mapFileIndex struct {
	mu     sync.RWMutex
	loaded bool
	byFile map[string][]string
	// changes counts forget calls: a load whose store read may predate
	// one of them is not installed (mapsOfFile reads again next time).
	changes uint64
}

// forget drops the index; the next lookup reads the maps again.
func (x *mapFileIndex) forget() {
	x.mu.Lock()
	x.loaded, x.byFile = false, nil
	x.changes++
	x.mu.Unlock()
}

// mapsOfFile returns the ids of the maps whose image, video or fog is the
// file at urlPath (cleaned).
func (s *playRoom) mapsOfFile(ctx context.Context, urlPath string) ([]string, error) {
	x := &s.mapFiles
	x.mu.RLock()
	if x.loaded {
		maps := x.byFile[urlPath]
		x.mu.RUnlock()
		return maps, nil
	}
	changes := x.changes
	x.mu.RUnlock()
	byFile := map[string][]string{}
	err := s.store.View(ctx, func(tx core.Tx) error {
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
	x.mu.Lock()
	if x.changes == changes {
		x.loaded, x.byFile = true, byFile
	}
	x.mu.Unlock()
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

// mapWritesTx is the transaction writeThen hands out: it notes whether a
// write touched the maps, so that the index of their files is forgotten
// only then (a token's move, the most frequent write, keeps it).
type mapWritesTx struct {
	core.Tx
	touched bool
	// screens notes a screen written (or a campaign deleted with its
	// screen): the cached screen map is forgotten (seatmaps.go).
	screens bool
}

func (t *mapWritesTx) PutScreen(campaignID string, s *core.Screen) error {
	t.screens = true
	return t.Tx.PutScreen(campaignID, s)
}

func (t *mapWritesTx) PutMap(m *core.Map) error {
	t.touched = true
	return t.Tx.PutMap(m)
}

func (t *mapWritesTx) DeleteMap(id string) error {
	t.touched = true
	return t.Tx.DeleteMap(id)
}

func (t *mapWritesTx) DeleteModule(id string) error {
	t.touched = true
	return t.Tx.DeleteModule(id)
}

func (t *mapWritesTx) DeleteCampaign(id string) error {
	t.touched, t.screens = true, true
	return t.Tx.DeleteCampaign(id)
}

// PutCampaign may make another campaign the primary one, whose screen
// players then see.
func (t *mapWritesTx) PutCampaign(c *core.Campaign) error {
	t.screens = true
	return t.Tx.PutCampaign(c)
}
