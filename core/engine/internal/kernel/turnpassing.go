package kernel

import (
	"github.com/vttapp/companion/core/turns"
)

// TurnsPassed reports a system whose combatants pass the turn.
func (s Pinned) TurnsPassed() bool {
	styler, ok := s.Rules.(turns.TurnStyler)
	return ok && styler.TurnStyle() == turns.TurnsPassed
}
