package seats

import (
	"context"
	"math"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/engine/internal/kernel"
)

// ChangeHitPoints applies damage, healing or temporary hit points to a
// combatant, clamped at 0 and at its maximum; bloodied (at half or less)
// and defeated (at 0) follow. A shared combatant's hit points go back to
// its character. Clients get combatantUpdated, gameUpdated and its token.
func (s *SeatsRoom) ChangeHitPoints(ctx context.Context, id string, ch core.HitPointChange) (*core.Combatant, error) {
	p := s.pin()
	if err := checkHitPointChange(ch); err != nil {
		return nil, err
	}
	return p.ChangeCombatant(ctx, id, func(tx core.Tx, c *core.Combatant) error {
		r := p.hitPointRange(c)
		if r == "" {
			return core.Invalidf("combatant '%s' has no hit points: its kind has no range in this system", core.Clip(c.Name))
		}
		if c.Data == nil {
			c.Data = core.Object{}
		} else {
			c.Data = kernel.CloneObject(c.Data)
		}
		cur, ok := kernel.NumberOf(c.Data[r])
		if !ok {
			return core.Invalidf("combatant '%s' has no %s value to change", core.Clip(c.Name), r)
		}
		maxHP, err := p.hitPointMaximum(tx, c, r, cur)
		if err != nil {
			return err
		}
		cur = applyHitPoints(c.Data, r, cur, maxHP, ch)
		c.Bloodied = cur > 0 && cur <= maxHP/2
		c.Defeated = cur <= 0
		return nil
	})
}

// applyHitPoints changes the hit points in data (key r, its temporary
// hit points under temp_<r>) by one change, the game master's rules:
// damage takes temporary hit points first, hit points stay between 0 and
// maxHP, temporary hit points do not stack. It returns the new current
// value.
func applyHitPoints(data core.Object, r string, cur, maxHP float64, ch core.HitPointChange) float64 {
	temp, _ := kernel.NumberOf(data["temp_"+r])
	switch {
	case ch.Damage != nil:
		rest := *ch.Damage
		absorbed := math.Min(temp, rest)
		temp -= absorbed
		rest -= absorbed
		cur = math.Max(0, cur-rest)
	case ch.Healing != nil:
		cur = math.Min(maxHP, cur+*ch.Healing)
	case ch.Temp != nil:
		temp = *ch.Temp
	}
	data[r] = cur
	if temp > 0 {
		data["temp_"+r] = temp
	} else {
		delete(data, "temp_"+r)
	}
	return cur
}

// checkHitPointChange refuses a change that is not exactly one
// non-negative number.
func checkHitPointChange(ch core.HitPointChange) error {
	given := 0
	for name, v := range map[string]*float64{"damage": ch.Damage, "healing": ch.Healing, "temp": ch.Temp} {
		if v == nil {
			continue
		}
		given++
		if math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0 {
			return core.Invalidf("%s must be a number of 0 or more", name)
		}
	}
	if given != 1 {
		return core.Invalidf(`give one of {"damage": n}, {"healing": n} or {"temp": n}`)
	}
	return nil
}

// hitPointMaximum is a combatant's maximum for its range r (whose current
// value is cur): its own maxKey(r), else its entity's; else, for an entity
// of a kind that is not unique (a monster's stat block, which play never
// changes), the entity's value of r, its full hit points; else cur. A
// maximum read from the entity is written into the combatant's data (not a
// shared combatant's: its character holds the maximum, healthSources), so
// that players' health and the console read it from then on: combatants
// seeded or imported without one (a D&D 5e SRD monster carries its hit_points alone)
// were otherwise taken to be at full health whatever they had lost.
func (s seatsPinned) hitPointMaximum(tx core.Tx, c *core.Combatant, r string, cur float64) (float64, error) {
	key := kernel.MaxKey(r)
	if m, ok := kernel.NumberOf(c.Data[key]); ok {
		return m, nil
	}
	if c.EntityID == "" {
		return cur, nil
	}
	e, err := tx.Entity(c.EntityID)
	if core.IsNotFound(err) {
		return cur, nil // links are soft
	}
	if err != nil {
		return 0, err
	}
	if m, ok := kernel.NumberOf(e.Data[key]); ok {
		return m, nil
	}
	if s.Rules.IsUnique(e.Kind) {
		return cur, nil
	}
	m, ok := kernel.NumberOf(e.Data[r])
	if !ok {
		return cur, nil
	}
	m = math.Max(m, cur)
	c.Data[key] = m
	return m, nil
}

// hitPointRange is the system's first range for a combatant's kind, or,
// when it has no kind, the first of the system's hit point ranges
// (RangeLister) that its data carries: the system names the key, the core
// knows none.
func (s seatsPinned) hitPointRange(c *core.Combatant) string {
	if s.Rules == nil {
		return ""
	}
	if c.EntityType != "" {
		if ranges := s.Rules.Ranges(c.EntityType); len(ranges) > 0 {
			return ranges[0]
		}
		return ""
	}
	if lister, ok := s.Rules.(core.RangeLister); ok {
		for _, r := range lister.HitPointRanges() {
			if _, ok := c.Data[r]; ok {
				return r
			}
		}
	}
	return ""
}
