package kernel

import (
	"context"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/turns"
)

// ControlCombat is ControlCombat; guard, when not nil, may refuse the
// action given the game as it stands in the same transaction (a player
// ending a turn that is not theirs).
func (p Pinned) ControlCombat(ctx context.Context, action, to string, guard func(g *core.Game) error) (*core.Game, error) {
	passed := p.TurnsPassed()
	switch action {
	case turns.CombatStart, turns.CombatNext, turns.CombatPrevious, turns.CombatEnd:
	case turns.CombatPass:
		if !passed {
			return nil, core.Conflictf("this system takes turns by initiative: use next instead of passing the turn")
		}
	default:
		return nil, core.Invalidf("unknown combat action '%s': use start, next, previous or end", action)
	}
	var out *core.Game
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := p.PrimaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		game, err := tx.Game(c.ID)
		if err != nil {
			return nil, err
		}
		if guard != nil {
			if err := guard(game); err != nil {
				return nil, err
			}
		}
		combatants, err := tx.Combatants(c.ID)
		if err != nil {
			return nil, err
		}
		ended := game.CombatantID
		step := turns.StepCombat
		if passed {
			step = func(g *core.Game, order []core.TurnSlot, action string) (bool, error) {
				return turns.StepPassing(g, order, action, to)
			}
		}
		changed, err := step(game, p.TurnOrder(combatants), action)
		if err != nil {
			return nil, err
		}
		game.Combatants = combatants
		out = game
		if !changed {
			return nil, nil
		}
		if err := tx.PutGame(c.ID, game); err != nil {
			return nil, err
		}
		var events []core.Event
		if action == turns.CombatNext || action == turns.CombatPass { // effects run out as turns pass (effects.go)
			for _, expired := range expireEffects(combatants, ended, game) {
				stored, err := p.StoreCombatant(tx, expired)
				if err != nil {
					return nil, err
				}
				events = append(events, stored...)
			}
		}
		views, err := p.gameViews(tx, game)
		if err != nil {
			return nil, err
		}
		// Only the turn moved: players get it without the lists (GameTurn).
		if pg, ok := views.Players.(*core.Game); ok {
			views.Players = core.TurnOf(pg)
		}
		events = append(events, core.Event{Name: core.EventGameUpdated, Data: views})
		if action == turns.CombatStart && !passed {
			// Seated players whose character has no initiative yet are
			// asked to roll it (or the game master rolls for them).
			ask, err := InitiativeRequest(tx, c.ID, combatants, nil)
			if err != nil {
				return nil, err
			}
			if ask != nil {
				events = append(events, *ask)
			}
		}
		return events, nil
	})
	return out, err
}
