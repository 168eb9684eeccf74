package table

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/turns"
)

// ControlCombat runs one combat action on the primary campaign's game in one
// transaction: CombatStart begins round 1 with the first slot of the turn
// order acting; CombatNext passes the turn on (after the last slot a new
// round begins); CombatPrevious goes back one slot (into the previous round
// from the first); CombatEnd stops combat, and ending a combat that is not
// running changes nothing and tells no one. It returns the game with every combatant (the host sees
// hidden ones); clients get gameUpdated with the game as players see it
// (hidden combatants left out, as in GET /api).
func (s *TableRoom) ControlCombat(ctx context.Context, action string) (*core.Game, error) {
	return s.pin().ControlCombat(ctx, action, "", nil)
}

// PassTurn hands the turn to combatant to (CombatPass), or starts combat
// with them acting, in a system whose turns are passed (TurnsPassed): the
// game master may pick anyone who has not acted this round.
func (s *TableRoom) PassTurn(ctx context.Context, to string) (*core.Game, error) {
	p := s.pin()
	if !p.TurnsPassed() {
		return nil, core.Conflictf("this system takes turns by initiative: use next instead of passing the turn")
	}
	return p.ControlCombat(ctx, turns.CombatPass, to, nil)
}
