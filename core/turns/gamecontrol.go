package turns

import "github.com/vttapp/companion/core"

// Combat actions of the host console's game controls.
const (
	CombatStart    = "start"
	CombatNext     = "next"
	CombatPrevious = "previous"
	CombatEnd      = "end"
)

// CurrentSlot finds the acting slot in the order by its initiative id (then
// its combatant); when it is gone, the position its turn number names
// (which may be past the end when the last slot left).
func CurrentSlot(g *core.Game, order []core.TurnSlot) (int, bool) {
	for i, slot := range order {
		if g.InitiativeID != "" && slot.InitiativeID == g.InitiativeID && slot.CombatantID == g.CombatantID {
			return i, true
		}
	}
	if g.InitiativeID == "" && g.CombatantID != "" {
		for i, slot := range order {
			if slot.CombatantID == g.CombatantID {
				return i, true
			}
		}
	}
	return max(g.Turn-1, 0), false
}
