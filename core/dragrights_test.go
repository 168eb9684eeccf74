package core_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/vttapp/companion/core"
)

// setTokenMode puts remote interaction in mode token and marks the free
// token as a player character's, the locked one unlocked and friendly.
func setTokenMode(t *testing.T, f *liveFixture, player bool, role string) {
	t.Helper()
	f.updateStore(t, func(tx core.Tx) error {
		tok, err := tx.Token(liveTokenID)
		if err != nil {
			return err
		}
		tok.Player, tok.Role = player, role
		return tx.PutToken(tok)
	})
	if _, err := f.svc.UpdateSettings(context.Background(), core.SettingsPatch{Interaction: ptr(core.InteractionToken)}); err != nil {
		t.Fatal(err)
	}
	f.events.take()
}

func TestTokenModePlayerTokenBelongsToTheFirstClient(t *testing.T) {
	f := newLiveFixture(t)
	setTokenMode(t, f, true, core.RoleFriendly)
	d := core.NewDrags(f.svc)
	if block := move(t, d, alice, core.DragStart, 10, 20); block != nil {
		t.Fatalf("the first client may not drag the player token: %+v", block)
	}
	move(t, d, alice, core.DragEnd, 30, 40)
	if block := move(t, d, bob, core.DragStart, 30, 40); block == nil || block.State != core.DragBlock {
		t.Fatalf("another client dragged alice's character: %+v", block)
	}
	if got := d.PlayedBy(alice.ID); got != liveTokenID {
		t.Fatalf("PlayedBy(alice) = %q", got)
	}
	if err := d.Choose(context.Background(), bob.ID, liveTokenID); core.KindOf(err) != core.KindConflict {
		t.Fatalf("bob chose alice's token: %v", err)
	}
	d.Release(alice.ID) // alice left: her character is free
	if err := d.Choose(context.Background(), bob.ID, liveTokenID); err != nil {
		t.Fatal(err)
	}
	if block := move(t, d, bob, core.DragStart, 30, 40); block != nil {
		t.Fatalf("bob may not drag the token he chose: %+v", block)
	}
}

func TestTokenModeFriendlyHelpersForAllHostilesForNone(t *testing.T) {
	f := newLiveFixture(t)
	setTokenMode(t, f, false, core.RoleFriendly)
	d := core.NewDrags(f.svc)
	move(t, d, alice, core.DragStart, 10, 20)
	move(t, d, alice, core.DragEnd, 11, 21)
	if block := move(t, d, bob, core.DragStart, 11, 21); block != nil {
		t.Fatalf("a friendly token that is no one's character was refused: %+v", block)
	}
	move(t, d, bob, core.DragEnd, 12, 22)

	setTokenMode(t, f, false, core.RoleHostile)
	if block := move(t, d, alice, core.DragStart, 12, 22); block == nil || block.State != core.DragBlock || block.X != 12 {
		t.Fatalf("a hostile token was dragged in token mode: %+v", block)
	}
	if _, err := f.svc.UpdateSettings(context.Background(), core.SettingsPatch{Interaction: ptr(core.InteractionAll)}); err != nil {
		t.Fatal(err)
	}
	if block := move(t, d, alice, core.DragStart, 12, 22); block != nil {
		t.Fatalf("mode all refused a hostile token: %+v", block)
	}
}

func TestDragSweepEndsDragsTokenModeNoLongerAllows(t *testing.T) {
	f := newLiveFixture(t)
	d := core.NewDrags(f.svc)
	move(t, d, alice, core.DragStart, 10, 20) // mode all, a hostile token (no role)
	f.events.take()
	if _, err := f.svc.UpdateSettings(context.Background(), core.SettingsPatch{Interaction: ptr(core.InteractionToken)}); err != nil {
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
	d := core.NewDrags(f.svc)
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
	d := core.NewDrags(f.svc)
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
	d := core.NewDrags(f.svc)
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
