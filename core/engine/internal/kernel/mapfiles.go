package kernel

import (
	"sync"

	"github.com/vttapp/companion/core"
)

// mapFileIndex keeps, for each file a map shows (its image, video and fog,
// by URL path), the maps that show it. It is filled from the store on
// first use and forgotten after every commit that writes a map (a map
// put or deleted, a module or campaign deleted: writeThen watches the
// transaction) and when content is replaced (a reload).
type mapFileIndex struct {
	Mu     sync.RWMutex
	Loaded bool
	ByFile map[string][]string
	// Changes counts forget calls: a load whose store read may predate
	// one of them is not installed (mapsOfFile reads again next time).
	Changes uint64
}

// forget drops the index; the next lookup reads the maps again.
func (x *mapFileIndex) forget() {
	x.Mu.Lock()
	x.Loaded, x.ByFile = false, nil
	x.Changes++
	x.Mu.Unlock()
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
