package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/sight"
)

const liveFoeID = "tok-foe"

// seeFoe adds to the compat map (seeCompatMap: line of sight on, the
// friendly hero with vision) a hostile token with vision of its own.
func (f *liveFixture) seeFoe(t *testing.T) {
	t.Helper()
	f.seeCompatMap(t)
	foe := &core.Token{ID: liveFoeID, Name: "Ghoul", X: 250, Y: 150, Role: core.RoleHostile, MapID: liveMapID,
		Vision: &core.Vision{ID: "v-foe", Enabled: true}}
	foe.Normalize()
	f.updateStore(t, func(tx core.Tx) error { return tx.PutToken(foe) })
}

// noFoeSight fails when what players receive carries the foe's sight.
func noFoeSight(t *testing.T, what string, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	if strings.Contains(string(b), "vision-v-foe") {
		t.Errorf("%s carries the foe's sight to players: %.300s", what, b)
	}
}

// Players receive the sight their party sees by, never a foe's: not in
// GET /api's map, not in mapUpdated or lineOfSightUpdated after a door,
// not in tokenUpdated; the game master receives every sight.
func TestPlayersReceiveOnlyThePartysSight(t *testing.T) {
	f := newLiveFixture(t)
	f.seeFoe(t)
	ctx := context.Background()
	snap, err := f.svc.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	noFoeSight(t, "GET /api's map", snap.Map)
	for _, tok := range snap.Map.Tokens {
		if tok.ID == liveTokenID {
			if s, _ := tok.Vision.Sight.(*sight.Sight); s == nil || len(s.Polygon) < 6 {
				t.Fatalf("the party's token lost its sight: %#v", tok.Vision.Sight)
			}
		}
	}

	if _, err := f.svc.UpdateDoor(ctx, core.Door{MapID: liveMapID, ID: liveDoorID, State: core.DoorOpen}); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	wantNames(t, events, core.EventMapUpdated, core.EventLineOfSightUpdated)
	for _, e := range events {
		noFoeSight(t, e.Name, redact.PlayersView(e.Data))
	}
	host, _ := json.Marshal(redact.HostView(events[0].Data))
	if !strings.Contains(string(host), "vision-v-foe") {
		t.Error("the game master's mapUpdated lost the foe's sight")
	}

	if _, err := f.svc.PatchToken(ctx, liveFoeID, core.Object{"x": 260.0}); err != nil {
		t.Fatal(err)
	}
	events = f.events.take()
	wantNames(t, events, core.EventTokenUpdated)
	foe := redact.PlayersView(events[0].Data).(*core.Token)
	noFoeSight(t, "tokenUpdated as the hub sends it", redact.TokenForPlayers(foe))
	if s, _ := redact.HostView(events[0].Data).(*core.Token).Vision.Sight.(*sight.Sight); s == nil {
		t.Error("the game master's tokenUpdated lost the foe's sight")
	}
	if tok, err := f.svc.Players().Token(ctx, liveFoeID); err != nil {
		t.Fatal(err)
	} else {
		noFoeSight(t, "GET /api/tokens/{id}", redact.TokenForPlayers(tok))
	}
}

// A foe's drag carries its polygon to the game master alone; the party's
// to everyone.
func TestFoesDragPolygonReachesTheHostAlone(t *testing.T) {
	f := newLiveFixture(t)
	f.seeFoe(t)
	ctx := context.Background()
	d := engine.NewDrags(f.svc)
	for _, state := range []string{core.DragStart, core.DragControl, core.DragControl, core.DragEnd} {
		if _, err := d.Move(ctx, alice, core.Movement{ID: liveFoeID, X: 270, Y: 150, State: state}); err != nil {
			t.Fatalf("%s: %v", state, err)
		}
	}
	events := f.events.take()
	moves := 0
	for _, e := range events {
		if e.Name != core.EventTokenMoved {
			continue
		}
		moves++
		players := redact.PlayersView(e.Data).(*core.Movement)
		host := redact.HostView(e.Data).(*core.Movement)
		if players.Polygon != nil {
			t.Errorf("%s of a foe carries its polygon to players", players.State)
		}
		if players.State != core.DragStart && len(host.Polygon) < 6 {
			t.Errorf("%s of a foe lost its polygon for the game master", host.State)
		}
		if players.MapID != liveMapID {
			t.Errorf("%s names map %q, want %q", players.State, players.MapID, liveMapID)
		}
	}
	if moves != 4 {
		t.Fatalf("%d tokenMoved, want 4", moves)
	}
	if _, err := d.Move(ctx, alice, core.Movement{ID: liveTokenID, X: 60, Y: 50, State: core.DragStart}); err != nil {
		t.Fatal(err)
	}
	if m := redact.PlayersView(f.events.take()[0].Data).(*core.Movement); len(m.Polygon) < 6 {
		t.Fatalf("the party's drag lost its polygon: %+v", m)
	}
}
