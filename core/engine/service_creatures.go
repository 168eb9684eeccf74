package engine

import "github.com/vttapp/companion/core"

// withCreatures returns g (a player's game: hidden combatants already left
// out) with its creatures filled in; maxima missing from a combatant are
// read from its entity in tx (healthSources).
func (s pinned) withCreatures(tx core.Tx, g *core.Game) (*core.Game, error) {
	sources, err := s.healthSources(tx, g.Combatants)
	if err != nil {
		return nil, err
	}
	g.Creatures = s.creatures(sources)
	return g, nil
}

// healthSources returns combatants whose data carries the maximum of their
// first range (data["max_<range>"]): a friendly combatant without one gets
// a copy with its entity's, when the entity has it (a shared combatant
// keeps only the current value in step: D&D 5e characters hold
// max_hit_points on the character). Others are returned as they are.
func (s pinned) healthSources(tx core.Tx, combatants []*core.Combatant) ([]*core.Combatant, error) {
	if s.rules == nil {
		return combatants, nil
	}
	out, copied := combatants, false
	for i, c := range combatants {
		if c.Role != core.RoleFriendly || c.EntityID == "" || c.EntityType == "" {
			continue
		}
		ranges := s.rules.Ranges(c.EntityType)
		if len(ranges) == 0 {
			continue
		}
		key := maxKey(ranges[0])
		if _, ok := numberOf(c.Data[key]); ok {
			continue
		}
		e, err := tx.Entity(c.EntityID)
		if core.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		max, ok := numberOf(e.Data[key])
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

// Creatures lists the visible combatants as rows of game.creatures, in
// turn order: those that take a turn first (rank 1...), then the others in
// their stored order. Health follows the system's ranges (see Health).
func (s *libraryRoom) Creatures(combatants []*core.Combatant) []core.Creature {
	return s.pin().creatures(combatants)
}

func (s pinned) creatures(combatants []*core.Combatant) []core.Creature {
	rank := map[string]int{}
	for _, slot := range s.turnOrder(combatants) {
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
		health, hitpoints := s.health(c)
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

// Health returns what players may know of a combatant's hit points, as
// health (current) and hitpoints (maximum). The value is the first range
// the loaded system keeps in step for the combatant's kind (D&D 5e's hit_points);
// the maximum is data["max_<range>"] when present (see
// healthSources: the combatant's, else its entity's), else the current
// value. Only friendly combatants (the party and its allies) give
// numbers: a hostile or neutral creature's exact hit points are the game
// master's, players learn only bloodied and dead. Both are nil when there
// is nothing to tell.
func (s *libraryRoom) Health(c *core.Combatant) (health, hitpoints *float64) {
	return s.pin().health(c)
}

func (s pinned) health(c *core.Combatant) (health, hitpoints *float64) {
	if !core.NumbersShown(c) || s.rules == nil || c.EntityType == "" {
		return nil, nil
	}
	ranges := s.rules.Ranges(c.EntityType)
	if len(ranges) == 0 {
		return nil, nil
	}
	cur, ok := numberOf(c.Data[ranges[0]])
	if !ok {
		return nil, nil
	}
	max := cur
	if m, ok := numberOf(c.Data[maxKey(ranges[0])]); ok {
		max = m
	}
	return &cur, &max
}
