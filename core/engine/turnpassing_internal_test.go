package engine

import (
	"slices"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
	"github.com/vttapp/companion/core/turns"
)

// A round passed between three combatants: the one acting picks who goes
// next among those who have not acted; after the last, a new round lets
// anyone act first again.
func TestStepPassingHandsTheTurnOnAndStartsANewRound(t *testing.T) {
	combatants := []*core.Combatant{{ID: "ada", Name: "Ada"}, {ID: "bo", Name: "Bo"}, {ID: "cy", Name: "Cy"}, {ID: "gone", Name: "Gone", Defeated: true}}
	order := turns.PassingOrder(combatants)
	if len(order) != 3 {
		t.Fatalf("order = %+v, want the three not defeated (no initiative needed)", order)
	}
	g := &core.Game{}
	if _, err := turns.StepPassing(g, order, turns.CombatStart, "bo"); err != nil {
		t.Fatal(err)
	}
	if !g.Started || g.Round != 1 || g.CombatantID != "bo" || len(g.Acted) != 0 {
		t.Fatalf("after start: %+v", g)
	}
	if _, err := turns.StepPassing(g, order, turns.CombatPass, "bo"); err == nil || core.KindOf(err) != core.KindConflict {
		t.Fatalf("passing to oneself: %v", err)
	}
	if _, err := turns.StepPassing(g, order, turns.CombatPass, "cy"); err != nil {
		t.Fatal(err)
	}
	if g.CombatantID != "cy" || !slices.Equal(g.Acted, []string{"bo"}) || g.Round != 1 {
		t.Fatalf("after bo passed to cy: %+v", g)
	}
	if _, err := turns.StepPassing(g, order, turns.CombatPass, "bo"); core.KindOf(err) != core.KindConflict {
		t.Fatalf("passing back to one who acted: %v", err)
	}
	if _, err := turns.StepPassing(g, order, turns.CombatPass, "gone"); core.KindOf(err) != core.KindNotFound {
		t.Fatalf("passing to a defeated combatant: %v", err)
	}
	if _, err := turns.StepPassing(g, order, turns.CombatPass, ""); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("passing to no one: %v", err)
	}
	if _, err := turns.StepPassing(g, order, turns.CombatPrevious, ""); core.KindOf(err) != core.KindConflict {
		t.Fatalf("previous in a passed game: %v", err)
	}
	// next picks the first who has not acted: Ada.
	if _, err := turns.StepPassing(g, order, turns.CombatNext, ""); err != nil {
		t.Fatal(err)
	}
	if g.CombatantID != "ada" || !slices.Equal(g.Acted, []string{"bo", "cy"}) || g.Round != 1 {
		t.Fatalf("after next: %+v", g)
	}
	// Everyone has acted once Ada passes: round 2, and Ada may even go first.
	if _, err := turns.StepPassing(g, order, turns.CombatPass, "ada"); err != nil {
		t.Fatal(err)
	}
	if g.Round != 2 || g.CombatantID != "ada" || len(g.Acted) != 0 {
		t.Fatalf("after the round ended: %+v", g)
	}
	if _, err := turns.StepPassing(g, order, turns.CombatEnd, ""); err != nil {
		t.Fatal(err)
	}
	if g.Started || g.CombatantID != "" || len(g.Acted) != 0 {
		t.Fatalf("after end: %+v", g)
	}
}

// A combatant defeated or removed mid-round does not hold the round up.
func TestStepPassingForgetsThoseWhoLeft(t *testing.T) {
	order := turns.PassingOrder([]*core.Combatant{{ID: "a"}, {ID: "b"}, {ID: "c"}})
	g := &core.Game{}
	mustStep := func(action, to string) {
		t.Helper()
		if _, err := turns.StepPassing(g, order, action, to); err != nil {
			t.Fatal(err)
		}
	}
	mustStep(turns.CombatStart, "")
	mustStep(turns.CombatPass, "b") // a acted
	order = turns.PassingOrder([]*core.Combatant{{ID: "b"}, {ID: "c"}})
	mustStep(turns.CombatPass, "c") // b acted; a is gone
	if !slices.Equal(g.Acted, []string{"b"}) || g.Round != 1 {
		t.Fatalf("acted = %v round %d", g.Acted, g.Round)
	}
	mustStep(turns.CombatNext, "") // c was the last of those left: round 2
	if g.Round != 2 || g.CombatantID != "b" {
		t.Fatalf("after the last left: %+v", g)
	}
	if _, err := turns.StepPassing(&core.Game{}, nil, turns.CombatStart, ""); core.KindOf(err) != core.KindInvalid {
		t.Fatalf("start with no one: %v", err)
	}
}

// Players never learn that a hidden combatant acted.
func TestPlayersSeeNoHiddenActed(t *testing.T) {
	g := &core.Game{Started: true, Round: 1, Turn: 1, CombatantID: "a", Acted: []string{"ghost", "b"},
		Combatants: []*core.Combatant{{ID: "a"}, {ID: "b"}, {ID: "ghost", Hidden: true}}}
	out := redact.GameForPlayers(g)
	if !slices.Equal(out.Acted, []string{"b"}) {
		t.Fatalf("players' acted = %v", out.Acted)
	}
	if turn := core.TurnOf(out); !slices.Equal(turn.Acted, []string{"b"}) {
		t.Fatalf("players' turn acted = %v", turn.Acted)
	}
}
