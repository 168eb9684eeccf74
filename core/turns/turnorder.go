package turns

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/vttapp/companion/core"
)

// InitiativeSorter is implemented by Rules whose system says which way
// initiative sorts (config combat.initiative.sortOrder). Rules without it
// sort highest first, as most systems do.
type InitiativeSorter interface {
	// InitiativeAscending reports a system whose lowest initiative acts
	// first (sortOrder "asc").
	InitiativeAscending() bool
}

// TurnOrder lists the slots that take a turn, in the order they act.
// A slot takes part when its value is set and its combatant is not
// defeated. Slots with an explicit order (Initiative.Order, 1-based) come
// first by that order; the others follow by value, highest first unless
// ascending (numbers before values that are not numbers either way). Ties
// keep the combatants' rank and the slots' position, so the order is
// stable between calls.
func TurnOrder(combatants []*core.Combatant, ascending bool) []core.TurnSlot {
	type ranked struct {
		slot    core.TurnSlot
		order   int
		number  float64
		numeric bool
	}
	var all []ranked
	for _, c := range combatants {
		if c.Defeated {
			continue
		}
		for _, in := range c.Initiative {
			if !HasInitiativeValue(in.Value) {
				continue
			}
			name := c.Name
			if c.Label != "" && c.Label != c.Name {
				name = strings.TrimSpace(c.Name + " " + c.Label)
			}
			if in.Name != "" {
				name += " (" + in.Name + ")"
			}
			n, numeric := InitiativeNumber(in.Value)
			all = append(all, ranked{
				slot:  core.TurnSlot{CombatantID: c.ID, InitiativeID: in.ID, Name: name, Value: in.Value, Hidden: c.Hidden, Role: c.Role},
				order: in.Order, number: n, numeric: numeric,
			})
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		switch {
		case a.order > 0 && b.order > 0:
			return a.order - b.order
		case a.order > 0:
			return -1
		case b.order > 0:
			return 1
		case a.numeric && b.numeric:
			first, second := a.number, b.number
			if ascending {
				first, second = second, first
			}
			switch {
			case first > second:
				return -1
			case first < second:
				return 1
			}
			return 0
		case a.numeric:
			return -1
		case b.numeric:
			return 1
		}
		return 0
	})
	out := make([]core.TurnSlot, len(all))
	for i, r := range all {
		out[i] = r.slot
	}
	return out
}

// HasInitiativeValue reports whether a slot was rolled: none, null and an
// empty string are unrolled.
func HasInitiativeValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return strings.TrimSpace(x) != ""
	}
	return true
}

// InitiativeNumber reads a numeric initiative value (JSON numbers decode
// as float64; a number written as text counts too).
func InitiativeNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}
