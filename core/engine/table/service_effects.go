package table

import (
	"context"
	"strings"

	"github.com/vttapp/companion/core"
)

// AddEffect puts a condition or effect on a combatant. While combat runs,
// roundStart and turnStart are the current round and turn unless given.
func (s *TableRoom) AddEffect(ctx context.Context, combatantID string, e core.StatusEffect) (*core.Combatant, error) {
	p := s.pin()
	if strings.TrimSpace(e.Name) == "" && e.Reference == "" {
		return nil, core.Invalidf("an effect needs a 'name' (or a 'reference' such as /condition/poisoned)")
	}
	if e.Duration < 0 {
		return nil, core.Invalidf("an effect's duration must not be negative")
	}
	return p.ChangeCombatant(ctx, combatantID, func(tx core.Tx, c *core.Combatant) error {
		game, err := tx.Game(c.Campaign)
		if err != nil {
			return err
		}
		if e.ID == "" {
			e.ID = core.NewID()
		}
		if e.Attributes == nil {
			e.Attributes = core.Object{}
		}
		if e.Modifiers == nil {
			e.Modifiers = []core.Modifier{}
		}
		if game.Started {
			if e.RoundStart == 0 {
				e.RoundStart = game.Round
			}
			if e.TurnStart == 0 {
				e.TurnStart = game.Turn
			}
		}
		for _, old := range c.Effects {
			if old.ID == e.ID {
				return core.Conflictf("combatant '%s' already has an effect with id '%s'", core.Clip(c.Name), core.Clip(e.ID))
			}
		}
		c.Effects = append(append([]core.StatusEffect(nil), c.Effects...), e)
		return nil
	})
}

// RemoveEffect takes an effect off a combatant.
func (s *TableRoom) RemoveEffect(ctx context.Context, combatantID, effectID string) (*core.Combatant, error) {
	p := s.pin()
	return p.ChangeCombatant(ctx, combatantID, func(_ core.Tx, c *core.Combatant) error {
		for i, e := range c.Effects {
			if e.ID == effectID {
				c.Effects = append(append([]core.StatusEffect(nil), c.Effects[:i]...), c.Effects[i+1:]...)
				return nil
			}
		}
		return core.NotFoundf("combatant '%s' has no effect with id '%s'", core.Clip(c.Name), core.Clip(effectID))
	})
}
