package kernel

import (
	"math"
	"strconv"

	"github.com/vttapp/companion/core"
)

func sortCreatures(list []core.Creature) {
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && list[j].Rank < list[j-1].Rank; j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
}

// firstInitiative is a combatant's first numeric initiative value, or
// NoInitiative.
func firstInitiative(c *core.Combatant) float64 {
	for _, in := range c.Initiative {
		if v, ok := NumberOf(in.Value); ok {
			return v
		}
	}
	return core.NoInitiative
}

func NumberOf(v any) (float64, bool) {
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
