package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/internal/testkit"
)

// The attack of issue 32: a seated player posts as another character and
// as another player. The server names the speaker from the seat: the
// player's own name, their own character, whatever the message said.
func TestASeatedPlayerSpeaksOnlyAsThemselves(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	ann := g.take(t, testkit.HeroID, "Ann")
	g.take(t, rivalID, "Bob")
	for _, c := range []struct {
		name                   string
		sent                   core.Message
		wantSource, wantAsChar string
	}{
		{"another character", core.Message{Text: "I give Ann my sword", Source: "Bob", Creature: "Rival"}, "Ann", "Hero"},
		{"another player", core.Message{Text: "hi", Source: "Bob"}, "Ann", ""},
		{"the game master", core.Message{Text: "you all die", Source: "Dungeon Master"}, "Ann", ""},
		{"their own character", core.Message{Text: "I pray", Creature: "hero"}, "Ann", "Hero"},
		{"nobody", core.Message{Text: "hello"}, "Ann", ""},
	} {
		for _, post := range []func(context.Context, *core.Message) (*core.Message, error){
			g.svc.PlayerAs(ann).CreateMessage, g.svc.PlayerAs(ann).PostMessage,
		} {
			m := c.sent
			out, err := post(ctx, &m)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if out.Source != c.wantSource || out.Creature != c.wantAsChar || out.GM {
				t.Errorf("%s: stored as source %q creature %q gm %v, want %q %q", c.name, out.Source, out.Creature, out.GM, c.wantSource, c.wantAsChar)
			}
		}
	}
}

// Without a seat, nobody names a seat's character or player: the message
// is refused and nothing is stored. Other names are the contract's, with
// the join key off; with it on a message always has a source and never
// names the game master. The game master's own messages are marked gm.
func TestNoOneElseSpeaksAsASeat(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	g.take(t, testkit.HeroID, "Ann")
	tool := g.svc.PlayerAs(core.Actor{Role: core.ClientPlayer})
	g.events.Take()
	for _, m := range []core.Message{
		{Text: "x", Creature: "Hero"},
		{Text: "x", Source: "  ann "},
		{Text: "x", Source: "HERO"},
	} {
		if _, err := tool.CreateMessage(ctx, &m); core.KindOf(err) != core.KindForbidden {
			t.Errorf("an unseated message as %q/%q: %v, want forbidden", m.Source, m.Creature, err)
		}
	}
	if got := g.events.Take(); got != "" {
		t.Fatalf("refused messages published %s", got)
	}

	// Key off: a tool names itself, or no one (the contract).
	out, err := tool.CreateMessage(ctx, &core.Message{Text: "bot line"})
	if err != nil || out.Source != "" || out.GM {
		t.Fatalf("a tool's message, key off: %v %+v", err, out)
	}
	out, err = tool.CreateMessage(ctx, &core.Message{Text: "x", Source: "Dice Bot", Creature: "Goblin"})
	if err != nil || out.Source != "Dice Bot" || out.Creature != "Goblin" {
		t.Fatalf("a tool's named message: %v %+v", err, out)
	}
	gm, err := g.svc.CreateMessage(ctx, &core.Message{Text: "The door creaks."})
	if err != nil || !gm.GM || gm.Source != "" {
		t.Fatalf("the game master's message: %v %+v", err, gm)
	}

	// Key on: a source always, never the game master.
	if _, err := g.svc.SetJoinKey(ctx, true); err != nil {
		t.Fatal(err)
	}
	out, err = tool.CreateMessage(ctx, &core.Message{Text: "who am I"})
	if err != nil || out.Source != "Guest" {
		t.Fatalf("key on, no source: %v %+v", err, out)
	}
	named := g.svc.PlayerAs(core.Actor{Role: core.ClientPlayer, Name: "Cleo"})
	if out, err = named.PostMessage(ctx, &core.Message{Text: "hi"}); err != nil || out.Source != "Cleo" {
		t.Fatalf("key on, a registered name: %v %+v", err, out)
	}
	for _, name := range []string{"Dungeon Master", "gm", "Game  master"} {
		if _, err := tool.CreateMessage(ctx, &core.Message{Text: "x", Source: name}); core.KindOf(err) != core.KindForbidden {
			t.Errorf("key on, a player as %q: %v", name, err)
		}
	}
}

// The attack of issue 32: a message of type roll with a hand-written
// result was stored as a roll, the same bytes a real one has. Now what a
// client says it rolled is rolled again from its formula by the server,
// or kept as plain chat when it names none.
func TestAForgedRollIsNeverStoredAsARoll(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	ann := g.take(t, testkit.HeroID, "Ann")
	p := g.svc.PlayerAs(ann)

	for _, text := range []string{"[20**]+4 = 24", `{"name":"Longsword","type":"attack","result":24,"detail":"[20**]+4 = 24"}`, "Weather: fog"} {
		for _, typ := range []string{core.MessageRoll, core.MessageTableRoll} {
			out, err := p.CreateMessage(ctx, &core.Message{Type: typ, Text: text})
			if err != nil {
				t.Fatal(err)
			}
			if out.Type != core.MessageChat || len(out.Rolls) != 0 {
				t.Errorf("%s %q stored as %s with %d rolls, want chat without any", typ, text, out.Type, len(out.Rolls))
			}
		}
	}

	// A roll object with a formula: the server rolls it (the faces are
	// the test's: a 3, not the 20 the client claimed).
	g.faces.next = []int{3}
	body := []byte(`{"type":"roll","source":"Bob","content":{"name":"Longsword","type":"attack","formula":"1d20+4","result":24,"detail":"[20**]+4 = 24"}}`)
	m, err := core.DecodeMessage(body)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.PostMessage(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if out.Type != core.MessageRoll || len(out.Rolls) != 1 || out.Rolls[0].Total == nil || *out.Rolls[0].Total != 7 {
		t.Fatalf("the roll object rolled as %+v", out)
	}
	content, _ := json.Marshal(out.Content())
	var c core.RollContent
	json.Unmarshal(content, &c)
	if c.Result != 7 || c.Name != "Longsword" || c.Type != "attack" || c.Formula != "1d20+4" || out.Source != "Ann" {
		t.Errorf("content %s from %q, want the server's roll of 7 titled Longsword, attack, from Ann", content, out.Source)
	}
}

// One device's messages are counted across HTTP and the WebSocket: past
// its burst a device is refused (rate limited) until its budget refills;
// another device, and the game master, are not.
func TestMessagesAreBudgetedPerDevice(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	ann := g.take(t, testkit.HeroID, "Ann")
	ann.Device = core.DeviceOf("", ann.Seat, "192.168.1.20", "")
	other := core.Actor{Role: core.ClientPlayer, Device: core.DeviceOf("", "", "192.168.1.21", "")}
	posted := 0
	for i := range core.DefaultMessageBurst + 5 {
		post := g.svc.PlayerAs(ann).CreateMessage // HTTP
		if i%2 == 1 {
			post = g.svc.PlayerAs(ann).PostMessage // the WebSocket
		}
		_, err := post(ctx, &core.Message{Text: "spam"})
		if err == nil {
			posted++
			continue
		}
		if core.KindOf(err) != core.KindRateLimited {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	if posted > core.DefaultMessageBurst+1 { // the clock may tick once
		t.Fatalf("%d messages of one device in a burst, want at most %d", posted, core.DefaultMessageBurst+1)
	}
	if _, err := g.svc.RollAction(ctx, ann, core.ActionRequest{Action: "attack-mace"}); core.KindOf(err) != core.KindRateLimited {
		t.Errorf("a sheet roll past the budget: %v", err)
	}
	if _, err := g.svc.PlayerAs(other).CreateMessage(ctx, &core.Message{Text: "me too"}); err != nil {
		t.Errorf("another device: %v", err)
	}
	if _, err := g.svc.CreateMessage(ctx, &core.Message{Text: "GM"}); err != nil {
		t.Errorf("the game master: %v", err)
	}
}
