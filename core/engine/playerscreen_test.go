package engine_test

import (
	"context"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/redact"
)

// offScreenMap adds a map of the primary campaign that is not on the
// player screen, with a token on it: the game master's next encounter.
func (f *liveFixture) offScreenMap(t *testing.T) (mapID, tokenID string) {
	t.Helper()
	m, err := f.svc.CreateMap(context.Background(), core.NewMap{Name: "Lair", Width: 10, Height: 10, GridSize: 70})
	if err != nil {
		t.Fatal(err)
	}
	lich := &core.Token{ID: "tok-lich", Name: "Lich", X: 30, Y: 30, MapID: m.ID, Role: core.RoleHostile}
	lich.Normalize()
	f.updateStore(t, func(tx core.Tx) error { return tx.PutToken(lich) })
	f.events.take()
	return m.ID, lich.ID
}

// onlyHost fails unless every event reaches the game master and no player.
func onlyHost(t *testing.T, what string, events []core.Event) {
	t.Helper()
	if len(events) == 0 {
		t.Fatalf("%s: no event", what)
	}
	for _, e := range events {
		if redact.PlayersView(e.Data) != nil {
			t.Errorf("%s: %s reaches players: %+v", what, e.Name, redact.PlayersView(e.Data))
		}
		if redact.HostView(e.Data) == nil {
			t.Errorf("%s: %s does not reach the game master", what, e.Name)
		}
	}
}

// Only the map on the player screen reaches players: a token placed,
// renamed or dragged on another map reaches the game master alone, and
// for players it does not exist.
func TestOffScreenTokensReachTheHostAlone(t *testing.T) {
	f := newLiveFixture(t)
	ctx := context.Background()
	mapID, lich := f.offScreenMap(t)

	if _, err := f.svc.PatchToken(ctx, lich, core.Object{"name": "Lich Queen"}); err != nil {
		t.Fatal(err)
	}
	onlyHost(t, "renaming a token off screen", f.events.take())
	for _, fn := range []func() error{
		func() error { _, err := f.svc.Players().Token(ctx, lich); return err },
		func() error { _, err := f.svc.Players().PatchToken(ctx, lich, core.Object{"name": "x"}); return err },
		func() error {
			_, err := engine.NewDrags(f.svc).Move(ctx, alice, core.Movement{ID: lich, X: 1, Y: 1, State: core.DragStart})
			return err
		},
	} {
		if err := fn(); !core.IsNotFound(err) {
			t.Errorf("a player reached a token off screen: %v", err)
		}
	}
	if tok := f.token(t, lich); tok.Name != "Lich Queen" {
		t.Fatalf("a player's write changed a token off screen: %q", tok.Name)
	}
	for _, e := range f.events.take() {
		if redact.PlayersView(e.Data) != nil {
			t.Errorf("a refused player's request sent players %s", e.Name)
		}
	}

	d := engine.NewDrags(f.svc)
	for _, state := range []string{core.DragStart, core.DragControl, core.DragEnd} {
		if _, err := d.MoveAsHost(ctx, core.EventSource{ID: "host-1"}, core.Movement{ID: lich, X: 40, Y: 40, State: state}); err != nil {
			t.Fatal(err)
		}
	}
	events := f.events.take()
	onlyHost(t, "the game master's drag off screen", events)
	if m := redact.HostView(events[0].Data).(*core.Movement); m.MapID != mapID {
		t.Errorf("the drag names map %q, want %q", m.MapID, mapID)
	}

	// Once the map is on the screen, players see the token and its events.
	if _, err := f.svc.ShowMap(ctx, mapID); err != nil {
		t.Fatal(err)
	}
	f.events.take()
	if _, err := f.svc.PatchToken(ctx, lich, core.Object{"name": "Lich"}); err != nil {
		t.Fatal(err)
	}
	if events := f.events.take(); redact.PlayersView(events[0].Data) == nil {
		t.Fatal("a token on the screen's map does not reach players")
	}
	if _, err := f.svc.Players().Token(ctx, lich); err != nil {
		t.Fatalf("a token on the screen's map: %v", err)
	}
}

// A token or combatant hidden all along is the game master's alone, its id
// included; one that was visible reaches players as {id, hidden} when it
// is hidden, so that they drop it.
func TestHiddenAllAlongSendsPlayersNothing(t *testing.T) {
	f := newLiveFixture(t)
	ctx := context.Background()
	if _, err := f.svc.PatchToken(ctx, liveHiddenID, core.Object{"x": 90.0}); err != nil {
		t.Fatal(err)
	}
	onlyHost(t, "moving a token hidden all along", f.events.take())

	if _, err := f.svc.PatchToken(ctx, liveTokenID, core.Object{"hidden": true}); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	if tok, _ := redact.PlayersView(events[0].Data).(*core.Token); tok == nil || !tok.Hidden {
		t.Fatalf("hiding a token players saw: players get %+v, want the token marked hidden", redact.PlayersView(events[0].Data))
	}
	if _, err := f.svc.PatchToken(ctx, liveTokenID, core.Object{"x": 5.0}); err != nil {
		t.Fatal(err)
	}
	onlyHost(t, "moving a token once hidden", f.events.take())

	c := &core.Combatant{ID: "cmb-lurker", Name: "Lurker", Hidden: true, Campaign: liveCampaign}
	c.Normalize()
	f.updateStore(t, func(tx core.Tx) error { return tx.PutCombatant(c) })
	if _, err := f.svc.PatchCombatant(ctx, c.ID, core.Object{"notes": "waits"}); err != nil {
		t.Fatal(err)
	}
	onlyHost(t, "changing a combatant hidden all along", f.events.take())
	if _, err := f.svc.Players().Combatant(ctx, c.ID); !core.IsNotFound(err) {
		t.Fatalf("a hidden combatant for players: %v", err)
	}
}
