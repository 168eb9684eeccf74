package turns

import "github.com/vttapp/companion/core"

// How a system's combat hands out turns (config combat.turns).
// TurnsByInitiative, the default, rolls initiative and acts in its order.
// TurnsPassed rolls none: the one acting hands the turn to someone who has
// not acted this round (the game master may pick anyone at any time), and
// a new round begins once everyone has acted.
const (
	TurnsByInitiative = "initiative"
	TurnsPassed       = "passed"
)

// CombatPass is the combat action that hands the turn to a named
// combatant (TurnsPassed).
const CombatPass = "pass"

// TurnStyler is implemented by Rules whose system says how turns pass.
// Rules without it take turns by initiative.
type TurnStyler interface {
	TurnStyle() string
}

// VisibleActed is acted without the combatants players do not see.
func VisibleActed(acted []string, shown []*core.Combatant) []string {
	var out []string
	for _, id := range acted {
		if core.HasCombatant(shown, id) {
			out = append(out, id)
		}
	}
	return out
}

// TurnPass names who acts next when a turn is passed: the data of endTurn
// (optional) and the body of POST /host/api/game/pass.
type TurnPass struct {
	To string `json:"to"`
}
