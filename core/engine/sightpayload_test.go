package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/sight"
)

func TestSnapshotMapCarriesSightOfVisibleTokensAndLights(t *testing.T) {
	f := newLiveFixture(t)
	f.seeCompatMap(t)
	snap, err := f.svc.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var hero *core.Token
	for _, tok := range snap.Map.Tokens {
		if tok.ID == liveTokenID {
			hero = tok
		}
	}
	s, ok := hero.Vision.Sight.(*sight.Sight)
	if !ok || s.Key != "vision-v-"+liveTokenID || s.X != 50 || s.Y != 50 || len(s.Polygon) < 6 {
		t.Fatalf("token vision.sight = %#v, want {key: vision-<vision id>, x, y, polygon}", hero.Vision.Sight)
	}
	light, _ := snap.Map.Lights[0].Sight.(*sight.Sight)
	if light == nil || light.Key != "light-l-1" || light.X != 50 || len(light.Polygon) < 6 {
		t.Fatalf("light sight = %#v", snap.Map.Lights[0].Sight)
	}
	if snap.Map.Lights[1].Sight != nil {
		t.Fatal("a disabled light has a sight")
	}
	b, _ := json.Marshal(snap.Map)
	if strings.Contains(string(b), "vision-v-"+liveHiddenID) || strings.Contains(string(b), liveHiddenID) {
		t.Fatal("the hidden token or its sight reached players")
	}
	var stored *core.Map
	f.store.View(context.Background(), func(tx core.Tx) (err error) { stored, err = tx.Map(liveMapID); return })
	for _, tok := range stored.Tokens {
		if tok.Vision != nil && tok.Vision.Sight != nil {
			t.Fatal("the computed sight was stored")
		}
	}
}

func TestWithSightLeavesMapsWithoutLineOfSightAlone(t *testing.T) {
	m := &core.Map{ID: "m", Tokens: []*core.Token{{ID: "t", Vision: &core.Vision{ID: "v", Enabled: true}}}}
	if redact.WithSight(m) != m || redact.MapSights(m) != nil {
		t.Fatal("a map with line of sight off got sight polygons")
	}
}

func TestDoorBroadcastsLineOfSightAsAnArrayOfSights(t *testing.T) {
	f := newLiveFixture(t)
	f.seeCompatMap(t)
	los, err := f.svc.UpdateDoor(context.Background(), core.Door{MapID: liveMapID, ID: liveDoorID, State: core.DoorOpen})
	if err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	wantNames(t, events, core.EventMapUpdated, core.EventLineOfSightUpdated)
	b, _ := json.Marshal(redact.PlayersView(events[1].Data))
	var sights []sight.Sight
	if err := json.Unmarshal(b, &sights); err != nil {
		t.Fatalf("lineOfSightUpdated is not an array of sights: %s", b)
	}
	keys := []string{}
	for _, s := range sights {
		keys = append(keys, s.Key)
	}
	if strings.Join(keys, ",") != "vision-v-"+liveTokenID+",light-l-1" || len(los) != 2 {
		t.Fatalf("sights %v, want the visible token's then the light's", keys)
	}
	m := redact.PlayersView(events[0].Data).(*core.Map)
	for _, tok := range m.Tokens {
		if tok.ID == liveTokenID {
			if s, _ := tok.Vision.Sight.(*sight.Sight); s == nil || s.Key != sights[0].Key {
				t.Fatalf("mapUpdated token sight %#v", tok.Vision.Sight)
			}
		}
	}
}

func TestTokenUpdatedCarriesItsSight(t *testing.T) {
	f := newLiveFixture(t)
	f.seeCompatMap(t)
	if _, err := f.svc.PatchToken(context.Background(), liveTokenID, core.Object{"x": 150.0}); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	tok := events[0].Data.(*core.Token)
	if s, _ := tok.Vision.Sight.(*sight.Sight); s == nil || s.Key != "vision-v-"+liveTokenID || s.X != 150 {
		t.Fatalf("tokenUpdated vision.sight %#v, want the sight at the new place", tok.Vision.Sight)
	}
}
