package engine_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// setTokenMode puts remote interaction in mode token and gives the free
// token a role and, when character, the fixture's character (the seat's).
func setTokenMode(t *testing.T, f *liveFixture, character bool, role string) {
	t.Helper()
	f.updateStore(t, func(tx core.Tx) error {
		tok, err := tx.Token(liveTokenID)
		if err != nil {
			return err
		}
		tok.Role, tok.EntityID = role, nil
		if character {
			id := liveEntityID
			tok.EntityID, tok.Player = &id, true
		}
		return tx.PutToken(tok)
	})
	if _, err := f.svc.UpdateSettings(context.Background(), kernel.SettingsPatch{Interaction: ptr(core.InteractionToken)}); err != nil {
		t.Fatal(err)
	}
	f.events.take()
}

// seat gives the fixture's character to a player and returns the hash
// of their seat token, as the hub tells the drag tracker.
func seat(t *testing.T, f *liveFixture) string {
	t.Helper()
	taken, err := f.svc.TakeSeat(context.Background(), core.Actor{}, liveEntityID, "Alice")
	if err != nil {
		t.Fatal(err)
	}
	f.events.take()
	return core.SeatHash(taken.SeatToken)
}

// TestTokenModeSeatHolderDragsTheirCharacter: in mode token the player
// holding the character's seat drags its token; nobody else does, not
// even the first to try (the guess this replaced); freeing the seat takes
// the right away.
func TestTokenModeSeatHolderDragsTheirCharacter(t *testing.T) {
	f := newLiveFixture(t)
	setTokenMode(t, f, true, core.RoleFriendly)
	d := engine.NewDrags(f.svc)
	if block := move(t, d, bob, core.DragStart, 10, 20); block == nil || block.State != core.DragBlock {
		t.Fatalf("a client without a seat dragged a player character: %+v", block)
	}
	d.SetActor(alice.ID, core.Actor{Seat: seat(t, f)})
	if block := move(t, d, alice, core.DragStart, 10, 20); block != nil {
		t.Fatalf("the seat holder may not drag their character: %+v", block)
	}
	move(t, d, alice, core.DragEnd, 30, 40)
	if block := move(t, d, bob, core.DragStart, 30, 40); block == nil || block.State != core.DragBlock {
		t.Fatalf("another client dragged alice's character: %+v", block)
	}
	d.SetActor(bob.ID, core.Actor{Role: core.ClientSpectator, Seat: "not a seat"})
	if block := move(t, d, bob, core.DragStart, 30, 40); block == nil {
		t.Fatal("a spectator dragged a token")
	}
	if err := f.svc.FreeSeat(context.Background(), liveEntityID); err != nil {
		t.Fatal(err)
	}
	if block := move(t, d, alice, core.DragStart, 30, 40); block == nil || block.State != core.DragBlock {
		t.Fatalf("a freed seat still drags its character: %+v", block)
	}
}

// TestTokenModeControlsAndNothingElse: a friendly token that is no one's
// character moves only for a seat the game master gave it to (a
// familiar); hostile tokens likewise; mode all lets anyone.
func TestTokenModeControlsAndNothingElse(t *testing.T) {
	f := newLiveFixture(t)
	setTokenMode(t, f, false, core.RoleFriendly)
	d := engine.NewDrags(f.svc)
	d.SetActor(alice.ID, core.Actor{Seat: seat(t, f)})
	if block := move(t, d, alice, core.DragStart, 10, 20); block == nil || block.State != core.DragBlock {
		t.Fatalf("a seat dragged a friendly token it does not control: %+v", block)
	}
	if err := f.svc.SetSeatControls(context.Background(), liveEntityID, []string{liveTokenID}); err != nil {
		t.Fatal(err)
	}
	if block := move(t, d, alice, core.DragStart, 10, 20); block != nil {
		t.Fatalf("a seat may not drag the familiar it controls: %+v", block)
	}
	move(t, d, alice, core.DragEnd, 11, 21)
	if block := move(t, d, bob, core.DragStart, 11, 21); block == nil {
		t.Fatal("a client without a seat dragged alice's familiar")
	}
	setTokenMode(t, f, false, core.RoleHostile)
	if block := move(t, d, bob, core.DragStart, 11, 21); block == nil || block.State != core.DragBlock || block.X != 11 {
		t.Fatalf("a hostile token was dragged in token mode: %+v", block)
	}
	if err := f.svc.SetSeatControls(context.Background(), liveEntityID, []string{"no-such-token"}); core.KindOf(err) != core.KindNotFound {
		t.Fatalf("controls naming an unknown token: %v", err)
	}
	if _, err := f.svc.UpdateSettings(context.Background(), kernel.SettingsPatch{Interaction: ptr(core.InteractionAll)}); err != nil {
		t.Fatal(err)
	}
	if block := move(t, d, bob, core.DragStart, 11, 21); block != nil {
		t.Fatalf("mode all refused a hostile token: %+v", block)
	}
}

func TestDragSweepEndsDragsTokenModeNoLongerAllows(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	move(t, d, alice, core.DragStart, 10, 20) // mode all, a hostile token (no role)
	f.events.take()
	if _, err := f.svc.UpdateSettings(context.Background(), kernel.SettingsPatch{Interaction: ptr(core.InteractionToken)}); err != nil {
		t.Fatal(err)
	}
	f.events.take()
	if err := d.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	wantNames(t, events, core.EventTokenMoved)
	if m := movement(t, events[0]); m.State != core.DragBlock {
		t.Fatalf("sweep sent %s, want block", m.State)
	}
}

func TestDragCarriesVisionPolygonOnControlAndEnd(t *testing.T) {
	f := newLiveFixture(t)
	f.seeCompatMap(t)
	d := engine.NewDrags(f.svc)
	ctx := context.Background()
	for _, state := range []string{core.DragStart, core.DragControl, core.DragControl, core.DragEnd} {
		if _, err := d.Move(ctx, alice, core.Movement{ID: liveTokenID, X: 60, Y: 50, State: state, Polygon: []float64{1, 2, 3}}); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range f.events.take() {
		if e.Name != core.EventTokenMoved {
			continue
		}
		m := movement(t, e)
		if len(m.Polygon) < 6 || m.Polygon[0] == 1 && m.Polygon[1] == 2 {
			t.Fatalf("event %d (%s): polygon %v, want the server's vision polygon", i, m.State, m.Polygon)
		}
	}
}

func TestDragWithoutLineOfSightCarriesNoPolygon(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	if _, err := d.Move(context.Background(), alice, core.Movement{ID: liveTokenID, X: 60, Y: 50, State: core.DragStart, Polygon: []float64{1, 2, 3, 4, 5, 6}}); err != nil {
		t.Fatal(err)
	}
	if m := movement(t, f.events.take()[0]); m.Polygon != nil {
		t.Fatalf("a client's polygon was passed on: %v", m.Polygon)
	}
}

func TestDragCancelAndBlockPutTheVisionBack(t *testing.T) {
	f := newLiveFixture(t)
	f.seeCompatMap(t)
	d := engine.NewDrags(f.svc)
	ctx := context.Background()
	start, err := d.Move(ctx, alice, core.Movement{ID: liveTokenID, X: 50, Y: 50, State: core.DragStart})
	if err != nil || start != nil {
		t.Fatal(start, err)
	}
	at := movement(t, f.events.take()[0]).Polygon
	d.Move(ctx, alice, core.Movement{ID: liveTokenID, X: 150, Y: 150, State: core.DragControl})
	d.Move(ctx, alice, core.Movement{ID: liveTokenID, X: 150, Y: 150, State: core.DragCancel})
	events := f.events.take()
	if m := movement(t, events[len(events)-1]); m.State != core.DragCancel || !reflect.DeepEqual(m.Polygon, at) {
		t.Fatalf("cancel %s carries polygon %v, want the one at the start %v", m.State, m.Polygon, at)
	}

	d.Move(ctx, alice, core.Movement{ID: liveTokenID, X: 150, Y: 150, State: core.DragStart})
	if _, err := d.Veto(ctx, liveTokenID); err != nil {
		t.Fatal(err)
	}
	events = f.events.take()
	if m := movement(t, events[len(events)-1]); m.State != core.DragBlock || !reflect.DeepEqual(m.Polygon, at) {
		t.Fatalf("veto %s carries polygon %v, want the one at the committed place", m.State, m.Polygon)
	}
}
