package core

// Creature is one row of game.creatures: the initiative list as the real
// Encounter+ web client reads it, beside the contract's game.combatants.
// Rows are the visible combatants in turn order.
type Creature struct {
	ID         string   `json:"id"`
	UID        string   `json:"uid"`
	Type       string   `json:"type"`
	Name       string   `json:"name"`
	Role       string   `json:"role"`
	Rank       int      `json:"rank"`
	Initiative float64  `json:"initiative"`
	Health     *float64 `json:"health"`
	Hitpoints  *float64 `json:"hitpoints"`
	Bloodied   bool     `json:"bloodied"`
	Dead       bool     `json:"dead"`
	Hidden     bool     `json:"hidden"`
	TokenID    *string  `json:"tokenId"`
	Image      *string  `json:"image"`
	Player     bool     `json:"player"`
}

// NoInitiative is the initiative of a creature that has none, as the real
// client reads it.
const NoInitiative = -10
