package engine_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine"
	"github.com/vttapp/companion/dice"
	"github.com/vttapp/companion/store/sqlite"
)

// A line a player types (PostMessage, the WebSocket's createMessage) with a
// /roll command that cannot be rolled is refused with the dice engine's
// explanation and nothing is stored or broadcast; CreateMessage (POST
// /api/messages) keeps storing it with the failed roll, as before. Good
// rolls and chat with a bad inline roll are stored either way.
func TestPostMessageRefusesABadRollCommand(t *testing.T) {
	store, err := sqlite.Open(filepath.Join(t.TempDir(), "companion.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.Update(svcCtx, func(tx core.Tx) error {
		c := &core.Campaign{ID: svcCampaign, System: "dnd5e", Name: "Demo", Primary: true}
		c.Normalize()
		return tx.PutCampaign(c)
	}); err != nil {
		t.Fatal(err)
	}
	rec := &svcRecorder{}
	svc := engine.NewService(engine.ServiceConfig{Store: store, Events: rec, Rules: svcRules{}, Roller: dice.NewRoller()})

	_, err = svc.PlayerAs(core.Actor{Role: core.ClientPlayer}).PostMessage(svcCtx, &core.Message{Text: "/r 2d", Source: "Ann"})
	svcWantErr(t, err, core.KindInvalid, "cannot roll '2d'")
	if !strings.Contains(err.Error(), "expected the number of sides") {
		t.Fatalf("the engine's explanation is lost: %v", err)
	}
	if names := rec.names(); len(names) != 0 {
		t.Fatalf("a refused roll published %v", names)
	}
	for _, text := range []string{"/roll 1d20+5", "hello [[2d]]"} {
		if _, err := svc.PlayerAs(core.Actor{Role: core.ClientPlayer}).PostMessage(svcCtx, &core.Message{Text: text}); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
	}
	out, err := svc.CreateMessage(svcCtx, &core.Message{Text: "/r 2d"})
	if err != nil || len(out.Rolls) != 1 || out.Rolls[0].Error == "" {
		t.Fatalf("CreateMessage keeps a failed roll: %v %+v", err, out)
	}
	if got := strings.Join(rec.names(), ","); got != "messageCreated,messageCreated,messageCreated" {
		t.Fatalf("events = %s", got)
	}
}

// A message is a roll when the dice engine reads it as a /roll or /r
// command (the one place that tells; core.Roller reports it), in any case
// and after any white space; a command word inside a line, or inline
// rolls, keep it chat.
func TestCreateMessageRollCommandsInAnyCase(t *testing.T) {
	f := newSvcFixture(t, true)
	svc := engine.NewService(engine.ServiceConfig{Store: f.store, Events: f.rec, Rules: svcRules{}, Roller: dice.NewRoller()})
	for text, want := range map[string]string{
		"/roll 1d6": core.MessageRoll, "/R 1d6": core.MessageRoll, "/r\t1d6": core.MessageRoll, "  /ROLL 1d6": core.MessageRoll,
		"/rolling [[1d6]] is not a command": core.MessageChat, "I hit [[1d6]]": core.MessageChat,
	} {
		out, err := svc.CreateMessage(svcCtx, &core.Message{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if out.Type != want || len(out.Rolls) != 1 {
			t.Errorf("%q stored as type %q with %d rolls, want %s with one", text, out.Type, len(out.Rolls), want)
		}
	}
}
