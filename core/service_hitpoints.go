package core

import (
	"context"
	"math"
)

// ChangeHitPoints applies damage, healing or temporary hit points to a
// combatant, clamped at 0 and at its maximum; bloodied (at half or less)
// and defeated (at 0) follow. A shared combatant's hit points go back to
// its character. Clients get combatantUpdated, gameUpdated and its token.
func (s *Service) ChangeHitPoints(ctx context.Context, id string, ch HitPointChange) (*Combatant, error) {
	p := s.pin()
	if err := checkHitPointChange(ch); err != nil {
		return nil, err
	}
	return p.changeCombatant(ctx, id, func(tx Tx, c *Combatant) error {
		r := p.hitPointRange(c)
		if r == "" {
			return Invalidf("combatant '%s' has no hit points: its kind has no range in this system", Clip(c.Name))
		}
		if c.Data == nil {
			c.Data = Object{}
		} else {
			c.Data = cloneObject(c.Data)
		}
		cur, ok := numberOf(c.Data[r])
		if !ok {
			return Invalidf("combatant '%s' has no %s value to change", Clip(c.Name), r)
		}
		maxHP, ok := numberOf(c.Data["max_"+r])
		if !ok {
			maxHP = cur
			// A shared combatant keeps only the current value in step; its
			// character holds the maximum (healthSources).
			if c.EntityID != "" {
				if e, err := tx.Entity(c.EntityID); err == nil {
					if m, ok := numberOf(e.Data["max_"+r]); ok {
						maxHP = m
					}
				} else if !IsNotFound(err) {
					return err
				}
			}
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
func applyHitPoints(data Object, r string, cur, maxHP float64, ch HitPointChange) float64 {
	temp, _ := numberOf(data["temp_"+r])
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
func checkHitPointChange(ch HitPointChange) error {
	given := 0
	for name, v := range map[string]*float64{"damage": ch.Damage, "healing": ch.Healing, "temp": ch.Temp} {
		if v == nil {
			continue
		}
		given++
		if math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0 {
			return Invalidf("%s must be a number of 0 or more", name)
		}
	}
	if given != 1 {
		return Invalidf(`give one of {"damage": n}, {"healing": n} or {"temp": n}`)
	}
	return nil
}

// hitPointRange is the system's first range for a combatant's kind, or
// the one its data carries when it has no kind.
func (s pinned) hitPointRange(c *Combatant) string {
	if s.rules == nil {
		return ""
	}
	if c.EntityType != "" {
		if ranges := s.rules.Ranges(c.EntityType); len(ranges) > 0 {
			return ranges[0]
		}
		return ""
	}
	if _, ok := c.Data["hit_points"]; ok {
		return "hit_points"
	}
	return ""
}
