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
