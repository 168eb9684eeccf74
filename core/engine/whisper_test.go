package engine_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/internal/testkit"
)

// messageFrames records, for each messageCreated published, what the game
// master receives and which seats the players' payload is for (nil: every
// player; "none": no player at all).
type messageFrames struct {
	mu   sync.Mutex
	list []messageFrame
}

type messageFrame struct {
	host    *core.Message
	players bool
	seats   []string
}

func (f *messageFrames) watch(bus *core.Bus) {
	bus.Subscribe(func(evs []core.Event) {
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, e := range evs {
			if e.Name != core.EventMessageCreated {
				continue
			}
			_, players := redact.PlayersPayload(e.Data)
			f.list = append(f.list, messageFrame{host: redact.HostView(e.Data).(*core.Message), players: players, seats: redact.PlayersSeats(e.Data)})
		}
	})
}

func (f *messageFrames) take() []messageFrame {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.list
	f.list = nil
	return out
}

// The secrets in the chat: a player's /gmroll and whispers reach
// the game master and the seats they name; the message is marked private,
// names its recipients, and is sent to nobody else. Each player's list of
// recent messages holds exactly those they may read, thirty of them
// whatever was whispered among.
func TestWhispersAndPrivateRollsReachOnlyTheirReaders(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	frames := &messageFrames{}
	frames.watch(g.bus)
	ann := g.take(t, testkit.HeroID, "Ann")
	bob := g.take(t, rivalID, "Bob")
	asAnn := g.svc.PlayerAs(ann)

	for _, c := range []struct {
		name, text string
		by         func(context.Context, *core.Message) (*core.Message, error)
		wantText   string
		wantTo     []string
		wantSeats  []string // nil: GM only
	}{
		{"a player's /gmroll", "/gmroll 1d20+3 # search", asAnn.PostMessage, "", []string{"GM"}, []string{ann.Seat}},
		{"a whisper to the GM", "/w GM I search the statue, don't tell the others", asAnn.CreateMessage, "I search the statue, don't tell the others", []string{"GM"}, []string{ann.Seat}},
		{"a whisper to a player", "/w bob meet me behind the inn", asAnn.PostMessage, "meet me behind the inn", []string{"Bob"}, []string{ann.Seat, bob.Seat}},
		{"a whisper to a character by name", "/whisper Rival Wait", asAnn.PostMessage, "Wait", []string{"Bob"}, []string{ann.Seat, bob.Seat}},
		{"the GM's whisper to two seats", "/w Ann, Rival You hear a click", g.svc.PostMessage, "You hear a click", []string{"Ann", "Bob"}, []string{ann.Seat, bob.Seat}},
		{"the GM's /gmroll", "/gmroll 2d6", g.svc.PostMessage, "", []string{"GM"}, nil},
	} {
		out, err := c.by(ctx, &core.Message{Text: c.text})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !out.Private || !slices.Equal(out.To, c.wantTo) || c.wantText != "" && out.Text != c.wantText {
			t.Errorf("%s: stored private %v to %v text %q", c.name, out.Private, out.To, out.Text)
		}
		if c.wantText == "" && (out.Type != core.MessageRoll || len(out.Rolls) != 1 || out.Rolls[0].Total == nil) {
			t.Errorf("%s: not rolled: %+v", c.name, out)
		}
		got := frames.take()
		if len(got) != 1 || got[0].host.ID != out.ID {
			t.Fatalf("%s: published %+v", c.name, got)
		}
		if c.wantSeats == nil && got[0].players || c.wantSeats != nil && (!got[0].players || !slices.Equal(got[0].seats, c.wantSeats)) {
			t.Errorf("%s: players receive it: %v, seats %v; want only %v", c.name, got[0].players, got[0].seats, c.wantSeats)
		}
	}

	// The character panel's private roll: the attack and its damage, each
	// to the game master and Ann alone.
	res, err := g.svc.RollAction(ctx, ann, core.ActionRequest{Action: "attack-mace", Follow: true, Private: true})
	if err != nil || len(res.Messages) != 2 {
		t.Fatalf("a private attack: %v %+v", err, res)
	}
	attack := frames.take()
	if len(attack) != 2 {
		t.Fatalf("the private attack published %d messages", len(attack))
	}
	for i, got := range attack {
		if !got.host.Private || !got.players || !slices.Equal(got.seats, []string{ann.Seat}) || !slices.Equal(got.host.To, []string{"GM"}) {
			t.Errorf("the private attack's message %d: %+v", i, got)
		}
	}

	// A public line goes to everyone.
	if _, err := asAnn.PostMessage(ctx, &core.Message{Text: "hello all"}); err != nil {
		t.Fatal(err)
	}
	if got := frames.take(); len(got) != 1 || !got[0].players || got[0].seats != nil {
		t.Fatalf("a public line: %+v", got)
	}

	// Reads: the snapshot (no seat) has no private message; each seat its own.
	snap, err := g.svc.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Messages) != 1 || snap.Messages[0].Text != "hello all" {
		t.Fatalf("the snapshot carries %d messages: %+v", len(snap.Messages), snap.Messages)
	}
	for who, want := range map[*core.Actor]int{&ann: 8, &bob: 4} {
		list, err := g.svc.SeatMessages(ctx, who.Seat)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != want {
			t.Errorf("%s reads %d messages, want %d", who.Name, len(list), want)
		}
		for _, m := range list {
			if m.Private && !slices.Contains(m.Audience, who.Seat) {
				t.Errorf("%s reads a private message not theirs: %+v", who.Name, m)
			}
		}
	}
	host, err := g.svc.HostMessages(ctx, 100)
	if err != nil || len(host) != 9 {
		t.Fatalf("the host console reads %d messages: %v", len(host), err)
	}

	// No gap: thirty public lines after the whispers, then more whispers:
	// every list still holds thirty, none private to anyone else.
	for range core.RecentMessageCount {
		if _, err := g.svc.PostMessage(ctx, &core.Message{Text: "line"}); err != nil {
			t.Fatal(err)
		}
	}
	for range 5 {
		if _, err := asAnn.PostMessage(ctx, &core.Message{Text: "/w GM again"}); err != nil {
			t.Fatal(err)
		}
	}
	snap, _ = g.svc.Snapshot(ctx)
	bobs, _ := g.svc.SeatMessages(ctx, bob.Seat)
	anns, _ := g.svc.SeatMessages(ctx, ann.Seat)
	for name, list := range map[string][]*core.Message{"the snapshot": snap.Messages, "Bob": bobs} {
		if len(list) != core.RecentMessageCount {
			t.Errorf("%s holds %d messages, want %d", name, len(list), core.RecentMessageCount)
		}
		for _, m := range list {
			if m.Private {
				t.Errorf("%s holds a private message: %+v", name, m)
			}
		}
	}
	if len(anns) != core.RecentMessageCount || anns[len(anns)-1].Text != "again" || !anns[len(anns)-1].Private {
		t.Errorf("Ann's list: %d messages, the last %+v", len(anns), anns[len(anns)-1])
	}
}

// Bad whispers are refused with words that say why, and nothing is
// stored or sent: to nobody, to a seat that left, without words, from a
// player without a seat.
func TestBadWhispersAreRefusedAndStoreNothing(t *testing.T) {
	g := newSeatGame(t)
	ctx := context.Background()
	frames := &messageFrames{}
	frames.watch(g.bus)
	ann := g.take(t, testkit.HeroID, "Ann")
	bob := g.take(t, rivalID, "Bob")
	if err := g.svc.LeaveSeat(ctx, bob); err != nil {
		t.Fatal(err)
	}
	tool := g.svc.PlayerAs(core.Actor{Role: core.ClientPlayer})
	for _, c := range []struct {
		name string
		post func(context.Context, *core.Message) (*core.Message, error)
		msg  core.Message
		kind core.ErrorKind
	}{
		{"to nobody", g.svc.PlayerAs(ann).PostMessage, core.Message{Text: "/w Zed hello"}, core.KindNotFound},
		{"to no one at all", g.svc.PlayerAs(ann).PostMessage, core.Message{Text: "/w"}, core.KindInvalid},
		{"without words", g.svc.PlayerAs(ann).PostMessage, core.Message{Text: "/w GM"}, core.KindInvalid},
		{"to a seat that left", g.svc.PlayerAs(ann).PostMessage, core.Message{Text: "/w Rival hello"}, core.KindConflict},
		{"a /gmroll of nothing", g.svc.PlayerAs(ann).PostMessage, core.Message{Text: "/gmroll"}, core.KindInvalid},
		{"from no seat", tool.CreateMessage, core.Message{Text: "/w GM hello"}, core.KindForbidden},
		{"a /gmroll from no seat", tool.CreateMessage, core.Message{Text: "/gmroll 1d20"}, core.KindForbidden},
		{"the GM to a seat that left", g.svc.PostMessage, core.Message{Text: "psst", ToSeats: []string{rivalID}}, core.KindConflict},
		{"the GM to no such seat", g.svc.PostMessage, core.Message{Text: "psst", ToSeats: []string{"nope"}}, core.KindNotFound},
	} {
		m := c.msg
		if _, err := c.post(ctx, &m); core.KindOf(err) != c.kind {
			t.Errorf("%s: %v, want %s", c.name, err, c.kind)
		}
	}
	if got := frames.take(); len(got) != 0 {
		t.Fatalf("refused whispers published %+v", got)
	}
	if list, _ := g.svc.HostMessages(ctx, 10); len(list) != 0 {
		t.Fatalf("refused whispers stored %+v", list)
	}
	// The GM whispers by seat id; a client cannot make itself a reader.
	out, err := g.svc.PostMessage(ctx, &core.Message{Text: "psst", ToSeats: []string{testkit.HeroID}})
	if err != nil || !out.Private || !slices.Equal(out.To, []string{"Ann"}) || !slices.Equal(out.Audience, []string{ann.Seat}) {
		t.Fatalf("the GM's whisper by seat: %v %+v", err, out)
	}
	forged, err := g.svc.PlayerAs(ann).PostMessage(ctx, &core.Message{Text: "hi", Private: true, Audience: []string{"x"}, ToSeats: []string{testkit.HeroID}})
	if err != nil || forged.Private || forged.Audience != nil {
		t.Fatalf("a player's message made itself private: %v %+v", err, forged)
	}
}
