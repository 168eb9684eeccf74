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

// KeepExplicitOrder gives every rolled slot without an explicit order a
// place among the slots that have one, when some have one (a seeded or
// imported game: TurnOrder puts explicit orders first, so a combatant added
// to such a game, or one whose initiative the game master edited, would
// otherwise act after all of them whatever its value). The slots with an
// order keep theirs relative to each other; each slot without one goes
// before the first of them whose value it beats (after those it ties
// with), as TurnOrder's value order reads it; then the orders are numbered
// 1, 2, ... along the result. all is every combatant of the game as it
// will be stored; the combatants whose orders changed are returned, their
// initiative slots copied before they are changed. A game with no
// explicit order, or none without one, is left as it is.
func KeepExplicitOrder(all []*core.Combatant, ascending bool) []*core.Combatant {
	type slot struct {
		c  *core.Combatant
		i  int
		in core.Initiative
	}
	var ordered, unordered []slot
	for _, c := range all {
		for i, in := range c.Initiative {
			switch {
			case !HasInitiativeValue(in.Value):
			case in.Order > 0:
				ordered = append(ordered, slot{c, i, in})
			default:
				unordered = append(unordered, slot{c, i, in})
			}
		}
	}
	if len(ordered) == 0 || len(unordered) == 0 {
		return nil
	}
	slices.SortStableFunc(ordered, func(a, b slot) int { return a.in.Order - b.in.Order })
	// first reports whether a acts before b by value alone: numbers before
	// other values, then highest (lowest when ascending) first.
	first := func(a, b core.Initiative) bool {
		an, aNum := InitiativeNumber(a.Value)
		bn, bNum := InitiativeNumber(b.Value)
		switch {
		case aNum && bNum:
			if ascending {
				return an < bn
			}
			return an > bn
		case aNum:
			return true
		}
		return false
	}
	slices.SortStableFunc(unordered, func(a, b slot) int {
		switch {
		case first(a.in, b.in):
			return -1
		case first(b.in, a.in):
			return 1
		}
		return 0
	})
	merged := make([]slot, 0, len(ordered)+len(unordered))
	for len(ordered) > 0 || len(unordered) > 0 {
		if len(unordered) > 0 && (len(ordered) == 0 || first(unordered[0].in, ordered[0].in)) {
			merged = append(merged, unordered[0])
			unordered = unordered[1:]
			continue
		}
		merged = append(merged, ordered[0])
		ordered = ordered[1:]
	}
	var changed []*core.Combatant
	copied := map[*core.Combatant]bool{}
	for n, s := range merged {
		if s.in.Order == n+1 {
			continue
		}
		if !copied[s.c] {
			s.c.Initiative = append([]core.Initiative(nil), s.c.Initiative...)
			copied[s.c] = true
			changed = append(changed, s.c)
		}
		s.c.Initiative[s.i].Order = n + 1
	}
	return changed
}
