package core

import (
	"math"
	"strconv"
)

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

func sortCreatures(list []Creature) {
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && list[j].Rank < list[j-1].Rank; j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
}

// firstInitiative is a combatant's first numeric initiative value, or
// NoInitiative.
func firstInitiative(c *Combatant) float64 {
	for _, in := range c.Initiative {
		if v, ok := numberOf(in.Value); ok {
			return v
		}
	}
	return NoInitiative
}

func numberOf(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, !math.IsNaN(n) && !math.IsInf(n, 0)
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case string:
		f, err := strconv.ParseFloat(n, 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}
