package core

import "context"

// The game master's combat changes (the host console): combatants added
// from tokens or entities, initiative rolled through the system's rules,
// hit points changed by damage and healing, combatants hidden or removed.
// Each runs in one transaction and tells clients combatantUpdated for what
// changed, gameUpdated (players without the hidden combatants) and, for a
// combatant with a token, tokenUpdated (its bloodied and dead).

// NewCombatant asks for a combatant in the primary campaign's game, from a
// token on a map (its entity, name, role and image come along) or from an
// entity alone.
type NewCombatant struct {
	TokenID  string `json:"tokenId"`
	EntityID string `json:"entityId"`
	Name     string `json:"name"`
	Hidden   bool   `json:"hidden"`
}

// InitiativeRule is how the loaded system rolls a combatant's initiative:
// the formula (config combat.initiative.rollFormula, or the entity's
// initiative hook's), a bonus added to it, and a tie-break (higher acts
// first among equal values). AutoRoll is config autoRoll ("hostile",
// "all" or "").
type InitiativeRule struct {
	Formula  string  `json:"formula"`
	Bonus    float64 `json:"bonus"`
	Tiebreak float64 `json:"tiebreak"`
	AutoRoll string  `json:"autoRoll,omitempty"`
}

// InitiativeRules is implemented by Rules whose system says how initiative
// is rolled. e may be nil.
type InitiativeRules interface {
	InitiativeFor(ctx context.Context, e *Entity) (*InitiativeRule, error)
}

// TotalRoller rolls a dice formula to a number (the dice package's Roller).
type TotalRoller interface {
	Total(expr string) (float64, error)
}

// sharedCombatant is the existing combatant of a unique entity, if any.
func sharedCombatant(existing []*Combatant, c *Combatant, rules Rules) *Combatant {
	if c.EntityID == "" || rules == nil || !rules.IsUnique(c.EntityType) {
		return nil
	}
	for _, old := range existing {
		if old.EntityID == c.EntityID {
			return old
		}
	}
	return nil
}

func autoRolls(autoRoll, role string) bool {
	switch autoRoll {
	case "all":
		return true
	case RoleHostile:
		return role == "" || role == RoleHostile
	case RoleFriendly, RoleNeutral:
		return role == autoRoll
	}
	return false
}

func setInitiative(c *Combatant, v any) {
	if len(c.Initiative) == 0 {
		c.Initiative = []Initiative{{ID: NewID(), Value: v}}
		return
	}
	c.Initiative = append([]Initiative(nil), c.Initiative...)
	c.Initiative[0].Value = v
	c.Initiative[0].Order = 0
}

// pick returns the combatants named by ids, all of them when ids is empty.
func pick(all []*Combatant, ids []string) ([]*Combatant, error) {
	if len(ids) == 0 {
		return all, nil
	}
	byID := map[string]*Combatant{}
	for _, c := range all {
		byID[c.ID] = c
	}
	out := make([]*Combatant, 0, len(ids))
	for _, id := range ids {
		c, ok := byID[id]
		if !ok {
			return nil, NotFoundf("no combatant with id '%s'", Clip(id))
		}
		out = append(out, c)
	}
	return out, nil
}

// HitPointChange is the game master's change to a combatant's hit points,
// in numbers: damage (temporary hit points go first), healing (up to the
// maximum), or temporary hit points (they do not stack: the new value
// replaces the old). The range is the system's first for the combatant's
// kind (D&D 5e: hit_points, with max_hit_points and temp_hit_points).
type HitPointChange struct {
	Damage  *float64 `json:"damage"`
	Healing *float64 `json:"healing"`
	Temp    *float64 `json:"temp"`
}

func cloneObject(o Object) Object {
	out := make(Object, len(o))
	for k, v := range o {
		out[k] = v
	}
	return out
}

// combatantFor is combatantByID as players or the game master may read
// it: for players a hidden combatant does not exist, nor one outside the
// primary campaign's game (the only game they see).
func (s pinned) combatantFor(tx Tx, id string, players bool) (*Combatant, error) {
	c, err := combatantByID(tx, id)
	if err != nil || !players {
		return c, err
	}
	if c.Hidden {
		return nil, NotFoundf("no combatant with id '%s'", Clip(id))
	}
	if s.rules == nil {
		return c, nil
	}
	primary, err := s.primaryCampaign(tx)
	if err != nil && !IsNotFound(err) {
		return nil, err
	}
	if primary == nil || primary.ID != c.Campaign {
		return nil, NotFoundf("no combatant with id '%s'", Clip(id))
	}
	return c, nil
}

func combatantByID(tx Tx, id string) (*Combatant, error) {
	c, err := tx.Combatant(id)
	if IsNotFound(err) {
		return nil, NotFoundf("no combatant with id '%s'", Clip(id))
	}
	return c, err
}
