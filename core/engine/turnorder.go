package engine

import (
	"slices"

	"github.com/vttapp/companion/core/turns"

	"github.com/vttapp/companion/core"
)

// keepExplicitOrder gives every rolled slot without an explicit order a
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
func keepExplicitOrder(all []*core.Combatant, ascending bool) []*core.Combatant {
	type slot struct {
		c  *core.Combatant
		i  int
		in core.Initiative
	}
	var ordered, unordered []slot
	for _, c := range all {
		for i, in := range c.Initiative {
			switch {
			case !turns.HasInitiativeValue(in.Value):
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
		an, aNum := turns.InitiativeNumber(a.Value)
		bn, bNum := turns.InitiativeNumber(b.Value)
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
