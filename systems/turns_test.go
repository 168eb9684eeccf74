package systems

import (
	"testing"

	"github.com/vttapp/companion/core/turns"

	"github.com/vttapp/companion/core"
)

// turnsSystem is a one-kind system whose config sets combat.turns (and a
// health bar labelled "VIG").
func turnsSystem(turns string) map[string]string {
	return map[string]string{
		"system.json": okManifest,
		"system.lua": `local companion = require("companion")
companion.entity("monster", { collection = "monsters", view = function(e) return {} end })
companion.system{ config = { combat = { turns = ` + turns + ` }, entities = { Default = { combatant = { bars = { { attribute = "data.vigour", label = "VIG" } } } } } } }
`,
		"templates/monster.html": "<p>{{ view.name }}</p>",
	}
}

func TestTurnStyleComesFromConfig(t *testing.T) {
	for style, want := range map[string]string{`"passed"`: turns.TurnsPassed, `"initiative"`: turns.TurnsByInitiative, `nil`: turns.TurnsByInitiative} {
		s, err := Load(mapFS(turnsSystem(style)), Options{})
		if err != nil {
			t.Fatalf("turns %s: %v", style, err)
		}
		if got := s.TurnStyle(); got != want {
			t.Errorf("turns %s: TurnStyle = %q, want %q", style, got, want)
		}
		var rules core.Rules = NewHolder(s)
		if styler, ok := rules.(turns.TurnStyler); !ok || styler.TurnStyle() != want {
			t.Errorf("turns %s: the holder does not pass the style on to core", style)
		}
		if s.HealthLabel() != "VIG" {
			t.Errorf("health label = %q, want the first bar's VIG", s.HealthLabel())
		}
		s.Close()
	}
	tiny := loadTiny(t)
	if tiny.TurnStyle() != turns.TurnsByInitiative || tiny.HealthLabel() != "Health" {
		t.Errorf("a system without combat config: %q %q", tiny.TurnStyle(), tiny.HealthLabel())
	}
}

func TestTurnStyleMustBeKnown(t *testing.T) {
	for _, bad := range []string{`"popcorn"`, `1`} {
		got := problemsOf(t, turnsSystem(bad))
		expectProblems(t, got, `system.lua:3: companion.system: config.combat.turns must be "initiative" or "passed", not `)
	}
}
