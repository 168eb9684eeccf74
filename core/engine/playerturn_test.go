package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/core/turns"
)

// playersTurn runs a combat action and returns the turn the game master
// gets and the one players get, from gameUpdated and from GET /api; it
// fails when what players get names the hidden Lurker.
func playersTurn(t *testing.T, f *gcFixture, action string) (host, players turn) {
	t.Helper()
	g, err := f.svc.ControlCombat(context.Background(), action)
	if err != nil {
		t.Fatalf("%s: %v", action, err)
	}
	events := f.pub.take()
	var shown *core.GameTurn
	for _, e := range events {
		if e.Name == core.EventGameUpdated {
			shown = redact.PlayersView(e.Data).(*core.GameTurn)
		}
	}
	if shown == nil {
		t.Fatalf("%s: no gameUpdated for players", action)
	}
	snap, err := f.svc.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	shownTurn := turn{shown.Started, shown.Round, shown.Turn, shown.CombatantID, shown.InitiativeID}
	if turnOf(snap.Game) != shownTurn {
		t.Fatalf("%s: GET /api's turn %+v, gameUpdated's %+v", action, turnOf(snap.Game), shownTurn)
	}
	for what, v := range map[string]any{"gameUpdated": shown, "GET /api's game": snap.Game} {
		b, _ := json.Marshal(v)
		if strings.Contains(string(b), gcLurker) || strings.Contains(string(b), "i-lurker") {
			t.Fatalf("%s: %s names the hidden combatant: %s", action, what, b)
		}
	}
	return turnOf(g), shownTurn
}

// When a hidden combatant acts first, players see no one acting (turn 0),
// then count only the visible turns.
func TestPlayersSeeAHiddenFirstTurnAsNoOnes(t *testing.T) {
	f := newGCFixture(t)
	if _, err := f.svc.SetInitiative(context.Background(), gcLurker, ptr(20.0)); err != nil {
		t.Fatal(err)
	}
	f.pub.take()
	for _, step := range []struct {
		action        string
		host, players turn
	}{
		{turns.CombatStart, turn{true, 1, 1, gcLurker, "i-lurker"}, turn{true, 1, 0, "", ""}},
		{turns.CombatNext, turn{true, 1, 2, gcGoblin, "i-goblin"}, turn{true, 1, 1, gcGoblin, "i-goblin"}},
		{turns.CombatNext, turn{true, 1, 3, gcWren, "i-wren"}, turn{true, 1, 2, gcWren, "i-wren"}},
		{turns.CombatNext, turn{true, 2, 1, gcLurker, "i-lurker"}, turn{true, 2, 0, "", ""}},
	} {
		host, players := playersTurn(t, f, step.action)
		if host != step.host || players != step.players {
			t.Fatalf("%s: host %+v players %+v, want %+v and %+v", step.action, host, players, step.host, step.players)
		}
	}
}

// The players' turn follows the loaded system's order: lowest first here.
func TestPlayersTurnFollowsTheSystemsOrder(t *testing.T) {
	f := newGCFixtureWithRules(t, ascendingRules{})
	// Wren 12, the hidden Lurker 15, Goblin 18.
	for _, step := range []struct {
		action        string
		host, players turn
	}{
		{turns.CombatStart, turn{true, 1, 1, gcWren, "i-wren"}, turn{true, 1, 1, gcWren, "i-wren"}},
		{turns.CombatNext, turn{true, 1, 2, gcLurker, "i-lurker"}, turn{true, 1, 1, gcWren, "i-wren"}},
		{turns.CombatNext, turn{true, 1, 3, gcGoblin, "i-goblin"}, turn{true, 1, 2, gcGoblin, "i-goblin"}},
	} {
		host, players := playersTurn(t, f, step.action)
		if host != step.host || players != step.players {
			t.Fatalf("%s: host %+v players %+v, want %+v and %+v", step.action, host, players, step.host, step.players)
		}
	}
}

// Without the order at hand (the hub's guard), a hidden acting combatant
// shows as no one's turn.
func TestGameForPlayersNamesNoHiddenActor(t *testing.T) {
	g := &core.Game{Started: true, Round: 1, Turn: 2, CombatantID: "h", InitiativeID: "ih", Combatants: []*core.Combatant{
		{ID: "a", Initiative: []core.Initiative{{ID: "ia", Value: 20.0}}},
		{ID: "h", Hidden: true, Initiative: []core.Initiative{{ID: "ih", Value: 10.0}}},
	}}
	got := redact.GameForPlayers(g)
	if got.CombatantID != "a" || got.InitiativeID != "ia" || got.Turn != 1 || len(got.Combatants) != 1 {
		t.Fatalf("GameForPlayers = %+v", got)
	}
	if g.CombatantID != "h" || len(g.Combatants) != 2 {
		t.Fatal("GameForPlayers changed its input")
	}
	if again := redact.GameForPlayers(got); turnOf(again) != turnOf(got) {
		t.Fatalf("a players' game changed again: %+v", again)
	}
}
