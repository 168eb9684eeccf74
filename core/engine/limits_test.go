package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/dice"
)

// A message is bounded before anything is rolled or stored: its text, its
// short fields, the results its dice produce, and the whole. Each refusal
// is a too-large error and nothing is published.
func TestCreateMessageRefusesWhatIsTooLarge(t *testing.T) {
	f := newSvcFixture(t, true)
	diceSvc := engine.NewService(engine.ServiceConfig{Store: f.store, Events: f.rec, Rules: svcRules{}, Roller: dice.NewRoller()})
	for _, c := range []struct {
		name string
		svc  *engine.Service
		m    core.Message
		want string
	}{
		{"text", f.svc, core.Message{Text: strings.Repeat("x", core.MaxMessageText+1)}, "message: 'text' is 16385 bytes, more than the limit of 16 KiB"},
		{"source", f.svc, core.Message{Text: "hi", Source: strings.Repeat("s", core.MaxMessageField+1)}, "message: 'source' is 257 bytes"},
		{"color", f.svc, core.Message{Text: "hi", Color: strings.Repeat("c", 1000)}, "message: 'color'"},
		{"creature", f.svc, core.Message{Text: "hi", Creature: strings.Repeat("c", 1000)}, "message: 'creature'"},
		{"roll text", f.svc, core.Message{Type: core.MessageRoll, Text: strings.Repeat("x", core.MaxMessageRolls+1)}, "more than the limit of 256 KiB"},
		{"dice", diceSvc, core.Message{Text: strings.Repeat("[[1000d6]] ", 11)}, "it rolls 11000 dice, more than the limit of 1000 in one message"},
		{"dice of two rolls", diceSvc, core.Message{Text: "/r {600d6, 401d6}"}, "it rolls 1001 dice"},
	} {
		f.rec.reset()
		_, err := c.svc.CreateMessage(svcCtx, &c.m)
		if err == nil || core.KindOf(err) != core.KindTooLarge || !strings.Contains(core.MessageOf(err), c.want) {
			t.Errorf("%s: want a too-large error containing %q, got %v", c.name, c.want, err)
		}
		if names := f.rec.names(); len(names) != 0 {
			t.Errorf("%s: published %v", c.name, names)
		}
	}
	snap, err := f.svc.Snapshot(svcCtx)
	if err != nil || len(snap.Messages) != 0 {
		t.Fatalf("messages stored by refused posts: %v %v", snap, err)
	}
	// At the limit it is stored.
	if _, err := f.svc.CreateMessage(svcCtx, &core.Message{Text: strings.Repeat("x", core.MaxMessageText)}); err != nil {
		t.Fatalf("a message of exactly the limit: %v", err)
	}
	if _, err := diceSvc.CreateMessage(svcCtx, &core.Message{Text: "/r 4d6"}); err != nil {
		t.Fatalf("an ordinary roll: %v", err)
	}
	if _, err := diceSvc.CreateMessage(svcCtx, &core.Message{Text: "[[500d6]] [[500d6]]"}); err != nil {
		t.Fatalf("a thousand dice, the limit: %v", err)
	}
}

// GET /api carries the last thirty messages; however large they are, their
// JSON in one snapshot stays under MaxSnapshotMessages, newest kept.
func TestSnapshotMessagesAreBounded(t *testing.T) {
	f := newSvcFixture(t, true)
	// Messages of 200 KiB (as an older server stored rolled results):
	// written to the store directly.
	for i := range 30 {
		text := strings.Repeat(string(rune('a'+i%26)), 200<<10)
		if err := f.store.Update(svcCtx, func(tx core.Tx) error {
			return tx.AddMessage(&core.Message{Type: core.MessageChat, Text: text, Campaign: svcCampaign})
		}); err != nil {
			t.Fatal(err)
		}
	}
	last, err := f.svc.CreateMessage(svcCtx, &core.Message{Text: "newest"})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := f.svc.Snapshot(svcCtx)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(snap.Messages)
	if len(data) > core.MaxSnapshotMessages {
		t.Fatalf("the snapshot's messages weigh %d bytes, over %d", len(data), core.MaxSnapshotMessages)
	}
	if n := len(snap.Messages); n < 5 || n >= 30 || snap.Messages[n-1].ID != last.ID {
		t.Fatalf("kept %d messages, newest %v", n, snap.Messages[n-1].ID)
	}
}

// Entities, attributes, tokens and combatants are bounded where they are
// stored, whichever way they arrive (PUT, PATCH, WebSocket updates).
func TestStoredObjectsAreBounded(t *testing.T) {
	f := newSvcFixture(t, true)
	big := strings.Repeat("x", core.MaxEntityBytes)
	_, err := f.svc.PatchEntity(svcCtx, "monster", svcGoblin, core.Object{"descr": big})
	svcWantErr(t, err, core.KindTooLarge, "entity is")
	_, err = f.svc.SetAttribute(svcCtx, core.Attribute{EntityID: svcGoblin, Attributes: core.Object{"notes": strings.Repeat("x", core.MaxAttributesBytes)}})
	svcWantErr(t, err, core.KindTooLarge, "entity: 'attributes' is")
	_, err = f.svc.PatchToken(svcCtx, svcTokenA, core.Object{"name": strings.Repeat("x", core.MaxTokenBytes)})
	svcWantErr(t, err, core.KindTooLarge, "token is")
	_, err = f.svc.PatchCombatant(svcCtx, svcHeroCombatant, core.Object{"name": strings.Repeat("x", core.MaxCombatantBytes)})
	svcWantErr(t, err, core.KindTooLarge, "combatant is")
	if names := f.rec.names(); len(names) != 0 {
		t.Fatalf("refused writes published %v", names)
	}
	e, err := f.svc.Entity(svcCtx, "monster", svcGoblin)
	if err != nil || e.Descr != "" {
		t.Fatalf("the refused write changed the entity: %v", err)
	}
	// Sizes a campaign really stores pass.
	if _, err := f.svc.PatchEntity(svcCtx, "monster", svcGoblin, core.Object{"descr": strings.Repeat("x", 64<<10)}); err != nil {
		t.Fatal(err)
	}
}

// Tracked objects live in memory and go out in every GET /api: their
// strings and their contours together are bounded, not only their number.
func TestTrackedObjectsAreBounded(t *testing.T) {
	f := newSvcFixture(t, true)
	long := strings.Repeat("x", core.MaxTrackedField+1)
	err := f.svc.TrackObject(core.EventTrackedObjectCreated, []*core.TrackedObject{{ID: long}})
	svcWantErr(t, err, core.KindTooLarge, "tracked object: 'id'")
	err = f.svc.TrackObject(core.EventTrackedObjectCreated, []*core.TrackedObject{{ID: 1.0, Type: long}})
	svcWantErr(t, err, core.KindTooLarge, "tracked object: 'type'")
	contour := make([]float64, kernel.MaxTrackedContour)
	n := core.MaxTrackedContourTotal / kernel.MaxTrackedContour
	for i := range n {
		if err := f.svc.TrackObject(core.EventTrackedObjectCreated, []*core.TrackedObject{{ID: float64(i), Contour: contour}}); err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
	}
	err = f.svc.TrackObject(core.EventTrackedObjectCreated, []*core.TrackedObject{{ID: float64(n), Contour: contour}})
	svcWantErr(t, err, core.KindTooLarge, "contours would hold")
	// Updating one in place does not count it twice; replacing the set
	// counts only the new set.
	if err := f.svc.TrackObject(core.EventTrackedObjectUpdated, []*core.TrackedObject{{ID: 0.0, Contour: contour}}); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.TrackObject(core.EventTrackedObjectsUpdated, []*core.TrackedObject{{ID: 99.0, Contour: contour}}); err != nil {
		t.Fatal(err)
	}
	if got := len(f.svc.Live().TrackedObjects()); got != 1 {
		t.Fatalf("%d tracked after replacing the set", got)
	}
}

// A pointer is broadcast to every client: its id and colour are bounded.
func TestPointerStringsAreBounded(t *testing.T) {
	f := newLiveFixture(t)
	long := strings.Repeat("x", core.MaxTrackedField+1)
	for _, p := range []core.Pointer{{ID: long}, {Color: long}} {
		if err := f.svc.MovePointer(alice, p); core.KindOf(err) != core.KindTooLarge {
			t.Errorf("pointer %.20v: %v, want too large", p, err)
		}
	}
	if events := f.events.take(); len(events) != 0 {
		t.Fatalf("refused pointers were broadcast: %v", events)
	}
}
