package engine_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/engine/play"
)

var (
	alice = core.EventSource{ID: "client-1", Name: "Alice", Color: "#ff0000"}
	bob   = core.EventSource{ID: "client-2", Name: "Bob", Color: "#00ff00"}
)

func move(t *testing.T, d *play.Drags, from core.EventSource, state string, x, y float64) *core.Movement {
	t.Helper()
	block, err := d.Move(context.Background(), from, core.Movement{ID: liveTokenID, X: x, Y: y, State: state})
	if err != nil {
		t.Fatalf("Move %s: %v", state, err)
	}
	return block
}

func wantNames(t *testing.T, events []core.Event, want ...string) {
	t.Helper()
	if got := eventNames(events); !reflect.DeepEqual(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
}

func movement(t *testing.T, e core.Event) *core.Movement {
	t.Helper()
	m, ok := e.Data.(*core.Movement)
	if !ok {
		t.Fatalf("%s carries %T, want *core.Movement", e.Name, e.Data)
	}
	return m
}

func TestDragStartControlEndCommitsAndBroadcasts(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	for _, step := range []struct {
		state string
		x, y  float64
	}{{core.DragStart, 10, 20}, {core.DragControl, 40, 50}, {core.DragControl, 70, 90}} {
		if block := move(t, d, alice, step.state, step.x, step.y); block != nil {
			t.Fatalf("%s refused: %+v", step.state, block)
		}
	}
	if got := d.Dragging(liveTokenID); got != alice.ID {
		t.Fatalf("Dragging = %q, want %q", got, alice.ID)
	}
	if tok := f.token(t, liveTokenID); tok.X != 10 || tok.Y != 20 {
		t.Fatalf("control wrote the store: token at %v,%v", tok.X, tok.Y)
	}
	events := f.events.take()
	wantNames(t, events, core.EventTokenMoved, core.EventTokenMoved, core.EventTokenMoved)
	m := movement(t, events[2])
	if m.State != core.DragControl || m.X != 70 || m.Y != 90 || m.Source == nil || *m.Source != alice {
		t.Fatalf("re-broadcast control = %+v (source %+v)", m, m.Source)
	}

	move(t, d, alice, core.DragEnd, 105, 115)
	events = f.events.take()
	wantNames(t, events, core.EventTokenMoved, core.EventTokenUpdated)
	if m := movement(t, events[0]); m.State != core.DragEnd || m.X != 105 {
		t.Fatalf("end broadcast = %+v", m)
	}
	if tok := events[1].Data.(*core.Token); tok.X != 105 || tok.Y != 115 {
		t.Fatalf("tokenUpdated carries %v,%v", tok.X, tok.Y)
	}
	if tok := f.token(t, liveTokenID); tok.X != 105 || tok.Y != 115 {
		t.Fatalf("end did not commit: token at %v,%v", tok.X, tok.Y)
	}
	if got := d.Dragging(liveTokenID); got != "" {
		t.Fatalf("drag still active after end (by %q)", got)
	}
}

// TestDragCountedBeforeItsStartIsBroadcast: when a drag's start reaches
// the subscribers, Active already counts it. The hub sweeps the drags after
// a change only when Active says one is in progress; counted after the
// broadcast, a change made by someone who had just seen the start (remote
// interaction turned off) could find none, and the drag went on
// (tests/api/realclient_test.go waited for its block in vain on a loaded
// machine).
func TestDragCountedBeforeItsStartIsBroadcast(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	var active []int
	f.events.onPublish = func(events []core.Event) {
		for _, e := range events {
			if e.Name == core.EventTokenMoved {
				active = append(active, d.Active())
			}
		}
	}
	move(t, d, alice, core.DragStart, 10, 20)
	move(t, d, alice, core.DragControl, 40, 50)
	if !reflect.DeepEqual(active, []int{1, 1}) {
		t.Fatalf("drags in progress when the start and a control were broadcast: %v, want [1 1]", active)
	}
}

// A cancel (or a client's block) with no drag of the token in progress
// abandons nothing: it reaches no client. Before, it was broadcast to every
// client, which put back a token nobody had moved.
func TestDragCancelWithoutADragIsDropped(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	for _, state := range []string{core.DragCancel, core.DragBlock} {
		if block := move(t, d, alice, state, 300, 400); block != nil {
			t.Fatalf("%s without a drag answered %+v", state, block)
		}
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("a cancel and a block with no drag published %v", eventNames(events))
	}
	// Nor after a drag that ended.
	move(t, d, alice, core.DragStart, 10, 20)
	move(t, d, alice, core.DragEnd, 30, 40)
	f.events.take()
	move(t, d, alice, core.DragCancel, 300, 400)
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("a cancel with no drag in progress published %v", eventNames(events))
	}
	if tok := f.token(t, liveTokenID); tok.X != 30 || tok.Y != 40 {
		t.Fatalf("the token moved: %v,%v", tok.X, tok.Y)
	}
}

func TestDragCancelRestoresStartPosition(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	move(t, d, alice, core.DragStart, 10, 20)
	move(t, d, alice, core.DragControl, 300, 400)
	f.events.take()
	move(t, d, alice, core.DragCancel, 300, 400)
	events := f.events.take()
	wantNames(t, events, core.EventTokenMoved)
	if m := movement(t, events[0]); m.State != core.DragCancel || m.X != 10 || m.Y != 20 {
		t.Fatalf("cancel broadcast = %+v, want the start position 10,20", m)
	}
	if tok := f.token(t, liveTokenID); tok.X != 10 || tok.Y != 20 {
		t.Fatalf("cancel changed the store: %v,%v", tok.X, tok.Y)
	}
	if d.Dragging(liveTokenID) != "" {
		t.Fatal("drag still active after cancel")
	}
}

func TestDragRefusedWhenRemoteInteractionOff(t *testing.T) {
	f := newLiveFixture(t)
	f.setRemoteInteraction(t, false)
	d := engine.NewDrags(f.svc)
	for _, state := range []string{core.DragStart, core.DragControl, core.DragEnd} {
		block := move(t, d, alice, state, 500, 600)
		if block == nil || block.State != core.DragBlock || block.X != 10 || block.Y != 20 || block.ID != liveTokenID {
			t.Fatalf("%s with remote interaction off: reply %+v, want block at 10,20", state, block)
		}
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("a refused drag was broadcast: %v", eventNames(events))
	}
	if tok := f.token(t, liveTokenID); tok.X != 10 {
		t.Fatalf("a refused end moved the token to %v", tok.X)
	}
}

func TestDragBlockedForEveryoneWhenInteractionTurnsOffMidDrag(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	move(t, d, alice, core.DragStart, 10, 20)
	move(t, d, alice, core.DragControl, 30, 30)
	f.setRemoteInteraction(t, false)
	if block := move(t, d, alice, core.DragControl, 40, 40); block != nil {
		t.Fatalf("block went to the sender alone: %+v", block)
	}
	events := f.events.take()
	wantNames(t, events, core.EventTokenMoved)
	if m := movement(t, events[0]); m.State != core.DragBlock || m.X != 10 || m.Y != 20 {
		t.Fatalf("broadcast %+v, want block at the committed 10,20", m)
	}
	if d.Dragging(liveTokenID) != "" {
		t.Fatal("drag still active after block")
	}
}

func TestDragOfLockedTokenBlocksSender(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	block, err := d.Move(context.Background(), alice, core.Movement{ID: liveLockedID, X: 1, Y: 1, State: core.DragStart})
	if err != nil {
		t.Fatal(err)
	}
	if block == nil || block.State != core.DragBlock || block.X != 50 || block.Y != 60 {
		t.Fatalf("reply %+v, want block at 50,60", block)
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("broadcast %v", eventNames(events))
	}
}

func TestDragEndsInBlockWhenTokenLockedMidDrag(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	move(t, d, alice, core.DragStart, 10, 20)
	move(t, d, alice, core.DragControl, 30, 30)
	if _, err := f.svc.PatchToken(context.Background(), liveTokenID, core.Object{"locked": true}); err != nil {
		t.Fatal(err)
	}
	f.events.take()
	move(t, d, alice, core.DragEnd, 99, 99)
	events := f.events.take()
	wantNames(t, events, core.EventTokenMoved)
	if m := movement(t, events[0]); m.State != core.DragBlock || m.X != 10 || m.Y != 20 {
		t.Fatalf("broadcast %+v, want block at 10,20", m)
	}
	if tok := f.token(t, liveTokenID); tok.X != 10 {
		t.Fatalf("end of a locked token committed %v", tok.X)
	}
}

func TestDragEndsInBlockWhenTokenDeletedMidDrag(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	move(t, d, alice, core.DragStart, 10, 20)
	move(t, d, alice, core.DragControl, 30, 30)
	if err := f.svc.DeleteToken(context.Background(), liveTokenID); err != nil {
		t.Fatal(err)
	}
	f.events.take()
	move(t, d, alice, core.DragControl, 40, 40)
	events := f.events.take()
	wantNames(t, events, core.EventTokenMoved)
	if m := movement(t, events[0]); m.State != core.DragBlock || m.X != 10 || m.Y != 20 {
		t.Fatalf("broadcast %+v, want block at the start 10,20", m)
	}
	// Without a drag, a message about a missing token is an error.
	if _, err := d.Move(context.Background(), alice, core.Movement{ID: liveTokenID, State: core.DragControl}); core.KindOf(err) != core.KindNotFound {
		t.Fatalf("move of a deleted token: %v, want not found", err)
	}
}

func TestDragOfTokenHeldByAnotherClient(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	move(t, d, alice, core.DragStart, 10, 20)
	move(t, d, alice, core.DragControl, 30, 30)
	f.events.take()
	block := move(t, d, bob, core.DragStart, 90, 90)
	if block == nil || block.State != core.DragBlock || block.X != 10 {
		t.Fatalf("Bob's start: %+v, want block at 10,20", block)
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("Bob's refused start was broadcast: %v", eventNames(events))
	}
	if d.Dragging(liveTokenID) != alice.ID {
		t.Fatal("Alice lost her drag")
	}
	// A drag silent for longer than DragIdleTimeout is abandoned.
	f.advance(core.DragIdleTimeout + time.Second)
	if block := move(t, d, bob, core.DragStart, 90, 90); block != nil {
		t.Fatalf("Bob could not take over an abandoned drag: %+v", block)
	}
	if d.Dragging(liveTokenID) != bob.ID {
		t.Fatal("Bob does not hold the token")
	}
}

func TestDragReleaseAndVeto(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	move(t, d, alice, core.DragStart, 10, 20)
	move(t, d, alice, core.DragControl, 30, 30)
	f.events.take()
	d.Release(alice.ID)
	events := f.events.take()
	wantNames(t, events, core.EventTokenMoved)
	if m := movement(t, events[0]); m.State != core.DragCancel || m.X != 10 || m.Y != 20 {
		t.Fatalf("release broadcast %+v, want cancel at 10,20", m)
	}

	move(t, d, bob, core.DragStart, 10, 20)
	f.events.take()
	vetoed, err := d.Veto(context.Background(), liveTokenID)
	if err != nil || !vetoed {
		t.Fatalf("Veto = %v, %v", vetoed, err)
	}
	events = f.events.take()
	wantNames(t, events, core.EventTokenMoved)
	if m := movement(t, events[0]); m.State != core.DragBlock || m.X != 10 {
		t.Fatalf("veto broadcast %+v", m)
	}
	if vetoed, _ := d.Veto(context.Background(), liveTokenID); vetoed {
		t.Fatal("veto of a token nobody drags reported a drag")
	}
}

// A control or end the client sent before the host's block reached it
// arrives after the veto: it must not start the drag again, nor commit the
// refused move, yet the client's next drag is a drag.
func TestDragLateMessagesAfterVetoAreRefused(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	move(t, d, bob, core.DragStart, 10, 20)
	move(t, d, bob, core.DragControl, 40, 20)
	if _, err := d.Veto(context.Background(), liveTokenID); err != nil {
		t.Fatal(err)
	}
	f.events.take()

	for _, state := range []string{core.DragControl, core.DragControl, core.DragEnd} {
		block := move(t, d, bob, state, 60, 20)
		if block == nil || block.State != core.DragBlock || block.X != 10 || block.Y != 20 {
			t.Fatalf("late %s after the veto answered %+v, want block at 10,20", state, block)
		}
		if got := d.Dragging(liveTokenID); got != "" {
			t.Fatalf("late %s after the veto restarted the drag (by %q)", state, got)
		}
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("late messages after the veto were broadcast: %v", eventNames(events))
	}
	if tok := f.token(t, liveTokenID); tok.X != 10 || tok.Y != 20 {
		t.Fatalf("a late end committed the vetoed move: token at %v,%v", tok.X, tok.Y)
	}

	// The end closed the refused drag: Bob's next drag is his.
	if block := move(t, d, bob, core.DragControl, 30, 20); block != nil {
		t.Fatalf("Bob's next drag refused: %+v", block)
	}
	if d.Dragging(liveTokenID) != bob.ID {
		t.Fatal("Bob's next drag did not start")
	}

	// A client that never sends its end is forgiven after the idle
	// timeout; another client is never held by someone else's veto.
	if _, err := d.Veto(context.Background(), liveTokenID); err != nil {
		t.Fatal(err)
	}
	if block := move(t, d, bob, core.DragControl, 35, 20); block == nil {
		t.Fatal("a late control right after the second veto was taken")
	}
	f.advance(core.DragIdleTimeout)
	if block := move(t, d, bob, core.DragStart, 35, 20); block != nil {
		t.Fatalf("Bob's drag after the idle timeout refused: %+v", block)
	}
	if vetoed, err := d.Veto(context.Background(), liveTokenID); err != nil || !vetoed {
		t.Fatalf("third veto: %v, %v", vetoed, err)
	}
	if block := move(t, d, alice, core.DragStart, 10, 20); block != nil {
		t.Fatalf("Alice refused for a veto of nobody's drag: %+v", block)
	}
}

func TestDragControlWithoutStartAndClientBlock(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	move(t, d, alice, core.DragControl, 30, 30)
	if d.Dragging(liveTokenID) != alice.ID {
		t.Fatal("a control without start did not start a drag")
	}
	f.events.take()
	move(t, d, alice, core.DragBlock, 30, 30)
	events := f.events.take()
	wantNames(t, events, core.EventTokenMoved)
	if m := movement(t, events[0]); m.State != core.DragBlock || m.X != 10 || m.Y != 20 {
		t.Fatalf("client block broadcast %+v, want block at the start", m)
	}
}

func TestDragRejectsMalformedMovements(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	for name, m := range map[string]core.Movement{
		"no id":     {State: core.DragStart},
		"bad state": {ID: liveTokenID, State: "teleport"},
	} {
		if _, err := d.Move(context.Background(), alice, m); core.KindOf(err) != core.KindInvalid {
			t.Errorf("%s: %v, want invalid", name, err)
		}
	}
	if _, err := d.Move(context.Background(), alice, core.Movement{ID: "nope", State: core.DragStart}); core.KindOf(err) != core.KindNotFound {
		t.Errorf("unknown token: %v, want not found", err)
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("broadcast %v", eventNames(events))
	}
}

func TestDragSweepEndsDragsTheHostNoLongerAllows(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	ctx := context.Background()
	move(t, d, alice, core.DragStart, 10, 20)
	f.events.take()
	if err := d.Sweep(ctx); err != nil || d.Active() != 1 {
		t.Fatalf("sweep of a lawful drag: %v, %d active", err, d.Active())
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("a lawful drag was blocked: %v", eventNames(events))
	}
	if _, err := f.svc.PatchToken(ctx, liveTokenID, core.Object{"locked": true}); err != nil {
		t.Fatal(err)
	}
	f.events.take()
	if err := d.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	wantNames(t, events, core.EventTokenMoved)
	if m := movement(t, events[0]); m.State != core.DragBlock || m.X != 10 || m.Source.ID != alice.ID {
		t.Fatalf("sweep of a locked token: %+v", m)
	}
	if d.Active() != 0 {
		t.Fatal("the swept drag is still counted")
	}

	if _, err := f.svc.PatchToken(ctx, liveTokenID, core.Object{"locked": false}); err != nil {
		t.Fatal(err)
	}
	move(t, d, bob, core.DragStart, 10, 20)
	f.setRemoteInteraction(t, false)
	f.events.take()
	if err := d.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	wantNames(t, f.events.take(), core.EventTokenMoved)
	if d.Active() != 0 {
		t.Fatal("remote interaction off left a drag")
	}
}

func TestDragOfHiddenTokenIsRefusedWithoutItsPlace(t *testing.T) {
	f := newLiveFixture(t)
	if _, err := f.svc.PatchToken(context.Background(), liveTokenID, core.Object{"hidden": true}); err != nil {
		t.Fatal(err)
	}
	f.events.take()
	d := engine.NewDrags(f.svc)
	block, err := d.Move(context.Background(), alice, core.Movement{ID: liveTokenID, X: 1, Y: 1, State: core.DragStart})
	if core.KindOf(err) != core.KindNotFound || block != nil {
		t.Fatalf("drag of a hidden token: reply %+v, err %v; want not found and no position", block, err)
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("broadcast %v", eventNames(events))
	}
}

func TestDragEndsWhereItStartedWhenTokenHiddenMidDrag(t *testing.T) {
	f := newLiveFixture(t)
	d := engine.NewDrags(f.svc)
	start := f.token(t, liveTokenID)
	move(t, d, alice, core.DragStart, 10, 20)
	// The host moves and hides the token: players must not learn where.
	if _, err := f.svc.PatchToken(context.Background(), liveTokenID, core.Object{"hidden": true, "x": 500, "y": 600}); err != nil {
		t.Fatal(err)
	}
	f.events.take()
	if reply := move(t, d, alice, core.DragControl, 30, 30); reply != nil {
		t.Fatalf("sender reply %+v", reply)
	}
	events := f.events.take()
	wantNames(t, events, core.EventTokenMoved)
	if m := movement(t, events[0]); m.State != core.DragBlock || m.X != start.X || m.Y != start.Y {
		t.Fatalf("broadcast %+v, want block at the drag's start %v,%v", m, start.X, start.Y)
	}
}
