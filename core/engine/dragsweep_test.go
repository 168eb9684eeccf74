package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/redact"
)

// waitForBlock waits for the sweep's block of liveTokenID among the
// events published from now on.
func waitForBlock(t *testing.T, f *liveFixture) *core.Movement {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, e := range f.events.take() {
			if e.Name != core.EventTokenMoved {
				continue
			}
			if m, ok := redact.HostView(e.Data).(*core.Movement); ok && m.ID == liveTokenID && m.State == core.DragBlock {
				return m
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no block within 5 s: the drag outlived its right")
	return nil
}

// The service's own tracker ends a drag as soon as a change takes its
// right away, without waiting for the dragger's next message: the token
// locked by the game master, then remote interaction turned off.
func TestServiceDragsEndWhenAChangeTakesTheirRightAway(t *testing.T) {
	f := newLiveFixture(t)
	d := f.svc.Drags()
	ctx := context.Background()
	move(t, d, alice, core.DragStart, 10, 20)
	f.events.take()
	if _, err := f.svc.PatchToken(ctx, liveTokenID, core.Object{"locked": true}); err != nil {
		t.Fatal(err)
	}
	if m := waitForBlock(t, f); m.X != 10 || m.Y != 20 || m.Source.ID != alice.ID {
		t.Fatalf("block of a locked token %+v, want at its committed place for alice's drag", m)
	}
	if d.Active() != 0 {
		t.Fatal("the ended drag is still counted")
	}

	if _, err := f.svc.PatchToken(ctx, liveTokenID, core.Object{"locked": false}); err != nil {
		t.Fatal(err)
	}
	move(t, d, bob, core.DragStart, 10, 20)
	f.events.take()
	on := false
	if _, err := f.svc.UpdateSettings(ctx, kernel.SettingsPatch{RemoteInteraction: &on}); err != nil {
		t.Fatal(err)
	}
	waitForBlock(t, f)
	if d.Active() != 0 {
		t.Fatal("remote interaction off left a drag")
	}
}

// A change that cannot end a drag (the log, the streams) leaves it alone,
// and so does one that leaves it lawful. Proving that nothing happened
// takes a marker, not a pause: a second drag that a last change does end.
// Sweeps run one after another, each over every drag, so once the marker's
// sweep is over (its drag blocked, the count of drags down by one) any
// sweep the earlier changes caused has run too.
func TestServiceDragsGoOnThroughChangesThatKeepTheirRight(t *testing.T) {
	f := newLiveFixture(t)
	d := f.svc.Drags()
	ctx := context.Background()
	if _, err := f.svc.PatchToken(ctx, liveLockedID, core.Object{"locked": false}); err != nil {
		t.Fatal(err)
	}
	if block, err := d.Move(ctx, bob, core.Movement{ID: liveLockedID, X: 50, Y: 60, State: core.DragStart}); err != nil || block != nil {
		t.Fatalf("the marker's drag: %v %+v", err, block)
	}
	move(t, d, alice, core.DragStart, 10, 20)
	f.svc.Publish(core.Event{Name: core.EventMessageCreated, Data: &core.Message{ID: "m"}})
	if _, err := f.svc.PatchToken(ctx, liveTokenID, core.Object{"name": "Heroine"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.PatchToken(ctx, liveLockedID, core.Object{"locked": true}); err != nil { // the marker
		t.Fatal(err)
	}
	var events []core.Event
	for deadline := time.Now().Add(5 * time.Second); d.Active() != 1; time.Sleep(5 * time.Millisecond) {
		if d.Active() == 0 || time.Now().After(deadline) {
			t.Fatalf("%d drags after the marker's sweep, want the lawful one alone", d.Active())
		}
	}
	events = f.events.take()
	marked := false
	for _, e := range events {
		if m, ok := redact.HostView(e.Data).(*core.Movement); ok && m.State == core.DragBlock {
			if m.ID != liveLockedID {
				t.Fatalf("a lawful drag was blocked after %s", e.Name)
			}
			marked = true
		}
	}
	if !marked {
		t.Fatal("the marker's drag ended without its block: the check above proves nothing")
	}
	if d.Active() != 1 {
		t.Fatal("a lawful drag ended")
	}
	if reply := move(t, d, alice, core.DragEnd, 30, 40); reply != nil {
		t.Fatalf("the drag's end was refused: %+v", reply)
	}
}

// Paused, players move nothing (the real web client makes every token inert
// while paused, and so does ours): a drag starting then gets block, a drag
// under way when the game master pauses ends with block for everyone, and
// after resuming drags work again.
func TestPauseStopsPlayersDrags(t *testing.T) {
	f := newLiveFixture(t)
	d := f.svc.Drags()
	ctx := context.Background()
	yes, no := true, false
	move(t, d, alice, core.DragStart, 10, 20)
	f.events.take()
	if _, err := f.svc.UpdateSettings(ctx, kernel.SettingsPatch{Paused: &yes}); err != nil {
		t.Fatal(err)
	}
	if m := waitForBlock(t, f); m.X != 10 || m.Y != 20 {
		t.Fatalf("a drag under way when the game paused ended %+v, want block at 10,20", m)
	}
	if d.Active() != 0 {
		t.Fatal("a pause left a drag")
	}
	block := move(t, d, bob, core.DragStart, 500, 600)
	if block == nil || block.State != core.DragBlock || block.X != 10 || block.Y != 20 {
		t.Fatalf("a drag starting while paused: reply %+v, want block at 10,20", block)
	}
	if reply := move(t, d, bob, core.DragEnd, 500, 600); reply == nil || reply.State != core.DragBlock {
		t.Fatalf("a drag's end while paused: reply %+v, want block", reply)
	}
	if tok := f.token(t, liveTokenID); tok.X != 10 {
		t.Fatalf("a paused player's drag moved the token to %v", tok.X)
	}
	if _, err := f.svc.UpdateSettings(ctx, kernel.SettingsPatch{Paused: &no}); err != nil {
		t.Fatal(err)
	}
	move(t, d, alice, core.DragStart, 10, 20)
	if reply := move(t, d, alice, core.DragEnd, 30, 40); reply != nil {
		t.Fatalf("after resuming, the drag's end was refused: %+v", reply)
	}
	if tok := f.token(t, liveTokenID); tok.X != 30 {
		t.Fatalf("after resuming, the drag left the token at %v, want 30", tok.X)
	}
}
