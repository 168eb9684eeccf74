package engine

import (
	"github.com/vttapp/companion/core/turns"
)

// turnsPassed reports a system whose combatants pass the turn.
func (s pinned) turnsPassed() bool {
	styler, ok := s.rules.(turns.TurnStyler)
	return ok && styler.TurnStyle() == turns.TurnsPassed
}
