package engine_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/sight"
)

func TestUpdateDoorCommitsAndRecomputesLineOfSight(t *testing.T) {
	f := newLiveFixture(t)
	ctx := context.Background()
	closed := [][4]float64{{0, 0, 100, 0}, {100, 0, 100, 100}, {100, 100, 200, 100}}
	if _, err := f.svc.ShowMap(ctx, liveMapID); err != nil { // players see doors of the map on screen
		t.Fatal(err)
	}
	f.events.take()

	los, err := f.svc.UpdateDoor(ctx, core.Door{MapID: liveMapID, ID: liveDoorID, State: core.DoorOpen})
	if err != nil {
		t.Fatal(err)
	}
	if los == nil || len(los) != 0 {
		t.Fatalf("line of sight off: sights %v, want an empty array", los)
	}
	events := f.events.take()
	wantNames(t, events, core.EventMapUpdated, core.EventLineOfSightUpdated)
	m := redact.PlayersView(events[0].Data).(*core.Map)
	if m.Walls[1].Door != core.DoorOpen {
		t.Fatalf("mapUpdated door state %q", m.Walls[1].Door)
	}
	for _, tok := range m.Tokens {
		if tok.Hidden {
			t.Fatalf("mapUpdated shows the hidden token %s to players", tok.ID)
		}
	}
	if len(m.Tokens) != 2 {
		t.Fatalf("mapUpdated carries %d tokens, want the 2 visible ones", len(m.Tokens))
	}
	if got := redact.PlayersView(events[1].Data).([]sight.Sight); !reflect.DeepEqual(got, los) {
		t.Fatal("lineOfSightUpdated does not carry the computed sights")
	}
	if want := closed[:2]; !reflect.DeepEqual(redact.SightSegments(m), want) {
		t.Fatalf("open door: segments %v, want %v (window and open door let sight through)", redact.SightSegments(m), want)
	}

	var stored *core.Map
	f.store.View(ctx, func(tx core.Tx) error { stored, err = tx.Map(liveMapID); return err })
	if stored.Walls[1].Door != core.DoorOpen {
		t.Fatalf("door state not committed: %q", stored.Walls[1].Door)
	}
	if len(stored.Tokens) != 3 {
		t.Fatalf("the door write lost tokens: %d left", len(stored.Tokens))
	}

	if _, err = f.svc.UpdateDoor(ctx, core.Door{MapID: liveMapID, ID: liveDoorID, State: core.DoorLocked}); err != nil {
		t.Fatal(err)
	}
	m = redact.PlayersView(f.events.take()[0].Data).(*core.Map)
	if !reflect.DeepEqual(redact.SightSegments(m), closed) {
		t.Fatalf("locked door: segments %v, want %v", redact.SightSegments(m), closed)
	}
}

func TestUpdateDoorRejectsBadRequests(t *testing.T) {
	f := newLiveFixture(t)
	for name, tc := range map[string]struct {
		door core.Door
		kind core.ErrorKind
	}{
		"no map id":    {core.Door{ID: liveDoorID, State: core.DoorOpen}, core.KindInvalid},
		"no wall id":   {core.Door{MapID: liveMapID, State: core.DoorOpen}, core.KindInvalid},
		"bad state":    {core.Door{MapID: liveMapID, ID: liveDoorID, State: "ajar"}, core.KindInvalid},
		"not a door":   {core.Door{MapID: liveMapID, ID: liveWallID, State: core.DoorOpen}, core.KindInvalid},
		"no map":       {core.Door{MapID: "nope", ID: liveDoorID, State: core.DoorOpen}, core.KindNotFound},
		"no such wall": {core.Door{MapID: liveMapID, ID: "nope", State: core.DoorOpen}, core.KindNotFound},
	} {
		if _, err := f.svc.UpdateDoor(context.Background(), tc.door); core.KindOf(err) != tc.kind {
			t.Errorf("%s: %v, want %v", name, err, tc.kind)
		}
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("a refused door change was broadcast: %v", eventNames(events))
	}
}

func TestSightSegmentsSkipsDegenerateWalls(t *testing.T) {
	segments := redact.SightSegments(&core.Map{ID: "m", Walls: []core.Wall{
		{ID: "dot", Data: []float64{1, 1}},
		{ID: "odd", Data: []float64{0, 0, 10, 0, 10}},
		{ID: "invisible", Data: []float64{0, 0, 1, 1}, Type: core.WallInvisible},
		{ID: "secret", Data: []float64{0, 0, 1, 1}, Type: core.WallSecretDoor, Door: core.DoorClosed},
	}})
	if want := [][4]float64{{0, 0, 10, 0}, {0, 0, 1, 1}}; !reflect.DeepEqual(segments, want) {
		t.Fatalf("segments %v, want %v", segments, want)
	}
}

// A door opened on a map that is not on the player screen reaches the
// host alone: players see a map once it is shown.
func TestUpdateDoorOffScreenReachesTheHostAlone(t *testing.T) {
	f := newLiveFixture(t)
	f.clearScreen(t)
	ctx := context.Background()
	if _, err := f.svc.UpdateDoor(ctx, core.Door{MapID: liveMapID, ID: liveDoorID, State: core.DoorOpen}); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	wantNames(t, events, core.EventMapUpdated, core.EventLineOfSightUpdated)
	for _, e := range events {
		if redact.PlayersView(e.Data) != nil {
			t.Errorf("%s of an off-screen map reaches players: %+v", e.Name, redact.PlayersView(e.Data))
		}
		if redact.HostView(e.Data) == nil {
			t.Errorf("%s does not reach the host", e.Name)
		}
	}
}
