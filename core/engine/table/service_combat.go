package table

import (
	"context"
	"math"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// AddCombatants adds combatants to the primary campaign's game. A unique
// entity (a character) keeps its one shared combatant: asking again links
// the token to it rather than adding a second. New combatants whose role
// the system's autoRoll names get their initiative rolled at once.
func (s *TableRoom) AddCombatants(ctx context.Context, list []core.NewCombatant) ([]*core.Combatant, error) {
	p := s.pin()
	if len(list) == 0 {
		return nil, core.Invalidf("give at least one combatant: {\"tokenId\"} or {\"entityId\"}")
	}
	type prepared struct {
		c    *core.Combatant
		rule *core.InitiativeRule
		tok  *core.Token
	}
	var ready []prepared
	for i, n := range list {
		if (n.TokenID == "") == (n.EntityID == "") {
			return nil, core.Invalidf("combatant %d: give exactly one of 'tokenId' and 'entityId'", i+1)
		}
		c := &core.Combatant{Name: n.Name, Hidden: n.Hidden, Role: core.RoleHostile}
		var tok *core.Token
		entityID := n.EntityID
		if n.TokenID != "" {
			t, err := s.Token(ctx, n.TokenID)
			if err != nil {
				return nil, err
			}
			tok = t
			id := t.ID
			c.TokenID = &id
			if c.Name == "" {
				c.Name = t.Name
			}
			if t.Role != "" {
				c.Role = t.Role
			}
			c.Image, c.Reference, c.Player = t.Image, t.Reference, t.Player
			c.Hidden = c.Hidden || t.Hidden
			if t.EntityID != nil {
				entityID = *t.EntityID
			}
		}
		var e *core.Entity
		if entityID != "" {
			var err error
			if e, err = p.Entity(ctx, "", entityID); err != nil {
				return nil, err
			}
			p.FromEntity(c, e, tok == nil)
		}
		if c.Name == "" {
			return nil, core.Invalidf("combatant %d: it needs a name", i+1)
		}
		rule, err := p.InitiativeRule(ctx, e)
		if err != nil {
			return nil, err
		}
		ready = append(ready, prepared{c: c, rule: rule, tok: tok})
	}
	var out []*core.Combatant
	err := p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		camp, err := p.PrimaryCampaign(tx)
		if err != nil {
			return nil, err
		}
		existing, err := tx.Combatants(camp.ID)
		if err != nil {
			return nil, err
		}
		rank := 0
		for _, c := range existing {
			rank = max(rank, c.Rank)
		}
		var changed []*core.Combatant
		inCombat := map[string]bool{} // token ids that have a combatant
		for _, c := range existing {
			if c.TokenID != nil && *c.TokenID != "" {
				inCombat[*c.TokenID] = true
			}
		}
		for _, item := range ready {
			c := item.c
			if c.TokenID != nil {
				// A second click on Add to combat: the token has its
				// combatant, and a second would take a second turn.
				if inCombat[*c.TokenID] {
					return nil, core.Conflictf("'%s' is in combat already", core.Clip(c.Name))
				}
				inCombat[*c.TokenID] = true
			}
			if shared := kernel.SharedCombatant(existing, c, p.Rules); shared != nil {
				if c.TokenID != nil {
					shared.TokenID = c.TokenID
				}
				c = shared
			} else {
				rank++
				c.Campaign, c.Rank = camp.ID, rank
				if item.rule != nil && kernel.AutoRolls(item.rule.AutoRoll, c.Role) {
					if err := p.RollOne(c, item.rule); err != nil {
						return nil, err
					}
				}
			}
			changed = append(changed, c)
		}
		out = changed
		return p.StoreCombat(tx, camp.ID, changed)
	})
	return out, err
}

// RollInitiative rolls initiative for the given combatants (every one when
// ids is empty) through the system's rules, then settles ties among equal
// values by the system's tie-break, then a roll-off, by reordering the
// combatants' ranks (ties keep rank order: see TurnOrder).
func (s *TableRoom) RollInitiative(ctx context.Context, ids []string) ([]*core.Combatant, error) {
	p := s.pin()
	if p.TurnsPassed() {
		return nil, core.Conflictf("this game has no initiative: the one acting passes the turn")
	}
	var camp *core.Campaign
	var combatants []*core.Combatant
	err := p.Store.View(ctx, func(tx core.Tx) error {
		var err error
		if camp, err = p.PrimaryCampaign(tx); err != nil {
			return err
		}
		combatants, err = tx.Combatants(camp.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	chosen, err := kernel.Pick(combatants, ids)
	if err != nil {
		return nil, err
	}
	tiebreak := map[string]float64{}
	totals := map[string]any{} // the new values, applied to the combatants as they are at the write
	for _, c := range chosen {
		var e *core.Entity
		if c.EntityID != "" {
			if e, err = p.Entity(ctx, "", c.EntityID); err != nil && !core.IsNotFound(err) {
				return nil, err
			}
		}
		rule, err := p.InitiativeRule(ctx, e)
		if err != nil {
			return nil, err
		}
		cp := *c
		if err := p.RollOne(&cp, rule); err != nil {
			return nil, err
		}
		tiebreak[c.ID] = rule.Tiebreak
		totals[c.ID] = cp.Initiative[0].Value
	}
	return p.ApplyInitiativeOut(ctx, camp.ID, totals, tiebreak)
}

// SetInitiative sets a combatant's initiative value (the game master's
// edit): a number, or null to take it out of the turn order.
func (s *TableRoom) SetInitiative(ctx context.Context, id string, value *float64) (*core.Combatant, error) {
	p := s.pin()
	return p.ChangeCombatant(ctx, id, func(_ core.Tx, c *core.Combatant) error {
		if value == nil {
			kernel.SetInitiative(c, nil)
			return nil
		}
		if math.IsNaN(*value) || math.IsInf(*value, 0) {
			return core.Invalidf("initiative must be a finite number")
		}
		kernel.SetInitiative(c, *value)
		return nil
	})
}

// DeleteCombatant removes a combatant from the game. When it was acting,
// Next turn passes to the one that moved into its place.
func (s *TableRoom) DeleteCombatant(ctx context.Context, id string) error {
	p := s.pin()
	return p.Write(ctx, func(tx core.Tx) ([]core.Event, error) {
		c, err := kernel.CombatantByID(tx, id)
		if err != nil {
			return nil, err
		}
		if err := tx.DeleteCombatant(id); err != nil {
			return nil, err
		}
		events, err := p.GameEvents(tx, c.Campaign)
		if err != nil {
			return nil, err
		}
		if c.TokenID != nil {
			tokenEvents, err := p.LinkedTokenEvents(tx, []*core.Combatant{c})
			if err != nil {
				return nil, err
			}
			events = append(events, tokenEvents...)
		}
		return events, nil
	})
}

// PatchCombatantInGame merges a patch into a combatant as PatchCombatant
// does, and also tells clients gameUpdated and its token: hiding a
// combatant takes it out of the players' initiative list.
func (s *TableRoom) PatchCombatantInGame(ctx context.Context, id string, patch core.Object) (*core.Combatant, error) {
	p := s.pin()
	if err := kernel.CheckPatchID(patch, id); err != nil {
		return nil, err
	}
	return p.ChangeCombatant(ctx, id, func(_ core.Tx, c *core.Combatant) error {
		next, err := kernel.MergePatch[core.Combatant](patch).Next(c)
		if err != nil {
			return err
		}
		next.RestoreServerOwned(c, false)
		*c = *next
		return nil
	})
}

// TurnOrder is the turn order of combatants under the loaded system's
// sort direction.
func (s *TableRoom) TurnOrder(combatants []*core.Combatant) []core.TurnSlot {
	return s.pin().TurnOrder(combatants)
}
