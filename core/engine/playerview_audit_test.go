package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// TestAuditPlayersNeverSeeHiddenMapObjects: what players receive of a map
// (GET /api, mapLoaded, the map of a door change) leaves out every hidden
// object, not only tokens: markers (hidden unless they say otherwise, as
// the Marker schema defaults), tiles, area effects and measurements. The
// stored map keeps them.
func TestAuditPlayersNeverSeeHiddenMapObjects(t *testing.T) {
	f := newLiveFixture(t)
	ctx := context.Background()
	err := f.svc.ChangeContent(ctx, func(tx core.Tx) (core.Object, error) {
		m, err := tx.Map(liveMapID)
		if err != nil {
			return nil, err
		}
		m.Markers = []core.Object{
			{"id": "mk-secret", "name": "SECRET-TRAP", "hidden": true},
			{"id": "mk-default", "name": "SECRET-DEFAULT"},
			{"id": "mk-shown", "name": "Inn", "hidden": false},
		}
		m.Tiles = []core.Object{{"id": "tl-secret", "hidden": true, "reference": "SECRET-TILE"}, {"id": "tl-shown"}}
		m.AreaEffects = []core.Object{{"id": "ae-secret", "hidden": true, "reference": "SECRET-AREA"}}
		m.Measurements = []core.Object{{"id": "ms-secret", "hidden": true, "color": "SECRET-MEASURE"}, {"id": "ms-shown", "hidden": false}}
		m.Tokens = nil // the map document only; token rows stay
		return nil, tx.PutMap(m)
	})
	if err != nil {
		t.Fatal(err)
	}
	leaks := func(what string, v any) {
		t.Helper()
		b, _ := json.Marshal(v)
		for _, secret := range []string{"SECRET-", "Ambusher", liveHiddenID} {
			if strings.Contains(string(b), secret) {
				t.Fatalf("%s shows players %s: %s", what, secret, b)
			}
		}
		for _, shown := range []string{"mk-shown", "tl-shown", "ms-shown", liveTokenID} {
			if !strings.Contains(string(b), shown) {
				t.Fatalf("%s lacks the visible %s: %s", what, shown, b)
			}
		}
	}
	if _, err := f.svc.ShowMap(ctx, liveMapID); err != nil {
		t.Fatal(err)
	}
	for _, e := range f.events.take() {
		if e.Name == core.EventMapLoaded {
			leaks("mapLoaded", redact.PlayersView(e.Data))
		}
	}
	snap, err := f.svc.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	leaks("GET /api", snap.Map)
	if _, err := f.svc.UpdateDoor(ctx, core.Door{MapID: liveMapID, ID: liveDoorID, State: core.DoorOpen}); err != nil {
		t.Fatal(err)
	}
	for _, e := range f.events.take() {
		if e.Name == core.EventMapUpdated {
			leaks("mapUpdated", redact.PlayersView(e.Data))
		}
	}
	// The store keeps everything.
	err = f.store.View(ctx, func(tx core.Tx) error {
		m, err := tx.Map(liveMapID)
		if err == nil && (len(m.Markers) != 3 || len(m.Tiles) != 2 || len(m.Measurements) != 2) {
			t.Fatalf("stored map lost objects: %d markers, %d tiles, %d measurements", len(m.Markers), len(m.Tiles), len(m.Measurements))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if m := redact.PlayerMap(nil); m != nil {
		t.Fatal("PlayerMap(nil)")
	}
}
