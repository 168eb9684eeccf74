package kernel

import (
	"github.com/vttapp/companion/core"
)

// withCreatures returns g (a player's game: hidden combatants already left
// out) with its creatures filled in; maxima missing from a combatant are
// read from its entity in tx (healthSources).
func (s Pinned) withCreatures(tx core.Tx, g *core.Game) (*core.Game, error) {
	sources, err := s.healthSources(tx, g.Combatants)
	if err != nil {
		return nil, err
	}
	g.Creatures = s.Creatures(sources)
	return g, nil
}

// healthSources returns combatants whose data carries the maximum of their
// first range (data["max_<range>"]): a friendly combatant without one gets
// a copy with its entity's, when the entity has it (a shared combatant
// keeps only the current value in step: D&D 5e characters hold
// max_hit_points on the character). Others are returned as they are.
func (s Pinned) healthSources(tx core.Tx, combatants []*core.Combatant) ([]*core.Combatant, error) {
	if s.Rules == nil {
		return combatants, nil
	}
	out, copied := combatants, false
	for i, c := range combatants {
		if c.Role != core.RoleFriendly || c.EntityID == "" || c.EntityType == "" {
			continue
		}
		ranges := s.Rules.Ranges(c.EntityType)
		if len(ranges) == 0 {
			continue
		}
		key := MaxKey(ranges[0])
		if _, ok := NumberOf(c.Data[key]); ok {
			continue
		}
		e, err := tx.Entity(c.EntityID)
		if core.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		max, ok := NumberOf(e.Data[key])
		if !ok {
			continue
		}
		if !copied {
			out, copied = append([]*core.Combatant(nil), combatants...), true // the caller's list stays as it is
		}
		cp := *c
		cp.Data = make(core.Object, len(c.Data)+1)
		for k, v := range c.Data {
			cp.Data[k] = v
		}
		cp.Data[key] = max
		out[i] = &cp
	}
	return out, nil
}

func (s Pinned) Creatures(combatants []*core.Combatant) []core.Creature {
	rank := map[string]int{}
	for _, slot := range s.TurnOrder(combatants) {
		if _, seen := rank[slot.CombatantID]; !seen {
			rank[slot.CombatantID] = len(rank) + 1
		}
	}
	inOrder := len(rank)
	out := make([]core.Creature, 0, len(combatants))
	var rest []core.Creature
	for _, c := range combatants {
		if c.Hidden {
			continue
		}
		health, hitpoints := s.Health(c)
		cr := core.Creature{
			ID: c.ID, UID: c.Label, Type: c.EntityType, Name: c.Name, Role: c.Role,
			Initiative: firstInitiative(c), Health: health, Hitpoints: hitpoints,
			Bloodied: c.Bloodied, Dead: c.Defeated, Hidden: c.Hidden,
			TokenID: c.TokenID, Image: c.Image, Player: c.Player,
		}
		if cr.UID == "" {
			cr.UID = c.Name
		}
		if cr.Role == "" {
			cr.Role = core.RoleHostile
		}
		if r, ok := rank[c.ID]; ok {
			cr.Rank = r
			out = append(out, cr)
			continue
		}
		inOrder++
		cr.Rank = inOrder
		rest = append(rest, cr)
	}
	sortCreatures(out)
	return append(out, rest...)
}

func (s Pinned) Health(c *core.Combatant) (health, hitpoints *float64) {
	if !core.NumbersShown(c) || s.Rules == nil || c.EntityType == "" {
		return nil, nil
	}
	ranges := s.Rules.Ranges(c.EntityType)
	if len(ranges) == 0 {
		return nil, nil
	}
	cur, ok := NumberOf(c.Data[ranges[0]])
	if !ok {
		return nil, nil
	}
	max := cur
	if m, ok := NumberOf(c.Data[MaxKey(ranges[0])]); ok {
		max = m
	}
	return &cur, &max
}
