package engine_test

import (
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

func TestMovePointerBroadcastsAsTheClient(t *testing.T) {
	f := newLiveFixture(t)
	if err := f.svc.MovePointer(alice, core.Pointer{X: 5, Y: 6, Source: "someone-else", Name: "Mallory"}); err != nil {
		t.Fatal(err)
	}
	events := f.events.take()
	wantNames(t, events, core.EventPointerUpdated)
	p := redact.PlayersView(events[0].Data).(*core.Pointer)
	if p.ID != alice.ID || p.Source != alice.ID || p.Color != alice.Color || p.Name != alice.Name || p.X != 5 || p.Y != 6 {
		t.Fatalf("pointer %+v: id, source, name and colour must be the client's", p)
	}
	if err := f.svc.MovePointer(alice, core.Pointer{State: "wiggle"}); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("bad state: %v", err)
	}
	f.setRemoteInteraction(t, false)
	if err := f.svc.MovePointer(alice, core.Pointer{X: 1}); core.KindOf(err) != core.KindConflict {
		t.Fatalf("pointer with remote interaction off: %v, want conflict", err)
	}
	if err := f.svc.CheckRemoteInteraction("updateDoor"); core.KindOf(err) != core.KindConflict {
		t.Fatalf("CheckRemoteInteraction: %v", err)
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("refused pointer broadcast: %v", eventNames(events))
	}
}
